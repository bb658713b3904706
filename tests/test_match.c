/*
 * The match runner (bench/match/match*.c): its command line, openings files, and
 * whole matches -- two copies of our engine (MORELLI_BIN) reaching the end
 * with consistent results and game records, and a fake engine
 * (tests/fake_engine/fake_engine.sh) that plays an illegal move, crashes,
 * stalls or contradicts the referee, losing by that reason while the match
 * goes on.  Engines run at tiny depths so the whole file takes seconds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <cmocka.h>

#include "../bench/match/match.h"
#include "past.h"
#include "morelli/morelli_options.h"
#include "testpgn.h"

#define ARGS_DATA "tests/data/match_args.txt"
#define OPENINGS_DATA "tests/data/match_openings_morris.txt"
#define OPENINGS_BAD "tests/data/match_openings_bad.txt"
#define OPENINGS_OVER "tests/data/match_openings_over.txt"
#define FAKE "sh tests/fake_engine/fake_engine.sh"


static const char *engine_bin(void)
{
    const char *b = getenv("MORELLI_BIN");
    return b && *b ? b : "build/test/morelli";
}

/* --- command lines ------------------------------------------------------------------ */

/* Splits s at blanks into argv (argv[0] = "match"); returns argc. */
static int split(char *s, char **argv, int max)
{
    int n = 0;
    argv[n++] = "match";
    for (char *t = strtok(s, " \t"); t && n < max; t = strtok(NULL, " \t"))
        argv[n++] = t;
    return n;
}

static const char *tc_string(const TimeControl *tc, char *buf, size_t len)
{
    switch (tc->type) {
    case TC_CLOCK:
        snprintf(buf, len, "clock:%lld+%lld", (long long)tc->time_ms, (long long)tc->inc_ms);
        break;
    case TC_MOVETIME: snprintf(buf, len, "movetime:%lld", (long long)tc->movetime_ms); break;
    case TC_DEPTH: snprintf(buf, len, "depth:%d", tc->depth); break;
    default: snprintf(buf, len, "nodes:%llu", (unsigned long long)tc->nodes); break;
    }
    return buf;
}

/* Checks one "key=value" expectation against the parsed configuration. */
static void expect_key(const MatchConfig *c, const char *kv, const char *line)
{
    char key[32], want[128], got[512];
    const char *eq = strchr(kv, '=');
    assert_non_null(eq);
    snprintf(key, sizeof key, "%.*s", (int)(eq - kv), kv);
    snprintf(want, sizeof want, "%s", eq + 1);
    if (!strcmp(key, "games"))
        snprintf(got, sizeof got, "%d", c->games);
    else if (!strcmp(key, "concurrency"))
        snprintf(got, sizeof got, "%d", c->concurrency);
    else if (!strcmp(key, "tc"))
        tc_string(&c->tc, got, sizeof got);
    else if (!strcmp(key, "tc1"))
        tc_string(match_engine_tc(c, 0), got, sizeof got);
    else if (!strcmp(key, "tc2"))
        tc_string(match_engine_tc(c, 1), got, sizeof got);
    else if (!strcmp(key, "timeout"))
        snprintf(got, sizeof got, "%lld", (long long)c->timeout_ms);
    else if (!strcmp(key, "starttimeout"))
        snprintf(got, sizeof got, "%lld", (long long)c->start_timeout_ms);
    else if (!strcmp(key, "shuffle"))
        snprintf(got, sizeof got, "%d", c->shuffle);
    else if (!strcmp(key, "seed"))
        snprintf(got, sizeof got, "%llu", (unsigned long long)c->seed);
    else if (!strcmp(key, "variant"))
        snprintf(got, sizeof got, "%s", c->game->name);
    else if (!strcmp(key, "neach"))
        snprintf(got, sizeof got, "%d", c->neach);
    else if (!strcmp(key, "name1"))
        snprintf(got, sizeof got, "%s", c->engines[0].name);
    else if (!strcmp(key, "name2"))
        snprintf(got, sizeof got, "%s", c->engines[1].name);
    else if (!strcmp(key, "sprt"))
        snprintf(got, sizeof got, "%s:%g:%g",
                 c->sprt_model == SPRT_PENTANOMIAL ? "pentanomial" : "trinomial", c->elo0, c->elo1);
    else if (!strcmp(key, "boardsize"))
        snprintf(got, sizeof got, "%d", (int)morelli_opts_c(&c->game_opt)->board_size);
    else if (!strcmp(key, "margin"))
        snprintf(got, sizeof got, "%lld", (long long)c->margin_ms);
    else if (!strcmp(key, "opt1"))
        snprintf(got, sizeof got, "%s=%s", c->engines[0].options[0].name,
                 c->engines[0].options[0].value);
    else
        fail_msg("%s: unknown key %s", line, key);
    if (strcmp(got, want) != 0)
        fail_msg("%s: %s is %s, want %s", line, key, got, want);
}

