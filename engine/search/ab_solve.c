/*
 * ab_solve.c -- exact endings for the alpha-beta searcher.
 *
 * A game that bounds the plies it can still last (plies_left; Morelli: the
 * band steps left) is searched to its end before iterative deepening when
 * the bound is at most SOLVE_PLIES: negamax over game results only (win
 * SCORE_MATE - ply, loss its negation, draw 0), no depth, no evaluation, no
 * reduction or pruning but alpha-beta itself and mate distance, every node
 * stored in the TT as proven.  The root is probed first with null windows
 * (a win? else at least a draw?), so a winning or drawing move is known
 * early; then, for a win or a loss, a full window gives the exact distance:
 * the fastest win, or the longest resistance.  The solver has its own
 * budget (half the soft time or of a node limit when the bound is at most
 * SOLVE_SURE, a quarter beyond; SOLVE_NODES under a depth limit, which it
 * takes only when the whole game fits in that depth); past it it gives up
 * and the normal search runs, reusing every proven entry.
 */
#include "ab_internal.h"

#define SOLVE_PLIES 100 /* the largest bound tried */
#define SOLVE_SURE 64   /* up to here half the budget, beyond a quarter */
#define SOLVE_NODES 20000000ull
#define SOLVE_TT_DEPTH 250

/* The node is over the solver's budget: give up (the search goes on). */
static int solve_over(AbThread *t)
{
    if (t->nodes >= t->solve_nodes_max)
        t->solve_gave_up = 1;
    else if ((t->nodes & 1023) == 0 && t->solve_ms_max >= 0 &&
             timeman_elapsed(&t->c->tm) >= t->solve_ms_max)
        t->solve_gave_up = 1;
    return t->solve_gave_up;
}

static int solve_rec(AbThread *t, int alpha, int beta, int ply);

static inline int solve_child(AbThread *t, int stm, int alpha, int beta, int ply)
{
    if (t->g->side_to_move(t->pos) == stm)
        return solve_rec(t, alpha, beta, ply);
    return -solve_rec(t, -beta, -alpha, ply);
}

static int solve_rec(AbThread *t, int alpha, int beta, int ply)
{
    const Game *g = t->g;
    int score;
    if (ab_node_enter(t, ply, &score))
        return score;
    if (solve_over(t) || ply >= MAX_PLY - 1) {
        t->solve_gave_up = 1;
        return 0;
    }
    if (ab_mate_distance(ply, &alpha, &beta))
        return alpha;
    Key key = g->key(t->pos);
    TTHit h;
    Move tt_move = MOVE_NONE;
    if (tt_probe(&t->c->s->tt, key, ply, &h)) {
        tt_move = h.move;
        if (h.proven && ply > 0 &&
            (h.bound == TT_EXACT || (h.bound == TT_LOWER && h.score >= beta) ||
             (h.bound == TT_UPPER && h.score <= alpha)))
            return h.score;
    }
    Picker pk;
    picker_init(t, &pk, ply, tt_move);
    int orig_alpha = alpha, best = -INF, quiet, i = 0;
    Move best_move = MOVE_NONE;
    for (Move m; (m = picker_next(t, &pk, &quiet)) != MOVE_NONE; i++) {
        ab_make(t, m, ply);
        if (i == 0) {
            score = solve_child(t, pk.stm, alpha, beta, ply + 1);
        } else {
            score = solve_child(t, pk.stm, alpha, alpha + 1, ply + 1);
            if (score > alpha && score < beta && !t->aborted && !t->solve_gave_up)
                score = solve_child(t, pk.stm, alpha, beta, ply + 1);
        }
        ab_unmake(t, m, ply);
        if (t->aborted || t->solve_gave_up)
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                alpha = score;
                pv_update(t, ply, m);
                if (alpha >= beta) {
                    if (quiet && t->killers[ply][0] != m) {
                        t->killers[ply][1] = t->killers[ply][0];
                        t->killers[ply][0] = m;
                    }
                    break;
                }
            }
        }
    }
    if (best == -INF) { /* the game goes on without a move: not ours to judge */
        t->solve_gave_up = 1;
        return 0;
    }
    int bound = best >= beta ? TT_LOWER : best > orig_alpha ? TT_EXACT : TT_UPPER;
    tt_store(&t->c->s->tt, key, ply, best_move, best, SOLVE_TT_DEPTH, bound, 1);
    return best;
}

/* The root searched with (alpha, beta): 1 and *score, *move (the root move
 * that raised alpha, MOVE_NONE if none did) unless the solver gave up. */
static int solve_probe(AbThread *t, int alpha, int beta, int *score, Move *move)
{
    t->pv_len[0] = 0;
    int v = solve_rec(t, alpha, beta, 0);
    if (t->aborted || t->solve_gave_up)
        return 0;
    *score = v;
    *move = t->pv_len[0] > 0 ? t->pv[0][0] : MOVE_NONE;
    return 1;
}

static void solve_done(AbThread *t, int score, int exact)
{
    t->done_score = score;
    t->done_depth = t->g->plies_left(t->c->root);
    t->done_seldepth = t->seldepth;
    t->done_pv_len = t->pv_len[0];
    memcpy(t->done_pv, t->pv[0], (size_t)t->pv_len[0] * sizeof(Move));
    t->proven = exact;
}

int ab_solve_root(AbThread *t)
{
    const Game *g = t->g;
    SearchCtx *c = t->c;
    const SearchLimits *lim = c->limits;
    int left = g->plies_left ? g->plies_left(t->pos) : SOLVE_PLIES + 1;
    if (left > SOLVE_PLIES || g->result(t->pos) != RESULT_NONE)
        return 0;
    /* a fixed depth asks for no more than that depth: solve only when the
     * whole game fits in it */
    if (lim->depth > 0 && left > lim->depth)
        return 0;
    int64_t soft = c->tm.soft_ms;
    int share = left <= SOLVE_SURE ? 2 : 4; /* 1/2 or 1/4 of the budget */
    t->solve_ms_max = soft >= 0 ? soft / share : -1;
    if (lim->nodes)
        t->solve_nodes_max = t->nodes + lim->nodes / (uint64_t)share;
    else if (soft >= 0 || lim->infinite)
        t->solve_nodes_max = UINT64_MAX;
    else
        t->solve_nodes_max = t->nodes + SOLVE_NODES;
    t->solve_gave_up = 0;
    int v, solved = 0;
    Move m;
    /* a win? */
    if (!solve_probe(t, 0, 1, &v, &m))
        goto out;
    if (v >= 1) {
        solve_done(t, v, 0); /* a winning move, its distance an upper bound */
        solved = 1;
        if (solve_probe(t, 0, INF, &v, &m) && m != MOVE_NONE)
            solve_done(t, v, 1); /* the fastest win */
        goto out;
    }
    /* at least a draw? */
    if (!solve_probe(t, -1, 0, &v, &m))
        goto out;
    if (v >= 0 && m != MOVE_NONE) {
        solve_done(t, 0, 1);
        solved = 1;
        goto out;
    }
    /* lost: the longest resistance */
    if (solve_probe(t, -INF, INF, &v, &m) && m != MOVE_NONE) {
        solve_done(t, v, 1);
        solved = 1;
    }
out:
    t->solve_gave_up = 0;
    return solved;
}
