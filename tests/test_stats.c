/*
 * The match statistics (bench/match/stats.c) against worked examples kept in
 * tests/data/match_stats.txt: Elo of a score, trinomial and pentanomial Elo
 * with their 95% intervals (none when every unit scored the same, a bound
 * alone when the other is out of reach), GSPRT log-likelihood ratios of
 * the logistic model (small samples included), Wald bounds, LOS.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../bench/match/stats.h"

#define DATA "tests/data/match_stats.txt"
#define TOL 1e-5

static void check_close(double got, double want, const char *line)
{
    if (fabs(got - want) > TOL)
        fail_msg("%s: got %.9f, want %.9f", line, got, want);
}

/* Runs fn on every data line whose first word is kind; returns how many. */
static int each_line(const char *kind, void (*fn)(const char *line))
{
    FILE *f = fopen(DATA, "r");
    assert_non_null(f);
    char line[512], word[32];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '#' || sscanf(line, "%31s", word) != 1)
            continue;
        if (strcmp(word, kind) == 0) {
            fn(line);
            n++;
        }
    }
    fclose(f);
    return n;
}

static void one_elo(const char *line)
{
    double s, e;
    assert_int_equal(sscanf(line, "elo %lf %lf", &s, &e), 2);
    check_close(stats_elo_from_score(s), e, line);
    check_close(stats_score_from_elo(e), s, line);
}

/* Checks an estimate against the words elo, lo, hi of a data line, each a
 * number or "none" (not measured; no such bound). */
static void check_estimate(const EloEstimate *est, const char *e, const char *lo, const char *hi,
                           const char *line)
{
    int measured = strcmp(e, "none") != 0;
    assert_int_equal(est->measured, measured);
    if (!measured) {
        /* Too few games: nothing to show, and nothing infinite. */
        assert_true(!strcmp(lo, "none") && !strcmp(hi, "none"));
        assert_false(est->has_lo || est->has_hi);
        assert_true(est->elo == 0 && est->elo_lo == 0 && est->elo_hi == 0);
        return;
    }
    check_close(est->elo, atof(e), line);
    assert_int_equal(est->has_lo, strcmp(lo, "none") != 0);
    assert_int_equal(est->has_hi, strcmp(hi, "none") != 0);
    if (est->has_lo)
        check_close(est->elo_lo, atof(lo), line);
    if (est->has_hi)
        check_close(est->elo_hi, atof(hi), line);
    assert_true(isfinite(est->elo) && isfinite(est->elo_lo) && isfinite(est->elo_hi));
}

static void one_tri(const char *line)
{
    int w, d, l;
    double s;
    char e[32], lo[32], hi[32];
    assert_int_equal(sscanf(line, "tri %d %d %d %lf %31s %31s %31s", &w, &d, &l, &s, e, lo, hi), 7);
    EloEstimate est;
    assert_int_equal(stats_elo_trinomial(w, d, l, &est), 0);
    check_close(est.score, s, line);
    check_estimate(&est, e, lo, hi, line);
    assert_true(est.units == w + d + l);
}

static void one_penta(const char *line)
{
    int p[5];
    double s;
    char e[32], lo[32], hi[32];
    assert_int_equal(sscanf(line, "penta %d %d %d %d %d %lf %31s %31s %31s", &p[0], &p[1], &p[2],
                            &p[3], &p[4], &s, e, lo, hi),
                     9);
    EloEstimate est;
    assert_int_equal(stats_elo_pentanomial(p, &est), 0);
    check_close(est.score, s, line);
    check_estimate(&est, e, lo, hi, line);
}

static void one_llrtri(const char *line)
{
    int w, d, l;
    double e0, e1, want;
    assert_int_equal(sscanf(line, "llrtri %d %d %d %lf %lf %lf", &w, &d, &l, &e0, &e1, &want), 6);
    check_close(stats_llr_trinomial(w, d, l, e0, e1), want, line);
}

static void one_llrpenta(const char *line)
{
    int p[5];
    double e0, e1, want;
    assert_int_equal(sscanf(line, "llrpenta %d %d %d %d %d %lf %lf %lf", &p[0], &p[1], &p[2], &p[3],
                            &p[4], &e0, &e1, &want),
                     8);
    check_close(stats_llr_pentanomial(p, e0, e1), want, line);
}

static void one_bounds(const char *line)
{
    double a, b, lo, hi, glo, ghi;
    assert_int_equal(sscanf(line, "bounds %lf %lf %lf %lf", &a, &b, &lo, &hi), 4);
    stats_sprt_bounds(a, b, &glo, &ghi);
    check_close(glo, lo, line);
    check_close(ghi, hi, line);
    assert_int_equal(stats_sprt_decision(hi + 0.01, glo, ghi), 1);
    assert_int_equal(stats_sprt_decision(lo - 0.01, glo, ghi), -1);
    assert_int_equal(stats_sprt_decision((lo + hi) / 2, glo, ghi), 0);
}

static void one_los(const char *line)
{
    int w, l;
    double want;
    assert_int_equal(sscanf(line, "los %d %d %lf", &w, &l, &want), 3);
    check_close(stats_los(w, l), want, line);
}

static void test_elo_of_score(void **state)
{
    (void)state;
    assert_true(each_line("elo", one_elo) >= 3);
    assert_true(isinf(stats_elo_from_score(1.0)) && stats_elo_from_score(1.0) > 0);
    assert_true(isinf(stats_elo_from_score(0.0)) && stats_elo_from_score(0.0) < 0);
}

static void test_trinomial(void **state)
{
    (void)state;
    assert_true(each_line("tri", one_tri) >= 8);
    EloEstimate e;
    assert_int_equal(stats_elo_trinomial(0, 0, 0, &e), -1);
}

static void test_pentanomial(void **state)
{
    (void)state;
    assert_true(each_line("penta", one_penta) >= 7);
    int none[5] = {0, 0, 0, 0, 0};
    EloEstimate e;
    assert_int_equal(stats_elo_pentanomial(none, &e), -1);
}

static void test_llr(void **state)
{
    (void)state;
    assert_true(each_line("llrtri", one_llrtri) >= 3);
    assert_true(each_line("llrpenta", one_llrpenta) >= 3);
    int none[5] = {0, 0, 0, 0, 0};
    assert_true(stats_llr_pentanomial(none, 0, 5) == 0);
    assert_true(stats_llr_trinomial(0, 0, 0, 0, 5) == 0);
    /* A sample of wins only still gives a finite, positive LLR, and one
     * more unit moves it by at most log(s1 / s0) (here 0.0143), where the
     * normal approximation jumped from 7.6 to 30 between 2 and 4 pairs. */
    double one_sided = stats_llr_trinomial(3, 0, 0, 0, 5);
    assert_true(isfinite(one_sided) && one_sided > 0);
    double step = log(stats_score_from_elo(5) / 0.5) * (1 + 1e-4);
    for (int n = 1; n < 200; n++) {
        int a[5] = {0, 0, 0, 0, n}, b[5] = {0, 0, 0, 0, n + 1};
        double d = stats_llr_pentanomial(b, 0, 5) - stats_llr_pentanomial(a, 0, 5);
        assert_true(d > 0 && d <= step);
    }
}

static void test_bounds_and_los(void **state)
{
    (void)state;
    assert_true(each_line("bounds", one_bounds) >= 1);
    assert_true(each_line("los", one_los) >= 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elo_of_score),   cmocka_unit_test(test_trinomial),
        cmocka_unit_test(test_pentanomial),    cmocka_unit_test(test_llr),
        cmocka_unit_test(test_bounds_and_los),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
