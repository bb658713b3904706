/*
 * test_tables_verify.c -- `morelli tables verify` (docs/tables.md,
 * "Checking the files"), run as the engine binary (MORELLI_BIN) on the
 * standard set built here up to 4 a side: every file passes, and its
 * counts of won, drawn and lost positions equal tests/data/tables_verify.txt
 * and the counts this test makes itself from every position of the class;
 * files spoilt in the ways that file lists are found (an entry whose
 * checksums were made to match, by its children; a changed byte, by its
 * block) or refused, one line each, and arguments it does not take give
 * the usage.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "morris/morris_tb.h"
#include "tables_check.h"
#include "testdata.h"

static char set[256]; /* the standard set up to 4 a side, built once */

/* Runs `morelli tables verify ARGS` (tc_run_tables); its stdout into out,
 * the exit status. */
static int run_verify(const char *args, char *out, size_t len)
{
    char all[1200];
    snprintf(all, sizeof all, "verify %s", args);
    return tc_run_tables(all, 0, out, len);
}

static void file_of(const char *dir, int m, int o, char *buf, size_t len)
{
    snprintf(buf, len, "%s/morris-plain-fly-%dv%d.mtb", dir, m, o);
}

/* The numbers after "won", "drawn", "lost" and their longest of the line
 * of class m v o in out: w d l lw ll (-1: no longest). */
static void parse_counts(const char *out, int m, int o, long long c[5])
{
    char key[64];
    snprintf(key, sizeof key, "morris-plain-fly-%dv%d.mtb: ok, ", m, o);
    const char *s = strstr(out, key);
    if (!s)
        fail_msg("no line '%s' in:\n%s", key, out);
    s = strstr(s, "positions: ");
    assert_non_null(s);
    s += strlen("positions: ");
    const char *words[3] = {" won", " drawn", " lost"};
    for (int k = 0; k < 3; k++) {
        char *end;
        c[k] = strtoll(s, &end, 10);
        assert_true(strncmp(end, words[k], strlen(words[k])) == 0);
        s = end + strlen(words[k]);
        if (k != 1)
            c[3 + k / 2] = strncmp(s, " (longest ", 10) == 0 ? atoll(s + 10) : -1;
        s = strchr(s, k < 2 ? ',' : ';');
        assert_non_null(s);
        s += k < 2 ? 2 : 0;
    }
}

/* The next set of as many points, as a number. */
static uint32_t next_set(uint32_t s)
{
    uint32_t c = s & -s, r = s + c;
    return (((r ^ s) >> 2) / c) | r;
}

/* Counts of class m v o from every position (x to move, y): one of each
 * set of images under the 16 symmetries (the smallest pair), by the value
 * the file gives it.  c as parse_counts. */
static void count_class(int m, int o, long long c[5])
{
    memset(c, 0, 5 * sizeof *c);
    c[3] = c[4] = -1;
    for (uint32_t x = (1u << m) - 1; x < 1u << 24; x = next_set(x)) {
        uint32_t keep = 0; /* the symmetries keeping x */
        int smallest = 1;
        for (int s = 1; s < TB_NSYM && smallest; s++) {
            uint32_t sx = tb_sym(s, x);
            smallest = sx >= x;
            keep |= (uint32_t)(sx == x) << s;
        }
        if (!smallest)
            continue;
        for (uint32_t y = (1u << o) - 1; y < 1u << 24; y = next_set(y)) {
            if (x & y)
                continue;
            int least = 1;
            for (uint32_t k = keep; k && least; k &= k - 1)
                least = tb_sym(__builtin_ctz(k), y) >= y;
            if (!least)
                continue;
            int v = tb_probe(0, 1, x, y);
            assert_true(v >= 0 && v < TB_WIN_FAR);
            int kind = v == 0 ? 1 : (v - 1) % 2 ? 0 : 2;
            c[kind]++;
            if (kind != 1 && v - 1 > c[3 + kind / 2])
                c[3 + kind / 2] = v - 1;
        }
    }
}

