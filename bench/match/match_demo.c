/*
 * match_demo.c -- the display of `match --demo` (and `make run`).
 *
 * On a terminal the picture is redrawn in place after every move, with a
 * pause (--delay, 300 ms by default there): who plays whom, the board, a
 * legend, the move just played with its cells marked, what the engine
 * thought of it, and the material. Written to a file or a pipe it is plain
 * text, one board per move, the legend once at the start. Both end with the
 * result and a summary of the game.
 *
 * A game with a picture hook (game.h) draws its own board from the FENs,
 * with the last move marked, a legend and a line of material, notes what
 * each move did and tallies it for the summary; other games are drawn by
 * their print().
 */
#include "match_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

typedef struct DemoSide {
    int moves, scored;
    int tally[GAME_TALLY]; /* the game's picture counts here */
    int64_t ms;
    long depth_sum;
    uint64_t nodes_sum;
} DemoSide;

/* One demo runs at a time (--demo forces one game, one worker). */
static struct {
    int delay_ms;
    char fen[FEN_MAX]; /* the position shown last */
    int p1;            /* the engine playing p1 */
    DemoSide side[2];  /* per engine */
} D;

static int engine_is_mcts(const MatchConfig *c, int e)
{
    int mcts = 0;
    for (int i = 0; i < c->neach; i++)
        if (!strcasecmp(c->each[i].name, "Search"))
            mcts = !strcasecmp(c->each[i].value, "mcts");
    for (int i = 0; i < c->engines[e].noptions; i++)
        if (!strcasecmp(c->engines[e].options[i].name, "Search"))
            mcts = !strcasecmp(c->engines[e].options[i].value, "mcts");
    return mcts;
}

/* Fewer MCTS playouts than this give a win rate that is mostly noise. */
#define DEMO_PLAYOUTS_ENOUGH 2000

/* What the engine said about its move, in words. */
static void print_opinion(FILE *out, const MatchConfig *c, int e, const PlyInfo *info)
{
    const char *name = c->engines[e].name;
    fprintf(out, "     %s: ", name);
    if (!info->has_score) {
        fprintf(out, "no score given");
    } else if (info->mate) {
        int k = info->score;
        fprintf(out, "sees a forced %s in %d move%s", k > 0 ? "win" : "loss", abs(k),
                abs(k) == 1 ? "" : "s");
    } else if (engine_is_mcts(c, e)) {
        /* MCTS reports 400 log10(q / (1 - q)) of its win rate q. */
        double q = 1.0 / (1.0 + pow(10.0, -info->score / 400.0));
        fprintf(out, "win rate %.0f%% over %" PRIu64 " playouts", 100.0 * q, info->nodes);
        if (info->nodes < DEMO_PLAYOUTS_ENOUGH)
            fprintf(out, " (too few to mean much)");
    } else {
        fprintf(out, "score %+d (its evaluation; above 0 favours it)", info->score);
    }
    if (info->depth && !engine_is_mcts(c, e))
        fprintf(out, ", depth %d", info->depth);
    fprintf(out, ", %" PRId64 " ms\n", info->ms);
}

