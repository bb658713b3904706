/*
 * The dispatcher in-process: every line of tests/data/protocol_bad.lines
 * marked "bad" must give exactly one "info string error: ..." line and
 * leave the engine exactly as it was (the `d` dump, which holds the game,
 * every game option, the FEN, the key and the history length, is the same
 * before and after); "good" lines must succeed without an error line.
 *
 *   setup <command>   run, must succeed (builds the state the next lines see)
 *   good <command>    must succeed, no error line
 *   bad <command>     one error line, nothing changed
 *   searched <command>  a go: one error line first, then the search and
 *                     its one bestmove line, last; nothing else changed
 * Commands take C escapes (\xHH \n \t \r \0 \\) so binary bytes can be written.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "testproc.h"
#include "ugi.h"

typedef struct Capture {
    FILE *f;
    char *buf;
    size_t size;
    size_t seen;
} Capture;

/* Output since the last call (NUL-terminated copy; caller frees). */
static char *take(Capture *c)
{
    fflush(c->f);
    size_t n = c->size - c->seen;
    char *out = malloc(n + 1);
    assert_non_null(out);
    memcpy(out, c->buf + c->seen, n);
    out[n] = '\0';
    c->seen = c->size;
    return out;
}

static char *dump(Session *e, Capture *c)
{
    free(take(c));
    assert_int_equal(session_command(e, "d"), UGI_OK);
    return take(c);
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static void test_bad_lines_change_nothing(void **state)
{
    (void)state;
    const char *path = "tests/data/protocol_bad.lines";
    FILE *in = fopen(path, "r");
    assert_non_null(in);
    Capture c = {0};
    c.f = open_memstream(&c.buf, &c.size);
    assert_non_null(c.f);
    Session *e = session_new(c.f, NULL);
    assert_non_null(e);
    char line[8192], raw[8192];
    int lineno = 0, bads = 0;
    char *arg;
    while (tp_next_directive(in, line, sizeof line, &lineno, &arg)) {
        size_t len = tp_unescape(arg, raw);
        if (strncmp(line, "setup ", 6) == 0 || strncmp(line, "good ", 5) == 0) {
            free(take(&c));
            int rc = session_input(e, raw, len);
            session_wait(e);
            char *out = take(&c);
            if (rc != UGI_OK || strstr(out, "info string error"))
                print_error("%s:%d: '%s' failed: %s\n", path, lineno, arg, out);
            assert_int_equal(rc, UGI_OK);
            assert_null(strstr(out, "info string error"));
            free(out);
        } else if (strncmp(line, "bad ", 4) == 0) {
            char *before = dump(e, &c);
            int rc = session_input(e, raw, len);
            char *out = take(&c);
            char *after = dump(e, &c);
            int ok = rc == UGI_ERROR && count_lines(out) == 1 &&
                     strncmp(out, "info string error: ", 19) == 0 && strcmp(before, after) == 0;
            if (!ok)
                print_error("%s:%d: '%s': rc %d, output '%s', state %s\n", path, lineno, arg, rc,
                            out, strcmp(before, after) == 0 ? "kept" : "CHANGED");
            assert_true(ok);
            free(before);
            free(out);
            free(after);
            bads++;
        } else if (strncmp(line, "searched ", 9) == 0) {
            char *before = dump(e, &c);
            int rc = session_input(e, raw, len);
            session_wait(e);
            char *out = take(&c);
            char *after = dump(e, &c);
            const char *last = out;
            for (const char *p = out; *p && p[1]; p++)
                if (*p == '\n')
                    last = p + 1;
            int errs = 0, moves = 0;
            for (const char *p = out; (p = strstr(p, "info string error: ")); p++)
                errs++;
            for (const char *p = out; (p = strstr(p, "bestmove ")); p++)
                moves++;
            int ok = rc == UGI_ERROR && strncmp(out, "info string error: go: ", 23) == 0 &&
                     errs == 1 && moves == 1 && strncmp(last, "bestmove ", 9) == 0 &&
                     strcmp(before, after) == 0;
            if (!ok)
                print_error("%s:%d: '%s': rc %d, output '%s', state %s\n", path, lineno, arg, rc,
                            out, strcmp(before, after) == 0 ? "kept" : "CHANGED");
            assert_true(ok);
            free(before);
            free(out);
            free(after);
        } else {
            fail_msg("%s:%d: unknown directive", path, lineno);
        }
    }
    assert_true(bads > 0);
    session_free(e);
    fclose(c.f);
    free(c.buf);
    fclose(in);
}

/* session_input() with a line of exactly UGI_LINE_MAX + 1 bytes, and one of
 * UGI_LINE_MAX: the first is refused as too long, the second read (and
 * refused as an unknown command). */
static void test_line_limit(void **state)
{
    (void)state;
    Capture c = {0};
    c.f = open_memstream(&c.buf, &c.size);
    Session *e = session_new(c.f, NULL);
    assert_non_null(e);
    char *big = malloc((size_t)UGI_LINE_MAX + 2);
    assert_non_null(big);
    memset(big, 'q', (size_t)UGI_LINE_MAX + 1);
    assert_int_equal(session_input(e, big, (size_t)UGI_LINE_MAX + 1), UGI_ERROR);
    char *out = take(&c);
    assert_non_null(strstr(out, "longer than"));
    free(out);
    assert_int_equal(session_input(e, big, (size_t)UGI_LINE_MAX), UGI_ERROR);
    out = take(&c);
    assert_non_null(strstr(out, "unknown command"));
    assert_int_equal(count_lines(out), 1);
    free(out);
    free(big);
    assert_int_equal(session_errors(e), 2);
    session_free(e);
    fclose(c.f);
    free(c.buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_lines_change_nothing),
        cmocka_unit_test(test_line_limit),
    };
    return cmocka_run_group_tests_name("protocol_unit", tests, NULL, NULL);
}
