/*
 * The match runner's game records (--pgnout) as a PGN reader sees them.
 * For every match of tests/data/match_pgn.txt (the real engine at a fixed
 * depth, against itself or a fake engine that loses by fault), the runner is
 * started from a command line as a user would start it; then each game is
 * scored from its tags alone -- [White], [Black], [Result], where 1-0 is a
 * win of the [White] player -- and each engine's total must be the one the
 * runner's report prints.  Each record is also checked for what a reader
 * relies on: the seven-tag roster first, the move number that opens the
 * movetext (1... when Black moves first), numbers that follow PGN's rule,
 * and a Termination and Reason that agree with the Result.  Also: --merge
 * refuses a results file that was cut, edited or is of another version
 * (tests/data/match_merge_bad.txt), naming the line at fault.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../bench/match/match.h"
#include "testdata.h"
#include "testpgn.h"

#define DATA "match_pgn.txt"
#define FAKE "sh tests/fake_engine/fake_engine.sh"

static const char *engine_bin(void)
{
    const char *b = getenv("MORELLI_BIN");
    return b && *b ? b : "build/test/morelli";
}

/* Checks the move numbers of a movetext: the first token is first, then
 * every number is "N." or "N..." in PGN's order, and the last token is the
 * result. */
static void check_numbers(const PgnRecord *g, const char *first, int game)
{
    char *text = strdup(g->movetext), *save = NULL, *last = NULL;
    assert_non_null(text);
    int ntok = 0, moveno = 0, in_comment = 0;
    for (char *t = strtok_r(text, " \n", &save); t; t = strtok_r(NULL, " \n", &save)) {
        if (in_comment || t[0] == '{') {
            in_comment = !strchr(t, '}');
            continue;
        }
        if (ntok++ == 0 && strcmp(t, first) != 0 && strcmp(t, g->result) != 0)
            fail_msg("game %d opens with '%s', not '%s'", game, t, first);
        size_t n = strlen(t);
        if (n > 1 && t[n - 1] == '.') {
            /* "N..." only opens the movetext; each number after is the
             * last one plus one (White's move after Black's). */
            int black = n > 3 && !strcmp(t + n - 3, "...");
            if ((black && ntok != 1) || (ntok > 1 && atoi(t) != moveno + 1))
                fail_msg("game %d: '%s' after move %d", game, t, moveno);
            moveno = atoi(t);
        }
        last = t;
    }
    assert_non_null(last);
    assert_string_equal(last, g->result);
    free(text);
}

/* What the Result gives the White (w) and Black (b) players, in half-points. */
static void result_points(const char *result, int *w, int *b)
{
    if (!strcmp(result, "1-0"))
        *w = 2, *b = 0;
    else if (!strcmp(result, "0-1"))
        *w = 0, *b = 2;
    else if (!strcmp(result, "1/2-1/2"))
        *w = *b = 1;
    else
        fail_msg("result '%s'", result);
}

/* The Termination and Reason agree with the Result. */
static void check_reason(const PgnRecord *g, int w, int b, int game)
{
    static const char *const fault[] = {"time", "illegal move", "crash", "start failure"};
    static const char *const drawn[] = {"repetition", "move rule", "max plies"};
    for (size_t i = 0; i < 4; i++)
        if (!strcmp(g->term, fault[i])) {
            /* The reason opens with the loser's name. */
            const char *loser = w == 0 ? g->white : g->black;
            if (w == b || strncmp(g->reason, loser, strlen(loser)) != 0)
                fail_msg("game %d: %s forfeit, result %s, reason '%s'", game, g->term, g->result,
                         g->reason);
            return;
        }
    for (size_t i = 0; i < 3; i++)
        if (!strcmp(g->term, drawn[i])) {
            assert_string_equal(g->result, "1/2-1/2");
            return;
        }
    assert_string_equal(g->term, "rules");
    int white_won = w > b, black_won = b > w;
    if (strstr(g->reason, "White wins") || strstr(g->reason, "the White king holds"))
        assert_true(white_won);
    else if (strstr(g->reason, "Black wins") || strstr(g->reason, "the Black king holds"))
        assert_true(black_won);
    else if (!strncmp(g->reason, "White to move has no legal move", 31))
        assert_true(black_won || (w == b && strstr(g->reason, "Throne")));
    else if (!strncmp(g->reason, "Black to move has no legal move", 31))
        assert_true(white_won || (w == b && strstr(g->reason, "Throne")));
    else if (strstr(g->reason, "drawn"))
        assert_int_equal(w, b);
    else
        fail_msg("game %d: reason '%s' for %s", game, g->reason, g->result);
}

/* Plays one match line of the data file and compares the records with the
 * report. */
