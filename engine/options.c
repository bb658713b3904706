/*
 * options.c -- parsing, printing and comparing options (see options.h).
 */
#include "options.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *option_echo(const char *s, char *buf, size_t len)
{
    size_t j = 0, i = 0;
    for (; s[i] && j + 4 < len && i < 40; i++)
        buf[j++] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
    if (s[i] && j + 4 < len) {
        memcpy(buf + j, "...", 3);
        j += 3;
    }
    buf[j] = '\0';
    return buf;
}

/* A whole decimal integer (optional sign, nothing around it); 0 or -1. */
static int parse_i64(const char *s, int64_t *v)
{
    if (!s || !*s || isspace((unsigned char)*s))
        return -1;
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (errno || *end || end == s)
        return -1;
    *v = (int64_t)x;
    return 0;
}

static int only_allows(const Option *o, int64_t v)
{
    for (const int64_t *p = o->only; *p != OPTION_ONLY_END; p++)
        if (*p == v)
            return 1;
    return 0;
}

/* "9, 11 or 13" */
static void only_text(const Option *o, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (const int64_t *p = o->only; *p != OPTION_ONLY_END && used < len; p++) {
        const char *sep = p == o->only ? "" : p[1] == OPTION_ONLY_END ? " or " : ", ";
        used += (size_t)snprintf(buf + used, len - used, "%s%" PRId64, sep, *p);
    }
}

int option_parse(const Option *o, const char *value, int64_t max_cap, int64_t *out, char *err,
                 size_t errlen)
{
    char tmp[64];
    if (!value && o->type == OPTION_STRING)
        value = "";
    if (!value) {
        snprintf(err, errlen, "%s needs a value", o->name);
        return -1;
    }
    int64_t v = 0;
    switch (o->type) {
    case OPTION_SPIN: {
        int64_t max = max_cap > 0 && max_cap < o->max ? max_cap : o->max;
        if (parse_i64(value, &v) != 0) {
            snprintf(err, errlen, "%s needs an integer, not '%s'", o->name,
                     option_echo(value, tmp, sizeof tmp));
            return -1;
        }
        if (v < o->min || v > max) {
            snprintf(err, errlen, "%s must be in %" PRId64 "..%" PRId64 ", not %" PRId64, o->name,
                     o->min, max, v);
            return -1;
        }
        if (o->only && !only_allows(o, v)) {
            char list[128];
            only_text(o, list, sizeof list);
            snprintf(err, errlen, "%s must be %s", o->name, list);
            return -1;
        }
        break;
    }
    case OPTION_CHECK:
        if (strcasecmp(value, "true") == 0)
            v = 1;
        else if (strcasecmp(value, "false") == 0)
            v = 0;
        else {
            snprintf(err, errlen, "%s needs true or false, not '%s'", o->name,
                     option_echo(value, tmp, sizeof tmp));
            return -1;
        }
        break;
    case OPTION_STRING:
        for (const char *c = value; *c; c++)
            if ((unsigned char)*c < 0x20 || c - value >= 1000) {
                snprintf(err, errlen, "%s: '%s' is too long or has control characters", o->name,
                         option_echo(value, tmp, sizeof tmp));
                return -1;
            }
        break;
    case OPTION_COMBO:
        for (v = 0; o->choices[v] && strcasecmp(value, o->choices[v]) != 0; v++)
            ;
        if (!o->choices[v]) {
            snprintf(err, errlen, "%s has no value '%s'", o->name,
                     option_echo(value, tmp, sizeof tmp));
            return -1;
        }
        break;
    }
    *out = v;
    return 0;
}

void option_value_str(const Option *o, int64_t v, char *buf, size_t len)
{
    int64_t n = 0;
    if (o->type == OPTION_STRING)
        snprintf(buf, len, "%s", o->choices && o->choices[0] ? o->choices[0] : "");
    else if (o->type == OPTION_CHECK)
        snprintf(buf, len, "%s", v ? "true" : "false");
    else if (o->type == OPTION_SPIN)
        snprintf(buf, len, "%" PRId64, v);
    else {
        while (o->choices[n])
            n++;
        snprintf(buf, len, "%s", v >= 0 && v < n ? o->choices[v] : "?");
    }
}

