/*
 * playout.c -- the playout policies of MCTS.  morelli_playout_move picks
 * from the full move list (MCTSPolicy=full without the light step); the
 * light step, morelli_playout_step, chooses one move of the side to move
 * without generating the move list.  Most of the time the
 * noisy moves alone (morelli_gen_noisy: enthronements first, else the
 * moves that capture most) are looked at; otherwise, and when there is no
 * noisy move, a random stone that can move and then a random landing cell
 * of it (the move as the rules make it: all its captures in standard,
 * its enthronement when it completes a frame).  The placement phase picks
 * a random empty cell of the outer ring.
 */
#include "internal.h"

/* The k-th (from 0) set bit of a set with more than k bits. */
static int bits_nth(Bits b, int k)
{
    for (int w = 0; w < 3; w++) {
        int c = __builtin_popcountll(b.w[w]);
        if (k < c) {
            uint64_t x = b.w[w];
            while (k-- > 0)
                x &= x - 1;
            return w * 64 + __builtin_ctzll(x);
        }
        k -= c;
    }
    return -1;
}

/*
 * One pass over moves[0..n) (placements end it): a random enthroning move
 * into *en and a random one of the moves that capture most into *cap
 * (reservoir sampling, one draw per candidate; a move that captures
 * nothing is a candidate only when zero_ok).  Either may stay MOVE_NONE.
 */
static void pick_noisy(const Move *moves, int n, int zero_ok, uint64_t *rng, Move *en,
                       Move *cap)
{
    int n_en = 0, n_best = 0, best = 0;
    *en = *cap = MOVE_NONE;
    for (int i = 0; i < n; i++) {
        Move m = moves[i];
        if (m & MO_PLACE)
            break; /* placements: all alike */
        if (m & MO_ENTHRONE) {
            if (rng_below(rng, (uint32_t)++n_en) == 0)
                *en = m;
            continue;
        }
        int k = __builtin_popcount(MO_CAPS(m));
        if ((k == 0 && !zero_ok) || k < best)
            continue;
        if (k > best) {
            best = k;
            n_best = 0;
        }
        if (rng_below(rng, (uint32_t)++n_best) == 0)
            *cap = m;
    }
}

/*
 * Playout policy over the full list: an enthroning move if there is one
 * (most of the time), else often one of the moves that capture most, else
 * a uniformly random move.
 */
Move morelli_playout_move(const void *pos, const Move *moves, int n, uint64_t *rng)
{
    (void)pos;
    if (n <= 0)
        return MOVE_NONE;
    Move en, cap;
    pick_noisy(moves, n, 0, rng, &en, &cap);
    uint32_t roll = rng_below(rng, 100);
    if (en != MOVE_NONE && roll < 90)
        return en;
    if (cap != MOVE_NONE && roll < 75)
        return cap;
    return moves[rng_below(rng, (uint32_t)n)];
}

/* A random stone of the side to move that can move, a random landing
 * cell of it, the move as the rules make it. */
static Move random_slide(const MoPos *p, uint64_t *rng)
{
    const MoTables *t = mo_tables(p);
    const int s = p->stm;
    Bits occ = mo_occupied(p);
    Bits cand = bits_andnot(p->stones[s], bits_or(t->band_mask[0], t->band_mask[1]));
    while (bits_any(&cand)) {
        int from = bits_nth(cand, (int)rng_below(rng, (uint32_t)bits_count(&cand)));
        Bits r = morelli_reach(t, &occ, from);
        if (!bits_any(&r)) {
            bits_clear(&cand, from); /* it cannot move: draw again */
            continue;
        }
        int to = bits_nth(r, (int)rng_below(rng, (uint32_t)bits_count(&r)));
        unsigned caps = morelli_captures(p, s, to);
        Move m = MO_MAKE(from, to, caps);
        if (p->throne != s + 1 && morelli_completes_frame(p, s, from, to, caps))
            m |= MO_ENTHRONE;
        return m;
    }
    return MOVE_NONE;
}

Move morelli_playout_step(const void *pos, uint64_t *rng)
{
    const MoPos *p = pos;
    if (mo_placing(p)) {
        const MoTables *t = mo_tables(p);
        Bits empty = bits_andnot(t->ring_mask, bits_or(p->stones[0], p->stones[1]));
        if (!bits_any(&empty))
            return MOVE_NONE;
        return MO_PLACE | (Move)bits_nth(empty, (int)rng_below(rng, (uint32_t)bits_count(&empty)));
    }
    uint32_t roll = rng_below(rng, 100);
    if (roll < 80) {
        Move noisy[MORELLI_MAX_MOVES];
        int n = morelli_gen_noisy(p, noisy);
        Move en, cap;
        pick_noisy(noisy, n, 1, rng, &en, &cap);
        if (en != MOVE_NONE)
            return en;
        if (cap != MOVE_NONE && roll < 65)
            return cap;
    }
    return random_slide(p, rng);
}
