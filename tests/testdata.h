/*
 * testdata.h -- what the game tests share: reading the data files under
 * tests/data, and a few checks every game's tests make the same way.
 *
 * Data files are text, one record a line.  A line whose first character
 * is '#' is a comment; a line of blanks only is empty; both are skipped.
 * Many records are fields separated by '|', each trimmed of blanks.
 *
 * Failures go through cmocka (fail_msg, assert_*), so these helpers are
 * for use inside a running cmocka test.  Linked into every test binary
 * (the Makefile links every tests/ .c file not named test_*.c).
 */
#ifndef MORELLI_TESTDATA_H
#define MORELLI_TESTDATA_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "game.h"
#include "morelli/morelli_options.h"

/* The most '|' fields td_split() returns. */
#define TD_MAXF 8

/* Non-zero when the suite runs under the sanitizers (`make sanitize` sets
 * MORELLI_SANITIZE=1): tests then shorten their slowest loops.  Unset,
 * empty or "0" mean no. */
int td_sanitized(void);

/* tests/data/<name> opened for reading (tests run from the repository's
 * top); fails the test when it cannot be opened. */
FILE *td_open(const char *name);

/* The next line of f that is neither a comment nor empty, into buf (size
 * bytes) without its line ending ("\n", "\r\n"); other blanks are kept.
 * Returns buf, or NULL at the end of the file.  When lineno is not NULL,
 * it is incremented once for every line read, skipped ones included, so
 * it holds the 1-based number of the line returned. */
char *td_next_line(FILE *f, char *buf, int size, int *lineno);

/* Is line a comment or empty (blanks and line ending only)? */
int td_skip_line(const char *line);

/* s without the blanks (space, tab; and at the end "\r", "\n") around it:
 * trailing ones are cut off in place, the result starts after the leading
 * ones. */
char *td_trim(char *s);

/* Splits line in place at each '|' into trimmed fields; f[] receives the
 * first TD_MAXF of them.  Returns how many it stored. */
int td_split(char *line, char *f[TD_MAXF]);

/* The next record of f (as td_next_line reads it, into line) split at
 * '|' into fields (as td_split does).  Returns the number of fields, at
 * least 1, or 0 at the end of the file. */
int td_next_record(FILE *f, char *line, int size, char *fields[TD_MAXF]);

/* A rules file of tests/data: each record is "pos <name> | ..." or
 * "seq <name> | ...", handed as fields (f[0] is "pos <name>") and their
 * count to pos_line or seq_line; any other record fails the test.
 * Returns the number of records. */
int td_rules_file(const char *name, void (*pos_line)(char **f, int nf),
                  void (*seq_line)(char **f, int nf));

/* A result word of the data files, "none", "white" (the first player),
 * "black" or "draw", as RESULT_*; fails the test on any other word. */
int td_result_code(const char *word);

/* Checks a position against two lists of move texts (separated by
 * blanks, possibly empty): every text of `legal` parses to a legal move of
 * pos that prints back as the same text, no text of `illegal` parses.
 * `what` names the position in failure messages. */
void td_check_move_lists(const Game *g, const void *pos, const char *what, const char *legal,
                         const char *illegal);

/* Checks perft of pos at depths 1, 2, ... against the leaf counts in
 * `counts` (numbers separated by blanks; cut up in place): the game's
 * perft with bulk counting at every depth; where the count is below
 * 300000, also without bulk counting and perft_generic without it (and
 * with it too when generic_bulk); pos unchanged after each depth.  Under
 * the sanitizers it stops at the first count above 2000000.  `what` names
 * the position in failure messages. */
void td_check_perft_counts(const Game *g, void *pos, const char *what, char *counts,
                           int generic_bulk);

/* Checks that g rejects fen under the options o: from_fen returns -1
 * with a message and leaves the position (every byte set to fill
 * beforehand) untouched. */
void td_check_fen_rejected(const Game *g, const char *fen, const GameOptions *o, int fill);

/* Plays m, a legal move of pos, the checked way random-game tests do: m is
 * not MOVE_NONE, its text parses back to m, make keeps the incremental key
 * equal to the key from scratch, unmake restores pos byte for byte; then
 * makes m again, leaving pos after m. */
void td_play_checked(const Game *g, void *pos, Move m);

/* g's picture of pos (print(), colour codes when ansi != 0) as a malloc'd
 * string; the test fails when memory runs out. */
char *td_print(const Game *g, const void *pos, int ansi);

/* ---- Morelli records ------------------------------------------------------- */

/* A Morelli data row "<size> <ruleset> <setup> <a> <b>" (ruleset: standard,
 * classic; setup: adjacent, facing, random, free, pairs) into the default
 * options with that board size, ruleset and setup, *a and *b.  Returns 0,
 * -1 when the row has not five such fields (opt untouched), -2 when a
 * name is unknown (its field is then -1). */
int td_morelli_row(const char *line, GameOptions *opt, int *a, unsigned long long *b);

/* The names of the rows: td_ruleset_names[RULESET_*], td_setup_names[SETUP_*]. */
extern const char *const td_ruleset_names[2];
extern const char *const td_setup_names[5];

/* The options "Name=Value Name=Value ..." (blank separated; "-" for none,
 * as in tests/data/perft.txt) through the options parser into the default
 * options.  s is cut up.  Fails the test on a word without '=' or an
 * option the parser refuses. */
void td_options(char *s, GameOptions *opt);

/* "<ruleset> <setup>" into the default options; 0, or -1. */
int td_morelli_opts(const char *s, GameOptions *opt);

/* The next record "<ruleset> <setup> | <fen>" of f (as in
 * tests/data/morelli_fens.txt, read into line of size bytes): the options
 * into *opt, the FEN returned (a part of line); NULL at the end of the
 * file.  Fails the test on a record without '|' or with bad options. */
const char *td_morelli_fen_record(FILE *f, char *line, int size, GameOptions *opt);

/* The board part of a Morelli FEN into cells[rank * size + file], rank 0
 * (the FEN's last row) first: the FEN's letter, or '.' for an empty cell.
 * Returns the text after the board and the one blank that follows it
 * (the side to move, in a whole FEN). */
const char *td_fen_board(const char *fen, int size, char *cells);

/* The inverse: the rows of cells (laid out as td_fen_board gives them,
 * '.' empty) as a FEN board, runs of empty cells as numbers, into out (len
 * bytes).  Returns the length written. */
size_t td_fen_rows(const char *cells, int size, char *out, size_t len);

#endif
