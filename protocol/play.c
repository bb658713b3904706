/*
 * play.c -- a game at the terminal: `morelli play [options]` (docs/play.md).
 *
 * A person plays the engine (or watches it play itself) in any game of the
 * registry.  The game and the engine are one Session, driven with the
 * protocol's own commands (setoption, position, go), so the options, the
 * moves and the searches are exactly the engine's; this file keeps the list
 * of moves played, the clocks, and reads the person's words.  The board is
 * the game's own picture, as `make run` draws it (GamePictures.picture, else
 * the game's print()).
 */
#include "ugi_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "search/timeman.h"

#define PLAY_MAX_PLIES 2000
#define PLAY_LINE_MAX 1024

typedef struct Play {
    Session *e;
    char best[MOVE_STR_MAX]; /* the last bestmove the engine wrote */
    char moves[PLAY_MAX_PLIES][MOVE_STR_MAX];
    int nmoves;
    int human[2];             /* per side: a person plays it */
    int64_t movetime, depth;  /* the engine's limits (0: none) */
    int64_t clock_ms, inc_ms; /* a clock for both (clock_ms 0: none) */
    int64_t left[2];
    int flagged; /* the side that lost on time + 1, or 0 */
    int ansi;
} Play;

/* The Session's writer: bestmove is kept, errors and strings are shown,
 * the search's progress is not. */
static void play_write(void *ctx, const char *line)
{
    Play *p = ctx;
    if (strncmp(line, "bestmove ", 9) == 0) {
        size_t n = strcspn(line + 9, " ");
        if (n >= sizeof p->best)
            n = sizeof p->best - 1;
        memcpy(p->best, line + 9, n);
        p->best[n] = '\0';
    } else if (strncmp(line, "info string", 11) == 0 || strncmp(line, "info", 4) != 0) {
        printf("%s\n", line);
    }
    fflush(stdout);
}

