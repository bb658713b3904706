/*
 * Morelli: the reference perft of RULES.md, the game's own perft against
 * perft_generic, FEN round trips and rejections, start positions, and
 * random-game invariants for every board size, ruleset and setup.
 * Expected values live in tests/data/morelli_*.txt.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "game.h"
#include "perft.h"
#include "testdata.h"

static const Game *G = &game_morelli;

/* ---- the reference perft ------------------------------------------------ */

/* ---- FENs ----------------------------------------------------------------- */

static void test_fens_and_fast_perft(void **state)
{
    (void)state;
    FILE *f = td_open("morelli_fens.txt");
    char line[1024], err[256], fen[FEN_MAX];
    unsigned char pos[POS_MAX_BYTES];
    int n = 0;
    GameOptions opt;
    const char *want;
    while ((want = td_morelli_fen_record(f, line, sizeof line, &opt)) != NULL) {
        if (G->from_fen(pos, want, &opt, err, sizeof err) != 0)
            print_error("rejected %s: %s\n", want, err);
        G->to_fen(pos, fen, sizeof fen);
        assert_string_equal(fen, want);
        assert_true(G->key(pos) == G->key_from_scratch(pos));
        int depth = td_sanitized() ? 1 : 2;
        for (int d = 1; d <= depth; d++) {
            uint64_t g = perft_generic(G, pos, d, 0);
            assert_int_equal(perft(G, pos, d, 1), g);
            assert_int_equal(perft(G, pos, d, 0), g);
        }
        n++;
    }
    fclose(f);
    assert_true(n >= 10);
}

static void test_bad_fens(void **state)
{
    (void)state;
    FILE *f = td_open("morelli_badfens.txt");
    char line[1024], err[256];
    unsigned char pos[POS_MAX_BYTES], copy[POS_MAX_BYTES];
    GameOptions def;
    game_options_default(&def);
    int n = 0;
    while (td_next_line(f, line, sizeof line, NULL)) {
        char *bar = strchr(line, '|');
        if (!bar)
            continue;
        *bar = '\0';
        char *fen = bar + 1;
        if (*fen == ' ')
            fen++;
        GameOptions opt = def;
        char *bar2 = strchr(fen, '|');
        if (bar2) {
            *bar2 = '\0';
            if (strstr(bar2 + 1, "pairs"))
                morelli_opts(&opt)->setup = SETUP_PAIRS;
        }
        assert_int_equal(G->init(pos, &def, err, sizeof err), 0);
        memcpy(copy, pos, G->pos_size);
        err[0] = '\0';
        int rc = G->from_fen(pos, fen, &opt, err, sizeof err);
        if (rc != -1)
            print_error("accepted (%s): '%s'\n", line, fen);
        assert_int_equal(rc, -1);
        assert_true(strlen(err) > 5);
        assert_memory_equal(pos, copy, G->pos_size);
        n++;
    }
    fclose(f);
    assert_true(n >= 20);
    /* a NULL fen too */
    assert_int_equal(G->from_fen(pos, NULL, &def, err, sizeof err), -1);
}

/* ---- start positions ------------------------------------------------------- */

