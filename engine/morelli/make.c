/*
 * make.c -- Morelli make/unmake: placements (single stones or facing
 * pairs, by the placement schedule), slides with their captures and
 * enthronements, the Zobrist key, the landing counts (mob), the band
 * sums (bsum), the orbit bytes and the frame counts (f3, f2) kept up to
 * date; and perft's make, the same code keeping only what the move
 * generator reads.
 */
#include "internal.h"

#include <stddef.h>
#include <string.h>

/* ------------------------------------------------------------------------
 * The key after a move, from the position before it (GameSearch.key_after: the
 * search fetches the child's table entry with it while it makes the
 * move).  A placement's make uses placement_key; a slide's computes the
 * same as slide_key in its one loop over the captures (measured 1% fewer
 * instructions of a search than calling slide_key).
 * --------------------------------------------------------------------- */

/* After the placement on `to` (and on its facing cell in pairs). */
static inline Key placement_key(const MoPos *p, const MoTables *t, int to)
{
    const int s = p->stm;
    Key k = p->key ^ morelli_zob_stone[s][to];
    int count = p->count + 1;
    if (p->pairs) {
        k ^= morelli_zob_stone[s ^ 1][t->opposite[to]];
        count++;
    }
    int ns = count < p->ring ? placement_side(count, p->pairs) : SIDE_P1;
    return ns != s ? k ^ morelli_zob_white : k;
}

/* After the slide m: the stone, the stones it turns over, the king. */
static inline Key slide_key(const MoPos *p, const MoTables *t, Move m)
{
    const int s = p->stm, to = MO_TO(m);
    Key k = p->key ^ morelli_zob_stone[s][MO_FROM(m)] ^ morelli_zob_stone[s][to] ^
            morelli_zob_white;
    for (unsigned c = MO_CAPS(m); c; c &= c - 1) {
        int x = to + t->delta[__builtin_ctz(c)];
        k ^= morelli_zob_stone[0][x] ^ morelli_zob_stone[1][x];
    }
    if (m & MO_ENTHRONE) {
        if (p->throne)
            k ^= morelli_zob_king[p->throne - 1];
        k ^= morelli_zob_king[s];
    }
    return k;
}

Key mo_key_after(const MoPos *p, Move m)
{
    const MoTables *t = mo_tables(p);
    return m & MO_PLACE ? placement_key(p, t, MO_TO(m)) : slide_key(p, t, m);
}

/* ------------------------------------------------------------------------
 * The landing counts.  A stone's landings along a ray are the cells of
 * bands below its own up to the first occupied cell (tables.c: land_before,
 * land_count).  When a cell x is filled or emptied, only the stones whose
 * landing run passes x change: in each direction the first occupied cell
 * from x, when it is a stone of a band farther out than x's (the band is
 * convex along a line, so every cell between them is nearer the Throne).
 * --------------------------------------------------------------------- */

/* The cell x is filled (sign -1) or emptied (sign +1); p's line masks
 * without x, p->white the colours of the other stones: the landings the stones lose or win
 * beyond x, into mob[]; and the landings a stone on x has (or had), from
 * the same nearest cells: the return value.  No branch on the stones: a
 * nearest cell that is the sentinel, or a stone of a band not farther out
 * than x's, changes by 0 (land_before: the sentinel's are 0, and such a
 * stone has no landing up to x or beyond, the bands being convex along a
 * line). */
__attribute__((always_inline)) static inline int mob_cell(const MoPos *p, const MoTables *t, int x,
                                                          int sign, int mob[2])
{
    /* the rows of land_before by byte offset (lbo), the indices unsigned:
     * fewer instructions for the addresses than cells and signed steps;
     * the nearest stones' colour bytes by their cells (lcell, at the same
     * index: a load instead of the offset's shifts, measured fewer
     * instructions) */
    const uint8_t *lb0 = &t->land_before[0][0][0], *lx = lb0 + (size_t)x * MO_LB_ROW;
    int n = 0, all = 0, wh = 0; /* the changes of both sides, of White's */
    for (int d = 0; d < 4; d++) {
        unsigned l = t->line[x][d], q = t->lpos[x][d], ka, j;
        mo_line_near(p->lm[l], q, &ka, &j);
        unsigned kb = q - j;
        unsigned ao = t->lbo[l][q + ka], bo = t->lbo[l][j];
        n += lx[d * 16 + ka] + lx[(d + 4) * 16 + kb];
        /* a slides back along d + 4 through x on to b (ka + kb steps), and
         * b along d */
        const uint8_t *la = lb0 + ao + (d + 4) * 16, *lb = lb0 + bo + d * 16;
        int va = la[ka + kb] - la[ka], vb = lb[ka + kb] - lb[kb];
        all += va + vb;
        wh += (va & p->white[t->lcell[l][q + ka]]) + (vb & p->white[t->lcell[l][j]]);
    }
    mob[0] += sign * (all - wh);
    mob[1] += sign * wh;
    return n;
}

