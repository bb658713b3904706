/*
 * speed.h -- the measurements of `make bench` (build/speed, docs/benchmarks.md).
 *
 * A positions file (bench/speed.txt) has one position a line, fields
 * separated by '|':
 *   label | variant | game options (Name=Value ... or -) | startpos or FEN |
 *   perft depth with bulk counting | perft depth without | alpha-beta depth |
 *   MCTS milliseconds
 * For each, speed_run_case() prints one row: perft leaves per second (bulk
 * and full, through perft()), alpha-beta nodes per second and time to the
 * depth (search_go(), table cleared before each run), MCTS playouts per
 * second; each the median of the runs.
 */
#ifndef MORELLI_BENCH_SPEED_H
#define MORELLI_BENCH_SPEED_H

#include <stdio.h>

#include "game.h"

#define SPEED_MAX_RUNS 15

typedef struct SpeedCase {
    char label[64];
    const Game *game;
    GameOptions opt;
    char fen[FEN_MAX]; /* "" = startpos */
    int perft_bulk, perft_full, ab_depth, mcts_ms;
} SpeedCase;

/* Parses one line (modified in place). Returns 1 with a case, 0 for a blank
 * or comment line, -1 with a message in err. */
int speed_parse_line(char *line, SpeedCase *c, char *err, size_t errlen);
/* The case's position into pos. Returns 0, or -1 with a message. */
int speed_setup(const SpeedCase *c, void *pos, char *err, size_t errlen);
/* The machine lines: CPU model, cores, compiler. */
void speed_machine(FILE *out);
/* The column heads of speed_run_case()'s rows. */
void speed_header(FILE *out);
/* Measures one case (runs 1..SPEED_MAX_RUNS; quick: MCTS a tenth of the
 * time) and prints its row. */
void speed_run_case(const SpeedCase *c, int runs, int quick, FILE *out);

#endif
