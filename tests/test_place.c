/*
 * test_place.c -- Nine Men's Morris played exactly from the end of the
 * placement, and after it (docs/solved.md):
 *
 *  - the positions of tests/data/morris_place.txt (1 to 3 pieces in hand a
 *    side): GameSolver.solve gives the value a plain minimax of this file
 *    gives (every placement and removal down to the positions with both
 *    hands empty, valued by the tables built in memory here, up to 4 pieces
 *    a side), which the file records too, and a move that keeps it; where
 *    the minimax meets a position outside the tables, solve answers
 *    "unknown"; `go` plays the solver's move with a proven score;
 *  - GameSolver.solve_until gives up when asked and agrees with solve
 *    otherwise; `go` with a move time plays its move, proven;
 *  - `morelli tables solve --moves` (the engine binary, MORELLI_BIN) on the
 *    same positions with the files built here: the value and every move's
 *    value equal the minimax's; bad arguments, a missing class and a node
 *    budget too small each get their exit status and line;
 *  - the positions of tests/data/morris_solved.txt (moving phase): with 4
 *    against 3 read from files of win/draw/loss only (no distance), or with
 *    a win longer than MoveRule leaves, the game played out by the solver's
 *    moves for both sides ends in the winner's win, with no position
 *    repeated and no MoveRule draw.
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
#include "notice.h"
#include "past.h"
#include "search/search.h"
#include "tables_check.h"
#include "testdata.h"

#define G (&game_morris)
#define UNKNOWN (VALUE_WIN + 7)
#define MEMO_BITS 20

static char dtm_dir[256]; /* the classes built for the tests, a byte an entry */

/* The files of dtm_dir, and only them. */
static void tables_dtm(void)
{
    tb_close_all();
    tb_set_path(dtm_dir);
    tb_open(0, 0);
    tb_open(0, 1);
}

/* The tables as files, built here (the file builder is far faster than the
 * tables built in memory, with the same values: tests/test_tables_long.c):
 * the plain board without flying up to 4 a side, with flying 3 a side. */
static void quiet(void *ctx, const char *text)
{
    (void)ctx;
    (void)text;
}

static int setup(void **state)
{
    (void)state;
    /* no tables in memory: a search's prepare step would start their
     * build in the background (it fails at once, its notice unsaid) */
    notice_set_sink(quiet, NULL);
    morris_egtb_set_limit(1);
    tc_tempdir(dtm_dir, sizeof dtm_dir);
    TbBuildOpts b = {.dir = dtm_dir,
                     .upto = 4,
                     .threads = 1,
                     .encoding = TB_ENC_DTM8,
                     .diag_mask = 1,
                     .fly_mask = 1,
                     .quiet = 1};
    if (tb_build(&b) != 0)
        return -1;
    b.upto = 3;
    b.fly_mask = 2;
    if (tb_build(&b) != 0)
        return -1;
    tables_dtm();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tb_close_all();
    tc_rmdir(dtm_dir);
    morris_egtb_set_limit(0);
    notice_clear_sink(NULL);
    return 0;
}

static void options(GameOptions *o, int flying, int move_rule)
{
    tc_options(o, 0, flying);
    morris_opts(o)->move_rule = move_rule;
}

static void load(void *pos, const GameOptions *o, const char *fen)
{
    char err[256];
    if (G->from_fen(pos, fen, o, err, sizeof err) != 0)
        fail_msg("FEN '%s' rejected: %s", fen, err);
}

/* Pieces in hand, both sides together, read from the position's FEN. */
static int in_hand(const void *pos)
{
    char fen[FEN_MAX], side;
    int w, b;
    G->to_fen(pos, fen, sizeof fen);
    const char *sp = strchr(fen, ' ');
    assert_non_null(sp);
    assert_int_equal(sscanf(sp, " %c %d %d", &side, &w, &b), 3);
    return w + b;
}

