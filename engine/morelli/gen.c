/*
 * gen.c -- Morelli move generation: the landing cells of a stone
 * (morelli_reach), captures, frame completions (enthronements), the
 * placements, the full legal move list, the move count and whether the
 * side to move has a move at all.  Move layout in morelli.h.
 */
#include "internal.h"
#include "captures.h"

#include <stdlib.h>
#if defined __AVX2__ || defined __BMI2__
#include <immintrin.h>
#endif


/* Cells a stone on `from` may land on: along each ray up to the first
 * occupied cell, on a band strictly nearer the Throne, never the Throne. */
Bits morelli_reach(const MoTables *t, const Bits *occ, int from)
{
    Bits out = {{0, 0, 0}};
    for (unsigned dirs = t->land_dirs[from]; dirs; dirs &= dirs - 1) {
        int d = __builtin_ctz(dirs);
        Bits r = t->land[from][d];
        Bits blk = bits_and(t->path[from][d], *occ);
        if (bits_any(&blk)) {
            int b = d < 4 ? bits_lowest(&blk) : bits_highest(&blk);
            /* not the blocker, nothing beyond it */
            r = bits_andnot(r, t->ray[b][d]);
            /* b cleared word by word: a store into one word of r read
             * back whole would stall the load */
            for (int w = 0; w < 3; w++)
                r.w[w] &= ~((uint64_t)(b >> 6 == w) << (b & 63));
        }
        out = bits_or(out, r);
    }
    return out;
}

unsigned morelli_captures(const MoPos *p, int s, int to)
{
    /* the direction of a neighbour by its rank and file steps (+1) */
    static const int8_t dir_of[3][3] = {{5, 6, 7}, {4, -1, 0}, {3, 2, 1}};
    const MoTables *t = mo_tables(p);
    const Bits *own = &p->stones[s];
    unsigned mask = 0;
    /* the adverse neighbours with a cell beyond them, one by one */
    Bits near = bits_and(t->capnbr[to], p->stones[s ^ 1]);
    while (bits_any(&near)) {
        int a = bits_pop(&near);
        if (bits_test(own, 2 * a - to))
            mask |= 1u << dir_of[t->rank[a] - t->rank[to] + 1][t->file[a] - t->file[to] + 1];
    }
    return mask;
}

/* Does the move from -> to taking `caps` complete a frame of side s: an
 * orbit of the landing cell or of a captured stone all s's afterwards? */
int morelli_completes_frame(const MoPos *p, int s, int from, int to, unsigned caps)
{
    const MoTables *t = mo_tables(p);
    Bits own = p->stones[s];
    bits_clear(&own, from);
    bits_set(&own, to);
    for (unsigned c = caps; c; c &= c - 1)
        bits_set(&own, to + t->delta[__builtin_ctz(c)]);
    Bits miss = bits_andnot(t->orbit[to], own);
    if (!bits_any(&miss))
        return 1;
    for (unsigned c = caps; c; c &= c - 1) {
        miss = bits_andnot(t->orbit[to + t->delta[__builtin_ctz(c)]], own);
        if (!bits_any(&miss))
            return 1;
    }
    return 0;
}

/* The empty cells that would complete a frame of side s by a stone landing
 * there alone: the fourth corner of an orbit whose other three are s's.
 * Those orbits are the ones make counts in f3 (3 of s's stones, no other
 * stone, so the fourth corner is empty), found by their MoPos.orb bytes
 * (exactly 3 stones of s's colour; a ring orbit's byte has MO_ORB_RING). */
Bits morelli_frame_gaps(const MoPos *p, int s)
{
    Bits gaps = {{0, 0, 0}};
    if (p->c.f3[s] == 0)
        return gaps;
    const MoTables *t = mo_tables(p);
    const uint8_t want = (uint8_t)(3 * (s ? MO_ORB_WHITE : MO_ORB_BLACK));
    unsigned long long found = 0;
#ifdef __AVX2__
    /* the frame orbits are orb[0 .. norbits), at most 30 */
    _Static_assert(sizeof(((MoPos *)0)->orb) >= 32, "one load of the orbit bytes");
    __m256i v = _mm256_loadu_si256((const __m256i *)p->orb);
    found = (unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8((char)want)));
