/*
 * Engine processes on pipes (bench/match/engine_proc.c): lines in order, a last
 * line without newline, endless lines cut, EOF, deadlines, writes to a dead
 * process, and killing a process group whose children ignore their input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "../bench/match/engine_proc.h"

static void test_lines_and_eof(void **state)
{
    (void)state;
    EngineProc e;
    char err[256], line[64];
    assert_int_equal(engine_proc_start(&e, "printf 'first\\r\\nsecond\\nlast'", err, sizeof err),
                     0);
    int64_t deadline = engine_now_ms() + 10000;
    assert_int_equal(engine_proc_readline(&e, line, sizeof line, deadline), 1);
    assert_string_equal(line, "first");
    assert_int_equal(engine_proc_readline(&e, line, sizeof line, deadline), 1);
    assert_string_equal(line, "second");
    assert_int_equal(engine_proc_readline(&e, line, sizeof line, deadline), 1);
    assert_string_equal(line, "last");
    assert_int_equal(engine_proc_readline(&e, line, sizeof line, deadline), -1);
    assert_false(engine_proc_running(&e));
    engine_proc_kill(&e);
    engine_proc_kill(&e); /* twice is harmless */
}

static void test_long_line_cut(void **state)
{
    (void)state;
    EngineProc e;
    char err[256], line[100];
    /* 20000 'x' then "ok": the caller's buffer and the process buffer both
     * cut the line, and the reader is not stuck. */
    assert_int_equal(engine_proc_start(&e, "head -c 20000 /dev/zero | tr '\\0' x; echo; echo ok",
                                       err, sizeof err),
                     0);
    int64_t deadline = engine_now_ms() + 10000;
    int r, n = 0, ok = 0;
    while ((r = engine_proc_readline(&e, line, sizeof line, deadline)) == 1) {
        assert_true(strlen(line) < sizeof line);
        ok |= strcmp(line, "ok") == 0;
        n++;
    }
    assert_int_equal(r, -1);
    assert_true(ok);
    assert_true(n >= 2);
    engine_proc_kill(&e);
}

static void test_echo_and_deadline(void **state)
{
    (void)state;
    EngineProc e;
    char err[256], line[64];
    assert_int_equal(engine_proc_start(&e, "cat", err, sizeof err), 0);
    assert_int_equal(engine_proc_send(&e, "hello engine"), 0);
    assert_int_equal(engine_proc_readline(&e, line, sizeof line, engine_now_ms() + 10000), 1);
    assert_string_equal(line, "hello engine");
    /* Nothing more comes: the deadline returns 0. */
    assert_int_equal(engine_proc_readline(&e, line, sizeof line, engine_now_ms() + 100), 0);
    engine_proc_kill(&e);
    assert_int_equal(engine_proc_send(&e, "anyone?"), -1);
}

/* Non-zero while process pid exists and is not a zombie. */
static int alive(long pid)
{
    char path[64], stat[256];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[n] = '\0';
    const char *close_paren = strrchr(stat, ')');
    return close_paren && close_paren[1] == ' ' && close_paren[2] != 'Z' && close_paren[2] != 'X';
}

static void test_kill_group(void **state)
{
    (void)state;
    EngineProc e;
    char err[256], line[64];
    /* A shell whose child sleeps: killing the engine kills the child too. */
    assert_int_equal(engine_proc_start(&e, "sh -c 'sleep 60 & echo $!; wait'", err, sizeof err), 0);
    assert_int_equal(engine_proc_readline(&e, line, sizeof line, engine_now_ms() + 10000), 1);
    long child = atol(line);
    assert_true(child > 0);
    assert_true(alive(child));
    engine_proc_kill(&e);
    assert_int_equal(e.pid, 0);
    for (int i = 0; i < 500 && alive(child); i++) {
        struct timespec ts = {0, 10 * 1000000};
        nanosleep(&ts, NULL);
    }
    assert_false(alive(child));
    /* quit to an engine that exits by itself */
    assert_int_equal(engine_proc_start(&e, "sh -c 'read x; exit 0'", err, sizeof err), 0);
    engine_proc_quit(&e, 5000);
    assert_int_equal(e.pid, 0);
    /* no command */
    assert_int_equal(engine_proc_start(&e, "", err, sizeof err), -1);
    assert_true(strlen(err) > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines_and_eof),
        cmocka_unit_test(test_long_line_cut),
        cmocka_unit_test(test_echo_and_deadline),
        cmocka_unit_test(test_kill_group),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
