/*
 * morris.h -- what the Nine Men's Morris family offers beyond the Game
 * interface: its endgame tables (engine/morris/morris_egtb.c, described in
 * docs/rules-morris.md).
 */
#ifndef MORELLI_MORRIS_H
#define MORELLI_MORRIS_H

#include "game.h"

/* Morris's options struct: its blob of GameOptions, declared option by
 * option in the game's descriptor (engine/morris/morris.c). */
typedef struct MorrisOptions {
    int64_t pieces;    /* Pieces, 9 or 12 */
    int64_t diagonals; /* Diagonals, bool */
    int64_t flying;    /* Flying, bool */
    int64_t move_rule; /* MoveRule, plies without removal that draw, 0 = off */
} MorrisOptions;
_Static_assert(sizeof(MorrisOptions) <= GAME_OPTS_MAX_BYTES, "fits its GameOptions blob");

/* Morris's blob of the settings o. */
static inline MorrisOptions *morris_opts(GameOptions *o)
{
    return game_opts_mut(&game_morris, o);
}
static inline const MorrisOptions *morris_opts_c(const GameOptions *o)
{
    return game_opts(&game_morris, o);
}

/* The most pieces on the board a side that the tables cover, and the most
 * on the board in all: each side 3..4, and 5 against 3 (either side 5),
 * are the positions of 3 or more a side and at most 8 in all. */
#define MORRIS_EGTB_PIECES 5
#define MORRIS_EGTB_TOTAL 8

/*
 * Builds the tables of the board (diagonals 0/1) and flying rule (0/1) now,
 * for positions with no piece in hand and, on the board, each side 3..maxp
 * pieces (maxp 3 or 4), or with maxp 5 also 5 against 3 (either side 5);
 * tables already built are kept.
 * Returns 0, or -1 when memory runs out or the bytes would exceed the
 * limit below (the engine then plays without them).  *positions and *ms
 * (either may be NULL) receive the number of positions and the build time.
 */
int morris_egtb_build(int diagonals, int flying, int maxp, long *positions, double *ms);

/* Bytes the tables and their build may take in all (0 = no limit); for
 * tests of the out-of-memory path.  A build that failed may then be tried
 * again.  Returns the previous limit. */
size_t morris_egtb_set_limit(size_t bytes);

/*
 * The exact value of pos (a game_morris position) for the side to move, if
 * it lies in a table that is built: returns 1 and fills *value (VALUE_WIN -
 * n: win in n plies; -(VALUE_WIN - n): loss in n; VALUE_DRAW), else 0.
 * Never builds anything.  Repetition and MoveRule are not part of the
 * value (docs/rules-morris.md).
 */
int morris_egtb_probe(const void *pos, int *value);

#endif
