/*
 * test_tables.c -- the Morris table files (docs/tables.md), the quick part:
 * the 16 symmetries keep the boards' lines; the index is the same for every
 * image of a position and inverts; files built here of 3 against 3 agree
 * with the tables built in memory on every position and with the values of
 * their children; bad files (tests/data/tables_bad.txt) are refused with one
 * notice naming the file and the reason; a writer killed (kill -9) in the
 * middle leaves no file that is read.  The larger classes:
 * tests/test_tables_long.c.
 */
#include <setjmp.h>
#include <signal.h>
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

#include "morris/morris.h"
#include "morris/morris_tb.h"
#include "notice.h"
#include "tables_check.h"
#include "testdata.h"

static char shared[256]; /* 3v3 of both boards without flying, built once */
static char notes[8][512];
static int nnotes;

static void sink(void *ctx, const char *text)
{
    (void)ctx;
    if (nnotes < 8)
        snprintf(notes[nnotes], sizeof notes[0], "%s", text);
    nnotes++;
}

static void test_symmetries(void **state)
{
    (void)state;
    assert_int_equal(tb_sym_check(), 1);
    for (int s = 0; s < TB_NSYM; s++) {
        assert_int_equal(__builtin_popcount(tb_sym(s, 1)), 1);
        for (int t = 0; t < s; t++) { /* 16 different maps */
            int same = 1;
            for (int p = 0; p < 24; p++)
                same &= tb_sym(s, 1u << p) == tb_sym(t, 1u << p);
            assert_false(same);
        }
    }
}

static void test_index(void **state)
{
    (void)state;
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    for (int k = 0; k < 20000; k++) {
        int m = 3 + (int)(rng % 7), o = 3 + (int)((rng >> 8) % 7);
        uint32_t x = tc_random_set(&rng, m, 0), y = tc_random_set(&rng, o, x);
        uint64_t i = tb_index(x, y);
        assert_true(i < tb_entries(m, o));
        for (int s = 1; s < TB_NSYM; s++)
            assert_true(tb_index(tb_sym(s, x), tb_sym(s, y)) == i);
        uint32_t x2, y2;
        tb_unindex(m, o, i, &x2, &y2);
        assert_int_equal(__builtin_popcount(x2), m);
        assert_int_equal(__builtin_popcount(y2), o);
        assert_int_equal(x2 & y2, 0);
        assert_true(tb_index(x2, y2) == i);
    }
    /* about a sixteenth of the positions (more of the small sets are symmetric) */
    uint64_t all = 2024ull * 1330, sym = tb_entries(3, 3);
    assert_true(sym * 16 >= all && sym * 12 < all);
}

/* The files of 3 against 3 built here against the tables built in memory,
 * on every position; and the values against the children. */
static void test_agree_3v3(void **state)
{
    (void)state;
    for (int d = 0; d < 2; d++) {
        int f = 0; /* flying: tests/test_tables_long.c; the files: main() */
        assert_int_equal(morris_egtb_build(d, f, 3, NULL, NULL), 0);
        long n = 0;
        for (uint32_t x = 7; x <= 0xFFFFFF; x++) {
            if (__builtin_popcount(x) != 3)
                continue;
            for (uint32_t yc = 0; yc < 24; yc++)
                for (uint32_t ya = yc + 1; ya < 24; ya++)
                    for (uint32_t yb = ya + 1; yb < 24; yb++) {
                        uint32_t y = 1u << yc | 1u << ya | 1u << yb;
                        if (x & y)
                            continue;
                        int want = morris_egtb_memory_byte(d, f, x, y);
                        assert_true(want >= 0);
                        if (tb_probe(d, f, x, y) != want)
                            fail_msg("3v3 d=%d f=%d x=%06x y=%06x: file %d, memory %d", d, f, x, y,
                                     tb_probe(d, f, x, y), want);
                        n++;
                    }
        }
        assert_int_equal(n, 2024 * 1330);
        GameOptions o;
        tc_options(&o, d, f);
        uint64_t rng = 12345 + (uint64_t)d;
        for (int k = 0; k < 300; k++) {
            uint32_t x = tc_random_set(&rng, 3, 0), y = tc_random_set(&rng, 3, x);
            assert_int_equal(tc_probe(&o, x, y), tc_from_children(&o, x, y));
        }
    }
}

