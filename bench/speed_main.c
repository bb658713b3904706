/*
 * build/speed: the table of `make bench` (docs/benchmarks.md).
 *
 * For every position of the positions file (bench/speed.txt): perft leaves
 * per second with bulk counting and without (through perft(), so a game's
 * own fast perft), alpha-beta nodes per second and time to a fixed depth
 * (search_go() with a fresh table each run), and MCTS playouts per second
 * over a fixed time.  Each figure is the median of --runs runs (default 5).
 * The machine (CPU model, cores, compiler) heads the table.
 *
 *   build/speed [--runs N] [--quick] [FILE]
 *
 * --quick: one run, MCTS for a tenth of the time (a smoke test).
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "game.h"
#include "match.h"
#include "perft.h"
#include "search/search.h"

#define MAX_RUNS 15

typedef struct SpeedCase {
    char label[64];
    const Game *game;
    GameOptions opt;
    char fen[FEN_MAX]; /* "" = startpos */
    int perft_bulk, perft_full, ab_depth, mcts_ms;
} SpeedCase;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* Parses one line of the positions file. Returns 1, 0 (comment), -1. */
static int parse_case(char *line, SpeedCase *c, char *err, size_t errlen)
{
    char *f[8];
    int n = 0;
    char *s = trim(line);
    if (!*s || *s == '#')
        return 0;
    for (char *p = s; n < 8; n++) {
        f[n] = p;
        char *bar = strchr(p, '|');
        if (!bar) {
            n++;
            break;
        }
        *bar = '\0';
        p = bar + 1;
    }
    if (n != 8) {
        snprintf(err, errlen, "expected 8 fields separated by '|'");
        return -1;
    }
    for (int i = 0; i < 8; i++)
        f[i] = trim(f[i]);
    memset(c, 0, sizeof *c);
    snprintf(c->label, sizeof c->label, "%s", f[0]);
    c->game = game_by_name(f[1]);
    if (!c->game) {
        snprintf(err, errlen, "unknown variant '%s'", f[1]);
        return -1;
    }
    game_options_default(&c->opt);
    if (strcmp(f[2], "-") != 0) {
        for (char *kv = strtok(f[2], " "); kv; kv = strtok(NULL, " ")) {
            char *eq = strchr(kv, '=');
            if (!eq) {
                snprintf(err, errlen, "bad option '%s'", kv);
                return -1;
            }
            *eq = '\0';
            int r = match_game_option(&c->opt, kv, eq + 1, err, errlen);
            if (r == 0)
                snprintf(err, errlen, "unknown game option '%s'", kv);
            if (r != 1)
                return -1;
        }
    }
    if (strcmp(f[3], "startpos") != 0)
        snprintf(c->fen, sizeof c->fen, "%s", f[3]);
    c->perft_bulk = atoi(f[4]);
    c->perft_full = atoi(f[5]);
    c->ab_depth = atoi(f[6]);
    c->mcts_ms = atoi(f[7]);
    return 1;
}

static int setup_pos(const SpeedCase *c, void *pos, char *err, size_t errlen)
{
    if (c->fen[0])
        return c->game->from_fen(pos, c->fen, &c->opt, err, errlen);
    return c->game->init(pos, &c->opt, err, errlen);
}

static void machine(void)
{
    char model[256] = "unknown CPU", line[512];
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "model name", 10) == 0) {
                char *colon = strchr(line, ':');
                if (colon)
                    snprintf(model, sizeof model, "%s", trim(colon + 1));
                break;
            }
        }
        fclose(f);
    }
#if defined(__clang__)
    const char *cc = "clang " __clang_version__;
#elif defined(__GNUC__)
    const char *cc = "gcc " __VERSION__;
#else
    const char *cc = "unknown compiler";
#endif
    printf("machine : %s, %ld cores online\n", model, sysconf(_SC_NPROCESSORS_ONLN));
    printf("compiler: %s\n", cc);
}

/* Median seconds of perft runs, and the leaf count. */
static double time_perft(const SpeedCase *c, int depth, int bulk, int runs, uint64_t *leaves)
{
    unsigned char pos[POS_MAX_BYTES];
    char err[256];
    double t[MAX_RUNS];
    for (int r = 0; r < runs; r++) {
        setup_pos(c, pos, err, sizeof err);
        double t0 = now_s();
        *leaves = perft(c->game, pos, depth, bulk);
        t[r] = now_s() - t0;
    }
    return median(t, runs);
}

