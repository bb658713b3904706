/* The match runner's command line and game options, and match_main()
 * (see match.h and docs/match.md). */
#include "match.h"
#include "match_load.h"
#include "match_shard.h"
#include "options.h"
#include "search/search.h"

#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void match_usage(FILE *out)
{
    fputs("usage: match --engine cmd=CMD [name=NAME] [option.NAME=VALUE ...] [tc=MS+INC|\n"
          "                      movetime=MS|depth=D|nodes=N]\n"
          "             --engine cmd=CMD [name=NAME] [option.NAME=VALUE ...] [tc=...]\n"
          "             [--each option.NAME=VALUE ...] [--variant morelli|morris|fano]\n"
          "             [--games N] [--concurrency N] [--tc MS+INC | --movetime MS |\n"
          "              --depth D | --nodes N] [--timemargin MS] [--timeout MS]\n"
          "             [--start-timeout MS] [--maxplies N] [--pgnout FILE]\n"
          "             [--openings FILE [--shuffle] [--seed S]]\n"
          "             [--sprt elo0=E0 elo1=E1 alpha=A beta=B [model=pentanomial|trinomial]]\n"
          "             [--GameOption=VALUE ...] [--quiet] [--load N]\n"
          "             [--shard K/N] [--results FILE]\n"
          "       match --merge FILE... [--results FILE]\n"
          "       match --demo [--delay MS] [--engine ... --engine ...] [--movetime MS] [...]\n"
          "       match --make-openings N [--variant V] [--GameOption=VALUE ...]\n"
          "             [--seed S] [--plies P]\n"
          "Game options: BoardSize Ruleset Setup SetupSeed Pieces Diagonals Flying MoveRule.\n"
          "See docs/match.md.\n",
          out);
}

/* --- game options ------------------------------------------------------------------ */

/* A whole decimal number within [lo, hi]. */
static int parse_int(const char *v, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (errno || end == v || *end || x < lo || x > hi)
        return -1;
    *out = x;
    return 0;
}

/* --- the command line ------------------------------------------------------------- */

static int add_option(MatchOption *list, int *n, const char *text, char *err, size_t errlen)
{
    const char *eq = strchr(text, '=');
    if (!eq || eq == text) {
        snprintf(err, errlen, "expected option.NAME=VALUE, got '%s'", text);
        return -1;
    }
    if (*n >= MATCH_MAX_OPTIONS) {
        snprintf(err, errlen, "too many options (at most %d)", MATCH_MAX_OPTIONS);
        return -1;
    }
    size_t nl = (size_t)(eq - text);
    if (nl >= MATCH_NAME_MAX || strlen(eq + 1) >= MATCH_VALUE_MAX) {
        snprintf(err, errlen, "option too long: '%.40s...'", text);
        return -1;
    }
    /* A name may hold single blanks between words, as UCI's `Skill Level`,
     * but not at its ends, two in a row, other white space, or the word
     * `value`, which would end the name in `setoption name N value V`. */
    int bad = text[0] == ' ' || text[nl - 1] == ' ';
    for (size_t i = 0, w = 0; i <= nl && !bad; i++) {
        if (i == nl || text[i] == ' ') {
            bad = i == w || (i - w == 5 && !strncasecmp(text + w, "value", 5));
            w = i + 1;
        } else {
            bad = isspace((unsigned char)text[i]);
        }
    }
    if (bad) {
        snprintf(err, errlen,
                 "option name '%.*s': words separated by single blanks, and not the word 'value'",
                 (int)nl, text);
        return -1;
    }
    /* A later setting of the same name replaces the earlier one. */
    int slot = *n;
    for (int i = 0; i < *n; i++)
        if (strlen(list[i].name) == nl && !strncasecmp(list[i].name, text, nl))
            slot = i;
    memcpy(list[slot].name, text, nl);
    list[slot].name[nl] = '\0';
    snprintf(list[slot].value, sizeof list[slot].value, "%s", eq + 1);
    if (slot == *n)
        (*n)++;
    return 0;
}