static void test_setups(void **state)
{
    (void)state;
    GameOptions opt;
    game_options_default(&opt);
    unsigned char a[POS_MAX_BYTES], b[POS_MAX_BYTES];
    char err[256], fa[FEN_MAX], fb[FEN_MAX];
    /* the adjacent start as RULES.md writes it */
    assert_int_equal(G->init(a, &opt, err, sizeof err), 0);
    G->to_fen(a, fa, sizeof fa);
    assert_string_equal(
        fa, "bwwwwwwwwwwww/b11w/b11w/b11w/b11w/b11w/b11w/b11w/b11w/b11w/b11w/b11w/bbbbbbbbbbbbw b");
    /* random: same seed same board, another seed another board, and every
     * outer cell faces an adverse stone */
    morelli_opts(&opt)->setup = SETUP_RANDOM;
    for (int size = 9; size <= 13; size += 2) {
        morelli_opts(&opt)->board_size = size;
        int differ = 0;
        for (uint64_t seed = 1; seed <= 6; seed++) {
            morelli_opts(&opt)->setup_seed = seed;
            assert_int_equal(G->init(a, &opt, err, sizeof err), 0);
            assert_int_equal(G->init(b, &opt, err, sizeof err), 0);
            assert_memory_equal(a, b, G->pos_size);
            G->to_fen(a, fa, sizeof fa);
            morelli_opts(&opt)->setup_seed = seed + 100;
            assert_int_equal(G->init(b, &opt, err, sizeof err), 0);
            G->to_fen(b, fb, sizeof fb);
            differ += strcmp(fa, fb) != 0;
            /* the opposite of each cell: read the board from the FEN rows */
            char cells[13 * 13];
            td_fen_board(fa, size, cells);
            int ring = 0;
            for (int r = 0; r < size; r++)
                for (int c = 0; c < size; c++) {
                    char x = cells[r * size + c];
                    char y = cells[(size - 1 - r) * size + size - 1 - c];
                    if (r == 0 || c == 0 || r == size - 1 || c == size - 1) {
                        assert_true((x == 'b' && y == 'w') || (x == 'w' && y == 'b'));
                        ring++;
                    } else {
                        assert_int_equal(x, '.');
                    }
                }
            assert_int_equal(ring, 4 * (size - 1));
        }
        assert_true(differ >= 5);
    }
    /* bad options */
    game_options_default(&opt);
    morelli_opts(&opt)->board_size = 10;
    assert_int_equal(G->init(a, &opt, err, sizeof err), -1);
    game_options_default(&opt);
    morelli_opts(&opt)->setup = 7;
    assert_int_equal(G->init(a, &opt, err, sizeof err), -1);
}

/* ---- random games ----------------------------------------------------------- */

static int limit_for(int size)
{
    FILE *f = td_open("morelli_limits.txt");
    char line[128];
    int s, l, out = -1;
    while (td_next_line(f, line, sizeof line, NULL))
        if (sscanf(line, "%d %d", &s, &l) == 2 && s == size)
            out = l;
    fclose(f);
    assert_true(out > 0);
    return out;
}

/* Colour of every cell from the FEN: 'b', 'w', or '.' (kings count as '.'). */
static void fen_cells(const char *fen, int size, char *cells)
{
    td_fen_board(fen, size, cells);
    for (int i = 0; i < size * size; i++)
        if (cells[i] != 'b' && cells[i] != 'w')
            cells[i] = '.';
}

static void random_games(const GameOptions *opt, int games, uint64_t seed)
{
    unsigned char pos[POS_MAX_BYTES], back[POS_MAX_BYTES];
    Move *moves = malloc(sizeof(Move) * (size_t)G->max_moves);
    assert_non_null(moves);
    char err[256], fen[FEN_MAX], fen2[FEN_MAX];
    char cells[169], start[169];
    const int size = morelli_opts_c(opt)->board_size, ring = 4 * (size - 1),
              limit = limit_for(size);
    for (int gi = 0; gi < games; gi++) {
        assert_int_equal(G->init(pos, opt, err, sizeof err), 0);
        int play_plies = 0, placed = 0, stones = -1;
        for (int ply = 0; ply < 400; ply++) {
            assert_true(G->key(pos) == G->key_from_scratch(pos));
            G->to_fen(pos, fen, sizeof fen);
            assert_int_equal(G->from_fen(back, fen, opt, err, sizeof err), 0);
            G->to_fen(back, fen2, sizeof fen2);
            assert_string_equal(fen, fen2);
            assert_memory_equal(back, pos, G->pos_size);
            fen_cells(fen, size, cells);
            int count = 0;
            for (int i = 0; i < size * size; i++)
                count += cells[i] != '.';
            if (count == ring) {
                if (stones < 0) {
                    memcpy(start, cells, sizeof cells);
                    stones = count;
                }
                /* outer-ring stones never change colour: a ring cell keeps
                 * its stone or is left for good (nothing lands there) */
                for (int i = 0; i < size * size; i++) {
                    int r = i / size, c = i % size;
                    if (r == 0 || c == 0 || r == size - 1 || c == size - 1) {
                        assert_true(cells[i] == start[i] || cells[i] == '.');
                        start[i] = cells[i];
                    }
                }
            } else {
                assert_true(count < ring);
                assert_int_equal(stones, -1); /* never fewer once in play */
                assert_int_equal(count, placed);
            }
            int n = G->gen_moves(pos, moves);
            assert_true(n >= 0 && n <= G->max_moves);
            int res = G->result(pos);
            if (res != RESULT_NONE) {
                assert_int_equal(n, 0);
                assert_int_equal(count, ring);
                break;
            }
            assert_true(n > 0);
            td_play_checked(G, pos, moves[rng_below(&seed, (uint32_t)n)]);
            if (count < ring)
                placed += morelli_opts_c(opt)->setup == SETUP_PAIRS ? 2 : 1;
            else
                play_plies++;
        }
        assert_true(G->result(pos) != RESULT_NONE);
        assert_true(play_plies <= limit);
    }
    free(moves);
}

