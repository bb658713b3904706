/*
 * testpgn.h -- the match runner's PGN records read as a PGN reader reads
 * them, for the tests of the runner (tests/test_match.c replays the moves,
 * tests/test_match_pgn.c checks tags, numbering and results).  Linked into
 * every test binary; failures go through cmocka.
 */
#ifndef MORELLI_TESTPGN_H
#define MORELLI_TESTPGN_H

#include <stdio.h>

#include "game.h"

#define PGN_FIRST_TAGS 7
#define PGN_MOVES_MAX 1200

/* One game: the tags a test reads, the order of the first tags, the
 * movetext as written. */
typedef struct PgnRecord {
    char white[64], black[64], result[16], term[32], reason[256], variant[32], fen[FEN_MAX];
    int plycount; /* -1 without the tag */
    char first_tags[PGN_FIRST_TAGS][32];
    int ntags;
    char movetext[65536];
} PgnRecord;

/* Reads the next game (tags, a blank line, the movetext up to the blank
 * line after it, or the end).  Returns 0 at the end of the file. */
int pgn_read(FILE *f, PgnRecord *g);

/* The moves of g's movetext: the tokens but move numbers ("12.",
 * "12..."), {comments} and the result, into moves[]; returns how many. */
int pgn_moves(const PgnRecord *g, char (*moves)[MOVE_STR_MAX], int max);

#endif