static void test_counts(void **state)
{
    (void)state;
    static char out[1 << 16];
    assert_int_equal(run_verify(set, out, sizeof out), 0);
    tb_set_path(set);
    tb_open(0, 1);
    FILE *fp = td_open("tables_verify.txt");
    char line[512], *f[TD_MAXF];
    int classes = 0;
    while (td_next_line(fp, line, sizeof line, NULL)) {
        int nf = td_split(line, f);
        if (strcmp(f[0], "count") != 0)
            continue;
        assert_int_equal(nf, 7);
        int m = f[1][0] - '0', o = f[1][2] - '0';
        long long want[5], got[5], mine[5];
        for (int k = 0; k < 5; k++)
            want[k] = strcmp(f[2 + k], "-") == 0 ? -1 : atoll(f[2 + k]);
        parse_counts(out, m, o, got);
        count_class(m, o, mine);
        for (int k = 0; k < 5; k++) {
            if (got[k] != want[k] || mine[k] != want[k])
                fail_msg("%dv%d field %d: verify %lld, counted %lld, %s says %lld", m, o, k, got[k],
                         mine[k], "tables_verify.txt", want[k]);
        }
        classes++;
    }
    fclose(fp);
    assert_int_equal(classes, 4);
    /* smaller classes first: 3v3, 3v4, 4v3, 4v4 */
    const char *a = strstr(out, "3v3.mtb"), *b = strstr(out, "3v4.mtb"),
               *c = strstr(out, "4v3.mtb"), *d = strstr(out, "4v4.mtb");
    assert_true(a && b && c && d && a < b && b < c && c < d);
    tb_set_path("");
    tb_close_all();
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint8_t *slurp(const char *file, long *n)
{
    FILE *fp = fopen(file, "rb");
    assert_non_null(fp);
    fseek(fp, 0, SEEK_END);
    *n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)*n + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)*n, fp), (size_t)*n);
    fclose(fp);
    return b;
}

static void spill(const char *file, const uint8_t *b, long n)
{
    FILE *fp = fopen(file, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(b, 1, (size_t)n, fp), (size_t)n);
    fclose(fp);
}

/* 3v3 with its first position won in fewer plies than the longest loss
 * made a win two plies longer, every checksum written again to match. */
static void spoil_entry(const char *from, const char *to)
{
    long n;
    uint8_t *b = slurp(from, &n);
    uint32_t blocks = (uint32_t)get64(b + 52) & 0xFFFFFFFFu, x, y;
    uint8_t *pl = b + TB_HEADER_BYTES + 8 * blocks;
    uint64_t i = 0;
    for (;; i++) {
        tb_unindex(3, 3, i, &x, &y);
        if (tb_index(x, y) == i && pl[i] > 1 && pl[i] < 20 && (pl[i] - 1) % 2)
            break;
    }
    pl[i] += 2;
    uint64_t bl = i >> TB_BLOCK_LOG, at = bl << TB_BLOCK_LOG, size = (uint64_t)1 << TB_BLOCK_LOG;
    uint64_t payload = get64(b + 32);
    size = payload - at < size ? payload - at : size;
    put64(b + TB_HEADER_BYTES + 8 * bl, tb_checksum(pl + at, (size_t)size));
    put64(b + 40, tb_checksum(pl, (size_t)payload));
    put64(b + 56, tb_checksum(b, 56));
    spill(to, b, n);
    free(b);
}

static int file_entry(void *ctx, uint64_t i)
{
    const int *mo = ctx;
    uint32_t x, y;
    tb_unindex(mo[0], mo[1], i, &x, &y);
    return tb_probe(0, 1, x, y);
}

/* 4v4 in encoding 3 (7.3 MB) as one block of 8 MB, larger than verify's
 * reads; bad: a byte of its second half changed after the checksums. */