static int file_entry(void *ctx, uint64_t i)
{
    (void)ctx;
    uint32_t x, y;
    tb_unindex(3, 3, i, &x, &y);
    return tb_probe(0, 0, x, y);
}

/* A file of two bits an entry, written from the values of a file of a byte
 * an entry: the same wins, draws and losses; a quarter of the bytes. */
static void test_wdl_encoding(void **state)
{
    (void)state;
    char wdl[256], why[256], file[512];
    tc_tempdir(wdl, sizeof wdl);
    tb_set_path(shared);
    tb_open(0, 0);
    assert_int_equal(tb_write(wdl, 0, 0, 3, 3, TB_ENC_WDL2, file_entry, NULL, why, sizeof why), 0);
    uint64_t n = tb_entries(3, 3);
    int *dtm = malloc(n * sizeof *dtm);
    assert_non_null(dtm);
    for (uint64_t i = 0; i < n; i++)
        dtm[i] = file_entry(NULL, i);
    snprintf(file, sizeof file, "%s/morris-plain-nofly-3v3.mtb", wdl);
    struct stat st;
    assert_int_equal(stat(file, &st), 0);
    uint64_t blocks = ((n + 3) / 4 + (1u << TB_BLOCK_LOG) - 1) >> TB_BLOCK_LOG;
    assert_int_equal(st.st_size, TB_HEADER_BYTES + 8 * blocks + (n + 3) / 4);
    assert_int_equal(tb_open_file(file, 0, 0, 3, 3), 0);
    int kinds[3] = {0};
    for (uint64_t i = 0; i < n; i++) {
        uint32_t x, y;
        tb_unindex(3, 3, i, &x, &y);
        int v = tb_probe(0, 0, x, y), d = dtm[i];
        int want = d == 0 ? 0 : (d - 1) % 2 ? TB_WIN_FAR : TB_LOSS_FAR;
        assert_int_equal(v, want);
        kinds[v == 0 ? 0 : v == TB_WIN_FAR ? 1 : 2]++;
    }
    assert_true(kinds[0] > 0 && kinds[1] > 0 && kinds[2] > 0);
    free(dtm);
    tb_set_path("");
    tb_close_all();
    tc_rmdir(wdl);
}

/* An engine without files builds the small tables in memory and writes
 * them to TablePath; the file then holds the same values. */
static void test_memory_saved(void **state)
{
    (void)state;
    char dir[256], file[512];
    tc_tempdir(dir, sizeof dir);
    tb_close_all();
    tb_set_path(dir);
    tb_open(1, 0);
    assert_int_equal(tb_have(1, 0, 3, 3), 0);
    assert_int_equal(morris_egtb_build(1, 0, 3, NULL, NULL), 0);
    morris_egtb_save(1, 0);
    snprintf(file, sizeof file, "%s/morris-diag-nofly-3v3.mtb", dir);
    assert_int_equal(tb_open_file(file, 1, 0, 3, 3), 0);
    uint64_t rng = 99;
    for (int k = 0; k < 20000; k++) {
        uint32_t x = tc_random_set(&rng, 3, 0), y = tc_random_set(&rng, 3, x);
        assert_int_equal(tb_probe(1, 0, x, y), morris_egtb_memory_byte(1, 0, x, y));
    }
    tb_set_path("");
    tb_close_all();
    tc_rmdir(dir);
}

/* Not enough memory for a group: said before it starts, nothing written. */
static void test_memory_refused(void **state)
{
    (void)state;
    char dir[256], file[512];
    tc_tempdir(dir, sizeof dir);
    TbBuildOpts o = {.dir = dir,
                     .upto = 3,
                     .threads = 1,
                     .encoding = TB_ENC_DTM8,
                     .diag_mask = 1,
                     .fly_mask = 1,
                     .quiet = 1,
                     .limit = 1000};
    assert_int_equal(tb_build(&o), -1);
    snprintf(file, sizeof file, "%s/morris-plain-nofly-3v3.mtb", dir);
    struct stat st;
    assert_int_not_equal(stat(file, &st), 0);
    tc_rmdir(dir);
}

