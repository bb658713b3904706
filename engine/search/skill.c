/*
 * skill.c -- strength levels (skill.h).
 */
#include "skill.h"

/* Measured Elo against full strength (docs/levels.md), levels 0, 5, 10,
 * 15, 20, on UCI_Elo's scale (full strength SKILL_ELO_MAX); the levels
 * between are interpolated. */
static const int elo_points[5] = {920, 1200, 1505, 1680, 2000};

int skill_elo(int level)
{
    if (level <= 0)
        return elo_points[0];
    if (level >= SKILL_MAX)
        return elo_points[4];
    int i = level / 5, r = level % 5;
    return elo_points[i] + (elo_points[i + 1] - elo_points[i]) * r / 5;
}

int skill_level(int level, int limit_strength, int elo)
{
    if (!limit_strength)
        return level;
    int best = 0;
    for (int l = 1; l <= SKILL_MAX; l++) {
        int d = skill_elo(l) - elo, bd = skill_elo(best) - elo;
        if ((d < 0 ? -d : d) < (bd < 0 ? -bd : bd))
            best = l;
    }
    return best;
}

void skill_limits(int level, SearchLimits *l)
{
    if (level >= SKILL_MAX)
        return;
    /* depth 1 at level 0, one ply more every two levels */
    int depth = 1 + level / 2;
    /* 2000 nodes at level 0 (a first iteration of four lines on 13x13
     * Morelli), twice as many every two levels */
    uint64_t nodes = 2000ull << (level / 2);
    if (l->depth == 0 || l->depth > depth)
        l->depth = depth;
    if (l->nodes == 0 || l->nodes > nodes)
        l->nodes = nodes;
}

int skill_pick(int level, uint64_t seed, const int *scores, int n)
{
    if (level >= SKILL_MAX || n <= 1)
        return 0;
    /* the spread in centipawns: 15 a level below full strength (300 at
     * level 0); scores beyond +-1000 (won, lost) count as +-1000 */
    uint32_t spread = 15u * (uint32_t)(SKILL_MAX - level);
    uint64_t r = seed ^ 0x736b696c6cull; /* "skill" */
    int pick = 0;
    long best = 0;
    for (int i = 0; i < n; i++) {
        int sc = scores[i] > 1000 ? 1000 : scores[i] < -1000 ? -1000 : scores[i];
        long v = sc + (long)rng_below(&r, spread);
        if (i == 0 || v > best) {
            best = v;
            pick = i;
        }
    }
    return pick;
}