static int cmd(Play *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int cmd(Play *p, const char *fmt, ...)
{
    char line[PLAY_MAX_PLIES * (MOVE_STR_MAX + 1) + 64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    int rc = session_command(p->e, line);
    session_wait(p->e);
    return rc;
}

/* The session's position set to the moves played. */
static int set_position(Play *p)
{
    char line[PLAY_MAX_PLIES * (MOVE_STR_MAX + 1) + 32];
    size_t at = (size_t)snprintf(line, sizeof line, "position startpos%s",
                                 p->nmoves ? " moves" : "");
    for (int i = 0; i < p->nmoves && at < sizeof line; i++)
        at += (size_t)snprintf(line + at, sizeof line - at, " %s", p->moves[i]);
    return cmd(p, "%s", line);
}

static const char *side_word(const Game *g, int side)
{
    return g->side_names[side] ? g->side_names[side] : side == SIDE_P1 ? "p1" : "p2";
}

static void show_clock(int64_t ms, char *buf, size_t len)
{
    if (ms < 0)
        ms = 0;
    snprintf(buf, len, "%" PRId64 ":%02" PRId64 ".%" PRId64, ms / 60000, ms / 1000 % 60,
             ms / 100 % 10);
}

/* The board after the last move (its picture marks that move). */
static void show_board(Play *p)
{
    Session *e = p->e;
    const Game *g = e->game;
    char fen[1024];
    g->to_fen(e->pos, fen, sizeof fen);
    if (g->pictures && g->pictures->picture) {
        if (p->nmoves == 0) {
            g->pictures->picture(PICTURE_START, NULL, fen, NULL, NULL, p->ansi, stdout);
        } else {
            /* The position before the last move, for the mark. */
            char prev[1024];
            int n = p->nmoves;
            p->nmoves--;
            set_position(p);
            g->to_fen(e->pos, prev, sizeof prev);
            p->nmoves = n;
            set_position(p);
            g->pictures->picture(PICTURE_MOVE, prev, fen, p->moves[n - 1], NULL, p->ansi, stdout);
        }
    } else {
        g->print(e->pos, stdout, p->ansi);
    }
    if (p->clock_ms > 0) {
        char a[32], b[32];
        show_clock(p->left[SIDE_P1], a, sizeof a);
        show_clock(p->left[SIDE_P2], b, sizeof b);
        printf("Clocks: %s %s, %s %s\n", side_word(g, SIDE_P1), a, side_word(g, SIDE_P2), b);
    }
    fflush(stdout);
}

/* Non-zero when the game is over; says the result and why. */
static int game_over(Play *p)
{
    Session *e = p->e;
    const Game *g = e->game;
    char why[256] = "";
    int r = RESULT_NONE;
    if (p->flagged) {
        int loser = p->flagged - 1;
        r = loser == SIDE_P1 ? RESULT_P2_WIN : RESULT_P1_WIN;
        snprintf(why, sizeof why, "%s lost on time", side_word(g, loser));
    } else {
        r = full_result(g, e->pos, &e->hist);
        if (r == RESULT_NONE && p->nmoves >= PLAY_MAX_PLIES) {
            r = RESULT_DRAW;
            snprintf(why, sizeof why, "drawn after %d plies", PLAY_MAX_PLIES);
        }
        if (r == RESULT_NONE)
            return 0;
        if (!why[0]) {
            int own = g->result(e->pos), n;
            Move *mv = legal_moves(g, e->pos, &n);
            free(mv);
            const char *note = n == 0 && g->pictures && g->pictures->end_note
                                   ? g->pictures->end_note(e->pos, own)
                                   : "";
            if (own == RESULT_NONE)
                snprintf(why, sizeof why, "drawn by repetition or the move rule");
            else if (n == 0)
                snprintf(why, sizeof why, "%s to move has no legal move%s",
                         side_word(g, g->side_to_move(e->pos)), note);
            else if (own == RESULT_DRAW)
                snprintf(why, sizeof why, "drawn by the rules");
            else
                snprintf(why, sizeof why, "%s wins by the rules",
                         side_word(g, own == RESULT_P1_WIN ? SIDE_P1 : SIDE_P2));
        }
    }
    const char *what = r == RESULT_DRAW ? "draw" : r == RESULT_P1_WIN ? "wins" : "wins";
    if (r == RESULT_DRAW)
        printf("Game over: %s (%s)\n", what, why);
    else
        printf("Game over: %s %s (%s)\n", side_word(g, r == RESULT_P1_WIN ? SIDE_P1 : SIDE_P2),
               what, why);
    fflush(stdout);
    return 1;
}

/* Plays text (a legal move of the position) for the side to move, which
 * took ms of its clock. */
static void play_move(Play *p, const char *text, int64_t ms)
{
    int side = p->e->game->side_to_move(p->e->pos);
    if (p->clock_ms > 0) {
        p->left[side] -= ms;
        if (p->left[side] < 0)
            p->flagged = side + 1;
        else
            p->left[side] += p->inc_ms;
    }
    snprintf(p->moves[p->nmoves++], MOVE_STR_MAX, "%s", text);
    set_position(p);
    printf("%s plays %s\n", side_word(p->e->game, side), text);
    show_board(p);
}

/* The engine's move for the position (hint: shown, not played). */
static int engine_move(Play *p, int hint)
{
    int side = p->e->game->side_to_move(p->e->pos);
    p->best[0] = '\0';
    int64_t t0 = time_now_ms();
    if (p->clock_ms > 0 && !hint)
        cmd(p, "go p1time %" PRId64 " p2time %" PRId64 " p1inc %" PRId64 " p2inc %" PRId64,
            p->left[SIDE_P1], p->left[SIDE_P2], p->inc_ms, p->inc_ms);
    else if (p->depth > 0)
        cmd(p, "go depth %" PRId64, p->depth);
    else
        cmd(p, "go movetime %" PRId64, p->movetime > 0 ? p->movetime : 1000);
    int64_t ms = time_now_ms() - t0;
    if (!p->best[0] || strcmp(p->best, "0000") == 0)
        return -1;
    if (hint) {
        printf("hint: %s\n", p->best);
        fflush(stdout);
        return 0;
    }
    (void)side;
    play_move(p, p->best, ms);
    return 0;
}

static void prompt(Play *p)
{
    const Game *g = p->e->game;
    int side = g->side_to_move(p->e->pos);
    printf("%s to move (a move, or moves, undo, hint, flip, new, help, quit)%s", side_word(g, side),
           isatty(STDIN_FILENO) ? ": " : "\n");
    fflush(stdout);
}

static void new_game(Play *p)
{
    p->nmoves = 0;
    p->flagged = 0;
    p->left[0] = p->left[1] = p->clock_ms;
    cmd(p, "uginewgame");
    set_position(p);
    show_board(p);
}

/* Engine moves while it is the engine's turn and the game goes on. */
static void engine_turns(Play *p)
{
    while (!game_over(p) && !p->human[p->e->game->side_to_move(p->e->pos)])
        if (engine_move(p, 0) != 0)
            break;
}

static const char *const help_lines[] = {
    "  <move>    play it (the game's notation, as `moves` lists them)",
    "  moves     the legal moves",
    "  undo      take back the last move (and the engine's reply)",
    "  hint      the engine's move for you (not played)",
    "  flip      swap sides with the engine",
    "  new       a new game with the same settings",
    "  quit      leave",
};

/* One line of the person's; 1 to quit. */
static int person(Play *p, char *line, int64_t ms)
{
    char *w = line + strspn(line, " \t");
    w[strcspn(w, " \t\r\n")] = '\0';
    if (!*w)
        return 0;
    Session *e = p->e;
    const Game *g = e->game;
    if (!strcasecmp(w, "quit") || !strcasecmp(w, "exit"))
        return 1;
    if (!strcasecmp(w, "help")) {
        for (size_t i = 0; i < sizeof help_lines / sizeof help_lines[0]; i++)
            printf("%s\n", help_lines[i]);
    } else if (!strcasecmp(w, "moves")) {
        session_command(e, "moves");
    } else if (!strcasecmp(w, "new")) {
        new_game(p);
    } else if (!strcasecmp(w, "flip")) {
        int t = p->human[0];
        p->human[0] = p->human[1];
        p->human[1] = t;
        printf("you play %s\n", p->human[0] && p->human[1] ? "both sides"
                                : p->human[0]              ? side_word(g, SIDE_P1)
                                : p->human[1]              ? side_word(g, SIDE_P2)
                                                           : "no side");
        engine_turns(p);
    } else if (!strcasecmp(w, "undo")) {
        if (p->nmoves == 0) {
            printf("nothing to undo\n");
        } else {
            p->nmoves--;
            p->flagged = 0;
            set_position(p);
            /* Back to a position the person moves in. */
            while (p->nmoves > 0 && !p->human[g->side_to_move(e->pos)]) {
                p->nmoves--;
                set_position(p);
            }
            show_board(p);
        }
    } else if (full_result(g, e->pos, &e->hist) != RESULT_NONE || p->flagged) {
        printf("the game is over: new, undo or quit\n");
    } else if (!strcasecmp(w, "hint")) {
        engine_move(p, 1);
    } else if (!p->human[g->side_to_move(e->pos)]) {
        printf("it is the engine's turn\n");
    } else {
        Move m = strlen(w) < MOVE_STR_MAX ? game_parse_move(g, e->pos, w) : MOVE_NONE;
        if (m == MOVE_NONE) {
            char tmp[64];
            printf("'%s' is not a legal move here (type moves for the list)\n",
                   echo(w, tmp, sizeof tmp));
        } else {
            char text[MOVE_STR_MAX];
            game_move_str(g, e->pos, m, text, sizeof text);
            play_move(p, text, ms);
            engine_turns(p);
        }
    }
    fflush(stdout);
    return 0;
}

static int usage(int rc)
{
    printf("Usage: morelli play [--variant morelli|morris|fano] [--human p1|p2|both|none|<side>]\n"
           "                    [--movetime MS | --depth N | --tc MS+INC] [--level N]\n"
           "                    [--option Name=Value ...] [--Name=Value ...]\n"
           "A game at the terminal (docs/play.md). Type help during the game.\n");
    return rc;
}

/* A whole number in lo..hi into *v; 0 or -1. */
static int number(const char *s, int64_t lo, int64_t hi, int64_t *v)
{
    return parse_i64(s, v) == 0 && *v >= lo && *v <= hi ? 0 : -1;
}

int play_main(int argc, char **argv)
{
    Play *p = calloc(1, sizeof *p);
    if (!p)
        return 1;
    p->ansi = isatty(STDOUT_FILENO);
    p->e = session_open(play_write, p, 0, NULL);
    if (!p->e) {
        free(p);
        return 1;
    }
    int rc = 0;
    const char *human = "p1";
    for (int i = 1; i < argc && !rc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int64_t n;
        if (!strcmp(a, "--help"))
            rc = usage(0) - 2;
        else if (!strcmp(a, "--variant") && v)
            rc = cmd(p, "setoption name UCI_Variant value %s", argv[++i]) ? 1 : 0;
        else if (!strcmp(a, "--level") && v) {
            if (cmd(p, "setoption name Skill Level value %s", argv[++i]))
                printf("play: --level not taken; the engine plays at full strength\n");
        } else if (!strcmp(a, "--human") && v)
            human = argv[++i];
        else if (!strcmp(a, "--movetime") && v && number(argv[++i], 1, 86400000, &n) == 0)
            p->movetime = n;
        else if (!strcmp(a, "--depth") && v && number(argv[++i], 1, 1000, &n) == 0)
            p->depth = n;
        else if (!strcmp(a, "--tc") && v) {
            char *plus = strchr(argv[++i], '+');
            if (plus)
                *plus = '\0';
            int64_t inc = 0;
            if (number(argv[i], 1, TIME_MAX_MS, &n) != 0 ||
                (plus && number(plus + 1, 0, TIME_MAX_MS, &inc) != 0)) {
                printf("play: --tc needs MS or MS+INC\n");
                rc = 2;
            }
            p->clock_ms = n;
            p->inc_ms = inc;
        } else if ((!strcmp(a, "--option") && v && strchr(v, '=')) ||
                   (!strncmp(a, "--", 2) && strchr(a, '=') && a[2] != '=')) {
            const char *nv = !strcmp(a, "--option") ? argv[++i] : a + 2;
            const char *eq = strchr(nv, '=');
            rc = cmd(p, "setoption name %.*s value %s", (int)(eq - nv), nv, eq + 1) ? 1 : 0;
        } else {
            char tmp[64];
            printf("play: bad argument '%s'\n", echo(a, tmp, sizeof tmp));
            rc = 2;
        }
    }
    const Game *g = p->e->game;
    if (!rc) {
        int ok = 1;
        if (!strcasecmp(human, "both"))
            p->human[0] = p->human[1] = 1;
        else if (!strcasecmp(human, "p1") || !strcasecmp(human, side_word(g, SIDE_P1)))
            p->human[SIDE_P1] = 1;
        else if (!strcasecmp(human, "p2") || !strcasecmp(human, side_word(g, SIDE_P2)))
            p->human[SIDE_P2] = 1;
        else if (strcasecmp(human, "none"))
            ok = 0;
        if (!ok) {
            char tmp[64];
            printf("play: --human needs p1, p2, %s, %s, both or none, not '%s'\n",
                   side_word(g, SIDE_P1), side_word(g, SIDE_P2), echo(human, tmp, sizeof tmp));
            rc = 2;
        }
    }
    if (rc) {
        session_free(p->e);
        free(p);
        return rc < 0 ? 0 : rc;
    }
    printf("%s: you play %s\n", g->name,
           p->human[0] && p->human[1] ? "both sides"
           : p->human[0]              ? side_word(g, SIDE_P1)
           : p->human[1]              ? side_word(g, SIDE_P2)
                                      : "no side (the engine plays itself)");
    new_game(p);
    engine_turns(p);
    char line[PLAY_LINE_MAX];
    int64_t t0 = time_now_ms();
    if (p->human[0] || p->human[1]) {
        prompt(p);
        while (fgets(line, sizeof line, stdin)) {
            int64_t ms = time_now_ms() - t0;
            if (!strchr(line, '\n') && !feof(stdin)) {
                int c;
                while ((c = getchar()) != EOF && c != '\n')
                    ;
                printf("line too long, ignored\n");
            } else if (person(p, line, ms)) {
                break;
            }
            prompt(p);
            t0 = time_now_ms();
        }
    }
    session_stop(p->e);
    session_free(p->e);
    free(p);
    return 0;
}
