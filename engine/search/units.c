/*
 * units.c -- conversions between centipawns, mate scores, GameSolver.solve values
 * and win rates (units.h).
 */
#include "units.h"

#include <math.h>

double units_winrate(double cp)
{
    return 1.0 / (1.0 + exp(-cp / UNITS_WINRATE_SCALE));
}

int units_winrate_cp(double q)
{
    if (q < UNITS_WINRATE_EDGE)
        q = UNITS_WINRATE_EDGE;
    if (q > 1.0 - UNITS_WINRATE_EDGE)
        q = 1.0 - UNITS_WINRATE_EDGE;
    return (int)lround(UNITS_WINRATE_SCALE * log(q / (1.0 - q)));
}

int units_mate(int plies)
{
    return SCORE_MATE - plies;
}

int units_is_mate(int score)
{
    return score >= SCORE_MATE_BOUND || score <= -SCORE_MATE_BOUND;
}

int units_mate_plies(int score)
{
    return SCORE_MATE - (score < 0 ? -score : score);
}

int units_mate_moves(int score)
{
    int moves = (units_mate_plies(score) + 1) / 2;
    return score > 0 ? moves : -moves;
}

int units_result_score(int result, int stm, int ply)
{
    if (result == RESULT_DRAW || result == RESULT_NONE)
        return 0;
    int winner = result == RESULT_P1_WIN ? SIDE_P1 : SIDE_P2;
    return winner == stm ? units_mate(ply) : -units_mate(ply);
}

int units_value_plies(int v)
{
    return VALUE_WIN - (v < 0 ? -v : v);
}

int units_result_value(int result, int side)
{
    if (result == RESULT_DRAW || result == RESULT_NONE)
        return VALUE_DRAW;
    int winner = result == RESULT_P1_WIN ? SIDE_P1 : SIDE_P2;
    return winner == side ? VALUE_WIN : -VALUE_WIN;
}

int units_value_back(int v, int flip)
{
    if (v > 0)
        v--;
    else if (v < 0)
        v++;
    return flip ? -v : v;
}

int units_value_score(int v)
{
    if (v == VALUE_DRAW)
        return 0;
    int a = v < 0 ? -v : v;
    int plies = a > VALUE_WIN / 2 ? VALUE_WIN - a : a;
    if (plies > UNITS_MATE_PLIES_MAX)
        plies = UNITS_MATE_PLIES_MAX;
    return v > 0 ? units_mate(plies) : -units_mate(plies);
}

int units_score_value(int score)
{
    if (score == 0)
        return VALUE_DRAW;
    int v = VALUE_WIN - units_mate_plies(score);
    return score > 0 ? v : -v;
}