static void test_random_games(void **state)
{
    (void)state;
    int games = td_sanitized() ? 1 : 3;
    uint64_t seed = 77;
    for (int size = 9; size <= 13; size += 2)
        for (int rs = 0; rs < 2; rs++)
            for (int st = 0; st < 5; st++) {
                GameOptions opt;
                game_options_default(&opt);
                morelli_opts(&opt)->board_size = size;
                morelli_opts(&opt)->ruleset = rs;
                morelli_opts(&opt)->setup = st;
                morelli_opts(&opt)->setup_seed = seed;
                random_games(&opt, games, seed++ * 7919);
            }
}

/* ---- notation ---------------------------------------------------------------- */

static void test_move_text(void **state)
{
    (void)state;
    GameOptions opt;
    game_options_default(&opt);
    unsigned char pos[POS_MAX_BYTES];
    char err[256], text[MOVE_STR_MAX];
    assert_int_equal(G->init(pos, &opt, err, sizeof err), 0);
    Move m = game_parse_move(G, pos, "a2-b3");
    assert_true(m != MOVE_NONE);
    assert_true(game_parse_move(G, pos, "A2-B3") == m);
    assert_true(game_parse_move(G, pos, "a2b3") == m);
    G->move_to_str(pos, m, text, sizeof text);
    assert_string_equal(text, "a2-b3");
    const char *bad[] = {"",      "a2",     "a2-",    "a2-a3",  "a2-b3x", "a2-b3xb4",   "z2-b3",
                         "a0-b3", "a2-b33", "a14-b3", "a2-b3+", "a2--b3", "a2-b3 junk", "b3-a2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_true(game_parse_move(G, pos, bad[i]) == MOVE_NONE);
    /* placement */
    morelli_opts(&opt)->setup = SETUP_FREE;
    assert_int_equal(G->init(pos, &opt, err, sizeof err), 0);
    m = game_parse_move(G, pos, "A1");
    assert_true(m != MOVE_NONE);
    G->move_to_str(pos, m, text, sizeof text);
    assert_string_equal(text, "a1");
    assert_true(game_parse_move(G, pos, "b2") == MOVE_NONE);
}

/* ---- colour symmetry -------------------------------------------------------- */

/* The FEN of pos turned half a turn with the colours (and side) swapped. */
static void mirror_fen(const char *fen, int size, char *out, size_t len)
{
    char cells[169], kings[169];
    char side = *td_fen_board(fen, size, cells);
    for (int i = 0; i < size * size; i++) {
        char x = cells[size * size - 1 - i];
        kings[i] = x == 'b' ? 'w' : x == 'w' ? 'b' : x == 'B' ? 'W' : x == 'W' ? 'B' : '.';
    }
    size_t k = td_fen_rows(kings, size, out, len);
    snprintf(out + k, len - k, " %c", side == 'b' ? 'w' : 'b');
}

/* Turning the board and swapping colours changes nothing but the names:
 * the same number of moves, the same evaluation, the mirrored result. */
static void test_colour_symmetry(void **state)
{
    (void)state;
    unsigned char pos[POS_MAX_BYTES], mir[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    Move *moves = malloc(sizeof(Move) * (size_t)G->max_moves);
    Move *moves2 = malloc(sizeof(Move) * (size_t)G->max_moves);
    assert_non_null(moves);
    assert_non_null(moves2);
    char err[256], fen[FEN_MAX], mf[FEN_MAX];
    uint64_t seed = 4242;
    int checked = 0;
    for (int size = 9; size <= 13; size += 2)
        for (int rs = 0; rs < 2; rs++)
            for (int game = 0; game < 3; game++) {
                GameOptions opt;
                game_options_default(&opt);
                morelli_opts(&opt)->board_size = size;
                morelli_opts(&opt)->ruleset = rs;
                morelli_opts(&opt)->setup = SETUP_RANDOM;
                morelli_opts(&opt)->setup_seed = seed + (uint64_t)game;
                assert_int_equal(G->init(pos, &opt, err, sizeof err), 0);
                for (;;) {
                    G->to_fen(pos, fen, sizeof fen);
                    mirror_fen(fen, size, mf, sizeof mf);
                    if (G->from_fen(mir, mf, &opt, err, sizeof err) != 0)
                        print_error("%s -> %s: %s\n", fen, mf, err);
                    int n = G->gen_moves(pos, moves), n2 = G->gen_moves(mir, moves2);
                    assert_int_equal(n, n2);
                    assert_int_equal(G->evaluate(pos), G->evaluate(mir));
                    int r = G->result(pos), r2 = G->result(mir);
                    int flip[] = {RESULT_NONE, RESULT_P2_WIN, RESULT_P1_WIN, RESULT_DRAW};
                    assert_int_equal(r2, flip[r]);
                    checked++;
                    if (r != RESULT_NONE)
                        break;
                    G->make(pos, moves[rng_below(&seed, (uint32_t)n)], undo);
                }
            }
    free(moves);
    free(moves2);
    assert_true(checked > 100);
}

/* ---- print ------------------------------------------------------------------ */

static void test_print(void **state)
{
    (void)state;
    GameOptions opt;
    game_options_default(&opt);
    unsigned char pos[POS_MAX_BYTES];
    char err[256];
    const char *fen = "w8/w7w/w7w/w2bbb2w/w2bBb2w/w2bbb2w/w7w/w7w/wwwwwwwww w";
    assert_int_equal(G->from_fen(pos, fen, &opt, err, sizeof err), 0);
    for (int ansi = 0; ansi < 2; ansi++) {
        char *buf = td_print(G, pos, ansi);
        assert_non_null(strstr(buf, "White to move"));
        assert_non_null(strstr(buf, "Black king"));
        assert_non_null(strstr(buf, "  9 "));
        assert_non_null(strstr(buf, "  1 "));
        if (ansi) {
            assert_non_null(strstr(buf, "\033[48;5;"));
            assert_non_null(strstr(buf, " B "));
        } else {
            assert_null(strchr(buf, '\033'));
            assert_non_null(strstr(buf, " a b c d e f g h i"));
            /* rank 5 as letters: ring stone, green and blue bands, the king */
            assert_non_null(strstr(buf, "  5  w g u b B b u g w"));
        }
        free(buf);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fens_and_fast_perft),
        cmocka_unit_test(test_bad_fens),
        cmocka_unit_test(test_setups),
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_move_text),
        cmocka_unit_test(test_print),
        cmocka_unit_test(test_colour_symmetry),
    };
    return cmocka_run_group_tests_name("morelli", tests, NULL, NULL);
}