static int is_flag(const char *s)
{
    return s[0] == '-' && s[1] == '-';
}

static int parse_tc(TimeControl *tc, const char *v, char *err, size_t errlen);

/* tc=, movetime=, depth=, nodes= of one engine. Returns 1 if a was one of
 * them (0 if not, -1 for a bad value). */
static int engine_tc_setting(EngineSpec *e, const char *a, char *err, size_t errlen)
{
    long long x;
    if (!strncmp(a, "tc=", 3)) {
        if (parse_tc(&e->tc, a + 3, err, errlen))
            return -1;
    } else if (!strncmp(a, "movetime=", 9)) {
        if (parse_int(a + 9, 1, 86400000, &x))
            goto bad;
        e->tc.type = TC_MOVETIME;
        e->tc.movetime_ms = x;
    } else if (!strncmp(a, "depth=", 6)) {
        if (parse_int(a + 6, 1, 1000, &x))
            goto bad;
        e->tc.type = TC_DEPTH;
        e->tc.depth = (int)x;
    } else if (!strncmp(a, "nodes=", 6)) {
        if (parse_int(a + 6, 1, 1000000000000LL, &x))
            goto bad;
        e->tc.type = TC_NODES;
        e->tc.nodes = (uint64_t)x;
    } else {
        return 0;
    }
    e->has_tc = 1;
    return 1;
bad:
    snprintf(err, errlen, "--engine: bad time control '%s'", a);
    return -1;
}

static int parse_engine(EngineSpec *e, int argc, char **argv, int *i, char *err, size_t errlen)
{
    int any = 0;
    while (*i + 1 < argc && !is_flag(argv[*i + 1])) {
        const char *a = argv[++*i];
        any = 1;
        if (!strncmp(a, "cmd=", 4)) {
            if (strlen(a + 4) >= sizeof e->cmd) {
                snprintf(err, errlen, "engine command too long");
                return -1;
            }
            snprintf(e->cmd, sizeof e->cmd, "%s", a + 4);
        } else if (!strncmp(a, "name=", 5)) {
            if (!a[5] || strlen(a + 5) >= sizeof e->name) {
                snprintf(err, errlen, "bad engine name '%s'", a + 5);
                return -1;
            }
            snprintf(e->name, sizeof e->name, "%s", a + 5);
        } else if (!strncmp(a, "option.", 7)) {
            if (add_option(e->options, &e->noptions, a + 7, err, errlen))
                return -1;
        } else {
            int r = engine_tc_setting(e, a, err, errlen);
            if (r < 0)
                return -1;
            if (r > 0)
                continue;
            snprintf(err, errlen,
                     "--engine: unknown setting '%s' (cmd=, name=, option.NAME=, tc=, movetime=, "
                     "depth=, nodes=)",
                     a);
            return -1;
        }
    }
    if (!any) {
        snprintf(err, errlen, "--engine needs settings (cmd=...)");
        return -1;
    }
    return 0;
}

static int parse_sprt(MatchConfig *c, int argc, char **argv, int *i, char *err, size_t errlen)
{
    c->sprt = 1;
    while (*i + 1 < argc && !is_flag(argv[*i + 1])) {
        const char *a = argv[++*i];
        const char *eq = strchr(a, '=');
        char *end;
        if (!eq) {
            snprintf(err, errlen, "--sprt: expected KEY=VALUE, got '%s'", a);
            return -1;
        }
        if (!strncmp(a, "model=", 6)) {
            if (!strcmp(eq + 1, "pentanomial"))
                c->sprt_model = SPRT_PENTANOMIAL;
            else if (!strcmp(eq + 1, "trinomial"))
                c->sprt_model = SPRT_TRINOMIAL;
            else {
                snprintf(err, errlen, "--sprt: model is pentanomial or trinomial");
                return -1;
            }
            continue;
        }
        double v = strtod(eq + 1, &end);
        if (end == eq + 1 || *end) {
            snprintf(err, errlen, "--sprt: bad number in '%s'", a);
            return -1;
        }
        if (!strncmp(a, "elo0=", 5))
            c->elo0 = v;
        else if (!strncmp(a, "elo1=", 5))
            c->elo1 = v;
        else if (!strncmp(a, "alpha=", 6))
            c->alpha = v;
        else if (!strncmp(a, "beta=", 5))
            c->beta = v;
        else {
            snprintf(err, errlen, "--sprt: unknown key in '%s'", a);
            return -1;
        }
    }
    if (!(c->alpha > 0 && c->alpha < 1 && c->beta > 0 && c->beta < 1 && c->elo1 != c->elo0)) {
        snprintf(err, errlen, "--sprt: need 0 < alpha, beta < 1 and elo0 != elo1");
        return -1;
    }
    return 0;
}