void option_ugi_line(const Option *o, int64_t max_cap, char *buf, size_t len)
{
    static const char *const types[] = {"spin", "check", "combo", "string"};
    char def[64];
    option_value_str(o, o->def, def, sizeof def);
    int used = snprintf(buf, len, "option name %s type %s default %s", o->name, types[o->type],
                        def);
    if (o->type == OPTION_SPIN)
        used += snprintf(buf + used, len - (size_t)used, " min %" PRId64 " max %" PRId64, o->min,
                         max_cap > 0 && max_cap < o->max ? max_cap : o->max);
    for (int i = 0; o->type == OPTION_COMBO && o->choices[i] && used < (int)len; i++)
        used += snprintf(buf + used, len - (size_t)used, " var %s", o->choices[i]);
}

const Option *option_find(const Option *list, int n, const char *name)
{
    for (int i = 0; name && i < n; i++)
        if (strcasecmp(list[i].name, name) == 0)
            return &list[i];
    return NULL;
}

/* --- game options ------------------------------------------------------- */

static int64_t *field(const Game *g, const Option *o, GameOptions *opts)
{
    return (int64_t *)(void *)((char *)game_opts_mut(g, opts) + o->offset);
}

int64_t game_option_get(const Game *g, const Option *o, const GameOptions *opts)
{
    return *(const int64_t *)(const void *)((const char *)game_opts(g, opts) + o->offset);
}

/* The i-th option of all games, each name once; NULL past the end. */
const Option *game_option_at(int i)
{
    for (int gi = 0; gi < game_count; gi++) {
        const Game *g = game_list[gi];
        for (int k = 0; k < g->option_count; k++) {
            const Option *o = &g->options[k];
            int seen = 0;
            for (int gj = 0; gj < gi && !seen; gj++)
                seen = option_find(game_list[gj]->options, game_list[gj]->option_count, o->name) !=
                       NULL;
            if (!seen && i-- == 0)
                return o;
        }
    }
    return NULL;
}

const Option *game_option_find(const char *name)
{
    for (int gi = 0; gi < game_count; gi++) {
        const Option *o = option_find(game_list[gi]->options, game_list[gi]->option_count, name);
        if (o)
            return o;
    }
    return NULL;
}

void game_options_default(GameOptions *o)
{
    memset(o, 0, sizeof *o);
    for (int gi = 0; gi < game_count; gi++)
        for (int k = 0; k < game_list[gi]->option_count; k++)
            *field(game_list[gi], &game_list[gi]->options[k], o) = game_list[gi]->options[k].def;
}

void game_option_put(GameOptions *opts, const char *name, int64_t v)
{
    for (int gi = 0; gi < game_count; gi++) {
        const Option *o = option_find(game_list[gi]->options, game_list[gi]->option_count, name);
        if (o)
            *field(game_list[gi], o, opts) = v;
    }
}

int game_option_set(GameOptions *opts, const char *name, const char *value, char *err,
                    size_t errlen)
{
    const Option *first = game_option_find(name);
    int64_t v;
    if (!first)
        return 0;
    if (option_parse(first, value, 0, &v, err, errlen) != 0)
        return -1;
    game_option_put(opts, name, v);
    return 1;
}

void game_options_describe(const Game *g, const GameOptions *opts, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < g->option_count && used < len; k++) {
        const Option *o = &g->options[k];
        char v[64];
        option_value_str(o, game_option_get(g, o, opts), v, sizeof v);
        used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", k ? " " : "", o->name, v);
    }
}

int game_options_equal(const Game *g, const GameOptions *a, const GameOptions *b)
{
    if (!g)
        return memcmp(a, b, sizeof *a) == 0;
    for (int k = 0; k < g->option_count; k++)
        if (game_option_get(g, &g->options[k], a) != game_option_get(g, &g->options[k], b))
            return 0;
    return 1;
}
