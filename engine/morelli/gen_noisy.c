/*
 * gen_noisy.c -- Morelli's noisy moves alone (captures, enthronements),
 * generated target by target for the quiescence search and the staged
 * picker, and the legality of a single move (a table move tried before
 * anything is generated).  The full move list is gen.c's.
 */
#include "internal.h"
#include "captures.h"

#if defined __AVX2__ || defined __BMI2__
#include <immintrin.h>
#endif

/* The cell c added to the set of words w (in registers: a set built in
 * memory word by word and read back as a vector stalls the load, the
 * stores cannot be forwarded to it); small: c is below 128. */
__attribute__((always_inline)) static inline void words_set(uint64_t w[3], int c, int small)
{
    uint64_t bit = (uint64_t)1 << (c & 63);
    unsigned k = (unsigned)c >> 6;
    w[0] |= k == 0 ? bit : 0;
    w[1] |= k == 1 ? bit : 0;
    if (!small)
        w[2] |= k == 2 ? bit : 0;
}

/* The stones of side s that can land on `to`, by the line masks (a
 * nearest cell on a band above `to`'s is a stone: its colour byte tells
 * whose); small: a board up to 11x11 (cells below 128, the third word 0). */
__attribute__((always_inline)) static inline Bits movers_lines(const MoPos *p, const MoTables *t,
                                                               int s, int to, int small)
{
    const int bt = t->band[to];
    const int8_t col = (int8_t)-s;
    uint64_t w[3] = {0, 0, 0};
    for (int ax = 0; ax < 4; ax++) {
        int a, ka, b, kb;
        mo_first_both(p, t, to, ax, &a, &ka, &b, &kb);
        if (t->band[a] > bt && p->white[a] == col)
            words_set(w, a, small);
        if (t->band[b] > bt && p->white[b] == col)
            words_set(w, b, small);
    }
    return (Bits){{w[0], w[1], small ? 0 : w[2]}};
}

/* The same by the rays and occ, for positions whose line masks are not
 * kept (the playouts of playout.c change only the stones). */
Bits morelli_movers_to(const MoPos *p, int s, const Bits *occ, int to)
{
    const MoTables *t = mo_tables(p);
    Bits out = {{0, 0, 0}};
    for (int d = 0; d < MO_DIRS; d++) {
        Bits blk = bits_and(t->ray[to][d], *occ);
        if (!bits_any(&blk))
            continue;
        int b = d < 4 ? bits_lowest(&blk) : bits_highest(&blk);
        if (t->band[b] > t->band[to] && bits_test(&p->stones[s], b))
            bits_set(&out, b);
    }
    return out;
}

/* Appends the moves from -> to of side s that are noisy (standard: the one
 * move when it captures or enthrones; classic: every capture subset with
 * and without the enthronement it allows, and the bare enthronement).
 * may_frame: captures at `to` may complete a frame (0: none does). */
static int noisy_landing(const MoPos *p, int s, int from, int to, unsigned all, int gap,
                         int may_frame, Move *moves)
{
    int n = 0;
    if (p->ruleset != RULESET_CLASSIC) {
        Move m = MO_MAKE(from, to, all);
        if (all ? may_frame && morelli_completes_frame(p, s, from, to, all) : gap)
            m |= MO_ENTHRONE;
        if (m != MO_MAKE(from, to, 0))
            moves[n++] = m;
        return n;
    }
    unsigned sub = 0;
    do {
        Move m = MO_MAKE(from, to, sub);
        if (sub)
            moves[n++] = m;
        if (sub ? may_frame && morelli_completes_frame(p, s, from, to, sub) : gap)
            moves[n++] = m | MO_ENTHRONE;
        sub = (sub - all) & all;
    } while (sub);
    return n;
}

/* Can a capture at `to` (directions caps) complete a frame at all: is the
 * orbit of `to` or of a captured stone full but for `to`?  A frame is an
 * orbit all the mover's after the move, and the move fills only `to`
 * (never the Throne).  By the MoPos.orb counts (both colours, any orbit):
 * 0 rules out what morelli_completes_frame would look at. */
