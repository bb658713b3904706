/*
 * Sharded matches, the file side (bench/match/match_shard.c): shard specs
 * (tests/data/shard_specs.txt), the split of the pairs (disjoint, complete),
 * results files written and read back, and every kind of bad file (cut
 * short anywhere, another version, edited by hand, a game of another
 * shard) and bad set of files (other matches, duplicated and missing
 * pairs), each refused with a message naming it.  The end-to-end check (a
 * match in shards run by GNU parallel, merged) is tests/test_shard_match.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../bench/match/match_shard.h"
#include "testdata.h"

static const char *const terms[] = {"rules", "repetition", "move rule", "time"};
#define NTERM 4

static void test_specs(void **state)
{
    (void)state;
    FILE *f = td_open("shard_specs.txt");
    char line[256], *fl[TD_MAXF];
    int nf, rows = 0;
    while ((nf = td_next_record(f, line, sizeof line, fl)) > 0) {
        int k = -1, n = -1;
        char err[256] = "";
        int rc = shard_parse_spec(nf > 1 ? fl[1] : "", &k, &n, err, sizeof err);
        if (strcmp(fl[0], "ok") == 0) {
            if (rc != 0 || k != atoi(fl[2]) || n != atoi(fl[3]))
                fail_msg("'%s': rc %d k %d n %d (%s)", fl[1], rc, k, n, err);
        } else {
            if (rc == 0 || !strstr(err, fl[2]))
                fail_msg("'%s' accepted or wrong message: %s", fl[1], err);
        }
        rows++;
    }
    fclose(f);
    assert_true(rows >= 10);
}

static void set_or_unset(const char *name, const char *value)
{
    if (strcmp(value, "-") == 0)
        unsetenv(name);
    else
        setenv(name, value, 1);
}

/* `--shard auto/N` from the launchers' variables and {K} in --results
 * (tests/data/shard_auto.txt). */
static void test_auto_and_results_path(void **state)
{
    (void)state;
    FILE *f = td_open("shard_auto.txt");
    char line[512], *fl[TD_MAXF];
    int nf, rows = 0;
    while ((nf = td_next_record(f, line, sizeof line, fl)) > 0) {
        char out[256] = "", err[256] = "";
        const char *want;
        int rc;
        if (strcmp(fl[0], "auto") == 0 && nf == 6) {
            set_or_unset("SHARD", fl[1]);
            set_or_unset("SLURM_ARRAY_TASK_ID", fl[2]);
            set_or_unset("JOB_COMPLETION_INDEX", fl[3]);
            rc = shard_auto_spec(fl[4], out, sizeof out, err, sizeof err);
            want = fl[5];
        } else if (strcmp(fl[0], "results") == 0 && nf == 4) {
            snprintf(out, sizeof out, "%s", fl[1]);
            rc = shard_results_path(out, sizeof out, atoi(fl[2]), err, sizeof err);
            want = fl[3];
        } else {
            fail_msg("bad row '%s' (%d fields)", fl[0], nf);
            break;
        }
        if (strncmp(want, "bad: ", 5) == 0) {
            if (rc == 0 || !strstr(err, want + 5))
                fail_msg("'%s' accepted or wrong message: '%s'", fl[nf - 2], err);
        } else if (rc != 0 || strcmp(out, want) != 0) {
            fail_msg("'%s': rc %d, '%s' (%s), want '%s'", fl[nf - 2], rc, out, err, want);
        }
        rows++;
    }
    fclose(f);
    unsetenv("SHARD");
    unsetenv("SLURM_ARRAY_TASK_ID");
    unsetenv("JOB_COMPLETION_INDEX");
    assert_true(rows >= 10);
}

/* --merge DIR: a folder's shard-*.txt files in shard order (shard-2 before
 * shard-10), other names left out, files named as they are; a folder with
 * none refused. */
