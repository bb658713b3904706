/*
 * tune.c -- the core of the evaluation tuner (see tune.h).
 */
#include "tune/tune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int tune_table(const Game *g, TuneTable *t)
{
    memset(t, 0, sizeof *t);
    if (g->tuning && g->tuning->weights)
        t->n = g->tuning->weights(&t->w, &t->names);
    return t->n > 0 ? 0 : -1;
}

void tune_set_init(TuneSet *s, const Game *g)
{
    memset(s, 0, sizeof *s);
    s->g = g;
}

void tune_set_free(TuneSet *s)
{
    free(s->pos);
    free(s->result);
    free(s->score);
    tune_set_init(s, s->g);
}

int tune_set_add(TuneSet *s, const void *pos, double result, int score)
{
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 1024;
        unsigned char *p = realloc(s->pos, (size_t)cap * s->g->pos_size);
        if (!p)
            return -1;
        s->pos = p;
        float *r = realloc(s->result, (size_t)cap * sizeof *r);
        if (!r)
            return -1;
        s->result = r;
        int *sc = realloc(s->score, (size_t)cap * sizeof *sc);
        if (!sc)
            return -1;
        s->score = sc;
        s->cap = cap;
    }
    memcpy(s->pos + (size_t)s->n * s->g->pos_size, pos, s->g->pos_size);
    s->result[s->n] = (float)result;
    s->score[s->n] = score;
    s->n++;
    return 0;
}

int tune_set_load(TuneSet *s, FILE *f, const GameOptions *opt, int (*keep)(int i), char *err,
                  size_t errlen)
{
    char line[FEN_MAX + 64], ferr[256];
    unsigned char pos[POS_MAX_BYTES];
    int lineno = 0, rec = 0, added = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        size_t len = strlen(line);
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' ' ||
                       line[len - 1] == '\t'))
            line[--len] = 0;
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p || *p == '#')
            continue;
        char *end;
        double r = strtod(p, &end);
        if (end == p || !(r == 0.0 || r == 0.5 || r == 1.0)) {
            snprintf(err, errlen, "line %d: the result must be 1, 0.5 or 0", lineno);
            return -1;
        }
        p = end;
        while (*p == ' ' || *p == '\t')
            p++;
        int score = TUNE_NO_SCORE;
        if (*p == '-' && (p[1] == ' ' || p[1] == '\t')) {
            p++;
        } else {
            long v = strtol(p, &end, 10);
            if (end == p || (*end != ' ' && *end != '\t') || v < -100000 || v > 100000) {
                snprintf(err, errlen, "line %d: the score must be an integer or '-'", lineno);
                return -1;
            }
            score = (int)v;
            p = end;
        }
        while (*p == ' ' || *p == '\t')
            p++;
        int i = rec++;
        if (keep && !keep(i))
            continue;
        if (s->g->from_fen(pos, p, opt, ferr, sizeof ferr) != 0) {
            snprintf(err, errlen, "line %d: %s", lineno, ferr);
            return -1;
        }
        if (tune_set_add(s, pos, r, score) != 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        added++;
    }
    return added;
}

double tune_sigmoid(double k, double x)
{
    return 1.0 / (1.0 + exp(-k * x));
}

double tune_error(const int *eval, const float *target, int n, double k)
{
    double sum = 0;
    for (int i = 0; i < n; i++) {
        double d = target[i] - tune_sigmoid(k, eval[i]);
        sum += d * d;
    }
    return n > 0 ? sum / n : 0;
}

double tune_fit_k(const int *eval, const float *target, int n)
{
    /* golden-section search on x = log k; the error is unimodal in k for
     * the data of interest (and the search still returns a local minimum
     * otherwise) */
    const double phi = 0.6180339887498949;
    double a = log(1e-6), b = log(1.0);
    double c = b - phi * (b - a), d = a + phi * (b - a);
    double fc = tune_error(eval, target, n, exp(c)), fd = tune_error(eval, target, n, exp(d));
    for (int it = 0; it < 100 && b - a > 1e-9; it++) {
        if (fc <= fd) {
            b = d;
            d = c;
            fd = fc;
            c = b - phi * (b - a);
            fc = tune_error(eval, target, n, exp(c));
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + phi * (b - a);
            fd = tune_error(eval, target, n, exp(d));
        }
    }
    return exp((a + b) / 2);
}

void tune_evals(const TuneSet *s, int *eval)
{
    const Game *g = s->g;
    for (int i = 0; i < s->n; i++) {
        const void *p = s->pos + (size_t)i * g->pos_size;
        int e = g->evaluate(p);
        eval[i] = g->side_to_move(p) == SIDE_P1 ? e : -e;
    }
}

void tune_targets(const TuneSet *s, double lambda, double k, float *target)
{
    for (int i = 0; i < s->n; i++) {
        double t = s->result[i];
        if (s->score[i] != TUNE_NO_SCORE)
            t = lambda * t + (1 - lambda) * tune_sigmoid(k, s->score[i]);
        target[i] = (float)t;
    }
}

double tune_set_error(const TuneSet *s, const float *target, double k, int *eval)
{
    tune_evals(s, eval);
    return tune_error(eval, target, s->n, k);
}

double tune_descend(const TuneSet *s, const TuneTable *t, const int *fixed, const float *target,
                    double k, int first_step, int max_passes, FILE *log)
{
    int *eval = malloc((size_t)(s->n > 0 ? s->n : 1) * sizeof *eval);
    if (!eval)
        return -1;
    double best = tune_set_error(s, target, k, eval);
    for (int step = first_step > 0 ? first_step : 1; step >= 1; step /= 2) {
        for (int pass = 0; pass < max_passes; pass++) {
            int changed = 0;
            for (int i = 0; i < t->n; i++) {
                if (fixed && fixed[i])
                    continue;
                int orig = t->w[i], dir_done = 0;
                for (int dir = 1; dir >= -1 && !dir_done; dir -= 2) {
                    /* keep stepping while it helps */
                    for (;;) {
                        t->w[i] += dir * step;
                        double e = tune_set_error(s, target, k, eval);
                        if (e < best) {
                            best = e;
                            dir_done = 1;
                            continue;
                        }
                        t->w[i] -= dir * step;
                        break;
                    }
                }
                if (t->w[i] != orig) {
                    changed = 1;
                    if (log)
                        fprintf(log, "  step %d pass %d: %s %d -> %d  error %.6f\n", step, pass + 1,
                                t->names[i], orig, t->w[i], best);
                }
            }
            if (log)
                fflush(log);
            if (!changed)
                break;
        }
    }
    free(eval);
    return best;
}

void tune_print_table(const Game *g, const TuneTable *t, FILE *out)
{
    if (g->tuning && g->tuning->print_weights) {
        g->tuning->print_weights(t->w, t->names, t->n, out);
        return;
    }
    fprintf(out, "/* %s */\n{\n", g->name);
    for (int i = 0; i < t->n; i++)
        fprintf(out, "    %d, /* %s */\n", t->w[i], t->names[i]);
    fprintf(out, "}\n");
}
