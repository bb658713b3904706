/*
 * tune.h -- the core of the evaluation tuner (bench/eval_tune_main.c): the
 * games' weight tables (from their descriptors; no game includes this
 * file), a set of labelled positions, and Texel-style fitting (the sigmoid of the evaluation against the game result).
 *
 * Evaluations and targets are from the first player's (P1's) view: a
 * target is 1 for a P1 win, 0.5 for a draw, 0 for a P2 win (or a blend
 * with the sigmoid of a deeper search's score, see tune_targets()).
 * The model is  P(P1 wins) = sigmoid(K * eval) = 1 / (1 + exp(-K * eval)),
 * and the error the mean of (target - sigmoid(K * eval))^2.
 */
#ifndef MORELLI_TUNE_TUNE_H
#define MORELLI_TUNE_TUNE_H

#include <stddef.h>
#include <stdio.h>

#include "game.h"

typedef struct TuneTable {
    int *w;
    const char *const *names;
    int n;
} TuneTable;

/* The table of g (its descriptor's weights()) into *t; 0, or -1 when g has
 * no tunable table.  Writing t->w[i] changes g's evaluate() at once (not
 * thread-safe against a running search). */
int tune_table(const Game *g, TuneTable *t);

/* A set of positions with their labels. */
#define TUNE_NO_SCORE (-1000000000)
typedef struct TuneSet {
    const Game *g;
    int n, cap;
    unsigned char *pos; /* n blobs of g->pos_size bytes */
    float *result;      /* P1's result: 1, 0.5, 0 */
    int *score;         /* a deeper search's score, P1's view, or TUNE_NO_SCORE */
} TuneSet;

void tune_set_init(TuneSet *s, const Game *g);
void tune_set_free(TuneSet *s);
/* Appends a copy of pos; 0, or -1 when memory runs out. */
int tune_set_add(TuneSet *s, const void *pos, double result, int score);
/*
 * Reads lines "<result> <score> <fen>" (result 1, 0.5 or 0 for P1; score
 * an integer from P1's view or '-'; '#' lines and empty lines skipped).
 * Keeps line i (0-based, among the records) when keep(i) is true (every
 * line when keep is NULL).  Returns the number of records added, or -1
 * with a message in err (a malformed line or FEN).
 */
int tune_set_load(TuneSet *s, FILE *f, const GameOptions *opt, int (*keep)(int i), char *err,
                  size_t errlen);

/* 1 / (1 + exp(-k * x)). */
double tune_sigmoid(double k, double x);
/* Mean of (target[i] - sigmoid(k * eval[i]))^2 over n > 0 entries. */
double tune_error(const int *eval, const float *target, int n, double k);
/* The k > 0 that minimises tune_error (golden-section search on log k
 * over [1e-6, 1]). */
double tune_fit_k(const int *eval, const float *target, int n);

/* The static evaluation of every position of s, P1's view, into eval[]. */
void tune_evals(const TuneSet *s, int *eval);
/* Targets: lambda * result + (1 - lambda) * sigmoid(k * score) (the
 * result alone where a position has no score). */
void tune_targets(const TuneSet *s, double lambda, double k, float *target);
/* The error of s with the current weights (eval is scratch, s->n ints). */
double tune_set_error(const TuneSet *s, const float *target, double k, int *eval);

/*
 * Coordinate descent over the weights of t whose fixed[i] is 0 (fixed may
 * be NULL): for step = first_step, first_step / 2, ..., 1, passes that try
 * w[i] + step and w[i] - step for each weight and keep whichever lowers
 * the error, until a pass changes nothing (at most max_passes passes per
 * step).  Progress lines go to log (may be NULL).  Returns the final error;
 * t's weights hold the best found.
 */
double tune_descend(const TuneSet *s, const TuneTable *t, const int *fixed, const float *target,
                    double k, int first_step, int max_passes, FILE *log);

/* The table as C source: "name[] = { ... };" with one commented entry a
 * line. */
void tune_print_table(const Game *g, const TuneTable *t, FILE *out);

#endif
