/*
 * The searcher's parts on their own, without a search: the transposition
 * table (store, probe, mate scores across plies, replacement and aging),
 * the Search options (names, ranges, refusals) and MoveOverhead in the
 * time budgets.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "game.h"
#include "search/search.h"
#include "search/timeman.h"
#include "search/tt.h"

/* --- transposition table ---------------------------------------------- */

static void test_tt_store_probe(void **state)
{
    (void)state;
    TT t = {0};
    assert_int_equal(tt_resize(&t, 1), 0);
    TTHit h;
    Key k = 0x123456789abcdef0ull;
    assert_int_equal(tt_probe(&t, k, 0, &h), 0);
    tt_store(&t, k, 0, 77, -123, 5, TT_EXACT, 0);
    assert_int_equal(tt_probe(&t, k, 0, &h), 1);
    assert_int_equal(h.move, 77);
    assert_int_equal(h.score, -123);
    assert_int_equal(h.depth, 5);
    assert_int_equal(h.bound, TT_EXACT);
    assert_int_equal(h.proven, 0);
    assert_int_equal(tt_probe(&t, k ^ 1, 0, &h), 0);

    /* A win 3 plies below a node at ply 4 (root score SCORE_MATE - 7) is
     * read back at ply 2 as SCORE_MATE - 5. */
    Key km = 0x0fedcba987654321ull;
    tt_store(&t, km, 4, 9, SCORE_MATE - 7, 3, TT_LOWER, 1);
    assert_int_equal(tt_probe(&t, km, 2, &h), 1);
    assert_int_equal(h.score, SCORE_MATE - 5);
    assert_int_equal(h.proven, 1);
    assert_int_equal(h.bound, TT_LOWER);
    tt_store(&t, km, 4, 9, -(SCORE_MATE - 7), 3, TT_UPPER, 1);
    assert_int_equal(tt_probe(&t, km, 6, &h), 1);
    assert_int_equal(h.score, -(SCORE_MATE - 9));

    /* Same key, no move: the old move stays. */
    tt_store(&t, k, 0, MOVE_NONE, 50, 6, TT_EXACT, 0);
    assert_int_equal(tt_probe(&t, k, 0, &h), 1);
    assert_int_equal(h.move, 77);
    assert_int_equal(h.depth, 6);

    /* Replacement: fill one bucket with TT_BUCKET keys of different depth,
     * then a fifth key evicts the shallowest. */
    tt_clear(&t);
    Key keys[TT_BUCKET + 1];
    int found = 0;
    size_t want = tt_index(1, t.nbuckets);
    for (uint64_t x = 2; found < TT_BUCKET + 1; x++) {
        uint64_t s = x;
        Key c = rng_next(&s);
        if (tt_index(c, t.nbuckets) == want)
            keys[found++] = c;
    }
    for (int i = 0; i < TT_BUCKET; i++)
        tt_store(&t, keys[i], 0, (Move)(i + 1), i, 10 + i, TT_EXACT, 0);
    tt_store(&t, keys[TT_BUCKET], 0, 99, 0, 1, TT_EXACT, 0);
    assert_int_equal(tt_probe(&t, keys[0], 0, &h), 0); /* depth 10 went */
    for (int i = 1; i <= TT_BUCKET; i++)
        assert_int_equal(tt_probe(&t, keys[i], 0, &h), 1);
    /* An old deep entry loses to a new shallow one once it has aged. */
    for (int a = 0; a < 3; a++)
        tt_new_search(&t);
    Key fresh[1] = {0};
    for (uint64_t x = 1ull << 40; !fresh[0]; x++) {
        uint64_t s = x;
        Key c = rng_next(&s);
        if (tt_index(c, t.nbuckets) == want && c != keys[0])
            fresh[0] = c;
    }
    tt_store(&t, fresh[0], 0, 5, 0, 1, TT_EXACT, 0);
    assert_int_equal(tt_probe(&t, fresh[0], 0, &h), 1);
    assert_int_equal(tt_probe(&t, keys[TT_BUCKET], 0, &h), 0); /* the aged depth-1 went */
    assert_in_range(tt_hashfull(&t), 0, 1000);
    tt_free(&t);
}

static void test_options(void **state)
{
    (void)state;
    Search *s = search_new();
    char err[128];
    assert_int_equal(search_setoption(s, "hash", "2", err, sizeof err), 0);
    assert_int_equal(search_setoption(s, "Hash", "0", err, sizeof err), -1);
    assert_int_equal(search_setoption(s, "Hash", "12x", err, sizeof err), -1);
    assert_int_equal(search_setoption(s, "Threads", "65", err, sizeof err), -1);
    assert_int_equal(search_setoption(s, "Search", "minimax", err, sizeof err), -1);
    assert_int_equal(search_setoption(s, "search", "MCTS", err, sizeof err), 0);
    assert_int_equal(search_setoption(s, "MCTSPolicy", "plain", err, sizeof err), 0);
    assert_int_equal(search_setoption(s, "Nope", "1", err, sizeof err), -1);
    assert_non_null(strstr(err, "Nope"));
    search_free(s);
}

/* MoveOverhead comes off the movetime and the clock; budgets never reach
 * past what is left. */
static void test_move_overhead(void **state)
{
    (void)state;
    SearchLimits l;
    TimeManager a, b;
    search_limits_init(&l);
    l.movetime = 100;
    timeman_init(&a, &l, SIDE_P1, 0);
    timeman_init(&b, &l, SIDE_P1, 30);
    assert_true(a.hard_ms > 0 && a.hard_ms <= 100);
    assert_int_equal(a.hard_ms - b.hard_ms, 30);
    search_limits_init(&l);
    l.time[SIDE_P2] = 1000;
    l.inc[SIDE_P2] = 10;
    timeman_init(&a, &l, SIDE_P2, 0);
    timeman_init(&b, &l, SIDE_P2, 200);
    assert_true(b.hard_ms < a.hard_ms && b.soft_ms <= a.soft_ms);
    assert_true(a.hard_ms < 1000 && b.hard_ms <= 800);
    Search *s = search_new();
    char err[128];
    assert_int_equal(search_setoption(s, "MoveOverhead", "50", err, sizeof err), 0);
    assert_int_equal(search_setoption(s, "MoveOverhead", "-1", err, sizeof err), -1);
    search_prepare(s);
    search_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tt_store_probe),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_move_overhead),
    };
    return cmocka_run_group_tests_name("search_units", tests, NULL, NULL);
}
