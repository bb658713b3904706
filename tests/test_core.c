/*
 * Generic checks run on every game of the registry through the interface:
 * random games under every combination of the game's option values (from
 * its descriptor) where unmake restores the position byte for byte and the
 * incremental key equals the key computed from scratch, FEN round trips of
 * every position visited, and move text round trips; the perft of every
 * game from the one data file tests/data/perft.txt; and what each game
 * declares (capability blocks, search profile, own options) from
 * tests/data/game_interface.txt.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "game.h"
#include "past.h"
#include "options.h"
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

/* The values the random games try for o: every choice, both truth values,
 * the only values a spin allows, or else its min, default and max. */
static int option_values(const Option *o, int64_t *v)
{
    int n = 0;
    if (o->type == OPTION_COMBO)
        for (; o->choices[n]; n++)
            v[n] = n;
    else if (o->type == OPTION_CHECK) {
        v[n++] = 0;
        v[n++] = 1;
    } else if (o->only) {
        for (; o->only[n] != OPTION_ONLY_END; n++)
            v[n] = o->only[n];
    } else {
        int64_t c[3] = {o->min, o->def, o->max};
        for (int i = 0; i < 3; i++)
            if (n == 0 || v[n - 1] != c[i])
                v[n++] = c[i];
    }
    return n;
}

/* Random games under every combination of each game's option values. */
static void test_random_games_every_option(void **state)
{
    (void)state;
    for (int gi = 0; gi < game_count; gi++) {
        const Game *g = game_list[gi];
        int64_t vals[8][16];
        int nv[8], at[8] = {0}, combos = 0;
        assert_in_range(g->option_count, 0, 8);
        for (int k = 0; k < g->option_count; k++) {
            nv[k] = option_values(&g->options[k], vals[k]);
            assert_in_range(nv[k], 1, 16);
        }
        for (;;) {
            GameOptions opt;
            game_options_default(&opt);
            for (int k = 0; k < g->option_count; k++) {
                char text[64], err[256];
                option_value_str(&g->options[k], vals[k][at[k]], text, sizeof text);
                assert_int_equal(game_option_set(&opt, g->options[k].name, text, err, sizeof err),
                                 1);
                assert_true(game_option_get(g, &g->options[k], &opt) == vals[k][at[k]]);
            }
            random_games(g, &opt, 2, 777 + (uint64_t)combos);
            combos++;
            int k = 0;
            while (k < g->option_count && ++at[k] == nv[k])
                at[k++] = 0;
            if (k == g->option_count)
                break;
        }
        assert_true(combos >= 1);
    }
}

/* tests/data/perft.txt: every row's counts, depth by depth. */
static void test_perft_all(void **state)
{
    (void)state;
    FILE *fp = td_open("perft.txt");
    char line[1024], err[256];
    char *f[TD_MAXF];
    int nf, rows = 0, per_game[16] = {0};
    while ((nf = td_next_record(fp, line, sizeof line, f)) > 0) {
        assert_int_equal(nf, 4);
        const Game *g = game_by_name(f[0]);
        if (!g)
            fail_msg("perft.txt: unknown game '%s'", f[0]);
        GameOptions opt;
        td_options(f[1], &opt);
        unsigned char pos[POS_MAX_BYTES];
        if (strcmp(f[2], "startpos") == 0)
            assert_int_equal(g->init(pos, &opt, err, sizeof err), 0);
        else if (g->from_fen(pos, f[2], &opt, err, sizeof err) != 0)
            fail_msg("perft.txt: FEN '%s' rejected: %s", f[2], err);
        char what[1100];
        snprintf(what, sizeof what, "%s %s", f[0], f[2]);
        td_check_perft_counts(g, pos, what, f[3], 1);
        for (int i = 0; i < game_count && i < 16; i++)
            per_game[i] += game_list[i] == g;
        rows++;
    }
    fclose(fp);
    assert_true(rows >= 20);
    for (int i = 0; i < game_count && i < 16; i++)
        assert_true(per_game[i] >= 1); /* every game has perft numbers */
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

/* tests/data/game_interface.txt: each game's capability blocks, search
 * profile and own options as `d` shows them; each option's value lies in
 * the game's own blob, which no other game's setting changes. */
static void test_interface(void **state)
{
    (void)state;
    FILE *f = td_open("game_interface.txt");
    char line[512], *fl[TD_MAXF];
    int games = 0;
    static const SearchProfile plain = SEARCH_PROFILE_PLAIN;
    while (td_next_record(f, line, sizeof line, fl) > 0) {
        const Game *g = game_by_name(fl[0]);
        assert_non_null(g);
        games++;
        const void *blocks[] = {g->search, g->playout, g->solver, g->pictures, g->tuning, g->setup};
        const char *names[] = {"search", "playout", "solver", "pictures", "tuning", "setup"};
        for (int i = 0; i < 6; i++) {
            char word[16];
            snprintf(word, sizeof word, " %s ", names[i]);
            char have[128];
            snprintf(have, sizeof have, " %s ", fl[1]);
            if ((blocks[i] != NULL) != (strstr(have, word) != NULL))
                fail_msg("%s: block %s", g->name, names[i]);
        }
        const SearchProfile *sp = g->search ? &g->search->profile : &plain;
        char got[128];
        snprintf(got, sizeof got, "%d %d %d %d %s %d", sp->iir_depth, sp->etc_depth, sp->lmr_late,
                 sp->lmr_later, sp->lmr_style == LMR_STEPS ? "steps" : "table", sp->lmp);
        if (strcmp(fl[2], "plain") == 0)
            assert_memory_equal(sp, &plain, sizeof plain);
        else
            assert_string_equal(got, fl[2]);
        /* d's text, the own options only, unchanged by any other game's */
        GameOptions opt, other;
        game_options_default(&opt);
        char desc[512];
        game_options_describe(g, &opt, desc, sizeof desc);
        assert_string_equal(desc, fl[3]);
        assert_in_range(g->opts_size, 0, GAME_OPTS_MAX_BYTES);
        for (int k = 0; k < g->option_count; k++)
            assert_true(g->options[k].offset + sizeof(int64_t) <= g->opts_size);
        other = opt;
        for (int gi = 0; gi < game_count; gi++)
            for (int k = 0; k < game_list[gi]->option_count; k++)
                if (!option_find(g->options, g->option_count, game_list[gi]->options[k].name))
                    game_option_put(&other, game_list[gi]->options[k].name,
                                    game_list[gi]->options[k].max);
        assert_true(game_options_equal(g, &opt, &other));
        assert_memory_equal(game_opts(g, &opt), game_opts(g, &other), GAME_OPTS_MAX_BYTES);
    }
    fclose(f);
    assert_int_equal(games, game_count);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_random_games_all),
        cmocka_unit_test(test_random_games_every_option),
        cmocka_unit_test(test_perft_all),
        cmocka_unit_test(test_interface),
    };
    return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}
