/*
 * Generic checks run on every game of the registry through the interface:
 * random games where unmake restores the position byte for byte and the
 * incremental key equals the key computed from scratch, FEN round trips of
 * every position visited, and move text round trips.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "game.h"
#include "history.h"
#include "perft.h"
#include "testdata.h"

static void random_games(const Game *g, const GameOptions *opt, int games, uint64_t seed)
{
    unsigned char pos[POS_MAX_BYTES], back[POS_MAX_BYTES];
    Move moves[g->max_moves];
    char err[256], fen[FEN_MAX], fen2[FEN_MAX];
    for (int gi = 0; gi < games; gi++) {
        assert_int_equal(g->init(pos, opt, err, sizeof err), 0);
        for (int ply = 0; ply < 400 && g->result(pos) == RESULT_NONE; ply++) {
            assert_true(g->key(pos) == g->key_from_scratch(pos));
            g->to_fen(pos, fen, sizeof fen);
            assert_int_equal(g->from_fen(back, fen, opt, err, sizeof err), 0);
            g->to_fen(back, fen2, sizeof fen2);
            assert_string_equal(fen, fen2);
            assert_true(g->key(back) == g->key(pos));
            int n = g->gen_moves(pos, moves);
            assert_in_range(n, 1, g->max_moves);
            td_play_checked(g, pos, moves[rng_below(&seed, (uint32_t)n)]);
        }
    }
}

static void test_random_games_all(void **state)
{
    (void)state;
    GameOptions opt;
    game_options_default(&opt);
    for (int i = 0; i < game_count; i++)
        random_games(game_list[i], &opt, 20, 12345 + (uint64_t)i);
}

static void test_registry(void **state)
{
    (void)state;
    assert_ptr_equal(game_by_name("MORELLI"), &game_morelli);
    assert_ptr_equal(game_by_name("morris"), &game_morris);
    assert_ptr_equal(game_by_name("Fano"), &game_fano);
    assert_null(game_by_name("chess"));
    for (int i = 0; i < game_count; i++) {
        assert_true(game_list[i]->pos_size <= POS_MAX_BYTES);
        assert_true(game_list[i]->undo_size <= UNDO_MAX_BYTES);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_random_games_all),
    };
    return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}