static void one_block(const char *dir, char *file, size_t len, int bad)
{
    static const int mo[2] = {4, 4};
    char why[256];
    tb_set_path(set);
    tb_open(0, 1);
    assert_int_equal(
        tb_write(dir, 0, 1, 4, 4, TB_ENC_DTM16, file_entry, (void *)mo, why, sizeof why), 0);
    tb_set_path("");
    tb_close_all();
    file_of(dir, 4, 4, file, len);
    long n;
    uint8_t *w = slurp(file, &n);
    uint32_t blocks = (uint32_t)get64(w + 52) & 0xFFFFFFFFu;
    uint64_t payload = get64(w + 32);
    assert_true(payload > (5u << 20) && payload < (8u << 20));
    uint8_t *pl = w + TB_HEADER_BYTES + 8 * blocks, *out = malloc(payload + 80);
    assert_non_null(out);
    memcpy(out, w, TB_HEADER_BYTES);
    out[23] = 23;
    put64(out + 52, 1);
    put64(out + 56, tb_checksum(out, 56));
    put64(out + TB_HEADER_BYTES, tb_checksum(pl, (size_t)payload));
    memcpy(out + TB_HEADER_BYTES + 8, pl, (size_t)payload);
    out[TB_HEADER_BYTES + 8 + payload - 1000] ^= (uint8_t)(bad ? 2 : 0);
    spill(file, out, (long)(TB_HEADER_BYTES + 8 + payload));
    free(out);
    free(w);
}

/* The file of case c in dir (its name into file). */
static void make_case(const char *c, const char *dir, char *file, size_t len)
{
    char good[512], why[256];
    uint64_t rng = 0x1234567;
    file_of(dir, 3, 3, file, len);
    file_of(set, 3, 3, good, sizeof good);
    long n;
    uint8_t *b = slurp(good, &n);
    if (strcmp(c, "entry") == 0) {
        spoil_entry(good, file);
    } else if (strcmp(c, "byte") == 0) {
        b[n - 210140 + 2 * 65536 + 17] ^= 0x40;
        spill(file, b, n);
    } else if (strcmp(c, "lonely") == 0) {
        file_of(set, 3, 4, good, sizeof good);
        free(b);
        b = slurp(good, &n);
        file_of(dir, 3, 4, file, len);
        spill(file, b, n);
    } else if (strncmp(c, "oneblock", 8) == 0) {
        one_block(dir, file, len, c[8] != 0);
    } else if (strcmp(c, "wdl") == 0 || strcmp(c, "wide") == 0) {
        static const int mo[2] = {3, 3};
        tb_set_path(set);
        tb_open(0, 1);
        assert_int_equal(tb_write(dir, 0, 1, 3, 3, c[1] == 'd' ? TB_ENC_WDL2 : TB_ENC_DTM16,
                                  file_entry, (void *)mo, why, sizeof why),
                         0);
        tb_set_path("");
        tb_close_all();
    } else if (strncmp(c, "version1", 8) == 0) { /* no block table, the payload at 64 */
        uint32_t blocks = (uint32_t)get64(b + 52) & 0xFFFFFFFFu;
        b[n - 5000] ^= c[8] ? 0x08 : 0; /* version1bad: a payload byte changed */
        b[8] = 1, b[23] = 0, b[52] = b[53] = b[54] = b[55] = 0;
        put64(b + 56, tb_checksum(b, 56));
        memmove(b + TB_HEADER_BYTES, b + TB_HEADER_BYTES + 8 * blocks,
                (size_t)n - TB_HEADER_BYTES - 8 * blocks);
        spill(file, b, n - 8 * blocks);
    } else if (strcmp(c, "garbage") == 0 || strcmp(c, "magic") == 0) {
        for (long k = 0; k < 5000; k++)
            b[k] = (uint8_t)((rng = rng * 6364136223846793005ull + 1442695040888963407ull) >> 56);
        if (c[0] == 'm')
            memcpy(b, TB_MAGIC, 8);
        spill(file, b, 5000);
    } else if (strcmp(c, "truncated") == 0) {
        file_of(set, 4, 4, good, sizeof good);
        free(b);
        b = slurp(good, &n);
        file_of(dir, 4, 4, file, len);
        spill(file, b, 100000);
    } else {
        snprintf(file, len, "%s/none.mtb", dir);
    }
    free(b);
}

/* tests/data/tables_verify.txt's cases, each alone in a directory of its
 * own, checked whole (--samples all). */
