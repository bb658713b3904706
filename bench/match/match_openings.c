/*
 * match_openings.c -- openings for the match runner: an openings file
 * read and checked line by line against the game (the cutegames format),
 * and --make-openings' random openings (a random setup where the game has
 * one, then a few random plies), all distinct.
 */
#include "match.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void match_free_openings(char **lines, int n)
{
    for (int i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
}

/* The line without leading/trailing blanks, in place. */
static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

int match_read_openings(const char *path, const Game *g, const GameOptions *opt, char ***lines,
                        char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    char **list = NULL;
    int n = 0, cap = 0, lineno = 0, rc = 0;
    char buf[FEN_MAX + 64];
    unsigned char pos[POS_MAX_BYTES];
    while (fgets(buf, sizeof buf, f)) {
        lineno++;
        if (!strchr(buf, '\n') && !feof(f)) {
            snprintf(err, errlen, "%s:%d: line too long", path, lineno);
            rc = -1;
            break;
        }
        char *s = trim(buf);
        if (!s[0] || s[0] == '#')
            continue;
        char why[256];
        int bad = strcmp(s, "startpos") == 0 ? g->init(pos, opt, why, sizeof why)
                                             : g->from_fen(pos, s, opt, why, sizeof why);
        if (bad) {
            snprintf(err, errlen, "%s:%d: not a %s position: %s", path, lineno, g->name, why);
            rc = -1;
            break;
        }
        if (n == cap) {
            int ncap = cap ? cap * 2 : 64;
            char **p = realloc(list, (size_t)ncap * sizeof *p);
            if (!p) {
                snprintf(err, errlen, "out of memory");
                rc = -1;
                break;
            }
            list = p;
            cap = ncap;
        }
        if (!(list[n] = strdup(s))) {
            snprintf(err, errlen, "out of memory");
            rc = -1;
            break;
        }
        n++;
    }
    fclose(f);
    if (rc) {
        match_free_openings(list, n);
        return -1;
    }
    *lines = list;
    return n;
}

int match_make_openings(const MatchConfig *c, FILE *out, char *err, size_t errlen)
{
    const Game *g = c->game;
    /* A game with random setups under these options (Morelli but for its
     * placement starts) gets a random setup for each opening and no plies;
     * every other start gets the game's random plies. */
    GameOptions probe = c->game_opt;
    int setups = game_random_setup(g, &probe, 0);
    int plies = c->opening_plies >= 0 ? c->opening_plies : setups ? 0 : game_opening_plies(g);
    unsigned char pos[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    Move moves[g->max_moves > 0 ? g->max_moves : 1];
    uint64_t rng = c->seed;
    int made = 0, tries = 0;
    char(*seen)[FEN_MAX] = calloc((size_t)c->make_openings, FEN_MAX);
    if (!seen) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    fprintf(out, "# %d %s openings, seed %" PRIu64 ", %d random plies\n", c->make_openings, g->name,
            c->seed, plies);
    while (made < c->make_openings) {
        if (++tries > 100 * c->make_openings + 1000) {
            snprintf(err, errlen, "only %d distinct openings found", made);
            free(seen);
            return -1;
        }
        GameOptions o = c->game_opt;
        if (setups)
            game_random_setup(g, &o, rng_next(&rng));
        char why[256];
        if (g->init(pos, &o, why, sizeof why) != 0) {
            snprintf(err, errlen, "%s: %s", g->name, why);
            free(seen);
            return -1;
        }
        int ok = 1;
        for (int p = 0; p < plies && ok; p++) {
            int n = g->result(pos) == RESULT_NONE ? g->gen_moves(pos, moves) : 0;
            if (n == 0)
                ok = 0;
            else
                g->make(pos, moves[rng_below(&rng, (uint32_t)n)], undo);
        }
        if (!ok || g->result(pos) != RESULT_NONE)
            continue;
        char fen[FEN_MAX];
        g->to_fen(pos, fen, sizeof fen);
        int dup = 0;
        for (int i = 0; i < made && !dup; i++)
            dup = strcmp(seen[i], fen) == 0;
        if (dup)
            continue;
        snprintf(seen[made++], FEN_MAX, "%s", fen);
        fprintf(out, "%s\n", fen);
    }
    free(seen);
    return 0;
}
