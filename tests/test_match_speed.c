/*
 * The speed table of `make bench` (bench/speed.c): every line of
 * bench/speed.txt parses and gives a position of its game, bad lines are
 * refused with a message, and a tiny table is measured end to end.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../bench/speed.h"
#include "perft.h"

/* Calls fn on every case of path; returns the count. */
static int each_case(const char *path, void (*fn)(const SpeedCase *c, const char *line))
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[2048], copy[2048], err[256];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        SpeedCase c;
        snprintf(copy, sizeof copy, "%s", line);
        int r = speed_parse_line(line, &c, err, sizeof err);
        if (r < 0)
            fail_msg("%s: %s: %s", path, copy, err);
        if (r == 0)
            continue;
        fn(&c, copy);
        n++;
    }
    fclose(f);
    return n;
}

static void check_position(const SpeedCase *c, const char *line)
{
    unsigned char pos[POS_MAX_BYTES];
    char err[256];
    if (speed_setup(c, pos, err, sizeof err) != 0)
        fail_msg("%s: %s", line, err);
    assert_true(c->game->result(pos) == RESULT_NONE);
    assert_true(perft(c->game, pos, 1, 1) > 0);
}

static void test_bench_positions(void **state)
{
    (void)state;
    /* Every game appears in the table. */
    assert_true(each_case("bench/speed.txt", check_position) >= 3);
}

static void test_bad_lines(void **state)
{
    (void)state;
    FILE *f = fopen("tests/data/match_speed_bad.txt", "r");
    assert_non_null(f);
    char line[2048], copy[2048], err[256];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        snprintf(copy, sizeof copy, "%s", line);
        SpeedCase c;
        err[0] = '\0';
        if (speed_parse_line(line, &c, err, sizeof err) != -1)
            fail_msg("accepted: %s", copy);
        assert_true(strlen(err) > 5);
        n++;
    }
    fclose(f);
    assert_true(n >= 5);
}

static FILE *table;

static void measure(const SpeedCase *c, const char *line)
{
    (void)line;
    speed_run_case(c, 1, 1, table);
}

static void test_tiny_table(void **state)
{
    (void)state;
    table = tmpfile();
    assert_non_null(table);
    speed_machine(table);
    speed_header(table);
    int n = each_case("tests/data/match_speed_tiny.txt", measure);
    rewind(table);
    char line[512];
    int rows = 0;
    while (fgets(line, sizeof line, table))
        rows += strstr(line, " tiny ") != NULL && !strstr(line, "refused");
    fclose(table);
    assert_int_equal(rows, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bench_positions),
        cmocka_unit_test(test_bad_lines),
        cmocka_unit_test(test_tiny_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