static inline int frame_possible(const MoPos *p, const MoTables *t, int to, unsigned caps)
{
    unsigned b = p->orb[t->orbit_id[to]];
    int full = (b & 7u) + ((b >> 3) & 7u) == 3;
    for (; caps; caps &= caps - 1) {
        b = p->orb[t->orbit_id[to + t->delta[__builtin_ctz(caps)]]];
        full |= (b & 7u) + ((b >> 3) & 7u) == 4;
    }
    return full;
}

#ifdef __BMI2__
/* bit j of a pext result (the order above) -> its direction's bit */
#define CAPW_DIR(x)                                                                   \
    ((((x)&7u) << 5) | (((x)&8u) << 1) | (((x) >> 4) & 1u) | (((x) >> 5 & 1u) << 3) | \
     (((x) >> 6 & 1u) << 2) | (((x) >> 7 & 1u) << 1))
#define CAPW4(x) CAPW_DIR(x), CAPW_DIR((x) + 1), CAPW_DIR((x) + 2), CAPW_DIR((x) + 3)
#define CAPW16(x) CAPW4(x), CAPW4((x) + 4), CAPW4((x) + 8), CAPW4((x) + 12)
#define CAPW64(x) CAPW16(x), CAPW16((x) + 16), CAPW16((x) + 32), CAPW16((x) + 48)
const uint8_t mo_capw_dirs[256] = {CAPW64(0u), CAPW64(64u), CAPW64(128u), CAPW64(192u)};

#endif

/* The noisy moves of the side s to move landing on the target `to` (a
 * capture cell or a frame gap, see morelli_gen_noisy) from the stones of
 * `from`, in index order; the count. */
__attribute__((always_inline)) static inline int noisy_target(const MoPos *p, const MoTables *t,
                                                              int s, int to, unsigned all, int gap,
                                                              Bits from, Move *moves)
{
    /* a capture here completes a frame for no mover unless it does with
     * every stone of the side kept (the mover's leaving aside): looked at
     * once for the target */
    int may_frame = p->throne != s + 1 && all && frame_possible(p, t, to, all) &&
                    morelli_completes_frame(p, s, to, to, all);
    int n = 0;
    if (p->ruleset != RULESET_CLASSIC && !may_frame) {
        /* standard, no frame: one move a stone, the same but for `from`
         * (a target without captures is a gap: the move enthrones) */
        if (!all && !gap)
            return 0;
        const Move base = MO_MAKE(0, to, all) | (all ? 0 : MO_ENTHRONE);
        for (int k = 0; k < 3; k++)
            for (uint64_t x = from.w[k]; x; x &= x - 1)
                moves[n++] = base | (Move)(64 * k + __builtin_ctzll(x)) << 8;
        return n;
    }
    while (bits_any(&from))
        n += noisy_landing(p, s, bits_pop(&from), to, all, gap, may_frame, moves + n);
    return n;
}

/* morelli_gen_noisy of an n x n board past the placements (note: p's
 * note with its capture cells, or NULL), one body per size. */
__attribute__((always_inline)) static inline int gen_noisy_n(const MoPos *p, Move *moves,
                                                             const MoNoisyNote *note, const int n)
{
    const MoTables *t = &morelli_tables[(n - 9) / 2];
    const int small = n <= 11;
    const int s = p->stm;
    Bits gaps = enthroning_gaps(p, s);
    Bits targets;
    if (note) {
        targets = (Bits){{note->cells[0], note->cells[1], small ? 0 : note->cells[2]}};
    } else {
        MoCapClasses cc;
        morelli_capture_classes(p, &cc);
        targets = cc.ge[s][0];
        if (small)
            targets.w[2] = 0;
    }
    targets = bits_or(targets, gaps);
#ifdef __BMI2__
    CapWin cw;
    capwin_init(&cw, p, s, small ? 2 : 3);
#endif
    int k = 0;
    for (int wi = 0; wi < (small ? 2 : 3); wi++)
        for (uint64_t x = targets.w[wi]; x; x &= x - 1) {
            const int to = 64 * wi + __builtin_ctzll(x);
            /* the movers first: most targets have none */
            Bits from = movers_lines(p, t, s, to, small);
            if (!bits_any(&from))
                continue;
#ifdef __BMI2__
            unsigned all = capwin_dirs(&cw, t, n, to);
#else
            unsigned all = morelli_captures(p, s, to);
#endif
            k += noisy_target(p, t, s, to, all, bits_test(&gaps, to), from, moves + k);
        }
    return k;
}

