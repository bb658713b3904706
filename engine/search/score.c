/*
 * score.c -- what the searchers (ab.c, mcts.c) and their front (search.c)
 * share: scores of finished games and of the evaluation, their text, the
 * legality of a move, PVs as text, and the one function that writes a
 * search's `info depth ... pv` line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search_internal.h"
#include "units.h"

int search_eval(const Game *g, const void *pos)
{
    int v = g->evaluate(pos);
    if (v > SCORE_MATE_BOUND - 1)
        v = SCORE_MATE_BOUND - 1;
    if (v < -(SCORE_MATE_BOUND - 1))
        v = -(SCORE_MATE_BOUND - 1);
    return v;
}

void search_score_str(int score, char *buf, size_t len)
{
    if (units_is_mate(score))
        snprintf(buf, len, "mate %d", units_mate_moves(score));
    else
        snprintf(buf, len, "cp %d", score);
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

void search_pv_str(const Game *g, const void *pos, const Move *pv, int n, char *buf,
                   size_t len)
{
    unsigned char p[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    char text[MOVE_STR_MAX];
    size_t at = 0;
    buf[0] = '\0';
    memcpy(p, pos, g->pos_size);
    for (int i = 0; i < n; i++) {
        if (!search_move_legal(g, p, pv[i]))
            break;
        game_move_str(g, p, pv[i], text, sizeof text);
        size_t tl = strlen(text);
        if (at + tl + 2 > len)
            break;
        if (at)
            buf[at++] = ' ';
        memcpy(buf + at, text, tl + 1);
        at += tl;
        g->make(p, pv[i], undo);
    }
}

void search_info(const SearchCtx *c, const SearchInfo *in)
{
    if (!c->emit)
        return;
    char line[8192], sc[32], pv[7168];
    int64_t ms = timeman_elapsed(&c->tm);
    uint64_t nps = ms > 0 ? in->nodes * 1000 / (uint64_t)ms : 0;
    search_score_str(in->score, sc, sizeof sc);
    search_pv_str(c->g, c->root, in->pv, in->npv, pv, sizeof pv);
    if (!in->no_line) {
        snprintf(line, sizeof line,
                 "info depth %d seldepth %d score %s%s nodes %llu nps %llu time %lld hashfull %d%s%s",
                 in->depth, in->seldepth, sc, in->bound ? " lowerbound" : "",
                 (unsigned long long)in->nodes,
                 (unsigned long long)nps, (long long)ms, in->hashfull, pv[0] ? " pv " : "", pv);
        c->emit(c->ectx, line);
    }
    if (in->solved) {
        snprintf(line, sizeof line, "info string solved: %s", sc);
        c->emit(c->ectx, line);
    }
}
