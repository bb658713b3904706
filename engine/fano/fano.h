/*
 * fano.h -- what Fano330-R-Morris offers beyond the Game interface: the
 * exact value of every legal move, from the retrograde analysis that also
 * backs game_fano.solve (see docs/rules-fano.md for the value's meaning).
 */
#ifndef MORELLI_FANO_H
#define MORELLI_FANO_H

#include "game.h"

/*
 * The legal moves of pos (a game_fano position) with their exact values
 * from the mover's view (VALUE_WIN - n: the move wins in n plies counting
 * itself; -(VALUE_WIN - n): loses in n; VALUE_DRAW), best first.  Fills at
 * most max entries and returns the number of legal moves, or -1 when the
 * position is outside the analysis (a side to move that alternate play
 * from the start cannot give, e.g. White to move with more pieces placed
 * than Black) or the table cannot be built (out of memory).
 */
int fano_solve_moves(const void *pos, Move *moves, int *values, int max);

/* Builds the table now (otherwise built at first use); returns 0 or -1.
 * *positions and *ms (either may be NULL) receive the number of positions
 * analysed and the milliseconds the build took. */
int fano_solver_init(long *positions, double *ms);

#endif
