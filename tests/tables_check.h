/*
 * tables_check.h -- what the tests of the Morris table files share
 * (tests/tables_check.c): a temporary directory, a FEN of a position given
 * as point sets, and the value of a position computed from its children
 * by a plain routine of its own (the game's move generator and the tables'
 * values of the children), not by the builder's code.
 */
#ifndef MORELLI_TABLES_CHECK_H
#define MORELLI_TABLES_CHECK_H

#include <stdint.h>

#include "game.h"

/* A new empty directory under $TMPDIR (or /tmp), into buf. */
void tc_tempdir(char *buf, size_t len);
/* Removes dir and the files in it. */
void tc_rmdir(const char *dir);
/* The FEN of White x to move against Black y, none in hand. */
void tc_fen(uint32_t x, uint32_t y, char *buf, size_t len);
/* Options: Pieces 9, MoveRule off, and the board and flying rule given. */
void tc_options(GameOptions *o, int diagonals, int flying);
/* The value (VALUE_WIN - n, -(VALUE_WIN - n), VALUE_DRAW) of mover x
 * against y from its children's table values; fails the test when a child
 * is not in the tables. */
int tc_from_children(const GameOptions *o, uint32_t x, uint32_t y);
/* The table value of the same position (morris_egtb_probe); fails the test
 * when the tables do not hold it. */
int tc_probe(const GameOptions *o, uint32_t x, uint32_t y);
/* A random set of k of the points not in taken. */
uint32_t tc_random_set(uint64_t *rng, int k, uint32_t taken);
/* Runs `morelli tables ARGS` (the engine binary: $MORELLI_BIN, else
 * build/test/morelli): its stdout, and its stderr too when err, into out;
 * returns the exit status (fails the test when it did not exit). */
int tc_run_tables(const char *args, int err, char *out, size_t len);

#endif
