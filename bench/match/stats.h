/*
 * stats.h -- the numbers a match reports: Elo from a score, its 95% interval,
 * the likelihood of superiority, and the generalised SPRT (GSPRT) that stops a
 * match once it has decided between two Elo hypotheses.
 *
 * Elo here is the logistic Elo of the score s (the first engine's points per
 * game): elo = -400 log10(1/s - 1).  The same formulas serve two kinds of
 * sample:
 *   trinomial  -- every game is a unit, scoring 0, 1/2 or 1 (counts L, D, W);
 *   pentanomial -- every colour-swapped pair of games is a unit, scoring its
 *                  mean 0, 1/4, 1/2, 3/4 or 1 (counts p[0..4]).
 * Pairs remove most of the noise of the openings, so their interval is the
 * honest one when openings are unbalanced.  docs/match.md writes out every
 * formula.
 */
#ifndef MORELLI_BENCH_STATS_H
#define MORELLI_BENCH_STATS_H

/* Two-sided 95% quantile of the normal distribution. */
#define STATS_Z95 1.959963984540054

/* Elo of a score in (0, 1); +-infinity at 1 and 0. */
double stats_elo_from_score(double score);
/* Expected score of an Elo difference. */
double stats_score_from_elo(double elo);

/* A sample summarised: its units' mean score, their variance (per unit),
 * the number of units, and the Elo with its 95% interval when the sample
 * can give them. */
typedef struct EloEstimate {
    double score;       /* mean score per game, 0..1 */
    double variance;    /* variance of one unit's score */
    double units;       /* games (trinomial) or pairs (pentanomial) */
    int measured;       /* 0: too few games: every unit scored the same (all
                      * won, all lost or all drawn); elo and its bounds are
                      * then 0 and not to be shown */
    double elo;         /* Elo of score, finite when measured */
    int has_lo, has_hi; /* each bound is finite: score -+ 1.96 sd in (0, 1) */
    double elo_lo;      /* Elo of score - 1.96 * sqrt(variance / units), or 0 */
    double elo_hi;      /* Elo of score + 1.96 * sqrt(variance / units), or 0 */
} EloEstimate;

/* Returns 0, or -1 (and a zeroed estimate) when there is no unit. */
int stats_elo_trinomial(int wins, int draws, int losses, EloEstimate *e);
/* p[k]: pairs that scored k half-points out of 4 (k = 0..4). */
int stats_elo_pentanomial(const int p[5], EloEstimate *e);

/* Likelihood of superiority: the probability that the first engine is the
 * stronger, from wins and losses (draws carry no information). 0.5 when
 * there is neither. */
double stats_los(int wins, int losses);

/*
 * Log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0), the
 * generalised SPRT of fastchess's and fishtest's logistic model: with phat
 * the sample's distribution over the unit scores and p0, p1 the
 * distributions nearest to phat (maximum likelihood) whose means are s0
 * and s1, the scores of elo0 and elo1,
 *   LLR = N sum_k phat[k] log(p1[k] / p0[k]).
 * An empty count is replaced by 1e-3 before phat is taken, and N is the
 * sum of the counts so replaced (as fastchess does); one unit can move the
 * LLR by at most the log of a ratio p1/p0, so small samples cannot jump.
 * 0 when there is no unit.
 */
double stats_llr_trinomial(int wins, int draws, int losses, double elo0, double elo1);
double stats_llr_pentanomial(const int p[5], double elo0, double elo1);

/* Wald's bounds: lower = ln(beta / (1 - alpha)), upper = ln((1 - beta) / alpha). */
void stats_sprt_bounds(double alpha, double beta, double *lower, double *upper);
/* +1: H1 accepted (llr >= upper), -1: H0 accepted (llr <= lower), 0: go on. */
int stats_sprt_decision(double llr, double lower, double upper);

#endif
