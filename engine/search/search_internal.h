/*
 * search_internal.h -- what the two searchers (ab.c, mcts.c) share with the
 * front (search.c): the Search object, the context of one search_go() call
 * and the helpers of score.c for scores and reports.  Not for use outside
 * engine/search/.
 */
#ifndef MORELLI_SEARCH_INTERNAL_H
#define MORELLI_SEARCH_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "search.h"
#include "timeman.h"
#include "tt.h"
#include "units.h"

/* In the order of the Search option's combo values. */
enum { ALGO_ALPHABETA = 0, ALGO_MCTS = 1, ALGO_RANDOM = 2 };
enum { MCTS_POLICY_FULL = 0, MCTS_POLICY_PLAIN = 1 };

/* Deepest ply any searcher walks (alpha-beta iterations stop below it). */
#define MAX_PLY 128

typedef struct Mcts Mcts;     /* mcts_internal.h */
typedef struct AbPool AbPool; /* ab.c: alpha-beta threads' buffers */

/* What the helper threads of a search read of its context: a copy kept by
 * the Search, since a search returns (and its caller prints bestmove)
 * without waiting for its helpers, which end a moment later and are joined
 * by search_wait() (docs/threads.md, "Stopping"). */
typedef struct SearchShare SearchShare;

struct Search {
    int algo;              /* ALGO_* */
    int64_t hash_mb;       /* Hash option */
    int threads;           /* Threads option (both searchers) */
    int threads_told;      /* the Threads value a shortfall was told for, 0 = none */
    int mcts_policy;       /* MCTS_POLICY_* */
    int mcts_explore;      /* UCT exploration constant, in hundredths */
    int mcts_playout_cap;  /* playout length cap for games that may not end */
    int64_t move_overhead; /* MoveOverhead option, ms off every clock */
    int multipv;           /* MultiPV option: lines reported */
    int skill;             /* Skill Level option (skill.h) */
    int limit_strength;    /* UCI_LimitStrength option */
    int elo;               /* UCI_Elo option */
    uint64_t skill_seed;   /* SkillSeed option */
    int ab_qs_plies;       /* quiescence depth cap, 0 = stand pat only (internal) */
    int ab_lmr;            /* late move reductions on (internal) */
    TT tt;                 /* alpha-beta, allocated on first use */
    Mcts *mcts;            /* MCTS tree, allocated on first use */
    AbPool *ab_pool;       /* alpha-beta threads' buffers, kept between searches */
    atomic_int halt;       /* internal stop: time, node limit, helpers' end; set
                            * until the helpers of the last search are joined */
    SearchShare *share;    /* the helpers' copy of the context (search.c) */
    uint64_t rng;          /* Search=random: state, fixed seed, mixed with the root key */
    int solve_failed;      /* ab_solve.c: the plies-left bound where the solver's
                        * last full share under a clock failed; 0 = none */
};

/* One search_go() call. */
typedef struct SearchCtx {
    Search *s;
    const Game *g;
    const void *root;
    const GameOptions *opt;
    const Key *prev;
    int nprev;
    const SearchLimits *limits;
    atomic_int *stop; /* the caller's */
    SearchEmit emit;
    void *ectx;
    TimeManager tm;
    int root_side;
    int uses_history; /* repetition or MoveRule can draw */
    /* The root: the moves searched (limits->searchmoves, NULL for all) and
     * the lines reported, at most the moves searched (search.c). */
    const Move *root_only;
    int nroot_only;
    int multipv;
    /* go mate: alpha-beta full width, without reductions, pruning or cuts
     * on unproven table entries, so that a depth proves what it finds */
    int exact;
    int skill; /* the level played (skill.h), SKILL_MAX: full strength */
} SearchCtx;

/* The context for c's helper threads: a copy of c in c->s's SearchShare
 * (limits, root position and searchmoves copied too; no caller's stop, no
 * emit: the helpers stop on halt and never report), or NULL when out of
 * memory (the search then runs without helpers).  Only between searches
 * (the helpers of the last one joined). */
