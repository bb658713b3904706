/*
 * options.c -- the options the protocol lists and sets: the game options
 * (UCI_Variant and the games' rules) in the table proto_options[], and the
 * searchers' options from engine/search.  A value is type-checked against
 * its option (spin range, check, combo values) before anything changes;
 * apply_option() without a Search is the dry run that setoption and the
 * command-line options do first.
 */
#include "ugi_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

typedef struct ProtoOption {
    const char *name;
    const char *type; /* spin, check, combo */
    const char *def;
    int64_t min, max;
    const char *vars[8]; /* combo values; empty for UCI_Variant = the games */
    /* Applies an already type-checked value. 0, or -1 with err. */
    int (*set)(GameSetting *s, const char *value, int64_t num, char *err, size_t errlen);
} ProtoOption;

static int set_variant(GameSetting *s, const char *v, int64_t num, char *err, size_t n)
{
    (void)num;
    const Game *g = game_by_name(v);
    if (!g) {
        snprintf(err, n, "unknown variant");
        return -1;
    }
    s->game = g;
    return 0;
}

static int set_ruleset(GameSetting *s, const char *v, int64_t num, char *err, size_t n)
{
    (void)num; (void)err; (void)n;
    s->opt.ruleset = strcasecmp(v, "classic") == 0 ? RULESET_CLASSIC : RULESET_STANDARD;
    return 0;
}

static int set_setup(GameSetting *s, const char *v, int64_t num, char *err, size_t n)
{
    static const char *const names[] = {"adjacent", "facing", "random", "free", "pairs"};
    (void)num;
    for (int i = 0; i < 5; i++)
        if (strcasecmp(v, names[i]) == 0) {
            s->opt.setup = i; /* SETUP_* follow this order */
            return 0;
        }
    snprintf(err, n, "unknown setup");
    return -1;
}

static int set_seed(GameSetting *s, const char *v, int64_t num, char *err, size_t n)
{
    (void)v; (void)err; (void)n;
    s->opt.setup_seed = (uint64_t)num;
    return 0;
}

static int set_board_size(GameSetting *s, const char *v, int64_t num, char *err, size_t n)
{
    (void)v;
    if (num != 9 && num != 11 && num != 13) {
        snprintf(err, n, "BoardSize must be 9, 11 or 13");
        return -1;
    }
    s->opt.board_size = (int)num;
    return 0;
}

static int set_pieces(GameSetting *s, const char *v, int64_t num, char *err, size_t n)
{
    (void)v;
    if (num != 9 && num != 12) {
        snprintf(err, n, "Pieces must be 9 or 12");
        return -1;
    }
    s->opt.pieces = (int)num;
    return 0;
}

static int set_diagonals(GameSetting *s, const char *v, int64_t num, char *err, size_t n)
{
    (void)v; (void)err; (void)n;
    s->opt.diagonals = (int)num;
    return 0;
}

static int set_flying(GameSetting *s, const char *v, int64_t num, char *err, size_t n)
{
    (void)v; (void)err; (void)n;
    s->opt.flying = (int)num;
    return 0;
}

static int set_move_rule(GameSetting *s, const char *v, int64_t num, char *err, size_t n)
{
    (void)v; (void)err; (void)n;
    s->opt.move_rule = (int)num;
    return 0;
}

static const ProtoOption proto_options[] = {
    {"UCI_Variant", "combo", "morelli", 0, 0, {NULL}, set_variant},
    {"Ruleset", "combo", "standard", 0, 0, {"standard", "classic", NULL}, set_ruleset},
    {"Setup", "combo", "adjacent", 0, 0,
     {"adjacent", "facing", "random", "free", "pairs", NULL}, set_setup},
    {"SetupSeed", "spin", "0", 0, 2147483647, {NULL}, set_seed},
    {"BoardSize", "spin", "13", 9, 13, {NULL}, set_board_size},
    {"Pieces", "spin", "9", 9, 12, {NULL}, set_pieces},
    {"Diagonals", "check", "false", 0, 0, {NULL}, set_diagonals},
    {"Flying", "check", "true", 0, 0, {NULL}, set_flying},
    {"MoveRule", "spin", "100", 0, 100000, {NULL}, set_move_rule},
};
#define PROTO_OPTION_COUNT ((int)(sizeof proto_options / sizeof proto_options[0]))

/* The combo values of an option: its vars, or the games for UCI_Variant. */
static int combo_values(const ProtoOption *po, const char **vals, int max)
{
    int n = 0;
    if (!po->vars[0]) {
        for (int i = 0; i < game_count && n < max; i++)
            vals[n++] = game_list[i]->name;
    } else {
        for (int i = 0; po->vars[i] && n < max; i++)
            vals[n++] = po->vars[i];
    }
    return n;
}

/* Type check of value against a type/range/combo list; *num gets the number
 * (spin) or the truth value (check). 0 or -1 with err. */