/* One search with a fresh table; returns seconds, fills res. */
static double time_search(Search *s, const SpeedCase *c, const SearchLimits *lim,
                          SearchResult *res)
{
    unsigned char pos[POS_MAX_BYTES];
    char err[256];
    atomic_int stop = 0;
    setup_pos(c, pos, err, sizeof err);
    search_clear(s);
    memset(res, 0, sizeof *res);
    double t0 = now_s();
    search_go(s, c->game, pos, &c->opt, NULL, 0, lim, &stop, NULL, NULL, res);
    return now_s() - t0;
}

static void run_case(const SpeedCase *c, int runs, int quick)
{
    char err[256];
    unsigned char pos[POS_MAX_BYTES];
    if (setup_pos(c, pos, err, sizeof err) != 0) {
        printf("%-16s  position refused: %s\n", c->label, err);
        return;
    }
    uint64_t lb = 0, lf = 0;
    double tb = time_perft(c, c->perft_bulk, 1, runs, &lb);
    double tf = time_perft(c, c->perft_full, 0, runs, &lf);

    Search *s = search_new();
    if (!s) {
        printf("%-16s  out of memory\n", c->label);
        return;
    }
    SearchLimits lim;
    SearchResult res;
    double ab_t[MAX_RUNS], ab_nps[MAX_RUNS], mc[MAX_RUNS];
    uint64_t ab_nodes = 0;
    search_setoption(s, "Search", "alphabeta", err, sizeof err);
    for (int r = 0; r < runs; r++) {
        search_limits_init(&lim);
        lim.depth = c->ab_depth;
        double t = time_search(s, c, &lim, &res);
        ab_t[r] = t;
        ab_nps[r] = t > 0 ? res.nodes / t : 0;
        ab_nodes = res.nodes;
    }
    int have_mcts = search_setoption(s, "Search", "mcts", err, sizeof err) == 0;
    for (int r = 0; have_mcts && r < runs; r++) {
        search_limits_init(&lim);
        lim.movetime = quick ? (c->mcts_ms + 9) / 10 : c->mcts_ms;
        double t = time_search(s, c, &lim, &res);
        mc[r] = t > 0 ? res.nodes / t : 0;
    }
    search_free(s);
    char mcts[32] = "-";
    if (have_mcts)
        snprintf(mcts, sizeof mcts, "%.0f", median(mc, runs));
    printf("%-16s %2d %12.0f %12" PRIu64 " %2d %12.0f %12" PRIu64 " %2d %10.0f %10" PRIu64
           " %9.1f %12s\n",
           c->label, c->perft_bulk, tb > 0 ? lb / tb : 0, lb, c->perft_full, tf > 0 ? lf / tf : 0,
           lf, c->ab_depth, median(ab_nps, runs), ab_nodes, 1000 * median(ab_t, runs), mcts);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    const char *path = "bench/speed.txt";
    int runs = 5, quick = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
            runs = atoi(argv[++i]);
            if (runs < 1 || runs > MAX_RUNS) {
                fprintf(stderr, "speed: --runs between 1 and %d\n", MAX_RUNS);
                return 2;
            }
        } else if (!strcmp(argv[i], "--quick")) {
            quick = 1;
            runs = 1;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: speed [--runs N] [--quick] [FILE]\n");
            return 2;
        } else {
            path = argv[i];
        }
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "speed: cannot open %s\n", path);
        return 1;
    }
    machine();
    printf("each figure: median of %d run%s; perft through perft() (the game's own when it has "
           "one); one search thread, table cleared before each search\n\n",
           runs, runs > 1 ? "s" : "");
    printf("%-16s %2s %12s %12s %2s %12s %12s %2s %10s %10s %9s %12s\n", "position", "d",
           "bulk leaf/s", "leaves", "d", "full leaf/s", "leaves", "d", "ab nodes/s", "ab nodes",
           "ab ms", "mcts play/s");
    char line[2048], err[256];
    int lineno = 0, rc = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        SpeedCase c;
        err[0] = '\0';
        int r = parse_case(line, &c, err, sizeof err);
        if (r < 0) {
            fprintf(stderr, "speed: %s:%d: %s\n", path, lineno, err);
            rc = 1;
            continue;
        }
        if (r > 0)
            run_case(&c, runs, quick);
    }
    fclose(f);
    return rc;
}