_Static_assert(sizeof morelli_tables[0].land_before[0] == MO_LB_ROW, "land_before rows");

/* What a stone of side s adds to its orbit's byte (MoPos.orb). */
static inline unsigned orb_unit(int s)
{
    return s ? MO_ORB_WHITE : MO_ORB_BLACK;
}

/* The orbit byte of the cell x changes by `add` (modulo 256: a stone
 * comes, goes or changes colour) and the frame counts fw (MoCounts.f3 and
 * .f2 as one word, see morelli_frame_val) follow it.  Adding the new
 * orbit's counts before taking out the old ones keeps every byte of fw
 * within 0 .. 255, so the bytes never carry into each other. */
__attribute__((always_inline)) static inline uint32_t orb_change(MoPos *p, const MoTables *t, int x,
                                                                 unsigned add, uint32_t fw)
{
    uint8_t *o = &p->orb[t->orbit_id[x]];
    unsigned v = *o, nv = (v + add) & 0xFFu;
    *o = (uint8_t)nv;
    return fw + morelli_frame_val[nv] - morelli_frame_val[v];
}

/* Parts of a position copied in 32-byte vectors (a plain structure copy
 * becomes `rep movs`, slower to start for a few hundred bytes). */
typedef uint64_t PosChunk __attribute__((vector_size(32), aligned(8), may_alias));

/* `chunks` vectors from byte `at` of src to the same place in dst; both
 * constants. */
__attribute__((always_inline)) static inline void pos_chunks(MoPos *dst, const MoPos *src,
                                                             const size_t at, const size_t chunks)
{
    PosChunk *d = (PosChunk *)(void *)((char *)dst + at);
    const PosChunk *s = (const PosChunk *)(const void *)((const char *)src + at);
    for (size_t i = 0; i < chunks; i++)
        d[i] = s[i];
}

/* The parts of a position that the undo record holds, copied from src to
 * dst (make saves them, unmake copies them back), by board size (sz, a
 * constant), in whole vectors: the fields before the line masks, the masks
 * of the board's lines (6N - 2: 52, 64, 76), the bytes of its orbits (20,
 * 30, 42) and, unless `white` is 0 (perft's make, which never changes
 * them), the colour bytes of its cells (81, 121, 169).  On 9x9 bytes
 * 0..191, 232..263 and 280..375 (320 bytes, 224 without the colours); on
 * 11x11 0..223, 232..263 and 280..407 (384, 256); on 13x13 all 456 (288).
 * The bytes left out, masks, orbit bytes and colour bytes past the board's,
 * are always 0 and stay so. */
__attribute__((always_inline)) static inline void pos_parts_copy(MoPos *dst, const MoPos *src,
                                                                 const int sz, const int white)
{
    if (sz < 2) {
        pos_chunks(dst, src, 0, 6 + (size_t)sz);
        pos_chunks(dst, src, 232, 1);
        if (white)
            pos_chunks(dst, src, 280, 3 + (size_t)sz);
    } else {
        pos_chunks(dst, src, 0, white ? 14 : 9);
        if (white)
            pos_chunks(dst, src, sizeof(MoPos) - sizeof(PosChunk), 1);
    }
}

#define MO_LM_END(lines) (offsetof(MoPos, lm) + 2 * (lines))
#define MO_WHITE_END(cells) (offsetof(MoPos, white) + (cells))
_Static_assert(MO_LM_END(52) <= 6 * sizeof(PosChunk) && MO_LM_END(64) <= 7 * sizeof(PosChunk),
               "the line masks of 9x9 and 11x11 within their first vectors");
_Static_assert(offsetof(MoPos, orb) == 232 && 232 + 30 <= 232 + sizeof(PosChunk) &&
                   232 + 42 <= 9 * sizeof(PosChunk) && offsetof(MoPos, white) == 280,
               "the orbit bytes of 9x9 and 11x11 in one vector, 13x13's in the first nine");
_Static_assert(MO_WHITE_END(81) <= 280 + 3 * sizeof(PosChunk) &&
                   MO_WHITE_END(121) <= 280 + 4 * sizeof(PosChunk) &&
                   sizeof(MoPos) <= 15 * sizeof(PosChunk),
               "the colour bytes of each size within its vectors");

