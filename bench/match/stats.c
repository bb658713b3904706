/* The match statistics: see stats.h and docs/match.md for the formulas. */
#include "stats.h"

#include <math.h>
#include <string.h>

double stats_elo_from_score(double score)
{
    if (score >= 1.0)
        return INFINITY;
    if (score <= 0.0)
        return -INFINITY;
    return -400.0 * log10(1.0 / score - 1.0);
}

double stats_score_from_elo(double elo)
{
    return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

/* Mean and per-unit variance of n bins scoring x[k] with weights c[k]. */
static double moments(const double *c, const double *x, int n, double *mean, double *var)
{
    double total = 0, sum = 0;
    for (int k = 0; k < n; k++) {
        total += c[k];
        sum += c[k] * x[k];
    }
    if (total <= 0) {
        *mean = *var = 0;
        return 0;
    }
    double m = sum / total, v = 0;
    for (int k = 0; k < n; k++)
        v += c[k] * (x[k] - m) * (x[k] - m);
    *mean = m;
    *var = v / total;
    return total;
}

static int estimate(const double *c, const double *x, int n, EloEstimate *e)
{
    memset(e, 0, sizeof *e);
    double m, v;
    double units = moments(c, x, n, &m, &v);
    if (units <= 0)
        return -1;
    e->score = m;
    e->variance = v;
    e->units = units;
    /* Every unit scored the same (all won, all lost, all drawn): the
     * sample has no spread to measure, and a score of 1 or 0 no Elo. */
    if (v <= 0 || m <= 0 || m >= 1)
        return 0;
    double half = STATS_Z95 * sqrt(v / units);
    e->measured = 1;
    e->elo = stats_elo_from_score(m);
    e->has_lo = m - half > 0;
    e->has_hi = m + half < 1;
    e->elo_lo = e->has_lo ? stats_elo_from_score(m - half) : 0;
    e->elo_hi = e->has_hi ? stats_elo_from_score(m + half) : 0;
    return 0;
}

static const double tri_x[3] = {0.0, 0.5, 1.0};
static const double penta_x[5] = {0.0, 0.25, 0.5, 0.75, 1.0};

int stats_elo_trinomial(int wins, int draws, int losses, EloEstimate *e)
{
    double c[3] = {losses, draws, wins};
    return estimate(c, tri_x, 3, e);
}

int stats_elo_pentanomial(const int p[5], EloEstimate *e)
{
    double c[5] = {p[0], p[1], p[2], p[3], p[4]};
    return estimate(c, penta_x, 5, e);
}

double stats_los(int wins, int losses)
{
    if (wins + losses <= 0)
        return 0.5;
    return 0.5 * (1.0 + erf((double)(wins - losses) / sqrt(2.0 * (wins + losses))));
}

/*
 * sum phat[k] log(1 + theta (x[k] - s)) at the theta where its derivative
 * is 0: the empirical distribution phat tilted to the nearest one (in
 * likelihood) whose mean is s is p[k] = phat[k] / (1 + theta (x[k] - s)),
 * and this sum is sum phat log(phat / p).  x is increasing, x[0] < s <
 * x[n-1] and every phat > 0.  The derivative falls from +inf to -inf over
 * theta's range (-1 / (x[n-1] - s), 1 / (s - x[0])): bisection finds it.
 */
static double tilt(const double *phat, const double *x, int n, double s)
{
    double lo = -1.0 / (x[n - 1] - s), hi = 1.0 / (s - x[0]);
    for (int it = 0; it < 200; it++) {
        double mid = 0.5 * (lo + hi), d = 0;
        if (mid <= lo || mid >= hi)
            break;
        for (int k = 0; k < n; k++)
            d += phat[k] * (x[k] - s) / (1.0 + mid * (x[k] - s));
        if (d > 0)
            lo = mid;
        else
            hi = mid;
    }
    double theta = 0.5 * (lo + hi), sum = 0;
    for (int k = 0; k < n; k++)
        sum += phat[k] * log(1.0 + theta * (x[k] - s));
    return sum;
}

static double llr(const double *counts, const double *x, int n, double elo0, double elo1)
{
    double phat[5], real = 0, total = 0;
    for (int k = 0; k < n; k++) {
        real += counts[k];
        phat[k] = counts[k] > 0 ? counts[k] : 1e-3;
        total += phat[k];
    }
    if (real <= 0)
        return 0;
    for (int k = 0; k < n; k++)
        phat[k] /= total;
    double s0 = stats_score_from_elo(elo0), s1 = stats_score_from_elo(elo1);
    /* log L(p1) - log L(p0) per unit, p0 and p1 the tilts to s0 and s1. */
    return total * (tilt(phat, x, n, s0) - tilt(phat, x, n, s1));
}

double stats_llr_trinomial(int wins, int draws, int losses, double elo0, double elo1)
{
    double c[3] = {losses, draws, wins};
    return llr(c, tri_x, 3, elo0, elo1);
}

double stats_llr_pentanomial(const int p[5], double elo0, double elo1)
{
    double c[5] = {p[0], p[1], p[2], p[3], p[4]};
    return llr(c, penta_x, 5, elo0, elo1);
}

void stats_sprt_bounds(double alpha, double beta, double *lower, double *upper)
{
    *lower = log(beta / (1.0 - alpha));
    *upper = log((1.0 - beta) / alpha);
}

int stats_sprt_decision(double llr_value, double lower, double upper)
{
    if (llr_value >= upper)
        return 1;
    if (llr_value <= lower)
        return -1;
    return 0;
}
