/*
 * captures.h -- what the evaluation (eval.c) and the move generator
 * (gen.c) share beyond morelli.h, and a table tables.c fills for the
 * generator (morelli_lray); private to this folder.
 *
 * The capture cells of both colours by direction shifts (AVX2): up to
 * 11x11 Black in the low 128-bit half of a register, White in the high one
 * (cells below 128), so that each shift serves both colours; on 13x13 a
 * colour a register.  The capture directions at one cell gathered by pext
 * from 64-bit windows of the stones around it (BMI2).
 *
 * The noisy note (MoNoisyNote of morelli.h).  The search evaluates most
 * nodes just before it asks for their noisy moves (the quiescence search's
 * stand-pat, the main search's pruning), and the evaluation has by then
 * found the mover's capture cells and whether a stone of the mover
 * reaches one of them or a frame gap.  An evaluation asked for a note
 * (morelli_evaluate_noted) writes them there; morelli_gen_noisy, handed
 * that note for the same position, returns at once when the mover has no
 * noisy move and otherwise starts from the noted capture cells.  The note
 * is the caller's (the search keeps one per thread).
 */
#ifndef MORELLI_CAPTURES_H
#define MORELLI_CAPTURES_H

#include <stddef.h>

#include "morelli.h"

#if defined __AVX2__ || defined __BMI2__
#include <immintrin.h>
#endif

#ifdef __AVX2__

/* Each 128-bit half of x moved k cells down the index (k > 0) or up
 * (k < 0), 0 < |k| < 64. */
__attribute__((always_inline)) static inline __m256i shift_halves(__m256i x, int k)
{
    /* whole bytes: one byte shift of each half */
    if (k == 8)
        return _mm256_srli_si256(x, 1);
    if (k == 16)
        return _mm256_srli_si256(x, 2);
    if (k == -8)
        return _mm256_slli_si256(x, 1);
    if (k == -16)
        return _mm256_slli_si256(x, 2);
    if (k > 0)
        return _mm256_or_si256(_mm256_srli_epi64(x, k),
                               _mm256_srli_si256(_mm256_slli_epi64(x, 64 - k), 8));
    return _mm256_or_si256(_mm256_slli_epi64(x, -k),
                           _mm256_slli_si256(_mm256_srli_epi64(x, 64 + k), 8));
}

/* Both colours of p, Black low, White high (boards up to 11x11): two
 * vector loads (built from four words, the register was at times stored
 * word by word and read back whole, a load that stalls). */
static inline __m256i colour_halves(const MoPos *p)
{
    return _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)p->stones[0].w)),
        _mm_loadu_si128((const __m128i *)p->stones[1].w), 1);
}

/* Both colours (boards up to 11x11) as the captures of each direction
 * read them: bw from colour_halves, wb the same with its halves swapped
 * (the other colour), and bw kept only where a stone two steps beyond a
 * capture cell leaves that cell on its row: eastward (E, NE, SE) file >= 2
 * (cap_from[W]), westward (W, NW, SW) file <= n - 3 (cap_from[E]).  Up or
 * down a line leaves the board only off its ends, where the sets are 0. */
typedef struct CapSrc {
    __m256i bw, wb, east, west;
} CapSrc;

__attribute__((always_inline)) static inline CapSrc cap_src(const MoPos *p, const MoTables *t)
{
    CapSrc cs;
    cs.bw = colour_halves(p);
    cs.wb = _mm256_permute4x64_epi64(cs.bw, 0x4E);
    cs.east = _mm256_and_si256(
        cs.bw, _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)t->cap_from[4].w)));
    cs.west = _mm256_and_si256(
        cs.bw, _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)t->cap_from[0].w)));
    return cs;
}

/* The capture cells of direction d, step k, of both colours: Black's in
 * the low half, White's in the high half.  First the other colour's stones
 * with one of the colour's k beyond (y), then those cells moved k back:
 * the colour's captures at c take c + k with c + 2k its own (kept on the
 * row of c, CapSrc).  Cells off the board may remain (they are not free
 * cells). */
__attribute__((always_inline)) static inline __m256i capture_halves(const CapSrc *cs, int d, int k)
{
    const __m256i own = d == 0 || d == 1 || d == 7   ? cs->east
                        : d == 3 || d == 4 || d == 5 ? cs->west
                                                     : cs->bw;
    return shift_halves(_mm256_and_si256(cs->wb, shift_halves(own, k)), k);
}

