/*
 * eval.c -- the Morelli evaluation and the playout policy.
 *
 * The game is decided by who holds the Throne when a side can no longer
 * move, so the evaluation weighs, from the side to move's view:
 *   - the Throne, more and more as the stones run out of band steps;
 *   - frames: orbits where one side has 3 stones and the fourth corner is
 *     empty (worth most when that corner is reachable: the mover enthrones
 *     at once, the opponent threatens to), or 2 and the rest empty;
 *   - captures: the best number of stones the mover takes in one move, and
 *     the best the opponent threatens;
 *   - stones of one's colour, mobility (legal moves), the band steps left
 *     (tempo: the game ends when a side cannot move) and those made.
 * All weights are in morelli_weights[] (names in morelli.h).
 */
#include "morelli.h"
#include "tune/tune.h"

int morelli_weights[MW_COUNT] = {
    [MW_THRONE] = 120,     [MW_THRONE_LATE] = 380, [MW_STONE] = 22,
    [MW_MOBILITY] = 1,     [MW_RESERVE] = 2,       [MW_INNER] = 3,
    [MW_FRAME_NOW] = 260,  [MW_FRAME_THREAT] = 140, [MW_FRAME3] = 25,
    [MW_FRAME2] = 6,       [MW_CAPTURE_NOW] = 30,  [MW_CAPTURE_THREAT] = 12,
    [MW_TEMPO] = 8,
};

/* The names of the weights (the MoWeight names without MW_, lower case),
 * for the tuner (tools/eval_tune.c). */
static const char *const morelli_weight_names[MW_COUNT] = {
    [MW_THRONE] = "throne",           [MW_THRONE_LATE] = "throne_late",
    [MW_STONE] = "stone",             [MW_MOBILITY] = "mobility",
    [MW_RESERVE] = "reserve",         [MW_INNER] = "inner",
    [MW_FRAME_NOW] = "frame_now",     [MW_FRAME_THREAT] = "frame_threat",
    [MW_FRAME3] = "frame3",           [MW_FRAME2] = "frame2",
    [MW_CAPTURE_NOW] = "capture_now", [MW_CAPTURE_THREAT] = "capture_threat",
    [MW_TEMPO] = "tempo",
};

int morelli_weight_table(int **w, const char *const **names)
{
    *w = morelli_weights;
    *names = morelli_weight_names;
    return MW_COUNT;
}

typedef struct SideInfo {
    Bits reach;   /* every cell one of the side's stones can land on */
    int mobility; /* legal moves in standard play (landings) */
    int reserve;  /* band steps left: sum of band - 1 */
    int inner;    /* band steps made: sum of outer - band */
    int stones;
    int best_capture;
} SideInfo;

static void side_info(const MoPos *p, int s, const Bits *occ, SideInfo *si)
{
    const MoTables *t = mo_tables(p);
    Bits own = p->stones[s];
    si->reach = (Bits){{0, 0, 0}};
    si->mobility = si->reserve = si->inner = si->stones = si->best_capture = 0;
    while (bits_any(&own)) {
        int c = bits_pop(&own);
        int b = t->band[c];
        si->stones++;
        si->inner += t->outer_band - b;
        if (b < 2)
            continue;
        si->reserve += b - 1;
        Bits r = morelli_reach(t, occ, c);
        si->mobility += bits_count(&r);
        si->reach = bits_or(si->reach, r);
    }
    /* the best single landing for captures (they do not depend on which
     * stone lands, see internal.h), among the landings next to an adverse
     * stone */
    Bits near = {{0, 0, 0}}, opp = p->stones[s ^ 1];
    while (bits_any(&opp))
        near = bits_or(near, t->capby[bits_pop(&opp)]);
    Bits r = bits_and(si->reach, near);
    while (bits_any(&r)) {
        int to = bits_pop(&r);
        int k = __builtin_popcount(morelli_captures(p, s, to));
        if (k > si->best_capture)
            si->best_capture = k;
    }
}

