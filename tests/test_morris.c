/*
 * Morris family tests: the rules as positions (tests/data/morris_rules.txt),
 * perft (tests/data/morris_perft.txt), FEN round trips and malformed FENs,
 * random games under every option set (unmake, incremental key, piece
 * counts, move texts).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "game.h"
#include "history.h"
#include "perft.h"
#include "testdata.h"

static const Game *G = &game_morris;

/* "pieces=12 diag=1 fly=0 rule=50" over the defaults. */
static void parse_options(const char *s, GameOptions *o)
{
    game_options_default(o);
    const char *p;
    if ((p = strstr(s, "pieces=")))
        o->pieces = atoi(p + 7);
    if ((p = strstr(s, "diag=")))
        o->diagonals = atoi(p + 5);
    if ((p = strstr(s, "fly=")))
        o->flying = atoi(p + 4);
    if ((p = strstr(s, "rule=")))
        o->move_rule = atoi(p + 5);
}

static void load(void *pos, const GameOptions *o, const char *fen)
{
    char err[256];
    int rc = G->from_fen(pos, fen, o, err, sizeof err);
    if (rc != 0)
        fail_msg("FEN '%s' rejected: %s", fen, err);
}

static void check_pos_line(char **f, int nf)
{
    assert_true(nf >= 7);
    GameOptions o;
    parse_options(f[1], &o);
    unsigned char pos[POS_MAX_BYTES];
    Move moves[960];
    load(pos, &o, f[2]);
    int res = G->result(pos);
    if (res != td_result_code(f[3]))
        fail_msg("%s: result %d, want %s", f[0], res, f[3]);
    int n = G->gen_moves(pos, moves);
    if (strcmp(f[4], "-") != 0 && n != atoi(f[4]))
        fail_msg("%s: %d legal moves, want %s", f[0], n, f[4]);
    td_check_move_lists(G, pos, f[0], f[5], f[6]);
}