static void copy_file(const char *from, const char *to, long cut)
{
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    assert_non_null(a);
    assert_non_null(b);
    int c;
    for (long i = 0; (c = fgetc(a)) != EOF && (cut < 0 || i < cut); i++)
        fputc(c, b);
    fclose(a);
    fclose(b);
}

static void poke(const char *file, long at, int xor_with)
{
    FILE *fp = fopen(file, "r+b");
    assert_non_null(fp);
    fseek(fp, at, SEEK_SET);
    int c = fgetc(fp);
    fseek(fp, at, SEEK_SET);
    fputc(c ^ xor_with, fp);
    fclose(fp);
}

/* A 32-bit field of the header rewritten (the version at 8, the blocks at
 * 52), the header checksum fixed. */
static void set_field(const char *file, int at, uint32_t v)
{
    FILE *fp = fopen(file, "r+b");
    uint8_t h[TB_HEADER_BYTES];
    assert_int_equal(fread(h, 1, sizeof h, fp), sizeof h);
    for (int i = 0; i < 4; i++)
        h[at + i] = (uint8_t)(v >> (8 * i));
    uint64_t sum = tb_checksum(h, 56);
    for (int i = 0; i < 8; i++)
        h[56 + i] = (uint8_t)(sum >> (8 * i));
    fseek(fp, 0, SEEK_SET);
    fwrite(h, 1, sizeof h, fp);
    fclose(fp);
}

/* A canonical entry of 3v3 whose payload byte (a byte an entry) is in
 * block b: its position. */
static void entry_in_block(uint32_t b, uint32_t *x, uint32_t *y)
{
    for (uint64_t i = (uint64_t)b << TB_BLOCK_LOG; i < tb_entries(3, 3); i++) {
        tb_unindex(3, 3, i, x, y);
        if (tb_index(*x, *y) == i)
            return;
    }
    fail_msg("no entry in block %u", b);
}

/* A file whose block b is spoilt: read until a probe reaches that block,
 * then refused with one notice, and from then on not read. */
static void check_late(int d, const char *target, const char *words)
{
    uint32_t b = (uint32_t)atoi(strstr(words, "block ") + 6), last = 3, x, y, ox, oy;
    entry_in_block(b, &x, &y);
    entry_in_block(b ? 0 : last, &ox, &oy);
    assert_int_equal(tb_have(d, 0, 3, 3), 1);
    assert_true(tb_probe(d, 0, ox, oy) >= 0);
    assert_int_equal(nnotes, 0);
    assert_int_equal(tb_probe(d, 0, x, y), -1);
    assert_int_equal(nnotes, 1);
    if (!strstr(notes[0], target) || !strstr(notes[0], words))
        fail_msg("notice '%s' lacks '%s' or the file", notes[0], words);
    assert_int_equal(tb_have(d, 0, 3, 3), 0);
    assert_int_equal(tb_probe(d, 0, ox, oy), -1);
    assert_int_equal(nnotes, 1);
}

