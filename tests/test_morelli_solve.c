/*
 * Morelli's exact endings, checked against the plain solver of
 * tests/morelli_grid.c (a different code path: a grid of characters,
 * copy-make, nothing shared with engine/):
 *   - tests/data/morelli_endings.txt: positions 8 to 20 plies before the
 *     end where the side to move wins by few moves, every winning move
 *     listed; alpha-beta with a fixed node budget (one thread, so the
 *     result is deterministic) plays one of them, with a mate score;
 *   - random late positions of every board size (tests/data/
 *     morelli_solve.txt gives how many and where from): when the plain
 *     solver knows the exact value within its budget, the engine's proven
 *     score is the same (win or loss in the same number of plies, or a
 *     draw).
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
#include "morelli_grid.h"
#include "search/search.h"
#include "testdata.h"

static const Game *G = &game_morelli;

/* Alpha-beta, one thread, `nodes` at most, from fen: the result.  The
 * table is kept from one position to the next (its proven entries are
 * facts about positions; the sequence is the same at every run). */
static Move engine_move(Search *s, const char *fen, uint64_t nodes, SearchResult *res)
{
    unsigned char pos[POS_MAX_BYTES];
    char err[256];
    GameOptions opt;
    game_options_default(&opt);
    assert_int_equal(G->from_fen(pos, fen, &opt, err, sizeof err), 0);
    SearchLimits lim;
    search_limits_init(&lim);
    lim.nodes = nodes;
    return search_go(s, G, pos, &opt, NULL, 0, &lim, NULL, NULL, NULL, res);
}

static Search *new_search(void)
{
    char err[256];
    Search *s = search_new();
    assert_non_null(s);
    assert_int_equal(search_setoption(s, "Search", "alphabeta", err, sizeof err), 0);
    assert_int_equal(search_setoption(s, "Threads", "1", err, sizeof err), 0);
    assert_int_equal(search_setoption(s, "Hash", "16", err, sizeof err), 0);
    return s;
}

static void test_endings_found(void **state)
{
    (void)state;
    Search *s = new_search();
    FILE *f = td_open("morelli_endings.txt");
    char line[1024], *fld[TD_MAXF];
    int rows = 0, sizes[14] = {0};
    unsigned long long budget = 0;
    while (td_next_record(f, line, sizeof line, fld) > 0) {
        if (strncmp(fld[0], "budget", 6) == 0) {
            budget = strtoull(fld[0] + 6, NULL, 10);
            continue;
        }
        assert_true(budget > 0);
        int size = atoi(fld[0]);
        assert_true(size == 9 || size == 11 || size == 13);
        const char *fen = fld[1];
        SearchResult res;
        Move m = engine_move(s, fen, budget, &res);
        unsigned char pos[POS_MAX_BYTES];
        char err[256], text[MOVE_STR_MAX], want[256];
        assert_int_equal(G->from_fen(pos, fen, NULL, err, sizeof err), 0);
        G->move_to_str(pos, m, text, sizeof text);
        /* the move is one of the listed winning moves */
        snprintf(want, sizeof want, " %s ", fld[4]);
        char key[MOVE_STR_MAX + 2];
        snprintf(key, sizeof key, " %s ", text);
        if (!strstr(want, key))
            print_error("%s: played %s, winning moves %s (score %d)\n", fen, text, fld[4],
                        res.score);
        assert_non_null(strstr(want, key));
        assert_true(res.score >= SCORE_MATE_BOUND); /* and knows it wins */
        /* the plain solver agrees that the move wins */
        MgPos p;
        static MgMove moves[MG_MAXMOVES];
        assert_int_equal(mg_from_fen(&p, fen), 0);
        int n = mg_moves(&p, moves, MG_MAXMOVES), found = 0;
        for (int i = 0; i < n; i++)
            if (strcmp(moves[i].text, text) == 0) {
                found = 1;
                assert_int_equal(mg_solve(&moves[i].after, 2000000L, 1), -1);
            }
        assert_true(found);
        sizes[size]++;
        rows++;
    }
    fclose(f);
    search_free(s);
    print_message("%d endings (13x13 %d, 11x11 %d, 9x9 %d), %llu nodes each\n", rows, sizes[13],
                  sizes[11], sizes[9], budget);
    assert_true(sizes[9] >= 3 && sizes[11] >= 3 && sizes[13] >= 3);
}

/* Positions `back` plies before the end of playout games; the engine's
 * exact value against the plain solver's. */
static void test_values_agree(void **state)
{
    (void)state;
    Search *s = new_search();
    FILE *f = td_open("morelli_solve.txt");
    char line[256];
    long compared = 0, wins = 0, losses = 0, draws = 0;
    while (td_next_line(f, line, sizeof line, NULL)) {
        int size, count, back_lo, back_hi;
        unsigned long long seed, nodes;
        long budget;
        assert_int_equal(sscanf(line, "%d %d %d %d %llu %llu %ld", &size, &count, &back_lo,
                                &back_hi, &seed, &nodes, &budget),
                         7);
        if (td_sanitized())
            count /= 10;
        uint64_t rng = seed;
        int done = 0;
        for (int tries = 0; done < count && tries < 20 * count; tries++) {
            GameOptions opt;
            game_options_default(&opt);
            opt.board_size = size;
            opt.setup = SETUP_RANDOM;
            opt.setup_seed = rng_next(&rng);
            unsigned char pos[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
            char err[256];
            static char fens[400][FEN_MAX];
            assert_int_equal(G->init(pos, &opt, err, sizeof err), 0);
            int len = 0;
            while (len < 400) {
                G->to_fen(pos, fens[len++], FEN_MAX);
                if (G->result(pos) != RESULT_NONE)
                    break;
                G->make(pos, G->playout_step(pos, &rng), undo);
            }
            int back = back_lo + (int)rng_below(&rng, (uint32_t)(back_hi - back_lo + 1));
            if (len <= back + 1)
                continue;
            const char *fen = fens[len - 1 - back];
            MgPos p;
            if (mg_from_fen(&p, fen) != 0)
                continue;
            int v = mg_solve(&p, budget, 0);
            if (v == MG_UNKNOWN)
                continue;
            SearchResult res;
            engine_move(s, fen, nodes, &res);
            assert_true(res.proven);
            int mine = res.score > 0 ? MG_WIN - (SCORE_MATE - res.score)
                       : res.score < 0 ? -(MG_WIN - (SCORE_MATE + res.score))
                                       : 0;
            if (mine != v)
                print_error("%s: engine %d, plain solver %d\n", fen, res.score, v);
            assert_int_equal(mine, v);
            wins += v > 0;
            losses += v < 0;
            draws += v == 0;
            done++;
            compared++;
        }
        assert_int_equal(done, count);
    }
    fclose(f);
    search_free(s);
    print_message("%ld positions: %ld wins, %ld draws, %ld losses\n", compared, wins, draws,
                  losses);
    assert_true(compared >= (td_sanitized() ? 9 : 90)); /* the sanitizers take a tenth */
    assert_true(wins > 0 && losses > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_endings_found),
        cmocka_unit_test(test_values_agree),
    };
    return cmocka_run_group_tests_name("morelli_solve", tests, NULL, NULL);
}
