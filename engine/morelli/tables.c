/*
 * tables.c -- the Morelli tables (MoTables: rays, landing paths, bands,
 * orbits, capture neighbours, one per board size) and the Zobrist keys,
 * filled once by morelli_tables_init(); the key of a position from
 * scratch.  Layouts in morelli.h.
 */
#include "internal.h"
#include "captures.h"

#include <pthread.h>
#include <stddef.h>
#include <string.h>

MoTables morelli_tables[3];
Key morelli_zob_stone[2][MO_CELLS];
Key morelli_zob_king[2];
Key morelli_zob_white;
uint32_t morelli_frame_val[256];
uint16_t morelli_lray[3][MO_LINES][16];

static const int dir_dx[MO_DIRS] = {1, 1, 0, -1, -1, -1, 0, 1};
static const int dir_dy[MO_DIRS] = {0, 1, 1, 1, 0, -1, -1, -1};

static void tables_fill(MoTables *t, int n)
{
    memset(t, 0, sizeof *t);
    int h = (n - 1) / 2;
    t->n = n;
    t->cells = n * n;
    t->centre = h * n + h;
    t->ring = 4 * (n - 1);
    for (int b = 1, left = t->ring; left > 0; b++) {
        int k = left < 8 * b ? left : 8 * b;
        t->least_bsum += b * k;
        left -= k;
    }
    t->outer_band = h;
    for (int d = 0; d < MO_DIRS; d++)
        t->delta[d] = dir_dx[d] + dir_dy[d] * n;
    for (int c = 0; c < n * n; c++) {
        int x = c % n - h, y = c / n - h;
        int ax = x < 0 ? -x : x, ay = y < 0 ? -y : y;
        int b = ax > ay ? ax : ay;
        t->band[c] = (uint8_t)b;
        t->file[c] = (uint8_t)(c % n);
        t->rank[c] = (uint8_t)(c / n);
        t->opposite[c] = (uint8_t)((h - y) * n + (h - x));
        bits_set(&t->board, c);
        bits_set(&t->band_mask[b], c);
        if (b == h)
            bits_set(&t->ring_mask, c);
        /* the orbit: quarter turns (x,y) -> (-y,x) */
        t->rot[c] = (uint8_t)((x + h) * n + (h - y)); /* (x,y) -> (-y,x) */
        int ox = x, oy = y;
        for (int k = 0; k < 4; k++) {
            bits_set(&t->orbit[c], (oy + h) * n + (ox + h));
            int nx = -oy, ny = ox;
            ox = nx;
            oy = ny;
        }
        for (int d = 0; d < MO_DIRS; d++) {
            int f = c % n, r = c / n;
            for (int k = 1;; k++) {
                int ff = f + k * dir_dx[d], rr = r + k * dir_dy[d];
                if (ff < 0 || ff >= n || rr < 0 || rr >= n)
                    break;
                bits_set(&t->ray[c][d], rr * n + ff);
            }
            int f2 = f + 2 * dir_dx[d], r2 = r + 2 * dir_dy[d];
            t->cap[c][d] = (int16_t)((f2 >= 0 && f2 < n && r2 >= 0 && r2 < n)
                                         ? (r + dir_dy[d]) * n + f + dir_dx[d]
                                         : -1);
            if (t->cap[c][d] >= 0) {
                bits_set(&t->capnbr[c], t->cap[c][d]);
                bits_set(&t->capby[t->cap[c][d]], c);
            }
        }
    }
    bits_set(&t->throne, t->centre);
    for (int c = 0; c < n * n; c++)
        for (int d = 0; d < MO_DIRS; d++) {
            /* walk the ray; the inner cells form one run (band is convex
             * along a line) */
            int f = c % n, r = c / n, last = -1;
            for (int k = 1;; k++) {
                int ff = f + k * dir_dx[d], rr = r + k * dir_dy[d];
                if (ff < 0 || ff >= n || rr < 0 || rr >= n)
                    break;
                int x = rr * n + ff;
                if (t->band[x] < t->band[c])
                    last = k;
            }
            int landed = 0;
            for (int k = 1; k < 14; k++) {
                t->land_before[c][d][k] = (uint8_t)landed;
                if (k > last)
                    continue;
                int x = (r + k * dir_dy[d]) * n + f + k * dir_dx[d];
                bits_set(&t->path[c][d], x);
                if (t->band[x] < t->band[c] && x != t->centre) {
                    bits_set(&t->land[c][d], x);
                    landed++;
                }
            }
            t->land_count[c][d] = (uint8_t)landed;
            if (bits_any(&t->land[c][d]))
                t->land_dirs[c] |= (uint8_t)(1u << d);
        }
    t->norbits = 0;
    for (int c = 0; c < n * n; c++) {
        if (t->band[c] < 1 || t->band[c] >= h)
            continue;
        if (bits_lowest(&t->orbit[c]) == c)
            t->orbit_cell[t->norbits++] = (uint8_t)c;
    }
    /* the orbit bytes: the frame orbits in orbit_cell's order, then the
     * ring's (the Throne's byte is never used) */
    int nid = t->norbits;
    for (int c = 0; c < n * n; c++) {
        int o = bits_lowest(&t->orbit[c]);
        if (t->band[c] == 0)
            t->orbit_id[c] = (uint8_t)(nid - 1);
        else if (t->band[c] < h)
            for (int k = 0; k < t->norbits; k++)
                t->orbit_id[c] = t->orbit_cell[k] == o ? (uint8_t)k : t->orbit_id[c];
        else if (o == c)
            t->orbit_id[c] = (uint8_t)nid++;
        else
            t->orbit_id[c] = t->orbit_id[o];
    }
    for (int d = 0; d < MO_DIRS; d++)
        for (int c = 0; c < n * n; c++)
            if (t->cap[c][d] >= 0)
                bits_set(&t->cap_from[d], c);
    t->frame_band = bits_andnot(bits_andnot(t->board, t->ring_mask), t->throne);
    /* the lines of each axis, from the cells whose neighbour backwards
     * is off the board */
    int nl = 0;
    for (int a = 0; a < 4; a++)
        for (int c = 0; c < n * n; c++) {
            int f = c % n, r = c / n, pf = f - dir_dx[a], pr = r - dir_dy[a];
            if (pf >= 0 && pf < n && pr >= 0 && pr < n)
                continue;
            for (int k = 0; f >= 0 && f < n && r < n; k++, f += dir_dx[a], r += dir_dy[a]) {
                int x = r * n + f;
                t->line[x][a] = (uint8_t)nl;
                t->lpos[x][a] = (uint8_t)(k + 1);
                t->lbit[x][a] = (uint16_t)(1u << (k + 1));
                t->lcell[nl][k + 1] = (uint8_t)x;
                t->lcell[nl][k + 2] = MO_SENT; /* until the next cell */
                t->lm0[nl] = (uint16_t)(1u | 1u << (k + 2));
            }
            t->lcell[nl][0] = MO_SENT;
            nl++;
        }
    for (int l = 0; l < MO_LINES; l++)
        for (int k = 0; k < 16; k++) {
            t->lbo[l][k] = (uint16_t)(t->lcell[l][k] * MO_LB_ROW);
            morelli_lray[(n - 9) / 2][l][k] = (uint16_t)(t->lcell[l][k] * sizeof t->ray[0]);
        }
    for (int b = 0; b < 8; b++)
        for (int c = 0; c < n * n; c++)
            if (t->band[c] >= 1 && t->band[c] < b)
                bits_set(&t->inner[b], c);
}

