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

/* The value of the move of p written text, for its player, as GameSolver.solve
 * gives values, by the plain solver. */
static int plain_move_value(const MgPos *p, const char *text)
{
    static MgMove moves[MG_MAXMOVES];
    int n = mg_moves(p, moves, MG_MAXMOVES);
    for (int i = 0; i < n; i++) {
        if (strcmp(moves[i].text, text) != 0)
            continue;
        int cv = mg_solve(&moves[i].after, 3000000L, 0); /* the opponent's view */
        assert_int_not_equal(cv, MG_UNKNOWN);
        return cv > 0   ? -(VALUE_WIN - (MG_WIN - cv + 1))
               : cv < 0 ? VALUE_WIN - (MG_WIN + cv + 1)
                        : VALUE_DRAW;
    }
    fail_msg("%s is not a legal move for the plain solver", text);
    return 0;
}

/* "win in N plies", "loss in N plies" or "draw" as a GameSolver.solve value. */
static int parse_value(const char *s)
{
    int k;
    if (sscanf(s, "win in %d plies", &k) == 1)
        return VALUE_WIN - k;
    if (sscanf(s, "loss in %d plies", &k) == 1)
        return -(VALUE_WIN - k);
    assert_string_equal(s, "draw");
    return VALUE_DRAW;
}

/* The solve command's expected values in tests/data/protocol_morelli_solve.txt
 * (which tests/test_protocol.c plays against the engine) are the plain
 * solver's: every "< move: value" line after a "> position fen", the
 * "< Value:" line the best of them, "< Best:" a move of that value. */
static void test_solve_script_values(void **state)
{
    (void)state;
    FILE *f = td_open("protocol_morelli_solve.txt");
    char line[1024], best[64] = "";
    MgPos p;
    int have = 0, moves = 0, value = 0, top = -2 * VALUE_WIN, best_value = 0;
    /* the first solved position, up to its closing line */
    while (fgets(line, sizeof line, f) && strncmp(line, "~ info string solve:", 20) != 0) {
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "> position fen ", 15) == 0) {
            have = mg_from_fen(&p, line + 15) == 0;
            continue;
        }
        char *colon = strstr(line, ": ");
        if (!have || strncmp(line, "< ", 2) != 0 || !colon)
            continue;
        *colon = '\0';
        const char *what = line + 2, *val = colon + 2;
        if (strcmp(what, "Value") == 0) {
            value = parse_value(val);
        } else if (strcmp(what, "Best") == 0) {
            snprintf(best, sizeof best, "%s", val);
        } else {
            int v = plain_move_value(&p, what);
            if (v != parse_value(val))
                print_error("%s: %s in the script, %d by the plain solver\n", what, val, v);
            assert_int_equal(v, parse_value(val));
            if (v > top)
                top = v;
            if (strcmp(what, best) == 0)
                best_value = v;
            moves++;
        }
    }
    fclose(f);
    print_message("%d move values of the solve script agree with the plain solver\n", moves);
    assert_true(moves >= 10);
    assert_int_equal(value, top);
    assert_int_equal(best_value, top);
}

/* search_solve() on a position: every move's exact value equals the plain
 * solver's (when the plain solver finishes). */
static void check_solve_moves(Search *s, const char *fen)
{
    unsigned char pos[POS_MAX_BYTES];
    char err[256], text[MOVE_STR_MAX];
    assert_int_equal(G->from_fen(pos, fen, NULL, err, sizeof err), 0);
    SolveReport r = {.moves = malloc((size_t)G->max_moves * sizeof(SolveMove))};
    assert_non_null(r.moves);
    SearchLimits lim;
    search_limits_init(&lim);
    lim.nodes = 2000000;
    assert_int_equal(search_solve(s, G, pos, NULL, NULL, 0, &lim, NULL, &r), 0);
    assert_int_equal(r.ended, SOLVE_END_DONE);
    assert_int_equal(r.state, SOLVE_EXACT);
    MgPos p;
    assert_int_equal(mg_from_fen(&p, fen), 0);
    int top = -2 * VALUE_WIN;
    for (int i = 0; i < r.n; i++) {
        assert_int_equal(r.moves[i].state, SOLVE_EXACT);
        G->move_to_str(pos, r.moves[i].move, text, sizeof text);
        int v = plain_move_value(&p, text);
        if (v != r.moves[i].value)
            print_error("%s %s: engine %d, plain solver %d\n", fen, text, r.moves[i].value, v);
        assert_int_equal(r.moves[i].value, v);
        if (v > top)
            top = v;
    }
    free(r.moves);
    assert_int_equal(r.value, top);
}

/* Positions `back` plies before the end of playout games; the engine's
 * exact value against the plain solver's. */
static void test_values_agree(void **state)
{
    (void)state;
    Search *s = new_search();
    FILE *f = td_open("morelli_solve.txt");
    char line[256];
    long compared = 0, wins = 0, losses = 0, draws = 0, solved_moves = 0;
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
            morelli_opts(&opt)->board_size = size;
            morelli_opts(&opt)->setup = SETUP_RANDOM;
            morelli_opts(&opt)->setup_seed = rng_next(&rng);
            unsigned char pos[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
            char err[256];
            static char fens[400][FEN_MAX];
            assert_int_equal(G->init(pos, &opt, err, sizeof err), 0);
            int len = 0;
            while (len < 400) {
                G->to_fen(pos, fens[len++], FEN_MAX);
                if (G->result(pos) != RESULT_NONE)
                    break;
                G->make(pos, G->playout->step(pos, &rng), undo);
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
            /* the first few of each size: every move's value too */
            if (done < (td_sanitized() ? 1 : 3)) {
                check_solve_moves(s, fen);
                solved_moves++;
            }
            SearchResult res;
            engine_move(s, fen, nodes, &res);
            assert_true(res.proven);
            int mine = res.score > 0   ? MG_WIN - (SCORE_MATE - res.score)
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
    print_message("%ld positions: %ld wins, %ld draws, %ld losses; every move's value of %ld\n",
                  compared, wins, draws, losses, solved_moves);
    assert_true(compared >= (td_sanitized() ? 9 : 90)); /* the sanitizers take a tenth */
    assert_true(wins > 0 && losses > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_endings_found),
        cmocka_unit_test(test_values_agree),
        cmocka_unit_test(test_solve_script_values),
    };
    return cmocka_run_group_tests_name("morelli_solve", tests, NULL, NULL);
}
