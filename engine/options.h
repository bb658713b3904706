/*
 * options.h -- options, declared once and handled in one place.
 *
 * An Option describes one setting: its name (as setoption and the match
 * runner's --Name=Value spell it, any case), its type, default and range or
 * choices.  Each game declares its own options in its descriptor
 * (Game.options), each with the offset of its value in the game's own
 * options struct (its blob of GameOptions, see game.h);
 * the searchers declare theirs in search_options[].  Values are whole
 * numbers: spin values, 0/1 for check, the index of the choice for combo;
 * a string option (TablePath) is checked here and kept by its owner.
 *
 * This module parses "Name=Value", prints `option name ...` lines and the
 * options as `d` shows them, and compares option sets; the protocol, the
 * match runner, the tools and the tests all use it, so they accept and
 * refuse exactly the same values with the same error text.
 */
#ifndef MORELLI_OPTIONS_H
#define MORELLI_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"

typedef enum { OPTION_SPIN, OPTION_CHECK, OPTION_COMBO, OPTION_STRING } OptionType;

/* The end of an Option's `only` list. */
#define OPTION_ONLY_END INT64_MIN

struct Option {
    const char *name;
    OptionType type;
    int64_t def;                /* the default value */
    int64_t min, max;           /* spin: the range */
    const char *const *choices; /* combo: the values' names, NULL-terminated; string:
                                   {the default text, NULL} (the value is kept by
                                   whoever declares the option) */
    const int64_t *only;        /* spin: NULL, or the only values allowed in the
                                   range, ended by OPTION_ONLY_END */
    size_t offset;              /* game options: offsetof(the game's struct, field) */
};

/*
 * value (the text after '=', NULL when none was given) as a value of o into
 * *out; max_cap > 0 lowers o's max (the fuzzer's small Hash).  0, or -1
 * with the error in err: "<Name> needs a value", "<Name> needs an integer,
 * not '<v>'", "<Name> must be in <min>..<max>, not <n>", "<Name> must be 9,
 * 11 or 13", "<Name> needs true or false, not '<v>'", "<Name> has no value
 * '<v>'".
 */
int option_parse(const Option *o, const char *value, int64_t max_cap, int64_t *out, char *err,
                 size_t errlen);
/* The text of value v of o ("13", "true", "classic"). */
void option_value_str(const Option *o, int64_t v, char *buf, size_t len);
/* "option name <N> type <T> default <D> [min <a> max <b>] [var <v> ...]";
 * max_cap as for option_parse. */
void option_ugi_line(const Option *o, int64_t max_cap, char *buf, size_t len);
/* s as it may be echoed in an error message: printable ASCII, at most 40
 * characters (and "..." when cut), into buf. Returns buf. */
const char *option_echo(const char *s, char *buf, size_t len);
/* The option called name (any case) among list[0..n), or NULL. */
const Option *option_find(const Option *list, int n, const char *name);

/* --- game options ------------------------------------------------------- */

/* The value of g's option o in the settings opts. */
int64_t game_option_get(const Game *g, const Option *o, const GameOptions *opts);

/*
 * The game options of all games together, as `uci` lists them: each name
 * once, in the order of game_list and of each game's declarations (a GUI
 * sets them before it chooses the variant).  Settings of a game other than
 * the one played are kept for that game.
 */
const Option *game_option_at(int i);
/* The game option called name (any case), or NULL. */
const Option *game_option_find(const char *name);

/* name=value into *opts (every game declaring the name gets it).  1 when
 * set, 0 when name is no game option (opts unchanged), -1 with the error in
 * err for a bad value (opts unchanged; see option_parse). */
int game_option_set(GameOptions *opts, const char *name, const char *value, char *err,
                    size_t errlen);
/* The checked value v of option name into *opts, for every game declaring
 * it (the tools' --size); nothing when no game does. */
void game_option_put(GameOptions *opts, const char *name, int64_t v);

/* "Name=Value Name=Value ..." of g's options, as `d` shows them. */
void game_options_describe(const Game *g, const GameOptions *opts, char *buf, size_t len);

/* Non-zero when a and b hold the same values for the options of game g
 * (g NULL: of every game). */
int game_options_equal(const Game *g, const GameOptions *a, const GameOptions *b);

#endif
