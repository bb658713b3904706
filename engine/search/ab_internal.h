/*
 * ab_internal.h -- what the files of the alpha-beta searcher share: the
 * thread state, the node bookkeeping every search function does first
 * (ab.c's main search and quiescence, ab_solve.c's exact solver), and the
 * move picker (ab_pick.c).  Private to engine/search/.
 */
#ifndef MORELLI_SEARCH_AB_INTERNAL_H
#define MORELLI_SEARCH_AB_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "past.h"
#include "search_internal.h"

#define INF (SCORE_MATE + 1)
#define HIST_BITS 14
#define HIST_SIZE (1 << HIST_BITS)
#define HIST_MAX 16384
#define ASPIRATION 40
#define ECACHE_BITS 14
/* GameSearch.prune is asked in the last PRUNE_DEPTH plies. */
#define PRUNE_DEPTH 3

/* Ordering classes, highest first (the low bits carry history). */
#define ORD_TT (1 << 30)
#define ORD_NOISY (1 << 29)
#define ORD_KILLER (1 << 28)

/* Evaluation cache slot: positions transpose a lot and some evaluations
 * (Morelli's) cost far more than a move.  One word a slot: the key's bits
 * 16..63, and in the low 16 bits (ECACHE_SCORE) the score (search_eval's
 * values fit), so the cache is 128 KB (1 << ECACHE_BITS slots) and stays
 * in the second-level cache: with 16 bytes a slot and 1 << 16 slots (1 MB)
 * most lookups missed there (docs/benchmarks.md, "Memory stalls").  The index and the stored bits check 62 of the key's 64 bits. */
typedef uint64_t EvalSlot;
#define ECACHE_MASK (((Key)1 << ECACHE_BITS) - 1)
#define ECACHE_SCORE ((Key)0xFFFF)
_Static_assert(SCORE_MATE_BOUND <= 32768, "a score in the slot's low bits");

/* A thread's last completed iteration. */
typedef struct AbDone {
    int depth, score, seldepth, proven, pv_len;
    Move pv[MAX_PLY + 1];
} AbDone;

typedef struct AbThread {
    SearchCtx *c;
    const Game *g;
    /* g's search block, or one with the plain profile and no hooks: the
     * search asks it without checking for NULL */
    const GameSearch *gs;
    int id;
    int nthreads;           /* the search's threads, this one included */
    _Atomic int *searching; /* per depth: threads on an iteration of it (ab.c) */
    pthread_t th;
    struct AbPub *pub;    /* helpers: where their iterations are published (ab.c) */
    unsigned char *pos;   /* the position being searched */
    unsigned char *stack; /* the one position buffer, pos points to it */
    unsigned char *undo;  /* MAX_PLY undo records */
    Move *moves;          /* MAX_PLY lists of max_moves */
    int *order;           /* ordering scores beside moves */
    uint64_t *qkeys;      /* MAX_PLY heaps of quiet moves: ordering score and move in one key */
    Key *keys;            /* prev keys then the path's */
    EvalSlot *ecache;     /* 1 << ECACHE_BITS slots */
    /* The note of the last evaluation the cache missed
     * (GameSearch.evaluate_noted) and the key of its position: handed
     * back to gen_noisy of that position (ab_note). */
    uint64_t note[EVAL_NOTE_MAX / 8];
    Key note_key;
    size_t keys_cap;   /* room in keys */
    const Game *sized; /* the game the buffers above are sized for */
    int nbase;         /* how many of keys are the game's */
    Move killers[MAX_PLY][2];
    int hist[2][HIST_SIZE];
    Move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pv_len[MAX_PLY + 1];
    uint64_t nodes;
    _Atomic uint64_t nodes_pub; /* nodes, published for the main thread */
    uint64_t horizon;
    int seldepth;
    int iter_depth; /* the running iteration's depth (extensions stop past twice it) */
    int aborted;
    /* The exact solver's budget (ab_solve.c): it gives up, without
     * stopping the search, past these. */
    uint64_t solve_nodes_max;
    int64_t solve_ms_max;
    int solve_gave_up;
    /* Root bookkeeping. */
    Move root_best; /* best move of the running iteration, once one raised alpha */
    int root_score;
    /* Last completed iteration. */
    int done_depth;
    int done_score;
    Move done_pv[MAX_PLY + 1];
    int done_pv_len;
    int done_seldepth;
    int proven;        /* the last iteration solved the root */
    uint64_t reported; /* main thread: total nodes of the last info line */
    Move told;         /* main thread: the move of the last provisional line */
    /* The root's moves left out of this search (ab_root_skip): go
     * searchmoves, and with MultiPV the lines found this iteration. */
    int root_filter;
    const Move *excl;
    int nexcl;
    struct AbLines *lines; /* main thread, MultiPV above 1 (ab.c) */
} AbThread;


