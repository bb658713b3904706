/*
 * morris_sets.h -- sets of Morris points (24 bits, bit p = point p) in
 * colex order, shared by the endgame tables built in memory
 * (morris_egtb.c) and the table files (morris_tb*.c): a k-set's rank is
 * sum C(p_i, i) over its points p_1 < ... < p_k.
 */
#ifndef MORELLI_MORRIS_SETS_H
#define MORELLI_MORRIS_SETS_H

#include <stdint.h>

#include "morris_internal.h"

/* C(n, k) for 0 <= n, k <= NPTS, once morris_sets_init() has run (any
 * thread, any number of times). */
extern uint64_t morris_binom[NPTS + 1][NPTS + 1];
void morris_sets_init(void);

/* The colex rank of a set among all sets of its size. */
static inline uint32_t set_colex(uint32_t set)
{
    uint32_t r = 0;
    for (int i = 1; set; set &= set - 1, i++)
        r += (uint32_t)morris_binom[lsb(set)][i];
    return r;
}

/* y's points renumbered among the points not in x (y and x disjoint). */
static inline uint32_t set_squeeze(uint32_t y, uint32_t x)
{
    uint32_t r = 0;
    for (; y; y &= y - 1) {
        int q = lsb(y);
        r |= 1u << (q - popcnt(x & ((1u << q) - 1)));
    }
    return r;
}

/* The inverse: bit j of yc is the j-th point not in x. */
static inline uint32_t set_spread(uint32_t yc, uint32_t x)
{
    uint32_t r = 0, f = ALL_PTS & ~x;
    for (; yc; yc &= yc - 1) {
        uint32_t g = f;
        for (int j = lsb(yc); j > 0; j--)
            g &= g - 1;
        r |= g & -g;
    }
    return r;
}

/* The next set of the same size in colex order (Gosper's hack). */
static inline uint32_t set_next(uint32_t v)
{
    uint32_t t = v | (v - 1);
    return (t + 1) | (((~t & -~t) - 1) >> (__builtin_ctz(v) + 1));
}

/* The k-set of colex rank r among n points. */
static inline uint32_t set_unrank(uint64_t r, int k, int n)
{
    uint32_t s = 0;
    for (int i = k; i > 0; i--) {
        int c = n - 1;
        while (morris_binom[c][i] > r)
            c--;
        s |= 1u << c;
        r -= morris_binom[c][i];
        n = c;
    }
    return s;
}

#endif