/* The capture classes of both colours (boards up to 11x11, n the size):
 * *c1 the free cells (never the Throne) where a landing captures at least
 * one stone, *c2 at least two, Black's in the low half, White's in the
 * high half (MoCapClasses.ge[s][0] and [1]).  The counts are kept
 * bit-sliced, the shifts of each direction serve both colours. */
__attribute__((always_inline)) static inline void capture_classes_halves(const MoPos *p,
                                                                         const MoTables *t, int n,
                                                                         __m256i *c1, __m256i *c2)
{
    const int delta[MO_DIRS] = {1, n + 1, n, n - 1, -1, -n - 1, -n, 1 - n};
    const CapSrc cs = cap_src(p, t);
    const __m256i bw = cs.bw;
    __m256i g1 = _mm256_setzero_si256(), g2 = g1;
#pragma GCC unroll 8
    for (int d = 0; d < MO_DIRS; d++) {
        __m256i c = capture_halves(&cs, d, delta[d]);
        g2 = _mm256_or_si256(g2, _mm256_and_si256(g1, c));
        g1 = _mm256_or_si256(g1, c);
    }
    /* the free cells but the Throne, from both colours' halves and the
     * tables (a set cleared in memory word by word and read back as a
     * vector stalled the load: the store cannot be forwarded) */
    __m128i occ = _mm_or_si128(_mm256_castsi256_si128(bw), _mm256_extracti128_si256(bw, 1));
    __m128i not_free = _mm_or_si128(occ, _mm_loadu_si128((const __m128i *)t->throne.w));
    __m256i free_cells = _mm256_broadcastsi128_si256(
        _mm_andnot_si128(not_free, _mm_loadu_si128((const __m128i *)t->board.w)));
    *c1 = _mm256_and_si256(g1, free_cells);
    *c2 = _mm256_and_si256(g2, free_cells);
}
/* A 256-bit set (three words used) moved k cells down (k > 0) or up. */
__attribute__((always_inline)) static inline __m256i shift256(__m256i x, int k)
{
    if (k > 0) /* lane i takes the high bits of lane i + 1 (lane 3 is 0) */
        return _mm256_or_si256(_mm256_srli_epi64(x, k),
                               _mm256_permute4x64_epi64(_mm256_slli_epi64(x, 64 - k), 0xF9));
    /* lane i takes the low bits of lane i - 1, lane 0 nothing */
    __m256i up = _mm256_permute4x64_epi64(_mm256_srli_epi64(x, 64 + k), 0x90);
    return _mm256_or_si256(_mm256_slli_epi64(x, -k),
                           _mm256_blend_epi32(up, _mm256_setzero_si256(), 0x03));
}

/* The three words of b, the fourth lane 0. */
static inline __m256i m256_of(const Bits *b)
{
    return _mm256_maskload_epi64((const long long *)b->w, _mm256_set_epi64x(0, -1, -1, -1));
}

static inline Bits bits_of_m256(__m256i x)
{
    uint64_t o[4];
    _mm256_storeu_si256((__m256i *)o, x);
    return (Bits){{o[0], o[1], o[2]}};
}

/* A colour's stones on 13x13 (m256_of) as the captures of each direction
 * read them (see CapSrc): as they are, and kept where a stone two steps
 * beyond a capture cell eastward or westward leaves that cell on its row.
 * The masks read as 32 bytes (the next set's first word in the fourth
 * lane: the stones have it 0). */
typedef struct CapSrc13 {
    __m256i all, east, west;
} CapSrc13;

__attribute__((always_inline)) static inline CapSrc13 cap_src13(const MoTables *t, __m256i own)
{
    CapSrc13 cs = {own,
                   _mm256_and_si256(own, _mm256_loadu_si256((const __m256i *)t->cap_from[4].w)),
                   _mm256_and_si256(own, _mm256_loadu_si256((const __m256i *)t->cap_from[0].w))};
    return cs;
}

/* The cells of side s (own as cap_src13 of its stones, opp the other
 * side's stones as m256_of) capturing in direction d, step k, on 13x13
 * (cells off the board may remain: they are not free cells). */