/* tests/data/tables_bad.txt: case | words the notice holds. */
static void test_bad_files(void **state)
{
    (void)state;
    char bad[256], good[512], target[512];
    const char *dir = shared;
    tc_tempdir(bad, sizeof bad);
    snprintf(good, sizeof good, "%s/morris-plain-nofly-3v3.mtb", dir);
    struct stat st;
    assert_int_equal(stat(good, &st), 0);
    FILE *fp = td_open("tables_bad.txt");
    char line[512], *f[TD_MAXF];
    int cases = 0;
    notice_set_sink(sink, NULL);
    while (td_next_line(fp, line, sizeof line, NULL)) {
        assert_int_equal(td_split(line, f), 2);
        const char *name = strcmp(f[0], "options") == 0 ? "morris-diag-nofly-3v3.mtb"
                                                        : "morris-plain-nofly-3v3.mtb";
        snprintf(target, sizeof target, "%s/%s", bad, name);
        copy_file(good, target,
                  strcmp(f[0], "truncate") == 0     ? st.st_size - 1000
                  : strcmp(f[0], "blocktable") == 0 ? TB_HEADER_BYTES + 12
                                                    : -1);
        if (strcmp(f[0], "payload") == 0)
            poke(target, st.st_size / 2, 0x10);
        else if (strcmp(f[0], "lateblock") == 0)
            poke(target, st.st_size - 10, 0x10);
        else if (strcmp(f[0], "blocksum") == 0)
            poke(target, TB_HEADER_BYTES, 1);
        else if (strcmp(f[0], "blockcount") == 0)
            set_field(target, 52, 5);
        else if (strcmp(f[0], "header") == 0)
            poke(target, 26, 1);
        else if (strcmp(f[0], "magic") == 0)
            poke(target, 0, 0x20);
        else if (strcmp(f[0], "version") == 0)
            set_field(target, 8, 3);
        else if (strcmp(f[0], "empty") == 0)
            copy_file(good, target, 0);
        int d = strcmp(f[0], "options") == 0;
        nnotes = 0;
        tb_set_path(bad);
        tb_open(d, 0);
        if (strstr(f[1], "checksum of block ")) { /* a payload's block: when a probe reaches it */
            check_late(d, target, f[1]);
            unlink(target);
            cases++;
            continue;
        }
        assert_int_equal(tb_have(d, 0, 3, 3), 0);
        assert_int_equal(tb_probe(d, 0, 7, 7 << 3), -1);
        assert_int_equal(nnotes, 1);
        if (!strstr(notes[0], target) || !strstr(notes[0], f[1]))
            fail_msg("case %s: notice '%s' lacks '%s' or the file", f[0], notes[0], f[1]);
        unlink(target);
        cases++;
    }
    fclose(fp);
    assert_true(cases >= 10);
    /* A directory that does not exist: said once. */
    char missing[300];
    snprintf(missing, sizeof missing, "%s/none", bad);
    nnotes = 0;
    tb_set_path(missing);
    tb_open(0, 0);
    tb_open(1, 1);
    assert_int_equal(nnotes, 1);
    assert_non_null(strstr(notes[0], missing));
    /* The good file is read. */
    nnotes = 0;
    tb_set_path(dir);
    tb_open(0, 0);
    assert_int_equal(tb_have(0, 0, 3, 3), 1);
    assert_int_equal(nnotes, 0);
    notice_clear_sink(NULL);
    tb_set_path("");
    tb_close_all();
    tc_rmdir(bad);
}

/* good (version 2) rewritten as version 1: the header without blocks, the
 * payload right after it; flip: a payload byte spoilt. */
static void write_version1(const char *good, const char *file, int flip)
{
    FILE *a = fopen(good, "rb"), *b = fopen(file, "wb");
    assert_non_null(a);
    assert_non_null(b);
    uint8_t h[TB_HEADER_BYTES];
    assert_int_equal(fread(h, 1, sizeof h, a), sizeof h);
    uint32_t blocks = (uint32_t)(h[52] | h[53] << 8 | h[54] << 16 | (uint32_t)h[55] << 24);
    h[8] = 1, h[23] = 0, h[52] = h[53] = h[54] = h[55] = 0;
    uint64_t sum = tb_checksum(h, 56);
    for (int i = 0; i < 8; i++)
        h[56 + i] = (uint8_t)(sum >> (8 * i));
    fwrite(h, 1, sizeof h, b);
    fseek(a, (long)(TB_HEADER_BYTES + 8 * blocks), SEEK_SET);
    int c;
    for (long i = 0; (c = fgetc(a)) != EOF; i++)
        fputc(i == flip ? c ^ 4 : c, b);
    fclose(a);
    fclose(b);
}

/* Files of format version 1 (no block table) are still read: the same
 * values; a spoilt one is refused at its first probe. */
