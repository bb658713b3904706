/*
 * The time manager (engine/search/timeman.c): the budgets for every kind of
 * `go` (tests/data/timeman_budgets.txt, worked by hand from docs/search.md),
 * which searches end by themselves, the clock of the wrong side, the rule
 * for a starved thread, the clock counted from the instant `go` was read,
 * and a real search under a clock for the side not to move, which must end
 * by itself (it used to search until stopped).  No test measures speed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <pthread.h>
#include <time.h>
#include <cmocka.h>

#include "game.h"
#include "search/search.h"
#include "search/timeman.h"
#include "testdata.h"

static int side_of(const char *w)
{
    if (strcmp(w, "p1") == 0)
        return SIDE_P1;
    if (strcmp(w, "p2") == 0)
        return SIDE_P2;
    fail_msg("bad side '%s'", w);
    return -1;
}

/* The go words of a data line into l (the protocol's spelling). */
static void parse_go(char *words, SearchLimits *l)
{
    search_limits_init(l);
    char *save = NULL;
    for (char *k = strtok_r(words, " ", &save); k; k = strtok_r(NULL, " ", &save)) {
        if (strcmp(k, "infinite") == 0) {
            l->infinite = 1;
            continue;
        }
        char *v = strtok_r(NULL, " ", &save);
        assert_non_null(v);
        long long n = strtoll(v, NULL, 10);
        if (!strcmp(k, "p1time") || !strcmp(k, "wtime"))
            l->time[SIDE_P1] = n;
        else if (!strcmp(k, "p2time") || !strcmp(k, "btime"))
            l->time[SIDE_P2] = n;
        else if (!strcmp(k, "p1inc") || !strcmp(k, "winc"))
            l->inc[SIDE_P1] = n;
        else if (!strcmp(k, "p2inc") || !strcmp(k, "binc"))
            l->inc[SIDE_P2] = n;
        else if (!strcmp(k, "movestogo"))
            l->movestogo = (int)n;
        else if (!strcmp(k, "movetime"))
            l->movetime = n;
        else if (!strcmp(k, "depth"))
            l->depth = (int)n;
        else if (!strcmp(k, "nodes"))
            l->nodes = (uint64_t)n;
        else if (!strcmp(k, "lag")) /* not a go word: the learned lag */
            l->lag_ms = n;
        else if (!strcmp(k, "late")) /* not a go word: the learned lateness */
            l->late_ms = n;
        else
            fail_msg("unknown go word '%s'", k);
    }
}

