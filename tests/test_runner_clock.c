/*
 * The runner's clock (bench/match/engine_proc.c, docs/match.md "Timing"): a line
 * carries the time it arrived, not the time the runner got round to it; a
 * move that came in time is taken even when the runner looks only after the
 * deadline; and a flood of lines still cannot keep the runner past it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "../bench/match/engine_proc.h"

static void nap_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};
    nanosleep(&ts, NULL);
}

/* The engine answers at once; the runner looks 300 ms later, past its
 * deadline: both lines are still taken. */
static void test_late_runner(void **state)
{
    (void)state;
    EngineProc e;
    char err[256], line[256];
    int64_t t0 = engine_now_ms();
    assert_int_equal(
        engine_proc_start(&e, "printf 'info depth 1\\nbestmove a1\\n'; sleep 5", err, sizeof err),
        0);
    nap_ms(300);
    int64_t deadline = t0 + 100;
    assert_int_equal(engine_proc_readline(&e, line, sizeof line, deadline), 1);
    assert_string_equal(line, "info depth 1");
    assert_int_equal(engine_proc_readline(&e, line, sizeof line, deadline), 1);
    assert_string_equal(line, "bestmove a1");
    assert_true(e.line_ms + 2 >= t0); /* a kernel stamp, to the ms */
    /* Nothing more came: the deadline holds, at once. */
    int64_t before = engine_now_ms();
    assert_int_equal(engine_proc_readline(&e, line, sizeof line, deadline), 0);
    assert_true(engine_now_ms() - before < 1000);
    engine_proc_kill(&e);
}

/* A line's time is when it was read: a line read early keeps its stamp
 * however late it is asked for. */
static void test_stamp_is_arrival(void **state)
{
    (void)state;
    EngineProc e;
    char err[256], line[256];
    assert_int_equal(engine_proc_start(&e, "printf 'a\\nb\\n'; sleep 5", err, sizeof err), 0);
    nap_ms(100); /* both lines wait in the pipe: one read() takes them */
    assert_int_equal(engine_proc_readline(&e, line, sizeof line, -1), 1);
    int64_t first = e.line_ms;
    nap_ms(200);
    assert_int_equal(engine_proc_readline(&e, line, sizeof line, -1), 1);
    assert_string_equal(line, "b");
    assert_true(e.line_ms == first); /* both came in one read, before the nap */
    engine_proc_kill(&e);
}

/* A line's time is when the engine wrote it: read a second later, it still
 * carries the moment of its writing (the kernel's stamp). */
static void test_stamp_is_writing(void **state)
{
    (void)state;
    EngineProc e;
    char err[256], line[256];
    assert_int_equal(engine_proc_start(&e, "echo bestmove a1; sleep 5", err, sizeof err), 0);
    nap_ms(1000);
    int64_t looked = engine_now_ms();
    assert_int_equal(engine_proc_readline(&e, line, sizeof line, -1), 1);
    assert_string_equal(line, "bestmove a1");
    assert_true(e.line_ms <= looked - 500);
    engine_proc_kill(&e);
}

/* Output larger than the runner's line buffer in one write: the long line is
 * cut, nothing after it is lost. */
static void test_long_write(void **state)
{
    (void)state;
    EngineProc e;
    char err[256], line[256];
    /* One write() of 30 kB (perl is part of every Debian). */
    assert_int_equal(engine_proc_start(&e,
                                       "perl -e 'syswrite STDOUT, \"info string \" . \"x\" x 30000 "
                                       ". \"\\nbestmove a1\\n\"'",
                                       err, sizeof err),
                     0);
    int64_t deadline = engine_now_ms() + 10000;
    int r, lines = 0, best = 0;
    while ((r = engine_proc_readline(&e, line, sizeof line, deadline)) == 1) {
        lines++;
        best |= strcmp(line, "bestmove a1") == 0;
    }
    assert_int_equal(r, -1); /* its end, not the deadline */
    assert_true(best);
    assert_true(lines >= 2);
    engine_proc_kill(&e);
}

/* A flood past the deadline: a bounded number of lines, then 0.  The
 * first line is awaited without hurry (on a loaded machine the child may
 * take longer than the 50 ms to start), so that the flood is under way
 * when the short deadline starts. */
static void test_flood_bounded(void **state)
{
    (void)state;
    EngineProc e;
    char err[256], line[256];
    assert_int_equal(engine_proc_start(&e, "yes info string flood", err, sizeof err), 0);
    assert_int_equal(engine_proc_readline(&e, line, sizeof line, engine_now_ms() + 10000), 1);
    int64_t deadline = engine_now_ms() + 50;
    long n = 0;
    while (engine_proc_readline(&e, line, sizeof line, deadline) == 1)
        n++;
    assert_true(n > 0);
    int64_t late = engine_now_ms() - deadline;
    assert_true(late < 2000);
    engine_proc_kill(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_late_runner),      cmocka_unit_test(test_stamp_is_arrival),
        cmocka_unit_test(test_stamp_is_writing), cmocka_unit_test(test_long_write),
        cmocka_unit_test(test_flood_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
