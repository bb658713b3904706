/*
 * Both searchers (alpha-beta and MCTS) on the toy games of search_toys.h:
 * they honour the stop flag and node limits, are deterministic, set the
 * proven flag only for proofs, run "go infinite" until stopped, and find
 * the values of Nim with extra turns (no searcher may assume the sides
 * alternate).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>
#include <cmocka.h>

#include "game.h"
#include "search/search.h"
#include "search_toys.h"

/* --- behaviour -------------------------------------------------------- */

/* A searcher (alphabeta or mcts, 4 MB) and tic-tac-toe's start in pos. */
static Search *ttt_start(const char *algo, unsigned char *pos, GameOptions *opt)
{
    char err[64];
    game_options_default(opt);
    assert_int_equal(toy_ttt.init(pos, opt, err, sizeof err), 0);
    return ts_new_search(algo, "4");
}

static void test_stop_flag(void **state)
{
    (void)state;
    const char *algos[] = {"alphabeta", "mcts"};
    for (int a = 0; a < 2; a++) {
        unsigned char pos[POS_MAX_BYTES];
        GameOptions opt;
        Search *s = ttt_start(algos[a], pos, &opt);
        SearchLimits lim;
        search_limits_init(&lim); /* no limit at all: only stop ends it */
        atomic_int stop;
        atomic_init(&stop, 1);
        SearchResult r;
        Move m = search_go(s, &toy_ttt, pos, &opt, NULL, 0, &lim, &stop, NULL, NULL, &r);
        assert_true(m >= 1 && m <= 9);
        search_free(s);
    }
}

static void test_node_limit_and_determinism(void **state)
{
    (void)state;
    GameOptions opt;
    game_options_default(&opt);
    unsigned char pos[POS_MAX_BYTES];
    char err[64];
    assert_int_equal(toy_nim.from_fen(pos, "150 a", &opt, err, sizeof err), 0);
    SearchResult r1, r2;
    SearchLimits lim;
    search_limits_init(&lim);
    lim.depth = 12;
    Search *s = ts_new_search("alphabeta", "4");
    search_go(s, &toy_nim, pos, &opt, NULL, 0, &lim, NULL, NULL, NULL, &r1);
    search_clear(s);
    search_go(s, &toy_nim, pos, &opt, NULL, 0, &lim, NULL, NULL, NULL, &r2);
    assert_true(r1.nodes > 0);
    assert_true(r1.nodes == r2.nodes);
    assert_int_equal(r1.best, r2.best);
    assert_int_equal(r1.depth, 12);

    search_limits_init(&lim);
    lim.nodes = 50;
    search_clear(s);
    search_go(s, &toy_nim, pos, &opt, NULL, 0, &lim, NULL, NULL, NULL, &r1);
    assert_true(r1.best >= 1 && r1.best <= 3);
    assert_true(r1.nodes <= 50);
    search_free(s);

    s = ts_new_search("mcts", "4");
    search_go(s, &toy_nim, pos, &opt, NULL, 0, &lim, NULL, NULL, NULL, &r1);
    assert_true(r1.best >= 1 && r1.best <= 3);
    assert_true(r1.nodes == 50);
    search_free(s);
}

/* SearchResult.proven: set for a solved draw and a mate, not for a value at
 * the horizon. */
static void test_proven_flag(void **state)
{
    (void)state;
    GameOptions opt;
    game_options_default(&opt);
    unsigned char pos[POS_MAX_BYTES];
    char err[64];
    SearchLimits lim;
    SearchResult r;
    const char *algos[] = {"alphabeta", "mcts"};
    for (int a = 0; a < 2; a++) {
        Search *s = ts_new_search(algos[a], "8");
        /* Proofs need breadth: the exploration constant of the proving
         * cases (tests/data) rather than the playing default. */
        assert_int_equal(search_setoption(s, "MCTSExplore", "100", err, sizeof err), 0);
        search_limits_init(&lim);
        lim.depth = 20;
        lim.nodes = 300000;
        assert_int_equal(toy_ttt.init(pos, &opt, err, sizeof err), 0);
        search_go(s, &toy_ttt, pos, &opt, NULL, 0, &lim, NULL, NULL, NULL, &r);
        assert_int_equal(r.score, 0);
        assert_int_equal(r.proven, 1);
        assert_int_equal(toy_nim.from_fen(pos, "22 b", &opt, err, sizeof err), 0);
        search_clear(s);
        search_go(s, &toy_nim, pos, &opt, NULL, 0, &lim, NULL, NULL, NULL, &r);
        assert_int_equal(r.score, SCORE_MATE - 11);
        assert_int_equal(r.best, 2);
        assert_int_equal(r.proven, 1);
        search_free(s);
    }
    Search *s = ts_new_search("alphabeta", "8");
    search_limits_init(&lim);
    lim.depth = 6;
    assert_int_equal(toy_nim.from_fen(pos, "150 a", &opt, err, sizeof err), 0);
    search_go(s, &toy_nim, pos, &opt, NULL, 0, &lim, NULL, NULL, NULL, &r);
    assert_int_equal(r.proven, 0);
    assert_int_equal(r.depth, 6);
    search_free(s);
}