/* A placement on `to` (and its facing cell in pairs): ring cells, on
 * nobody's landing run. */
__attribute__((always_inline)) static inline void make_placement(MoPos *p, const MoTables *t,
                                                                 int to, const int counts)
{
    const int s = p->stm;
    if (counts)
        p->key = placement_key(p, t, to);
    bits_set(&p->stones[s], to);
    mo_line_flip(p, t, to);
    p->orb[t->orbit_id[to]] += orb_unit(s);
    p->count++;
    if (counts) {
        p->white[to] = (int8_t)-s;
        p->c.mob[s] = (int16_t)(p->c.mob[s] + mo_landings(p, t, to));
        p->c.bsum[s] = (int16_t)(p->c.bsum[s] + t->band[to]);
    }
    if (p->pairs) {
        int o = t->opposite[to];
        bits_set(&p->stones[s ^ 1], o);
        mo_line_flip(p, t, o);
        p->orb[t->orbit_id[o]] += orb_unit(s ^ 1);
        p->count++;
        if (counts) {
            p->white[o] = (int8_t) - (s ^ 1);
            p->c.mob[s ^ 1] = (int16_t)(p->c.mob[s ^ 1] + mo_landings(p, t, o));
            p->c.bsum[s ^ 1] = (int16_t)(p->c.bsum[s ^ 1] + t->band[o]);
        }
    }
    p->stm = (uint8_t)(p->count < p->ring ? placement_side(p->count, p->pairs) : SIDE_P1);
}

/* The move m of p, the position saved in u first.  counts (a constant at
 * each call): 1 for the search's make, which keeps everything MoPos holds;
 * 0 for perft's, which makes only what the move generator reads (the
 * stones, side to move, Throne, stone count, line masks, orbit bytes and
 * frame counts f3, f2) and leaves out the rest: the landing counts
 * (MoCounts.mob, the dearest part: the runs of the stones around every
 * changed cell, mob_cell) and the colour bytes (MoPos.white) that only they
 * read, the band sums (MoCounts.bsum: the evaluation's and plies_left's)
 * and the key (the search's table).  Those keep the values they had before
 * the move.  sz (a constant too): the board size's tables, so that their
 * addresses are constants (make_9, make_11, make_13 hold the search's
 * three copies, mo_make_perft perft's). */
__attribute__((always_inline)) static inline void make_move(MoPos *p, Move m, MoUndo *u,
                                                            const int counts, const int sz)
{
    const MoTables *t = &morelli_tables[sz];
    const int s = p->stm;
    pos_parts_copy(&u->pos, p, sz, counts);
    int to = MO_TO(m);
    if (m & MO_PLACE) {
        make_placement(p, t, to, counts);
        return;
    }
    int from = MO_FROM(m);
    /* the landing counts by colour (mob_cell's) and the changes of the
     * mover's and the other side's (mine, theirs): indexed by the side,
     * the array lived in memory and its stores stalled later loads */
    int mob[2] = {p->c.mob[0], p->c.mob[1]}, mine = 0, theirs = 0;
    /* the stone leaves from, lands on to, the king may take the Throne,
     * then the captured stones change sides (occupancy unchanged) */
    /* the stone's own landings from `from` and from `to` come from the
     * same nearest cells as the other stones' changes (the nearest cells
     * from x never include x) */
    if (counts)
        p->white[from] = 0;
    mo_line_flip(p, t, from);
    if (counts) {
        /* from the outer band (most slides early on) no stone is farther
         * out: only the stone's own landings change */
        int left = t->band[from] == t->outer_band ? mo_landings(p, t, from)
                                                  : mob_cell(p, t, from, 1, mob);
        mine += mob_cell(p, t, to, -1, mob) - left;
    }
    mo_line_flip(p, t, to);
    if (counts)
        p->white[to] = (int8_t)-s;
    if ((m & MO_ENTHRONE) && !p->throne) {
        if (counts)
            mob_cell(p, t, t->centre, -1, mob);
        mo_line_flip(p, t, t->centre);
    }
    /* the band sums, the frame counts (orbit byte by orbit byte), the
     * stones and the key: the moving stone, then each captured stone in
     * one loop (its landings on the masks made above, its colour, band,
     * orbit and key) */
    int bsum_s = p->c.bsum[s] + t->band[to] - t->band[from], bsum_o = p->c.bsum[s ^ 1];
    uint32_t fw = mo_frames_get(&p->c);
    const unsigned us = orb_unit(s);
    fw = orb_change(p, t, from, 0x100u - us, fw);
    fw = orb_change(p, t, to, us, fw);
    bits_clear(&p->stones[s], from);
    bits_set(&p->stones[s], to);
    Key k = p->key ^ morelli_zob_stone[s][from] ^ morelli_zob_stone[s][to];
    for (unsigned c = MO_CAPS(m); c; c &= c - 1) {
        int x = to + t->delta[__builtin_ctz(c)];
        if (counts) {
            int r = mo_landings(p, t, x);
            mine += r;
            theirs -= r;
            p->white[x] = (int8_t)~p->white[x];
        }
        bsum_s += t->band[x];
        bsum_o -= t->band[x];
        fw = orb_change(p, t, x, us - orb_unit(s ^ 1), fw);
        bits_flip(&p->stones[0], x);
        bits_flip(&p->stones[1], x);
        k ^= morelli_zob_stone[0][x] ^ morelli_zob_stone[1][x];
    }
    if (counts) {
        p->c.mob[0] = (int16_t)(mob[0] + (s ? theirs : mine));
        p->c.mob[1] = (int16_t)(mob[1] + (s ? mine : theirs));
        p->c.bsum[s] = (int16_t)bsum_s;
        p->c.bsum[s ^ 1] = (int16_t)bsum_o;
    }
    mo_frames_set(&p->c, fw);
    if (m & MO_ENTHRONE) {
        if (p->throne)
            k ^= morelli_zob_king[p->throne - 1];
        k ^= morelli_zob_king[s];
        p->throne = (uint8_t)(s + 1);
    }
    p->stm = (uint8_t)(s ^ 1);
    if (counts)
        p->key = k ^ morelli_zob_white;
}

