/*
 * morris_place.c -- the end of the placement played exactly, and the
 * game's solver (GameSolver.solve) for every position it can answer.
 *
 * With few pieces left in hand (PLACE_HAND_MAX, both sides together) the
 * placements and removals that remain are searched to the positions where
 * both hands are empty, whose exact values the endgame tables give
 * (morris_egtb_probe: the table files or the tables built in memory).
 * Values are those of GameSolver.solve, counted from the root: a win in n
 * plies is VALUE_WIN - n.  A position the rules end on the way (a side
 * left with two pieces, a full board) is valued by the rules.  The search
 * is alpha-beta with its own transposition table: first two null windows
 * (a win?  at least a draw?), then a full window for a win or a loss (the
 * fastest win, the longest resistance, the distances the tables count).
 * A leaf outside the tables (a class not built or not mapped) or more
 * than PLACE_NODES nodes end it without an answer: the caller then plays
 * its normal search.  Repetition and MoveRule play no part during the
 * placement (every placement is irreversible, docs/rules-morris.md); the
 * values after it are the tables', with their rules.
 *
 * The entries of the table are true values whatever tables are present
 * (a search that meets a missing leaf stores nothing after it), so the
 * table lives as long as the process, one per board and flying rule (the
 * key's salt), under a lock: solve runs in one thread at a time.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "morris_internal.h"

/* The most pieces in hand, both sides together, for which the search is
 * tried, and the nodes it may take (docs/solved.md has the figures). */
#define PLACE_HAND_MAX 10
#define PLACE_NODES 1000000
#define PLACE_TT_BITS 17
#define PLACE_INF (VALUE_WIN + 1)

enum { B_NONE, B_LOWER, B_UPPER, B_EXACT };

typedef struct PlaceEntry {
    Key key;
    int32_t value; /* from the entry's own position: win in n = VALUE_WIN - n */
    uint16_t move;
    uint8_t bound;
} PlaceEntry;

typedef struct PlaceSearch {
    PlaceEntry *tt;
    Key salt;
    uint64_t nodes, max_nodes;
    int gave_up;
} PlaceSearch;

static pthread_mutex_t place_lock = PTHREAD_MUTEX_INITIALIZER;
static PlaceEntry *place_tt;

static Key salt_of(const Pos *p)
{
    return (p->diag ? 0x9E3779B97F4A7C15ull : 0) ^ (p->flying ? 0xC2B2AE3D27D4EB4Full : 0);
}

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

/* The moves of p: the table's move first, then the captures (they change
 * the material the tables count), then the others. */
static int order_moves(const Pos *p, Move *mv, Move first)
{
    int n = morris_gen(p, mv), k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = k; i < n; i++)
            if (pass ? mv_rm(mv[i]) >= 0 : mv[i] == first) {
                Move t = mv[k];
                mv[k++] = mv[i];
                mv[i] = t;
            }
    return n;
}

static int place_rec(PlaceSearch *S, const Pos *p, int alpha, int beta, int ply, Move *best)
{
    if (++S->nodes > S->max_nodes) {
        S->gave_up = 1;
        return 0;
    }
    int r = morris_result(p);
    if (r != RESULT_NONE)
        return r == RESULT_DRAW ? 0 : -(VALUE_WIN - ply); /* the mover lost */
    if (!(p->hand[0] | p->hand[1])) {
        int v;
        if (!morris_egtb_probe(p, &v)) {
            S->gave_up = 1;
            return 0;
        }
        return to_root(v, ply);
    }
    Key key = p->key ^ S->salt;
    PlaceEntry *e = &S->tt[key & ((1u << PLACE_TT_BITS) - 1)];
    Move first = MOVE_NONE;
    if (e->key == key && e->bound != B_NONE) {
        int v = to_root(e->value, ply);
        first = e->move;
        if (ply > 0 && (e->bound == B_EXACT || (e->bound == B_LOWER && v >= beta) ||
                        (e->bound == B_UPPER && v <= alpha)))
            return v;
    }
    Move mv[MORRIS_MAX_MOVES];
    int n = order_moves(p, mv, first), orig_alpha = alpha, bv = -PLACE_INF;
    Move bm = MOVE_NONE;
    for (int i = 0; i < n; i++) {
        Pos c = *p;
        apply(&c, mv[i]);
        int v = -place_rec(S, &c, -beta, -alpha, ply + 1, NULL);
        if (S->gave_up)
            return 0;
        if (v > bv) {
            bv = v;
            bm = mv[i];
            if (v > alpha)
                alpha = v;
            if (alpha >= beta)
                break;
        }
    }
    e->key = key;
    e->value = to_node(bv, ply);
    e->move = (uint16_t)bm;
    e->bound = bv >= beta ? B_LOWER : bv > orig_alpha ? B_EXACT : B_UPPER;
    if (best)
        *best = bm;
    return bv;
}

int morris_place_solve(const void *vp, int *value, Move *best)
{
    const Pos *p = vp;
    if (!(p->hand[0] | p->hand[1]) || p->hand[0] + p->hand[1] > PLACE_HAND_MAX ||
        morris_result(p) != RESULT_NONE)
        return 0;
    pthread_mutex_lock(&place_lock);
    if (!place_tt)
        place_tt = calloc((size_t)1 << PLACE_TT_BITS, sizeof *place_tt);
    PlaceSearch S = {place_tt, salt_of(p), 0, PLACE_NODES, 0};
    int ok = 0, v = 0;
    Move m = MOVE_NONE;
    if (S.tt) {
        /* a win?  at least a draw?  then the distance of a win or a loss */
        v = place_rec(&S, p, 0, 1, 0, &m);
        if (!S.gave_up && v < 1)
            v = place_rec(&S, p, -1, 0, 0, &m);
        if (!S.gave_up && v != 0)
            v = v > 0 ? place_rec(&S, p, 0, PLACE_INF, 0, &m)
                      : place_rec(&S, p, -PLACE_INF, 0, 0, &m);
        ok = !S.gave_up && m != MOVE_NONE;
    }
    pthread_mutex_unlock(&place_lock);
    if (ok) {
        *value = v;
        *best = m;
    }
    return ok;
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