static void test_parse_args(void **state)
{
    (void)state;
    FILE *f = fopen(ARGS_DATA, "r");
    assert_non_null(f);
    char line[1024], copy[1024], err[512];
    int oks = 0, errs = 0;
    static MatchConfig c;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!line[0] || line[0] == '#')
            continue;
        snprintf(copy, sizeof copy, "%s", line);
        char *expect = strstr(copy, " => ");
        if (expect) {
            *expect = '\0';
            expect += 4;
        }
        int want_ok = strncmp(copy, "ok ", 3) == 0;
        assert_true(want_ok || strncmp(copy, "err ", 4) == 0);
        char *argv[64];
        int argc = split(copy + (want_ok ? 3 : 4), argv, 64);
        match_config_default(&c);
        err[0] = '\0';
        int rc = match_parse_args(&c, argc, argv, "build", err, sizeof err);
        if (want_ok && rc != 0)
            fail_msg("%s: refused: %s", line, err);
        if (!want_ok && rc == 0)
            fail_msg("%s: accepted", line);
        if (!want_ok) {
            assert_true(strlen(err) > 5); /* a message that says why */
            errs++;
            continue;
        }
        oks++;
        for (char *kv = expect ? strtok(expect, " ") : NULL; kv; kv = strtok(NULL, " "))
            expect_key(&c, kv, line);
    }
    fclose(f);
    assert_true(oks >= 5 && errs >= 10);
}

/* Option names of several words (UCI's `Skill Level`) pass as one argument;
 * blanks at the ends, two in a row, tabs and the word `value` are refused. */
static void test_option_names_with_blanks(void **state)
{
    (void)state;
    static MatchConfig c;
    char err[512];
    char *ok[] = {"match",
                  "--engine",
                  "cmd=x",
                  "option.Skill Level=3",
                  "--engine",
                  "cmd=y",
                  "option.UCI_LimitStrength=true"};
    match_config_default(&c);
    assert_int_equal(match_parse_args(&c, 7, ok, "build", err, sizeof err), 0);
    assert_string_equal(c.engines[0].options[0].name, "Skill Level");
    assert_string_equal(c.engines[0].options[0].value, "3");
    const char *bad[] = {"option. Skill=1",       "option.Skill =1",     "option.Skill  Level=1",
                         "option.Skill\tLevel=1", "option.Hash value=1", "option.value=1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char arg[64];
        snprintf(arg, sizeof arg, "%s", bad[i]);
        char *argv[] = {"match", "--engine", "cmd=x", arg, "--engine", "cmd=y"};
        match_config_default(&c);
        err[0] = '\0';
        if (match_parse_args(&c, 6, argv, "build", err, sizeof err) == 0)
            fail_msg("'%s' accepted", arg);
        assert_non_null(strstr(err, "single blanks"));
    }
}

/* --- openings -------------------------------------------------------------------------- */

static int count_positions(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[1024];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        char *s = line + strspn(line, " \t");
        if (*s && *s != '\n' && *s != '#')
            n++;
    }
    fclose(f);
    return n;
}

