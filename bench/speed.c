/* The measurements of `make bench`: see speed.h. */
#include "speed.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "match.h"
#include "options.h"
#include "perft.h"
#include "search/search.h"

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
    if (n <= 0)
        return 0;
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

int speed_parse_line(char *line, SpeedCase *c, char *err, size_t errlen)
{
    char *f[8];
    int n = 0;
    char *s = trim(line);
    if (!*s || *s == '#')
        return 0;
    for (char *p = s;; p++) { /* n fields: every '|' ends one */
        if (n == 8) {
            n++; /* one too many */
            break;
        }
        f[n++] = p;
        p = strchr(p, '|');
        if (!p)
            break;
        *p = '\0';
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
            int r = game_option_set(&c->opt, kv, eq + 1, err, errlen);
            if (r == 0)
                snprintf(err, errlen, "unknown game option '%s'", kv);
            if (r != 1)
                return -1;
        }
    }
    if (strcmp(f[3], "startpos") != 0)
        snprintf(c->fen, sizeof c->fen, "%s", f[3]);
    int *num[4] = {&c->perft_bulk, &c->perft_full, &c->ab_depth, &c->mcts_ms};
    static const int max[4] = {30, 30, 100, 600000};
    for (int i = 0; i < 4; i++) {
        char *end;
        long v = strtol(f[4 + i], &end, 10);
        if (end == f[4 + i] || *end || v < 1 || v > max[i]) {
            snprintf(err, errlen, "field %d: expected a whole number in [1, %d], got '%s'", 5 + i,
                     max[i], f[4 + i]);
            return -1;
        }
        *num[i] = (int)v;
    }
    return 1;
}

int speed_setup(const SpeedCase *c, void *pos, char *err, size_t errlen)
{
    if (c->fen[0])
        return c->game->from_fen(pos, c->fen, &c->opt, err, errlen);
    return c->game->init(pos, &c->opt, err, errlen);
}

void speed_machine(FILE *out)
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
    fprintf(out, "machine : %s, %ld cores online\n", model, sysconf(_SC_NPROCESSORS_ONLN));
    fprintf(out, "compiler: %s\n", cc);
}

/* Median seconds of perft runs, and the leaf count. */
static double time_perft(const SpeedCase *c, int depth, int bulk, int runs, uint64_t *leaves)
{
    unsigned char pos[POS_MAX_BYTES];
    char err[256];
    double t[SPEED_MAX_RUNS];
    for (int r = 0; r < runs; r++) {
        speed_setup(c, pos, err, sizeof err);
        double t0 = now_s();
        *leaves = perft(c->game, pos, depth, bulk);
        t[r] = now_s() - t0;
    }
    return median(t, runs);
}

/* One search with a fresh table; returns seconds, fills res. */
static double time_search(Search *s, const SpeedCase *c, const SearchLimits *lim, SearchResult *res)
{
    unsigned char pos[POS_MAX_BYTES];
    char err[256];
    atomic_int stop = 0;
    speed_setup(c, pos, err, sizeof err);
    search_clear(s);
    memset(res, 0, sizeof *res);
    double t0 = now_s();
    search_go(s, c->game, pos, &c->opt, NULL, 0, lim, &stop, NULL, NULL, res);
    return now_s() - t0;
}

void speed_run_case(const SpeedCase *c, int runs, int quick, FILE *out)
{
    char err[256];
    unsigned char pos[POS_MAX_BYTES];
    if (speed_setup(c, pos, err, sizeof err) != 0) {
        fprintf(out, "%-16s  position refused: %s\n", c->label, err);
        return;
    }
    uint64_t lb = 0, lf = 0;
    double tb = time_perft(c, c->perft_bulk, 1, runs, &lb);
    double tf = time_perft(c, c->perft_full, 0, runs, &lf);

    Search *s = search_new();
    if (!s) {
        fprintf(out, "%-16s  out of memory\n", c->label);
        return;
    }
    SearchLimits lim;
    SearchResult res;
    double ab_t[SPEED_MAX_RUNS], ab_nps[SPEED_MAX_RUNS], mc[SPEED_MAX_RUNS];
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
    fprintf(out,
            "%-16s %2d %12.0f %12" PRIu64 " %2d %12.0f %12" PRIu64 " %2d %10.0f %10" PRIu64
            " %9.1f %12s\n",
            c->label, c->perft_bulk, tb > 0 ? lb / tb : 0, lb, c->perft_full, tf > 0 ? lf / tf : 0,
            lf, c->ab_depth, median(ab_nps, runs), ab_nodes, 1000 * median(ab_t, runs), mcts);
    fflush(out);
}


void speed_header(FILE *out)
{
    fprintf(out, "%-16s %2s %12s %12s %2s %12s %12s %2s %10s %10s %9s %12s\n", "position", "d",
            "bulk leaf/s", "leaves", "d", "full leaf/s", "leaves", "d", "ab nodes/s", "ab nodes",
            "ab ms", "mcts play/s");
}
