/*
 * tables_check.c -- see tables_check.h.
 */
#include "tables_check.h"

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "morris/morris.h"

void tc_tempdir(char *buf, size_t len)
{
    const char *t = getenv("TMPDIR");
    snprintf(buf, len, "%s/morelli-tables-XXXXXX", t && *t ? t : "/tmp");
    assert_non_null(mkdtemp(buf));
}

void tc_rmdir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char file[4200];
    while (d && (e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(file, sizeof file, "%s/%s", dir, e->d_name);
        unlink(file);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

/* The points rank by rank from rank 7 (the FEN's order). */
static const int fen_rank[7][7] = {
    {21, 22, 23, -1}, {18, 19, 20, -1}, {15, 16, 17, -1}, {9, 10, 11, 12, 13, 14, -1},
    {6, 7, 8, -1},    {3, 4, 5, -1},    {0, 1, 2, -1}};

void tc_fen(uint32_t x, uint32_t y, char *buf, size_t len)
{
    size_t n = 0;
    for (int r = 0; r < 7; r++) {
        int run = 0;
        for (int i = 0; fen_rank[r][i] >= 0; i++) {
            int p = fen_rank[r][i];
            char c = x >> p & 1 ? 'W' : y >> p & 1 ? 'B' : 0;
            if (!c) {
                run++;
                continue;
            }
            if (run)
                n += (size_t)snprintf(buf + n, len - n, "%d", run);
            run = 0;
            n += (size_t)snprintf(buf + n, len - n, "%c", c);
        }
        if (run)
            n += (size_t)snprintf(buf + n, len - n, "%d", run);
        if (r < 6)
            n += (size_t)snprintf(buf + n, len - n, "/");
    }
    snprintf(buf + n, len - n, " w 0 0 0");
}

void tc_options(GameOptions *o, int diagonals, int flying)
{
    game_options_default(o);
    morris_opts(o)->pieces = 9;
    morris_opts(o)->diagonals = diagonals;
    morris_opts(o)->flying = flying;
    morris_opts(o)->move_rule = 0;
}

static void load(const GameOptions *o, uint32_t x, uint32_t y, void *pos)
{
    char fen[128], err[256];
    tc_fen(x, y, fen, sizeof fen);
    if (game_morris.from_fen(pos, fen, o, err, sizeof err) != 0)
        fail_msg("FEN '%s' rejected: %s", fen, err);
}

int tc_probe(const GameOptions *o, uint32_t x, uint32_t y)
{
    unsigned char pos[POS_MAX_BYTES];
    load(o, x, y, pos);
    int v;
    if (!morris_egtb_probe(pos, &v)) {
        char fen[128];
        tc_fen(x, y, fen, sizeof fen);
        fail_msg("no table value for %s", fen);
    }
    return v;
}

int tc_from_children(const GameOptions *o, uint32_t x, uint32_t y)
{
    const Game *g = &game_morris;
    unsigned char pos[POS_MAX_BYTES], child[POS_MAX_BYTES], undo[POS_MAX_BYTES];
    Move mv[1024];
    load(o, x, y, pos);
    int n = g->gen_moves(pos, mv), best = -(VALUE_WIN - 0);
    for (int i = 0; i < n; i++) {
        memcpy(child, pos, g->pos_size);
        g->make(child, mv[i], undo);
        int r = g->result(child), v;
        if (r == RESULT_P1_WIN) { /* the mover (White) has won */
            v = VALUE_WIN - 1;
        } else {
            assert_int_equal(r, RESULT_NONE);
            int cv;
            if (!morris_egtb_probe(child, &cv)) {
                char fen[128];
                g->to_fen(child, fen, sizeof fen);
                fail_msg("child %s not in the tables", fen);
            }
            v = cv == VALUE_DRAW ? 0 : cv > 0 ? -(cv - 1) : -(cv + 1);
        }
        best = v > best ? v : best;
    }
    return best;
}

uint32_t tc_random_set(uint64_t *rng, int k, uint32_t taken)
{
    uint32_t s = 0;
    while (k > 0) {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        uint32_t bit = 1u << (*rng % 24);
        if (!((s | taken) & bit)) {
            s |= bit;
            k--;
        }
    }
    return s;
}

int tc_run_tables(const char *args, int err, char *out, size_t len)
{
    const char *bin = getenv("MORELLI_BIN");
    char cmd[1400];
    snprintf(cmd, sizeof cmd, "'%s' tables %s %s", bin && *bin ? bin : "build/test/morelli", args,
             err ? "2>&1" : "2>/dev/null");
    fflush(NULL);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, len - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    assert_true(WIFEXITED(st));
    return WEXITSTATUS(st);
}