#else
    for (int o = 0; o < t->norbits; o++)
        found |= (unsigned long long)(p->orb[o] == want) << o;
#endif
    for (; found; found &= found - 1) {
        const Bits *ob = &t->orbit[t->orbit_cell[__builtin_ctzll(found)]];
        gaps = bits_or(gaps, bits_andnot(*ob, p->stones[s]));
    }
    return gaps;
}

static int gen_placements(const MoPos *p, Move *moves)
{
    const MoTables *t = mo_tables(p);
    Bits empty = bits_andnot(t->ring_mask, bits_or(p->stones[0], p->stones[1]));
    int n = 0;
    while (bits_any(&empty))
        moves[n++] = MO_PLACE | (Move)bits_pop(&empty);
    return n;
}

/* The capture cells: where a stone of side s landing captures in
 * direction d (step k): the neighbour k on adverse, the cell 2k on own, 2k
 * on the board (cap_from[d]).  Shifted sets bring those cells back to the
 * landing cell. */
#ifdef __AVX2__
/* With AVX2 both colours sit in one register: up to 11x11 (cells below
 * 128) Black in the low 128-bit half and White in the high one, on 13x13
 * one 256-bit register a colour (three words, the fourth lane 0). */

/* Up to 11x11, one body per size (constant shifts). */
__attribute__((always_inline)) static inline Bits capture_cells_small(const MoPos *p, int n, int s,
                                                                      Bits by_dir[MO_DIRS])
{
    const MoTables *t = mo_tables(p);
    const int delta[MO_DIRS] = {1, n + 1, n, n - 1, -1, -n - 1, -n, 1 - n};
    const CapSrc cs = cap_src(p, t);
    __m128i out = _mm_setzero_si128();
#pragma GCC unroll 8
    for (int d = 0; d < MO_DIRS; d++) {
        __m256i c = capture_halves(&cs, d, delta[d]);
        __m128i h = s ? _mm256_extracti128_si256(c, 1) : _mm256_castsi256_si128(c);
        _mm_storeu_si128((__m128i *)by_dir[d].w, h);
        by_dir[d].w[2] = 0;
        out = _mm_or_si128(out, h);
    }
    uint64_t o[2];
    _mm_storeu_si128((__m128i *)o, out);
    return (Bits){{o[0], o[1], 0}};
}

static Bits capture_cells_13(const MoPos *p, int s, Bits by_dir[MO_DIRS])
{
    const MoTables *t = mo_tables(p);
    const int n = 13, delta[MO_DIRS] = {1, n + 1, n, n - 1, -1, -n - 1, -n, 1 - n};
    const __m256i opp = m256_of(&p->stones[s ^ 1]);
    const CapSrc13 own = cap_src13(t, m256_of(&p->stones[s]));
    __m256i out = _mm256_setzero_si256();
#pragma GCC unroll 8
    for (int d = 0; d < MO_DIRS; d++) {
        __m256i c = capture_dir13(&own, opp, d, delta[d]);
        by_dir[d] = bits_of_m256(c);
        out = _mm256_or_si256(out, c);
    }
    return bits_of_m256(out);
}
#else
/* bits_shift of a set within the first two words (boards up to 11x11). */
static inline Bits shift2(Bits a, int k)
{
    if (k > 0)
        return (Bits){{a.w[0] << k, (a.w[1] << k) | (a.w[0] >> (64 - k)), 0}};
    k = -k;
    return (Bits){{(a.w[0] >> k) | (a.w[1] << (64 - k)), a.w[1] >> k, 0}};
}

/* The cells where a stone of side s landing captures in direction d, the
 * index step of d being k (two_words: the board's cells are below 128). */
__attribute__((always_inline)) static inline Bits capture_dir(const MoPos *p, const MoTables *t,
                                                              int s, int d, int k, int two_words)
{
    Bits a = two_words ? shift2(p->stones[s ^ 1], -k) : bits_shift(p->stones[s ^ 1], -k);
    Bits b = two_words ? shift2(p->stones[s], -2 * k) : bits_shift(p->stones[s], -2 * k);
    return bits_and(bits_and(t->cap_from[d], a), b);
}

