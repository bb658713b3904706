/*
 * Both searchers on the real games: legal moves on random positions of
 * every game under several options (with the game's history), the same
 * node count twice at a fixed depth, Search=random's legal and repeatable
 * games, Fano's solver agreeing with alpha-beta, and well-formed info
 * lines whose PV is a line of legal moves.
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
#include "morelli/morelli_options.h"
#include "morris/morris.h"
#include "past.h"
#include "search/search.h"
#include "search/search_internal.h"
#include "search_toys.h"
#include "testdata.h"

/* Legal moves from both searchers on random positions of every game under
 * several options, with the game's history passed along. */
static void random_positions(const Game *g, const GameOptions *opt, int trials, uint64_t seed)
{
    unsigned char pos[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    char err[256];
    Move *moves = malloc((size_t)g->max_moves * sizeof *moves);
    Key hist[512];
    assert_non_null(moves);
    if (g->init(pos, opt, err, sizeof err) != 0 || g->result(pos) != RESULT_NONE) {
        free(moves); /* a game not written yet */
        return;
    }
    Search *ab = ts_new_search("alphabeta", "2"), *mc = ts_new_search("mcts", "2");
    assert_int_equal(search_setoption(ab, "Threads", (seed & 1) ? "2" : "1", err, sizeof err), 0);
    for (int t = 0; t < trials; t++) {
        assert_int_equal(g->init(pos, opt, err, sizeof err), 0);
        int plies = (int)rng_below(&seed, 120), nh = 0;
        for (int i = 0; i < plies && g->result(pos) == RESULT_NONE && nh < 500; i++) {
            int n = g->gen_moves(pos, moves);
            hist[nh++] = g->key(pos);
            g->make(pos, moves[rng_below(&seed, (uint32_t)n)], undo);
        }
        for (int a = 0; a < 2; a++) {
            SearchLimits lim;
            search_limits_init(&lim);
            if (t & 1)
                lim.depth = a ? 1 : 2;
            else
                lim.nodes = a ? 100 : 2000;
            SearchResult r;
            Move m = search_go(a ? mc : ab, g, pos, opt, hist, nh, &lim, NULL, NULL, NULL, &r);
            int over = past_result(g, pos, hist, nh) != RESULT_NONE;
            int n = over ? 0 : g->gen_moves(pos, moves), legal = 0;
            for (int i = 0; i < n; i++)
                legal |= moves[i] == m;
            if (over)
                assert_true(m == MOVE_NONE);
            else if (!legal) {
                char fen[FEN_MAX];
                g->to_fen(pos, fen, sizeof fen);
                fail_msg("%s %s: illegal move %u from %s", g->name, fen, (unsigned)m,
                         a ? "mcts" : "alphabeta");
            }
        }
    }
    search_free(ab);
    search_free(mc);
    free(moves);
}

static void test_random_positions(void **state)
{
    (void)state;
    int trials = td_sanitized() ? 2 : 6;
    for (int i = 0; i < game_count; i++) {
        GameOptions opt;
        game_options_default(&opt);
        random_positions(game_list[i], &opt, trials, 100 + (uint64_t)i);
        if (game_list[i] == &game_morelli) {
            morelli_opts(&opt)->board_size = 9;
            morelli_opts(&opt)->ruleset = RULESET_CLASSIC;
            morelli_opts(&opt)->setup = SETUP_FREE;
            random_positions(game_list[i], &opt, trials, 201);
            morelli_opts(&opt)->board_size = 11;
            morelli_opts(&opt)->ruleset = RULESET_STANDARD;
            morelli_opts(&opt)->setup = SETUP_RANDOM;
            morelli_opts(&opt)->setup_seed = 5;
            random_positions(game_list[i], &opt, trials, 302);
        } else if (game_list[i] == &game_morris) {
            morris_opts(&opt)->pieces = 12;
            morris_opts(&opt)->diagonals = 1;
            morris_opts(&opt)->move_rule = 10;
            random_positions(game_list[i], &opt, trials, 403);
        }
    }
}

/* Fano: alpha-beta without the solver must find the solver's exact value
 * for the positions the solver calls won or lost within a few plies, and
 * search_go() with the solver must play and report it. */
static void test_fano_solver_agrees(void **state)
{
    (void)state;
    const Game *fano = game_by_name("fano");
    assert_non_null(fano);
    GameOptions opt;
    game_options_default(&opt);
    unsigned char pos[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    char err[256];
    if (!fano->solver || fano->init(pos, &opt, err, sizeof err) != 0)
        return; /* not written yet */
    Game nosolve = *fano;
    nosolve.solver = NULL;
    Move moves[64];
    uint64_t seed = 4242;
    int checked = 0, want = td_sanitized() ? 3 : 12;
    for (int trial = 0; trial < 2000 && checked < want; trial++) {
        assert_int_equal(fano->init(pos, &opt, err, sizeof err), 0);
        int plies = 2 + (int)rng_below(&seed, 8);
        for (int i = 0; i < plies && fano->result(pos) == RESULT_NONE; i++) {
            int n = fano->gen_moves(pos, moves);
            fano->make(pos, moves[rng_below(&seed, (uint32_t)n)], undo);
        }
        int v;
        Move best;
        if (fano->result(pos) != RESULT_NONE || !fano->solver->solve(pos, &v, &best) || v == 0)
            continue;
        int a = v < 0 ? -v : v;
        int n_plies = a > VALUE_WIN / 2 ? VALUE_WIN - a : a;
        if (n_plies > 7)
            continue;
        int expect = v > 0 ? SCORE_MATE - n_plies : -(SCORE_MATE - n_plies);
        SearchLimits lim;
        search_limits_init(&lim);
        lim.depth = n_plies + 1;
        SearchResult r;
        Search *s = ts_new_search("alphabeta", "2");
        search_go(s, &nosolve, pos, &opt, NULL, 0, &lim, NULL, NULL, NULL, &r);
        assert_int_equal(r.score, expect);
        search_clear(s);
        search_go(s, fano, pos, &opt, NULL, 0, &lim, NULL, NULL, NULL, &r);
        assert_int_equal(r.score, expect);
        assert_true(r.best == best);
        search_free(s);
        checked++;
    }
    assert_int_equal(checked, want);
}

/* Every info line has the fields in order, and its PV is a line of legal
 * moves (each parsed in the position the previous ones lead to). */
static void test_info_lines(void **state)
{
    (void)state;
    const char *algos[] = {"alphabeta", "mcts"};
    const Game *g = game_by_name("morris");
    GameOptions opt;
    game_options_default(&opt);
    unsigned char pos[POS_MAX_BYTES], p[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    char err[128];
    if (!g || g->init(pos, &opt, err, sizeof err) != 0 || g->result(pos) != RESULT_NONE)
        return;
    for (int a = 0; a < 2; a++) {
        Search *s = ts_new_search(algos[a], "4");
        SearchLimits lim;
        search_limits_init(&lim);
        if (a)
            lim.nodes = 3000;
        else
            lim.depth = 5;
        TsLines *out = calloc(1, sizeof *out);
        assert_non_null(out);
        out->g = g;
        out->pos = pos;
        Move best = search_go(s, g, pos, &opt, NULL, 0, &lim, NULL, ts_collect, out, NULL);
        assert_true(out->n >= 1);
        int pv_lines = 0;
        for (int i = 0; i < out->n; i++) {
            const char *l = out->buf[i];
            if (strncmp(l, "info string", 11) == 0)
                continue;
            int d, sd, sv;
            char kind[8];
            unsigned long long nodes, nps;
            long long ms;
            int hf, used = 0;
            int k = sscanf(l,
                           "info depth %d seldepth %d score %7s %d nodes %llu nps %llu time %lld "
                           "hashfull %d%n",
                           &d, &sd, kind, &sv, &nodes, &nps, &ms, &hf, &used);
            if (k != 8)
                fail_msg("bad info line: %s", l);
            assert_true(strcmp(kind, "cp") == 0 || strcmp(kind, "mate") == 0);
            assert_in_range(hf, 0, 1000);
            const char *pv = l + used;
            if (strncmp(pv, " pv ", 4) != 0)
                continue;
            pv_lines++;
            memcpy(p, pos, g->pos_size);
            char buf[1024];
            snprintf(buf, sizeof buf, "%s", pv + 4);
            int first = 1;
            for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
                Move m = game_parse_move(g, p, tok);
                if (m == MOVE_NONE)
                    fail_msg("pv move %s not legal in: %s", tok, l);
                if (first && i == out->n - 1)
                    assert_true(m == best);
                first = 0;
                g->make(p, m, undo);
            }
        }
        assert_true(pv_lines >= 1);
        free(out);
        search_free(s);
    }
}

/* The node count of a fixed-depth search is the build's signature: the
 * same twice over (one thread, the table cleared in between), on the real
 * games. */
static void test_real_game_determinism(void **state)
{
    (void)state;
    for (int i = 0; i < game_count; i++) {
        const Game *g = game_list[i];
        GameOptions opt;
        game_options_default(&opt);
        morelli_opts(&opt)->board_size = 9;
        unsigned char pos[POS_MAX_BYTES];
        char err[128];
        if (g->init(pos, &opt, err, sizeof err) != 0 || g->result(pos) != RESULT_NONE)
            continue;
        Game plain = *g; /* search, not the solver */
        plain.solver = NULL;
        SearchLimits lim;
        search_limits_init(&lim);
        lim.depth = g == &game_morelli ? 3 : 6;
        SearchResult r1, r2;
        Search *s = ts_new_search("alphabeta", "4");
        search_go(s, &plain, pos, &opt, NULL, 0, &lim, NULL, NULL, NULL, &r1);
        search_clear(s);
        search_go(s, &plain, pos, &opt, NULL, 0, &lim, NULL, NULL, NULL, &r2);
        assert_true(r1.nodes > 0);
        assert_true(r1.nodes == r2.nodes);
        assert_true(r1.best == r2.best);
        assert_int_equal(r1.score, r2.score);
        search_free(s);
    }
}

/* Search=random: a legal move of every position of a random game, the same
 * sequence again from a fresh Search, and more than one distinct move. */
static void test_random_player(void **state)
{
    (void)state;
    for (int gi = 0; gi < game_count; gi++) {
        const Game *g = game_list[gi];
        GameOptions opt;
        game_options_default(&opt);
        Move first[2][64];
        int plies[2] = {0, 0};
        for (int run = 0; run < 2; run++) {
            Search *s = search_new();
            char err[128];
            assert_int_equal(search_setoption(s, "Search", "random", err, sizeof err), 0);
            unsigned char pos[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
            assert_int_equal(g->init(pos, &opt, err, sizeof err), 0);
            SearchLimits lim;
            search_limits_init(&lim);
            lim.depth = 1;
            while (plies[run] < 64 && g->result(pos) == RESULT_NONE) {
                Move m = search_go(s, g, pos, &opt, NULL, 0, &lim, NULL, NULL, NULL, NULL);
                assert_true(search_move_legal(g, pos, m));
                first[run][plies[run]++] = m;
                g->make(pos, m, undo);
            }
            search_free(s);
        }
        assert_int_equal(plies[0], plies[1]);
        assert_memory_equal(first[0], first[1], (size_t)plies[0] * sizeof(Move));
        int distinct = 0;
        for (int i = 1; i < plies[0]; i++)
            distinct |= first[0][i] != first[0][0];
        assert_true(distinct);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_player),
        cmocka_unit_test(test_random_positions),
        cmocka_unit_test(test_real_game_determinism),
        cmocka_unit_test(test_fano_solver_agrees),
        cmocka_unit_test(test_info_lines),
    };
    return cmocka_run_group_tests_name("search_games", tests, NULL, NULL);
}
