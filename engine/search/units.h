/*
 * units.h -- the one place where the searchers' units turn into each other:
 *
 *   centipawns   the evaluation's scale (Game.evaluate), |v| < SCORE_MATE_BOUND
 *   mate scores  SCORE_MATE - n: the side to move wins in n plies (its
 *                negation: loses in n plies); the protocol shows them as
 *                `mate N` in full moves
 *   values       GameSolver.solve's exact values (game.h): VALUE_WIN - n a win in
 *                n plies, -(VALUE_WIN - n) a loss, VALUE_DRAW
 *   win rates    MCTS's results, 0 (loss) .. 1 (win): a win rate q is the
 *                evaluation v with q = 1 / (1 + e^(-v / UNITS_WINRATE_SCALE))
 *
 * Each conversion has its inverse here; tests/data/units.txt holds their
 * expected values.
 */
#ifndef MORELLI_SEARCH_UNITS_H
#define MORELLI_SEARCH_UNITS_H

#include "game.h"
#include "search.h"

/* Centipawns per unit of the win rate's log-odds (natural logarithm). */
#define UNITS_WINRATE_SCALE 400.0
/* Reported win rates are kept this far from 0 and 1, so that their
 * centipawns stay finite: about +-2763. */
#define UNITS_WINRATE_EDGE 0.001
/* The longest win or loss a mate score can hold, in plies. */
#define UNITS_MATE_PLIES_MAX (SCORE_MATE - SCORE_MATE_BOUND - 1)

/* --- centipawns and win rates --- */

/* The win rate of the evaluation cp: 1 / (1 + e^(-cp / UNITS_WINRATE_SCALE)). */
double units_winrate(double cp);
/* Its inverse, rounded: UNITS_WINRATE_SCALE * ln(q / (1 - q)), with q first
 * kept within [UNITS_WINRATE_EDGE, 1 - UNITS_WINRATE_EDGE]. */
int units_winrate_cp(double q);

/* --- mate scores --- */

/* The score of a win in plies plies for the side to move (SCORE_MATE - plies). */
int units_mate(int plies);
/* Non-zero when score is a mate score (a proven win or loss). */
int units_is_mate(int score);
/* The plies to the end of a mate score: SCORE_MATE - |score|. */
int units_mate_plies(int score);
/* A mate score in full moves, as UCI's `mate N`: N > 0 when the side to
 * move wins, N < 0 when it loses. */
int units_mate_moves(int score);
/* The score of a finished game (RESULT_*) for the side stm, ply plies from
 * the root: a win SCORE_MATE - ply, a loss its negation, a draw 0. */
int units_result_score(int result, int stm, int ply);

/* --- GameSolver.solve values --- */

/* The plies of a win or a loss value: VALUE_WIN - |v|. */
int units_value_plies(int v);
/* A finished game (RESULT_*) as a value for side: a win VALUE_WIN (in 0
 * plies), a loss -VALUE_WIN, a draw VALUE_DRAW. */
int units_result_value(int result, int side);
/* The value of a position one ply before one whose value is v: a win or a
 * loss one ply further; negated when flip (the player who moves into the
 * position is not the one v is for). */
int units_value_back(int v, int flip);
/* A value as a score (a win in more than UNITS_MATE_PLIES_MAX plies is
 * held at that); small values (|v| <= VALUE_WIN / 2) count as plies. */
int units_value_score(int v);
/* A score as a value: a mate score's plies, 0 a draw (proven scores only). */
int units_score_value(int score);

#endif
