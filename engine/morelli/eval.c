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
#include "captures.h"

int morelli_weights[MW_COUNT] = {
    [MW_THRONE] = 120, [MW_THRONE_LATE] = 380, [MW_STONE] = 22,       [MW_MOBILITY] = 1,
    [MW_RESERVE] = 2,  [MW_INNER] = 3,         [MW_FRAME_NOW] = 260,  [MW_FRAME_THREAT] = 140,
    [MW_FRAME3] = 25,  [MW_FRAME2] = 6,        [MW_CAPTURE_NOW] = 30, [MW_CAPTURE_THREAT] = 12,
    [MW_TEMPO] = 8,
};

/* The names of the weights (the MoWeight names without MW_, lower case),
 * for the tuner (tools/eval_tune.c). */
static const char *const morelli_weight_names[MW_COUNT] = {
    [MW_THRONE] = "throne",
    [MW_THRONE_LATE] = "throne_late",
    [MW_STONE] = "stone",
    [MW_MOBILITY] = "mobility",
    [MW_RESERVE] = "reserve",
    [MW_INNER] = "inner",
    [MW_FRAME_NOW] = "frame_now",
    [MW_FRAME_THREAT] = "frame_threat",
    [MW_FRAME3] = "frame3",
    [MW_FRAME2] = "frame2",
    [MW_CAPTURE_NOW] = "capture_now",
    [MW_CAPTURE_THREAT] = "capture_threat",
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

/* Does a stone of side s land on the empty cell `to`: is the nearest
 * occupied cell along one of the 8 lines from it a stone of s's on a band
 * above its (the line masks; the sentinel and the Throne's king have band
 * 0, so a cell above is a stone, and its colour byte MoPos.white tells
 * whose)?  Here, inlined where the evaluation asks, not a call a cell. */
__attribute__((always_inline)) static inline int reached(const MoPos *p, const MoTables *t, int s,
                                                         int to)
{
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

/* Does a stone of side s reach one of the empty cells of the words w0, w1
 * (cells 0 .. 127) or w2 (128 ..)? */
__attribute__((always_inline)) static inline int reaches_words(const MoPos *p, const MoTables *t,
                                                               int s, uint64_t w0, uint64_t w1,
                                                               uint64_t w2)
{
    for (; w0; w0 &= w0 - 1)
        if (reached(p, t, s, __builtin_ctzll(w0)))
            return 1;
    for (; w1; w1 &= w1 - 1)
        if (reached(p, t, s, 64 + __builtin_ctzll(w1)))
            return 1;
    for (; w2; w2 &= w2 - 1)
        if (reached(p, t, s, 128 + __builtin_ctzll(w2)))
            return 1;
    return 0;
}

/* Does a stone of side s reach one of the empty cells `cells`? */
__attribute__((always_inline)) static inline int reaches_any(const MoPos *p, const MoTables *t,
                                                             int s, Bits cells)
{
    return reaches_words(p, t, s, cells.w[0], cells.w[1], cells.w[2]);
}

/* The best number of stones a landing of side s takes, over the capture
 * cells (ge: the side's classes, at least 1 and at least 2 stones) that
 * some stone of the side reaches: the cells of 2 or more one by one, then
 * any cell of 1.  Out of line: a cell of 2 is rare. */
__attribute__((noinline)) static int best_capture_cells(const MoPos *p, int s, Bits ge0, Bits ge1)
{
    const MoTables *t = mo_tables(p);
    int best = 0;
#ifdef __BMI2__
    CapWin cw;
    capwin_init(&cw, p, s, 3);
#endif
    for (Bits c = ge1; bits_any(&c);) {
        int to = bits_pop(&c);
#ifdef __BMI2__
        int k = __builtin_popcount(capwin_dirs(&cw, t, p->n, to));
#else
        int k = __builtin_popcount(morelli_captures(p, s, to));
#endif
        if (k > best && reached(p, t, s, to))
            best = k;
    }
    if (best)
        return best;
    return reaches_any(p, t, s, bits_andnot(ge0, ge1));
}

/* The same when the side may have cells of 2 or more (ge1 not empty). */
__attribute__((always_inline)) static inline int best_capture(const MoPos *p, const MoTables *t,
                                                              int s, Bits ge0, Bits ge1)
{
    if (bits_any(&ge1))
        return best_capture_cells(p, s, ge0, ge1);
    return reaches_any(p, t, s, ge0);
}

/* The score from the side to move's view, given the stones of each side
 * (ms, os) and their best captures (mb, ob); *quiet: the note for
 * morelli_gen_noisy (no noisy move).  Mobility and the band sum are kept
 * by make/unmake (MoPos.mob, bsum): with k_b stones on band b, reserve =
 * sum k_b (b - 1) = bsum - stones (no stone is on band 0) and inner = sum
 * k_b (outer - b) = outer stones - bsum, so that the stone, reserve and
 * inner terms are one term in the stones and one in the band sums. */
__attribute__((always_inline)) static inline int eval_score(const MoPos *p, const MoTables *t,
                                                            int ms, int os, int mb, int ob,
                                                            int *quiet)
{
    const int *w = morelli_weights;
    const int s = p->stm, o = s ^ 1, outer = t->outer_band;
    const int ds = ms - os, dbs = p->c.bsum[s] - p->c.bsum[o];
    int score = w[MW_TEMPO];
    score += (w[MW_STONE] - w[MW_RESERVE] + w[MW_INNER] * outer) * ds;
    score += (w[MW_RESERVE] - w[MW_INNER]) * dbs;
    score += w[MW_MOBILITY] * (p->c.mob[s] - p->c.mob[o]);
    score += w[MW_CAPTURE_NOW] * mb - w[MW_CAPTURE_THREAT] * ob;

    /* frames, orbit by orbit (counted by make/unmake) */
    int f3 = p->c.f3[s] - p->c.f3[o], f2 = p->c.f2[s] - p->c.f2[o];
    /* a frame's empty corner that a stone reaches: enthroning now, or
     * the opponent's threat (a gap needs an orbit with 3 of the side's
     * stones, counted by make) */
    int frame_now = p->throne != s + 1 && p->c.f3[s] &&
                    reaches_any(p, t, s, morelli_frame_gaps(p, s));
    int frame_threat = !frame_now && p->throne != o + 1 && p->c.f3[o] &&
                       reaches_any(p, t, o, morelli_frame_gaps(p, o));
    /* no reached capture cell and no reached frame gap: the side to move
     * has no noisy move */
    *quiet = !mb && !frame_now;
    score += w[MW_FRAME3] * f3 + w[MW_FRAME2] * f2;
    if (frame_now)
        score += w[MW_FRAME_NOW];
    else if (frame_threat)
        score -= w[MW_FRAME_THREAT];

    /* the Throne counts more as the band steps run out (the reserves of
     * both sides: the band sums less the stones) */
    if (p->throne) {
        int full = p->ring * (outer - 1);
        int left = p->c.bsum[s] + p->c.bsum[o] - ms - os;
        if (left > full)
            left = full;
        int v = w[MW_THRONE] + (full > 0 ? w[MW_THRONE_LATE] * (full - left) / full : 0);
        score += p->throne == s + 1 ? v : -v;
    }
    return score;
}

#ifndef __AVX2__
/* Any size: the capture classes through morelli_capture_classes. */
static int eval_any(const MoPos *p, MoNoisyNote *note)
{
    const MoTables *t = mo_tables(p);
    const int s = p->stm, o = s ^ 1;
    MoCapClasses cc;
    morelli_capture_classes(p, &cc);
    int mb = best_capture(p, t, s, cc.ge[s][0], cc.ge[s][1]);
    int ob = best_capture(p, t, o, cc.ge[o][0], cc.ge[o][1]);
    int quiet;
    int score = eval_score(p, t, bits_count(&p->stones[s]), bits_count(&p->stones[o]), mb, ob,
                           &quiet);
    /* for morelli_gen_noisy, which the search asks next for most
     * positions */
    mo_noisy_note(note, p, &cc.ge[s][0], quiet);
    return score;
}
#else
/* Boards up to 11x11 (cells below 128, two words a set), one body per
 * size (n): the capture classes in registers (both colours in the halves
 * of one), the tables at a constant address. */
__attribute__((always_inline)) static inline int eval_small(const MoPos *p, const int n,
                                                            MoNoisyNote *note)
{
    const MoTables *t = &morelli_tables[n == 9 ? 0 : 1];
    const int s = p->stm, o = s ^ 1;
    __m256i c1, c2;
    capture_classes_halves(p, t, n, &c1, &c2);
    /* the mover's half first */
    __m256i mo = s ? _mm256_permute4x64_epi64(c1, 0x4E) : c1;
    __m128i me1 = _mm256_castsi256_si128(mo), op1 = _mm256_extracti128_si256(mo, 1);
    int mb, ob;
    if (_mm256_testz_si256(c2, c2)) {
        /* no cell of 2 (most positions) */
        mb = reaches_words(p, t, s, (uint64_t)_mm_cvtsi128_si64(me1),
                           (uint64_t)_mm_extract_epi64(me1, 1), 0);
        ob = reaches_words(p, t, o, (uint64_t)_mm_cvtsi128_si64(op1),
                           (uint64_t)_mm_extract_epi64(op1, 1), 0);
    } else {
        __m256i m2 = s ? _mm256_permute4x64_epi64(c2, 0x4E) : c2;
        __m128i me2 = _mm256_castsi256_si128(m2), op2 = _mm256_extracti128_si256(m2, 1);
        mb = best_capture(
            p, t, s,
            (Bits){{(uint64_t)_mm_cvtsi128_si64(me1), (uint64_t)_mm_extract_epi64(me1, 1), 0}},
            (Bits){{(uint64_t)_mm_cvtsi128_si64(me2), (uint64_t)_mm_extract_epi64(me2, 1), 0}});
        ob = best_capture(
            p, t, o,
            (Bits){{(uint64_t)_mm_cvtsi128_si64(op1), (uint64_t)_mm_extract_epi64(op1, 1), 0}},
            (Bits){{(uint64_t)_mm_cvtsi128_si64(op2), (uint64_t)_mm_extract_epi64(op2, 1), 0}});
    }
    const int ms = __builtin_popcountll(p->stones[s].w[0]) +
                   __builtin_popcountll(p->stones[s].w[1]);
    const int os = __builtin_popcountll(p->stones[o].w[0]) +
                   __builtin_popcountll(p->stones[o].w[1]);
    int quiet;
    int score = eval_score(p, t, ms, os, mb, ob, &quiet);
    mo_noisy_note_vec(note, p, _mm256_zextsi128_si256(me1), quiet);
    return score;
}

/* 13x13: the same with a colour a register (three words). */
__attribute__((noinline)) static int eval_13(const MoPos *p, MoNoisyNote *note)
{
    const MoTables *t = &morelli_tables[2];
    const int s = p->stm, o = s ^ 1;
    __m256i c1[2], c2[2];
    capture_classes_13_regs(p, t, c1, c2);
    uint64_t me[4], op[4];
    _mm256_storeu_si256((__m256i *)me, c1[s]);
    _mm256_storeu_si256((__m256i *)op, c1[o]);
    int mb, ob;
    __m256i any2 = _mm256_or_si256(c2[0], c2[1]);
    if (_mm256_testz_si256(any2, any2)) {
        /* no cell of 2 (most positions) */
        mb = reaches_words(p, t, s, me[0], me[1], me[2]);
        ob = reaches_words(p, t, o, op[0], op[1], op[2]);
    } else {
        uint64_t me2[4], op2[4];
        _mm256_storeu_si256((__m256i *)me2, c2[s]);
        _mm256_storeu_si256((__m256i *)op2, c2[o]);
        mb = best_capture(p, t, s, (Bits){{me[0], me[1], me[2]}}, (Bits){{me2[0], me2[1], me2[2]}});
        ob = best_capture(p, t, o, (Bits){{op[0], op[1], op[2]}}, (Bits){{op2[0], op2[1], op2[2]}});
    }
    int quiet;
    int score = eval_score(p, t, bits_count(&p->stones[s]), bits_count(&p->stones[o]), mb, ob,
                           &quiet);
    mo_noisy_note_vec(note, p, c1[s], quiet);
    return score;
}

__attribute__((noinline)) static int eval_9(const MoPos *p, MoNoisyNote *note)
{
    return eval_small(p, 9, note);
}

__attribute__((noinline)) static int eval_11(const MoPos *p, MoNoisyNote *note)
{
    return eval_small(p, 11, note);
}
#endif

int morelli_evaluate_noted(const void *pos, void *note)
{
    const MoPos *p = pos;
    /* placement: only the ring fills up, by a fixed schedule; what the
     * placements decide is how freely the stones will move */
    if (mo_placing(p))
        return morelli_weights[MW_TEMPO] +
               morelli_weights[MW_MOBILITY] * (p->c.mob[p->stm] - p->c.mob[p->stm ^ 1]);
#ifdef __AVX2__
    if (p->n == 9)
        return eval_9(p, note);
    if (p->n == 11)
        return eval_11(p, note);
    return eval_13(p, note);
#else
    return eval_any(p, note);
#endif
}

int morelli_evaluate(const void *pos)
{
    MoNoisyNote unused;
    return morelli_evaluate_noted(pos, &unused);
}
