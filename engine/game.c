#include "game.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* g's place in game_list (a copy of a descriptor, as tests make, is found
 * by its name). */
static int game_slot(const Game *g)
{
    for (int i = 0; i < game_count; i++)
        if (game_list[i] == g)
            return i;
    for (int i = 0; i < game_count; i++)
        if (strcmp(game_list[i]->name, g->name) == 0)
            return i;
    return 0;
}

_Static_assert(sizeof(((GameOptions *)0)->blob[0]) == GAME_OPTS_MAX_BYTES, "one blob a game");

const void *game_opts(const Game *g, const GameOptions *opt)
{
    return opt ? opt->blob[game_slot(g)] : NULL;
}

void *game_opts_mut(const Game *g, GameOptions *opt)
{
    return opt->blob[game_slot(g)];
}

const void *game_opts_or_default(const Game *g, const GameOptions *opt, GameOptions *def)
{
    if (!opt) {
        game_options_default(def);
        opt = def;
    }
    return game_opts(g, opt);
}

int game_move_rule(const Game *g, const void *pos)
{
    return g->move_rule ? g->move_rule(pos) : 0;
}

int game_random_setup(const Game *g, GameOptions *o, uint64_t seed)
{
    return g->setup && g->setup->random_setup ? g->setup->random_setup(o, seed) : 0;
}

int game_has_setups(const Game *g)
{
    return g->setup && g->setup->random_setup;
}

int game_opening_plies(const Game *g)
{
    return g->setup ? g->setup->opening_plies : 0;
}

int game_move_text_normalise(const char *s, char *out, size_t len)
{
    size_t j = 0;
    for (; *s; s++) {
        if (*s == '-')
            continue;
        if (j + 1 >= len) {
            out[j] = '\0';
            return -1;
        }
        out[j++] = (char)tolower((unsigned char)*s);
    }
    out[j] = '\0';
    return (int)j;
}

Move game_parse_move(const Game *g, const void *pos, const char *s)
{
    if (!s || strlen(s) >= MOVE_STR_MAX)
        return MOVE_NONE;
    if (g->move_from_str)
        return g->move_from_str(pos, s);
    char want[MOVE_STR_MAX], have[MOVE_STR_MAX], text[MOVE_STR_MAX];
    if (game_move_text_normalise(s, want, sizeof want) <= 0)
        return MOVE_NONE;
    Move *moves = malloc((size_t)g->max_moves * sizeof *moves);
    if (!moves)
        return MOVE_NONE;
    Move found = MOVE_NONE;
    int n = g->gen_moves(pos, moves);
    for (int i = 0; i < n && found == MOVE_NONE; i++) {
        g->move_to_str(pos, moves[i], text, sizeof text);
        game_move_text_normalise(text, have, sizeof have);
        if (strcmp(want, have) == 0)
            found = moves[i];
    }
    free(moves);
    return found;
}

void game_move_str(const Game *g, const void *pos, Move m, char *buf, size_t len)
{
    if (m == MOVE_NONE || !pos) {
        snprintf(buf, len, "0000");
        return;
    }
    g->move_to_str(pos, m, buf, len);
}
