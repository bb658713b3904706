/*
 * test_demo.c -- the display of `match --demo` (bench/match/match_demo.c), as
 * plain text (its output goes to a file here).
 *
 * Plays each game of tests/data/demo_games.txt (a runner command line) with
 * the test build's engine and reads the display back. For Morelli, after
 * every move the board shown must be the position the game library reaches
 * by replaying the moves printed; the marks must sit where the move was:
 * [x] on the cell reached, *y* on the cell left, (x) on exactly the stones
 * whose colour the move changed (and the move line must name as many
 * captures); the stone counts must be the board's. For every game: one ply
 * line per ply numbered in order, the legend once, a Result line whose ply
 * count matches, and a summary whose move counts add up to it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../bench/match/match.h"
#include "testdata.h"

#define MAXN 13

static const char *engine_dir(char *buf, size_t len)
{
    const char *b = getenv("MORELLI_BIN");
    snprintf(buf, len, "%s", b && *b ? b : "build/test/morelli");
    char *slash = strrchr(buf, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(buf, len, ".");
    return buf;
}

static int colour(char ch)
{
    return ch == 'b' || ch == 'B' ? 1 : ch == 'w' || ch == 'W' ? 2 : 0;
}

/* Cells of the FEN of pos, laid out as td_fen_board gives them. */
static void fen_cells(const Game *g, const void *pos, int n, char *cells)
{
    char fen[FEN_MAX];
    g->to_fen(pos, fen, sizeof fen);
    td_fen_board(fen, n, cells);
}

/* Reads the n board rows that follow in f into shown[rank*n+file] (the
 * middle character of each 3-character cell) and marks (its left char). */
static void read_board(FILE *f, int n, char *shown, char *marks, char *right)
{
    char line[512];
    for (int k = 0; k < n; k++) {
        assert_non_null(fgets(line, sizeof line, f));
        int rank = atoi(line);
        assert_int_equal(rank, n - k);
        assert_true(strlen(line) >= (size_t)(4 + 3 * n));
        for (int file = 0; file < n; file++) {
            const char *cell = line + 4 + 3 * file;
            marks[(rank - 1) * n + file] = cell[0];
            shown[(rank - 1) * n + file] = cell[1];
            right[(rank - 1) * n + file] = cell[2];
        }
    }
}

