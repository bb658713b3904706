/*
 * make.c -- Morelli make/unmake: placements (single stones or facing
 * pairs, by the placement schedule), slides with their captures and
 * enthronements, the Zobrist key kept up to date.
 */
#include "internal.h"


/* Turns the stones m captures around its landing cell `to` to the other
 * colour and returns the key k updated for them.  Its own inverse: make
 * and unmake both call it.  Always inlined: without it the compiler keeps
 * the call and make/unmake run more instructions. */
__attribute__((always_inline)) static inline Key flip_captures(MoPos *p, const MoTables *t,
                                                               Move m, int to, Key k)
{
    for (unsigned c = MO_CAPS(m); c; c &= c - 1) {
        int x = to + t->delta[__builtin_ctz(c)];
        bits_flip(&p->stones[0], x);
        bits_flip(&p->stones[1], x);
        k ^= morelli_zob_stone[0][x] ^ morelli_zob_stone[1][x];
    }
    return k;
}

void mo_make(MoPos *p, Move m, MoUndo *u)
{
    const MoTables *t = mo_tables(p);
    const int s = p->stm;
    u->throne = p->throne;
    u->stm = p->stm;
    int to = MO_TO(m);
    if (m & MO_PLACE) {
        bits_set(&p->stones[s], to);
        p->key ^= morelli_zob_stone[s][to];
        p->count++;
        if (p->pairs) {
            int o = t->opposite[to];
            bits_set(&p->stones[s ^ 1], o);
            p->key ^= morelli_zob_stone[s ^ 1][o];
            p->count++;
        }
        int ns = p->count < p->ring ? placement_side(p->count, p->pairs) : SIDE_P1;
        if (ns != s)
            p->key ^= morelli_zob_white;
        p->stm = (uint8_t)ns;
        return;
    }
    int from = MO_FROM(m);
    Key k = p->key;
    bits_clear(&p->stones[s], from);
    bits_set(&p->stones[s], to);
    k ^= morelli_zob_stone[s][from] ^ morelli_zob_stone[s][to];
    k = flip_captures(p, t, m, to, k);
    if (m & MO_ENTHRONE) {
        if (p->throne)
            k ^= morelli_zob_king[p->throne - 1];
        k ^= morelli_zob_king[s];
        p->throne = (uint8_t)(s + 1);
    }
    p->stm = (uint8_t)(s ^ 1);
    p->key = k ^ morelli_zob_white;
}

void mo_unmake(MoPos *p, Move m, const MoUndo *u)
{
    const MoTables *t = mo_tables(p);
    const int s = u->stm;
    int to = MO_TO(m);
    if (p->stm != s)
        p->key ^= morelli_zob_white;
    p->stm = (uint8_t)s;
    if (m & MO_PLACE) {
        bits_clear(&p->stones[s], to);
        p->key ^= morelli_zob_stone[s][to];
        p->count--;
        if (p->pairs) {
            int o = t->opposite[to];
            bits_clear(&p->stones[s ^ 1], o);
            p->key ^= morelli_zob_stone[s ^ 1][o];
            p->count--;
        }
        return;
    }
    int from = MO_FROM(m);
    Key k = p->key;
    bits_clear(&p->stones[s], to);
    bits_set(&p->stones[s], from);
    k ^= morelli_zob_stone[s][from] ^ morelli_zob_stone[s][to];
    k = flip_captures(p, t, m, to, k);
    if (p->throne != u->throne) {
        k ^= morelli_zob_king[p->throne - 1];
        if (u->throne)
            k ^= morelli_zob_king[u->throne - 1];
        p->throne = u->throne;
    }
    p->key = k;
}