/* Up to 11x11, one body per size, so that the shifts are by constants and
 * of two words. */
__attribute__((always_inline)) static inline Bits capture_cells_small(const MoPos *p, int n, int s,
                                                                      Bits by_dir[MO_DIRS])
{
    const MoTables *t = mo_tables(p);
    const int delta[MO_DIRS] = {1, n + 1, n, n - 1, -1, -n - 1, -n, 1 - n};
    Bits out = {{0, 0, 0}};
#pragma GCC unroll 8
    for (int d = 0; d < MO_DIRS; d++)
        out = bits_or(out, by_dir[d] = capture_dir(p, t, s, d, delta[d], 1));
    return out;
}

/* 13x13, three words: unrolled with constant shifts it was measured slower
 * (the body runs out of registers). */
static Bits capture_cells_13(const MoPos *p, int s, Bits by_dir[MO_DIRS])
{
    const MoTables *t = mo_tables(p);
    Bits out = {{0, 0, 0}};
    for (int d = 0; d < MO_DIRS; d++)
        out = bits_or(out, by_dir[d] = capture_dir(p, t, s, d, t->delta[d], 0));
    return out;
}
#endif

/* Out of line, as capture_classes_9 and _11 below. */
__attribute__((noinline)) static Bits capture_cells_9(const MoPos *p, int s, Bits by_dir[MO_DIRS])
{
    return capture_cells_small(p, 9, s, by_dir);
}

__attribute__((noinline)) static Bits capture_cells_11(const MoPos *p, int s, Bits by_dir[MO_DIRS])
{
    return capture_cells_small(p, 11, s, by_dir);
}

/* The empty cells (never the Throne) where a stone of side s landing
 * would capture: next to an adverse stone with an own stone beyond;
 * by_dir[d] the cells capturing in direction d (before the emptiness; with
 * AVX2 also cells off the board). */
Bits morelli_capture_targets(const MoPos *p, int s, const Bits *occ, Bits by_dir[MO_DIRS])
{
    const MoTables *t = mo_tables(p);
    Bits out = p->n == 9    ? capture_cells_9(p, s, by_dir)
               : p->n == 11 ? capture_cells_11(p, s, by_dir)
                            : capture_cells_13(p, s, by_dir);
    out = bits_andnot(bits_and(out, t->board), *occ);
    bits_clear(&out, t->centre);
    return out;
}

/* The capture cells of both sides counted by direction (the evaluation's
 * view, see MoCapClasses): the shifts of each direction serve both sides,
 * and the counts are kept bit-sliced (cells capturing at least 1 way, at
 * least 2) instead of one set a direction. */
#ifdef __AVX2__
__attribute__((always_inline)) static inline void capture_classes_small(const MoPos *p, int n,
                                                                        MoCapClasses *cc)
{
    __m256i c1, c2;
    capture_classes_halves(p, mo_tables(p), n, &c1, &c2);
    /* each set's two words stored as one vector: the evaluation reads
     * them so (two word stores read back as one vector stalled) */
    _mm_storeu_si128((__m128i *)cc->ge[0][0].w, _mm256_castsi256_si128(c1));
    _mm_storeu_si128((__m128i *)cc->ge[1][0].w, _mm256_extracti128_si256(c1, 1));
    _mm_storeu_si128((__m128i *)cc->ge[0][1].w, _mm256_castsi256_si128(c2));
    _mm_storeu_si128((__m128i *)cc->ge[1][1].w, _mm256_extracti128_si256(c2, 1));
    cc->ge[0][0].w[2] = cc->ge[1][0].w[2] = cc->ge[0][1].w[2] = cc->ge[1][1].w[2] = 0;
}