static void test_cases(void **state)
{
    (void)state;
    FILE *fp = td_open("tables_verify.txt");
    char line[512], *f[TD_MAXF], dir[256], file[512], args[1100];
    static char out[1 << 16];
    int cases = 0;
    while (td_next_line(fp, line, sizeof line, NULL)) {
        if (td_split(line, f) != 5 || strcmp(f[0], "case") != 0)
            continue;
        tc_tempdir(dir, sizeof dir);
        make_case(f[1], dir, file, sizeof file);
        snprintf(args, sizeof args, "--samples %s --quiet '%s'", f[2], file);
        int rc = run_verify(args, out, sizeof out);
        if (rc != atoi(f[3]) || !strstr(out, f[4]))
            fail_msg("case %s: exit status %d (want %s), output:\n%s(want '%s')", f[1], rc, f[3],
                     out, f[4]);
        if (strcmp(f[1], "entry") == 0) /* the positions shown: FEN, file, children */
            assert_non_null(strstr(out, " w 0 0 0: entry "));
        if (strcmp(f[1], "wdl") == 0) /* the counts of 3v3 */
            assert_non_null(strstr(out, "140621 won, 269 drawn, 28736 lost (no distances)"));
        if (strcmp(f[1], "wide") == 0)
            assert_non_null(strstr(out, "140621 won (longest 25 plies)"));
        int lines = 0;
        for (const char *q = out; (q = strchr(q, '\n')); q++)
            lines++;
        if (strcmp(f[1], "entry") != 0) /* one line a file */
            assert_int_equal(lines, 1);
        tc_rmdir(dir);
        cases++;
    }
    fclose(fp);
    assert_int_equal(cases, 15);
}

/* Arguments it does not take: the usage, exit status 2. */
static void test_usage(void **state)
{
    (void)state;
    static char out[4096];
    const char *bad[] = {"",
                         "--samples",
                         "--samples x f.mtb",
                         "--samples -1 f.mtb",
                         "--seed f.mtb",
                         "--bogus f.mtb"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++)
        if (run_verify(bad[k], out, sizeof out) != 2 || out[0])
            fail_msg("'%s': not the usage", bad[k]);
}

/* Random files of every size up to 200 bytes, and a good header followed
 * by random bytes: refused, one line each, never a crash. */
static void test_fuzz(void **state)
{
    (void)state;
    char dir[256], file[512], good[512];
    static char out[1 << 16];
    tc_tempdir(dir, sizeof dir);
    file_of(set, 3, 3, good, sizeof good);
    long n;
    uint8_t *b = slurp(good, &n);
    uint64_t rng = 99;
    for (int len = 0; len <= 200; len += 7) {
        uint8_t junk[200];
        for (int k = 0; k < len; k++)
            junk[k] = (uint8_t)((rng = rng * 6364136223846793005ull + 1) >> 56);
        if (len > 8 && len % 2)
            memcpy(junk, b, len < TB_HEADER_BYTES ? (size_t)len : TB_HEADER_BYTES);
        snprintf(file, sizeof file, "%s/junk%03d.mtb", dir, len);
        spill(file, junk, len);
    }
    for (long k = TB_HEADER_BYTES; k < n; k++) /* a whole header, random blocks and payload */
        b[k] = (uint8_t)((rng = rng * 6364136223846793005ull + 1) >> 56);
    file_of(dir, 3, 3, file, sizeof file);
    spill(file, b, n);
    free(b);
    assert_int_equal(run_verify(dir, out, sizeof out), 1);
    int lines = 0;
    for (const char *s = out; (s = strstr(s, ": FAILED, ")); s++)
        lines++;
    assert_int_equal(lines, 30);
    assert_null(strstr(out, ": ok, "));
    assert_non_null(strstr(out, "morris-plain-fly-3v3.mtb: FAILED, 3v3"));
    tc_rmdir(dir);
}

int main(void)
{
    tb_set_path(""); /* never the user's files */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_usage),
        cmocka_unit_test(test_fuzz),
    };
    const char *t = getenv("TMPDIR");
    snprintf(set, sizeof set, "%s/morelli-tables-XXXXXX", t && *t ? t : "/tmp");
    TbBuildOpts o = {.dir = set,
                     .upto = 4,
                     .threads = 2,
                     .encoding = TB_ENC_DTM8,
                     .diag_mask = 1,
                     .fly_mask = 2,
                     .quiet = 1};
    if (!mkdtemp(set) || tb_build(&o) != 0) {
        fprintf(stderr, "test_tables_verify: cannot build the set in %s\n", set);
        return 1;
    }
    int rc = cmocka_run_group_tests_name("tables_verify", tests, NULL, NULL);
    tc_rmdir(set);
    return rc;
}