/* A child's value (for its mover) seen from the side that moved into it. */
static int back(int v)
{
    return v > 0 ? -(v - 1) : v < 0 ? -v - 1 : 0;
}

/* The value for the side to move: win in n = VALUE_WIN - n, loss in n =
 * -(VALUE_WIN - n), draw 0; UNKNOWN when a position with both hands empty
 * on the way is not in the tables.  Every move, no pruning; each position
 * once (memo, by key). */
typedef struct Memo {
    Key key;
    int value, used;
} Memo;
static Memo *memo;

static int minimax(unsigned char *pos)
{
    Key k = G->key(pos);
    Memo *m = &memo[k & ((1u << MEMO_BITS) - 1)];
    if (m->used && m->key == k)
        return m->value;
    int r = G->result(pos), v;
    if (r != RESULT_NONE)
        return r == RESULT_DRAW ? 0 : -VALUE_WIN; /* the mover lost, now */
    if (in_hand(pos) == 0) {
        *m = (Memo){k, morris_egtb_probe(pos, &v) ? v : UNKNOWN, 1};
        return m->value;
    }
    Move mv[960];
    unsigned char undo[UNDO_MAX_BYTES];
    int n = G->gen_moves(pos, mv), best = -VALUE_WIN - 1;
    for (int i = 0; i < n && best != UNKNOWN; i++) {
        G->make(pos, mv[i], undo);
        int c = minimax(pos);
        G->unmake(pos, mv[i], undo);
        v = c == UNKNOWN ? UNKNOWN : back(c);
        if (v == UNKNOWN || v > best)
            best = v;
    }
    *m = (Memo){k, best, 1};
    return best;
}

static void value_text(int v, char *buf, size_t len)
{
    if (v == UNKNOWN)
        snprintf(buf, len, "unknown");
    else if (v == 0)
        snprintf(buf, len, "draw");
    else
        snprintf(buf, len, "%s %d", v > 0 ? "win" : "loss", VALUE_WIN - (v < 0 ? -v : v));
}

