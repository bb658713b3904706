/* eval.c -- Morelli evaluation and playout policy (placeholder for now). */
#include "morelli.h"

int morelli_evaluate(const void *pos)
{
    (void)pos;
    return 0;
}

Move morelli_playout_move(const void *pos, const Move *moves, int n, uint64_t *rng)
{
    (void)pos;
    return moves[rng_below(rng, (uint32_t)n)];
}