static void test_read_openings(void **state)
{
    (void)state;
    GameOptions opt;
    game_options_default(&opt);
    char **lines = NULL, err[512];
    int n = match_read_openings(OPENINGS_DATA, &game_morris, &opt, &lines, err, sizeof err);
    if (n < 0)
        fail_msg("%s", err);
    assert_int_equal(n, count_positions(OPENINGS_DATA));
    assert_true(n >= 3);
    assert_string_equal(lines[0], "startpos");
    match_free_openings(lines, n);

    lines = NULL;
    assert_int_equal(match_read_openings(OPENINGS_BAD, &game_morris, &opt, &lines, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, OPENINGS_BAD ":"));
    assert_null(lines);
    assert_int_equal(
        match_read_openings("tests/data/no_such_file", &game_morris, &opt, &lines, err, sizeof err),
        -1);
}

/* Made openings: the count asked for, all distinct, all readable, the same
 * for the same seed. */
static void check_made_openings(const Game *g, int count, int board_size, int setup)
{
    static MatchConfig c;
    char err[512], path1[64], path2[64];
    match_config_default(&c);
    c.game = g;
    morelli_opts(&c.game_opt)->board_size = board_size;
    morelli_opts(&c.game_opt)->setup = setup;
    c.make_openings = count;
    c.seed = 7;
    snprintf(path1, sizeof path1, "/tmp/match_open1_%d.txt", (int)getpid());
    snprintf(path2, sizeof path2, "/tmp/match_open2_%d.txt", (int)getpid());
    FILE *f = fopen(path1, "w");
    assert_non_null(f);
    if (match_make_openings(&c, f, err, sizeof err) != 0)
        fail_msg("%s: %s", g->name, err);
    fclose(f);
    f = fopen(path2, "w");
    assert_non_null(f);
    assert_int_equal(match_make_openings(&c, f, err, sizeof err), 0);
    fclose(f);

    char **a = NULL, **b = NULL;
    int na = match_read_openings(path1, g, &c.game_opt, &a, err, sizeof err);
    if (na < 0)
        fail_msg("%s: %s", g->name, err);
    assert_int_equal(na, count);
    assert_int_equal(match_read_openings(path2, g, &c.game_opt, &b, err, sizeof err), count);
    for (int i = 0; i < na; i++) {
        assert_string_equal(a[i], b[i]);
        for (int j = 0; j < i; j++)
            assert_string_not_equal(a[i], a[j]);
    }
    match_free_openings(b, count);
    /* Another seed, other openings. */
    c.seed = 8;
    f = fopen(path2, "w");
    assert_non_null(f);
    assert_int_equal(match_make_openings(&c, f, err, sizeof err), 0);
    fclose(f);
    assert_int_equal(match_read_openings(path2, g, &c.game_opt, &b, err, sizeof err), count);
    int same = 0;
    for (int i = 0; i < count; i++)
        same += strcmp(a[i], b[i]) == 0;
    assert_true(same < count);
    match_free_openings(a, count);
    match_free_openings(b, count);
    unlink(path1);
    unlink(path2);
}

static void test_make_openings(void **state)
{
    (void)state;
    check_made_openings(&game_morelli, 20, 13, SETUP_ADJACENT);
    check_made_openings(&game_morelli, 10, 9, SETUP_PAIRS);
    check_made_openings(&game_morelli, 10, 11, SETUP_FREE);
    check_made_openings(&game_morris, 20, 13, SETUP_ADJACENT);
    check_made_openings(&game_fano, 10, 13, SETUP_ADJACENT);
}

/* --- whole matches ----------------------------------------------------------------------- */

/* Replays every recorded game with the rules and checks its record. Returns
 * the first engine's (named first) points * 2. */