/* The value after flag argv[*i], or NULL with a message. */
static const char *value_of(int argc, char **argv, int *i, char *err, size_t errlen)
{
    if (*i + 1 >= argc) {
        snprintf(err, errlen, "%s needs a value", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

static int number_arg(int argc, char **argv, int *i, long long lo, long long hi, long long *out,
                      char *err, size_t errlen)
{
    const char *flag = argv[*i];
    const char *v = value_of(argc, argv, i, err, errlen);
    if (!v)
        return -1;
    if (parse_int(v, lo, hi, out)) {
        snprintf(err, errlen, "%s: expected a whole number in [%lld, %lld], got '%s'", flag, lo, hi,
                 v);
        return -1;
    }
    return 0;
}

static int parse_tc(TimeControl *tc, const char *v, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    long long t = strtoll(v, &end, 10), inc = 0;
    if (errno || end == v || t <= 0)
        goto bad;
    if (*end == '+') {
        const char *s = end + 1;
        inc = strtoll(s, &end, 10);
        if (errno || end == s || inc < 0)
            goto bad;
    }
    if (*end)
        goto bad;
    tc->type = TC_CLOCK;
    tc->time_ms = t;
    tc->inc_ms = inc;
    return 0;
bad:
    snprintf(err, errlen, "--tc: expected MS or MS+INC in milliseconds, got '%s'", v);
    return -1;
}

/* Default name: the command's program name, made unique. */
static void default_names(MatchConfig *c)
{
    for (int e = 0; e < 2; e++) {
        EngineSpec *s = &c->engines[e];
        if (s->name[0])
            continue;
        s->name_auto = 1;
        size_t len = strcspn(s->cmd, " \t");
        const char *base = s->cmd;
        for (size_t k = 0; k < len; k++)
            if (s->cmd[k] == '/')
                base = s->cmd + k + 1;
        int n = (int)(s->cmd + len - base);
        snprintf(s->name, sizeof s->name, "%.*s", n > 40 ? 40 : n, n ? base : "engine");
    }
    match_unique_names(c);
}

/* The game options one engine plays with: --each's, then its own. */
static int engine_game_options(const MatchConfig *c, int e, GameOptions *o, char *err,
                               size_t errlen)
{
    memset(o, 0, sizeof *o);
    game_options_default(o);
    for (int i = 0; i < c->neach; i++)
        if (game_option_set(o, c->each[i].name, c->each[i].value, err, errlen) < 0)
            return -1;
    const EngineSpec *s = &c->engines[e];
    for (int i = 0; i < s->noptions; i++)
        if (game_option_set(o, s->options[i].name, s->options[i].value, err, errlen) < 0)
            return -1;
    return 0;
}

int match_parse_args(MatchConfig *c, int argc, char **argv, const char *argv0_dir, char *err,
                     size_t errlen)
{
    int nengines = 0, tc_given = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        long long x;
        const char *v;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            c->help = 1;
            return 0;
        } else if (!strcmp(a, "--engine")) {
            if (nengines == 2) {
                snprintf(err, errlen, "exactly two --engine, not more");
                return -1;
            }
            EngineSpec *e = &c->engines[nengines++];
            memset(e, 0, sizeof *e);
            if (parse_engine(e, argc, argv, &i, err, errlen))
                return -1;
            if (!e->cmd[0]) {
                snprintf(err, errlen, "--engine needs cmd=COMMAND");
                return -1;
            }
        } else if (!strcmp(a, "--each")) {
            int any = 0;
            while (i + 1 < argc && !is_flag(argv[i + 1])) {
                const char *o = argv[++i];
                any = 1;
                if (strncmp(o, "option.", 7)) {
                    snprintf(err, errlen, "--each: expected option.NAME=VALUE, got '%s'", o);
                    return -1;
                }
                if (add_option(c->each, &c->neach, o + 7, err, errlen))
                    return -1;
            }
            if (!any) {
                snprintf(err, errlen, "--each needs option.NAME=VALUE settings");
                return -1;
            }
        } else if (!strcmp(a, "--variant")) {
            if (!(v = value_of(argc, argv, &i, err, errlen)))
                return -1;
            c->game = game_by_name(v);
            if (!c->game) {
                char names[256] = "";
                for (int k = 0; k < game_count; k++)
                    snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                             k ? ", " : "", game_list[k]->name);
                snprintf(err, errlen, "unknown variant '%s' (%s)", v, names);
                return -1;
            }
        } else if (!strcmp(a, "--games")) {
            if (number_arg(argc, argv, &i, 1, 10000000, &x, err, errlen))
                return -1;
            c->games = (int)x;
        } else if (!strcmp(a, "--concurrency")) {
            if (number_arg(argc, argv, &i, 1, 256, &x, err, errlen))
                return -1;
            c->concurrency = (int)x;
        } else if (!strcmp(a, "--tc")) {
            if (!(v = value_of(argc, argv, &i, err, errlen)) || parse_tc(&c->tc, v, err, errlen))
                return -1;
            tc_given++;
        } else if (!strcmp(a, "--movetime")) {
            if (number_arg(argc, argv, &i, 1, 86400000, &x, err, errlen))
                return -1;
            c->tc.type = TC_MOVETIME;
            c->tc.movetime_ms = x;
            tc_given++;
        } else if (!strcmp(a, "--depth")) {
            if (number_arg(argc, argv, &i, 1, 1000, &x, err, errlen))
                return -1;
            c->tc.type = TC_DEPTH;
            c->tc.depth = (int)x;
            tc_given++;
        } else if (!strcmp(a, "--nodes")) {
            if (number_arg(argc, argv, &i, 1, 1000000000000LL, &x, err, errlen))
                return -1;
            c->tc.type = TC_NODES;
            c->tc.nodes = (uint64_t)x;
            tc_given++;
        } else if (!strcmp(a, "--load")) {
            if (number_arg(argc, argv, &i, 0, LOAD_MAX, &x, err, errlen))
                return -1;
            c->load = (int)x;
        } else if (!strcmp(a, "--shard")) {
            char spec[64];
            if (!(v = value_of(argc, argv, &i, err, errlen)) ||
                shard_auto_spec(v, spec, sizeof spec, err, errlen) ||
                shard_parse_spec(spec, &c->shard_k, &c->shard_n, err, errlen))
                return -1;
        } else if (!strcmp(a, "--results")) {
            if (!(v = value_of(argc, argv, &i, err, errlen)))
                return -1;
            if (strlen(v) >= MATCH_PATH_MAX || !v[0]) {
                snprintf(err, errlen, "%s: bad path", a);
                return -1;
            }
            snprintf(c->results, MATCH_PATH_MAX, "%s", v);
        } else if (!strcmp(a, "--merge")) {
            c->merge = argv + i + 1;
            c->nmerge = 0;
            while (i + 1 < argc && !is_flag(argv[i + 1])) {
                i++;
                c->nmerge++;
            }
            if (!c->nmerge) {
                snprintf(err, errlen, "--merge needs results files");
                return -1;
            }
        } else if (!strcmp(a, "--margin") || !strcmp(a, "--timemargin")) {
            if (number_arg(argc, argv, &i, 0, 3600000, &x, err, errlen))
                return -1;
            c->margin_ms = x;
        } else if (!strcmp(a, "--timeout")) {
            if (number_arg(argc, argv, &i, 1, 86400000, &x, err, errlen))
                return -1;
            c->timeout_ms = x;
        } else if (!strcmp(a, "--start-timeout")) {
            if (number_arg(argc, argv, &i, 1, 86400000, &x, err, errlen))
                return -1;
            c->start_timeout_ms = x;
        } else if (!strcmp(a, "--maxplies")) {
            if (number_arg(argc, argv, &i, 1, 1000000, &x, err, errlen))
                return -1;
            c->max_plies = (int)x;
        } else if (!strcmp(a, "--openings") || !strcmp(a, "--pgnout")) {
            if (!(v = value_of(argc, argv, &i, err, errlen)))
                return -1;
            char *dst = a[2] == 'o' ? c->openings : c->pgnout;
            if (strlen(v) >= MATCH_PATH_MAX || !v[0]) {
                snprintf(err, errlen, "%s: bad path", a);
                return -1;
            }
            snprintf(dst, MATCH_PATH_MAX, "%s", v);
        } else if (!strcmp(a, "--sprt")) {
            if (parse_sprt(c, argc, argv, &i, err, errlen))
                return -1;
        } else if (!strcmp(a, "--seed")) {
            if (number_arg(argc, argv, &i, 0, INT64_MAX, &x, err, errlen))
                return -1;
            c->seed = (uint64_t)x;
        } else if (!strcmp(a, "--plies")) {
            if (number_arg(argc, argv, &i, 0, 200, &x, err, errlen))
                return -1;
            c->opening_plies = (int)x;
        } else if (!strcmp(a, "--make-openings")) {
            if (number_arg(argc, argv, &i, 1, 1000000, &x, err, errlen))
                return -1;
            c->make_openings = (int)x;
        } else if (!strcmp(a, "--demo")) {
            c->demo = 1;
        } else if (!strcmp(a, "--delay")) {
            if (number_arg(argc, argv, &i, 0, 60000, &x, err, errlen))
                return -1;
            c->demo_delay_ms = (int)x;
        } else if (!strcmp(a, "--quiet")) {
            c->quiet = 1;
        } else if (!strcmp(a, "--shuffle")) {
            c->shuffle = 1;
        } else if (is_flag(a) && strchr(a, '=')) {
            /* --BoardSize=13 or --option.BoardSize=13: an option for both
             * engines.  --Name=Value must be one of our engine's options and
             * is checked as the engine checks it (same message);
             * --option.Name=Value is passed on as it is (other engines). */
            const char *o = a + 2;
            if (!strncmp(o, "option.", 7))
                o += 7;
            GameOptions probe = c->game_opt;
            char name[MATCH_NAME_MAX], tmp[64];
            snprintf(name, sizeof name, "%.*s", (int)(strchr(o, '=') - o), o);
            const char *value = strchr(o, '=') + 1;
            int r = game_option_set(&probe, name, value, err, errlen);
            if (r < 0)
                return -1;
            const Option *so = option_find(search_options, search_option_count, name);
            int64_t num;
            if (r == 0 && so && option_parse(so, value, 0, &num, err, errlen) != 0)
                return -1;
            if (r == 0 && !so && o == a + 2) {
                snprintf(err, errlen, "unknown option '%s'", option_echo(name, tmp, sizeof tmp));
                return -1;
            }
            if (add_option(c->each, &c->neach, o, err, errlen))
                return -1;
        } else {
            snprintf(err, errlen, "unknown argument '%s' (see --help)", a);
            return -1;
        }
    }
    if (c->nmerge) {
        if (nengines || c->shard_n || c->demo || c->make_openings) {
            snprintf(err, errlen,
                     "--merge takes results files (and --results FILE for the "
                     "joined file), no match to play");
            return -1;
        }
        return 0;
    }
    if (c->shard_n && !c->results[0]) {
        snprintf(err, errlen, "--shard needs --results FILE");
        return -1;
    }
    if (shard_results_path(c->results, sizeof c->results, c->shard_k, err, errlen))
        return -1;
    if (tc_given > 1) {
        snprintf(err, errlen, "give one of --tc, --movetime, --depth, --nodes");
        return -1;
    }
    if (c->demo) {
        if (nengines == 0) {
            EngineSpec *e = c->engines;
            const char *dir = argv0_dir && argv0_dir[0] ? argv0_dir : ".";
            for (int k = 0; k < 2; k++) {
                memset(&e[k], 0, sizeof e[k]);
                snprintf(e[k].cmd, sizeof e[k].cmd, "%s/morelli", dir);
                snprintf(e[k].name, sizeof e[k].name, "%s", k ? "mcts" : "alphabeta");
                add_option(e[k].options, &e[k].noptions, k ? "Search=mcts" : "Search=alphabeta",
                           err, errlen);
            }
            nengines = 2;
        }
        if (!tc_given) {
            c->tc.type = TC_MOVETIME;
            c->tc.movetime_ms = 100;
        }
        c->games = 1;
        c->concurrency = 1;
        c->sprt = 0;
        if (c->margin_ms < 1000)
            c->margin_ms = 1000; /* a demo must not end on a busy machine's hiccup */
    }
    /* The referee must play the engines' game: the variant has one source. */
    for (int i = 0; i < c->neach; i++)
        if (!strcasecmp(c->each[i].name, "UCI_Variant")) {
            snprintf(err, errlen, "give the game with --variant, not as an option");
            return -1;
        }
    for (int e = 0; e < nengines; e++)
        for (int i = 0; i < c->engines[e].noptions; i++)
            if (!strcasecmp(c->engines[e].options[i].name, "UCI_Variant")) {
                snprintf(err, errlen, "give the game with --variant, not as an option");
                return -1;
            }
    if (nengines == 2 && match_engine_tc(c, 0)->type != match_engine_tc(c, 1)->type) {
        snprintf(err, errlen,
                 "the engines' time controls must be of one kind (clock, movetime, "
                 "depth or nodes)");
        return -1;
    }
    /* The game options: both engines must play the same game. */
    GameOptions o0, o1;
    if (engine_game_options(c, 0, &o0, err, errlen) || engine_game_options(c, 1, &o1, err, errlen))
        return -1;
    if (!game_options_equal(NULL, &o0, &o1)) {
        snprintf(err, errlen, "the engines' game options differ: give them with --each");
        return -1;
    }
    c->game_opt = o0;
    if (c->make_openings || c->help)
        return 0;
    if (nengines != 2) {
        snprintf(err, errlen, "two --engine are needed (or --demo)");
        return -1;
    }
    default_names(c);
    return 0;
}