__attribute__((noinline)) static int gen_noisy_9(const MoPos *p, Move *moves,
                                                 const MoNoisyNote *note)
{
    return gen_noisy_n(p, moves, note, 9);
}

__attribute__((noinline)) static int gen_noisy_11(const MoPos *p, Move *moves,
                                                  const MoNoisyNote *note)
{
    return gen_noisy_n(p, moves, note, 11);
}

__attribute__((noinline)) static int gen_noisy_13(const MoPos *p, Move *moves,
                                                  const MoNoisyNote *note)
{
    return gen_noisy_n(p, moves, note, 13);
}

int morelli_gen_noisy(const MoPos *p, Move *moves, const MoNoisyNote *note)
{
    if (mo_placing(p))
        return 0;
    const int state = mo_noisy_recall(note, p);
    if (state == MO_NOTE_QUIET)
        return 0;
    if (state != MO_NOTE_CELLS)
        note = NULL;
    return p->n == 9    ? gen_noisy_9(p, moves, note)
           : p->n == 11 ? gen_noisy_11(p, moves, note)
                        : gen_noisy_13(p, moves, note);
}

/* Is m a legal move of p?  (Any 32-bit value: the search asks it of a
 * transposition-table move before generating anything.) */
int morelli_move_legal(const MoPos *p, Move m)
{
    const MoTables *t = mo_tables(p);
    const int s = p->stm;
    int to = MO_TO(m);
    if (to >= t->cells)
        return 0;
    if (mo_placing(p)) {
        Bits occ = mo_occupied(p);
        return (m & ~(Move)0xFFu) == MO_PLACE && bits_test(&t->ring_mask, to) &&
               !bits_test(&occ, to);
    }
    if (m & ~(MO_ENTHRONE | 0xFFFFFFu))
        return 0;
    int from = MO_FROM(m);
    if (from >= t->cells || !bits_test(&p->stones[s], from) || t->band[from] < 2 ||
        t->band[to] >= t->band[from] || to == t->centre)
        return 0;
    /* a landing (a band nearer the Throne, not the Throne): on one line
     * with from, nearer than the first occupied cell that way */
    int df = t->file[to] - t->file[from], dr = t->rank[to] - t->rank[from];
    int ax = dr == 0 ? 0 : df == dr ? 1 : df == 0 ? 2 : df == -dr ? 3 : -1;
    if (ax < 0)
        return 0;
    int a, ka, b, kb, k = t->lpos[to][ax] - t->lpos[from][ax];
    mo_first_both(p, t, from, ax, &a, &ka, &b, &kb);
    if (k > 0 ? k >= ka : -k >= kb)
        return 0;
    unsigned all = morelli_captures(p, s, to), caps = MO_CAPS(m);
    if (p->ruleset == RULESET_CLASSIC ? (caps & ~all) != 0 : caps != all)
        return 0;
    int en = 0;
    if (p->throne != s + 1) {
        if (caps)
            en = frame_possible(p, t, to, caps) && morelli_completes_frame(p, s, from, to, caps);
        else if (p->c.f3[s]) {
            Bits gaps = morelli_frame_gaps(p, s);
            en = bits_test(&gaps, to);
        }
    }
    if (m & MO_ENTHRONE)
        return en;
    return p->ruleset == RULESET_CLASSIC || !en;
}
