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
#include <stdlib.h>
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

/* A word that starts a parameter of go: ends searchmoves' list. */
static int go_word(const char *w)
{
    return go_key(w) >= 0 || strcasecmp(w, "infinite") == 0 || strcasecmp(w, "searchmoves") == 0 ||
           strcasecmp(w, "mate") == 0 || strcasecmp(w, "ponder") == 0;
}

/* The words of searchmoves, tok[i + 1 ..] up to the next parameter: the
 * index past them. */
static int searchmoves_end(char **tok, int n, int i)
{
    int j = i + 1;
    while (j < n && !go_word(tok[j]))
        j++;
    return j;
}

/* go mate N at tok[i]: N moves (the side to move's), 1..SEARCH_MATE_MAX,
 * into lim; a problem is said in why and counted in *bad.  Returns the
 * index of the last word used. */
static int go_mate(char **tok, int n, int i, SearchLimits *lim, char *why, size_t len, int *bad)
{
    int64_t v;
    char tmp[64];
    if (i + 1 >= n || parse_i64(tok[i + 1], &v) != 0) {
        note(why, len, "mate needs an integer, ignored");
        ++*bad;
        return i + 1 < n && !go_word(tok[i + 1]) ? i + 1 : i;
    }
    if (v < 1 || v > SEARCH_MATE_MAX) {
        note(why, len, "mate must be in 1..%d, not %s, ignored", SEARCH_MATE_MAX,
             echo(tok[i + 1], tmp, sizeof tmp));
        ++*bad;
    } else {
        lim->mate = (int)v;
    }
    return i + 1;
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
        if (strcasecmp(k, "searchmoves") == 0) { /* the moves: go_searchmoves() */
            i = searchmoves_end(tok, n, i) - 1;
            continue;
        }
        if (strcasecmp(k, "mate") == 0) {
            i = go_mate(tok, n, i, lim, why, len, &problems);
            continue;
        }
        int which = go_key(k);
        if (which < 0) {
            /* The unknown word and what follows it up to a known word. */
            char words[128];
            size_t used = 0;
            int j = i;
            for (; j < n && (j == i || !go_word(tok[j])); j++) {
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
            if (i + 1 < n && !go_word(tok[i + 1]))
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
    if (zero || (problems && !lim->infinite && !lim->mate && !timeman_bounded(lim))) {
        lim->depth = 1;
        if (!zero)
            note(why, len, "searching depth 1");
    }
    return problems;
}

int go_searchmoves(Session *e, char **tok, int n, SearchLimits *lim, char *why, size_t len)
{
    char tmp[64], bad[160] = "";
    int problems = 0, k = 0, named = 0, nbad = 0;
    for (int i = 1; i < n; i++) {
        if (strcasecmp(tok[i], "searchmoves") != 0)
            continue;
        int end = searchmoves_end(tok, n, i);
        for (int j = i + 1; j < end; j++)
            named++;
        if (named > k && !e->root_moves) {
            e->root_moves = malloc((size_t)e->game->max_moves * sizeof *e->root_moves);
            if (!e->root_moves) {
                note(why, len, "searchmoves: out of memory, ignored");
                return 1;
            }
        }
        for (int j = i + 1; j < end; j++) {
            Move m = game_parse_move(e->game, e->pos, tok[j]);
            int dup = 0;
            for (int q = 0; q < k && !dup; q++)
                dup = e->root_moves[q] == m;
            if (m == MOVE_NONE) {
                size_t at = strlen(bad);
                if (nbad++ < 4)
                    snprintf(bad + at, sizeof bad - at, "%s'%s'", at ? ", " : "",
                             echo(tok[j], tmp, sizeof tmp));
            } else if (!dup && k < e->game->max_moves) {
                e->root_moves[k++] = m;
            }
        }
        i = end - 1;
    }
    if (nbad > 0) {
        problems++;
        note(why, len, "searchmoves: %s%s %s not legal here, ignored%s", bad,
             nbad > 4 ? ", ..." : "", nbad > 1 ? "are" : "is", k ? "" : "; searching every move");
    } else if (named == 0 && n > 1 && k == 0) {
        for (int i = 1; i < n; i++)
            if (strcasecmp(tok[i], "searchmoves") == 0) {
                problems++;
                note(why, len, "searchmoves names no move; searching every move");
                break;
            }
    }
    lim->searchmoves = k ? e->root_moves : NULL;
    lim->nsearchmoves = k;
    /* More lines asked for than moves to search: as many as there are. */
    int nlegal, lines = search_multipv(e->search);
    free(legal_moves(e->game, e->pos, &nlegal));
    int moves = k ? k : nlegal;
    if (lines > moves && moves > 0)
        say(e, "info string MultiPV %d: %d move%s to search, %d line%s", lines, moves,
            moves > 1 ? "s" : "", moves, moves > 1 ? "s" : "");
    return problems;
}

void go_debug_start(Session *e, const SearchLimits *lim)
{
    if (!e->debug)
        return;
    int64_t soft, hard;
    int stm = e->game->side_to_move(e->pos);
    timeman_budget(lim, stm, search_move_overhead(e->search), &soft, &hard);
    say(e,
        "info string debug: go: time soft %" PRId64 " ms hard %" PRId64 " ms (-1: none), depth %d,"
        " nodes %" PRIu64 ", mate %d, MultiPV %d, searchmoves %d%s",
        soft, hard, lim->depth, lim->nodes, lim->mate, search_multipv(e->search), lim->nsearchmoves,
        lim->infinite ? ", infinite" : "");
}

void go_job_end(Session *e, const SearchResult *res)
{
    int n = e->job_limits.mate;
    if (n > 0 && res->mate > 0)
        say(e, "info string mate %d: found, a forced win in %d", n, res->mate);
    else if (n > 0 && res->mate < 0)
        say(e, "info string mate %d: none, proven", n);
    else if (n > 0)
        say(e, "info string mate %d: none found (stopped at depth %d of %d)", n, res->depth,
            2 * n - 1);
    if (!e->debug)
        return;
    say(e,
        "info string debug: search ended: depth %d, nodes %" PRIu64 ", %" PRId64 " ms, score %d%s",
        res->depth, res->nodes, res->time_ms, res->score, res->proven ? " (proven)" : "");
}
