/*
 * search_toys.h -- what the searcher tests (tests/test_search*.c) share:
 * three toy games defined in search_toys.c, so the searchers can be
 * tested without the real games -- take-away Nim (take 1..3 stones, who
 * cannot move loses: a pile that is a multiple of 4 is lost for the side
 * to move), Nim with extra turns, and tic-tac-toe (a draw) -- plus a
 * Search maker and an info-line collector.
 *
 * Linked into every test binary (the Makefile links every tests/ .c file
 * not named test_*.c).
 */
#ifndef MORELLI_SEARCH_TOYS_H
#define MORELLI_SEARCH_TOYS_H

#include "game.h"
#include "search/search.h"

/* Nim, FEN "<pile> <a|b>", moves "t1".."t3"; starts at 21 stones. */
extern const Game toy_nim;

/* Nim with extra turns: taking 2 lets the same side move again; who
 * takes the last stone wins.  Tests that no searcher assumes the sides
 * alternate (Morelli's placement phase does not).  Its position: */
typedef struct NimxPos {
    int pile;
    int stm;
    int last; /* side that moved last */
    Key key;
} NimxPos;

/* Nim with extra turns, Nim's FEN and moves; starts at 17 stones. */
extern const Game toy_nimx;

/* Tic-tac-toe, FEN "<9 cells of . x o> <x|o>", moves "c1".."c9". */
extern const Game toy_ttt;

/* "nim" and "ttt" give the toys, any other name game_by_name(name). */
const Game *toy_by_name(const char *name);

/* Info lines kept by ts_collect (the first 64), as the protocol writes
 * them for a search of pos in the game g (set both before the search). */
typedef struct TsLines {
    char buf[64][1024];
    int n;
    const Game *g;
    const void *pos;
} TsLines;

/* A search callback: appends the report's line to the TsLines ctx. */
void ts_collect(void *ctx, const SearchInfo *info);

/* A new Search with the options Search=algo and Hash=hash (asserted). */
Search *ts_new_search(const char *algo, const char *hash);

#endif