static int check_records(const char *path, const char *first, int games)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static PgnRecord pg;
    static char moves[PGN_MOVES_MAX][MOVE_STR_MAX];
    int n = 0, half = 0;
    GameOptions opt;
    game_options_default(&opt);
    while (pgn_read(f, &pg)) {
        n++;
        int nmoves = pgn_moves(&pg, moves, PGN_MOVES_MAX);
        const Game *g = game_by_name(pg.variant);
        assert_non_null(g);
        unsigned char pos[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
        char err[256];
        assert_int_equal(g->from_fen(pos, pg.fen, &opt, err, sizeof err), 0);
        assert_int_equal(pg.plycount, nmoves);
        Past h;
        past_init(&h);
        for (int i = 0; i < nmoves; i++) {
            assert_int_equal(past_result(g, pos, h.keys, h.len), RESULT_NONE);
            Move m = game_parse_move(g, pos, moves[i]);
            if (m == MOVE_NONE)
                fail_msg("game %d: illegal move %s at ply %d", n, moves[i], i + 1);
            past_push(&h, g->key(pos));
            g->make(pos, m, undo);
        }
        int r = past_result(g, pos, h.keys, h.len);
        past_free(&h);
        /* PGN's Result is White's; Morelli's p1 is Black. */
        int p1_white = strcmp(g->side_names[0], "White") == 0;
        const char *want = r == RESULT_DRAW                   ? "1/2-1/2"
                           : (r == RESULT_P1_WIN) == p1_white ? "1-0"
                                                              : "0-1";
        if (!strcmp(pg.term, "rules") || !strcmp(pg.term, "repetition") ||
            !strcmp(pg.term, "move rule"))
            assert_string_equal(pg.result, want);
        else
            assert_string_equal(pg.term, "max plies");
        int white_first = !strcmp(pg.white, first);
        if (!strcmp(pg.result, "1/2-1/2"))
            half += 1;
        else if ((strcmp(pg.result, "1-0") == 0) == white_first)
            half += 2;
    }
    fclose(f);
    assert_int_equal(n, games);
    return half;
}

static void pgn_path(char *buf, size_t len, const char *tag)
{
    snprintf(buf, len, "/tmp/match_test_%s_%d.pgn", tag, (int)getpid());
    unlink(buf);
}

/* A match config of two engines on a tiny depth. */
static void setup_match(MatchConfig *c, const char *cmd1, const char *cmd2, const Game *g)
{
    match_config_default(c);
    snprintf(c->engines[0].cmd, sizeof c->engines[0].cmd, "%s", cmd1);
    snprintf(c->engines[0].name, sizeof c->engines[0].name, "one");
    snprintf(c->engines[1].cmd, sizeof c->engines[1].cmd, "%s", cmd2);
    snprintf(c->engines[1].name, sizeof c->engines[1].name, "two");
    c->game = g;
    c->tc.type = TC_DEPTH;
    c->tc.depth = 1;
    c->quiet = 1;
    c->timeout_ms = 20000;
    c->start_timeout_ms = 20000;
}

static FILE *null_out(void)
{
    FILE *f = fopen("/dev/null", "w");
    assert_non_null(f);
    return f;
}

/* Runs the match c, its output to /dev/null, into *s; a match that fails
 * fails the test with its error (after "what: " when what is not NULL). */
static void run_match(const MatchConfig *c, MatchSummary *s, const char *what)
{
    char err[512];
    FILE *out = null_out();
    if (match_run(c, out, s, err, sizeof err) != 0) {
        if (what)
            fail_msg("%s: %s", what, err);
        else
            fail_msg("%s", err);
    }
    fclose(out);
}

/* The number of lines of the file at path that hold text. */
static int lines_with(const char *path, const char *text)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f))
        n += strstr(line, text) != NULL;
    fclose(f);
    return n;
}

