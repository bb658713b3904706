/*
 * morris_tb_solve.c -- `morelli tables solve` (docs/solved.md): the exact
 * value of a position of the placement, the start by default, by the
 * search of morris_place.c down to the table files, with a transposition
 * table and a node budget of the command's own instead of the game
 * solver's small ones.  The value of every move too with --moves.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "morris_internal.h"
#include "morris_tb.h"

#define SOLVE_HASH_DEFAULT_MB 1024
#define SOLVE_HASH_MAX_MB (1 << 20)

typedef struct Clock {
    struct timespec t0;
    int quiet;
} Clock;

static double seconds(const Clock *c)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - c->t0.tv_sec) + (double)(t.tv_nsec - c->t0.tv_nsec) / 1e9;
}

static void progress(void *ctx, uint64_t nodes)
{
    const Clock *c = ctx;
    double s = seconds(c);
    if (!c->quiet)
        fprintf(stderr, "solve: %" PRIu64 " nodes, %.0f s, %.0f knodes/s\n", nodes, s,
                s > 0 ? (double)nodes / s / 1e3 : 0.0);
}

static int usage(void)
{
    fprintf(stderr,
            "usage: morelli tables solve [--dir D] [--hash MB] [--nodes N] [--moves] [--quiet]\n"
            "                            [--diagonals true|false] [--flying true|false] "
            "[--pieces 9|12]\n"
            "                            [startpos | FEN] [moves M...]\n");
    return 2;
}

static void value_text(int v, char *buf, size_t len)
{
    int plies = v > 0 ? VALUE_WIN - v : VALUE_WIN + v;
    if (v != 0 && plies >= VALUE_FAR_PLIES)
        snprintf(buf, len, "%s, distance unknown", v > 0 ? "win" : "loss");
    else if (v != 0)
        snprintf(buf, len, "%s in %d plies", v > 0 ? "win" : "loss", plies);
    else
        snprintf(buf, len, "draw");
}

/* Why a search gave no value. */
static void unknown_text(const PlaceRun *run, const char *dir, char *buf, size_t len)
{
    if (run->missing[0] || run->missing[1])
        snprintf(buf, len,
                 "unknown: the search reached %d against %d pieces (class %dv%d), "
                 "which the tables in %s do not hold",
                 run->missing[0], run->missing[1], run->missing[0], run->missing[1], dir);
    else
        snprintf(buf, len, "unknown: not solved in %" PRIu64 " nodes", run->nodes);
}

/* The exact value of p for its mover (1), or 0 with run filled. */
static int value_of(const Pos *p, PlaceTable *tt, PlaceRun *run, int *value, Move *best)
{
    int r = morris_result(p);
    if (r != RESULT_NONE) {
        *value = r == RESULT_DRAW ? 0 : -VALUE_WIN;
        *best = MOVE_NONE;
        return 1;
    }
    if (p->hand[0] | p->hand[1])
        return morris_place_search(p, tt, run, value, best);
    run->missing[0] = run->missing[1] = 0;
    if (morris_solve_any(p, value, best))
        return 1;
    run->missing[0] = popcnt(p->bb[0]);
    run->missing[1] = popcnt(p->bb[1]);
    return 0;
}

/* The position of the words w[0..n): startpos or a FEN, then moves. */
static int position(const GameOptions *o, char **w, int n, Pos *p)
{
    char fen[512] = "", err[256];
    int i = 0;
    if (i < n && strcmp(w[i], "startpos") == 0)
        i++;
    else
        for (size_t len = 0; i < n && strcmp(w[i], "moves") != 0; i++) {
            int k = snprintf(fen + len, sizeof fen - len, "%s%s", len ? " " : "", w[i]);
            if (k < 0 || (size_t)k >= sizeof fen - len) {
                fprintf(stderr, "error: the FEN is too long\n");
                return -1;
            }
            len += (size_t)k;
        }
    int bad = fen[0] ? morris_from_fen(p, fen, o, err, sizeof err)
                     : morris_init(p, o, err, sizeof err);
    if (bad) {
        fprintf(stderr, "error: %s\n", err);
        return -1;
    }
    if (i < n && strcmp(w[i], "moves") == 0)
        i++;
    for (; i < n; i++) {
        Move mv[MORRIS_MAX_MOVES], m = morris_move_from_str(p, w[i]);
        int k = morris_result(p) == RESULT_NONE ? morris_gen(p, mv) : 0, legal = 0;
        for (int j = 0; j < k; j++)
            legal |= mv[j] == m;
        if (!legal) {
            fprintf(stderr, "error: illegal move '%.40s'\n", w[i]);
            return -1;
        }
        apply(p, m);
    }
    return 0;
}

