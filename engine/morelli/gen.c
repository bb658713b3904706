/*
 * gen.c -- Morelli move generation: the landing cells of a stone
 * (morelli_reach), captures, frame completions (enthronements), the
 * placements, the full legal move list, the move count and whether the
 * side to move has a move at all.  Move layout in morelli.h.
 */
#include "internal.h"

#include <stdlib.h>


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
            bits_clear(&r, b);
        }
        out = bits_or(out, r);
    }
    return out;
}

unsigned morelli_captures(const MoPos *p, int s, int to)
{
    const MoTables *t = mo_tables(p);
    const Bits *own = &p->stones[s], *opp = &p->stones[s ^ 1];
    unsigned mask = 0;
    Bits near = bits_and(t->capnbr[to], *opp);
    if (!bits_any(&near))
        return 0;
    for (int d = 0; d < MO_DIRS; d++) {
        int a = t->cap[to][d];
        if (a >= 0 && bits_test(opp, a) && bits_test(own, a + t->delta[d]))
            mask |= 1u << d;
    }
    return mask;
}

/* Does the move from -> to taking `caps` complete a frame of side s: an
 * orbit of the landing cell or of a captured stone all s's afterwards? */
static int completes_frame(const MoPos *p, int s, int from, int to, unsigned caps)
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
 * there alone: the fourth corner of an orbit whose other three are s's. */
static Bits frame_gaps(const MoPos *p, int s)
{
    const MoTables *t = mo_tables(p);
    const Bits *own = &p->stones[s];
    Bits occ = bits_or(p->stones[0], p->stones[1]);
    Bits gaps = {{0, 0, 0}};
    for (int i = 0; i < t->norbits; i++) {
        const Bits *orb = &t->orbit[t->orbit_cell[i]];
        Bits miss = bits_andnot(*orb, *own);
        if (bits_count(&miss) != 1)
            continue;
        Bits hole = bits_andnot(miss, occ);
        gaps = bits_or(gaps, hole);
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

int morelli_gen(const MoPos *p, Move *moves)
{
    if (mo_placing(p))
        return gen_placements(p, moves);
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
        gaps = frame_gaps(p, s);
    /* landings next to an adverse stone (where a capture may happen) or on
     * a frame gap need a closer look; the others are plain moves */
    Bits special = gaps;
    Bits opp = p->stones[s ^ 1];
    while (bits_any(&opp))
        special = bits_or(special, t->capby[bits_pop(&opp)]);
    int n = 0;
    while (bits_any(&own)) {
        int from = bits_pop(&own);
        if (t->band[from] < 2)
            continue;
        Bits to_set = morelli_reach(t, &occ, from);
        Bits plain = bits_andnot(to_set, special);
        to_set = bits_and(to_set, special);
        while (bits_any(&plain))
            moves[n++] = MO_MAKE(from, bits_pop(&plain), 0);
        while (bits_any(&to_set)) {
            int to = bits_pop(&to_set);
            unsigned all = morelli_captures(p, s, to);
            if (!classic) {
                Move m = MO_MAKE(from, to, all);
                if (all ? may_enthrone && completes_frame(p, s, from, to, all)
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
                if (sub ? may_enthrone && completes_frame(p, s, from, to, sub)
                        : bits_test(&gaps, to))
                    moves[n++] = m | MO_ENTHRONE;
                sub = (sub - all) & all;
            } while (sub);
        }
    }
    return n;
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

int mo_has_move(const MoPos *p)
{
    if (mo_placing(p))
        return 1;
    const MoTables *t = mo_tables(p);
    Bits occ = mo_occupied(p);
    Bits own = p->stones[p->stm];
    while (bits_any(&own)) {
        int from = bits_pop(&own);
        if (t->band[from] < 2)
            continue;
        Bits r = morelli_reach(t, &occ, from);
        if (bits_any(&r))
            return 1;
    }
    return 0;
}
