/*
 * fano_internal.h -- shared between the Fano rules (fano.c) and the solver
 * (fano_solve.c); nothing outside engine/fano/ includes it.
 */
#ifndef MORELLI_FANO_INTERNAL_H
#define MORELLI_FANO_INTERNAL_H

#include "fano.h"

/* The position (layout explained at the top of fano.c). */
typedef struct FanoPos {
    Key key;
    uint8_t lo[7];   /* bottom piece of each point: kind + 1, 0 = empty */
    uint8_t hi[7];   /* piece on top of lo[]: kind + 1, 0 = none */
    uint8_t hand[4]; /* pieces of each kind not yet placed */
    uint8_t stm;     /* SIDE_P1 (White) or SIDE_P2 (Black) */
} FanoPos;

/* Does a 7-bit set of points contain a whole line? */
extern uint8_t fano_has_line[128];
/* Neighbours of each point (indices 0..6). */
extern uint8_t fano_adj[7][7];
extern uint8_t fano_nadj[7];

void fano_tables(void);
int fano_lost_line(const FanoPos *p);
int fano_gen(const void *pos, Move *moves);
void fano_apply(FanoPos *p, Move m);
int fano_result(const void *pos);
Key fano_key_compute(const FanoPos *p);
int fano_solve(const void *pos, int *value, Move *best);
/* GameSolver.prepare: the solver's build (fano_solver_init), once. */
void fano_prepare(const void *pos);

#endif