typedef struct StopLater {
    atomic_int *stop;
    int ms;
} StopLater;

static void *stop_later(void *arg)
{
    StopLater *sl = arg;
    struct timespec ts = {sl->ms / 1000, (long)(sl->ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
    atomic_store(sl->stop, 1);
    return NULL;
}

/* go infinite returns only after stop, even on a position solved at once
 * (tic-tac-toe), and then with a legal move. */
static void test_infinite_until_stop(void **state)
{
    (void)state;
    const char *algos[] = {"alphabeta", "mcts"};
    for (int a = 0; a < 2; a++) {
        unsigned char pos[POS_MAX_BYTES];
        GameOptions opt;
        Search *s = ttt_start(algos[a], pos, &opt);
        SearchLimits lim;
        search_limits_init(&lim);
        lim.infinite = 1;
        atomic_int stop;
        atomic_init(&stop, 0);
        StopLater sl = {&stop, 30};
        pthread_t th;
        assert_int_equal(pthread_create(&th, NULL, stop_later, &sl), 0);
        Move m = search_go(s, &toy_ttt, pos, &opt, NULL, 0, &lim, &stop, NULL, NULL, NULL);
        assert_int_equal(atomic_load(&stop), 1);
        pthread_join(th, NULL);
        assert_true(m >= 1 && m <= 9);
        search_free(s);
    }
}

/* Both searchers against a table of the extra-turn Nim's values. */
static void test_same_side_twice(void **state)
{
    (void)state;
    enum { N = 24 };
    int win[N + 1]; /* the side to move wins with pile p */
    win[0] = 0;
    for (int p = 1; p <= N; p++) {
        win[p] = 0;
        for (int m = 1; m <= 3 && m <= p; m++)
            if (p == m || (m == 2 ? win[p - m] : !win[p - m]))
                win[p] = 1;
    }
    GameOptions opt;
    game_options_default(&opt);
    unsigned char pos[POS_MAX_BYTES], child[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    char err[64], fen[16];
    const char *algos[] = {"alphabeta", "mcts"};
    for (int a = 0; a < 2; a++) {
        Search *s = ts_new_search(algos[a], "4");
        for (int p = 1; p <= N; p++) {
            snprintf(fen, sizeof fen, "%d %c", p, p % 2 ? 'a' : 'b');
            assert_int_equal(toy_nimx.from_fen(pos, fen, &opt, err, sizeof err), 0);
            SearchLimits lim;
            search_limits_init(&lim);
            lim.depth = 40;
            lim.nodes = 200000;
            SearchResult r;
            search_clear(s);
            search_go(s, &toy_nimx, pos, &opt, NULL, 0, &lim, NULL, NULL, NULL, &r);
            if (win[p]) {
                if (r.score < SCORE_MATE_BOUND)
                    fail_msg("%s: pile %d is won, score %d", algos[a], p, r.score);
                memcpy(child, pos, sizeof(NimxPos));
                toy_nimx.make(child, r.best, undo);
                const NimxPos *c = (const NimxPos *)child;
                int ok = c->pile == 0 || (r.best == 2 ? win[c->pile] : !win[c->pile]);
                if (!ok)
                    fail_msg("%s: pile %d, move %u does not win", algos[a], p, (unsigned)r.best);
            } else if (r.score > -SCORE_MATE_BOUND) {
                fail_msg("%s: pile %d is lost, score %d", algos[a], p, r.score);
            }
        }
        search_free(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stop_flag),
        cmocka_unit_test(test_node_limit_and_determinism),
        cmocka_unit_test(test_proven_flag),
        cmocka_unit_test(test_same_side_twice),
        cmocka_unit_test(test_infinite_until_stop),
    };
    return cmocka_run_group_tests_name("search_toys", tests, NULL, NULL);
}
