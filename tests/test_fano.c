/*
 * Fano330-R-Morris tests: the rules as positions (tests/data/fano_rules.txt),
 * malformed FENs, and the solver: the
 * start and its 14 first moves (tests/data/fano_first_moves.txt), the
 * solver's values against a plain depth-limited search, and its chosen
 * moves keeping the value on a large random sample; the picture of `d`.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fano/fano.h"
#include "game.h"
#include "past.h"
#include "perft.h"
#include "testdata.h"

static const Game *G = &game_fano;

static void load(void *pos, const char *fen)
{
    char err[256];
    GameOptions o;
    game_options_default(&o);
    if (G->from_fen(pos, fen, &o, err, sizeof err) != 0)
        fail_msg("FEN '%s' rejected: %s", fen, err);
}

static void check_pos_line(char **f, int nf)
{
    assert_true(nf >= 6);
    unsigned char pos[POS_MAX_BYTES];
    Move moves[64];
    load(pos, f[1]);
    char out[FEN_MAX];
    G->to_fen(pos, out, sizeof out);
    assert_string_equal(out, f[1]);
    if (strcmp(f[2], "-") != 0 && G->result(pos) != td_result_code(f[2]))
        fail_msg("%s: result %d, want %s", f[0], G->result(pos), f[2]);
    int n = G->gen_moves(pos, moves);
    if (strcmp(f[3], "-") != 0 && n != atoi(f[3]))
        fail_msg("%s: %d legal moves, want %s", f[0], n, f[3]);
    td_check_move_lists(G, pos, f[0], f[4], f[5]);
}

static void check_seq_line(char **f, int nf)
{
    assert_true(nf >= 4);
    unsigned char pos[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    GameOptions o;
    game_options_default(&o);
    load(pos, f[1]);
    Key keys[64];
    int nk = 0;
    char list[256];
    snprintf(list, sizeof list, "%s", f[2]);
    for (char *t = strtok(list, " "); t; t = strtok(NULL, " ")) {
        assert_int_equal(past_result(G, pos, keys, nk), RESULT_NONE);
        Move m = game_parse_move(G, pos, t);
        if (m == MOVE_NONE)
            fail_msg("%s: move %s is not legal", f[0], t);
        assert_true(nk < 64);
        keys[nk++] = G->key(pos);
        G->make(pos, m, undo);
    }
    int res = past_result(G, pos, keys, nk);
    if (res != td_result_code(f[3]))
        fail_msg("%s: result %d, want %s", f[0], res, f[3]);
}

static void test_rules(void **state)
{
    (void)state;
    assert_true(td_rules_file("fano_rules.txt", check_pos_line, check_seq_line) >= 12);
    assert_int_equal(G->repetition_count, 2);
}

static void test_bad_fens(void **state)
{
    (void)state;
    FILE *fp = td_open("fano_badfens.txt");
    char line[1024];
    int done = 0;
    GameOptions o;
    game_options_default(&o);
    while (td_next_line(fp, line, sizeof line, NULL)) {
        td_check_fen_rejected(G, line, &o, 0xA5);
        done++;
    }
    fclose(fp);
    assert_true(done >= 10);
    /* And a good one, equal to the start. */
    unsigned char a[POS_MAX_BYTES], b[POS_MAX_BYTES];
    char err[256];
    assert_int_equal(G->init(a, &o, err, sizeof err), 0);
    assert_int_equal(G->from_fen(b, "././././././. w", &o, err, sizeof err), 0);
    assert_memory_equal(a, b, G->pos_size);
}

/* Exact value of a solved position as text: "draw", "win", "loss". */
static const char *value_class(int v)
{
    return v > 0 ? "win" : v < 0 ? "loss" : "draw";
}

static void test_first_moves(void **state)
{
    (void)state;
    long npos = 0;
    double ms = 0;
    assert_int_equal(fano_solver_init(&npos, &ms), 0);
    assert_true(npos > 1000000);
    unsigned char pos[POS_MAX_BYTES];
    char err[256];
    GameOptions o;
    game_options_default(&o);
    assert_int_equal(G->init(pos, &o, err, sizeof err), 0);
    Move moves[64];
    int values[64];
    int n = fano_solve_moves(pos, moves, values, 64);
    assert_int_equal(n, 14);
    FILE *fp = td_open("fano_first_moves.txt");
    char line[256], name[64], want[64];
    int seen = 0;
    while (td_next_line(fp, line, sizeof line, NULL)) {
        if (sscanf(line, "%63s %63s", name, want) != 2)
            continue;
        if (!strcmp(name, "start")) {
            int v;
            Move best;
            assert_int_equal(G->solver->solve(pos, &v, &best), 1);
            assert_string_equal(value_class(v), want);
            assert_true(best != MOVE_NONE);
            continue;
        }
        Move m = game_parse_move(G, pos, name);
        assert_true(m != MOVE_NONE);
        int found = 0;
        for (int i = 0; i < n; i++)
            if (moves[i] == m) {
                if (strcmp(value_class(values[i]), want) != 0)
                    fail_msg("first move %s: %s, want %s", name, value_class(values[i]), want);
                found = 1;
            }
        assert_true(found);
        seen++;
    }
    fclose(fp);
    assert_int_equal(seen, 14);
}