__attribute__((noinline)) static void capture_classes_13(const MoPos *p, MoCapClasses *cc)
{
    __m256i c1[2], c2[2];
    capture_classes_13_regs(p, mo_tables(p), c1, c2);
    for (int s = 0; s < 2; s++) {
        cc->ge[s][0] = bits_of_m256(c1[s]);
        cc->ge[s][1] = bits_of_m256(c2[s]);
    }
}
#else
/* Without AVX2: each side's cells by direction, counted. */
static void capture_classes_13(const MoPos *p, MoCapClasses *cc)
{
    Bits occ = mo_occupied(p);
    for (int s = 0; s < 2; s++) {
        Bits by_dir[MO_DIRS], g1 = {{0, 0, 0}}, g2 = g1;
        morelli_capture_targets(p, s, &occ, by_dir);
        for (int d = 0; d < MO_DIRS; d++) {
            g2 = bits_or(g2, bits_and(g1, by_dir[d]));
            g1 = bits_or(g1, by_dir[d]);
        }
        Bits fr = bits_andnot(mo_tables(p)->board, occ);
        bits_clear(&fr, mo_tables(p)->centre);
        cc->ge[s][0] = bits_and(g1, fr);
        cc->ge[s][1] = bits_and(g2, fr);
    }
}

static inline void capture_classes_small(const MoPos *p, int n, MoCapClasses *cc)
{
    (void)n;
    capture_classes_13(p, cc);
}
#endif

/* Kept out of line, each size on its own: inlined together into
 * morelli_capture_classes the three bodies shared a preamble (the 13x13
 * loads) that every size paid for. */
__attribute__((noinline)) static void capture_classes_9(const MoPos *p, MoCapClasses *cc)
{
    capture_classes_small(p, 9, cc);
}

__attribute__((noinline)) static void capture_classes_11(const MoPos *p, MoCapClasses *cc)
{
    capture_classes_small(p, 11, cc);
}

void morelli_capture_classes(const MoPos *p, MoCapClasses *cc)
{
    if (p->n == 9)
        capture_classes_9(p, cc);
    else if (p->n == 11)
        capture_classes_11(p, cc);
    else
        capture_classes_13(p, cc);
}

/* morelli_reach for a position whose line masks are kept (MoPos.lm): per
 * axis one read of the line mask gives, both ways, the cell just before the
 * first occupied one (`from` itself when that is the neighbour; the line's
 * last cell when nothing is in the way), and the landings are those of
 * land[from][d] not beyond it: no branch, no blocker bit to clear. */
static inline Bits reach_lines(const MoPos *p, const MoTables *t, int sz, int from)
{
    const uint16_t(*lray)[16] = morelli_lray[sz];
    const unsigned char *ray = (const unsigned char *)t->ray;
#ifdef __AVX2__
    /* a Bits read as 32 bytes: its 3 words and the next one's first,
     * dropped at the end (land and ray are followed by more tables) */
    __m256i out = _mm256_setzero_si256();
#else
    Bits out = {{0, 0, 0}};
#endif
    /* every axis, also one without landings (its land[from] rows are
     * empty): a test of land_dirs here was a branch the processor
     * mispredicted often */
    for (int ax = 0; ax < 4; ax++) {
        unsigned l = t->line[from][ax], q = t->lpos[from][ax], up, lo;
        mo_line_near(p->lm[l], q, &up, &lo);
        /* the rays of the cells pa, pb just before the first occupied
         * ones (morelli_lray: their rows of ray) */
        const unsigned char *pa = ray + lray[l][q + up - 1], *pb = ray + lray[l][lo + 1];
#ifdef __AVX2__
        __m256i ra = _mm256_andnot_si256(
            _mm256_loadu_si256((const __m256i *)(pa + ax * sizeof(Bits))),
            _mm256_loadu_si256((const __m256i *)t->land[from][ax].w));
        __m256i rb = _mm256_andnot_si256(
            _mm256_loadu_si256((const __m256i *)(pb + (ax + 4) * sizeof(Bits))),
            _mm256_loadu_si256((const __m256i *)t->land[from][ax + 4].w));
        out = _mm256_or_si256(out, _mm256_or_si256(ra, rb));
#else
        Bits cut_a, cut_b;
        memcpy(&cut_a, pa + ax * sizeof(Bits), sizeof cut_a);
        memcpy(&cut_b, pb + (ax + 4) * sizeof(Bits), sizeof cut_b);
        out = bits_or(out, bits_andnot(t->land[from][ax], cut_a));
        out = bits_or(out, bits_andnot(t->land[from][ax + 4], cut_b));
#endif
    }
#ifdef __AVX2__
    uint64_t o[4];
    _mm256_storeu_si256((__m256i *)o, out);
    return (Bits){{o[0], o[1], o[2]}};
#else
    return out;
#endif
}

