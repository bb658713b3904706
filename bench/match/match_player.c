/*
 * match_player.c -- one engine process of the match: started with the
 * ugi/ugiok handshake, sent the match's options, made ready; lines read up
 * to a word with a deadline.
 */
#include "match_internal.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

void player_init(Player *p)
{
    engine_proc_init(&p->proc);
    p->ready = 0;
    p->has_variant = 0;
}

void player_drop(Player *p)
{
    engine_proc_kill(&p->proc);
    p->ready = 0;
}

int wait_for(Player *p, const char *word, int64_t deadline, char *note, size_t notelen)
{
    char line[ENGINE_LINE_MAX];
    for (;;) {
        int r = engine_proc_readline(&p->proc, line, sizeof line, deadline);
        if (r <= 0)
            return r;
        if (starts_with(line, word))
            return 1;
        if (note && !note[0] && strncmp(line, "info string error", 17) == 0)
            match_str_copy(note, notelen, line + 12);
    }
}

static int send_option(Player *p, const char *name, const char *value)
{
    char line[MATCH_NAME_MAX + MATCH_VALUE_MAX + 40];
    snprintf(line, sizeof line, "setoption name %s value %s", name, value);
    return engine_proc_send(&p->proc, line);
}

int player_start(const MatchConfig *c, Player *p, int e, char *err, size_t errlen)
{
    const EngineSpec *spec = &c->engines[e];
    player_drop(p);
    if (engine_proc_start(&p->proc, spec->cmd, err, errlen) != 0)
        return -1;
    int64_t deadline = engine_now_ms() + c->start_timeout_ms;
    if (engine_proc_send(&p->proc, "ugi") != 0) {
        snprintf(err, errlen, "%s: cannot write to `%s`", spec->name, spec->cmd);
        player_drop(p);
        return -1;
    }
    char line[ENGINE_LINE_MAX];
    p->has_variant = 0;
    for (;;) {
        int r = engine_proc_readline(&p->proc, line, sizeof line, deadline);
        if (r <= 0) {
            snprintf(err, errlen, "%s: %s before ugiok (command `%s`)", spec->name,
                     r == 0 ? "no answer" : "exited", spec->cmd);
            player_drop(p);
            return -1;
        }
        if (starts_with(line, "ugiok") || starts_with(line, "uciok"))
            break;
        if (starts_with(line, "id")) {
            const char *n = after_word(line, "name");
            if (n && *n)
                match_str_copy(p->id_name, sizeof p->id_name, n);
        }
        if (starts_with(line, "option")) {
            const char *n = after_word(line, "name");
            if (n && strncasecmp(n, "UCI_Variant", 11) == 0 && (n[11] == ' ' || !n[11]))
                p->has_variant = 1;
        }
    }
    int bad = 0;
    if (p->has_variant)
        bad |= send_option(p, "UCI_Variant", c->game->name);
    for (int i = 0; i < c->neach; i++)
        bad |= send_option(p, c->each[i].name, c->each[i].value);
    for (int i = 0; i < spec->noptions; i++)
        bad |= send_option(p, spec->options[i].name, spec->options[i].value);
    bad |= engine_proc_send(&p->proc, "isready");
    char note[256] = "";
    int r = bad ? -1
                : wait_for(p, "readyok", engine_now_ms() + c->start_timeout_ms, note, sizeof note);
    if (r <= 0) {
        snprintf(err, errlen, "%s: %s after its options", spec->name,
                 r == 0 ? "no readyok" : "exited");
        player_drop(p);
        return -1;
    }
    if (note[0]) {
        snprintf(err, errlen, "%s rejected an option: %s", spec->name, note);
        player_drop(p);
        return -1;
    }
    p->ready = 1;
    return 0;
}