/* One copy of make for each use and board size (counts and sz constants:
 * the tables' addresses are constants), reached through a table by the
 * position's size. */
#define MAKE_COPY(name, counts, sz)                                         \
    __attribute__((noinline)) static void name(MoPos *p, Move m, MoUndo *u) \
    {                                                                       \
        make_move(p, m, u, counts, sz);                                     \
    }
MAKE_COPY(make_9, 1, 0)
MAKE_COPY(make_11, 1, 1)
MAKE_COPY(make_13, 1, 2)
MAKE_COPY(make_perft_9, 0, 0)
MAKE_COPY(make_perft_11, 0, 1)
MAKE_COPY(make_perft_13, 0, 2)

typedef void MakeCopy(MoPos *p, Move m, MoUndo *u);
static MakeCopy *const make_copies[2][3] = {{make_perft_9, make_perft_11, make_perft_13},
                                            {make_9, make_11, make_13}};

void mo_make(MoPos *p, Move m, MoUndo *u)
{
    make_copies[1][p->sz](p, m, u);
}

/* The position back from u, by p's size (the size never changes);
 * `white`: the colour bytes too (not after perft's make, which leaves
 * them as they were). */
__attribute__((always_inline)) static inline void pos_restore(MoPos *p, const MoUndo *u,
                                                              const int white)
{
    switch (p->sz) {
    case 0: pos_parts_copy(p, &u->pos, 0, white); break;
    case 1: pos_parts_copy(p, &u->pos, 1, white); break;
    default: pos_parts_copy(p, &u->pos, 2, white); break;
    }
}

void mo_unmake(MoPos *p, Move m, const MoUndo *u)
{
    (void)m;
    pos_restore(p, u, 1);
}

void mo_make_perft(MoPos *p, Move m, MoUndo *u)
{
    make_copies[0][p->sz](p, m, u);
}

void mo_unmake_perft(MoPos *p, const MoUndo *u)
{
    pos_restore(p, u, 0);
}

/* Perft's last ply without bulk counting: each move made and unmade, one
 * loop a board size with make and unmake inlined (perft_full in
 * morelli.c calls it for every leaf; inlined, the undo record of the
 * loop stays in registers: called out of line, perft was 10-15% slower). */
__attribute__((always_inline)) static inline uint64_t perft_leaves(MoPos *p, const Move *moves,
                                                                   int n, const int sz)
{
    MoUndo u;
    for (int i = 0; i < n; i++) {
        make_move(p, moves[i], &u, 0, sz);
        pos_parts_copy(p, &u.pos, sz, 0);
    }
    return (uint64_t)n;
}

uint64_t mo_perft_leaves(MoPos *p, const Move *moves, int n)
{
    switch (p->sz) {
    case 0: return perft_leaves(p, moves, n, 0);
    case 1: return perft_leaves(p, moves, n, 1);
    default: return perft_leaves(p, moves, n, 2);
    }
}