static void test_match_two_copies(void **state)
{
    (void)state;
    static MatchConfig c;
    const Game *games[] = {&game_morris, &game_morelli};
    for (int gi = 0; gi < 2; gi++) {
        setup_match(&c, engine_bin(), engine_bin(), games[gi]);
        c.games = 4;
        c.concurrency = 2;
        if (games[gi] == &game_morris) {
            c.tc.depth = 2;
            snprintf(c.openings, sizeof c.openings, "%s", OPENINGS_DATA);
        } else {
            /* 9x9 keeps the test short; the referee must know the size too. */
            snprintf(c.each[0].name, sizeof c.each[0].name, "BoardSize");
            snprintf(c.each[0].value, sizeof c.each[0].value, "9");
            c.neach = 1;
            morelli_opts(&c.game_opt)->board_size = 9;
        }
        pgn_path(c.pgnout, sizeof c.pgnout, "copies");
        MatchSummary s;
        run_match(&c, &s, NULL);
        assert_int_equal(s.games, 4);
        assert_int_equal(s.wins + s.draws + s.losses, 4);
        assert_int_equal(s.pairs, 2);
        assert_int_equal(s.penta[0] + s.penta[1] + s.penta[2] + s.penta[3] + s.penta[4], 2);
        int half = 0;
        for (int k = 0; k < 5; k++)
            half += k * s.penta[k];
        assert_int_equal(half, 2 * s.wins + s.draws);
        assert_int_equal(s.forfeits[0] + s.forfeits[1], 0);
        assert_int_equal(s.disagreements, 0);
        assert_int_equal(check_records(c.pgnout, "one", 4), 2 * s.wins + s.draws);
        unlink(c.pgnout);
    }
}

/* The real engine against a misbehaving fake: the fake loses every game by
 * the reason expected, and every game is played. */
static void fake_match(const char *mode, const char *termination, int games)
{
    static MatchConfig c;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "%s %s", FAKE, mode);
    setup_match(&c, engine_bin(), cmd, &game_morris);
    c.games = games;
    c.timeout_ms = 1000; /* the stalling fake is killed after this */
    pgn_path(c.pgnout, sizeof c.pgnout, mode);
    MatchSummary s;
    run_match(&c, &s, mode);
    assert_int_equal(s.games, games);
    assert_int_equal(s.wins, games);
    assert_int_equal(s.forfeits[1], games);
    assert_int_equal(s.forfeits[0], 0);
    char want[64];
    snprintf(want, sizeof want, "[Termination \"%s\"]", termination);
    int n = lines_with(c.pgnout, want);
    assert_int_equal(n, games);
    unlink(c.pgnout);
}

static void test_fake_illegal(void **state)
{
    (void)state;
    fake_match("illegal", "illegal move", 2);
}

static void test_fake_crash(void **state)
{
    (void)state;
    fake_match("crash", "crash", 3);
}

static void test_fake_stall(void **state)
{
    (void)state;
    fake_match("stall", "time", 2);
}

static void test_fake_flood(void **state)
{
    (void)state;
    fake_match("flood", "time", 2);
}

/* Finished openings: no move is played, the fake's wrong answers to the
 * queries are recorded as disagreements and the referee's result stands. */
static void test_disagreement(void **state)
{
    (void)state;
    static MatchConfig c;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "%s liar", FAKE);
    setup_match(&c, engine_bin(), cmd, &game_morris);
    c.games = 2;
    snprintf(c.openings, sizeof c.openings, "%s", OPENINGS_OVER);
    MatchSummary s;
    run_match(&c, &s, NULL);
    assert_int_equal(s.games, 2);
    assert_int_equal(s.disagreements, 2);
    /* One finished position, played once with each engine as p2: p2 wins. */
    assert_int_equal(s.wins, 1);
    assert_int_equal(s.losses, 1);
    assert_int_equal(s.forfeits[0] + s.forfeits[1], 0);
}

/* An engine that cannot start or refuses its options stops the match before
 * the first game, with the reason. */
