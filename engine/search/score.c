/*
 * score.c -- what the searchers (ab.c, mcts.c) and their front (search.c)
 * share: the evaluation kept clear of the mate scores, the legality of a
 * move and of a PV, and the one function that hands a search's report to
 * its caller as data (the protocol writes the text).
 */
#include <stdlib.h>
#include <string.h>

#include "search_internal.h"
#include "units.h"

int search_eval(const Game *g, const void *pos)
{
    return search_eval_clamp(g->evaluate(pos));
}

int search_eval_clamp(int v)
{
    if (v > SCORE_MATE_BOUND - 1)
        v = SCORE_MATE_BOUND - 1;
    if (v < -(SCORE_MATE_BOUND - 1))
        v = -(SCORE_MATE_BOUND - 1);
    return v;
}

Move search_guess(const Game *g, const void *pos)
{
    Move *moves = malloc((size_t)g->max_moves * sizeof *moves);
    unsigned char p[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    if (!moves || g->result(pos) != RESULT_NONE) {
        free(moves);
        return MOVE_NONE;
    }
    int n = g->gen_moves(pos, moves), stm = g->side_to_move(pos), best = 0, best_v = 0;
    for (int i = 0; i < n; i++) {
        memcpy(p, pos, g->pos_size);
        g->make(p, moves[i], undo);
        int res = g->result(p), v;
        if (res != RESULT_NONE) {
            v = units_result_score(res, stm, 1);
        } else {
            v = search_eval(g, p);
            if (g->side_to_move(p) != stm)
                v = -v;
        }
        if (i == 0 || v > best_v) {
            best = i;
            best_v = v;
        }
    }
    Move m = n > 0 ? moves[best] : MOVE_NONE;
    free(moves);
    return m;
}

int search_move_legal(const Game *g, const void *pos, Move m)
{
    if (m == MOVE_NONE || g->result(pos) != RESULT_NONE)
        return 0;
    Move *moves = malloc((size_t)g->max_moves * sizeof *moves);
    if (!moves)
        return 0;
    int n = g->gen_moves(pos, moves), ok = 0;
    for (int i = 0; i < n && !ok; i++)
        ok = moves[i] == m;
    free(moves);
    return ok;
}

int search_pv_legal(const Game *g, const void *pos, const Move *pv, int n)
{
    unsigned char p[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    memcpy(p, pos, g->pos_size);
    int k = 0;
    for (; k < n && search_move_legal(g, p, pv[k]); k++)
        g->make(p, pv[k], undo);
    return k;
}

void search_info(const SearchCtx *c, const SearchProgress *p)
{
    if (!c->emit)
        return;
    int64_t ms = timeman_elapsed(&c->tm);
    SearchInfo in = {
        .kind = SEARCH_INFO_ITERATION,
        .depth = p->depth,
        .seldepth = p->seldepth,
        .score_kind = units_is_mate(p->score) ? SEARCH_SCORE_MATE : SEARCH_SCORE_CP,
        .score = units_is_mate(p->score) ? units_mate_moves(p->score) : p->score,
        .lowerbound = p->bound,
        .nodes = p->nodes,
        .nps = ms > 0 ? p->nodes * 1000 / (uint64_t)ms : 0,
        .time_ms = ms,
        .hashfull = p->hashfull,
        .pv = p->pv,
        .npv = search_pv_legal(c->g, c->root, p->pv, p->npv),
        .multipv = p->multipv,
        .exact = p->solved || p->exact,
    };
    if (!p->no_line)
        c->emit(c->ectx, &in);
    if (p->solved) {
        in.kind = SEARCH_INFO_SOLVED;
        c->emit(c->ectx, &in);
    }
}