static void test_version1(void **state)
{
    (void)state;
    char dir[256], good[512], file[512];
    tc_tempdir(dir, sizeof dir);
    snprintf(good, sizeof good, "%s/morris-plain-nofly-3v3.mtb", shared);
    snprintf(file, sizeof file, "%s/morris-plain-nofly-3v3.mtb", dir);
    tb_set_path(shared);
    tb_open(0, 0);
    uint64_t n = tb_entries(3, 3);
    int *want = malloc(n * sizeof *want);
    assert_non_null(want);
    for (uint64_t i = 0; i < n; i++)
        want[i] = file_entry(NULL, i);
    write_version1(good, file, -1);
    notice_set_sink(sink, NULL);
    nnotes = 0;
    tb_set_path(dir);
    tb_open(0, 0);
    assert_int_equal(tb_have(0, 0, 3, 3), 1);
    for (uint64_t i = 0; i < n; i++)
        assert_int_equal(file_entry(NULL, i), want[i]);
    assert_int_equal(nnotes, 0);
    write_version1(good, file, 150000);
    tb_set_path(dir);
    tb_open(0, 0);
    assert_int_equal(tb_have(0, 0, 3, 3), 1);
    assert_int_equal(file_entry(NULL, 0), -1);
    assert_int_equal(nnotes, 1);
    assert_non_null(strstr(notes[0], "corrupt (checksum)"));
    notice_clear_sink(NULL);
    free(want);
    tb_set_path("");
    tb_close_all();
    tc_rmdir(dir);
}

/* A synthetic 3v3 table: distances past 252 plies, values without one,
 * and the entries of tests/data/tables_wide.txt at the first canonical
 * indexes from 1000, 2000, ... */
static int wide_values[16], nwide;
static uint64_t wide_at[16];

static int wide_entry(void *ctx, uint64_t i)
{
    (void)ctx;
    uint32_t x, y;
    tb_unindex(3, 3, i, &x, &y);
    i = tb_index(x, y);
    for (int k = 0; k < nwide; k++)
        if (i == wide_at[k])
            return wide_values[k];
    return i % 7 == 0    ? 0
           : i % 11 == 0 ? TB_WIN_FAR
           : i % 13 == 0 ? TB_LOSS_FAR
                         : 1 + (int)(i % 700);
}

/* Encoding 3: every entry read back as written; a byte file refuses such
 * distances; the engine's values and evaluations of long distances. */
static void test_wide_encoding(void **state)
{
    (void)state;
    char dir[256], why[256], file[512];
    int solve[16], eval[16];
    FILE *fp = td_open("tables_wide.txt");
    char line[512], *f[TD_MAXF];
    for (nwide = 0; nwide < 16 && td_next_line(fp, line, sizeof line, NULL); nwide++) {
        assert_int_equal(td_split(line, f), 3);
        wide_values[nwide] = atoi(f[0]);
        uint32_t x, y;
        for (wide_at[nwide] = 1000 * (uint64_t)(nwide + 1);; wide_at[nwide]++) {
            tb_unindex(3, 3, wide_at[nwide], &x, &y);
            if (tb_index(x, y) == wide_at[nwide])
                break;
        }
        solve[nwide] = atoi(f[1]);
        eval[nwide] = atoi(f[2]);
    }
    fclose(fp);
    assert_true(nwide >= 8);
    tc_tempdir(dir, sizeof dir);
    assert_int_equal(tb_write(dir, 0, 0, 3, 3, TB_ENC_DTM8, wide_entry, NULL, why, sizeof why), -1);
    assert_non_null(strstr(why, "252"));
    assert_int_equal(tb_write(dir, 0, 0, 3, 3, TB_ENC_DTM16, wide_entry, NULL, why, sizeof why), 0);
    snprintf(file, sizeof file, "%s/morris-plain-nofly-3v3.mtb", dir);
    uint64_t n = tb_entries(3, 3), pl = 2 * n,
             blocks = (pl + (1u << TB_BLOCK_LOG) - 1) >> TB_BLOCK_LOG;
    struct stat st;
    assert_int_equal(stat(file, &st), 0);
    assert_int_equal(st.st_size, TB_HEADER_BYTES + 8 * blocks + pl);
    assert_int_equal(tb_open_file(file, 0, 0, 3, 3), 0);
    for (uint64_t i = 0; i < n; i++)
        assert_int_equal(file_entry(NULL, i), wide_entry(NULL, i));
    GameOptions o;
    tc_options(&o, 0, 0);
    for (int k = 0; k < nwide; k++) {
        uint32_t x, y;
        char fen[128], err[256];
        unsigned char pos[POS_MAX_BYTES];
        tb_unindex(3, 3, wide_at[k], &x, &y);
        tc_fen(x, y, fen, sizeof fen);
        assert_int_equal(game_morris.from_fen(pos, fen, &o, err, sizeof err), 0);
        int v;
        assert_int_equal(morris_egtb_probe(pos, &v), 1);
        assert_int_equal(v, solve[k]);
        assert_int_equal(game_morris.evaluate(pos), eval[k]);
    }
    tb_close_all();
    tc_rmdir(dir);
}