int morelli_evaluate(const void *pos)
{
    const MoPos *p = pos;
    const int *w = morelli_weights;
    const MoTables *t = mo_tables(p);
    const int s = p->stm, o = s ^ 1;
    Bits occ = mo_occupied(p);
    SideInfo me, op;
    side_info(p, s, &occ, &me);
    side_info(p, o, &occ, &op);

    int score = w[MW_TEMPO];
    /* placement: only the ring fills up, by a fixed schedule; what the
     * placements decide is how freely the stones will move */
    if (mo_placing(p))
        return score + w[MW_MOBILITY] * (me.mobility - op.mobility);
    score += w[MW_STONE] * (me.stones - op.stones);
    score += w[MW_MOBILITY] * (me.mobility - op.mobility);
    score += w[MW_RESERVE] * (me.reserve - op.reserve);
    score += w[MW_INNER] * (me.inner - op.inner);
    score += w[MW_CAPTURE_NOW] * me.best_capture - w[MW_CAPTURE_THREAT] * op.best_capture;

    /* frames, orbit by orbit */
    int frame_now = 0, frame_threat = 0, f3 = 0, f2 = 0;
    for (int i = 0; i < t->norbits; i++) {
        const Bits *orb = &t->orbit[t->orbit_cell[i]];
        Bits mine = bits_and(*orb, p->stones[s]), theirs = bits_and(*orb, p->stones[o]);
        int a = bits_count(&mine), b = bits_count(&theirs);
        if (a == 3 && b == 0) {
            Bits gap = bits_andnot(*orb, mine);
            Bits hit = bits_and(gap, me.reach);
            if (bits_any(&hit) && p->throne != s + 1)
                frame_now = 1;
            f3++;
        } else if (b == 3 && a == 0) {
            Bits gap = bits_andnot(*orb, theirs);
            Bits hit = bits_and(gap, op.reach);
            if (bits_any(&hit) && p->throne != o + 1)
                frame_threat = 1;
            f3--;
        } else if (a == 2 && b == 0) {
            f2++;
        } else if (b == 2 && a == 0) {
            f2--;
        }
    }
    score += w[MW_FRAME3] * f3 + w[MW_FRAME2] * f2;
    if (frame_now)
        score += w[MW_FRAME_NOW];
    else if (frame_threat)
        score -= w[MW_FRAME_THREAT];

    /* the Throne counts more as the band steps run out */
    if (p->throne) {
        int full = p->ring * (t->outer_band - 1);
        int left = me.reserve + op.reserve;
        if (left > full)
            left = full;
        int v = w[MW_THRONE] + (full > 0 ? w[MW_THRONE_LATE] * (full - left) / full : 0);
        score += p->throne == s + 1 ? v : -v;
    }
    return score;
}

/*
 * Playout policy, one pass over the list: an enthroning move if there is
 * one (most of the time), else often one of the moves that capture most,
 * else a uniformly random move.
 */
Move morelli_playout_move(const void *pos, const Move *moves, int n, uint64_t *rng)
{
    (void)pos;
    if (n <= 0)
        return MOVE_NONE;
    int n_en = 0, n_best = 0, best = 0;
    Move en = MOVE_NONE, cap = MOVE_NONE;
    for (int i = 0; i < n; i++) {
        Move m = moves[i];
        if (m & MO_PLACE)
            break; /* placements: all alike */
        if (m & MO_ENTHRONE) {
            /* reservoir sampling among the enthroning moves */
            if (rng_below(rng, (uint32_t)++n_en) == 0)
                en = m;
            continue;
        }
        int k = __builtin_popcount(MO_CAPS(m));
        if (k == 0 || k < best)
            continue;
        if (k > best) {
            best = k;
            n_best = 0;
        }
        if (rng_below(rng, (uint32_t)++n_best) == 0)
            cap = m;
    }
    uint32_t roll = rng_below(rng, 100);
    if (en != MOVE_NONE && roll < 90)
        return en;
    if (cap != MOVE_NONE && roll < 75)
        return cap;
    return moves[rng_below(rng, (uint32_t)n)];
}
