/* The one list of games. */
#include <strings.h>

#include "game.h"

const Game *const game_list[] = {&game_morelli, &game_morris, &game_fano};
const int game_count = (int)(sizeof game_list / sizeof game_list[0]);
_Static_assert(sizeof game_list / sizeof game_list[0] <= GAME_LIST_MAX,
               "GameOptions holds a blob for each game");

const Game *game_by_name(const char *name)
{
    for (int i = 0; i < game_count; i++)
        if (name && strcasecmp(game_list[i]->name, name) == 0)
            return game_list[i];
    return NULL;
}
