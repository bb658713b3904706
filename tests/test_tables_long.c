/*
 * test_tables_long.c -- the Morris table files against the tables built in
 * memory on every position of 3 and 4 a side and 5 against 3, and each
 * table value against the values of its children on random positions of
 * every class built; the builder's 4-byte words give the same files as its
 * 2-byte ones, and its win/draw/loss build the same values without the
 * distances.  In `make test`: the standard option set (plain
 * board, flying).  `make test-tables` sets TABLES_SETS=all and
 * TABLES_UPTO=6: all four option sets, and the children test on every class
 * up to 6 a side (a build of an hour or more on 2 cores; docs/tables.md).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "morris/morris.h"
#include "morris/morris_tb.h"
#include "tables_check.h"
#include "testdata.h"

static int env_int(const char *name, int def)
{
    const char *v = getenv(name);
    return v && *v ? atoi(v) : def;
}

static int set_wanted(int d, int f)
{
    const char *v = getenv("TABLES_SETS");
    if (v && strcmp(v, "all") == 0)
        return 1;
    return !d && f; /* the standard game: plain board, flying */
}

static uint32_t next_set(uint32_t v)
{
    uint32_t t = v | (v - 1);
    return (t + 1) | (((~t & -~t) - 1) >> (__builtin_ctz(v) + 1));
}

static char dir[256]; /* the files of both tests */

static void test_agree_memory(void **state)
{
    (void)state;
    for (int d = 0; d < 2; d++)
        for (int f = 0; f < 2; f++) {
            if (!set_wanted(d, f))
                continue;
            int san = td_sanitized(); /* under the sanitizers: 3v3 only */
            TbBuildOpts o = {.dir = dir,
                             .upto = san ? 3 : 5,
                             .threads = 2,
                             .encoding = TB_ENC_DTM8,
                             .diag_mask = 1 << d,
                             .fly_mask = 1 << f,
                             .quiet = 1,
                             .max_total = 8};
            assert_int_equal(tb_build(&o), 0);
            assert_int_equal(morris_egtb_build(d, f, san ? 3 : 5, NULL, NULL), 0);
            static const int cls[][2] = {{3, 3}, {3, 4}, {4, 3}, {4, 4}, {3, 5}, {5, 3}};
            for (int c = 0; c < (san ? 1 : 6); c++) {
                int m = cls[c][0], op = cls[c][1];
                long n = 0;
                for (uint32_t x = (1u << m) - 1; x <= 0xFFFFFF; x = next_set(x))
                    for (uint32_t y = (1u << op) - 1; y <= 0xFFFFFF; y = next_set(y)) {
                        if (x & y)
                            continue;
                        int want = morris_egtb_memory_byte(d, f, x, y);
                        int got = tb_probe(d, f, x, y);
                        if (got != want)
                            fail_msg("%dv%d d=%d f=%d x=%06x y=%06x: file %d, memory %d", m, op, d,
                                     f, x, y, got, want);
                        n++;
                    }
                print_message("%dv%d Diagonals=%d Flying=%d: %ld positions agree\n", m, op, d, f,
                              n);
            }
        }
}

/* Every entry value of class (m, o) of the file in dir. */
static int *class_values(const char *from, int d, int f, int m, int o)
{
    char name[64], file[512];
    tb_file_name(d, f, m, o, name, sizeof name);
    snprintf(file, sizeof file, "%s/%s", from, name);
    assert_int_equal(tb_open_file(file, d, f, m, o), 0);
    uint64_t n = tb_entries(m, o);
    int *v = malloc(n * sizeof *v);
    assert_non_null(v);
    for (uint64_t i = 0; i < n; i++) {
        uint32_t x, y;
        tb_unindex(m, o, i, &x, &y);
        v[i] = tb_probe(d, f, x, y);
    }
    return v;
}