static void check_game(char *args, int lineno)
{
    char *argv[64], dir[256], err[512], path[64], line[512];
    int argc = 0;
    argv[argc++] = "match";
    for (char *t = strtok(args, " "); t && argc < 63; t = strtok(NULL, " "))
        argv[argc++] = t;
    static MatchConfig c;
    match_config_default(&c);
    if (match_parse_args(&c, argc, argv, engine_dir(dir, sizeof dir), err, sizeof err) != 0)
        fail_msg("demo_games.txt:%d: %s", lineno, err);
    const Game *g = c.game;
    int morelli = !strcmp(g->name, "morelli");
    int n = morelli_opts(&c.game_opt)->board_size;

    snprintf(path, sizeof path, "/tmp/test_demo_%d.txt", (int)getpid());
    FILE *out = fopen(path, "w");
    assert_non_null(out);
    MatchSummary s;
    if (match_run(&c, out, &s, err, sizeof err) != 0)
        fail_msg("demo_games.txt:%d: %s", lineno, err);
    fclose(out);
    assert_int_equal(s.games, 1);

    unsigned char pos[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    assert_int_equal(g->init(pos, &c.game_opt, err, sizeof err), 0);
    char before[MAXN * MAXN], after[MAXN * MAXN], shown[MAXN * MAXN], marks[MAXN * MAXN],
        right[MAXN * MAXN];
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int plies = 0, legends = 0, results = 0, said = -1, summary = 0, moves_sum = 0;
    while (fgets(line, sizeof line, f)) {
        int num, k;
        char side[16], text[128];
        legends += !strncmp(line, "bands:", 6);
        if (!strncmp(line, "Result: ", 8)) {
            results++;
            const char *a = strstr(line, " after ");
            assert_non_null(a);
            said = atoi(a + 7);
        }
        if (!strncmp(line, "Summary:", 8))
            summary = 1;
        if (summary && sscanf(line, "  %*s (%15[^)]): %d moves", side, &k) == 2)
            moves_sum += k;
        if (sscanf(line, "%d. %15s (%*[^)]): %127[^,\n]", &num, side, text) != 3)
            continue;
        plies++;
        assert_int_equal(num, plies);
        int named = 0;
        const char *cap = strstr(line, ", captures ");
        if (cap)
            for (const char *p = cap + 10; *p && *p != ',' && *p != '\n'; p++)
                named += *p == ' ';
        Move m = game_parse_move(g, pos, text);
        if (m == MOVE_NONE)
            fail_msg("demo_games.txt:%d: ply %d: '%s' is not legal", lineno, plies, text);
        if (morelli)
            fen_cells(g, pos, n, before);
        int mover = colour(side[0] == 'B' ? 'b' : 'w');
        g->make(pos, m, undo);
        if (!morelli)
            continue;
        fen_cells(g, pos, n, after);
        assert_non_null(fgets(line, sizeof line, f)); /* the engine's opinion */
        read_board(f, n, shown, marks, right);
        int centre = (n / 2) * n + n / 2, to = -1, from = -1, captured = 0;
        int fr, ff, tr, tf;
        char fc, tc;
        if (sscanf(text, "%c%d-%c%d", &fc, &fr, &tc, &tr) == 4) {
            ff = fc - 'a';
            tf = tc - 'a';
            from = (fr - 1) * n + ff;
            to = (tr - 1) * n + tf;
        }
        for (int i = 0; i < n * n; i++) {
            /* the board shown is the game's */
            if (colour(after[i]))
                assert_int_equal(shown[i], after[i]);
            else
                assert_int_equal(colour(shown[i]), 0);
            int changed = colour(before[i]) && colour(after[i]) &&
                          colour(before[i]) != colour(after[i]);
            if (i == to) {
                assert_int_equal(marks[i], '[');
                assert_int_equal(right[i], ']');
            } else if (i == from) {
                assert_int_equal(marks[i], '*');
                assert_int_equal(right[i], '*');
            } else if (i == centre) {
                assert_int_equal(marks[i], colour(after[i]) && colour(after[i]) != colour(before[i])
                                               ? '{'
                                               : ' ');
            } else if (changed) {
                assert_int_equal(marks[i], '(');
                assert_int_equal(colour(after[i]), mover);
                captured++;
            } else if (to >= 0) {
                assert_int_equal(marks[i], ' ');
            }
        }
        assert_int_equal(named, captured);
        assert_non_null(fgets(line, sizeof line, f)); /* files */
        assert_non_null(fgets(line, sizeof line, f)); /* stones: ... */
        int black = 0, white = 0, sb, sw;
        for (int i = 0; i < n * n; i++)
            if (i != centre) {
                black += colour(after[i]) == 1;
                white += colour(after[i]) == 2;
            }
        assert_int_equal(sscanf(line, " stones: Black %d, White %d", &sb, &sw), 2);
        assert_int_equal(sb, black);
        assert_int_equal(sw, white);
    }
    fclose(f);
    unlink(path);
    assert_true(plies > 0);
    assert_int_equal(results, 1);
    assert_int_equal(said, plies);
    assert_int_equal(moves_sum, plies);
    if (morelli)
        assert_int_equal(legends, 1);
}

static void test_demo_games(void **state)
{
    (void)state;
    FILE *f = td_open("demo_games.txt");
    char line[512];
    int lineno = 0, games = 0;
    while (td_next_line(f, line, sizeof line, &lineno)) {
        check_game(line, lineno);
        games++;
    }
    fclose(f);
    assert_true(games > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_demo_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
