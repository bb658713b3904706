/*
 * morelli_grid.h -- a plain Morelli end-game solver for the tests: a grid
 * of characters, moves found by walking the eight directions cell by cell,
 * copy-make, an exhaustive negamax with alpha-beta and a small hash table;
 * standard ruleset, after the placement phase.  Written from the rules
 * alone and sharing nothing with engine/morelli/ or engine/search/, it is
 * the second opinion the engine's exact endings are checked against.
 */
#ifndef MORELLI_TESTS_MORELLI_GRID_H
#define MORELLI_TESTS_MORELLI_GRID_H

#define MG_MAXN 13
#define MG_MAXMOVES 1400
/* Values: MG_WIN - k a win in k plies for the side to move, -(MG_WIN - k)
 * a loss in k plies, 0 a draw; MG_UNKNOWN when the budget ran out. */
#define MG_WIN 10000
#define MG_UNKNOWN (-2 * MG_WIN)

typedef struct MgPos {
    int n;
    char cell[MG_MAXN][MG_MAXN]; /* [rank][file]: '.', 'b', 'w' */
    char throne;                 /* '.', 'B', 'W' */
    char stm;                    /* 'b', 'w' */
} MgPos;

typedef struct MgMove {
    char text[32]; /* "c3-d4"; room for any two ints, so -O1 builds see no truncation */
    MgPos after;
} MgMove;

/* The position of a standard-ruleset FEN after the placement phase: 0, or
 * -1 when the FEN is not one. */
int mg_from_fen(MgPos *p, const char *fen);
/* The legal moves of p (at most max); the count. */
int mg_moves(const MgPos *p, MgMove *moves, int max);
/* The exact value of p for the side to move, searching at most `budget`
 * nodes (MG_UNKNOWN past it); wdl != 0 asks for the sign only (then a
 * win or a loss comes back as +-1). */
int mg_solve(const MgPos *p, long budget, int wdl);

#endif