static void test_table(void **state)
{
    (void)state;
    FILE *f = td_open("timeman_budgets.txt");
    char line[512], *fl[TD_MAXF];
    int nf, rows = 0;
    while ((nf = td_next_record(f, line, sizeof line, fl)) > 0) {
        SearchLimits l;
        char what[256];
        snprintf(what, sizeof what, "%s | %s", fl[0], nf > 1 ? fl[1] : "");
        if (strcmp(fl[0], "budget") == 0 && nf == 6) {
            parse_go(fl[1], &l);
            int64_t soft, hard;
            timeman_budget(&l, side_of(fl[2]), atoll(fl[3]), &soft, &hard);
            if (soft != atoll(fl[4]) || hard != atoll(fl[5]))
                fail_msg("%s: soft %lld hard %lld, want %s %s", what, (long long)soft,
                         (long long)hard, fl[4], fl[5]);
        } else if (strcmp(fl[0], "bounded") == 0 && nf == 3) {
            parse_go(fl[1], &l);
            if (!timeman_bounded(&l) != !atoi(fl[2]))
                fail_msg("%s: bounded %d", what, timeman_bounded(&l));
        } else if (strcmp(fl[0], "missing") == 0 && nf == 4) {
            parse_go(fl[1], &l);
            if (!timeman_clock_missing(&l, side_of(fl[2])) != !atoi(fl[3]))
                fail_msg("%s: missing the other way", what);
        } else if (strcmp(fl[0], "iterate") == 0 && nf == 6) {
            /* ms already spent, with the CPU watch off (no starvation). */
            parse_go(fl[1], &l);
            TimeManager tm;
            timeman_init(&tm, &l, side_of(fl[2]), atoll(fl[3]));
            tm.start_ms -= atoll(fl[4]);
            tm.late_ms = 0;
            tm.cpu0_us = -1;
            if (!timeman_stop_iterating(&tm, 3, 5) != !atoi(fl[5]))
                fail_msg("%s: stop iterating the other way after %s ms", what, fl[4]);
        } else if (strcmp(fl[0], "lag") == 0 && nf == 7) {
            int64_t got = timeman_lag_update(atoll(fl[1]), atoll(fl[2]), atoll(fl[3]), atoll(fl[4]),
                                             atoll(fl[5]));
            if (got != atoll(fl[6]))
                fail_msg("lag %s %s %s %s %s: %lld, want %s", fl[1], fl[2], fl[3], fl[4], fl[5],
                         (long long)got, fl[6]);
        } else if (strcmp(fl[0], "fixed") == 0 && nf == 5) {
            parse_go(fl[1], &l);
            if (!timeman_fixed(&l, side_of(fl[2]), atoll(fl[3])) != !atoi(fl[4]))
                fail_msg("%s: fixed the other way", what);
        } else if (strcmp(fl[0], "scale") == 0 && nf == 5) {
            int got = timeman_scale(atoi(fl[1]), atoi(fl[2]), atoi(fl[3]));
            if (got != atoi(fl[4]))
                fail_msg("scale %s %s %s: %d, want %s", fl[1], fl[2], fl[3], got, fl[4]);
        } else if (strcmp(fl[0], "late") == 0 && nf == 5) {
            int64_t got = timeman_late_update(atoll(fl[1]), atoll(fl[2]), atoll(fl[3]));
            if (got != atoll(fl[4]))
                fail_msg("late %s %s %s: %lld, want %s", fl[1], fl[2], fl[3], (long long)got,
                         fl[4]);
        } else if (strcmp(fl[0], "starved") == 0 && nf == 4) {
            if (!timeman_starved(atoll(fl[1]), atoll(fl[2])) != !atoi(fl[3]))
                fail_msg("starved %s %s: the other way", fl[1], fl[2]);
        } else {
            fail_msg("bad record '%s' (%d fields)", fl[0], nf);
        }
        rows++;
    }
    fclose(f);
    assert_true(rows > 20);
}

/* The budget counts from start_ms, the reading of go, not from
 * timeman_init(): a go read 500 ms ago with 100 ms to spend is over. */
static void test_start_instant(void **state)
{
    (void)state;
    SearchLimits l;
    TimeManager tm;
    search_limits_init(&l);
    l.movetime = 100;
    l.start_ms = time_now_ms() - 500;
    timeman_init(&tm, &l, SIDE_P1, 0);
    assert_true(timeman_elapsed(&tm) >= 500);
    assert_true(timeman_hard_over(&tm));
    assert_true(timeman_soft_over(&tm, 1, 1));
    /* Under a clock the 500 ms before the search started count twice:
     * 1000 ms of the hard budget of 790 (p1time 4000 movestogo 5). */
    search_limits_init(&l);
    l.time[SIDE_P1] = 4000;
    l.movestogo = 5;
    l.start_ms = time_now_ms() - 500;
    timeman_init(&tm, &l, SIDE_P1, 0);
    tm.cpu0_us = -1; /* no starvation rule: only the late start counts */
    assert_int_equal(tm.hard_ms, 790);
    assert_true(tm.late_ms >= 500);
    assert_true(timeman_hard_over(&tm));
    /* A fixed movetime is the GUI's deadline: used whole, 500 of 995. */
    search_limits_init(&l);
    l.movetime = 1000;
    l.start_ms = time_now_ms() - 500;
    timeman_init(&tm, &l, SIDE_P1, 0);
    assert_int_equal(tm.late_ms, 0);
    assert_false(timeman_hard_over(&tm));
    /* A start in the future is no start: it counts from now. */
    l.start_ms = time_now_ms() + 100000;
    timeman_init(&tm, &l, SIDE_P1, 0);
    assert_true(timeman_elapsed(&tm) >= 0 && timeman_elapsed(&tm) < 100000);
    /* No budget, never over. */
    search_limits_init(&l);
    l.depth = 3;
    l.start_ms = time_now_ms() - 100000;
    timeman_init(&tm, &l, SIDE_P1, 0);
    assert_false(timeman_hard_over(&tm));
    assert_false(timeman_soft_over(&tm, 1, 1));
}