static void check_seq_line(char **f, int nf)
{
    assert_true(nf >= 6);
    GameOptions o;
    parse_options(f[1], &o);
    unsigned char pos[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    load(pos, &o, f[2]);
    History h;
    history_init(&h);
    char list[512];
    snprintf(list, sizeof list, "%s", f[3]);
    for (char *t = strtok(list, " "); t; t = strtok(NULL, " ")) {
        assert_int_equal(history_result(G, pos, &o, h.keys, h.len), RESULT_NONE);
        Move m = game_parse_move(G, pos, t);
        if (m == MOVE_NONE)
            fail_msg("%s: move %s is not legal", f[0], t);
        assert_int_equal(history_push(&h, G->key(pos)), 0);
        G->make(pos, m, undo);
    }
    int res = history_result(G, pos, &o, h.keys, h.len);
    if (res != td_result_code(f[4]))
        fail_msg("%s: result %d, want %s", f[0], res, f[4]);
    assert_int_equal(G->reversible_plies(pos), atoi(f[5]));
    history_free(&h);
}

static void test_rules(void **state)
{
    (void)state;
    assert_true(td_rules_file("morris_rules.txt", check_pos_line, check_seq_line) >= 20);
}

static void test_perft(void **state)
{
    (void)state;
    FILE *fp = td_open("morris_perft.txt");
    char line[1024];
    int done = 0;
    char *f[TD_MAXF];
    int nf;
    while ((nf = td_next_record(fp, line, sizeof line, f)) > 0) {
        assert_int_equal(nf, 3);
        GameOptions o;
        parse_options(f[0], &o);
        unsigned char pos[POS_MAX_BYTES];
        char err[256];
        if (!strcmp(f[1], "start"))
            assert_int_equal(G->init(pos, &o, err, sizeof err), 0);
        else
            load(pos, &o, f[1]);
        char what[256];
        snprintf(what, sizeof what, "%s %s", f[0], f[1]);
        td_check_perft_counts(G, pos, what, f[2], 1);
        done++;
    }
    fclose(fp);
    assert_true(done >= 5);
}

static void test_fen_round_trip(void **state)
{
    (void)state;
    FILE *fp = td_open("morris_fens.txt");
    char line[1024];
    int done = 0;
    char *f[TD_MAXF];
    int nf;
    while ((nf = td_next_record(fp, line, sizeof line, f)) > 0) {
        assert_int_equal(nf, 2);
        GameOptions o;
        parse_options(f[0], &o);
        unsigned char pos[POS_MAX_BYTES];
        char out[FEN_MAX];
        load(pos, &o, f[1]);
        G->to_fen(pos, out, sizeof out);
        assert_string_equal(out, f[1]);
        assert_true(G->key(pos) == G->key_from_scratch(pos));
        done++;
    }
    fclose(fp);
    assert_true(done >= 4);

    /* Without the ply count the FEN means 0 plies. */
    GameOptions o;
    game_options_default(&o);
    unsigned char pos[POS_MAX_BYTES];
    char out[FEN_MAX], err[256];
    assert_int_equal(G->from_fen(pos, "3/3/3/6/3/3/3 w 9 9", &o, err, sizeof err), 0);
    G->to_fen(pos, out, sizeof out);
    assert_string_equal(out, "3/3/3/6/3/3/3 w 9 9 0");
    /* The start position and its FEN are the same position. */
    unsigned char start[POS_MAX_BYTES];
    assert_int_equal(G->init(start, &o, err, sizeof err), 0);
    assert_memory_equal(start, pos, G->pos_size);
}

static void test_bad_fens(void **state)
{
    (void)state;
    FILE *fp = td_open("morris_badfens.txt");
    char line[1024];
    int done = 0;
    char *f[TD_MAXF];
    int nf;
    while ((nf = td_next_record(fp, line, sizeof line, f)) > 0) {
        assert_true(nf >= 1);
        GameOptions o;
        parse_options(f[0], &o);
        td_check_fen_rejected(G, nf >= 2 ? f[1] : "", &o, 0x5A);
        done++;
    }
    fclose(fp);
    assert_true(done >= 20);
}

/* Pieces of a side on the board, from the FEN's board field. */
static void fen_counts(const char *fen, int on_board[2], int hand[2])
{
    on_board[0] = on_board[1] = 0;
    const char *c = fen;
    for (; *c && *c != ' '; c++) {
        on_board[0] += *c == 'W';
        on_board[1] += *c == 'B';
    }
    char side;
    int rev;
    assert_int_equal(sscanf(c, " %c %d %d %d", &side, &hand[0], &hand[1], &rev), 4);
}

static void random_games(const GameOptions *o, int games, uint64_t seed)
{
    unsigned char pos[POS_MAX_BYTES], copy[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    Move moves[960];
    char err[256], fen[FEN_MAX], text[MOVE_STR_MAX];
    int ends[4] = {0, 0, 0, 0};
    for (int gi = 0; gi < games; gi++) {
        assert_int_equal(G->init(pos, o, err, sizeof err), 0);
        int total_before = 2 * o->pieces, ply = 0;
        for (; ply < 300 && G->result(pos) == RESULT_NONE; ply++) {
            int n = G->gen_moves(pos, moves);
            assert_in_range(n, 1, G->max_moves);
            int nb[2], h[2];
            G->to_fen(pos, fen, sizeof fen);
            fen_counts(fen, nb, h);
            assert_true(nb[0] + h[0] <= o->pieces && nb[1] + h[1] <= o->pieces);
            assert_true(nb[0] + h[0] + nb[1] + h[1] <= total_before);
            total_before = nb[0] + h[0] + nb[1] + h[1];
            Move m = moves[rng_below(&seed, (uint32_t)n)];
            game_move_str(G, pos, m, text, sizeof text);
            assert_true(game_parse_move(G, pos, text) == m);
            assert_int_equal(G->move_is_noisy(pos, m) != 0, strchr(text, 'x') != NULL);
            (void)G->evaluate(pos);
            memcpy(copy, pos, G->pos_size);
            int rev = G->reversible_plies(pos);
            G->make(pos, m, undo);
            assert_true(G->key(pos) == G->key_from_scratch(pos));
            assert_int_equal(G->side_to_move(pos), 1 - G->side_to_move(copy));
            /* Plies since the last removal: reset by removals and placements. */
            int placement = strchr(text, '-') == NULL;
            assert_int_equal(G->reversible_plies(pos),
                             (strchr(text, 'x') || placement) ? 0 : rev + 1);
            G->unmake(pos, m, undo);
            assert_memory_equal(pos, copy, G->pos_size);
            G->make(pos, m, undo);
        }
        ends[G->result(pos)]++;
    }
    /* Random games do end by the rules, not only by the ply cap. */
    assert_true(ends[RESULT_P1_WIN] + ends[RESULT_P2_WIN] + ends[RESULT_DRAW] > 0);
}

static void test_random_games(void **state)
{
    (void)state;
    int games = td_sanitized() ? 10 : 60;
    GameOptions o;
    for (int v = 0; v < 8; v++) {
        game_options_default(&o);
        o.pieces = (v & 1) ? 12 : 9;
        o.diagonals = (v >> 1) & 1;
        o.flying = !((v >> 2) & 1);
        random_games(&o, games, 777 + (uint64_t)v);
    }
}

static void test_bad_options_and_moves(void **state)
{
    (void)state;
    GameOptions o;
    game_options_default(&o);
    o.pieces = 11;
    unsigned char pos[POS_MAX_BYTES];
    char err[256] = "";
    assert_int_equal(G->init(pos, &o, err, sizeof err), -1);
    assert_true(strlen(err) > 0);
    game_options_default(&o);
    assert_int_equal(G->init(pos, &o, err, sizeof err), 0);
    const char *bad[] = {"", "d", "z9", "d2d2", "d2xx", "d2-d3", "d2xa1",
                         "a1a1a1a1", "d2-d3xg7", "h1", "a2", "d2 "};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_true(game_parse_move(G, pos, bad[i]) == MOVE_NONE);
    assert_true(game_parse_move(G, pos, "D2") != MOVE_NONE);
    assert_int_equal(G->repetition_count, 3);
    assert_int_equal(G->uses_move_rule, 1);
}

static void test_print(void **state)
{
    (void)state;
    GameOptions o;
    game_options_default(&o);
    o.diagonals = 1;
    unsigned char pos[POS_MAX_BYTES];
    char err[256];
    assert_int_equal(G->from_fen(pos, "W1B/BWB/1W1/WB2WB/1B1/W1W/B1W w 0 0 0", &o, err,
                                 sizeof err), 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    assert_non_null(mem);
    G->print(pos, mem, 0);
    fclose(mem);
    /* Rank 7: a7 White, d7 empty, g7 Black; the diagonals are drawn. */
    assert_non_null(strstr(buf, "7 W-----------.-----------B"));
    assert_non_null(strstr(buf, "\\"));
    assert_non_null(strstr(buf, "a   b   c   d   e   f   g"));
    assert_null(strstr(buf, "Fen")); /* the protocol's d prints the FEN once */
    free(buf);
}

static void test_eval_policy_key(void **state)
{
    (void)state;
    GameOptions o;
    game_options_default(&o);
    unsigned char a[POS_MAX_BYTES], b[POS_MAX_BYTES];
    /* White a piece up (and a mill): good for White, bad for Black. */
    load(a, &o, "3/B1B/W2/5W/3/BB1/WWW w 0 0 0");
    load(b, &o, "3/B1B/W2/5W/3/BB1/WWW b 0 0 0");
    assert_true(G->evaluate(a) > 0);
    assert_true(G->evaluate(b) < 0);
    /* The key tells the side to move and the pieces in hand apart. */
    assert_true(G->key(a) != G->key(b));
    load(a, &o, "3/3/3/6/3/3/3 w 9 9 0");
    load(b, &o, "3/3/3/6/3/3/3 w 9 8 0");
    assert_true(G->key(a) != G->key(b));
    /* The plies counter is not part of the key (repetition compares
     * positions, not counters). */
    load(b, &o, "3/3/3/6/3/3/3 w 9 9 7");
    assert_true(G->key(a) == G->key(b));
    /* Playouts take a removal when there is one. */
    load(a, &o, "BBB/B2/3/6/3/3/WW1 w 5 5 0");
    Move moves[960];
    int n = G->gen_moves(a, moves);
    uint64_t rng = 1;
    for (int i = 0; i < 50; i++) {
        Move m = G->playout_move(a, moves, n, &rng);
        assert_true(G->move_is_noisy(a, m));
    }
    load(a, &o, "3/3/3/6/3/3/3 w 9 9 0");
    n = G->gen_moves(a, moves);
    for (int i = 0; i < n; i++)
        assert_false(G->move_is_noisy(a, moves[i]));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_perft),
        cmocka_unit_test(test_fen_round_trip),
        cmocka_unit_test(test_bad_fens),
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_bad_options_and_moves),
        cmocka_unit_test(test_print),
        cmocka_unit_test(test_eval_policy_key),
    };
    return cmocka_run_group_tests_name("morris", tests, NULL, NULL);
}
