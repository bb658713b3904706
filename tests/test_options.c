/*
 * Bad option input, through the engine and through the match runner: each
 * line of tests/data/option_errors.txt is sent to an in-process engine
 * (session_open with a line collector, the protocol's one-line core) as
 * `setoption`, and to the runner's command line as --Name=Value; both must
 * refuse it with the same message (the engine's as its one
 * "info string error: ..." line) or both accept it.  Then every option of
 * every game (from the descriptors) is checked both ways with a value below
 * its range, and option_parse / option_ugi_line / game_options_describe are
 * checked against each other.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../bench/match/match.h"
#include "options.h"
#include "testdata.h"
#include "ugi.h"

/* The engine's last error line, and how many it printed. */
typedef struct Lines {
    char last_error[512];
    int errors;
} Lines;

static void collect(void *ctx, const char *line)
{
    Lines *l = ctx;
    const char *tag = "info string error: ";
    if (strncmp(line, tag, strlen(tag)) == 0) {
        snprintf(l->last_error, sizeof l->last_error, "%s", line + strlen(tag));
        l->errors++;
    }
}

/* The engine's message for name=value under variant ("" when accepted). */
static void engine_says(const char *variant, const char *name, const char *value, char *msg,
                        size_t len)
{
    Lines l = {"", 0};
    Session *e = session_open(collect, &l, 0, NULL);
    assert_non_null(e);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "setoption name UCI_Variant value %s", variant);
    assert_int_equal(session_command(e, cmd), UGI_OK);
    snprintf(cmd, sizeof cmd, "setoption name %s value %s", name, value);
    int rc = session_command(e, cmd);
    assert_int_equal(l.errors, rc == UGI_OK ? 0 : 1);
    snprintf(msg, len, "%s", rc == UGI_OK ? "" : l.last_error);
    session_free(e);
}

/* The runner's message for --name=value under variant ("" when accepted). */
static void runner_says(const char *variant, const char *name, const char *value, char *msg,
                        size_t len)
{
    static MatchConfig c;
    char opt[512];
    snprintf(opt, sizeof opt, "--%s=%s", name, value);
    char *argv[] = {"match", "--engine",  "cmd=a",         "--engine",
                    "cmd=b", "--variant", (char *)variant, opt};
    match_config_default(&c);
    char err[512] = "";
    int rc = match_parse_args(&c, 8, argv, ".", err, sizeof err);
    snprintf(msg, len, "%s", rc == 0 ? "" : err);
}

static void check_both(const char *variant, const char *name, const char *value, const char *want)
{
    char e[512], r[512];
    engine_says(variant, name, value, e, sizeof e);
    runner_says(variant, name, value, r, sizeof r);
    if (strcmp(e, want) != 0 || strcmp(r, want) != 0)
        fail_msg("%s %s=%s: engine '%s', runner '%s', want '%s'", variant, name, value, e, r, want);
}

static void test_same_message(void **state)
{
    (void)state;
    FILE *fp = td_open("option_errors.txt");
    char line[1024];
    char *f[TD_MAXF];
    int nf, bad = 0, good = 0;
    while ((nf = td_next_record(fp, line, sizeof line, f)) > 0) {
        assert_int_equal(nf, 3);
        char *eq = strchr(f[1], '=');
        assert_non_null(eq);
        *eq = '\0';
        int ok = strcmp(f[2], "ok") == 0;
        check_both(f[0], f[1], eq + 1, ok ? "" : f[2]);
        bad += !ok;
        good += ok;
    }
    fclose(fp);
    assert_true(bad >= 15 && good >= 5);
}

/* Every game option of every game: below its range both refuse it alike,
 * its default both accept (under every variant: another game's option is
 * kept for that game by both). */
static void test_every_declared_option(void **state)
{
    (void)state;
    int n = 0;
    for (int gi = 0; gi < game_count; gi++)
        for (int k = 0; k < game_list[gi]->option_count; k++) {
            const Option *o = &game_list[gi]->options[k];
            char def[64], low[64], want[256];
            int64_t v;
            option_value_str(o, o->def, def, sizeof def);
            assert_int_equal(option_parse(o, def, 0, &v, want, sizeof want), 0);
            assert_true(v == o->def);
            snprintf(low, sizeof low, "%lld", (long long)o->min - 1);
            assert_int_equal(option_parse(o, o->type == OPTION_SPIN ? low : "nonsense", 0, &v, want,
                                          sizeof want),
                             -1);
            for (int vi = 0; vi < game_count; vi++) {
                check_both(game_list[vi]->name, o->name, o->type == OPTION_SPIN ? low : "nonsense",
                           want);
                check_both(game_list[vi]->name, o->name, def, "");
            }
            n++;
        }
    assert_true(n >= 8);
}

/* The `option name` line and d's Options text agree with the declarations. */
static void test_lines_and_describe(void **state)
{
    (void)state;
    GameOptions opt;
    game_options_default(&opt);
    char desc[1024];
    /* d shows the game's own options, and only those */
    for (int gi = 0; gi < game_count; gi++) {
        const Game *g = game_list[gi];
        game_options_describe(g, &opt, desc, sizeof desc);
        for (int i = 0; game_option_at(i); i++) {
            const Option *o = game_option_at(i);
            char def[64], item[128];
            option_value_str(o, o->def, def, sizeof def);
            snprintf(item, sizeof item, "%s=%s", o->name, def);
            int own = option_find(g->options, g->option_count, o->name) != NULL;
            assert_int_equal(strstr(desc, item) != NULL, own);
        }
    }
    for (int i = 0; game_option_at(i); i++) {
        const Option *o = game_option_at(i);
        char line[512], def[64], item[128];
        option_ugi_line(o, 0, line, sizeof line);
        option_value_str(o, o->def, def, sizeof def);
        snprintf(item, sizeof item, "option name %s type ", o->name);
        assert_true(strncmp(line, item, strlen(item)) == 0);
        snprintf(item, sizeof item, " default %s", def);
        assert_non_null(strstr(line, item));
        assert_true(game_option_find(o->name) == o);
    }
    GameOptions a = opt, b = opt;
    char err[256];
    assert_int_equal(game_option_set(&b, "Pieces", "12", err, sizeof err), 1);
    assert_false(game_options_equal(NULL, &a, &b));
    assert_false(game_options_equal(game_by_name("morris"), &a, &b));
    assert_true(game_options_equal(game_by_name("morelli"), &a, &b));
    assert_int_equal(game_option_set(&b, "NoSuchOption", "1", err, sizeof err), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_message),
        cmocka_unit_test(test_every_declared_option),
        cmocka_unit_test(test_lines_and_describe),
    };
    return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
