/*
 * wdl.h -- win, draw and loss chances (per mille) of a search's score, for
 * the protocol's `wdl W D L` (UCI_ShowWDL).
 *
 * A proven score is exact: a mate score is a win (1000 0 0) or a loss
 * (0 0 1000), a proven draw 0 1000 0.  Any other score s (centipawns, the
 * side to move's view) goes through a logistic model fitted per game on
 * self-play results (bench/wdl_fit.py; docs/search.md, "WDL"):
 *   W = 1 / (1 + exp(-(s - m) / k)),  L = 1 / (1 + exp((s + m) / k)),
 *   D = 1 - W - L,
 * rounded so the three sum to 1000.  W never falls and L never rises as s
 * grows.
 */
#ifndef MORELLI_WDL_H
#define MORELLI_WDL_H

#include "game.h"

/* The model's parameters of a game (m: the draw margin, k: the scale, in
 * centipawns). */
typedef struct WdlModel {
    const char *game; /* Game.name */
    int m, k;
} WdlModel;

/* The model of g (a neutral one for a game without a fit). */
const WdlModel *wdl_model(const Game *g);
/* The chances of a score s (centipawns) under model md into w, d, l. */
void wdl_of_cp(const WdlModel *md, int s, int *w, int *d, int *l);
/* The chances of a search's score: mate (non-zero: s is in moves, its sign
 * the winner), a proven draw (proven_draw non-zero), else centipawns. */
void wdl_of_score(const Game *g, int mate, int proven_draw, int s, int *w, int *d, int *l);

#endif
