/*
 * match_demo.c -- the display of `match --demo` (and `make run`): who plays
 * which side, then after every move the move, the engine's score, depth and
 * time, and the board as the game prints it; the result line at the end.
 */
#include "match_internal.h"

#include <inttypes.h>
#include <stdio.h>

void demo_start(Match *m, const GameRecord *rec, const void *pos)
{
    const MatchConfig *c = m->c;
    const Game *g = c->game;
    fprintf(m->out, "%s (%s) vs %s (%s), %s from %s\n", c->engines[rec->p1].name,
            side_name(g, SIDE_P1), c->engines[1 - rec->p1].name, side_name(g, SIDE_P2),
            g->name, rec->start_fen);
    g->print(pos, m->out, m->tty);
    fflush(m->out);
}

void demo_ply(Match *m, const void *pos, int side, int e, const PlyInfo *info, int ply)
{
    const MatchConfig *c = m->c;
    FILE *out = m->out;
    fprintf(out, "\n%3d. %s (%s): %s", ply, side_name(c->game, side), c->engines[e].name,
            info->text);
    if (info->has_score) {
        if (info->mate)
            fprintf(out, "   score mate %d", info->score);
        else
            fprintf(out, "   score cp %+d", info->score);
    }
    if (info->depth)
        fprintf(out, "  depth %d", info->depth);
    fprintf(out, "  %" PRId64 " ms\n", info->ms);
    c->game->print(pos, out, m->tty);
    fflush(out);
}


void demo_end(Match *m, const GameRecord *rec)
{
    const MatchConfig *c = m->c;
    const char *who = rec->result == RESULT_DRAW ? "nobody"
                      : rec->result == RESULT_P1_WIN ? c->engines[rec->p1].name
                                                     : c->engines[1 - rec->p1].name;
    fprintf(m->out, "\nResult: %s (%s wins) after %d plies: %s%s%s\n",
            result_text(rec->result), who, rec->nplies, rec->reason,
            rec->disagree[0] ? "; disagreement: " : "", rec->disagree);
    fflush(m->out);
}
