/* PLACEHOLDER until the real searchers land: best move by one-ply
 * evaluation.  Correct (always a legal move) but weak. */
#include "search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct Search {
    int unused;
};

const SearchOption search_options[] = {
    {"Search", "combo", "alphabeta", 0, 0, {"alphabeta", "mcts", NULL}},
    {"Hash", "spin", "64", 1, 65536, {NULL}},
    {"Threads", "spin", "1", 1, 64, {NULL}},
};
const int search_option_count = (int)(sizeof search_options / sizeof search_options[0]);

void search_limits_init(SearchLimits *l)
{
    l->time[0] = l->time[1] = -1;
    l->inc[0] = l->inc[1] = 0;
    l->movestogo = 0;
    l->movetime = 0;
    l->depth = 0;
    l->nodes = 0;
    l->infinite = 0;
}

Search *search_new(void) { return calloc(1, sizeof(Search)); }
void search_free(Search *s) { free(s); }
void search_clear(Search *s) { (void)s; }

int search_setoption(Search *s, const char *name, const char *value, char *err,
                     size_t errlen)
{
    (void)s;
    (void)value;
    for (int i = 0; i < search_option_count; i++)
        if (strcasecmp(name, search_options[i].name) == 0)
            return 0;
    snprintf(err, errlen, "unknown option %s", name);
    return -1;
}

Move search_go(Search *s, const Game *g, const void *pos, const GameOptions *opt,
               const Key *prev, int nprev, const SearchLimits *limits,
               atomic_int *stop, SearchEmit emit, void *ctx, SearchResult *res)
{
    (void)s; (void)opt; (void)prev; (void)nprev; (void)limits; (void)stop;
    Move *moves = malloc((size_t)g->max_moves * sizeof *moves);
    unsigned char child[POS_MAX_BYTES];
    unsigned char undo[UNDO_MAX_BYTES];
    Move best = MOVE_NONE;
    int best_score = -SCORE_MATE - 1;
    int n = (moves && g->result(pos) == RESULT_NONE) ? g->gen_moves(pos, moves) : 0;
    for (int i = 0; i < n; i++) {
        memcpy(child, pos, g->pos_size);
        g->make(child, moves[i], undo);
        int sc = -g->evaluate(child);
        if (sc > best_score) {
            best_score = sc;
            best = moves[i];
        }
    }
    free(moves);
    if (emit) {
        char line[128];
        snprintf(line, sizeof line, "info depth 1 score cp %d nodes %d", n ? best_score : 0, n);
        emit(ctx, line);
    }
    if (res) {
        res->best = best;
        res->score = n ? best_score : 0;
        res->depth = 1;
        res->nodes = (uint64_t)n;
        res->time_ms = 0;
    }
    return best;
}
