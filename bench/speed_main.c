/*
 * build/speed: the table of `make bench` (bench/speed.c, docs/benchmarks.md).
 *
 *   build/speed [--runs N] [--quick] [FILE]
 *
 * FILE: the positions (default bench/speed.txt).  --runs: runs per figure,
 * whose median is shown (default 5).  --quick: one run, MCTS for a tenth of
 * the time (a smoke test).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "speed.h"

int main(int argc, char **argv)
{
    const char *path = "bench/speed.txt";
    int runs = 5, quick = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
            runs = atoi(argv[++i]);
            if (runs < 1 || runs > SPEED_MAX_RUNS) {
                fprintf(stderr, "speed: --runs between 1 and %d\n", SPEED_MAX_RUNS);
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
    speed_machine(stdout);
    printf("each figure: median of %d run%s; perft through perft() (the game's own when it has "
           "one); one search thread, table cleared before each search\n\n",
           runs, runs > 1 ? "s" : "");
    speed_header(stdout);
    char line[2048], err[256];
    int lineno = 0, rc = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        SpeedCase c;
        err[0] = '\0';
        int r = speed_parse_line(line, &c, err, sizeof err);
        if (r < 0) {
            fprintf(stderr, "speed: %s:%d: %s\n", path, lineno, err);
            rc = 1;
            continue;
        }
        if (r > 0)
            speed_run_case(&c, runs, quick, stdout);
    }
    fclose(f);
    return rc;
}