static inline unsigned hist_slot(Move m)
{
    return (unsigned)((m * 0x9E3779B1u) >> (32 - HIST_BITS));
}

/* Mate distance: below the root nothing beats a game end next ply, so the
 * window shrinks to the mate scores still reachable.  Returns 1 when it is
 * empty (the caller returns *alpha). */
static inline int ab_mate_distance(int ply, int *alpha, int *beta)
{
    if (ply == 0)
        return 0;
    int lo = -(SCORE_MATE - ply - 1), hi = SCORE_MATE - ply - 1;
    if (*alpha < lo)
        *alpha = lo;
    if (*beta > hi)
        *beta = hi;
    return *alpha >= *beta;
}

/* ab_threads.c: the threads' states, kept by the Search between searches,
 * and what the helpers publish of their iterations for the vote. */
struct AbPub {
    pthread_mutex_t lock;
    AbDone d; /* the helper's last completed iteration */
};
struct AbPool {
    int n; /* threads with a state */
    AbThread *ts;
    struct AbPub **pub;             /* per thread (the helpers': 1 and up) */
    AbDone *vote;                   /* per thread: the vote's copies */
    int running;                    /* helpers started, not joined yet: ts[1..running] */
    _Atomic int searching[MAX_PLY]; /* threads on an iteration of each depth */
};
/* At least n thread states (the new ones empty), or NULL. */
AbThread *ab_pool_threads(Search *s, int n);
/* t's state for one search of c as thread id: 0, or -1 when out of memory. */
int ab_setup(AbThread *t, SearchCtx *c, int id);
/* A helper's iteration completed: its done_* fields published. */
void ab_publish(AbThread *t);
/* The thread whose last completed iteration speaks for the search of
 * threads 0..n of p's (ab_go): the main thread's and what the helpers have
 * published, copied to p->vote[0..n). */
int ab_vote(AbPool *p, int n);

/* A first iteration still running after AB_TELL_MS: its best root move so
 * far goes out as a lowerbound info line (ab.c), so that a protocol that
 * must answer for a late search (a starved machine) has a searched move. */
#define AB_TELL_MS 10
void ab_tell(AbThread *t);

/* Step 0. Count the node, look at the clock now and then: called once per
 * position visited (ab_node_enter: the main search, the quiescence search
 * below its first ply, the exact solver), so a node is one visit of one
 * position (docs/search.md, "Nodes").  The first iteration always ends:
 * neither the node limit nor the clock stops it, only the caller's stop,
 * so the move of a search that ran out of time or nodes is a searched one. */
static inline int ab_tick(AbThread *t)
{
    t->nodes++;
    SearchCtx *c = t->c;
    if (t->id == 0) {
        if (c->limits->nodes && t->nodes >= c->limits->nodes && t->done_depth > 0)
            atomic_store_explicit(&c->s->halt, 1, memory_order_relaxed);
        if ((t->nodes & (TIME_CHECK_NODES - 1)) == 0) {
            if (t->done_depth > 0 && timeman_hard_over(&c->tm))
                atomic_store_explicit(&c->s->halt, 1, memory_order_relaxed);
            else if (t->done_depth == 0 && t->root_best != t->told)
                ab_tell(t);
        }
    } else {
        if ((t->nodes & 255) == 0)
            atomic_store_explicit(&t->nodes_pub, t->nodes, memory_order_relaxed);
        if (search_helper_hook)
            search_helper_hook(t->id);
    }
    if (search_should_stop(c))
        t->aborted = 1;
    return t->aborted;
}

/* The evaluation cache's slot of the key k. */
static inline EvalSlot *ab_eval_slot(const AbThread *t, Key k)
{
    return &t->ecache[k & ECACHE_MASK];
}