/* The frame counts of one orbit byte (morelli.h: MO_ORB_*). */
static void frame_val_fill(void)
{
    for (unsigned v = 0; v < 256; v++) {
        unsigned a = v & 7, b = (v >> 3) & 7;
        MoCounts c = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
        if (!(v & MO_ORB_RING) && b == 0) {
            c.f3[0] = a == 3;
            c.f2[0] = a == 2;
        } else if (!(v & MO_ORB_RING) && a == 0) {
            c.f3[1] = b == 3;
            c.f2[1] = b == 2;
        }
        morelli_frame_val[v] = mo_frames_get(&c);
    }
}

static void tables_once(void)
{
    frame_val_fill();
    tables_fill(&morelli_tables[0], 9);
    tables_fill(&morelli_tables[1], 11);
    tables_fill(&morelli_tables[2], 13);
    uint64_t s = 0x4D6F72656C6C6921ull; /* fixed seed: keys never change */
    for (int side = 0; side < 2; side++)
        for (int c = 0; c < MO_CELLS; c++)
            morelli_zob_stone[side][c] = rng_next(&s);
    morelli_zob_king[0] = rng_next(&s);
    morelli_zob_king[1] = rng_next(&s);
    morelli_zob_white = rng_next(&s);
}

void morelli_tables_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, tables_once);
}

Key mo_key_scratch(const MoPos *p)
{
    Key k = 0;
    for (int s = 0; s < 2; s++) {
        Bits b = p->stones[s];
        while (bits_any(&b))
            k ^= morelli_zob_stone[s][bits_pop(&b)];
    }
    if (p->throne)
        k ^= morelli_zob_king[p->throne - 1];
    if (p->stm == SIDE_P2)
        k ^= morelli_zob_white;
    return k;
}

/* spare stays 0: positions compare byte for byte */
void mo_derive(MoPos *p)
{
    const MoTables *t = mo_tables(p);
    Bits occ = mo_occupied(p);
    p->key = mo_key_scratch(p);
    for (int s = 0; s < 2; s++) {
        Bits b = p->stones[s];
        int mob = 0, bsum = 0;
        while (bits_any(&b)) {
            int c = bits_pop(&b);
            mob += morelli_reach_count(t, &occ, c);
            bsum += t->band[c];
        }
        p->c.mob[s] = (int16_t)mob;
        p->c.bsum[s] = (int16_t)bsum;
    }
    memcpy(p->lm, t->lm0, sizeof p->lm);
    while (bits_any(&occ))
        mo_line_flip(p, t, bits_pop(&occ));
    memset(p->white, 0, sizeof p->white);
    for (int c = 0; c < t->cells; c++)
        p->white[c] = (int8_t)-bits_test(&p->stones[1], c);
    memset(p->orb, 0, sizeof p->orb);
    for (int i = t->norbits; i < t->norbits + t->ring / 4; i++)
        p->orb[i] = MO_ORB_RING;
    for (int s = 0; s < 2; s++) {
        Bits b = p->stones[s];
        while (bits_any(&b))
            p->orb[t->orbit_id[bits_pop(&b)]] += s ? MO_ORB_WHITE : MO_ORB_BLACK;
    }
    /* the frame counts from the orbit bytes, as make keeps them (the ring's
     * bytes and those past the board's orbits count nothing) */
    uint32_t fw = 0;
    for (size_t i = 0; i < sizeof p->orb; i++)
        fw += morelli_frame_val[p->orb[i]];
    mo_frames_set(&p->c, fw);
}
