/*
 * match_config.c -- the match runner's configuration: its defaults, the
 * engines' names and time controls, and the small text helpers every file
 * of the runner uses.
 */
#include "match_internal.h"

#include <string.h>

void match_config_default(MatchConfig *c)
{
    memset(c, 0, sizeof *c);
    c->game = game_list[0];
    game_options_default(&c->game_opt);
    c->tc.type = TC_CLOCK;
    c->tc.time_ms = 10000;
    c->tc.inc_ms = 100;
    c->games = 2;
    c->concurrency = 1;
    c->seed = 1;
    c->elo0 = 0;
    c->elo1 = 5;
    c->alpha = 0.05;
    c->beta = 0.05;
    c->sprt_model = SPRT_PENTANOMIAL;
    c->margin_ms = 100;
    c->timeout_ms = 30000;
    c->start_timeout_ms = 10000;
    c->max_plies = 1000;
    c->opening_plies = -1;
    c->demo_delay_ms = -1;
}

void match_str_copy(char *dst, size_t len, const char *src)
{
    size_t n = strlen(src);
    if (n >= len)
        n = len - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

int starts_with(const char *s, const char *word)
{
    size_t n = strlen(word);
    return strncmp(s, word, n) == 0 && (s[n] == '\0' || s[n] == ' ' || s[n] == '\t');
}

const char *after_word(const char *line, const char *key)
{
    size_t n = strlen(key);
    for (const char *p = line; (p = strstr(p, key)) != NULL; p += n) {
        int start = p == line || p[-1] == ' ' || p[-1] == '\t';
        if (start && (p[n] == ' ' || p[n] == '\t')) {
            p += n;
            while (*p == ' ' || *p == '\t')
                p++;
            return p;
        }
    }
    return NULL;
}

const char *side_name(const Game *g, int side)
{
    const char *name = g->side_names[side == SIDE_P1 ? 0 : 1];
    return name ? name : side == SIDE_P1 ? "p1" : "p2";
}

int white_side(const Game *g)
{
    return strcmp(side_name(g, SIDE_P2), "White") == 0 ? SIDE_P2 : SIDE_P1;
}

const char *result_text(const Game *g, int result)
{
    if (result == RESULT_DRAW)
        return "1/2-1/2";
    if (result != RESULT_P1_WIN && result != RESULT_P2_WIN)
        return "*";
    int winner = result == RESULT_P1_WIN ? SIDE_P1 : SIDE_P2;
    return winner == white_side(g) ? "1-0" : "0-1";
}


void match_unique_names(MatchConfig *c)
{
    if (strcmp(c->engines[0].name, c->engines[1].name) == 0)
        for (int e = 0; e < 2; e++) {
            size_t l = strlen(c->engines[e].name);
            if (l > MATCH_NAME_MAX - 4)
                l = MATCH_NAME_MAX - 4;
            c->engines[e].name[l] = '#';
            c->engines[e].name[l + 1] = (char)('1' + e);
            c->engines[e].name[l + 2] = '\0';
        }
}

const TimeControl *match_engine_tc(const MatchConfig *c, int e)
{
    return c->engines[e].has_tc ? &c->engines[e].tc : &c->tc;
}