static void pause_ms(int ms)
{
    if (ms <= 0)
        return;
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

static void print_header(Match *m, const char *start_fen, int ply)
{
    const MatchConfig *c = m->c;
    const Game *g = c->game;
    fprintf(m->out, "%s (%s) vs %s (%s), %s", c->engines[D.p1].name, side_name(g, SIDE_P1),
            c->engines[1 - D.p1].name, side_name(g, SIDE_P2), g->name);
    if (g->pictures && g->pictures->picture)
        g->pictures->picture(PICTURE_TITLE, NULL, D.fen, NULL, NULL, m->tty, m->out);
    if (c->tc.type == TC_MOVETIME)
        fprintf(m->out, ", %" PRId64 " ms a move", c->tc.movetime_ms);
    if (m->tty)
        fprintf(m->out, "; ply %d\n", ply);
    else
        fprintf(m->out, ", from %s\n", start_fen);
}

void demo_start(Match *m, const GameRecord *rec, const void *pos)
{
    const MatchConfig *c = m->c;
    const Game *g = c->game;
    memset(&D, 0, sizeof D);
    D.p1 = rec->p1;
    g->to_fen(pos, D.fen, sizeof D.fen);
    D.delay_ms = c->demo_delay_ms >= 0 ? c->demo_delay_ms : m->tty ? 300 : 0;
    if (m->tty)
        fprintf(m->out, "\033[H\033[2J");
    print_header(m, rec->start_fen, 0);
    if (g->pictures && g->pictures->picture)
        g->pictures->picture(PICTURE_START, NULL, D.fen, NULL, NULL, m->tty, m->out);
    else
        g->print(pos, m->out, m->tty);
    fflush(m->out);
    pause_ms(D.delay_ms);
}

void demo_ply(Match *m, const void *pos, int side, int e, const PlyInfo *info, int ply)
{
    const MatchConfig *c = m->c;
    const Game *g = c->game;
    FILE *out = m->out;
    DemoSide *s = &D.side[e];
    s->moves++;
    s->ms += info->ms;
    s->depth_sum += info->depth;
    s->nodes_sum += info->nodes;
    s->scored += info->has_score;

    char prev[FEN_MAX];
    memcpy(prev, D.fen, sizeof prev);
    g->to_fen(pos, D.fen, sizeof D.fen);

    if (m->tty) {
        fprintf(out, "\033[H\033[J");
        print_header(m, "", ply);
    } else {
        fputc('\n', out);
    }
    fprintf(out, "%3d. %s (%s): %s", ply, side_name(g, side), c->engines[e].name, info->text);
    if (g->pictures && g->pictures->picture)
        g->pictures->picture(PICTURE_NOTE, prev, D.fen, info->text, s->tally, m->tty, out);
    fputc('\n', out);
    print_opinion(out, c, e, info);
    if (g->pictures && g->pictures->picture)
        g->pictures->picture(PICTURE_MOVE, prev, D.fen, info->text, NULL, m->tty, out);
    else
        g->print(pos, out, m->tty);
    fflush(out);
    pause_ms(D.delay_ms);
}

void demo_end(Match *m, const GameRecord *rec)
{
    const MatchConfig *c = m->c;
    const Game *g = c->game;
    FILE *out = m->out;
    const char *who = rec->result == RESULT_DRAW     ? "nobody"
                      : rec->result == RESULT_P1_WIN ? c->engines[rec->p1].name
                                                     : c->engines[1 - rec->p1].name;
    fprintf(out, "\nResult: %s (%s wins) after %d plies: %s%s%s\n", result_text(g, rec->result),
            who, rec->nplies, rec->reason, rec->disagree[0] ? "; disagreement: " : "",
            rec->disagree);
    fprintf(out, "Summary:\n");
    for (int k = 0; k < 2; k++) {
        int e = k == 0 ? rec->p1 : 1 - rec->p1;
        DemoSide *s = &D.side[e];
        int n = s->moves ? s->moves : 1;
        fprintf(out, "  %s (%s): %d moves", c->engines[e].name,
                side_name(g, k == 0 ? SIDE_P1 : SIDE_P2), s->moves);
        if (g->pictures && g->pictures->picture)
            g->pictures->picture(PICTURE_TALLY, NULL, D.fen, NULL, s->tally, m->tty, out);
        fprintf(out, "; a move took %" PRId64 " ms", s->ms / n);
        if (engine_is_mcts(c, e))
            fprintf(out, " and %" PRIu64 " playouts", s->nodes_sum / (uint64_t)n);
        else if (s->depth_sum)
            fprintf(out, " and reached depth %.1f", (double)s->depth_sum / n);
        fprintf(out, " on average\n");
    }
    if (g->pictures && g->pictures->picture)
        g->pictures->picture(PICTURE_END, NULL, D.fen, NULL, NULL, m->tty, out);
    fflush(out);
}