int tb_solve_command(int argc, char **argv)
{
    GameOptions o;
    game_options_default(&o);
    MorrisOptions *mo = morris_opts(&o);
    const char *dir = NULL;
    int64_t hash_mb = SOLVE_HASH_DEFAULT_MB;
    uint64_t max_nodes = 0;
    int all_moves = 0, quiet = 0, nw = 0;
    char **words = calloc((size_t)argc + 1, sizeof *words);
    if (!words)
        return 2;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (strncmp(a, "--", 2) != 0) {
            words[nw++] = argv[i];
            continue;
        }
        if (strcmp(a, "--moves") == 0) {
            all_moves = 1;
            continue;
        }
        if (strcmp(a, "--quiet") == 0) {
            quiet = 1;
            continue;
        }
        if (!v) {
            free(words);
            return usage();
        }
        i++;
        long long x = strtoll(v, &end, 10);
        int is_num = *v && end && !*end;
        if (strcmp(a, "--dir") == 0 && *v)
            dir = v;
        else if (strcmp(a, "--hash") == 0 && is_num && x >= 1 && x <= SOLVE_HASH_MAX_MB)
            hash_mb = x;
        else if (strcmp(a, "--nodes") == 0 && is_num && x >= 1)
            max_nodes = (uint64_t)x;
        else if (strcmp(a, "--pieces") == 0 && is_num && (x == 9 || x == 12))
            mo->pieces = x;
        else if ((strcmp(a, "--diagonals") == 0 || strcmp(a, "--flying") == 0) &&
                 (strcmp(v, "true") == 0 || strcmp(v, "false") == 0))
            *(a[2] == 'd' ? &mo->diagonals : &mo->flying) = strcmp(v, "true") == 0;
        else {
            free(words);
            return usage();
        }
    }
    Pos p;
    int bad = position(&o, words, nw, &p);
    free(words);
    if (bad)
        return 2;
    if (dir)
        tb_set_path(dir);
    char where[4096];
    tb_get_path(where, sizeof where);
    int bits = 0;
    while (bits < 40 && ((uint64_t)16 << (bits + 1)) <= (uint64_t)hash_mb << 20)
        bits++;
    PlaceTable *tt = morris_place_table_new(bits);
    if (!tt) {
        fprintf(stderr, "error: no memory for a table of %" PRId64 " MB (--hash)\n", hash_mb);
        return 2;
    }
    char fen[256], text[64], vt[4352];
    morris_to_fen(&p, fen, sizeof fen);
    printf("Position: %s\n", fen);
    fflush(stdout);
    game_morris.solver->prepare(&p);
    Clock clk = {.quiet = quiet};
    clock_gettime(CLOCK_MONOTONIC, &clk.t0);
    PlaceRun run = {.max_nodes = max_nodes, .progress = progress, .ctx = &clk};
    uint64_t total = 0;
    int value, rc = 0;
    Move best;
    int known = value_of(&p, tt, &run, &value, &best);
    total += run.nodes;
    if (!known) {
        unknown_text(&run, where, vt, sizeof vt);
        printf("Value: %s\n", vt);
        rc = 1;
    } else {
        value_text(value, vt, sizeof vt);
        printf("Value: %s\n", vt);
        if (best != MOVE_NONE) {
            morris_move_to_str(&p, best, text, sizeof text);
            printf("Best: %s\n", text);
        }
    }
    fflush(stdout);
    if (known && all_moves && morris_result(&p) == RESULT_NONE) {
        Move mv[MORRIS_MAX_MOVES];
        int n = morris_gen(&p, mv);
        for (int k = 0; k < n; k++) {
            Pos c = p;
            apply(&c, mv[k]);
            int cv;
            Move cb;
            morris_move_to_str(&p, mv[k], text, sizeof text);
            if (value_of(&c, tt, &run, &cv, &cb)) {
                cv = -cv;
                value_text(cv > 0 ? cv - 1 : cv < 0 ? cv + 1 : 0, vt, sizeof vt);
            } else {
                unknown_text(&run, where, vt, sizeof vt);
                rc = 1;
            }
            total += run.nodes;
            printf("%s: %s\n", text, vt);
            fflush(stdout);
        }
    }
    printf("solve: %" PRIu64 " nodes, %.1f s, table %" PRId64 " MB\n", total, seconds(&clk),
           (int64_t)((uint64_t)16 << bits >> 20));
    morris_place_table_free(tt);
    return rc;
}
