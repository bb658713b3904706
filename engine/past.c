#include "past.h"

#include <stdlib.h>

void past_init(Past *h)
{
    h->keys = NULL;
    h->len = h->cap = 0;
}

void past_free(Past *h)
{
    free(h->keys);
    past_init(h);
}

void past_clear(Past *h)
{
    h->len = 0;
}

int past_push(Past *h, Key k)
{
    if (h->len == h->cap) {
        int cap = h->cap ? 2 * h->cap : 64;
        Key *keys = realloc(h->keys, (size_t)cap * sizeof *keys);
        if (!keys)
            return -1;
        h->keys = keys;
        h->cap = cap;
    }
    h->keys[h->len++] = k;
    return 0;
}

int past_draw(const Game *g, const void *pos, const Key *prev, int nprev)
{
    int rev = g->reversible_plies ? g->reversible_plies(pos) : -1;
    int rule = game_move_rule(g, pos);
    if (rule > 0 && rev >= rule)
        return RESULT_DRAW;
    if (g->repetition_count > 0) {
        Key k = g->key(pos);
        int seen = 1;
        int lo = (rev >= 0 && rev < nprev) ? nprev - rev : 0;
        for (int i = nprev - 1; i >= lo; i--)
            if (prev[i] == k && ++seen >= g->repetition_count)
                return RESULT_DRAW;
    }
    return RESULT_NONE;
}

int past_result(const Game *g, const void *pos, const Key *prev, int nprev)
{
    int r = g->result(pos);
    if (r != RESULT_NONE)
        return r;
    return past_draw(g, pos, prev, nprev);
}