/* What the child of the move m reads first, fetched on the way: its table
 * bucket (bucket: when it probes the table) and its evaluation cache slot
 * (eval: when it evaluates).  A bucket (in memory) before m is made when
 * the game tells the child's key (GameSearch.key_after: the load then has the
 * whole make to arrive), the slot with it; else both after (after: 1
 * when m is made): the slot alone (the cache stays in the second-level
 * cache) is not worth key_after's work. */
static inline void ab_prefetch_child(const AbThread *t, Move m, int after, int bucket, int eval)
{
    const Game *g = t->g;
    if (!bucket && !eval)
        return;
    if ((t->gs->key_after && bucket) == after)
        return;
    Key k = after ? g->key(t->pos) : t->gs->key_after(t->pos, m);
    if (bucket)
        __builtin_prefetch(&t->c->s->tt.buckets[tt_index(k, t->c->s->tt.nbuckets)]);
    if (eval)
        __builtin_prefetch(ab_eval_slot(t, k));
}

/* The evaluation of the position, whose key is k, through the cache.  A
 * key whose bits 16..63 are all 0 is not cached (an empty slot holds 0). */
static inline int ab_eval_key(AbThread *t, Key k)
{
    Key tag = k & ~ECACHE_SCORE;
    EvalSlot *e = ab_eval_slot(t, k);
    if ((*e & ~ECACHE_SCORE) == tag && tag != 0)
        return (int16_t)(uint16_t)*e;
    int v;
    if (t->gs->evaluate_noted) {
        v = search_eval_clamp(t->gs->evaluate_noted(t->pos, t->note));
        t->note_key = k;
    } else {
        v = search_eval(t->g, t->pos);
    }
    *e = tag | (uint16_t)(int16_t)v;
    return v;
}

/* The note of the last evaluation when it is of the position with key k
 * (for GameSearch.gen_noisy), else NULL. */
static inline const void *ab_note(const AbThread *t, Key k)
{
    return t->note_key == k ? t->note : NULL;
}

static inline int ab_eval(AbThread *t)
{
    return ab_eval_key(t, t->g->key(t->pos));
}

static inline void ab_make(AbThread *t, Move m, int ply)
{
    const Game *g = t->g;
    t->keys[t->nbase + ply] = g->key(t->pos);
    g->make(t->pos, m, t->undo + (size_t)ply * g->undo_size);
}

static inline void ab_unmake(AbThread *t, Move m, int ply)
{
    const Game *g = t->g;
    g->unmake(t->pos, m, t->undo + (size_t)ply * g->undo_size);
}

static inline void pv_update(AbThread *t, int ply, Move m)
{
    t->pv[ply][0] = m;
    int n = t->pv_len[ply + 1];
    if (n > MAX_PLY - 1)
        n = MAX_PLY - 1;
    memcpy(&t->pv[ply][1], t->pv[ply + 1], (size_t)n * sizeof(Move));
    t->pv_len[ply] = n + 1;
}


/* Terminal or path-drawn: returns 1 and the score. */
static inline int ab_terminal(AbThread *t, int ply, int *score)
{
    const Game *g = t->g;
    int r = g->result(t->pos);
    if (r != RESULT_NONE) {
        *score = units_result_score(r, g->side_to_move(t->pos), ply);
        return 1;
    }
    if (ply > 0 && t->c->uses_history &&
        past_draw(g, t->pos, t->keys, t->nbase + ply) == RESULT_DRAW) {
        t->horizon++; /* a draw by this path only: not the position's value */
        *score = 0;
        return 1;
    }
    return 0;
}

/* What every node does first: an empty PV, the selective depth, then stop
 * (*score 0) or game over / path draw (*score its value): 1 when the node
 * ends there. */
static inline int ab_node_enter(AbThread *t, int ply, int *score)
{
    t->pv_len[ply] = 0;
    if (ply > t->seldepth)
        t->seldepth = ply;
    if (ab_tick(t)) {
        *score = 0;
        return 1;
    }
    return ab_terminal(t, ply, score);
}

/*
 * The moves of a node, best-ordered first.  A game with gen_noisy,
 * gen_quiet and move_legal is generated by stages: the TT move (checked by
 * move_legal) before anything is generated, then the noisy moves (by
 * history), the two killers (checked by move_legal), then the quiet moves
 * by history out of a binary heap, so a 480-move list costs O(log n) a
 * move instead of a scan.  Other games: one list, picked by class (TT,
 * noisy, killers, quiet) and history.
 */
