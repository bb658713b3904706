#include "perft.h"

#include <stdio.h>
#include <stdlib.h>

uint64_t perft_generic(const Game *g, void *pos, int depth, int bulk)
{
    if (depth <= 0)
        return 1;
    if (g->result(pos) != RESULT_NONE)
        return 0;
    Move *moves = malloc((size_t)g->max_moves * sizeof *moves);
    if (!moves)
        return 0;
    int n = g->gen_moves(pos, moves);
    uint64_t total = 0;
    if (depth == 1 && bulk) {
        total = (uint64_t)n;
    } else {
        unsigned char undo[UNDO_MAX_BYTES];
        for (int i = 0; i < n; i++) {
            g->make(pos, moves[i], undo);
            total += perft_generic(g, pos, depth - 1, bulk);
            g->unmake(pos, moves[i], undo);
        }
    }
    free(moves);
    return total;
}

uint64_t perft(const Game *g, void *pos, int depth, int bulk)
{
    if (g->perft)
        return g->perft(pos, depth, bulk);
    return perft_generic(g, pos, depth, bulk);
}

uint64_t perft_divide(const Game *g, void *pos, int depth, int bulk,
                      void (*line)(void *ctx, const char *text), void *ctx)
{
    char out[MOVE_STR_MAX + 32];
    uint64_t total = 0;
    if (depth >= 1 && g->result(pos) == RESULT_NONE) {
        Move *moves = malloc((size_t)g->max_moves * sizeof *moves);
        if (!moves)
            return 0;
        int n = g->gen_moves(pos, moves);
        unsigned char undo[UNDO_MAX_BYTES];
        char text[MOVE_STR_MAX];
        for (int i = 0; i < n; i++) {
            game_move_str(g, pos, moves[i], text, sizeof text);
            g->make(pos, moves[i], undo);
            uint64_t c = perft(g, pos, depth - 1, bulk);
            g->unmake(pos, moves[i], undo);
            snprintf(out, sizeof out, "%s: %llu", text, (unsigned long long)c);
            line(ctx, out);
            total += c;
        }
        free(moves);
    }
    line(ctx, "");
    snprintf(out, sizeof out, "Nodes searched: %llu", (unsigned long long)total);
    line(ctx, out);
    return total;
}
