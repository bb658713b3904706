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
 * Morelli boards are drawn here, from the FEN, so the last move can be
 * marked: [x] the cell the stone reached, *.* the cell it left, (x) a stone
 * it captured (turned), {K} the king it put on the Throne; stones are solid
 * black or white squares in the middle of their band's colour, readable on
 * every band. Other games are drawn by their own print().
 */
#include "match_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define DEMO_N 13

/* A Morelli board from its FEN: cell[rank][file], rank 0 = rank 1;
 * '.' empty, 'b' 'w' stones, 'B' 'W' a king on the Throne. */
typedef struct Board {
    int n;
    char cell[DEMO_N][DEMO_N];
} Board;

typedef struct DemoSide {
    int moves, captures, turned, enthroned, scored;
    int64_t ms;
    long depth_sum;
    uint64_t nodes_sum;
} DemoSide;

/* One demo runs at a time (--demo forces one game, one worker). */
static struct {
    int morelli;    /* draw the board here (else the game's print) */
    int delay_ms;
    Board prev;     /* the position before the move being shown */
    int p1;         /* the engine playing p1 */
    DemoSide side[2]; /* per engine */
} D;

/* Band colours, Throne (violet) outwards, as ANSI 256-colour backgrounds,
 * with a marker colour readable on each; band letters of the plain text. */
static const int band_bg[7] = {129, 54, 27, 34, 226, 208, 196};
static const int band_fg[7] = {231, 231, 231, 16, 16, 16, 16};
static const char band_letter[7] = {'v', 'i', 'u', 'g', 'y', 'o', 'r'};
static const char *const band_name[7] = {"violet Throne", "indigo", "blue", "green",
                                         "yellow", "orange", "red"};

enum { MARK_NONE, MARK_TO, MARK_FROM, MARK_CAPTURED, MARK_THRONE };
static const char mark_left[] = " [*({", mark_right[] = " ]*)}";

static int parse_board(const char *fen, Board *b)
{
    memset(b, '.', sizeof *b);
    int rows = 1;
    for (const char *s = fen; *s && *s != ' '; s++)
        rows += *s == '/';
    if (rows != 9 && rows != 11 && rows != 13)
        return -1;
    b->n = rows;
    int r = rows - 1, f = 0;
    for (const char *s = fen; *s && *s != ' '; s++) {
        if (*s == '/') {
            r--;
            f = 0;
        } else if (*s >= '0' && *s <= '9') {
            int k = (int)strtol(s, (char **)&s, 10);
            s--;
            f += k;
        } else if (f < rows && r >= 0) {
            b->cell[r][f++] = *s;
        }
    }
    return 0;
}

static int band_of(const Board *b, int r, int f)
{
    int c = b->n / 2, dr = abs(r - c), df = abs(f - c);
    return dr > df ? dr : df;
}

static int colour_of(char ch) /* 1 Black, 2 White, 0 empty */
{
    return ch == 'b' || ch == 'B' ? 1 : ch == 'w' || ch == 'W' ? 2 : 0;
}

/* "e3" at s: sets *r, *f; returns the characters read, 0 if none. */
static int parse_cell(const char *s, int n, int *r, int *f)
{
    if (s[0] < 'a' || s[0] >= 'a' + n)
        return 0;
    char *end;
    long rank = strtol(s + 1, &end, 10);
    if (end == s + 1 || rank < 1 || rank > n)
        return 0;
    *f = s[0] - 'a';
    *r = (int)rank - 1;
    return (int)(end - s);
}

static void print_cell(FILE *out, const Board *b, int r, int f, int mark, int tty)
{
    char ch = b->cell[r][f];
    int band = band_of(b, r, f), col = colour_of(ch);
    char l = mark_left[mark], rt = mark_right[mark];
    if (!tty) {
        fprintf(out, "%c%c%c", l, col ? ch : band_letter[band], rt);
        return;
    }
    fprintf(out, "\033[48;5;%d;38;5;%d;1m%c", band_bg[band], band_fg[band], l);
    if (col == 1)
        fprintf(out, "\033[48;5;16;38;5;231m%c", ch);
    else if (col == 2)
        fprintf(out, "\033[48;5;231;38;5;16m%c", ch);
    else
        fputc(' ', out);
    fprintf(out, "\033[48;5;%d;38;5;%dm%c\033[0m", band_bg[band], band_fg[band], rt);
}

