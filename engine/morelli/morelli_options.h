/*
 * morelli_options.h -- the values of Morelli's combo options (declared in
 * the game's descriptor, engine/morelli/morelli.c): what GameOptions'
 * ruleset and setup fields hold.  For Morelli's own files, and for tests
 * and tools that set these options directly.
 */
#ifndef MORELLI_MORELLI_OPTIONS_H
#define MORELLI_MORELLI_OPTIONS_H

enum { RULESET_STANDARD = 0, RULESET_CLASSIC = 1 };
enum {
    SETUP_ADJACENT = 0,
    SETUP_FACING = 1,
    SETUP_RANDOM = 2,
    SETUP_FREE = 3,
    SETUP_PAIRS = 4,
};

#endif
