/*
 * morelli_options.h -- Morelli's options struct (its blob of GameOptions,
 * declared option by option in the game's descriptor,
 * engine/morelli/morelli.c) and the values of its combo options.  For
 * Morelli's own files, and for tests that set these options directly.
 */
#ifndef MORELLI_MORELLI_OPTIONS_H
#define MORELLI_MORELLI_OPTIONS_H

#include <stdint.h>

#include "game.h"

typedef struct MorelliOptions {
    int64_t ruleset;    /* Ruleset (RULESET_*) */
    int64_t setup;      /* Setup (SETUP_*) */
    int64_t setup_seed; /* SetupSeed, the random setup's seed */
    int64_t board_size; /* BoardSize, 9, 11 or 13 */
} MorelliOptions;
_Static_assert(sizeof(MorelliOptions) <= GAME_OPTS_MAX_BYTES, "fits its GameOptions blob");

/* Morelli's blob of the settings o. */
static inline MorelliOptions *morelli_opts(GameOptions *o)
{
    return game_opts_mut(&game_morelli, o);
}
static inline const MorelliOptions *morelli_opts_c(const GameOptions *o)
{
    return game_opts(&game_morelli, o);
}

enum { RULESET_STANDARD = 0, RULESET_CLASSIC = 1 };
enum {
    SETUP_ADJACENT = 0,
    SETUP_FACING = 1,
    SETUP_RANDOM = 2,
    SETUP_FREE = 3,
    SETUP_PAIRS = 4,
};

#endif
