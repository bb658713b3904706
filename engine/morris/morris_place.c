/*
 * morris_place.c -- the end of the placement played exactly, and the
 * game's solver (GameSolver.solve) for every position it can answer.
 *
 * With pieces left in hand the placements and removals that remain are
 * searched to the positions where both hands are empty, whose exact values
 * the endgame tables give (morris_egtb_probe: the table files or the
 * tables built in memory).  Values are those of GameSolver.solve, counted
 * from the root: a win in n plies is VALUE_WIN - n.  A position the rules
 * end on the way (a side left with two pieces, a full board) is valued by
 * the rules.  The search is alpha-beta with a transposition table keyed by
 * the position up to the board's 16 symmetries (the key is the position
 * itself, so no two positions share one): first two null windows (a win?
 * at least a draw?), then a full window for a win or a loss (the fastest
 * win, the longest resistance, the distances the tables count).  Moves are
 * tried in the order: the table's move, mills, then the evaluation's
 * ordering hints and a history of the moves that cut.  A leaf outside the
 * tables (a class not built or not mapped), the node budget or a stop
 * request end it without an answer: the caller then plays its normal
 * search.  Repetition and MoveRule play no part during the placement
 * (every placement is irreversible, docs/rules-morris.md); the values
 * after it are the tables', with their rules.
 *
 * The entries of the table are true values whatever tables are present
 * (a search that meets a missing leaf stores nothing after it), so the
 * game's solver keeps one table for the life of the process, under a
 * lock: solve runs in one thread at a time.  morris_place_search() (the
 * `tables place` command) runs with a table and a budget of its own.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "morris_internal.h"
#include "morris_tb.h"

/* The most pieces in hand, both sides together, for which the game's
 * solver tries the search, and the nodes it may take (docs/solved.md has
 * the figures). */
#define PLACE_HAND_MAX 10
#define PLACE_NODES 1000000
/* The most pieces in hand for GameSolver.solve_until (go with a clock),
 * which has no node limit but the caller's time. */
#define PLACE_GO_HAND_MAX 14
/* The share of the move's time it asks for (percent): most of it with at
 * most PLACE_SHARE_FEW pieces in hand, where the search is short and its
 * answer exact, a third with more (docs/solved.md has the figures). */
#define PLACE_SHARE_FEW 10
#define PLACE_SHARE_MOST 75
#define PLACE_SHARE_REST 33
#define PLACE_TT_BITS 20 /* 2^20 entries of 16 bytes: 16 MB */
#define PLACE_INF (VALUE_WIN + 1)

enum { B_NONE, B_LOWER, B_UPPER, B_EXACT };

/* One entry: the position's code (canon(), never 0), its value from its
 * own view (win in n = VALUE_WIN - n), the best move in the code's frame,
 * the bound, and the pieces in hand when it was stored (the depth). */
typedef struct PlaceEntry {
    uint64_t code;
    int32_t value;
    uint16_t move;
    uint8_t bound, depth;
} PlaceEntry;

struct PlaceTable {
    PlaceEntry *e;
    uint64_t mask; /* entries - 1; buckets of two */
};

typedef struct PlaceSearch {
    PlaceTable *tt;
    PlaceRun *run;
    uint64_t nodes, max_nodes;
    int gave_up;
    uint32_t hist[2][NPTS];
} PlaceSearch;

#define PLACE_REPORT_NODES (1ull << 25)

/* --- the position up to symmetry ----------------------------------------- */

static uint32_t symb[16][3][256];
static uint8_t sym_pt[16][NPTS], sym_inv[16];
static pthread_once_t sym_once = PTHREAD_ONCE_INIT;

static void sym_init(void)
{
    for (int s = 0; s < 16; s++) {
        for (int q = 0; q < NPTS; q++)
            sym_pt[s][q] = (uint8_t)lsb(tb_sym(s, 1u << q));
        for (int byte = 0; byte < 3; byte++)
            for (int b = 0; b < 256; b++)
                symb[s][byte][b] = tb_sym(s, (uint32_t)b << (8 * byte));
    }
    for (int s = 0; s < 16; s++)
        for (int t = 0; t < 16; t++) {
            int id = 1;
            for (int q = 0; q < NPTS && id; q++)
                id = sym_pt[t][sym_pt[s][q]] == q;
            if (id)
                sym_inv[s] = (uint8_t)t;
        }
}

static inline uint32_t symf(int s, uint32_t x)
{
    return symb[s][0][x & 255] | symb[s][1][(x >> 8) & 255] | symb[s][2][(x >> 16) & 255];
}

/* The code of p: the least of its 16 images (White's points, Black's),
 * then the hands, the side to move and the rules; *sym gets the symmetry
 * that gives it. */
static uint64_t canon(const Pos *p, int *sym)
{
    uint64_t best = UINT64_MAX;
    int bs = 0;
    for (int s = 0; s < 16; s++) {
        uint64_t c = (uint64_t)symf(s, p->bb[0]) << 24 | symf(s, p->bb[1]);
        if (c < best) {
            best = c;
            bs = s;
        }
    }
    *sym = bs;
    return best | (uint64_t)p->hand[0] << 48 | (uint64_t)p->hand[1] << 52 | (uint64_t)p->stm << 56 |
           (uint64_t)p->diag << 57 | (uint64_t)p->flying << 58 | (uint64_t)(p->pieces == 12) << 59 |
           1ull << 60;
}

