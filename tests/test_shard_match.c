/*
 * A sharded match end to end (docs/match.md, "Sharded matches"): a small
 * depth-limited Morris match between two copies of the engine (MORELLI_BIN)
 * is played whole with --results, and again as 4 shards run by GNU parallel,
 * then merged with --merge.  The joined results file must equal the whole
 * match's byte for byte (the same games, move for move) and the merged
 * report the whole match's report.  Then the command line's refusals: bad
 * shard specs, a merge with a shard missing or given twice, and a match that
 * cannot run leaves no results file.
 *
 * This binary is also the runner parallel starts: `test_shard_match match
 * ARGS...` is `build/match ARGS...`.  Without `parallel` on the PATH the
 * parallel test is skipped with a message (.ci/run installs it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "../bench/match/match.h"

static char self[4096];
static char dir[256];
static char args[16384]; /* the match, without --results */

/* Runs a shell command; its exit status. */
static int sh(const char *fmt, ...)
{
    char cmd[32768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buf[4][1 << 17];
    static int i;
    char *b = buf[i++ % 4];
    size_t n = fread(b, 1, sizeof buf[0] - 1, f);
    b[n] = '\0';
    fclose(f);
    return b;
}

static int setup(void **state)
{
    (void)state;
    const char *bin = getenv("MORELLI_BIN");
    char engine[4096];
    if (!bin || !realpath(bin, engine))
        snprintf(engine, sizeof engine, "%s", "build/morelli");
    snprintf(dir, sizeof dir, "/tmp/morelli-test-shards-%ld", (long)getpid());
    if (sh("rm -rf %s && mkdir -p %s", dir, dir) != 0)
        return -1;
    if (sh("%s match --make-openings 4 --variant morris --seed 5 > %s/op.txt", self, dir) != 0)
        return -1;
    snprintf(args, sizeof args,
             "--engine cmd=%s name=d1 depth=1 --engine cmd=%s name=d2 --depth 2 "
             "--variant morris --games 8 --openings %s/op.txt --each option.Hash=8 "
             "--concurrency 2",
             engine, engine, dir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    sh("rm -rf %s", dir);
    return 0;
}

/* The report: from the line naming the engines to the end. */
static const char *report_of(const char *out)
{
    const char *r = strstr(out, "\nd1 (depth 1) vs d2");
    return r ? r + 1 : out;
}

static void test_parallel_shards_equal_whole(void **state)
{
    (void)state;
    if (sh("command -v parallel > /dev/null") != 0) {
        printf("SKIPPED: GNU parallel is not installed (apt-get install parallel)\n");
        skip();
    }
    assert_int_equal(sh("%s match %s --results %s/all.txt > %s/all.out", self, args, dir, dir), 0);
    assert_int_equal(
        sh("parallel --will-cite -j 2 %s match %s --quiet --shard {}/4 --results %s/s{}.txt "
           "::: 1 2 3 4 > %s/par.out",
           self, args, dir, dir),
        0);
    assert_int_equal(sh("%s match --merge %s/s1.txt %s/s2.txt %s/s3.txt %s/s4.txt --results "
                        "%s/merged.txt > %s/merged.out",
                        self, dir, dir, dir, dir, dir, dir),
                     0);
    char path[512];
    snprintf(path, sizeof path, "%s/all.txt", dir);
    char *whole = slurp(path);
    snprintf(path, sizeof path, "%s/merged.txt", dir);
    char *merged = slurp(path);
    assert_non_null(whole);
    assert_non_null(merged);
    assert_non_null(strstr(whole, "\ngame 8 "));
    assert_string_equal(whole, merged);
    snprintf(path, sizeof path, "%s/all.out", dir);
    char *out_whole = slurp(path);
    snprintf(path, sizeof path, "%s/merged.out", dir);
    char *out_merged = slurp(path);
    assert_non_null(strstr(out_whole, "pairs 4: pentanomial"));
    assert_string_equal(report_of(out_whole), report_of(out_merged));
    /* Shards 1 and 2, and shard 3 twice: refused, naming pairs and files. */
    assert_int_equal(sh("%s match --merge %s/s1.txt %s/s2.txt 2> %s/err.txt", self, dir, dir, dir),
                     1);
    snprintf(path, sizeof path, "%s/err.txt", dir);
    char *e = slurp(path);
    if (!strstr(e, "missing 2 pairs of 4: pair 3 (shard 3/4), pair 4 (shard 4/4)"))
        fail_msg("missing shards: %s", e);
    assert_int_equal(sh("%s match --merge %s/s1.txt %s/s2.txt %s/s3.txt %s/s4.txt %s/s3.txt "
                        "--results %s/dup.txt 2> %s/err.txt",
                        self, dir, dir, dir, dir, dir, dir, dir),
                     1);
    e = slurp(path);
    if (!strstr(e, "duplicated: pair 3 (game 5) in") || !strstr(e, "s3.txt"))
        fail_msg("duplicated shard: %s", e);
    snprintf(path, sizeof path, "%s/dup.txt", dir);
    assert_int_equal(access(path, F_OK), -1);
}

static void test_command_line_refusals(void **state)
{
    (void)state;
    static const char *const bad[] = {"0/4", "5/4", "a/b", "4", "1/0"};
    char path[512];
    snprintf(path, sizeof path, "%s/none.txt", dir);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(
            sh("%s match %s --shard %s --results %s 2> %s/err.txt", self, args, bad[i], path, dir),
            2);
        char ep[512];
        snprintf(ep, sizeof ep, "%s/err.txt", dir);
        if (!strstr(slurp(ep), "--shard"))
            fail_msg("--shard %s: %s", bad[i], slurp(ep));
        assert_int_equal(access(path, F_OK), -1);
    }
    /* --shard without --results; --merge of nothing. */
    assert_int_equal(sh("%s match %s --shard 1/2 2> /dev/null", self, args), 2);
    assert_int_equal(sh("%s match --merge 2> /dev/null", self), 2);
    /* A match that cannot run (no such engine) writes no results file. */
    assert_int_equal(sh("%s match --engine cmd=/nonexistent/engine --engine cmd=/nonexistent/b "
                        "--depth 1 --results %s 2> /dev/null",
                        self, path),
                     1);
    assert_int_equal(access(path, F_OK), -1);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "match") == 0)
        return match_main(argc - 1, argv + 1);
    if (!realpath("/proc/self/exe", self))
        snprintf(self, sizeof self, "%s", argv[0]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parallel_shards_equal_whole),
        cmocka_unit_test(test_command_line_refusals),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