static void print_board(FILE *out, const Board *b, unsigned char mark[DEMO_N][DEMO_N], int tty)
{
    for (int r = b->n - 1; r >= 0; r--) {
        fprintf(out, "%3d ", r + 1);
        for (int f = 0; f < b->n; f++)
            print_cell(out, b, r, f, mark ? mark[r][f] : MARK_NONE, tty);
        fputc('\n', out);
    }
    fprintf(out, "    ");
    for (int f = 0; f < b->n; f++)
        fprintf(out, " %c ", 'a' + f);
    fputc('\n', out);
}

static void print_legend(FILE *out, int n, int tty)
{
    int outer = n / 2;
    fprintf(out, "bands:");
    for (int band = outer; band >= 0; band--) {
        if (tty)
            fprintf(out, " \033[48;5;%dm  \033[0m %s", band_bg[band], band_name[band]);
        else
            fprintf(out, " %c %s%s", band_letter[band], band_name[band], band ? "," : "");
    }
    fputc('\n', out);
    if (tty)
        fprintf(out, "stones: \033[48;5;16;38;5;231;1mb\033[0m Black, "
                     "\033[48;5;231;38;5;16;1mw\033[0m White, B/W a king on the Throne");
    else
        fprintf(out, "stones: b Black, w White, B/W a king on the Throne");
    fprintf(out, "\nlast move: [x] arrived, *.* left, (x) captured (turned), {K} enthroned\n");
}

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

/* The stones of each side and the Throne; stm 'b' or 'w' adds the side to
 * move, 0 leaves it out. */
static void print_material(FILE *out, const char *lead, const Board *b, char stm)
{
    int count[3] = {0, 0, 0};
    for (int r = 0; r < b->n; r++)
        for (int f = 0; f < b->n; f++)
            count[colour_of(b->cell[r][f])]++;
    char centre = b->cell[b->n / 2][b->n / 2];
    fprintf(out, "%sstones: Black %d, White %d; Throne: %s", lead, count[1] - (centre == 'B'),
            count[2] - (centre == 'W'),
            centre == 'B' ? "Black king" : centre == 'W' ? "White king" : "empty");
    if (stm)
        fprintf(out, "; %s to move", stm == 'w' ? "White" : "Black");
    fputc('\n', out);
}

static char fen_side(const char *fen)
{
    const char *sp = strchr(fen, ' ');
    return sp ? sp[1] : 0;
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
    if (D.morelli)
        fprintf(m->out, " %dx%d", D.prev.n, D.prev.n);
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
    char fen[FEN_MAX];
    memset(&D, 0, sizeof D);
    D.p1 = rec->p1;
    g->to_fen(pos, fen, sizeof fen);
    D.morelli = !strcmp(g->name, "morelli") && parse_board(fen, &D.prev) == 0;
    D.delay_ms = c->demo_delay_ms >= 0 ? c->demo_delay_ms : m->tty ? 300 : 0;
    if (m->tty)
        fprintf(m->out, "\033[H\033[2J");
    print_header(m, rec->start_fen, 0);
    if (D.morelli) {
        print_board(m->out, &D.prev, NULL, m->tty);
        print_legend(m->out, D.prev.n, m->tty);
        print_material(m->out, "     ", &D.prev, fen_side(fen));
    } else {
        g->print(pos, m->out, m->tty);
    }
    fflush(m->out);
    pause_ms(D.delay_ms);
}

/* Marks the cells of the move just played (text) between D.prev and now,
 * and counts its captures and enthronement for engine e. */
