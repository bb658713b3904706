/*
 * go.c -- the words of `go` read into SearchLimits.
 *
 * Every `go` is answered by exactly one bestmove, so a word that cannot be
 * used never refuses the search: an unknown word (and the words after it
 * up to the next parameter), a parameter without an integer and a value
 * out of range are left out, said in one error line, and the search runs
 * with the words understood.  A limit of zero (movetime 0, nodes 0,
 * depth 0) asks for a move at once: a depth-1 search.  So does a go with
 * words left out and nothing that ends it by itself (`go depth x`, `go
 * frobnicate`): it was surely not meant to wait for stop.
 */
#include "ugi_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "search/timeman.h"

/* The parameters followed by an integer, in the order of go_set(). */
static const char *const go_keys[] = {"p1time",    "p2time",   "p1inc", "p2inc",
                                      "wtime",     "btime",    "winc",  "binc",
                                      "movestogo", "movetime", "depth", "nodes"};
#define GO_KEY_COUNT ((int)(sizeof go_keys / sizeof go_keys[0]))
enum { GO_MOVESTOGO = 8, GO_MOVETIME = 9, GO_DEPTH = 10, GO_NODES = 11 };

static int go_key(const char *w)
{
    for (int j = 0; j < GO_KEY_COUNT; j++)
        if (strcasecmp(w, go_keys[j]) == 0)
            return j;
    return -1;
}

/* Appends one problem to why ("; " between two). */
static void note(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void note(char *why, size_t len, const char *fmt, ...)
{
    size_t used = strlen(why);
    if (used + 3 >= len)
        return;
    if (used) {
        memcpy(why + used, "; ", 3);
        used += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why + used, len - used, fmt, ap);
    va_end(ap);
}

static void go_set(SearchLimits *lim, int which, int64_t v)
{
    switch (which) {
    case 0:
    case 4: lim->time[SIDE_P1] = v; break;
    case 1:
    case 5: lim->time[SIDE_P2] = v; break;
    case 2:
    case 6: lim->inc[SIDE_P1] = v; break;
    case 3:
    case 7: lim->inc[SIDE_P2] = v; break;
    case GO_MOVESTOGO: lim->movestogo = (int)v; break;
    case GO_MOVETIME: lim->movetime = v; break;
    case GO_DEPTH: lim->depth = (int)v; break;
    default: lim->nodes = (uint64_t)v; break;
    }
}

int go_parse(char **tok, int n, SearchLimits *lim, char *why, size_t len)
{
    char tmp[64];
    int problems = 0, zero = 0;
    search_limits_init(lim);
    why[0] = '\0';
    for (int i = 1; i < n; i++) {
        const char *k = tok[i];
        if (strcasecmp(k, "infinite") == 0) {
            lim->infinite = 1;
            continue;
        }
        int which = go_key(k);
        if (which < 0) {
            /* The unknown word and what follows it up to a known word. */
            char words[128];
            size_t used = 0;
            int j = i;
            for (; j < n && (j == i || (go_key(tok[j]) < 0 && strcasecmp(tok[j], "infinite")));
                 j++) {
                const char *w = echo(tok[j], tmp, sizeof tmp);
                int wrote = snprintf(words + used, sizeof words - used, "%s%s", used ? " " : "", w);
                if (wrote < 0 || (size_t)wrote >= sizeof words - used) {
                    snprintf(words + sizeof words - 4, 4, "...");
                    used = sizeof words - 1;
                } else {
                    used += (size_t)wrote;
                }
            }
            note(why, len, "unknown '%s' ignored", words);
            problems++;
            i = j - 1;
            continue;
        }
        int64_t v;
        if (i + 1 >= n || parse_i64(tok[i + 1], &v) != 0) {
            note(why, len, "%s needs an integer, ignored", go_keys[which]);
            problems++;
            /* A value that is no known word goes with its parameter. */
            if (i + 1 < n && go_key(tok[i + 1]) < 0 && strcasecmp(tok[i + 1], "infinite"))
                i++;
            continue;
        }
        i++;
        /* Clocks may run below zero in some GUIs: count that as no time. */
        if (which < GO_MOVESTOGO) {
            if (v < 0)
                v = 0;
        } else if (v < 0 || (which == GO_DEPTH && v > 1000) ||
                   (which == GO_MOVESTOGO && v > 100000)) {
            note(why, len, "%s out of range: %" PRId64 ", ignored", go_keys[which], v);
            problems++;
            continue;
        }
        if (v == 0 && which >= GO_MOVETIME)
            zero = 1;
        go_set(lim, which, v);
    }
    /* A zero limit: a move at once.  Words left out, and nothing else
     * ends the search: the same, not a search without end. */
    if (zero || (problems && !lim->infinite && !timeman_bounded(lim))) {
        lim->depth = 1;
        if (!zero)
            note(why, len, "searching depth 1");
    }
    return problems;
}
