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

#include "morris/morris_tb.h"
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

/* The buttons: options without a value that do something once. */
static const char clear_hash[] = "Clear Hash";

/* Clear Hash: the table, the MCTS tree and what the searchers learnt
 * forgotten (s NULL: only checked).  2, or -1 with err filled. */
static int press_button(Search *s, const char *value, char *err, size_t errlen)
{
    char tmp[64];
    if (value) {
        snprintf(err, errlen, "%s is a button and takes no value, not '%s'", clear_hash,
                 echo(value, tmp, sizeof tmp));
        return -1;
    }
    if (s)
        search_clear(s);
    return 2;
}

/* TablePath: where the games' table files are (Morris's; docs/tables.md),
 * kept by the tables' module. */
static const char *const table_path_default[] = {"auto", NULL};
static const Option table_path = {"TablePath", OPTION_STRING, 0, 0, 0, table_path_default, NULL, 0};
/* The protocol's own options, the session's (ponder.c, ugi_info.c). */
const Option session_options[] = {
    {"Ponder", OPTION_CHECK, 0, 0, 1, NULL, NULL, 0},
    {"UCI_ShowWDL", OPTION_CHECK, 0, 0, 1, NULL, NULL, 0},
};
const int session_option_count = (int)(sizeof session_options / sizeof session_options[0]);

/* Game options first, then the searchers'. */
int apply_option(GameSetting *gs, Search *s, const SessionCaps *caps, const char *name,
                 const char *value, char *err, size_t errlen)
{
    char tmp[64];
    int64_t num;
    if (strcasecmp(name, clear_hash) == 0)
        return press_button(s, value, err, errlen);
    const Option *variant = variant_option();
    if (strcasecmp(name, variant->name) == 0) {
        if (option_parse(variant, value, 0, &num, err, errlen) != 0)
            return -1;
        gs->game = game_list[num];
        return 1;
    }
    if (strcasecmp(name, table_path.name) == 0) {
        if (option_parse(&table_path, value, 0, &num, err, errlen) != 0)
            return -1;
        if (s)
            tb_set_path(value ? value : "");
        return 2;
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
    const Option *po = option_find(session_options, session_option_count, name);
    if (po) {
        if (option_parse(po, value, 0, &num, err, errlen) != 0)
            return -1;
        return 3;
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
    option_ugi_line(&table_path, 0, line, sizeof line);
    out(ctx, line);
    snprintf(line, sizeof line, "option name %s type button", clear_hash);
    out(ctx, line);
    for (int i = 0; i < session_option_count; i++) {
        option_ugi_line(&session_options[i], 0, line, sizeof line);
        out(ctx, line);
    }
}

/* debug on|off: the engine's extra `info string debug: ...` lines (what the
 * time manager decided, how the search ended). */
int cmd_debug(Session *e, char **tok, int n)
{
    char tmp[64];
    if (n != 2 || (strcasecmp(tok[1], "on") != 0 && strcasecmp(tok[1], "off") != 0)) {
        session_error(e, "usage: debug on|off%s%s", n > 1 ? ", not " : "",
                      n > 1 ? echo(tok[1], tmp, sizeof tmp) : "");
        return UGI_ERROR;
    }
    e->debug = strcasecmp(tok[1], "on") == 0;
    return UGI_OK;
}

static void say_line(void *ctx, const char *line)
{
    say(ctx, "%s", line);
}

void list_options(Session *e)
{
    option_lines(say_line, e);
}
