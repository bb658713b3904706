/*
 * wdl.c -- win, draw and loss chances of a score (wdl.h).
 */
#include "wdl.h"

#include <math.h>
#include <string.h>

/*
 * Fitted by bench/wdl_fit.py on self-play games of build/match (the
 * commands are in docs/search.md, "WDL"): Morelli 13x13, 200 games at
 * depth 3 (17,472 scored moves); Nine Men's Morris, 200 games at depth 5
 * (16,092 scored moves).
 */
static const WdlModel models[] = {
    {"morelli", 114, 185},
    {"morris", 430, 192},
};
/* A game without a fit (Fano: its solver proves nearly every score). */
static const WdlModel neutral = {"", 50, 200};

const WdlModel *wdl_model(const Game *g)
{
    for (size_t i = 0; g && i < sizeof models / sizeof models[0]; i++)
        if (strcmp(models[i].game, g->name) == 0)
            return &models[i];
    return &neutral;
}

/* 1 / (1 + exp(-x)) in per mille, rounded. */
static int logistic_pm(double x)
{
    if (x > 50)
        x = 50;
    if (x < -50)
        x = -50;
    return (int)lround(1000.0 / (1.0 + exp(-x)));
}

void wdl_of_cp(const WdlModel *md, int s, int *w, int *d, int *l)
{
    double k = md->k > 0 ? md->k : 1;
    int m = md->m > 0 ? md->m : 0;
    *w = logistic_pm((s - m) / k);
    *l = logistic_pm((-s - m) / k);
    /* With m = 0 the two may round to 1001 together. */
    if (*w + *l > 1000) {
        if (s >= 0)
            *l = 1000 - *w;
        else
            *w = 1000 - *l;
    }
    *d = 1000 - *w - *l;
}

void wdl_of_score(const Game *g, int mate, int proven_draw, int s, int *w, int *d, int *l)
{
    if (mate) {
        *w = s > 0 ? 1000 : 0;
        *l = s > 0 ? 0 : 1000;
        *d = 0;
        return;
    }
    if (proven_draw) {
        *w = *l = 0;
        *d = 1000;
        return;
    }
    wdl_of_cp(wdl_model(g), s, w, d, l);
}
