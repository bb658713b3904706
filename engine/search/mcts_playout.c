/*
 * mcts_playout.c -- MCTS playouts: the game's own playout, its policy or uniform
 * random moves, capped for games that may not end (mcts_internal.h).
 */

#include "mcts_internal.h"

/* Result for P1 of a game result. */
static double result_p1(int res)
{
    return res == RESULT_P1_WIN ? 1.0 : res == RESULT_P2_WIN ? 0.0 : 0.5;
}

/* Result for P1 of a playout stopped by the cap at r->pos: a draw (plain),
 * else the evaluation made a probability. */
static double capped(MctsRun *r)
{
    if (r->plain)
        return 0.5;
    double p = units_winrate(search_eval(r->g, r->pos));
    return r->g->side_to_move(r->pos) == SIDE_P1 ? p : 1.0 - p;
}

/* Result for P1 of a playout from r->pos, which is changed. */
double mcts_playout(MctsRun *r)
{
    const Game *g = r->g;
    int rule = game_move_rule(g, r->pos);
    const GamePlayout *gp = r->plain ? NULL : g->playout;
    if (gp && gp->run && !rule) {
        int res = gp->run(r->pos, &r->rng, r->cap);
        return res == RESULT_NONE ? capped(r) : result_p1(res);
    }
    for (int ply = 0;; ply++) {
        int res = g->result(r->pos);
        if (res != RESULT_NONE)
            return result_p1(res);
        if (rule > 0 && g->reversible_plies && g->reversible_plies(r->pos) >= rule)
            return 0.5;
        if (ply >= r->cap)
            return capped(r);
        Move m;
        if (gp && gp->step) {
            m = gp->step(r->pos, &r->rng);
            if (m == MOVE_NONE)
                return 0.5;
        } else {
            int n = g->gen_moves(r->pos, r->moves);
            if (n <= 0)
                return 0.5;
            if (gp && gp->move)
                m = gp->move(r->pos, r->moves, n, &r->rng);
            else
                m = r->moves[rng_below(&r->rng, (uint32_t)n)];
        }
        g->make(r->pos, m, r->undo);
    }
}
