/*
 * The searcher's parts on their own, without a search: the transposition
 * table (store, probe, mate scores across plies, replacement and aging),
 * the Search options (names, ranges, refusals), MoveOverhead in the
 * time budgets, and the conversions between score units (units.h) against
 * tests/data/units.txt.
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
#include "search/units.h"
#include "testdata.h"

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

/* --- score units (tests/data/units.txt) ------------------------------- */

static int side_word(const char *w)
{
    if (strcmp(w, "p1") && strcmp(w, "p2"))
        fail_msg("units.txt: side %s", w);
    return strcmp(w, "p1") == 0 ? SIDE_P1 : SIDE_P2;
}

static int result_word(const char *w)
{
    if (strcmp(w, "p1win") && strcmp(w, "p2win") && strcmp(w, "draw"))
        fail_msg("units.txt: result %s", w);
    return !strcmp(w, "p1win") ? RESULT_P1_WIN : !strcmp(w, "p2win") ? RESULT_P2_WIN : RESULT_DRAW;
}

static void test_units(void **state)
{
    (void)state;
    FILE *f = td_open("units.txt");
    char line[256], *fl[TD_MAXF];
    int n, records = 0;
    while ((n = td_next_record(f, line, sizeof line, fl)) > 0) {
        const char *op = fl[0];
        if (n < 3)
            fail_msg("units.txt: short record %s", op);
        int a = atoi(fl[1]), want = atoi(fl[n - 1]), got = 0;
        if (!strcmp(op, "winrate")) {
            double q = units_winrate(atof(fl[1]));
            if (q < atof(fl[2]) - 5e-7 || q > atof(fl[2]) + 5e-7)
                fail_msg("winrate(%s) = %.7f, expected %s", fl[1], q, fl[2]);
            records++;
            continue;
        } else if (!strcmp(op, "winrate_cp")) {
            got = units_winrate_cp(atof(fl[1]));
        } else if (!strcmp(op, "mate_moves")) {
            got = units_is_mate(a) ? units_mate_moves(a) : 0;
        } else if (!strcmp(op, "value_score")) {
            got = units_value_score(a);
        } else if (!strcmp(op, "score_value")) {
            got = units_score_value(a);
        } else if (!strcmp(op, "value_back") && n == 4) {
            got = units_value_back(a, atoi(fl[2]));
        } else if (!strcmp(op, "result_score") && n == 5) {
            got = units_result_score(result_word(fl[1]), side_word(fl[2]), atoi(fl[3]));
        } else if (!strcmp(op, "result_value") && n == 4) {
            got = units_result_value(result_word(fl[1]), side_word(fl[2]));
        } else if (!strcmp(op, "roundtrip_cp")) {
            for (int cp = a; cp <= want; cp++)
                assert_int_equal(units_winrate_cp(units_winrate(cp)), cp);
            records++;
            continue;
        } else if (!strcmp(op, "roundtrip_plies")) {
            for (int k = a; k <= want; k++)
                for (int sign = -1; sign <= 1; sign += 2) {
                    int v = sign * (VALUE_WIN - k), sc = sign * units_mate(k);
                    assert_int_equal(units_value_score(v), sc);
                    assert_int_equal(units_score_value(sc), v);
                    assert_true(units_is_mate(sc));
                    assert_int_equal(units_mate_plies(sc), k);
                    assert_int_equal(units_value_plies(v), k);
                }
            records++;
            continue;
        } else {
            fail_msg("units.txt: unknown record %s (%d fields)", op, n);
        }
        if (got != want)
            fail_msg("%s(%s%s%s) = %d, expected %d", op, fl[1], n > 3 ? ", " : "",
                     n > 3 ? fl[2] : "", got, want);
        records++;
    }
    fclose(f);
    assert_true(records >= 45);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tt_store_probe),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_move_overhead),
        cmocka_unit_test(test_units),
    };
    return cmocka_run_group_tests_name("search_units", tests, NULL, NULL);
}