/* The slides of the side to move: all of them, or (quiet_only) those
 * without captures and without enthronement. */
static int gen_slides(const MoPos *p, Move *moves, int quiet_only)
{
    const MoTables *t = mo_tables(p);
    const int s = p->stm;
    const int may_enthrone = p->throne != s + 1;
    const int classic = p->ruleset == RULESET_CLASSIC;
    Bits occ = mo_occupied(p);
    Bits own = p->stones[s];
    /* a landing without captures enthrones iff it fills a frame gap (the
     * stone leaves a band other than the landing's, so not that orbit) */
    Bits gaps = {{0, 0, 0}};
    if (may_enthrone)
        gaps = morelli_frame_gaps(p, s);
    /* landings that capture or fill a frame gap need a closer look; the
     * others are plain moves */
    Bits by_dir[MO_DIRS];
    Bits special = bits_or(morelli_capture_targets(p, s, &occ, by_dir), gaps);
    int n = 0;
    /* the stones of bands 0 and 1 have no landing */
    own = bits_andnot(own, bits_or(t->band_mask[0], t->band_mask[1]));
    while (bits_any(&own)) {
        int from = bits_pop(&own);
        Bits to_set = reach_lines(p, t, p->sz, from);
        Bits plain = bits_andnot(to_set, special);
        to_set = bits_and(to_set, special);
        const Move base = MO_MAKE(from, 0, 0);
        for (uint64_t x = plain.w[0]; x; x &= x - 1)
            moves[n++] = base | (Move)__builtin_ctzll(x);
        for (uint64_t x = plain.w[1]; x; x &= x - 1)
            moves[n++] = base | (Move)(64 + __builtin_ctzll(x));
        for (uint64_t x = plain.w[2]; x; x &= x - 1)
            moves[n++] = base | (Move)(128 + __builtin_ctzll(x));
        /* standard: every special landing captures or enthrones */
        if (quiet_only && !classic)
            continue;
        while (bits_any(&to_set)) {
            int to = bits_pop(&to_set);
            if (quiet_only) {
                /* standard: every special landing captures or enthrones;
                 * classic: the bare landing is the quiet one */
                if (classic)
                    moves[n++] = MO_MAKE(from, to, 0);
                continue;
            }
            unsigned all = 0;
            for (int d = 0; d < MO_DIRS; d++)
                all |= (unsigned)bits_test(&by_dir[d], to) << d;
            if (!classic) {
                Move m = MO_MAKE(from, to, all);
                if (all ? may_enthrone && morelli_completes_frame(p, s, from, to, all)
                        : bits_test(&gaps, to))
                    m |= MO_ENTHRONE;
                moves[n++] = m;
                continue;
            }
            /* classic: every subset of the captures, each with and
             * without the enthronement it allows */
            unsigned sub = 0;
            do {
                Move m = MO_MAKE(from, to, sub);
                moves[n++] = m;
                if (sub ? may_enthrone && morelli_completes_frame(p, s, from, to, sub)
                        : bits_test(&gaps, to))
                    moves[n++] = m | MO_ENTHRONE;
                sub = (sub - all) & all;
            } while (sub);
        }
    }
    return n;
}

int morelli_gen(const MoPos *p, Move *moves)
{
    return mo_placing(p) ? gen_placements(p, moves) : gen_slides(p, moves, 0);
}

/* The quiet moves of standard play on an n x n board past the placements
 * (gen_slides' quiet_only without the classic cases), one body per size:
 * the landings that neither capture nor fill a frame gap. */