/* Plain depth-limited search, no table: can the side to move force a win
 * within d plies?  Must it lose within d plies? */
static int must_lose(void *pos, int d);

static int can_win(void *pos, int d)
{
    int r = G->result(pos), s = G->side_to_move(pos);
    if (r != RESULT_NONE)
        return r == (s == SIDE_P1 ? RESULT_P1_WIN : RESULT_P2_WIN);
    if (d == 0)
        return 0;
    Move moves[64];
    unsigned char undo[UNDO_MAX_BYTES];
    int n = G->gen_moves(pos, moves), win = 0;
    for (int i = 0; i < n && !win; i++) {
        G->make(pos, moves[i], undo);
        win = must_lose(pos, d - 1);
        G->unmake(pos, moves[i], undo);
    }
    return win;
}

static int must_lose(void *pos, int d)
{
    int r = G->result(pos), s = G->side_to_move(pos);
    if (r != RESULT_NONE)
        return r == (s == SIDE_P1 ? RESULT_P2_WIN : RESULT_P1_WIN);
    if (d == 0)
        return 0;
    Move moves[64];
    unsigned char undo[UNDO_MAX_BYTES];
    int n = G->gen_moves(pos, moves), lose = 1;
    for (int i = 0; i < n && lose; i++) {
        G->make(pos, moves[i], undo);
        lose = can_win(pos, d - 1);
        G->unmake(pos, moves[i], undo);
    }
    return lose;
}

/* A position after a random number of random (mostly safe) moves. */
static void random_position(void *pos, uint64_t *rng)
{
    char err[256];
    GameOptions o;
    game_options_default(&o);
    G->init(pos, &o, err, sizeof err);
    int plies = (int)rng_below(rng, 30);
    Move moves[64];
    unsigned char undo[UNDO_MAX_BYTES];
    for (int i = 0; i < plies && G->result(pos) == RESULT_NONE; i++) {
        int n = G->gen_moves(pos, moves);
        Move m = rng_below(rng, 8) ? G->playout->move(pos, moves, n, rng)
                                   : moves[rng_below(rng, (uint32_t)n)];
        G->make(pos, m, undo);
    }
}

static void test_solver_against_search(void **state)
{
    (void)state;
    uint64_t rng = 99;
    int samples = td_sanitized() ? 40 : 400, limit = 5;
    int wins = 0, losses = 0, draws = 0;
    for (int k = 0; k < samples; k++) {
        unsigned char pos[POS_MAX_BYTES];
        random_position(pos, &rng);
        int v;
        Move best;
        assert_int_equal(G->solver->solve(pos, &v, &best), 1);
        if (v > 0) {
            int n = VALUE_WIN - v;
            assert_in_range(n, 0, 200);
            if (n <= limit) {
                assert_true(can_win(pos, n));
                assert_true(n == 0 || !can_win(pos, n - 1));
            } else {
                assert_false(can_win(pos, limit));
            }
            assert_false(must_lose(pos, limit));
            wins++;
        } else if (v < 0) {
            int n = VALUE_WIN + v;
            assert_in_range(n, 0, 200);
            if (n <= limit) {
                assert_true(must_lose(pos, n));
                assert_true(n == 0 || !must_lose(pos, n - 1));
            } else {
                assert_false(must_lose(pos, limit));
            }
            assert_false(can_win(pos, limit));
            losses++;
        } else {
            assert_false(can_win(pos, limit));
            assert_false(must_lose(pos, limit));
            draws++;
        }
    }
    /* The sample holds every kind of value. */
    assert_true(wins > 0 && losses > 0 && draws > 0);
}

