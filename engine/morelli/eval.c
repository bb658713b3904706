/*
 * eval.c -- the Morelli evaluation.
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
#include <ctype.h>
#include <stdio.h>

#include "morelli.h"
#include "noisy_memo.h"

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

/* The table as the initialiser of morelli_weights[] above. */
void morelli_print_weights(const int *w, const char *const *names, int n, FILE *out)
{
    fprintf(out, "int morelli_weights[MW_COUNT] = {\n");
    for (int i = 0; i < n; i++) {
        /* names are the enum's without the MW_ prefix, lower case */
        char up[64];
        size_t j = 0;
        for (; names[i][j] && j + 1 < sizeof up; j++)
            up[j] = (char)toupper((unsigned char)names[i][j]);
        up[j] = 0;
        fprintf(out, "    [MW_%s] = %d,\n", up, w[i]);
    }
    fprintf(out, "};\n");
}

typedef struct SideInfo {
    int mobility; /* legal moves in standard play (landings) */
    int reserve;  /* band steps left: sum of band - 1 */
    int inner;    /* band steps made: sum of outer - band */
    int stones;
    int best_capture;
} SideInfo;

/* Does a stone of side s land on the empty cell `to`: is the nearest
 * occupied cell along one of the 8 lines from it a stone of s's on a band
 * above its (the line masks; the sentinel and the Throne's king have band
 * 0, so a cell above is a stone, and its colour byte MoPos.white tells
 * whose)?  Here, inlined where the evaluation asks, not a call a cell. */
static inline int reached(const MoPos *p, int s, int to)
{
    const MoTables *t = mo_tables(p);
    const int bt = t->band[to];
    const int8_t col = (int8_t)-s;
    for (int ax = 0; ax < 4; ax++) {
        int a, ka, b, kb;
        mo_first_both(p, t, to, ax, &a, &ka, &b, &kb);
        if ((t->band[a] > bt && p->white[a] == col) || (t->band[b] > bt && p->white[b] == col))
            return 1;
    }
    return 0;
}

/* Does a stone of side s reach one of the empty cells `cells`? */
__attribute__((always_inline)) static inline int reaches_any(const MoPos *p, int s, Bits cells)
{
    while (bits_any(&cells))
        if (reached(p, s, bits_pop(&cells)))
            return 1;
    return 0;
}

/* The best number of stones a landing of side s takes, over the capture
 * cells (ge: the side's classes, at least 1 and at least 2 stones) that
 * some stone of the side reaches: the cells of 2 or more one by one, then
 * any cell of 1. */
__attribute__((always_inline)) static inline int best_capture_cells(const MoPos *p, int s,
                                                                    const Bits ge[2])
{
    int best = 0;
    Bits c = ge[1];
    while (bits_any(&c)) {
        int to = bits_pop(&c), k = __builtin_popcount(morelli_captures(p, s, to));
        if (k > best && reached(p, s, to))
            best = k;
    }
    if (best)
        return best;
    return reaches_any(p, s, bits_andnot(ge[0], ge[1]));
}

/* The same, at once 0 when the side has no capture cell; both inlined
 * (the call and its register saves were a tenth of the evaluation). */
static inline int best_capture(const MoPos *p, int s, const Bits ge[2])
{
    return bits_any(&ge[0]) ? best_capture_cells(p, s, ge) : 0;
}

/* The side's terms.  Mobility and the band sum are kept by make/unmake
 * (MoPos.mob, bsum): with k_b stones on band b, reserve = sum k_b (b - 1)
 * (no stone is on band 0) and inner = sum k_b (outer - b).  The best
 * capture from the capture classes of both sides (cc). */
__attribute__((always_inline)) static inline void side_info(const MoPos *p, int s,
                                                            const MoCapClasses *cc, SideInfo *si)
{
    const MoTables *t = mo_tables(p);
    si->stones = bits_count(&p->stones[s]);
    si->mobility = p->c.mob[s];
    si->reserve = p->c.bsum[s] - si->stones;
    si->inner = si->stones * t->outer_band - p->c.bsum[s];
    si->best_capture = best_capture(p, s, cc->ge[s]);
}

int morelli_evaluate(const void *pos)
{
    const MoPos *p = pos;
    const int *w = morelli_weights;
    const MoTables *t = mo_tables(p);
    const int s = p->stm, o = s ^ 1;
    int score = w[MW_TEMPO];
    /* placement: only the ring fills up, by a fixed schedule; what the
     * placements decide is how freely the stones will move */
    if (mo_placing(p))
        return score + w[MW_MOBILITY] * (p->c.mob[s] - p->c.mob[o]);
    MoCapClasses cc;
    morelli_capture_classes(p, &cc);
    SideInfo me, op;
    side_info(p, s, &cc, &me);
    side_info(p, o, &cc, &op);
    score += w[MW_STONE] * (me.stones - op.stones);
    score += w[MW_MOBILITY] * (me.mobility - op.mobility);
    score += w[MW_RESERVE] * (me.reserve - op.reserve);
    score += w[MW_INNER] * (me.inner - op.inner);
    score += w[MW_CAPTURE_NOW] * me.best_capture - w[MW_CAPTURE_THREAT] * op.best_capture;

    /* frames, orbit by orbit (counted by make/unmake) */
    int f3 = p->c.f3[s] - p->c.f3[o], f2 = p->c.f2[s] - p->c.f2[o];
    /* a frame's empty corner that a stone reaches: enthroning now, or
     * the opponent's threat (a gap needs an orbit with 3 of the side's
     * stones, counted by make) */
    int frame_now =
        p->throne != s + 1 && p->c.f3[s] && reaches_any(p, s, morelli_frame_gaps(p, s));
    int frame_threat = !frame_now && p->throne != o + 1 && p->c.f3[o] &&
                       reaches_any(p, o, morelli_frame_gaps(p, o));
    /* for morelli_gen_noisy, which the search asks next for most
     * positions: no reached capture cell and no reached frame gap (the
     * side to move has no noisy move), else the mover's capture cells */
    mo_noisy_note(p, &cc.ge[s][0], !me.best_capture && !frame_now);
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