/* --- a real search with the wrong side's clock ends by itself ------------ */

typedef struct Job {
    Search *s;
    const Game *g;
    unsigned char pos[POS_MAX_BYTES];
    SearchLimits l;
    atomic_int stop;
    Move best;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int done;
} Job;

static void *job_run(void *arg)
{
    Job *j = arg;
    j->best = search_go(j->s, j->g, j->pos, NULL, NULL, 0, &j->l, &j->stop, NULL, NULL, NULL);
    pthread_mutex_lock(&j->lock);
    j->done = 1;
    pthread_cond_signal(&j->cond);
    pthread_mutex_unlock(&j->lock);
    return NULL;
}

/* Runs the search; non-zero when it ended within wait_s seconds by itself
 * (else it is stopped, so the test fails instead of hanging). */
static int ends_by_itself(Job *j, int wait_s)
{
    pthread_t th;
    pthread_mutex_init(&j->lock, NULL);
    pthread_cond_init(&j->cond, NULL);
    atomic_init(&j->stop, 0);
    j->done = 0;
    assert_int_equal(pthread_create(&th, NULL, job_run, j), 0);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += wait_s;
    pthread_mutex_lock(&j->lock);
    while (!j->done)
        if (pthread_cond_timedwait(&j->cond, &j->lock, &until) != 0)
            break;
    int ok = j->done;
    pthread_mutex_unlock(&j->lock);
    atomic_store(&j->stop, 1);
    pthread_join(th, NULL);
    pthread_cond_destroy(&j->cond);
    pthread_mutex_destroy(&j->lock);
    return ok;
}

static void test_wrong_side_clock_ends(void **state)
{
    (void)state;
    static const char *const games[] = {"morelli", "morris"};
    static const char *const algos[] = {"alphabeta", "mcts"};
    char err[256];
    for (int gi = 0; gi < 2; gi++) {
        for (int a = 0; a < 2; a++) {
            Job *j = calloc(1, sizeof *j);
            assert_non_null(j);
            j->g = game_by_name(games[gi]);
            assert_non_null(j->g);
            GameOptions o;
            game_options_default(&o);
            assert_int_equal(j->g->init(j->pos, &o, err, sizeof err), 0);
            Move m[1024];
            assert_true(j->g->gen_moves(j->pos, m) > 0);
            unsigned char undo[UNDO_MAX_BYTES];
            j->g->make(j->pos, m[0], undo); /* p2 to move */
            assert_int_equal(j->g->side_to_move(j->pos), SIDE_P2);
            j->s = search_new();
            assert_non_null(j->s);
            assert_int_equal(search_setoption(j->s, "Search", algos[a], err, sizeof err), 0);
            assert_int_equal(search_setoption(j->s, "Hash", "4", err, sizeof err), 0);
            search_limits_init(&j->l);
            j->l.time[SIDE_P1] = 1000; /* go p1time 1000 p1inc 10 */
            j->l.inc[SIDE_P1] = 10;
            j->l.start_ms = time_now_ms();
            if (!ends_by_itself(j, 20))
                fail_msg("%s %s: go p1time 1000 p1inc 10 with p2 to move did not end", games[gi],
                         algos[a]);
            assert_true(j->best != MOVE_NONE);
            search_free(j->s);
            free(j);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_start_instant),
        cmocka_unit_test(test_wrong_side_clock_ends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
