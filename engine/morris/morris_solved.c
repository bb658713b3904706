/*
 * morris_solved.c -- the move the solver plays once both hands are empty
 * (GameSolver.solve there, docs/solved.md).
 *
 * The tables' own move (morris_solve, morris_egtb.c) is the fastest win,
 * the longest resistance or the first drawing move, by the distances the
 * tables store.  Two cases need more, because the value ignores MoveRule
 * and repetition:
 *
 *  - A win the tables give without a distance (a class stored as
 *    win/draw/loss only reads as a win VALUE_FAR_PLIES or more plies
 *    away), or with a distance
 *    longer than the plies MoveRule leaves (MoveRule - the plies since the
 *    last removal): every winning move looks alike, or the fastest win
 *    may not fit.  The solver then looks for a conversion: the shortest
 *    line, within those plies (at most CONV_PLIES), along which every
 *    position keeps the win and that ends in a removal (by either side:
 *    the one the loser makes from a lost position leaves it lost) or the
 *    end of the game, whatever the loser does.  Its first move is played:
 *    MoveRule's count starts again at the removal, the game reaches a
 *    smaller class, and along the way the distance to the removal falls at
 *    every ply, so no position comes back.  Without such a line (deeper,
 *    or over CONV_NODES nodes) it plays, among the winning moves, the one
 *    after which the loser's position scores worst by the evaluation's
 *    terms (material, mobility, walls).
 *  - A loss without a distance: every move loses alike.  It plays the
 *    move after which the winner's shortest conversion is longest (looked
 *    for up to LOSS_PLIES plies), so that MoveRule may still save the
 *    game, and among those the best by the evaluation's terms.
 *
 * A win whose distance fits, every draw and a loss with a distance are
 * played as the tables say.
 */
#include <stdlib.h>
#include <string.h>

#include "morris_internal.h"
#include "morris_tb.h"

#define CONV_PLIES 31
#define CONV_NODES 400000
#define LOSS_PLIES 5
#define LOSS_NODES 20000
#define CONV_TT_BITS 16

typedef struct ConvEntry {
    Key key;
    uint8_t proven; /* a conversion within this many plies (0: none known) */
    uint8_t failed; /* none within this many plies */
} ConvEntry;

typedef struct Conv {
    ConvEntry *tt;
    Key salt;
    uint64_t nodes, max;
    int over;
} Conv;

/* The value of c for its mover: 1 and *v when the rules or the tables
 * know it. */
static int value_of(const Pos *c, int *v)
{
    int r = morris_result(c);
    if (r != RESULT_NONE) {
        *v = r == RESULT_DRAW ? 0 : -VALUE_WIN;
        return 1;
    }
    return morris_egtb_probe(c, v);
}

/* Whether the move that led to c lost the game for c's mover, by the
 * rules or the tables. */
static int lost_for_mover(const Pos *c)
{
    int v;
    return value_of(c, &v) && v < 0;
}

static ConvEntry *conv_entry(Conv *C, const Pos *p)
{
    Key k = p->key ^ C->salt;
    ConvEntry *e = &C->tt[k & ((1u << CONV_TT_BITS) - 1)];
    if (e->key != k) {
        e->key = k;
        e->proven = e->failed = 0;
    }
    return e;
}

static int conv_them(Conv *C, const Pos *p, int d);

/* The side to move (winning) forces a conversion within d plies, keeping
 * the win at every ply. */
static int conv_us(Conv *C, const Pos *p, int d)
{
    if (d < 1 || C->over)
        return 0;
    if (++C->nodes > C->max) {
        C->over = 1;
        return 0;
    }
    ConvEntry *e = conv_entry(C, p);
    if (e->proven && e->proven <= d)
        return 1;
    if (e->failed >= d)
        return 0;
    Move mv[MORRIS_MAX_MOVES];
    int n = morris_gen(p, mv), ok = 0;
    for (int pass = 0; pass < 2 && !ok; pass++) /* the removals first */
        for (int i = 0; i < n && !ok; i++) {
            int rm = mv_rm(mv[i]) >= 0;
            if (rm != !pass)
                continue;
            Pos c = *p;
            apply(&c, mv[i]);
            if (!lost_for_mover(&c))
                continue;
            ok = rm || morris_result(&c) != RESULT_NONE || conv_them(C, &c, d - 1);
        }
    if (C->over)
        return 0;
    if (ok)
        e->proven = (uint8_t)d;
    else
        e->failed = (uint8_t)d;
    return ok;
}