static int slow_entry(void *ctx, uint64_t i)
{
    (void)ctx;
    if (i % 2000 == 0)
        usleep(1000);
    return 0;
}

/* A writer killed in the middle of a file leaves only its temporary file,
 * which is never read; a builder killed at any time leaves whole files. */
static void test_killed_writer(void **state)
{
    (void)state;
    char dir[256], why[256], file[512];
    tc_tempdir(dir, sizeof dir);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        _exit(tb_write(dir, 0, 0, 3, 3, TB_ENC_DTM8, slow_entry, NULL, why, sizeof why) ? 1 : 0);
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%s/.morris-plain-nofly-3v3.mtb.%ld.tmp", dir, (long)pid);
    struct stat st;
    int seen = 0;
    for (int k = 0; k < 5000 && !seen; k++) {
        seen = stat(tmp, &st) == 0 && st.st_size > TB_HEADER_BYTES;
        if (!seen)
            usleep(1000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    assert_true(seen);
    snprintf(file, sizeof file, "%s/morris-plain-nofly-3v3.mtb", dir);
    assert_int_not_equal(stat(file, &st), 0);
    tb_set_path(dir);
    tb_open(0, 0);
    assert_int_equal(tb_have(0, 0, 3, 3), 0);
    tc_rmdir(dir);

    /* The builder, killed after a while: every table file it left is whole. */
    tc_tempdir(dir, sizeof dir);
    fflush(NULL);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        TbBuildOpts o = {.dir = dir,
                         .upto = 4,
                         .threads = 1,
                         .encoding = TB_ENC_DTM8,
                         .diag_mask = 1,
                         .fly_mask = 1,
                         .quiet = 1};
        _exit(tb_build(&o) ? 1 : 0);
    }
    usleep(700000);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    notice_set_sink(sink, NULL);
    nnotes = 0;
    tb_set_path(dir);
    tb_open(0, 0);
    for (int m = 3; m <= 4; m++)
        for (int o = 3; o <= 4; o++) {
            snprintf(file, sizeof file, "%s/morris-plain-nofly-%dv%d.mtb", dir, m, o);
            if (stat(file, &st) == 0)
                assert_int_equal(tb_have(0, 0, m, o), 1);
        }
    assert_int_equal(nnotes, 0);
    notice_clear_sink(NULL);
    tb_set_path("");
    tb_close_all();
    tc_rmdir(dir);
}

int main(void)
{
    tb_set_path(""); /* never the user's files */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_symmetries),   cmocka_unit_test(test_index),
        cmocka_unit_test(test_agree_3v3),    cmocka_unit_test(test_wdl_encoding),
        cmocka_unit_test(test_memory_saved), cmocka_unit_test(test_memory_refused),
        cmocka_unit_test(test_bad_files),    cmocka_unit_test(test_killed_writer),
        cmocka_unit_test(test_version1),     cmocka_unit_test(test_wide_encoding),
    };
    const char *t = getenv("TMPDIR");
    snprintf(shared, sizeof shared, "%s/morelli-tables-XXXXXX", t && *t ? t : "/tmp");
    TbBuildOpts o = {.dir = shared,
                     .upto = 3,
                     .threads = 2,
                     .encoding = TB_ENC_DTM8,
                     .diag_mask = 3,
                     .fly_mask = 1,
                     .quiet = 1};
    if (!mkdtemp(shared) || tb_build(&o) != 0) {
        fprintf(stderr, "test_tables: cannot build 3v3 in %s\n", shared);
        return 1;
    }
    int rc = cmocka_run_group_tests_name("tables", tests, NULL, NULL);
    tc_rmdir(shared);
    return rc;
}