enum {
    PK_TT,
    PK_NOISY_GEN,
    PK_NOISY,
    PK_KILLER,
    PK_QUIET_GEN,
    PK_QUIET,
    PK_QUIET_TOP,
    PK_QUIET_KEYS,
    PK_ALL,
    PK_DONE
};
/* The quiet moves a staged node takes out of a sorted run before the rest
 * becomes a heap (games without ordering hints). */
#define PK_TOP 12

typedef struct Picker {
    Move *mv;
    int *ord;
    int stage;
    int i, n;     /* the noisy moves mv[i..n), or every move (PK_ALL) */
    int nq;       /* the heap of quiet moves: mv[n .. n + nq), or qk[0 .. nq) */
    uint64_t *qk; /* the quiet moves as keys (games without ordering hints):
                   * qk[0 .. top) sorted ascending, then the heap of the
                   * other nq */
    int top;
    int ki; /* killers tried */
    int stm;
    Move tt, killer[2];
    Key key; /* the node's (for the evaluation's note, ab_note) */
} Picker;

/* The picker of the node at ply with key key and table move tt_move. */
void picker_init(AbThread *t, Picker *pk, int ply, Key key, Move tt_move);
/* MultiPV above 1 (main thread): the lines of the iteration running and
 * of the last one completed, best first. */
typedef struct AbLine {
    int score, seldepth, npv;
    Move pv[MAX_PLY + 1];
} AbLine;
struct AbLines {
    int k;
    AbLine *cur, *done;
    Move *excl;
};

/* One root search of depth d (the iteration's number depth: aspiration
 * windows around prev from depth 4 on): its score, or 0 with t->aborted. */
int ab_root(AbThread *t, int depth, int d, int prev, uint64_t *h0);
/* ab_lines.c: the other lines of an iteration whose first line (score
 * first) t's pv holds, all sorted best first into done and t's done_*
 * fields; 0, or -1 when the search was cut. */
int ab_lines(AbThread *t, int depth, int d, int first);
/* Every line of done a mate within d plies (nothing left to find). */
int ab_lines_mated(const AbThread *t, int d);
/* ab_lines.c: the lines of the last completed iteration as info lines,
 * nodes the search's total (final: the search's end, repeat: no node
 * searched since the last report). */
void ab_lines_emit(AbThread *t, uint64_t nodes, int final, int repeat);
/* The move a level below full strength plays among the lines of the last
 * completed iteration (skill.h), best when that is no legal move. */
Move ab_lines_skill(AbThread *t, Move best);

/* ab_solve.c: the exact solver's share of one search at the root (main
 * thread), when the game bounds its plies left low enough.  It runs in
 * slices between the iterations, each keeping what it proved in the TT. */
typedef struct SolveSched {
    int on;         /* worth a try: the game is small enough, not solved yet */
    int by_nodes;   /* counted in nodes (else in ms since go) */
    int64_t budget; /* the whole share */
    int64_t first;  /* the first slice (after the first iteration) */
    int64_t spent;  /* used so far */
    int64_t mark;   /* the count when the last slice ended */
    int slices;
    int left;       /* the root's plies-left bound */
    int backed_off; /* a small share: a full one failed a few plies ago */
    int solved;
} SolveSched;
/* The end of a search's solver: remember a full share that failed. */
void ab_solve_end(AbThread *t, const SolveSched *ss);
void ab_solve_plan(AbThread *t, SolveSched *ss);
/* One slice: 1 and the thread's done_* fields (score, PV, proven) filled
 * when the root is solved, 0 when not (yet). */
int ab_solve_slice(AbThread *t, SolveSched *ss);
/* ab_solve.c: the value of every root move (search_solve), with at most
 * ms milliseconds and nodes nodes (0: no limit); 0. */
int ab_solve_moves(AbThread *t, int64_t ms, uint64_t nodes, SolveReport *out);
/* The next move, MOVE_NONE when there is none left; *quiet is set when
 * the move is not noisy (killers and history learn from those). */
Move picker_next(AbThread *t, Picker *pk, int *quiet);
/* Are all the moves picker_next has left quiet (the staged picker is past
 * its noisy moves, at the killers or the quiet moves)? */
static inline int picker_quiet_only(const Picker *pk)
{
    return pk->stage == PK_KILLER || pk->stage == PK_QUIET_GEN || pk->stage == PK_QUIET ||
           pk->stage == PK_QUIET_TOP || pk->stage == PK_QUIET_KEYS;
}

#endif
