/*
 * Searchers against the case files: each line of tests/data/search_toys.txt
 * (the toy games of search_toys.h) and tests/data/search_positions.txt
 * (the real games, under their options) names a position, a searcher with
 * its options and a limit, and the acceptable best moves and final score.
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
#include "search/search.h"
#include "search_toys.h"
#include "testdata.h"

/* The score token of the last info line with a score, e.g. "mate 3". */
static void last_score(const TsLines *l, char *out, size_t len)
{
    out[0] = 0;
    for (int i = 0; i < l->n; i++) {
        const char *p = strstr(l->buf[i], " score ");
        if (p) {
            char kind[8];
            int v;
            if (sscanf(p, " score %7s %d", kind, &v) == 2)
                snprintf(out, len, "%s %d", kind, v);
        }
    }
}

/* "ruleset=classic,pieces=12,..." onto opt. */
static void apply_options(GameOptions *opt, char *s)
{
    for (char *tok = s ? strtok(s, ",") : NULL; tok; tok = strtok(NULL, ",")) {
        char *eq = strchr(tok, '=');
        assert_non_null(eq);
        *eq++ = 0;
        long v = strtol(eq, NULL, 10);
        if (strcmp(tok, "ruleset") == 0)
            morelli_opts(opt)->ruleset = strcmp(eq, "classic") == 0 ? RULESET_CLASSIC
                                                                    : RULESET_STANDARD;
        else if (strcmp(tok, "pieces") == 0)
            morris_opts(opt)->pieces = (int)v;
        else if (strcmp(tok, "diagonals") == 0)
            morris_opts(opt)->diagonals = (int)v;
        else if (strcmp(tok, "flying") == 0)
            morris_opts(opt)->flying = (int)v;
        else if (strcmp(tok, "moverule") == 0)
            morris_opts(opt)->move_rule = (int)v;
        else
            fail_msg("unknown option %s", tok);
    }
}

/* Non-zero when word is one of the space-separated words of list. */
static int word_in(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; *p;) {
        while (*p == ' ')
            p++;
        size_t k = strcspn(p, " ");
        if (k == n && strncmp(p, word, n) == 0)
            return 1;
        p += k;
    }
    return 0;
}

/*
 * tests/data/search_toys.txt: one case a line,
 *   <game>[,option=value...] | <fen> | <searcher> | <limit> | <moves> | <score>
 * where the searcher may carry options (mcts,MCTSExplore=100), limit is
 * "depth N", "nodes N" or "movetime N", moves lists the
 * acceptable best moves ('*' = any legal one), and score is the last info
 * line's "cp N" / "mate N" ('*' = any).  A seventh field "heavy" skips the
 * case under the sanitizers (MORELLI_SANITIZE set).
 */
static void run_case_file(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[1024];
    int cases = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *field[7];
        int k = 0;
        for (char *tok = strtok(line, "|\n"); tok && k < 7; tok = strtok(NULL, "|\n")) {
            while (*tok == ' ')
                tok++;
            char *e = tok + strlen(tok);
            while (e > tok && e[-1] == ' ')
                *--e = 0;
            field[k++] = tok;
        }
        assert_true(k == 6 || k == 7);
        if (k == 7 && strcmp(field[6], "heavy") == 0 && td_sanitized())
            continue;
        GameOptions opt;
        game_options_default(&opt);
        char *optstr = strchr(field[0], ',');
        if (optstr)
            *optstr++ = 0;
        const Game *g = toy_by_name(field[0]);
        assert_non_null(g);
        apply_options(&opt, optstr);
        unsigned char pos[POS_MAX_BYTES];
        char err[256];
        if (g->from_fen(pos, field[1], &opt, err, sizeof err) != 0)
            fail_msg("%s: %s: %s", field[0], field[1], err);
        /* searcher[,Option=Value...] */
        char *sopts = strchr(field[2], ',');
        if (sopts)
            *sopts++ = 0;
        Search *s = ts_new_search(field[2], "16");
        for (char *o = sopts ? strtok(sopts, ",") : NULL; o; o = strtok(NULL, ",")) {
            char *eq = strchr(o, '=');
            assert_non_null(eq);
            *eq++ = 0;
            if (search_setoption(s, o, eq, err, sizeof err) != 0)
                fail_msg("%s", err);
        }
        SearchLimits lim;
        search_limits_init(&lim);
        char kind[16];
        long long v;
        assert_int_equal(sscanf(field[3], "%15s %lld", kind, &v), 2);
        if (strcmp(kind, "depth") == 0)
            lim.depth = (int)v;
        else if (strcmp(kind, "nodes") == 0)
            lim.nodes = (uint64_t)v;
        else
            lim.movetime = v;
        atomic_int stop;
        atomic_init(&stop, 0);
        TsLines *out = calloc(1, sizeof *out);
        assert_non_null(out);
        out->g = g;
        out->pos = pos;
        Move m = search_go(s, g, pos, &opt, NULL, 0, &lim, &stop, ts_collect, out, NULL);
        char text[MOVE_STR_MAX], sc[32];
        game_move_str(g, pos, m, text, sizeof text);
        last_score(out, sc, sizeof sc);
        if (strcmp(field[4], "*") != 0 && !word_in(field[4], text))
            fail_msg("%s %s (%s): move %s, expected %s", field[0], field[1], field[2], text,
                     field[4]);
        if (strcmp(field[5], "*") != 0 && strcmp(field[5], sc) != 0)
            fail_msg("%s %s (%s): score %s, expected %s", field[0], field[1], field[2], sc,
                     field[5]);
        free(out);
        search_free(s);
        cases++;
    }
    fclose(f);
    assert_true(cases > 0);
}

static void test_toy_cases(void **state)
{
    (void)state;
    run_case_file("tests/data/search_toys.txt");
}

static void test_game_positions(void **state)
{
    (void)state;
    run_case_file("tests/data/search_positions.txt");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_toy_cases),
        cmocka_unit_test(test_game_positions),
    };
    return cmocka_run_group_tests_name("search_cases", tests, NULL, NULL);
}