static void test_start_failures(void **state)
{
    (void)state;
    static MatchConfig c;
    char err[512], cmd[256];
    MatchSummary s;
    FILE *out = null_out();
    char cmd0[256];
    snprintf(cmd0, sizeof cmd0, "%s illegal", FAKE);
    snprintf(cmd, sizeof cmd, "%s silent", FAKE);
    setup_match(&c, cmd0, cmd, &game_morris);
    c.start_timeout_ms = 1500;
    assert_int_equal(match_run(&c, out, &s, err, sizeof err), -1);
    assert_non_null(strstr(err, "two: no answer before ugiok"));
    snprintf(cmd, sizeof cmd, "%s badoption", FAKE);
    setup_match(&c, engine_bin(), cmd, &game_morris);
    snprintf(c.each[0].name, sizeof c.each[0].name, "Hash");
    snprintf(c.each[0].value, sizeof c.each[0].value, "16");
    c.neach = 1;
    assert_int_equal(match_run(&c, out, &s, err, sizeof err), -1);
    assert_non_null(strstr(err, "rejected"));
    setup_match(&c, engine_bin(), "tests/fake_engine/no_such_engine 2>/dev/null", &game_morris);
    assert_int_equal(match_run(&c, out, &s, err, sizeof err), -1);
    fclose(out);
}

/* An SPRT that decides stops the match long before its game count, with
 * either model; the engine that always loses gets H0 for elo0=0 elo1=400
 * when it is the first engine.  (With elo1=5 a game can move the LLR by
 * log(s1/s0) = 0.0143 at most: some 200 units to decide, see
 * docs/match.md.) */
static void sprt_match(int model, int fake_first, int want)
{
    static MatchConfig c;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "%s illegal", FAKE);
    if (fake_first)
        setup_match(&c, cmd, engine_bin(), &game_morris);
    else
        setup_match(&c, engine_bin(), cmd, &game_morris);
    c.games = 400;
    c.sprt = 1;
    c.sprt_model = model;
    c.elo0 = 0;
    c.elo1 = 400;
    MatchSummary s;
    run_match(&c, &s, NULL);
    assert_int_equal(s.sprt_decision, want);
    if (want > 0)
        assert_true(s.llr >= s.llr_upper);
    else
        assert_true(s.llr <= s.llr_lower);
    assert_true(s.games >= 2 && s.games < 40);
    assert_int_equal(want > 0 ? s.wins : s.losses, s.games);
}

static void test_sprt_stops(void **state)
{
    (void)state;
    sprt_match(SPRT_PENTANOMIAL, 0, 1);
    sprt_match(SPRT_TRINOMIAL, 0, 1);
    sprt_match(SPRT_PENTANOMIAL, 1, -1);
}


/* A game still going after --maxplies plies is adjudicated a draw. */
static void test_max_plies(void **state)
{
    (void)state;
    static MatchConfig c;
    setup_match(&c, engine_bin(), engine_bin(), &game_morris);
    c.games = 2;
    c.max_plies = 5;
    pgn_path(c.pgnout, sizeof c.pgnout, "maxplies");
    MatchSummary s;
    run_match(&c, &s, NULL);
    assert_int_equal(s.draws, 2);
    assert_int_equal(s.penta[2], 1);
    assert_int_equal(check_records(c.pgnout, "one", 2), 2);
    int adjudicated = lines_with(c.pgnout, "[Termination \"max plies\"]");
    int five = lines_with(c.pgnout, "[PlyCount \"5\"]");
    assert_int_equal(adjudicated, 2);
    assert_int_equal(five, 2);
    unlink(c.pgnout);
}

/* Under a clock: the fake that plays illegally loses by that, the one that
 * stalls is killed once its clock and the margin are spent. */