/* Builds of the classes of test_agree_memory (into dir) again: with 4-byte
 * words from the start (the same value on every entry), and win/draw/loss
 * only from 7 pieces on (3v3 with distances, which 3v4 reads; 4v4 reads
 * 3v4, a win/draw/loss file): the same value, or the same win, draw or
 * loss. */
static void test_wide_and_wdl(void **state)
{
    (void)state;
    int san = td_sanitized();
    for (int kind = 0; kind < 2; kind++) {
        char other[256];
        tc_tempdir(other, sizeof other);
        TbBuildOpts o = {.dir = other,
                         .upto = san ? 3 : 5,
                         .threads = 2,
                         .encoding = TB_ENC_DTM8,
                         .diag_mask = 1,
                         .fly_mask = 2,
                         .quiet = 1,
                         .max_total = 8,
                         .wide = kind == 0,
                         .wdl_from = kind == 1 ? 6 : 0};
        assert_int_equal(tb_build(&o), 0);
        static const int cls[][2] = {{3, 3}, {3, 4}, {4, 3}, {4, 4}, {3, 5}, {5, 3}};
        for (int c = 0; c < (san ? 1 : 6); c++) {
            int m = cls[c][0], op = cls[c][1], same = 0;
            int *want = class_values(dir, 0, 1, m, op), *got = class_values(other, 0, 1, m, op);
            uint64_t n = tb_entries(m, op);
            for (uint64_t i = 0; i < n; i++) {
                int w = want[i], g = got[i];
                if (kind == 1 && m + op > 6 && w) /* no distance: won or lost */
                    w = (w - 1) % 2 ? TB_WIN_FAR : TB_LOSS_FAR;
                if (g != w)
                    fail_msg("%s %dv%d entry %llu: %d, with distances %d",
                             kind ? "win/draw/loss" : "4-byte", m, op, (unsigned long long)i, g,
                             want[i]);
                same++;
            }
            print_message("%dv%d: %s build, %d entries as the 2-byte build\n", m, op,
                          kind ? "win/draw/loss" : "4-byte", same);
            free(want);
            free(got);
        }
        tb_close_all();
        tc_rmdir(other);
    }
}

static void test_children(void **state)
{
    (void)state;
    int upto = env_int("TABLES_UPTO", td_sanitized() ? 3 : 4);
    uint64_t rng = 0x2545f4914f6cdd1dull;
    for (int d = 0; d < 2; d++)
        for (int f = 0; f < 2; f++) {
            if (!set_wanted(d, f))
                continue;
            TbBuildOpts o = {.dir = dir,
                             .upto = upto,
                             .threads = 2,
                             .encoding = TB_ENC_DTM8,
                             .diag_mask = 1 << d,
                             .fly_mask = 1 << f,
                             .quiet = upto < 5};
            assert_int_equal(tb_build(&o), 0);
            GameOptions opt;
            tc_options(&opt, d, f);
            for (int m = 3; m <= upto; m++)
                for (int op = 3; op <= upto; op++) {
                    int wins = 0, losses = 0;
                    for (int k = 0; k < 200; k++) {
                        uint32_t x = tc_random_set(&rng, m, 0), y = tc_random_set(&rng, op, x);
                        int v = tc_probe(&opt, x, y);
                        assert_int_equal(v, tc_from_children(&opt, x, y));
                        wins += v > 0;
                        losses += v < 0;
                    }
                    print_message("%dv%d Diagonals=%d Flying=%d: 200 positions (%d won, %d lost) "
                                  "as their children say\n",
                                  m, op, d, f, wins, losses);
                }
        }
    tb_close_all();
    tc_rmdir(dir);
}

int main(void)
{
    tb_set_path(""); /* never the user's files */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_agree_memory),
        cmocka_unit_test(test_wide_and_wdl),
        cmocka_unit_test(test_children),
    };
    tc_tempdir(dir, sizeof dir);
    int rc = cmocka_run_group_tests_name("tables_long", tests, NULL, NULL);
    tb_close_all();
    tc_rmdir(dir);
    return rc;
}