static void test_expand(void **state)
{
    (void)state;
    char dir[] = "/tmp/morelli-expand-XXXXXX", path[256], err[256] = "";
    assert_non_null(mkdtemp(dir));
    const char *names[] = {"shard-10.txt", "shard-2.txt", "notes.txt", "shard-1.log"};
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fclose(f);
    }
    char *args[] = {"first.txt", dir, "last.txt"}, **paths;
    int n;
    assert_int_equal(shard_expand(args, 3, &paths, &n, err, sizeof err), 0);
    assert_int_equal(n, 4);
    assert_string_equal(paths[0], "first.txt");
    snprintf(path, sizeof path, "%s/shard-2.txt", dir);
    assert_string_equal(paths[1], path);
    snprintf(path, sizeof path, "%s/shard-10.txt", dir);
    assert_string_equal(paths[2], path);
    assert_string_equal(paths[3], "last.txt");
    shard_free_paths(paths, n);
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    char *empty[] = {dir};
    assert_int_equal(shard_expand(empty, 1, &paths, &n, err, sizeof err), -1);
    assert_non_null(strstr(err, "no results files"));
    rmdir(dir);
}

/* Every pair is played by exactly one shard, and shards differ by at most
 * one pair. */
static void test_split(void **state)
{
    (void)state;
    for (int n = 1; n <= 9; n++) {
        int per[10] = {0};
        for (int p = 0; p < 101; p++) {
            int owners = 0;
            for (int k = 1; k <= n; k++)
                if (shard_owns(k, n, p)) {
                    owners++;
                    per[k]++;
                }
            assert_int_equal(owners, 1);
        }
        for (int k = 2; k <= n; k++)
            assert_true(abs(per[k] - per[1]) <= 1);
    }
    assert_true(shard_owns(0, 0, 7)); /* no sharding: every pair */
}

/* A results file of shard k of n of a 10-game match, games of its pairs. */
static void make_file(ShardFile *f, const char *ident, int k, int n)
{
    memset(f, 0, sizeof *f);
    f->ident = strdup(ident);
    f->k = k;
    f->n = n;
    f->games = 10;
    for (int g = 10; g >= 1; g--) { /* written back in order */
        if (!shard_owns(k, n, (g - 1) / 2))
            continue;
        char moves[64];
        snprintf(moves, sizeof moves, "a%d b%d c%d", g, g + 1, g + 2);
        ShardGame sg = {.number = g,
                        .p1 = (g - 1) % 2,
                        .result = g % 3 == 0 ? RESULT_DRAW : RESULT_P1_WIN,
                        .term = g % NTERM,
                        .forfeit = g == 4 ? 1 : -1,
                        .disagree = g == 5,
                        .nplies = 3,
                        .moves = moves};
        assert_int_equal(shard_add(f, &sg), 0);
    }
}

static const char *ident_a =
    "variant morelli\nengine1.name a\nengine2.name b\ntc depth 2\ngames 10\nsprt none\n";
static const char *ident_b =
    "variant morelli\nengine1.name a\nengine2.name b\ntc depth 3\ngames 10\nsprt none\n";

static char *tmp_path(const char *name)
{
    static char buf[8][256];
    static int i;
    char *p = buf[i++ % 8];
    snprintf(p, 256, "/tmp/morelli-test-shard-%ld-%s", (long)getpid(), name);
    return p;
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char buf[1 << 16];
    *len = fread(buf, 1, sizeof buf - 1, f);
    buf[*len] = '\0';
    fclose(f);
    return buf;
}

static void write_bytes(const char *path, const char *s, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(s, 1, n, f), n);
    fclose(f);
}

/* shard_read() must fail on path, with a message holding want. */
static void refused(const char *path, const char *want)
{
    ShardFile r;
    char err[512] = "";
    if (shard_read(path, &r, terms, NTERM, err, sizeof err) == 0) {
        shard_free(&r);
        fail_msg("%s: accepted, wanted '%s'", path, want);
    }
    if (!strstr(err, want) || !strstr(err, path))
        fail_msg("%s: message '%s', wanted '%s' and the file name", path, err, want);
}