static void test_clock_forfeits(void **state)
{
    (void)state;
    static MatchConfig c;
    char cmd1[256], cmd2[256];
    snprintf(cmd1, sizeof cmd1, "%s illegal", FAKE);
    snprintf(cmd2, sizeof cmd2, "%s stall", FAKE);
    setup_match(&c, cmd1, cmd2, &game_morris);
    c.tc.type = TC_CLOCK;
    c.tc.time_ms = 100;
    c.tc.inc_ms = 0;
    c.margin_ms = 50;
    c.games = 2;
    /* Time odds: the staller has a clock of its own. */
    c.engines[1].has_tc = 1;
    c.engines[1].tc = c.tc;
    c.engines[1].tc.time_ms = 300;
    pgn_path(c.pgnout, sizeof c.pgnout, "clock");
    MatchSummary s;
    run_match(&c, &s, NULL);
    assert_int_equal(s.games, 2);
    assert_int_equal(s.wins, 1);
    assert_int_equal(s.losses, 1);
    assert_int_equal(s.forfeits[0], 1);
    assert_int_equal(s.forfeits[1], 1);
    int illegal = lines_with(c.pgnout, "[Termination \"illegal move\"]");
    int time = lines_with(c.pgnout, "[Termination \"time\"]");
    /* The deadline is the staller's own clock plus the margin. */
    int reason = lines_with(c.pgnout, "[Reason \"two lost on time (no move within 350 ms)\"]");
    assert_int_equal(illegal, 1);
    assert_int_equal(time, 1);
    assert_int_equal(reason, 1);
    unlink(c.pgnout);
}

/* The demo: one game with a line and a board per ply, then the result. */
static void test_demo(void **state)
{
    (void)state;
    static MatchConfig c;
    char err[512], path[64], line[512];
    setup_match(&c, engine_bin(), engine_bin(), &game_morelli);
    snprintf(c.engines[0].options[0].name, MATCH_NAME_MAX, "Search");
    snprintf(c.engines[0].options[0].value, MATCH_VALUE_MAX, "alphabeta");
    c.engines[0].noptions = 1;
    snprintf(c.engines[1].options[0].name, MATCH_NAME_MAX, "Search");
    snprintf(c.engines[1].options[0].value, MATCH_VALUE_MAX, "mcts");
    c.engines[1].noptions = 1;
    snprintf(c.each[0].name, MATCH_NAME_MAX, "BoardSize");
    snprintf(c.each[0].value, MATCH_VALUE_MAX, "9");
    c.neach = 1;
    morelli_opts(&c.game_opt)->board_size = 9;
    c.tc.type = TC_NODES;
    c.tc.nodes = 200;
    c.demo = 1;
    c.quiet = 0;
    c.games = 1;
    snprintf(path, sizeof path, "/tmp/match_demo_%d.txt", (int)getpid());
    FILE *out = fopen(path, "w");
    assert_non_null(out);
    MatchSummary s;
    if (match_run(&c, out, &s, err, sizeof err) != 0)
        fail_msg("%s", err);
    fclose(out);
    assert_int_equal(s.games, 1);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int plies = 0, results = 0, said = -1, first = 0;
    while (fgets(line, sizeof line, f)) {
        int n;
        char side[16];
        if (sscanf(line, "%d. %15s (", &n, side) == 2 && strstr(line, "): ")) {
            plies++;
            assert_int_equal(n, plies);
            first += n == 1 && !strcmp(side, "Black") && strstr(line, "(one)") != NULL;
        }
        if (!strncmp(line, "Result: ", 8)) {
            results++;
            const char *after = strstr(line, " after ");
            assert_non_null(after);
            said = atoi(after + 7);
        }
    }
    fclose(f);
    unlink(path);
    assert_int_equal(results, 1);
    assert_int_equal(first, 1);
    assert_true(plies > 0);
    assert_int_equal(said, plies);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_args),
        cmocka_unit_test(test_option_names_with_blanks),
        cmocka_unit_test(test_read_openings),
        cmocka_unit_test(test_make_openings),
        cmocka_unit_test(test_match_two_copies),
        cmocka_unit_test(test_fake_illegal),
        cmocka_unit_test(test_fake_crash),
        cmocka_unit_test(test_fake_stall),
        cmocka_unit_test(test_disagreement),
        cmocka_unit_test(test_start_failures),
        cmocka_unit_test(test_sprt_stops),
        cmocka_unit_test(test_clock_forfeits),
        cmocka_unit_test(test_demo),
        cmocka_unit_test(test_max_plies),
        cmocka_unit_test(test_fake_flood),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