static void one_match(char *line, int lineno)
{
    char variant[16], openings[256], first[8], second[32], rest[256] = "";
    int games, depth;
    if (sscanf(line, "match %15s %d %d %255s %7s %31s %255[^\n]", variant, &games, &depth, openings,
               first, second, rest) < 6)
        fail_msg("%s:%d: bad line", DATA, lineno);
    char pgn[64], report[64], args[1024];
    snprintf(pgn, sizeof pgn, "/tmp/match_pgn_%d.pgn", (int)getpid());
    snprintf(report, sizeof report, "/tmp/match_pgn_%d.txt", (int)getpid());
    unlink(pgn);
    int n = snprintf(args, sizeof args,
                     "--engine cmd=%s name=one --engine cmd=%s%s name=two --variant %s --games %d "
                     "--depth %d --timeout 20000 --start-timeout 20000 --quiet --pgnout %s",
                     engine_bin(), strcmp(second, "-") ? FAKE " " : engine_bin(),
                     strcmp(second, "-") ? second : "", variant, games, depth, pgn);
    if (strcmp(openings, "-"))
        n += snprintf(args + n, sizeof args - (size_t)n, " --openings %s", openings);
    for (char *save = NULL, *o = strtok_r(rest, " ", &save); o; o = strtok_r(NULL, " ", &save))
        n += snprintf(args + n, sizeof args - (size_t)n, " --%s", o);
    /* The fake engine's command holds a blank: split by hand, keeping
     * cmd=... whole up to " name=". */
    char *argv[64];
    int argc = 0;
    argv[argc++] = "match";
    char *p = args;
    while (*p && argc < 63) {
        char *end;
        if (!strncmp(p, "cmd=", 4) && (end = strstr(p, " name=")) != NULL)
            ;
        else if ((end = strchr(p, ' ')) == NULL)
            end = p + strlen(p);
        argv[argc++] = p;
        p = *end ? end + 1 : end;
        *end = '\0';
    }
    static MatchConfig c;
    char err[512];
    match_config_default(&c);
    if (match_parse_args(&c, argc, argv, "build/test", err, sizeof err) != 0)
        fail_msg("%s:%d: %s", DATA, lineno, err);
    FILE *out = fopen(report, "w+");
    assert_non_null(out);
    MatchSummary s;
    if (match_run(&c, out, &s, err, sizeof err) != 0)
        fail_msg("%s:%d: %s", DATA, lineno, err);

    /* The report's score line: "games N: one +W =D -L ...". */
    rewind(out);
    char text[512];
    int rg = -1, rw = -1, rd = -1, rl = -1;
    while (fgets(text, sizeof text, out))
        if (sscanf(text, "games %d: one +%d =%d -%d", &rg, &rw, &rd, &rl) == 4)
            break;
    fclose(out);
    unlink(report);
    assert_int_equal(rg, games);

    /* The records, read from the tags alone. */
    FILE *f = fopen(pgn, "r");
    assert_non_null(f);
    static PgnRecord g;
    int ngames = 0, half[2] = {0, 0}; /* one, two */
    static const char *const roster[7] = {"Event", "Site",  "Date",  "Round",
                                          "White", "Black", "Result"};
    while (pgn_read(f, &g)) {
        ngames++;
        for (int i = 0; i < PGN_FIRST_TAGS; i++)
            assert_string_equal(g.first_tags[i], roster[i]);
        int w = 0, b = 0;
        result_points(g.result, &w, &b);
        int white_one = !strcmp(g.white, "one"), black_one = !strcmp(g.black, "one");
        assert_true(white_one != black_one);
        half[white_one ? 0 : 1] += w;
        half[white_one ? 1 : 0] += b;
        check_numbers(&g, first, ngames);
        /* A game opened by Black starts from a FEN with Black to move. */
        const char *stm = strchr(g.fen, ' ');
        assert_non_null(stm);
        assert_int_equal(stm[1], strcmp(first, "1...") ? 'w' : 'b');
        check_reason(&g, w, b, ngames);
    }
    fclose(f);
    unlink(pgn);
    assert_int_equal(ngames, games);
    /* Both readings of the match agree, for each engine. */
    if (half[0] != 2 * rw + rd || half[1] != 2 * rl + rd)
        fail_msg("%s:%d: the records give one %g, two %g; the report +%d =%d -%d", DATA, lineno,
                 half[0] / 2.0, half[1] / 2.0, rw, rd, rl);
    assert_int_equal(s.wins, rw);
    assert_int_equal(s.losses, rl);
    if (strcmp(second, "-"))
        assert_int_equal(rw, games); /* the fake loses every game */
}

static void test_pgn_scores_match_report(void **state)
{
    (void)state;
    FILE *f = td_open(DATA);
    char line[512];
    int lineno = 0, n = 0, variants = 0;
    while (td_next_line(f, line, sizeof line, &lineno)) {
        one_match(line, lineno);
        n++;
        variants |= strstr(line, " morelli ")  ? 1
                    : strstr(line, " morris ") ? 2
                    : strstr(line, " fano ")   ? 4
                                               : 0;
    }
    fclose(f);
    assert_true(n >= 3);
    assert_int_equal(variants, 7); /* Morelli, Morris and Fano */
}

/* --- --merge refuses a damaged results file, naming the line ---------------- */