__attribute__((always_inline)) static inline int gen_quiet_n(const MoPos *p, Move *moves,
                                                             const int n)
{
    const MoTables *t = &morelli_tables[(n - 9) / 2];
    const int small = n <= 11;
    const int s = p->stm;
    /* a landing without captures enthrones iff it fills a frame gap */
    Bits special = enthroning_gaps(p, s);
    /* the capture cells (only free cells matter: the landings are) */
#ifdef __AVX2__
    if (small) {
        __m256i c1, c2;
        capture_classes_halves(p, t, n, &c1, &c2);
        __m128i h = s ? _mm256_extracti128_si256(c1, 1) : _mm256_castsi256_si128(c1);
        special.w[0] |= (uint64_t)_mm_cvtsi128_si64(h);
        special.w[1] |= (uint64_t)_mm_extract_epi64(h, 1);
    } else
#endif
    {
        MoCapClasses cc;
        morelli_capture_classes(p, &cc);
        special = bits_or(special, cc.ge[s][0]);
    }
    int k = 0;
    /* the stones of bands 0 and 1 have no landing */
    Bits own = bits_andnot(p->stones[s], bits_or(t->band_mask[0], t->band_mask[1]));
    for (int wi = 0; wi < (small ? 2 : 3); wi++)
        for (uint64_t y = own.w[wi]; y; y &= y - 1) {
            const int from = 64 * wi + __builtin_ctzll(y);
            Bits plain = bits_andnot(reach_lines(p, t, (n - 9) / 2, from), special);
            const Move base = MO_MAKE(from, 0, 0);
            for (uint64_t x = plain.w[0]; x; x &= x - 1)
                moves[k++] = base | (Move)__builtin_ctzll(x);
            for (uint64_t x = plain.w[1]; x; x &= x - 1)
                moves[k++] = base | (Move)(64 + __builtin_ctzll(x));
            if (!small)
                for (uint64_t x = plain.w[2]; x; x &= x - 1)
                    moves[k++] = base | (Move)(128 + __builtin_ctzll(x));
        }
    return k;
}

__attribute__((noinline)) static int gen_quiet_9(const MoPos *p, Move *moves)
{
    return gen_quiet_n(p, moves, 9);
}

__attribute__((noinline)) static int gen_quiet_11(const MoPos *p, Move *moves)
{
    return gen_quiet_n(p, moves, 11);
}

__attribute__((noinline)) static int gen_quiet_13(const MoPos *p, Move *moves)
{
    return gen_quiet_n(p, moves, 13);
}

int morelli_gen_quiet(const MoPos *p, Move *moves)
{
    if (mo_placing(p))
        return gen_placements(p, moves);
    if (p->ruleset == RULESET_CLASSIC)
        return gen_slides(p, moves, 1);
    return p->n == 9    ? gen_quiet_9(p, moves)
           : p->n == 11 ? gen_quiet_11(p, moves)
                        : gen_quiet_13(p, moves);
}

/*
 * A true bound on the legal moves of any position (see MORELLI_MAX_MOVES in
 * internal.h) is large for classic; the count of standard moves needs no list.
 */
int morelli_count(const MoPos *p)
{
    if (mo_placing(p)) {
        const MoTables *t = mo_tables(p);
        Bits empty = bits_andnot(t->ring_mask, bits_or(p->stones[0], p->stones[1]));
        return bits_count(&empty);
    }
    if (p->ruleset == RULESET_CLASSIC) {
        Move *moves = malloc(sizeof(Move) * MORELLI_MAX_MOVES);
        if (!moves)
            return 0;
        int n = morelli_gen(p, moves);
        free(moves);
        return n;
    }
    const MoTables *t = mo_tables(p);
    Bits occ = mo_occupied(p);
    Bits own = p->stones[p->stm];
    int n = 0;
    while (bits_any(&own)) {
        int from = bits_pop(&own);
        if (t->band[from] < 2)
            continue;
        Bits r = morelli_reach(t, &occ, from);
        n += bits_count(&r);
    }
    return n;
}

/* A landing is a move in either ruleset: the landing count says it. */
int mo_has_move(const MoPos *p)
{
    return mo_placing(p) || p->c.mob[p->stm] > 0;
}