/* --- the program ------------------------------------------------------------------- */

static void on_interrupt(int sig)
{
    match_interrupted = 1;
    signal(sig, SIG_DFL); /* the next Ctrl-C ends the runner at once */
}

int match_main(int argc, char **argv)
{
    static MatchConfig c; /* large: not on the stack */
    char err[1024];
    char dir[MATCH_PATH_MAX] = ".";
    const char *slash = argc > 0 ? strrchr(argv[0], '/') : NULL;
    if (slash)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - argv[0]), argv[0]);
    match_config_default(&c);
    if (match_parse_args(&c, argc, argv, dir, err, sizeof err) != 0) {
        fprintf(stderr, "match: %s\n", err);
        match_usage(stderr);
        return 2;
    }
    if (c.help) {
        match_usage(stdout);
        return 0;
    }
    if (c.nmerge) {
        if (match_merge(&c, stdout, NULL, err, sizeof err) != 0) {
            fprintf(stderr, "match: %s\n", err);
            return 1;
        }
        return 0;
    }
    if (c.make_openings) {
        if (match_make_openings(&c, stdout, err, sizeof err) != 0) {
            fprintf(stderr, "match: %s\n", err);
            return 1;
        }
        return 0;
    }
    MatchSummary sum;
    signal(SIGINT, on_interrupt);
    if (match_run(&c, stdout, &sum, err, sizeof err) != 0) {
        fprintf(stderr, "match: %s\n", err);
        return 1;
    }
    return 0;
}