static void test_solver_moves_keep_value(void **state)
{
    (void)state;
    uint64_t rng = 4242;
    int samples = td_sanitized() ? 2000 : 20000;
    for (int k = 0; k < samples; k++) {
        unsigned char pos[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
        random_position(pos, &rng);
        int v, v2;
        Move best;
        assert_int_equal(G->solver->solve(pos, &v, &best), 1);
        if (G->result(pos) != RESULT_NONE) {
            assert_true(best == MOVE_NONE);
            assert_true(v == VALUE_WIN || v == -VALUE_WIN);
            continue;
        }
        Move moves[64];
        int values[64];
        int n = fano_solve_moves(pos, moves, values, 64);
        assert_true(n >= 1);
        assert_true(moves[0] == best);
        assert_int_equal(values[0], v);
        for (int i = 1; i < n; i++)
            assert_true(values[i] <= values[i - 1]);
        /* The chosen move: the successor's value mirrors ours, one ply
         * nearer the end; a draw stays a draw. */
        G->make(pos, best, undo);
        assert_int_equal(G->solver->solve(pos, &v2, &best), 1);
        if (v > 0)
            assert_int_equal(v2, -(v + 1));
        else if (v < 0)
            assert_int_equal(v2, -v + 1);
        else
            assert_int_equal(v2, 0);
    }
}

/*
 * The board's symmetries keep values: the third turn
 * of the triangle (corners 3->5->6->3, midpoints 2->1->4->2, centre fixed),
 * the reflection swapping 5<->6 and 2<->4, and swapping the two shapes.
 * The solver indexes boards point by point, so these are independent checks.
 */
static void transform_fen(const char *fen, char *out, size_t len, const int map[7], int swap)
{
    char pts[7][4];
    char side;
    int n = sscanf(fen, "%3[^/]/%3[^/]/%3[^/]/%3[^/]/%3[^/]/%3[^/]/%3[^ ] %c", pts[0], pts[1],
                   pts[2], pts[3], pts[4], pts[5], pts[6], &side);
    assert_int_equal(n, 8);
    char moved[7][4];
    for (int i = 0; i < 7; i++) {
        memcpy(moved[map[i] - 1], pts[i], sizeof moved[0]);
        for (char *c = moved[map[i] - 1]; swap && *c; c++)
            *c = *c == 'C' ? 'T' : *c == 'T' ? 'C' : *c == 'c' ? 't' : *c == 't' ? 'c' : *c;
    }
    snprintf(out, len, "%s/%s/%s/%s/%s/%s/%s %c", moved[0], moved[1], moved[2], moved[3], moved[4],
             moved[5], moved[6], side);
}

static void test_solver_symmetries(void **state)
{
    (void)state;
    /* map[i] = image of point i+1 */
    static const int turn[7] = {4, 1, 5, 2, 6, 3, 7};
    static const int mirror[7] = {1, 4, 3, 2, 6, 5, 7};
    static const int same[7] = {1, 2, 3, 4, 5, 6, 7};
    uint64_t rng = 777;
    int samples = td_sanitized() ? 300 : 3000, decided = 0;
    for (int k = 0; k < samples; k++) {
        unsigned char pos[POS_MAX_BYTES], img[POS_MAX_BYTES];
        char fen[FEN_MAX], fen2[FEN_MAX];
        random_position(pos, &rng);
        G->to_fen(pos, fen, sizeof fen);
        int v, w;
        Move best;
        assert_int_equal(G->solver->solve(pos, &v, &best), 1);
        decided += v != 0;
        const int *maps[3] = {turn, mirror, same};
        for (int t = 0; t < 4; t++) {
            transform_fen(fen, fen2, sizeof fen2, maps[t % 3], t >= 2);
            load(img, fen2);
            assert_int_equal(G->solver->solve(img, &w, &best), 1);
            if (v != w)
                fail_msg("%s: %d but %s: %d", fen, v, fen2, w);
        }
    }
    assert_true(decided > 0);
}

static void test_solver_outside(void **state)
{
    (void)state;
    /* White to move with more pieces placed than Black: no value. */
    unsigned char pos[POS_MAX_BYTES];
    load(pos, "C/T/././././. w");
    int v = 12345;
    Move best = 1;
    assert_int_equal(G->solver->solve(pos, &v, &best), 0);
    Move moves[64];
    int values[64];
    assert_int_equal(fano_solve_moves(pos, moves, values, 64), -1);
}

/* The picture of `d`: the board and the side to move, without the FEN
 * line (the protocol prints that once). */
static void test_print(void **state)
{
    (void)state;
    unsigned char pos[POS_MAX_BYTES];
    load(pos, "C/t/./Tc/././. b");
    char *buf = td_print(G, pos, 0);
    assert_non_null(strstr(buf, "4:Tc"));
    assert_non_null(strstr(buf, "Black to move; in hand White 1C 1T, Black 1c 1t"));
    assert_null(strstr(buf, "Fen"));
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_bad_fens),
        cmocka_unit_test(test_first_moves),
        cmocka_unit_test(test_solver_against_search),
        cmocka_unit_test(test_solver_moves_keep_value),
        cmocka_unit_test(test_solver_symmetries),
        cmocka_unit_test(test_solver_outside),
        cmocka_unit_test(test_print),
    };
    return cmocka_run_group_tests_name("fano", tests, NULL, NULL);
}