static int check_value(const char *name, const char *type, int64_t min, int64_t max,
                       const char *const *vals, int nvals, const char *value, int64_t *num,
                       char *err, size_t n)
{
    char tmp[64];
    *num = 0;
    if (strcmp(type, "spin") == 0) {
        if (parse_i64(value, num) != 0) {
            snprintf(err, n, "%s needs an integer, not '%s'", name, echo(value, tmp, sizeof tmp));
            return -1;
        }
        if (*num < min || *num > max) {
            snprintf(err, n, "%s must be in %" PRId64 "..%" PRId64 ", not %" PRId64, name, min,
                     max, *num);
            return -1;
        }
    } else if (strcmp(type, "check") == 0) {
        int b;
        if (parse_bool(value, &b) != 0) {
            snprintf(err, n, "%s needs true or false, not '%s'", name,
                     echo(value, tmp, sizeof tmp));
            return -1;
        }
        *num = b;
    } else if (strcmp(type, "combo") == 0) {
        for (int i = 0; i < nvals; i++)
            if (strcasecmp(value, vals[i]) == 0)
                return 0;
        snprintf(err, n, "%s has no value '%s'", name, echo(value, tmp, sizeof tmp));
        return -1;
    } else if (strcmp(type, "button") != 0 && strcmp(type, "string") != 0) {
        snprintf(err, n, "%s has an unknown type", name);
        return -1;
    }
    return 0;
}

static void list_option(Engine *e, const char *name, const char *type, const char *def,
                        int64_t min, int64_t max, const char *const *vals, int nvals)
{
    char line[512];
    int len = snprintf(line, sizeof line, "option name %s type %s", name, type);
    if (strcmp(type, "button") != 0)
        len += snprintf(line + len, sizeof line - (size_t)len, " default %s",
                        def && *def ? def : "<empty>");
    if (strcmp(type, "spin") == 0)
        len += snprintf(line + len, sizeof line - (size_t)len, " min %" PRId64 " max %" PRId64,
                        min, max);
    for (int i = 0; i < nvals && len < (int)sizeof line; i++)
        len += snprintf(line + len, sizeof line - (size_t)len, " var %s", vals[i]);
    say(e, "%s", line);
}

/* Game options first, then the searchers'. */
int apply_option(GameSetting *gs, Search *s, const EngineCaps *caps, const char *name,
                 const char *value, char *err, size_t errlen)
{
    char tmp[64];
    int64_t num;
    for (int i = 0; i < PROTO_OPTION_COUNT; i++) {
        const ProtoOption *po = &proto_options[i];
        if (strcasecmp(name, po->name) != 0)
            continue;
        const char *vals[16];
        int nvals = strcmp(po->type, "combo") == 0 ? combo_values(po, vals, 16) : 0;
        if (!value) {
            snprintf(err, errlen, "%s needs a value", po->name);
            return -1;
        }
        if (check_value(po->name, po->type, po->min, po->max, vals, nvals, value, &num, err,
                        errlen) != 0)
            return -1;
        return po->set(gs, value, num, err, errlen) == 0 ? 1 : -1;
    }
    for (int i = 0; i < search_option_count; i++) {
        const SearchOption *so = &search_options[i];
        if (strcasecmp(name, so->name) != 0)
            continue;
        int nvals = 0;
        while (nvals < 8 && so->vars[nvals])
            nvals++;
        int button = strcmp(so->type, "button") == 0;
        if (!value && !button) {
            snprintf(err, errlen, "%s needs a value", so->name);
            return -1;
        }
        int64_t max = so->max;
        if (caps && caps->max_hash_mb > 0 && strcasecmp(so->name, "Hash") == 0)
            max = caps->max_hash_mb < max ? caps->max_hash_mb : max;
        if (caps && caps->max_threads > 0 && strcasecmp(so->name, "Threads") == 0)
            max = caps->max_threads < max ? caps->max_threads : max;
        if (check_value(so->name, so->type, so->min, max, so->vars, nvals,
                        value ? value : "", &num, err, errlen) != 0)
            return -1;
        if (s && search_setoption(s, so->name, value ? value : "", err, errlen) != 0)
            return -1;
        return 2;
    }
    snprintf(err, errlen, "unknown option '%s'", echo(name, tmp, sizeof tmp));
    return -1;
}

void list_options(Engine *e)
{
    for (int i = 0; i < PROTO_OPTION_COUNT; i++) {
        const ProtoOption *po = &proto_options[i];
        const char *vals[16];
        int nvals = strcmp(po->type, "combo") == 0 ? combo_values(po, vals, 16) : 0;
        list_option(e, po->name, po->type, po->def, po->min, po->max, vals, nvals);
    }
    for (int i = 0; i < search_option_count; i++) {
        const SearchOption *so = &search_options[i];
        int nvals = 0;
        while (nvals < 8 && so->vars[nvals])
            nvals++;
        list_option(e, so->name, so->type, so->def, so->min, so->max, so->vars, nvals);
    }
}

void describe_options(const GameOptions *o, char *buf, size_t len)
{
    static const char *const setups[] = {"adjacent", "facing", "random", "free", "pairs"};
    snprintf(buf, len,
             "Ruleset=%s Setup=%s SetupSeed=%" PRIu64 " BoardSize=%d Pieces=%d "
             "Diagonals=%s Flying=%s MoveRule=%d",
             o->ruleset == RULESET_CLASSIC ? "classic" : "standard",
             o->setup >= 0 && o->setup < 5 ? setups[o->setup] : "?", o->setup_seed,
             o->board_size, o->pieces, o->diagonals ? "true" : "false",
             o->flying ? "true" : "false", o->move_rule);
}