static inline Move map_move(Move m, int s)
{
    if (m == MOVE_NONE)
        return m;
    int to = mv_to(m), from = mv_from(m), rm = mv_rm(m);
    return enc(from >= 0 ? sym_pt[s][from] : -1, sym_pt[s][to], rm >= 0 ? sym_pt[s][rm] : -1);
}

static inline PlaceEntry *bucket(const PlaceTable *t, uint64_t code)
{
    return &t->e[((code * 0x9E3779B97F4A7C15ull) >> 20) & t->mask & ~1ull];
}

static PlaceEntry *lookup(const PlaceTable *t, uint64_t code)
{
    PlaceEntry *b = bucket(t, code);
    return b[0].code == code ? &b[0] : b[1].code == code ? &b[1] : NULL;
}

/* Slot 0 keeps the deeper entry, slot 1 takes the rest. */
static void store(const PlaceTable *t, uint64_t code, int value, Move move, int bound, int depth)
{
    PlaceEntry *b = bucket(t, code), *e;
    if (b[0].code == code || depth >= b[0].depth)
        e = &b[0];
    else
        e = &b[1];
    if (e == &b[0] && b[0].code != code && b[0].code)
        b[1] = b[0];
    e->code = code;
    e->value = value;
    e->move = (uint16_t)move;
    e->bound = (uint8_t)bound;
    e->depth = (uint8_t)depth;
}

PlaceTable *morris_place_table_new(int bits)
{
    PlaceTable *t = malloc(sizeof *t);
    if (!t)
        return NULL;
    t->e = calloc((size_t)1 << bits, sizeof *t->e);
    if (!t->e) {
        free(t);
        return NULL;
    }
    t->mask = ((uint64_t)1 << bits) - 1;
    return t;
}

void morris_place_table_free(PlaceTable *t)
{
    if (t) {
        free(t->e);
        free(t);
    }
}

/* --- the search ----------------------------------------------------------- */

/* A value from the node's view, moved to the root's (ply plies down) and
 * back. */
static inline int to_root(int v, int ply)
{
    return v > 0 ? v - ply : v < 0 ? v + ply : 0;
}
static inline int to_node(int v, int ply)
{
    return v > 0 ? v + ply : v < 0 ? v - ply : 0;
}

/* The moves of p with their order scores: the table's move first, then the
 * mills (they change the material the tables count), then the evaluation's
 * hints and the history. */
static int order_moves(const PlaceSearch *S, const Pos *p, Move *mv, int *score, Move first)
{
    int n = morris_gen(p, mv);
    morris_move_order(p, mv, n, score);
    for (int i = 0; i < n; i++) {
        uint32_t h = S->hist[p->stm][mv_to(mv[i])];
        score[i] = mv[i] == first ? 1 << 30
                                  : (mv_rm(mv[i]) >= 0 ? 1 << 24 : 0) + (score[i] << 16) +
                                        (int)(h > 65535 ? 65535 : h);
    }
    return n;
}

static inline Move pick(Move *mv, int *score, int i, int n)
{
    int b = i;
    for (int j = i + 1; j < n; j++)
        if (score[j] > score[b])
            b = j;
    Move m = mv[b];
    int sc = score[b];
    mv[b] = mv[i];
    score[b] = score[i];
    mv[i] = m;
    score[i] = sc;
    return m;
}

static int place_rec(PlaceSearch *S, const Pos *p, int alpha, int beta, int ply, Move *best)
{
    if (++S->nodes > S->max_nodes) {
        S->gave_up = 1;
        return 0;
    }
    if ((S->nodes & 4095) == 0) {
        if (S->run->give_up && S->run->give_up(S->run->ctx, S->run->share)) {
            S->gave_up = 1;
            return 0;
        }
        if (S->run->progress && (S->nodes & (PLACE_REPORT_NODES - 1)) == 0)
            S->run->progress(S->run->ctx, S->nodes);
    }
    int r = morris_result(p);
    if (r != RESULT_NONE)
        return r == RESULT_DRAW ? 0 : -(VALUE_WIN - ply); /* the mover lost */
    int depth = p->hand[0] + p->hand[1];
    if (!depth) {
        int v;
        if (!morris_egtb_probe(p, &v)) {
            S->gave_up = 1;
            S->run->missing[0] = popcnt(p->bb[0]);
            S->run->missing[1] = popcnt(p->bb[1]);
            return 0;
        }
        return to_root(v, ply);
    }
    int sym;
    uint64_t code = canon(p, &sym);
    PlaceEntry *e = lookup(S->tt, code);
    Move first = MOVE_NONE;
    if (e && e->bound != B_NONE) {
        int v = to_root(e->value, ply);
        first = map_move(e->move, sym_inv[sym]);
        if (ply > 0 && (e->bound == B_EXACT || (e->bound == B_LOWER && v >= beta) ||
                        (e->bound == B_UPPER && v <= alpha)))
            return v;
    }
    Move mv[MORRIS_MAX_MOVES];
    int score[MORRIS_MAX_MOVES];
    int n = order_moves(S, p, mv, score, first), orig_alpha = alpha, bv = -PLACE_INF;
    Move bm = MOVE_NONE;
    for (int i = 0; i < n; i++) {
        Move m = pick(mv, score, i, n);
        Pos c = *p;
        apply(&c, m);
        int v = -place_rec(S, &c, -beta, -alpha, ply + 1, NULL);
        if (S->gave_up)
            return 0;
        if (v > bv) {
            bv = v;
            bm = m;
            if (v > alpha)
                alpha = v;
            if (alpha >= beta) {
                uint32_t *h = &S->hist[p->stm][mv_to(m)];
                if (*h < UINT32_MAX / 2) /* read as at most 65535 */
                    *h += (uint32_t)(depth * depth);
                break;
            }
        }
    }
    store(S->tt, code, to_node(bv, ply), map_move(bm, sym),
          bv >= beta        ? B_LOWER
          : bv > orig_alpha ? B_EXACT
                            : B_UPPER,
          depth);
    if (best)
        *best = bm;
    return bv;
}