__attribute__((always_inline)) static inline __m256i capture_dir13(const CapSrc13 *own, __m256i opp,
                                                                   int d, int k)
{
    const __m256i o = d == 0 || d == 1 || d == 7   ? own->east
                      : d == 3 || d == 4 || d == 5 ? own->west
                                                   : own->all;
    return _mm256_and_si256(shift256(opp, k), shift256(o, 2 * k));
}

/* The capture classes of both colours on 13x13 (as capture_classes_halves,
 * a colour a register: c1[s], c2[s] the free cells where a landing of side
 * s captures at least one stone, at least two; the fourth lanes 0). */
__attribute__((always_inline)) static inline void capture_classes_13_regs(const MoPos *p,
                                                                          const MoTables *t,
                                                                          __m256i c1[2],
                                                                          __m256i c2[2])
{
    const int n = 13, delta[MO_DIRS] = {1, n + 1, n, n - 1, -1, -n - 1, -n, 1 - n};
    const __m256i bl = m256_of(&p->stones[0]), wh = m256_of(&p->stones[1]);
    const CapSrc13 bs = cap_src13(t, bl), ws = cap_src13(t, wh);
    __m256i b1 = _mm256_setzero_si256(), b2 = b1, w1 = b1, w2 = b1;
#pragma GCC unroll 8
    for (int d = 0; d < MO_DIRS; d++) {
        __m256i cb = capture_dir13(&bs, wh, d, delta[d]);
        __m256i cw = capture_dir13(&ws, bl, d, delta[d]);
        b2 = _mm256_or_si256(b2, _mm256_and_si256(b1, cb));
        b1 = _mm256_or_si256(b1, cb);
        w2 = _mm256_or_si256(w2, _mm256_and_si256(w1, cw));
        w1 = _mm256_or_si256(w1, cw);
    }
    /* the free cells but the Throne, in registers (see above) */
    __m256i free_cells = _mm256_andnot_si256(
        _mm256_or_si256(_mm256_or_si256(bl, wh), m256_of(&t->throne)), m256_of(&t->board));
    c1[0] = _mm256_and_si256(b1, free_cells);
    c2[0] = _mm256_and_si256(b2, free_cells);
    c1[1] = _mm256_and_si256(w1, free_cells);
    c2[1] = _mm256_and_si256(w2, free_cells);
}
#endif

#ifdef __BMI2__
/* The capture directions at a cell, from 64-bit windows of the stones:
 * bit k of a window is the cell to - 2n - 2 + k, so a cell's 8 neighbours
 * and the 8 cells two steps away all fall within it (at most 4n + 5 = 57
 * bits).  pext gathers them in the order of their index offsets: -n-1,
 * -n, 1-n, -1, 1, n-1, n, n+1, the directions 5, 6, 7, 4, 0, 3, 2, 1. */
typedef struct CapWin {
    uint64_t own[5], opp[5]; /* the stones' words with a 0 word either side */
} CapWin;

/* bit j of a pext result (the order above) -> its direction's bit (gen.c) */
extern const uint8_t mo_capw_dirs[256];

/* words: the board's words (2 up to 11x11, else 3) */
__attribute__((always_inline)) static inline void capwin_init(CapWin *cw, const MoPos *p, int s,
                                                              int words)
{
    cw->own[0] = cw->opp[0] = 0;
    for (int k = 0; k < words; k++) {
        cw->own[k + 1] = p->stones[s].w[k];
        cw->opp[k + 1] = p->stones[s ^ 1].w[k];
    }
    cw->own[words + 1] = cw->opp[words + 1] = 0;
}

/* The 64 cells from cell pos on (pos >= -64) of the words b (CapWin). */
__attribute__((always_inline)) static inline uint64_t capwin_at(const uint64_t b[5], int pos)
{
    unsigned i = (unsigned)((pos >> 6) + 1), r = (unsigned)pos & 63u;
    return (b[i] >> r) | ((b[i + 1] << 1) << (63 - r));
}

/* The directions in which a stone of the side landing on the empty cell
 * `to` of an n x n board captures (morelli_captures).  The stones' words
 * are 0 off the board (both ends padded), so only a wrap past a file edge
 * needs the file. */
