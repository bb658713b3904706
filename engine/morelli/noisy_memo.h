/*
 * noisy_memo.h -- what the evaluation hands to the noisy move generator of
 * the same position (eval.c writes, gen.c reads; private to this folder).
 *
 * The search evaluates most nodes just before it asks for their noisy
 * moves (the quiescence search's stand-pat, the main search's pruning),
 * and the evaluation has by then found the mover's capture cells and
 * whether a stone of the mover reaches one of them or a frame gap.  Each
 * evaluation past the placements notes them here, with the parts of the
 * position they depend on (stones, Throne, side to move, board size: a
 * copy, not the key, so the memo is exact); morelli_gen_noisy, asked for
 * the same position, returns at once when the mover has no noisy move and
 * otherwise starts from the noted capture cells.  One memo per thread.
 */
#ifndef MORELLI_NOISY_MEMO_H
#define MORELLI_NOISY_MEMO_H

#include "morelli.h"

#include <stddef.h>
#ifdef __AVX2__
#include <immintrin.h>
#endif

enum { MO_MEMO_NONE, MO_MEMO_QUIET, MO_MEMO_CELLS };

/* The position's first 64 bytes: the stones, the key, the board size, the
 * side to move, the Throne, the ruleset, the pairs flag, the stone count
 * and the ring (more than the memo depends on, never less). */
#define MO_MEMO_HEAD 64
_Static_assert(offsetof(MoPos, c) == MO_MEMO_HEAD, "the head ends before the counts");

typedef struct MoNoisyMemo {
    unsigned char head[MO_MEMO_HEAD];
    uint64_t cells[4]; /* the mover's capture cells (MoCapClasses.ge[stm][0]) in
                        * words 0..2 */
    uint8_t state;     /* MO_MEMO_QUIET: no noisy move; MO_MEMO_CELLS: cells */
} MoNoisyMemo;

extern _Thread_local MoNoisyMemo mo_noisy_memo;

/* The evaluation's note on p (past the placements): quiet when no stone of
 * the mover reaches a capture cell or a frame gap, else the capture cells
 * (read as 32 bytes: ge[stm][0] and the first word after it, unused). */
static inline void mo_noisy_note(const MoPos *p, const Bits *cells, int quiet)
{
    MoNoisyMemo *q = &mo_noisy_memo;
#ifdef __AVX2__
    _mm256_storeu_si256((__m256i *)q->head, _mm256_loadu_si256((const __m256i *)p));
    _mm256_storeu_si256((__m256i *)(q->head + 32),
                        _mm256_loadu_si256((const __m256i *)((const unsigned char *)p + 32)));
    _mm256_storeu_si256((__m256i *)q->cells, _mm256_loadu_si256((const __m256i *)cells->w));
#else
    memcpy(q->head, p, MO_MEMO_HEAD);
    memcpy(q->cells, cells->w, sizeof cells->w);
#endif
    q->state = quiet ? MO_MEMO_QUIET : MO_MEMO_CELLS;
}

/* The memo's state when it is p's, else MO_MEMO_NONE. */
static inline int mo_noisy_recall(const MoPos *p)
{
    const MoNoisyMemo *q = &mo_noisy_memo;
#ifdef __AVX2__
    __m256i a = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)q->head),
                                 _mm256_loadu_si256((const __m256i *)p));
    __m256i b =
        _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(q->head + 32)),
                         _mm256_loadu_si256((const __m256i *)((const unsigned char *)p + 32)));
    if (!_mm256_testz_si256(_mm256_or_si256(a, b), _mm256_or_si256(a, b)))
        return MO_MEMO_NONE;
#else
    if (memcmp(q->head, p, MO_MEMO_HEAD) != 0)
        return MO_MEMO_NONE;
#endif
    return q->state;
}

#endif