static void test_exact_placement(void **state)
{
    (void)state;
    memo = calloc((size_t)1 << MEMO_BITS, sizeof *memo);
    assert_non_null(memo);
    FILE *f = td_open("morris_place.txt");
    char line[512], *fl[TD_MAXF];
    int n = 0, decided = 0, unknown = 0;
    while (td_next_record(f, line, sizeof line, fl)) {
        GameOptions o;
        options(&o, atoi(fl[0]), 100);
        unsigned char pos[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
        load(pos, &o, fl[1]);
        int h = in_hand(pos);
        assert_true(h >= 2 && h <= 6);
        if (td_sanitized() && h == 6)
            continue; /* the slowest minimax */
        memset(memo, 0, ((size_t)1 << MEMO_BITS) * sizeof *memo);
        int want = minimax(pos), v = 0;
        char wt[64], st[64];
        value_text(want, wt, sizeof wt);
        if (strcmp(wt, fl[2]) != 0)
            fail_msg("%s: the file says %s, the minimax %s", fl[1], fl[2], wt);
        Move best = MOVE_NONE;
        int ok = G->solver->solve(pos, &v, &best);
        value_text(ok ? v : UNKNOWN, st, sizeof st);
        if (strcmp(st, wt) != 0)
            fail_msg("%s: solve says %s, the minimax %s", fl[1], st, wt);
        n++;
        if (!ok) {
            unknown++;
            continue;
        }
        decided += v != 0;
        /* the move played keeps the value */
        G->make(pos, best, undo);
        int c = minimax(pos);
        assert_int_not_equal(c, UNKNOWN);
        if (back(c) != v)
            fail_msg("%s: the solver's move leads to %d, not %d", fl[1], back(c), v);
    }
    fclose(f);
    free(memo);
    assert_true(n >= 19 && decided >= 10 && unknown >= 2);
}

/* search_go of pos under lim: its move, after checking that its score
 * came proven (res). */
static Move go_proven(Search *s, const void *pos, const GameOptions *o, const SearchLimits *lim,
                      SearchResult *res)
{
    memset(res, 0, sizeof *res);
    atomic_int stop = 0;
    Move m = search_go(s, G, pos, o, NULL, 0, lim, &stop, NULL, NULL, res);
    assert_int_equal(res->proven, 1);
    return m;
}

static int give_up_now(void *ctx, int share)
{
    assert_true(share >= 1 && share <= 100);
    ++*(int *)ctx;
    return 1;
}

static int give_up_never(void *ctx, int share)
{
    assert_true(share >= 1 && share <= 100);
    ++*(int *)ctx;
    return 0;
}

/* GameSolver.solve_until: it gives up when asked to, and otherwise agrees
 * with solve; `go` with a move time plays its move with a proven score.
 * The empty board, 4 a side in hand, without flying: over 4096 nodes, so
 * give_up is asked. */
static void test_solve_until(void **state)
{
    (void)state;
    GameOptions o;
    options(&o, 0, 100);
    unsigned char pos[POS_MAX_BYTES];
    load(pos, &o, "3/3/3/6/3/3/3 w 4 4 0");
    int v, v2, asked = 0;
    Move best, best2;
    assert_non_null(G->solver->solve_until);
    assert_int_equal(G->solver->solve_until(pos, give_up_now, &asked, &v, &best), 0);
    assert_int_equal(asked, 1);
    asked = 0;
    assert_int_equal(G->solver->solve_until(pos, give_up_never, &asked, &v, &best), 1);
    assert_true(asked >= 1);
    assert_int_equal(G->solver->solve(pos, &v2, &best2), 1);
    assert_int_equal(v, v2);
    assert_int_equal(best, best2);
    assert_true(v != 0);
    Search *s = search_new();
    assert_non_null(s);
    SearchLimits lim;
    search_limits_init(&lim);
    lim.movetime = 60000;
    SearchResult res;
    assert_int_equal(go_proven(s, pos, &o, &lim, &res), best);
    search_free(s);
}

/* Runs `morelli tables solve ARGS` (tc_run_tables). */
static int run_solve(const char *args, int err, char *out, size_t len)
{
    char all[1200];
    snprintf(all, sizeof all, "solve %s", args);
    return tc_run_tables(all, err, out, len);
}

/* The value text of `tables solve` ("win in 11 plies") in the data file's
 * words ("win 11"). */
static void short_value(const char *v, char *buf, size_t len)
{
    char word[16];
    int n;
    if (sscanf(v, "%15s in %d plies", word, &n) == 2)
        snprintf(buf, len, "%s %d", word, n);
    else
        snprintf(buf, len, "%.*s", (int)strcspn(v, "\n"), v);
}

/* `tables solve --moves`: the value and each move's value are the
 * minimax's; its refusals. */
static void test_solve_command(void **state)
{
    (void)state;
    memo = calloc((size_t)1 << MEMO_BITS, sizeof *memo);
    assert_non_null(memo);
    FILE *f = td_open("morris_place.txt");
    char line[512], *fl[TD_MAXF], out[16384], args[1024], want[64], got[64];
    int n = 0, moves = 0;
    while (td_next_record(f, line, sizeof line, fl)) {
        if (strcmp(fl[2], "unknown") == 0 || (td_sanitized() && n >= 4))
            continue;
        GameOptions o;
        options(&o, atoi(fl[0]), 100);
        unsigned char pos[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
        load(pos, &o, fl[1]);
        snprintf(args, sizeof args, "--dir '%s' --flying %s --hash 16 --moves --quiet %s", dtm_dir,
                 atoi(fl[0]) ? "true" : "false", fl[1]);
        if (run_solve(args, 0, out, sizeof out) != 0)
            fail_msg("tables solve %s failed:\n%s", args, out);
        const char *v = strstr(out, "Value: ");
        assert_non_null(v);
        short_value(v + 7, got, sizeof got);
        if (strcmp(got, fl[2]) != 0)
            fail_msg("%s: tables solve says %s, the file %s", fl[1], got, fl[2]);
        Move mv[960];
        int k = G->gen_moves(pos, mv);
        for (int i = 0; i < k; i++) {
            char text[32], key[48];
            G->move_to_str(pos, mv[i], text, sizeof text);
            G->make(pos, mv[i], undo);
            memset(memo, 0, ((size_t)1 << MEMO_BITS) * sizeof *memo);
            int r = G->result(pos),
                c = r != RESULT_NONE ? (r == RESULT_DRAW ? 0 : -VALUE_WIN) : minimax(pos);
            G->unmake(pos, mv[i], undo);
            value_text(c == UNKNOWN ? c : back(c), want, sizeof want);
            snprintf(key, sizeof key, "\n%s: ", text);
            const char *m = strstr(out, key);
            if (!m)
                fail_msg("%s: no line for %s in:\n%s", fl[1], text, out);
            short_value(m + strlen(key), got, sizeof got);
            if (strcmp(got, want) != 0)
                fail_msg("%s: tables solve says %s: %s, the minimax %s", fl[1], text, got, want);
            moves++;
        }
        n++;
    }
    fclose(f);
    free(memo);
    assert_true(n >= 4 && moves >= 20);

    /* refusals: a bad FEN, an illegal move, a bad option; a class the
     * directory lacks; a budget too small */
    assert_int_equal(run_solve("--flying false 3/3/3/9/3/3/3 w 1 1 0", 1, out, sizeof out), 2);
    assert_non_null(strstr(out, "error: "));
    assert_int_equal(run_solve("startpos moves a1 a1", 1, out, sizeof out), 2);
    assert_non_null(strstr(out, "error: illegal move 'a1'"));
    assert_int_equal(run_solve("--hash 0", 1, out, sizeof out), 2);
    assert_non_null(strstr(out, "usage: "));
    assert_int_equal(run_solve("--nodes", 1, out, sizeof out), 2);
    snprintf(args, sizeof args, "--dir '%s' --flying true --quiet 3/3/3/6/3/3/3 w 4 4 0", dtm_dir);
    assert_int_equal(run_solve(args, 0, out, sizeof out), 1);
    assert_non_null(strstr(out, "Value: unknown: the search reached "));
    snprintf(args, sizeof args, "--dir '%s' --flying false --nodes 5 --quiet %s", dtm_dir,
             "B2/3/2W/W5/3/2B/3 w 2 2 0");
    assert_int_equal(run_solve(args, 0, out, sizeof out), 1);
    assert_non_null(strstr(out, "Value: unknown: not solved in "));
}

/* `go` (search_go) plays the solver's move at once, with its proven score. */
static void test_go_plays_it(void **state)
{
    (void)state;
    static const char *fens[] = {"3/1W1/3/2B3/1B1/3/2W w 2 2 0", "3/3/3/6/3/3/3 w 3 3 0"};
    Search *s = search_new();
    assert_non_null(s);
    for (int i = 0; i < 2; i++) {
        GameOptions o;
        options(&o, i, 100);
        unsigned char pos[POS_MAX_BYTES];
        load(pos, &o, fens[i]);
        int v;
        Move best;
        assert_int_equal(G->solver->solve(pos, &v, &best), 1);
        assert_int_not_equal(v, 0);
        SearchLimits lim;
        search_limits_init(&lim);
        lim.depth = 3;
        SearchResult res;
        search_clear(s);
        assert_int_equal(go_proven(s, pos, &o, &lim, &res), best);
        assert_true(v > 0 ? res.score > 0 : res.score < 0);
    }
    search_free(s);
}

/* Entry i of class (m, o) of the plain board without flying, from the
 * files of dtm_dir (ctx: m, o). */
static int dtm_entry(void *ctx, uint64_t i)
{
    const int *mo = ctx;
    uint32_t x, y;
    tb_unindex(mo[0], mo[1], i, &x, &y);
    return tb_probe(0, 0, x, y);
}

/* The game from pos played by the solver's moves for both sides, at most
 * max plies: its result (RESULT_NONE if it goes on); fails when a
 * position comes back or the solver does not know one. */
static int play_out(unsigned char *pos, int max, int *plies, const char *fen)
{
    Past h;
    past_init(&h);
    int r = RESULT_NONE;
    for (*plies = 0; *plies < max; ++*plies) {
        r = past_result(G, pos, h.keys, h.len);
        if (r != RESULT_NONE)
            break;
        Key k = G->key(pos);
        for (int i = 0; i < h.len; i++)
            if (h.keys[i] == k)
                fail_msg("%s: a position comes back at ply %d", fen, *plies);
        assert_int_equal(past_push(&h, k), 0);
        int v;
        Move m;
        if (!G->solver->solve(pos, &v, &m))
            fail_msg("%s: ply %d unknown", fen, *plies);
        unsigned char undo[UNDO_MAX_BYTES];
        G->make(pos, m, undo);
    }
    past_free(&h);
    return r;
}

/* tests/data/morris_solved.txt: "far" positions are played with 4 against
 * 3 and 3 against 4 read from files of win/draw/loss only; "rule" ones
 * with the distances, from a ply count that leaves MoveRule fewer plies
 * than the win takes. */
static void test_progress(void **state)
{
    (void)state;
    char wdl[256], why[256], file[512];
    tc_tempdir(wdl, sizeof wdl);
    static const int mo[2][2] = {{4, 3}, {3, 4}};
    int nwdl = 0;
    FILE *f = td_open("morris_solved.txt");
    char line[512], *fl[TD_MAXF];
    int n[2] = {0, 0};
    while (td_next_record(f, line, sizeof line, fl)) {
        int far = strcmp(fl[0], "far") == 0;
        if (td_sanitized() && n[far] >= 2)
            continue; /* two of each kind */
        tables_dtm();
        for (int k = 0; k < 2 && far; k++) {
            if (!nwdl)
                assert_int_equal(tb_write(wdl, 0, 0, mo[k][0], mo[k][1], TB_ENC_WDL2, dtm_entry,
                                          (void *)mo[k], why, sizeof why),
                                 0);
            tb_file_name(0, 0, mo[k][0], mo[k][1], why, sizeof why);
            snprintf(file, sizeof file, "%s/%s", wdl, why);
            assert_int_equal(tb_open_file(file, 0, 0, mo[k][0], mo[k][1]), 0);
        }
        nwdl += far;
        GameOptions o;
        options(&o, 0, 100);
        unsigned char pos[POS_MAX_BYTES];
        load(pos, &o, fl[1]);
        int v, plies;
        Move m;
        assert_int_equal(G->solver->solve(pos, &v, &m), 1);
        assert_true(v > 0);
        /* far: read without a distance; rule: longer than MoveRule leaves */
        int dist = VALUE_WIN - v, left = 100 - G->reversible_plies(pos);
        if (far ? dist < TB_MAXD : dist <= left)
            fail_msg("%s: win in %d plies, %d left", fl[1], dist, left);
        int r = play_out(pos, 400, &plies, fl[1]);
        if (r != td_result_code(fl[2]))
            fail_msg("%s: %s after %d plies", fl[1], r == RESULT_DRAW ? "draw" : "no win", plies);
        n[far]++;
    }
    fclose(f);
    tables_dtm();
    tc_rmdir(wdl);
    assert_true(n[0] >= 2 && n[1] >= (td_sanitized() ? 2 : 4));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_placement), cmocka_unit_test(test_go_plays_it),
        cmocka_unit_test(test_solve_until),     cmocka_unit_test(test_solve_command),
        cmocka_unit_test(test_progress),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