__attribute__((always_inline)) static inline unsigned capwin_dirs(const CapWin *cw,
                                                                  const MoTables *t, int n, int to)
{
    /* offsets -n-1 .. n+1 from 2n + 2, and twice them */
    const uint64_t m1 = (7ull << (n + 1)) | (5ull << (2 * n + 1)) | (7ull << (3 * n + 1));
    const uint64_t m2 = 0x15ull | (0x11ull << (2 * n)) | (0x15ull << (4 * n));
    const int pos = to - (2 * n + 2), f = t->file[to];
    uint64_t nb = _pext_u64(capwin_at(cw->opp, pos), m1);
    uint64_t bey = _pext_u64(capwin_at(cw->own, pos), m2);
    /* westward directions (SW, W, NW: bits 0, 3, 5) need file >= 2,
     * eastward (SE, E, NE: bits 2, 4, 7) file <= n - 3 */
    unsigned ok = 0x42u | (f >= 2 ? 0x29u : 0u) | (f <= n - 3 ? 0x94u : 0u);
    return mo_capw_dirs[nb & bey & ok];
}
#endif

/* morelli_lray[sz][l][k]: the byte offset of the row of MoTables.ray of
 * the cell lcell[l][k] (tables.c), so that a landing set's cut is read with
 * one add. */
extern uint16_t morelli_lray[3][MO_LINES][16];

/* The frame gaps of the side s to move when it may enthrone (its king is
 * not on the Throne), none else: no call when it has no orbit of 3. */
static inline Bits enthroning_gaps(const MoPos *p, int s)
{
    Bits gaps = {{0, 0, 0}};
    if (p->throne != s + 1 && p->c.f3[s])
        gaps = morelli_frame_gaps(p, s);
    return gaps;
}

enum { MO_NOTE_NONE, MO_NOTE_QUIET, MO_NOTE_CELLS };

_Static_assert(offsetof(MoPos, c) == MO_NOTE_HEAD, "the head ends before the counts");

/* The evaluation's note on p (past the placements) into q: quiet when no
 * stone of the mover reaches a capture cell or a frame gap, else the
 * capture cells (read as 32 bytes: ge[stm][0] and the first word after
 * it, unused). */
static inline void mo_noisy_note(MoNoisyNote *q, const MoPos *p, const Bits *cells, int quiet)
{
#ifdef __AVX2__
    _mm256_storeu_si256((__m256i *)q->head, _mm256_loadu_si256((const __m256i *)p));
    _mm256_storeu_si256((__m256i *)(q->head + 32),
                        _mm256_loadu_si256((const __m256i *)((const unsigned char *)p + 32)));
    _mm256_storeu_si256((__m256i *)q->cells, _mm256_loadu_si256((const __m256i *)cells->w));
#else
    memcpy(q->head, p, MO_NOTE_HEAD);
    memcpy(q->cells, cells->w, sizeof cells->w);
#endif
    q->state = quiet ? MO_NOTE_QUIET : MO_NOTE_CELLS;
}

#ifdef __AVX2__
/* The same with the capture cells in a register (words 0..2). */
static inline void mo_noisy_note_vec(MoNoisyNote *q, const MoPos *p, __m256i cells, int quiet)
{
    _mm256_storeu_si256((__m256i *)q->head, _mm256_loadu_si256((const __m256i *)p));
    _mm256_storeu_si256((__m256i *)(q->head + 32),
                        _mm256_loadu_si256((const __m256i *)((const unsigned char *)p + 32)));
    _mm256_storeu_si256((__m256i *)q->cells, cells);
    q->state = quiet ? MO_NOTE_QUIET : MO_NOTE_CELLS;
}
#endif

/* q's state when q is a note of p, else MO_NOTE_NONE (q may be NULL). */
static inline int mo_noisy_recall(const MoNoisyNote *q, const MoPos *p)
{
    if (!q)
        return MO_NOTE_NONE;
#ifdef __AVX2__
    __m256i a = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)q->head),
                                 _mm256_loadu_si256((const __m256i *)p));
    __m256i b = _mm256_xor_si256(
        _mm256_loadu_si256((const __m256i *)(q->head + 32)),
        _mm256_loadu_si256((const __m256i *)((const unsigned char *)p + 32)));
    if (!_mm256_testz_si256(_mm256_or_si256(a, b), _mm256_or_si256(a, b)))
        return MO_NOTE_NONE;
#else
    if (memcmp(q->head, p, MO_NOTE_HEAD) != 0)
        return MO_NOTE_NONE;
#endif
    return q->state;
}

#endif