static void mark_move(const Board *now, const char *text, int e,
                      unsigned char mark[DEMO_N][DEMO_N])
{
    const Board *was = &D.prev;
    int n = now->n, fr = -1, ff = -1, tr = -1, tf = -1;
    int k = parse_cell(text, n, &fr, &ff);
    if (k && text[k] == '-' && parse_cell(text + k + 1, n, &tr, &tf)) {
        mark[fr][ff] = MARK_FROM;
        mark[tr][tf] = MARK_TO;
    }
    int turned = 0;
    for (int r = 0; r < n; r++)
        for (int f = 0; f < n; f++) {
            int a = colour_of(was->cell[r][f]), b = colour_of(now->cell[r][f]);
            if (r == n / 2 && f == n / 2) {
                if (b && a != b) {
                    mark[r][f] = MARK_THRONE;
                    D.side[e].enthroned++;
                }
            } else if (!a && b && tr < 0) {
                mark[r][f] = MARK_TO; /* a placement */
            } else if (a && b && a != b) {
                mark[r][f] = MARK_CAPTURED;
                turned++;
            }
        }
    if (turned) {
        D.side[e].captures++;
        D.side[e].turned += turned;
    }
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

    char fen[FEN_MAX];
    g->to_fen(pos, fen, sizeof fen);
    Board now;
    unsigned char mark[DEMO_N][DEMO_N];
    memset(mark, MARK_NONE, sizeof mark);
    int morelli = D.morelli && parse_board(fen, &now) == 0;
    if (morelli)
        mark_move(&now, info->text, e, mark);

    if (m->tty) {
        fprintf(out, "\033[H\033[J");
        print_header(m, "", ply);
    } else {
        fputc('\n', out);
    }
    fprintf(out, "%3d. %s (%s): %s", ply, side_name(g, side), c->engines[e].name, info->text);
    if (morelli) {
        int first = 1;
        for (int r = 0; r < now.n; r++)
            for (int f = 0; f < now.n; f++)
                if (mark[r][f] == MARK_CAPTURED) {
                    fprintf(out, "%s%c%d", first ? ", captures " : " ", 'a' + f, r + 1);
                    first = 0;
                }
        for (int r = 0; r < now.n; r++)
            for (int f = 0; f < now.n; f++)
                if (mark[r][f] == MARK_THRONE)
                    fprintf(out, ", enthrones the %s king", side_name(g, side));
    }
    fputc('\n', out);
    print_opinion(out, c, e, info);
    if (morelli) {
        print_board(out, &now, mark, m->tty);
        if (m->tty)
            print_legend(out, now.n, 1);
        print_material(out, "     ", &now, fen_side(fen));
        D.prev = now;
    } else {
        g->print(pos, out, m->tty);
    }
    fflush(out);
    pause_ms(D.delay_ms);
}

void demo_end(Match *m, const GameRecord *rec)
{
    const MatchConfig *c = m->c;
    const Game *g = c->game;
    FILE *out = m->out;
    const char *who = rec->result == RESULT_DRAW ? "nobody"
                      : rec->result == RESULT_P1_WIN ? c->engines[rec->p1].name
                                                     : c->engines[1 - rec->p1].name;
    fprintf(out, "\nResult: %s (%s wins) after %d plies: %s%s%s\n", result_text(rec->result),
            who, rec->nplies, rec->reason, rec->disagree[0] ? "; disagreement: " : "",
            rec->disagree);
    fprintf(out, "Summary:\n");
    for (int k = 0; k < 2; k++) {
        int e = k == 0 ? rec->p1 : 1 - rec->p1;
        const DemoSide *s = &D.side[e];
        int n = s->moves ? s->moves : 1;
        fprintf(out, "  %s (%s): %d moves", c->engines[e].name,
                side_name(g, k == 0 ? SIDE_P1 : SIDE_P2), s->moves);
        if (D.morelli)
            fprintf(out, ", %d capture%s turning %d stone%s, %d enthronement%s", s->captures,
                    s->captures == 1 ? "" : "s", s->turned, s->turned == 1 ? "" : "s",
                    s->enthroned, s->enthroned == 1 ? "" : "s");
        fprintf(out, "; a move took %" PRId64 " ms", s->ms / n);
        if (engine_is_mcts(c, e))
            fprintf(out, " and %" PRIu64 " playouts", s->nodes_sum / (uint64_t)n);
        else if (s->depth_sum)
            fprintf(out, " and reached depth %.1f", (double)s->depth_sum / n);
        fprintf(out, " on average\n");
    }
    if (D.morelli && D.prev.n) {
        print_material(out, "  at the end: ", &D.prev, 0);
    }
    fflush(out);
}