SearchCtx *search_share(SearchCtx *c);
/* Joins the helper threads of the last search, which may still run after
 * it returned (stopped, about to end), and clears halt: called before
 * anything reuses what they read or write (the next search, options, the
 * table or tree cleared or freed). */
void search_wait(Search *s);
void ab_join(AbPool *p);
void mcts_join(Mcts *m);

Move ab_go(SearchCtx *c, SearchResult *res);
/* search_solve(): alpha-beta's thread 0 runs ab_solve.c's solver on every
 * root move, with at most ms milliseconds and nodes nodes (0: no limit).
 * 0, or -1 when out of memory. */
int ab_solve_go(SearchCtx *c, int64_t ms, uint64_t nodes, SolveReport *out);
void ab_pool_free(AbPool *p);
Move mcts_go(SearchCtx *c, SearchResult *res);
/* Allocates the MCTS tree at its Hash size if it does not exist yet. */
void mcts_prepare(Search *s);
void mcts_free(Mcts *m);
void mcts_clear(Mcts *m);

/* Non-zero when the root move m is to be searched (go searchmoves). */
int search_root_allowed(const SearchCtx *c, Move m);

/* Starts one of a search's threads: pthread_create with default
 * attributes, unless a test puts a function that fails in its place to see
 * the search go on without the thread.  0 or an error number. */
typedef int (*SearchThreadCreate)(pthread_t *th, void *(*fn)(void *), void *arg);
extern SearchThreadCreate search_thread_create;
/* A test's hook, NULL outside tests: every helper thread (id 1 and up) of
 * both searchers calls it at each of its stop checks, before it looks at
 * the stop flags, so a test can hold a helper there.  Set only while no
 * search's helpers run. */
typedef void (*SearchHelperHook)(int id);
extern SearchHelperHook search_helper_hook;
/* After starting a search's threads: when fewer than wanted run, a notice
 * says so, once for each Threads value. */
void search_threads_short(Search *s, int started, int wanted);

/* Non-zero when the caller or the searcher asked to stop. */
static inline int search_should_stop(const SearchCtx *c)
{
    return atomic_load_explicit(&c->s->halt, memory_order_relaxed) ||
           (c->stop && atomic_load_explicit(c->stop, memory_order_relaxed));
}

/* --- score.c --- */

/* Static evaluation kept clear of the mate range. */
int search_eval(const Game *g, const void *pos);
/* An evaluation kept below the mate scores (what search_eval returns). */
int search_eval_clamp(int v);
/* Non-zero when m is a legal move of pos. */
int search_move_legal(const Game *g, const void *pos, Move m);
/* How many of pv[0..n) are legal, each in the position the ones before
 * lead to from pos. */
int search_pv_legal(const Game *g, const void *pos, const Move *pv, int n);

/* What a search reports, in the searchers' units. */
typedef struct SearchProgress {
    int depth, seldepth, score; /* score: the side to move's view */
    int bound;                  /* 1: score is a lower bound (the iteration goes on) */
    uint64_t nodes;             /* see docs/search.md, "Nodes" */
    int hashfull;               /* permille */
    const Move *pv;             /* from the root; may be cut at an illegal move */
    int npv;
    int multipv; /* SearchInfo.multipv */
    int solved;  /* a SEARCH_INFO_SOLVED report follows */
    int no_line; /* only that report (the progress was told already) */
    int exact;   /* the score is proven (a solver's), no report follows */
} SearchProgress;

/* Hands the search's emit callback, when it has one, a SearchInfo of p:
 * the score in the protocol's units (units.h), nps and time from the
 * search's clock, the pv cut at its first illegal move; then the
 * SEARCH_INFO_SOLVED report when p->solved. */
void search_info(const SearchCtx *c, const SearchProgress *p);

#endif
