/*
 * perft.h -- leaf counts of the game tree, the move generator's test.
 * A finished game (result() != RESULT_NONE) is not expanded; repetition and
 * MoveRule are ignored, as chess perft ignores repetition.
 */
#ifndef MORELLI_PERFT_H
#define MORELLI_PERFT_H

#include "game.h"

/* Leaves at depth; bulk != 0 counts the last ply from the move list without
 * making the moves.  Uses the game's own perft when it has one. */
uint64_t perft(const Game *g, void *pos, int depth, int bulk);

/* The generic implementation through the interface (what a game's own
 * perft is tested against). */
uint64_t perft_generic(const Game *g, void *pos, int depth, int bulk);

/* One "<move>: <count>" line per root move, a blank line and
 * "Nodes searched: <total>", as Stockfish prints it, each line (without its
 * '\n') to line(ctx, text) as soon as it is known. Returns the total. */
uint64_t perft_divide(const Game *g, void *pos, int depth, int bulk,
                      void (*line)(void *ctx, const char *text), void *ctx);

#endif