/* The side to move (losing) cannot avoid a conversion within d plies. */
static int conv_them(Conv *C, const Pos *p, int d)
{
    if (d < 1)
        return 0;
    ConvEntry *e = conv_entry(C, p);
    if (e->proven && e->proven <= d)
        return 1;
    if (e->failed >= d)
        return 0;
    Move mv[MORRIS_MAX_MOVES];
    int n = morris_gen(p, mv), ok = 1;
    for (int i = 0; i < n && ok; i++) {
        if (mv_rm(mv[i]) >= 0)
            continue; /* its own removal: the count starts again */
        Pos c = *p;
        apply(&c, mv[i]);
        ok = conv_us(C, &c, d - 1);
    }
    if (C->over)
        return 0;
    if (ok)
        e->proven = (uint8_t)d;
    else
        e->failed = (uint8_t)d;
    return ok;
}

/* The shortest conversion of the winning side to move in p, within
 * maxd plies: its first move, or MOVE_NONE. */
static Move conversion(Conv *C, const Pos *p, int maxd, int *plies)
{
    Move mv[MORRIS_MAX_MOVES];
    int n = morris_gen(p, mv);
    for (int d = 1; d <= maxd && !C->over; d++)
        for (int i = 0; i < n; i++) {
            Pos c = *p;
            apply(&c, mv[i]);
            if (!lost_for_mover(&c))
                continue;
            if (mv_rm(mv[i]) >= 0 || morris_result(&c) != RESULT_NONE || conv_them(C, &c, d - 1)) {
                *plies = d;
                return mv[i];
            }
            if (C->over)
                break;
        }
    return MOVE_NONE;
}

static int conv_init(Conv *C, const Pos *p, uint64_t max)
{
    memset(C, 0, sizeof *C);
    C->max = max;
    C->tt = calloc((size_t)1 << CONV_TT_BITS, sizeof *C->tt);
    C->salt = (p->diag ? 0x9E3779B97F4A7C15ull : 0) ^ (p->flying ? 0xC2B2AE3D27D4EB4Full : 0) ^
              (p->stm ? 0xD6E8FEB86659FD93ull : 0);
    return C->tt ? 0 : -1;
}

/* Among the moves of p whose value for the mover is want's sign (win,
 * loss), the best by the evaluation's terms after it; with loss, first
 * the one whose winner's conversion is farthest. */
static Move by_terms(const Pos *p, int want, Conv *C)
{
    Move mv[MORRIS_MAX_MOVES], best = MOVE_NONE;
    int n = morris_gen(p, mv);
    long bs = 0;
    for (int i = 0; i < n; i++) {
        Pos c = *p;
        apply(&c, mv[i]);
        int v;
        if (!value_of(&c, &v) || (want > 0 ? v >= 0 : v <= 0))
            continue;
        long s = -morris_eval_heuristic(&c);
        if (want < 0) {
            int far = 1;
            C->nodes = 0;
            C->over = 0;
            while (far <= LOSS_PLIES && C && !conv_us(C, &c, far))
                far++;
            s += (long)far * 1000000;
        }
        if (best == MOVE_NONE || s > bs) {
            best = mv[i];
            bs = s;
        }
    }
    return best;
}

int morris_solve_moving(const void *vp, int *value, Move *best)
{
    const Pos *p = vp;
    if (!morris_solve(vp, value, best))
        return 0;
    int v = *value, plies = VALUE_WIN - (v < 0 ? -v : v);
    int left = p->move_rule ? (int)p->move_rule - p->rev : CONV_PLIES;
    int far = v != 0 && plies >= VALUE_FAR_PLIES;
    if (v == 0 || (v < 0 && !far) || (v > 0 && !far && (!p->move_rule || plies <= left)))
        return 1; /* the tables' move */
    Conv C;
    if (conv_init(&C, p, CONV_NODES) != 0)
        return 1;
    Move m = MOVE_NONE;
    if (v > 0) {
        int d = 0;
        m = conversion(&C, p, left < CONV_PLIES ? left : CONV_PLIES, &d);
        if (m == MOVE_NONE && far)
            m = by_terms(p, 1, NULL);
    } else {
        Conv W; /* the winner's conversions after our move */
        if (conv_init(&W, p, LOSS_NODES) == 0) {
            W.salt ^= 0xD6E8FEB86659FD93ull; /* the other side converts */
            m = by_terms(p, -1, &W);
            free(W.tt);
        }
    }
    free(C.tt);
    if (m != MOVE_NONE)
        *best = m;
    return 1;
}