static void test_roundtrip_and_bad_files(void **state)
{
    (void)state;
    ShardFile f, r;
    char err[512];
    make_file(&f, ident_a, 2, 3);
    const char *path = tmp_path("rt");
    assert_int_equal(shard_write(path, &f, terms, NTERM, err, sizeof err), 0);
    assert_int_equal(access(tmp_path("rt.tmp"), F_OK), -1);
    assert_int_equal(shard_read(path, &r, terms, NTERM, err, sizeof err), 0);
    assert_string_equal(r.ident, ident_a);
    assert_int_equal(r.k, 2);
    assert_int_equal(r.n, 3);
    assert_int_equal(r.ngames, f.ngames);
    for (int i = 0; i < r.ngames; i++) {
        const ShardGame *a = &f.game[i], *b = &r.game[i];
        assert_int_equal(a->number, b->number);
        assert_int_equal(a->p1, b->p1);
        assert_int_equal(a->result, b->result);
        assert_int_equal(a->term, b->term);
        assert_int_equal(a->forfeit, b->forfeit);
        assert_int_equal(a->disagree, b->disagree);
        assert_string_equal(a->moves, b->moves);
    }
    shard_free(&r);
    shard_free(&f);

    size_t len;
    char *good = read_all(path, &len);
    char *copy = malloc(len + 64);
    assert_non_null(copy);
    /* Cut short anywhere: never accepted. */
    const char *cut = tmp_path("cut");
    for (size_t n = 0; n < len; n++) {
        write_bytes(cut, good, n);
        ShardFile x;
        if (shard_read(cut, &x, terms, NTERM, err, sizeof err) == 0)
            fail_msg("cut after %zu of %zu bytes: accepted", n, len);
    }
    write_bytes(cut, good, len - 1);
    refused(cut, "truncated");
    /* Another version. */
    memcpy(copy, good, len);
    char *v = strchr(copy, '\n') - 1;
    *v = '2';
    write_bytes(cut, copy, len);
    refused(cut, "version 2");
    /* Hand-edited: a move, a result, the identity. */
    memcpy(copy, good, len);
    char *m = strstr(copy, "a4 b5");
    assert_non_null(m);
    m[1] = '5';
    write_bytes(cut, copy, len);
    refused(cut, "checksum");
    memcpy(copy, good, len);
    m = strstr(copy, "depth 2");
    m[6] = '9';
    write_bytes(cut, copy, len);
    refused(cut, "checksum");
    write_bytes(cut, "hello\n", 6);
    refused(cut, "not a match results file");
    refused(tmp_path("absent"), "cannot open");
    unlink(cut);
    unlink(path);
    free(copy);
}

static void test_join(void **state)
{
    (void)state;
    ShardFile f[4], all;
    char err[1024];
    for (int k = 1; k <= 3; k++)
        make_file(&f[k - 1], ident_a, k, 3);
    assert_int_equal(shard_join(f, 3, &all, err, sizeof err), 0);
    assert_int_equal(all.ngames, 10);
    for (int i = 0; i < 10; i++)
        assert_int_equal(all.game[i].number, i + 1);
    shard_free(&all);
    /* Shard 2 missing: its pairs 2 and 5 are named. */
    ShardFile two[2] = {f[0], f[2]};
    assert_int_equal(shard_join(two, 2, &all, err, sizeof err), -1);
    if (!strstr(err, "missing 2 pairs") || !strstr(err, "pair 2 (shard 2/3)") ||
        !strstr(err, "pair 5 (shard 2/3)"))
        fail_msg("missing: %s", err);
    /* Shard 1 twice. */
    f[0].path = strdup("one.txt");
    f[1].path = strdup("two.txt");
    f[2].path = strdup("three.txt");
    ShardFile dup[4] = {f[0], f[1], f[2], f[0]};
    assert_int_equal(shard_join(dup, 4, &all, err, sizeof err), -1);
    if (!strstr(err, "duplicated") || !strstr(err, "pair 1 (game 1) in one.txt and one.txt"))
        fail_msg("duplicated: %s", err);
    /* Another match. */
    make_file(&f[3], ident_b, 2, 3);
    f[3].path = strdup("other.txt");
    ShardFile other[3] = {f[0], f[3], f[2]};
    assert_int_equal(shard_join(other, 3, &all, err, sizeof err), -1);
    if (!strstr(err, "one.txt and other.txt are not shards of one match") ||
        !strstr(err, "'tc depth 2' against 'tc depth 3'"))
        fail_msg("other match: %s", err);
    /* Another split. */
    ShardFile s4;
    make_file(&s4, ident_a, 2, 4);
    s4.path = strdup("four.txt");
    ShardFile split[2] = {f[0], s4};
    assert_int_equal(shard_join(split, 2, &all, err, sizeof err), -1);
    if (!strstr(err, "shard 1/3") || !strstr(err, "shard 2/4"))
        fail_msg("other split: %s", err);
    shard_free(&s4);
    for (int i = 0; i < 4; i++)
        shard_free(&f[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_specs),
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_auto_and_results_path),
        cmocka_unit_test(test_expand),
        cmocka_unit_test(test_roundtrip_and_bad_files),
        cmocka_unit_test(test_join),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