/* The value of p by null windows, then the distance. */
static int place_root(PlaceSearch *S, const Pos *p, int *value, Move *best)
{
    Move m = MOVE_NONE;
    int v = place_rec(S, p, 0, 1, 0, &m);
    if (!S->gave_up && v < 1)
        v = place_rec(S, p, -1, 0, 0, &m);
    if (!S->gave_up && v != 0)
        v = v > 0 ? place_rec(S, p, 0, PLACE_INF, 0, &m) : place_rec(S, p, -PLACE_INF, 0, 0, &m);
    if (S->gave_up || m == MOVE_NONE)
        return 0;
    *value = v;
    *best = m;
    return 1;
}

int morris_place_search(const void *vp, PlaceTable *tt, PlaceRun *run, int *value, Move *best)
{
    const Pos *p = vp;
    pthread_once(&sym_once, sym_init);
    PlaceSearch S = {.tt = tt,
                     .run = run,
                     .max_nodes = run->max_nodes ? run->max_nodes : UINT64_MAX};
    run->missing[0] = run->missing[1] = 0;
    int ok = !(p->hand[0] | p->hand[1]) || morris_result(p) != RESULT_NONE
                 ? 0
                 : place_root(&S, p, value, best);
    run->nodes = S.nodes;
    return ok;
}

static pthread_mutex_t place_lock = PTHREAD_MUTEX_INITIALIZER;
static PlaceTable *place_tt;

/* The game solver's search, with the table of the process. */
static int solve_shared(const Pos *p, PlaceRun *run, int *value, Move *best)
{
    pthread_mutex_lock(&place_lock);
    if (!place_tt)
        place_tt = morris_place_table_new(PLACE_TT_BITS);
    int ok = place_tt && morris_place_search(p, place_tt, run, value, best);
    pthread_mutex_unlock(&place_lock);
    return ok;
}

int morris_place_solve(const void *vp, int *value, Move *best)
{
    const Pos *p = vp;
    if (p->hand[0] + p->hand[1] > PLACE_HAND_MAX)
        return 0;
    PlaceRun run = {.max_nodes = PLACE_NODES};
    return solve_shared(p, &run, value, best);
}

int morris_solve_until(const void *vp, int (*give_up)(void *ctx, int share), void *ctx, int *value,
                       Move *best)
{
    const Pos *p = vp;
    int hand = p->hand[0] + p->hand[1];
    if (!hand)
        return morris_solve_moving(vp, value, best);
    if (hand > PLACE_GO_HAND_MAX)
        return 0;
    PlaceRun run = {.give_up = give_up,
                    .share = hand <= PLACE_SHARE_FEW ? PLACE_SHARE_MOST : PLACE_SHARE_REST,
                    .ctx = ctx};
    return solve_shared(p, &run, value, best);
}

/* GameSolver.solve: the exact placement search with pieces in hand, the
 * tables' move after it (morris_solved.c). */
int morris_solve_any(const void *vp, int *value, Move *best)
{
    const Pos *p = vp;
    if (p->hand[0] | p->hand[1])
        return morris_place_solve(vp, value, best);
    return morris_solve_moving(vp, value, best);
}

/* GameSolver.prepare: the tables' prepare step (morris_egtb.c), which
 * maps the files and starts the build in memory for positions without
 * pieces in hand; with few pieces left in hand it is asked for the board
 * as it stands, whose classes the end of the placement reaches. */
void morris_prepare_any(const void *vp)
{
    const Pos *p = vp;
    if ((p->hand[0] | p->hand[1]) && p->hand[0] + p->hand[1] <= PLACE_HAND_MAX &&
        material(p, 0) <= 6 && material(p, 1) <= 6) {
        Pos q = *p;
        q.hand[0] = q.hand[1] = 0;
        morris_prepare(&q);
        return;
    }
    morris_prepare(vp);
}