#define MERGE_DATA "match_merge_bad.txt"

/* Parses args (blank-separated) as the command line and runs the match or
 * the merge; returns what it returned, its message in err. */
static int run_args(char *args, char *err, size_t errlen)
{
    char *argv[64];
    int argc = 0;
    argv[argc++] = "match";
    for (char *save = NULL, *t = strtok_r(args, " ", &save); t && argc < 63;
         t = strtok_r(NULL, " ", &save))
        argv[argc++] = t;
    static MatchConfig c;
    match_config_default(&c);
    if (match_parse_args(&c, argc, argv, "build/test", err, errlen) != 0)
        fail_msg("%s", err);
    FILE *out = fopen("/dev/null", "w");
    assert_non_null(out);
    MatchSummary s;
    int rc = c.nmerge ? match_merge(&c, out, &s, err, errlen) : match_run(&c, out, &s, err, errlen);
    fclose(out);
    return rc;
}

/* The lines of the file at path (each with its '\n'), into lines[]. */
static int read_lines(const char *path, char lines[][4096], int max)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int n = 0;
    while (n < max && fgets(lines[n], 4096, f))
        n++;
    fclose(f);
    return n;
}

static void test_merge_refuses(void **state)
{
    (void)state;
    char results[64], pgn[64], bad[64], args[1024], err[1024];
    snprintf(results, sizeof results, "/tmp/match_pgn_r_%d.txt", (int)getpid());
    snprintf(pgn, sizeof pgn, "/tmp/match_pgn_r_%d.pgn", (int)getpid());
    snprintf(bad, sizeof bad, "/tmp/match_pgn_bad_%d.txt", (int)getpid());
    unlink(pgn);
    snprintf(args, sizeof args,
             "--engine cmd=%s name=one --engine cmd=%s name=two --variant morris --games 2 "
             "--depth 1 --quiet --results %s --pgnout %s",
             engine_bin(), engine_bin(), results, pgn);
    assert_int_equal(run_args(args, err, sizeof err), 0);
    static char lines[64][4096];
    int n = read_lines(results, lines, 64);
    assert_int_equal(n, 22);
    snprintf(args, sizeof args, "--merge %s", results);
    assert_int_equal(run_args(args, err, sizeof err), 0); /* whole, it is taken */

    FILE *data = td_open(MERGE_DATA);
    char line[512];
    int lineno = 0, cases = 0;
    while (td_next_line(data, line, sizeof line, &lineno)) {
        char *bar = strchr(line, '|');
        assert_non_null(bar);
        *bar = '\0';
        const char *want = bar + 2, *path = bad;
        char kind[16] = "", text[256] = "";
        int at = 0, word = 0, cut = 0;
        sscanf(line, "%15s", kind);
        FILE *f = fopen(bad, "w");
        assert_non_null(f);
        size_t written = 0;
        for (int i = 0; i < n; i++) {
            char copy[4096];
            memcpy(copy, lines[i], sizeof copy);
            if (!strcmp(kind, "line") && sscanf(line, "line %d %255[^\n]", &at, text) == 2 &&
                at == i + 1) {
                size_t tl = strlen(text);
                while (tl && text[tl - 1] == ' ')
                    text[--tl] = '\0';
                snprintf(copy, sizeof copy, "%s\n", text);
            } else if (!strcmp(kind, "word") &&
                       sscanf(line, "word %d %d %255s", &at, &word, text) == 3 && at == i + 1) {
                /* Word number word of the line becomes text. */
                char out[4000] = "", *save = NULL; /* with its newline, fits copy */
                int k = 0;
                copy[strcspn(copy, "\n")] = '\0';
                for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
                    size_t used = strlen(out);
                    k++;
                    snprintf(out + used, sizeof out - used, "%s%s", k > 1 ? " " : "",
                             k == word ? text : t);
                }
                snprintf(copy, sizeof copy, "%s\n", out);
            } else if (!strcmp(kind, "drop") && sscanf(line, "drop %d", &at) == 1 && at == i + 1) {
                continue;
            }
            fputs(copy, f);
            written += strlen(copy);
        }
        fclose(f);
        if (!strcmp(kind, "cut")) {
            assert_int_equal(sscanf(line, "cut %d", &cut), 1);
            assert_int_equal(truncate(bad, (off_t)(written - (size_t)cut)), 0);
        }
        if (!strcmp(kind, "pgn"))
            path = pgn;
        snprintf(args, sizeof args, "--merge %s", path);
        if (run_args(args, err, sizeof err) == 0)
            fail_msg("%s:%d: accepted", MERGE_DATA, lineno);
        if (!strstr(err, want) || !strstr(err, path))
            fail_msg("%s:%d: '%s', wanted '%s'", MERGE_DATA, lineno, err, want);
        cases++;
    }
    fclose(data);
    assert_true(cases >= 8);
    unlink(bad);
    unlink(results);
    unlink(pgn);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pgn_scores_match_report),
        cmocka_unit_test(test_merge_refuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
