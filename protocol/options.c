/*
 * options.c -- the options the protocol lists and sets: UCI_Variant (the
 * game), the games' own options and the searchers' options, all declared
 * elsewhere (the games' descriptors, engine/search) and checked by
 * engine/options.c.  A value is checked before anything changes;
 * apply_option() without a Search is the dry run that setoption and the
 * command-line options do first.
 */
#include "ugi_internal.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "options.h"

/* UCI_Variant: a combo of the games' names, the first game the default. */
static const Option *variant_option(void)
{
    static const char *names[16];
    static Option o = {"UCI_Variant", OPTION_COMBO, 0, 0, 0, names, NULL, 0};
    for (int i = 0; i < game_count && i < 15; i++)
        names[i] = game_list[i]->name;
    return &o;
}

/* Game options first, then the searchers'. */
int apply_option(GameSetting *gs, Search *s, const SessionCaps *caps, const char *name,
                 const char *value, char *err, size_t errlen)
{
    char tmp[64];
    int64_t num;
    const Option *variant = variant_option();
    if (strcasecmp(name, variant->name) == 0) {
        if (option_parse(variant, value, 0, &num, err, errlen) != 0)
            return -1;
        gs->game = game_list[num];
        return 1;
    }
    int r = game_option_set(&gs->opt, name, value, err, errlen);
    if (r != 0)
        return r;
    const Option *so = option_find(search_options, search_option_count, name);
    if (so) {
        int64_t cap = 0;
        if (caps && caps->max_hash_mb > 0 && strcasecmp(so->name, "Hash") == 0)
            cap = caps->max_hash_mb;
        if (caps && caps->max_threads > 0 && strcasecmp(so->name, "Threads") == 0)
            cap = caps->max_threads;
        if (option_parse(so, value, cap, &num, err, errlen) != 0)
            return -1;
        if (s && search_setoption(s, so->name, value, err, errlen) != 0)
            return -1;
        return 2;
    }
    snprintf(err, errlen, "unknown option '%s'", echo(name, tmp, sizeof tmp));
    return -1;
}

void option_lines(void (*out)(void *ctx, const char *line), void *ctx)
{
    char line[512];
    option_ugi_line(variant_option(), 0, line, sizeof line);
    out(ctx, line);
    for (int i = 0; game_option_at(i); i++) {
        option_ugi_line(game_option_at(i), 0, line, sizeof line);
        out(ctx, line);
    }
    for (int i = 0; i < search_option_count; i++) {
        option_ugi_line(&search_options[i], 0, line, sizeof line);
        out(ctx, line);
    }
}

static void say_line(void *ctx, const char *line)
{
    say(ctx, "%s", line);
}

void list_options(Session *e)
{
    option_lines(say_line, e);
}
