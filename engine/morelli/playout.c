/*
 * playout.c -- the playout policies of MCTS.  morelli_playout_move picks
 * from the full move list (used only when a game has no light step);
 * the light policy chooses one move of the side to move without
 * generating the move list:
 *   - 80% of the time it looks for an enthronement and takes one when
 *     there is one: the frames three quarters full (kept as counts per
 *     orbit through a playout) give the cells that complete them, by
 *     landing on the empty fourth corner or by capturing the adverse stone
 *     there, and the stones that reach those cells;
 *   - 65% of the time (of the same draw) it looks for a capture: the
 *     landing cells that capture (by direction shifts), most captures
 *     first; a random cell of the best class and a random stone reaching
 *     it, other cells of the class while the cell drawn has none;
 *   - otherwise, and when nothing is found, a random stone that can move
 *     and a random landing cell of it.
 * The move is always the one the rules make (all its captures, its
 * enthronement when it completes a frame).  No legal move: the stone draw
 * finds none, which ends the playout.  The placement phase picks a random
 * empty cell of the outer ring.  morelli_playout plays a whole playout
 * with the orbit counts kept up to date (the position's key and
 * evaluation data are made afresh only when the cap stops it, where the
 * caller evaluates the position, not at every move);
 * morelli_playout_step is one step from counts made afresh (the two draw
 * the same moves).  The stones that reach a cell, the cells a stone
 * reaches and the captures of a landing are found two ways, which draw
 * the same moves (the draws are over sets in index order):
 *   - with BMI2 (__BMI2__: the release build, -march=native) by the cell's
 *     star (its eight rays packed into one word by pext, the nearest
 *     occupied cell of each ray by bit tricks) without branches: their
 *     mispredictions, not instructions, were most of a playout's time;
 *   - without it (the generic and WebAssembly builds, where pext and pdep
 *     are bit loops that made that 1.6x slower) by the rays: the ray
 *     tests of movers_word and gen.c's morelli_reach, morelli_movers_to
 *     and morelli_captures.
 */
#include "internal.h"

#include <pthread.h>
#ifdef __BMI2__
#include <immintrin.h>
#endif
#include <string.h>

/* The k-th (from 0) set bit of a word with more than k bits. */
static inline int word_nth(uint64_t x, int k)
{
#ifdef __BMI2__
    x = _pdep_u64((uint64_t)1 << k, x);
#else
    while (k-- > 0)
        x &= x - 1;
#endif
    return __builtin_ctzll(x);
}

/* The k-th (from 0) set bit of a set with more than k bits. */
static int bits_nth(Bits b, int k)
{
    for (int w = 0; w < 3; w++) {
        int c = __builtin_popcountll(b.w[w]);
        if (k < c)
            return w * 64 + word_nth(b.w[w], k);
        k -= c;
    }
    return -1;
}

/* A random cell of a non-empty set. */
static int bits_random(Bits b, uint64_t *rng)
{
    return bits_nth(b, (int)rng_below(rng, (uint32_t)bits_count(&b)));
}

/* ------------------------------------------------------------------------
 * The policy over the full move list
 * --------------------------------------------------------------------- */

/*
 * One pass over moves[0..n) (placements end it): a random enthroning move
 * into *en and a random one of the moves that capture most into *cap
 * (reservoir sampling, one draw per candidate; a move that captures
 * nothing is not a candidate).  Either may stay MOVE_NONE.
 */
static void pick_noisy(const Move *moves, int n, uint64_t *rng, Move *en, Move *cap)
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
        if (k == 0 || k < best)
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
    pick_noisy(moves, n, rng, &en, &cap);
    uint32_t roll = rng_below(rng, 100);
    if (en != MOVE_NONE && roll < 90)
        return en;
    if (cap != MOVE_NONE && roll < 75)
        return cap;
    return moves[rng_below(rng, (uint32_t)n)];
}

/* ------------------------------------------------------------------------
 * The light policy
 * --------------------------------------------------------------------- */

/* The orbit index of the cells outside the frame bands: a count of
 * MoPlay.cnt no orbit uses (at most 42 orbits), its bit of three never set,
 * so that the counts are kept without a branch. */
#define NO_ORBIT 63
_Static_assert(NO_ORBIT >= sizeof(((MoPos *)0)->orb) && NO_ORBIT < 64,
               "NO_ORBIT above every orbit's index (MoPos.orb), within MoPlay.cnt and three");

/* A set of cells as a vector of four words (the fourth always 0 when
 * loaded), so that the eight direction maps of find_capture are a few
 * vector operations each (AVX2 where the build has it, two SSE2 halves or
 * plain words elsewhere: the compiler's lowering, one code path). */
typedef uint64_t V4 __attribute__((vector_size(32)));

/* (Macros and pointers, not vector arguments: without AVX the calling
 * convention of 32-byte vectors changes, which the compilers warn about.) */
#define V4_OF(b) ((V4){(b).w[0], (b).w[1], (b).w[2], 0})

/* orbit_of[sz][c]: the index (0 .. norbits-1) of the orbit of a cell of the
 * frame bands, NO_ORBIT elsewhere; on_path[sz][x]: the cells c with x on a
 * path of c (path[c][d], where a stone on c can be blocked). */
static uint8_t orbit_of[3][MO_CELLS];
static Bits on_path[3][MO_CELLS];
/* first_land[sz][c]: the first cell of each non-empty land[c][d], the
 * neighbour c + delta[d] (a stone's landings in a direction begin next to
 * it: the bands along a line are convex, so those below c's follow c); the
 * stone on c has a landing cell if and only if one of them is empty. */
static Bits first_land[3][MO_CELLS];

#ifdef __BMI2__ /* ---- the stars (pext, pdep) ---- */

/* The star of a cell x: the cells of its eight rays, at most 48 (13x13),
 * numbered in index order (its compact bits, one word): star[] its cells
 * as a set, dir[d] the compact bits of ray d, landers those of the cells
 * from which a stone lands on x when nothing blocks (x in their land[][]),
 * land those of x's own landing cells when nothing blocks (land[x][]), sh1 and
 * sh2 the compact bit of its first cell of the second and third word, cell[]
 * the cell of each compact bit.  A ray's cells are in index order nearest
 * first for d < 4, farthest first for d >= 4. */
typedef struct Star {
    uint64_t star[3];
    uint64_t dir[MO_DIRS];
    uint64_t landers, land;
    /* cap1: the neighbours x + delta[d] with cap[x][d] >= 0, cap2 the
     * cells x + 2 delta[d] beyond them (the same order: index order);
     * slots: those directions among the eight neighbours in index order
     * (SW, S, SE, W, E, NW, N, NE: slot_dir) */
    uint64_t cap1, cap2;
    uint8_t slots;
    uint8_t sh1, sh2;
    uint8_t cell[64];
} Star;
/* The directions of the neighbours of a cell in index order, and of the
 * sets of them (bit j: the j-th) as direction bits. */
static const uint8_t slot_dir[8] = {5, 6, 7, 4, 0, 3, 2, 1};
static uint8_t slot_dirs[256];

/* A set's cells of the star sr as compact bits. */
static inline uint64_t star_of(const Star *sr, const Bits *b)
{
    return _pext_u64(b->w[0], sr->star[0]) | _pext_u64(b->w[1], sr->star[1]) << sr->sh1 |
           _pext_u64(b->w[2], sr->star[2]) << sr->sh2;
}

/* The own stones that can land on the empty cell whose star is sr, as
 * compact bits: on each ray the nearest occupied cell (the lowest compact
 * bit of the ray for d < 4, the highest for d >= 4) when it is a movable
 * own stone that lands there when nothing blocks.  No branch. */
static inline uint64_t star_movers(const Star *sr, const Bits *occ, const Bits *movable)
{
    uint64_t o = star_of(sr, occ), near = 0;
    for (int d = 0; d < 4; d++) {
        uint64_t x = o & sr->dir[d];
        near |= x & -x;
    }
    for (int d = 4; d < MO_DIRS; d++) {
        uint64_t x = o & sr->dir[d];
        near |= ((uint64_t)1 << (63 - __builtin_clzll(x | 1))) & x;
    }
    return near & star_of(sr, movable) & sr->landers;
}

/* The landing cells of the stone whose star is sr, as compact bits: on
 * each ray the cells before the nearest occupied one (below its compact bit
 * for d < 4, above it for d >= 4; all of the ray when nothing is
 * occupied) that are landing cells.  No branch. */
static inline uint64_t star_reach(const Star *sr, const Bits *occ)
{
    uint64_t o = star_of(sr, occ), r = 0;
    for (int d = 0; d < 4; d++) {
        uint64_t x = o & sr->dir[d];
        r |= ((x & -x) - 1) & sr->dir[d];
    }
    for (int d = 4; d < MO_DIRS; d++) {
        uint64_t x = o & sr->dir[d];
        r |= (~(uint64_t)0 << (63 - __builtin_clzll(x << 1 | 1))) & sr->dir[d];
    }
    return r & sr->land;
}
static Star stars[3][MO_CELLS];

/* The stars of board size sz (play_tables_once). */
static void stars_init(int sz)
{
    const MoTables *t = &morelli_tables[sz];
    for (int v = 0; v < 256; v++)
        for (int j = 0; j < 8; j++)
            slot_dirs[v] |= (uint8_t)(((v >> j) & 1) << slot_dir[j]);
    for (int x = 0; x < t->cells; x++) {
        Star *sr = &stars[sz][x];
        for (int j = 0; j < 8; j++)
            sr->slots |= (uint8_t)((t->cap[x][slot_dir[j]] >= 0) << j);
        Bits all = {{0, 0, 0}};
        for (int d = 0; d < MO_DIRS; d++)
            all = bits_or(all, t->ray[x][d]);
        memcpy(sr->star, all.w, sizeof sr->star);
        sr->sh1 = (uint8_t)__builtin_popcountll(all.w[0]);
        sr->sh2 = (uint8_t)(sr->sh1 + __builtin_popcountll(all.w[1]));
        for (int k = 0; bits_any(&all); k++) {
            int c = bits_pop(&all);
            sr->cell[k] = (uint8_t)c;
            for (int d = 0; d < MO_DIRS; d++)
                if (bits_test(&t->ray[x][d], c))
                    sr->dir[d] |= (uint64_t)1 << k;
            for (int d = 0; d < MO_DIRS; d++) {
                if (bits_test(&t->land[c][d], x))
                    sr->landers |= (uint64_t)1 << k;
                if (bits_test(&t->land[x][d], c))
                    sr->land |= (uint64_t)1 << k;
                if (t->cap[x][d] == c)
                    sr->cap1 |= (uint64_t)1 << k;
                if (t->cap[x][d] >= 0 && c == x + 2 * t->delta[d])
                    sr->cap2 |= (uint64_t)1 << k;
            }
        }
    }
}

#else /* ---- the rays (no BMI2) ---- */

/* lands_on[sz][x]: the cells c with x among their landing cells when
 * nothing blocks; toward[sz][x][c]: the direction from x to c for those c. */
static Bits lands_on[3][MO_CELLS];
static uint8_t toward[3][MO_CELLS][MO_CELLS];

/* lands_on and toward of board size sz (play_tables_once). */
static void rays_init(int sz)
{
    const MoTables *t = &morelli_tables[sz];
    for (int c = 0; c < t->cells; c++)
        for (int d = 0; d < MO_DIRS; d++) {
            Bits y = t->land[c][d];
            while (bits_any(&y)) {
                int to = bits_pop(&y);
                bits_set(&lands_on[sz][to], c);
                toward[sz][to][c] = (uint8_t)(d ^ 4);
            }
        }
}

#endif /* __BMI2__ */

/* *a moved k cells down (k > 0) or -k cells up the index, 0 < |k| < 64,
 * from a set whose fourth word is 0; the fourth word of the result is
 * garbage (a cap_from mask clears it). */
static inline __attribute__((always_inline)) void v4_shift_down(V4 *out, const V4 *a, int k)
{
    if (k > 0) {
        V4 hi = __builtin_shufflevector(*a, *a, 1, 2, 3, 0);
        *out = (*a >> k) | (hi << (64 - k));
    } else {
        V4 lo = __builtin_shufflevector(*a, *a, 3, 0, 1, 2);
        *out = (*a << -k) | (lo >> (64 + k));
    }
}

/* cap_from of each board size and direction as vectors. */
static V4 cap_from_v[3][MO_DIRS];

static void play_tables_once(void)
{
    morelli_tables_init();
    for (int sz = 0; sz < 3; sz++) {
        const MoTables *t = &morelli_tables[sz];
        for (int c = 0; c < MO_CELLS; c++)
            orbit_of[sz][c] = NO_ORBIT;
        for (int c = 0; c < t->cells; c++)
            for (int d = 0; d < MO_DIRS; d++) {
                Bits x = t->path[c][d];
                if (bits_any(&t->land[c][d]))
                    bits_set(&first_land[sz][c], c + t->delta[d]);
                while (bits_any(&x))
                    bits_set(&on_path[sz][bits_pop(&x)], c);
            }
        for (int k = 0; k < t->norbits; k++) {
            Bits o = t->orbit[t->orbit_cell[k]];
            while (bits_any(&o))
                orbit_of[sz][bits_pop(&o)] = (uint8_t)k;
        }
        for (int d = 0; d < MO_DIRS; d++)
            cap_from_v[sz][d] = V4_OF(t->cap_from[d]);
#ifdef __BMI2__
        stars_init(sz);
#else
        rays_init(sz);
#endif
    }
}

/* A playout's state: the position; per side the stones of each orbit of
 * the frame bands and the orbits holding exactly three; stones (either
 * colour) known to have no landing cell.  A stone stays unable to move
 * until a stone leaves a cell of its paths (captures only change colours):
 * making a move forgets the stones with the cell it leaves on a path. */
typedef struct MoPlay {
    MoPos *p;
    const MoTables *t;
    const uint8_t *oid;
    const Bits *on_path, *first_land;
#ifndef __BMI2__
    const Bits *lands_on;
    const uint8_t (*toward)[MO_CELLS];
#endif
    Bits stuck;
    uint8_t cnt[2][64];
    uint64_t three[2];
} MoPlay;

static inline void orbit_add(MoPlay *st, int s, int c, int delta)
{
    int k = st->oid[c];
    int v = st->cnt[s][k] += (uint8_t)delta;
    st->three[s] = ((st->three[s] & ~((uint64_t)1 << k)) | ((uint64_t)(v == 3) << k)) &
                   ~((uint64_t)1 << NO_ORBIT);
}

static void play_init(MoPlay *st, MoPos *p)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, play_tables_once);
    st->p = p;
    st->t = mo_tables(p);
    st->oid = orbit_of[p->sz];
    st->on_path = on_path[p->sz];
    st->first_land = first_land[p->sz];
#ifndef __BMI2__
    st->lands_on = lands_on[p->sz];
    st->toward = toward[p->sz];
#endif
    st->stuck = (Bits){{0, 0, 0}};
    memset(st->cnt, 0, sizeof st->cnt);
    st->three[0] = st->three[1] = 0;
    for (int s = 0; s < 2; s++) {
        Bits b = bits_and(p->stones[s], st->t->frame_band);
        while (bits_any(&b))
            orbit_add(st, s, bits_pop(&b), 1);
    }
}

/* Makes m (a slide of the side to move) and keeps the counts: the stones,
 * the Throne and the side to move only; the key and what make keeps for
 * the evaluation are made afresh (mo_derive) only for a playout the cap
 * stops. */
static void play_make(MoPlay *st, Move m)
{
    MoPos *p = st->p;
    const int s = p->stm;
    int from = MO_FROM(m), to = MO_TO(m);
    st->stuck = bits_andnot(st->stuck, st->on_path[from]);
    orbit_add(st, s, from, -1);
    orbit_add(st, s, to, 1);
    bits_clear(&p->stones[s], from);
    bits_set(&p->stones[s], to);
    for (unsigned c = MO_CAPS(m); c; c &= c - 1) {
        int x = to + st->t->delta[__builtin_ctz(c)];
        bits_flip(&p->stones[0], x);
        bits_flip(&p->stones[1], x);
        orbit_add(st, s ^ 1, x, -1);
        orbit_add(st, s, x, 1);
    }
    if (m & MO_ENTHRONE)
        p->throne = (uint8_t)(s + 1);
    p->stm = (uint8_t)(s ^ 1);
}

/* The move from -> to of side s taking caps (all its captures) as the
 * rules make it: without captures it enthrones when the landing cell is the
 * gap of an orbit three quarters s's (the stone comes from a band farther
 * out, so not from that orbit). */
static Move slide_caps(const MoPlay *st, int s, int from, int to, unsigned caps)
{
    const MoPos *p = st->p;
    Move m = MO_MAKE(from, to, caps);
    if (p->throne == s + 1)
        return m;
    int en;
    if (caps) {
        en = morelli_completes_frame(p, s, from, to, caps);
    } else {
        en = (int)((st->three[s] >> st->oid[to]) & 1); /* never for NO_ORBIT */
    }
    return en ? m | MO_ENTHRONE : m;
}

/* The two paths: landing_caps, the captures of a stone of side s landing
 * on the empty cell `to` (morelli_captures); enthrone_at, a random
 * enthroning move to `to` (reservoir, see find_enthrone); cell_mover, a
 * random movable stone (in *movable) of the side to move that lands on
 * the empty cell `to`, -1 when none; stone_landing, a random landing cell
 * of the stone on `from`, which has one. */
static Move slide(const MoPlay *st, int s, int from, int to);

#ifdef __BMI2__ /* ---- by the stars ---- */

/* Without a branch: the neighbours with a cell beyond them, adverse, and
 * the cells beyond them, own, packed in the same order; their directions
 * by slots. */
static inline unsigned landing_caps(const MoPos *p, int s, int to)
{
    const Star *sr = &stars[p->sz][to];
    uint64_t a = _pext_u64(star_of(sr, &p->stones[s ^ 1]), sr->cap1) &
                 _pext_u64(star_of(sr, &p->stones[s]), sr->cap2);
    return slot_dirs[_pdep_u64(a, sr->slots)];
}

static inline Move enthrone_at(const MoPlay *st, const Bits *occ, int to, uint64_t *rng, Move pick,
                               uint32_t *seen)
{
    const MoPos *p = st->p;
    const Star *sr = &stars[p->sz][to];
    for (uint64_t from = star_movers(sr, occ, &p->stones[p->stm]); from; from &= from - 1) {
        Move m = slide(st, p->stm, sr->cell[__builtin_ctzll(from)], to);
        if ((m & MO_ENTHRONE) && rng_below(rng, ++*seen) == 0)
            pick = m;
    }
    return pick;
}

static inline int cell_mover(const MoPlay *st, const Bits *occ, const Bits *movable, int to,
                             uint64_t *rng)
{
    const Star *sr = &stars[st->p->sz][to];
    uint64_t from = star_movers(sr, occ, movable);
    if (!from)
        return -1;
    return sr->cell[word_nth(from, (int)rng_below(rng, (uint32_t)__builtin_popcountll(from)))];
}

static inline int stone_landing(const MoPlay *st, const Bits *occ, int from, uint64_t *rng)
{
    const Star *sr = &stars[st->p->sz][from];
    uint64_t r = star_reach(sr, occ);
    return sr->cell[word_nth(r, (int)rng_below(rng, (uint32_t)__builtin_popcountll(r)))];
}

#else /* ---- by the rays ---- */

static inline unsigned landing_caps(const MoPos *p, int s, int to)
{
    return morelli_captures(p, s, to);
}

static inline Move enthrone_at(const MoPlay *st, const Bits *occ, int to, uint64_t *rng, Move pick,
                               uint32_t *seen)
{
    const MoPos *p = st->p;
    Bits from = morelli_movers_to(p, p->stm, occ, to);
    while (bits_any(&from)) {
        Move m = slide(st, p->stm, bits_pop(&from), to);
        if ((m & MO_ENTHRONE) && rng_below(rng, ++*seen) == 0)
            pick = m;
    }
    return pick;
}

/* The stones of x << base (own stones that can land on the empty cell
 * `to` when nothing blocks) that can land on it: those that are the only
 * occupied cell of the ray from `to` toward them (toward[][][]) up to
 * themselves.  A word at a time, kept in registers. */
static inline uint64_t movers_word(const MoPlay *st, const Bits *occ, int to, uint64_t x, int base)
{
    const MoTables *t = st->t;
    const Bits *ray = t->ray[to];
    const uint8_t *dir = st->toward[to];
    uint64_t out = 0;
    for (; x; x &= x - 1) {
        int i = __builtin_ctzll(x), c = base + i, d = dir[c];
        const Bits *a = &ray[d], *b = &t->ray[c][d];
        int k = __builtin_popcountll(a->w[0] & ~b->w[0] & occ->w[0]) +
                __builtin_popcountll(a->w[1] & ~b->w[1] & occ->w[1]) +
                __builtin_popcountll(a->w[2] & ~b->w[2] & occ->w[2]);
        out |= (uint64_t)(k == 1) << i;
    }
    return out;
}

static inline int cell_mover(const MoPlay *st, const Bits *occ, const Bits *movable, int to,
                             uint64_t *rng)
{
    Bits near = bits_and(st->lands_on[to], *movable);
    if (!bits_any(&near))
        return -1;
    Bits from = {{movers_word(st, occ, to, near.w[0], 0), movers_word(st, occ, to, near.w[1], 64),
                  movers_word(st, occ, to, near.w[2], 128)}};
    if (!bits_any(&from))
        return -1;
    return bits_random(from, rng);
}

static inline int stone_landing(const MoPlay *st, const Bits *occ, int from, uint64_t *rng)
{
    return bits_random(morelli_reach(st->t, occ, from), rng);
}

#endif /* __BMI2__ */

static Move slide(const MoPlay *st, int s, int from, int to)
{
    return slide_caps(st, s, from, to, landing_caps(st->p, s, to));
}

/* A random enthroning move among those that complete a frame three
 * quarters full (reservoir over the (stone, cell) pairs), or MOVE_NONE. */
static Move find_enthrone(const MoPlay *st, const Bits *occ, uint64_t *rng)
{
    const MoPos *p = st->p;
    const MoTables *t = st->t;
    const int s = p->stm;
    Move pick = MOVE_NONE;
    uint32_t seen = 0;
    for (uint64_t k3 = st->three[s]; k3; k3 &= k3 - 1) {
        Bits miss = bits_andnot(t->orbit[t->orbit_cell[__builtin_ctzll(k3)]], p->stones[s]);
        int x = bits_lowest(&miss);
        /* the landing cells: x itself when empty, else (x is adverse)
         * the cells next to it from which a landing captures it */
        Bits cells = {{0, 0, 0}};
        if (!bits_test(occ, x)) {
            bits_set(&cells, x);
        } else {
            for (int d = 0; d < MO_DIRS; d++) {
                int to = x - t->delta[d];
                if (to >= 0 && to < t->cells && t->cap[to][d] == x && !bits_test(occ, to) &&
                    to != t->centre && bits_test(&p->stones[s], x + t->delta[d]))
                    bits_set(&cells, to);
            }
        }
        while (bits_any(&cells))
            pick = enthrone_at(st, occ, bits_pop(&cells), rng, pick, &seen);
    }
    return pick;
}

/* One of the moves that capture most (n: the board size): the landing
 * cells that capture
 * (by direction shifts, counted by classes: 3 or more captures, 2, 1), a
 * random cell of the best class that a stone reaches, a random such stone;
 * MOVE_NONE when no stone reaches a capturing cell.  The cells of a class
 * are tried from a random one on, in index order. */
static inline __attribute__((always_inline)) Move find_capture_n(const MoPlay *st, const Bits *occ,
                                                                 uint64_t *rng, const int n)
{
    static const int dx[MO_DIRS] = {1, 1, 0, -1, -1, -1, 0, 1};
    static const int dy[MO_DIRS] = {0, 1, 1, 1, 0, -1, -1, -1};
    const MoPos *p = st->p;
    const MoTables *t = st->t;
    const int s = p->stm;
    const V4 own = V4_OF(p->stones[s]), opp = V4_OF(p->stones[s ^ 1]);
    const V4 *capv = cap_from_v[p->sz];
    V4 by_dir[MO_DIRS];
    V4 at1 = {0, 0, 0, 0}, at2 = at1, at3 = at1;
#pragma GCC unroll 8
    for (int d = 0; d < MO_DIRS; d++) {
        const int k = dx[d] + dy[d] * n; /* t->delta[d], a constant here */
        V4 a, b;
        v4_shift_down(&a, &opp, k);
        v4_shift_down(&b, &own, 2 * k);
        V4 c = capv[d] & a & b;
        by_dir[d] = c;
        at3 |= at2 & c;
        at2 |= at1 & c;
        at1 |= c;
    }
    Bits empty_b = bits_andnot(t->board, *occ);
    V4 empty = V4_OF(empty_b); /* never the Throne: occupied or not a target */
    at1 &= empty;
    if (!(at1[0] | at1[1] | at1[2]))
        return MOVE_NONE;
    at1[t->centre >> 6] &= ~((uint64_t)1 << (t->centre & 63));
    V4 v[3] = {at1 & at3, at1 & at2 & ~at3, at1 & ~at2};
    Bits cls[3];
    for (int i = 0; i < 3; i++)
        cls[i] = (Bits){{v[i][0], v[i][1], v[i][2]}};
    Bits movable = bits_andnot(p->stones[s], st->stuck);
    for (int i = 0; i < 3; i++) {
        if (!bits_any(&cls[i]))
            continue;
        /* from a random cell r on: the cells at or after it, then the
         * rest, a word at a time (r's word from r, the next two words, r's
         * word below r) */
        int r = bits_random(cls[i], rng), wr = r >> 6;
        uint64_t low = ((uint64_t)1 << (r & 63)) - 1;
        for (int seg = 0; seg < 4; seg++) {
            int w = wr + seg;
            w -= w >= 3 ? 3 : 0;
            w -= w >= 3 ? 3 : 0;
            uint64_t x = cls[i].w[w] & (seg == 0 ? ~low : seg == 3 ? low : ~(uint64_t)0);
            for (; x; x &= x - 1) {
                int to = 64 * w + __builtin_ctzll(x);
                int from = cell_mover(st, occ, &movable, to, rng);
                if (from < 0)
                    continue;
                unsigned caps = 0;
                for (int d = 0; d < MO_DIRS; d++)
                    caps |= (unsigned)((by_dir[d][to >> 6] >> (to & 63)) & 1) << d;
                return slide_caps(st, s, from, to, caps);
            }
        }
    }
    return MOVE_NONE;
}

/* find_capture_n for the board size, its shifts constants. */
static Move find_capture(const MoPlay *st, const Bits *occ, uint64_t *rng)
{
    switch (st->t->n) {
    case 9: return find_capture_n(st, occ, rng, 9);
    case 11: return find_capture_n(st, occ, rng, 11);
    default: return find_capture_n(st, occ, rng, 13);
    }
}

/* A random stone of the side to move that can move, a random landing
 * cell of it, the move as the rules make it; MOVE_NONE when no stone can
 * move.  Stones known to be stuck are drawn like the others (so that the
 * draws do not depend on what is known) but not looked at again. */
static Move random_slide(MoPlay *st, const Bits *occ, uint64_t *rng)
{
    const MoPos *p = st->p;
    const MoTables *t = st->t;
    const int s = p->stm;
    Bits cand = bits_andnot(p->stones[s], bits_or(t->band_mask[0], t->band_mask[1]));
    while (bits_any(&cand)) {
        int from = bits_random(cand, rng);
        bits_clear(&cand, from);
        if (bits_test(&st->stuck, from))
            continue;
        Bits open = bits_andnot(st->first_land[from], *occ);
        if (bits_any(&open))
            return slide(st, s, from, stone_landing(st, occ, from, rng));
        bits_set(&st->stuck, from); /* it cannot move: draw again */
    }
    return MOVE_NONE;
}

/* A random placement: an empty cell of the outer ring. */
static Move random_placement(const MoPos *p, uint64_t *rng)
{
    Bits empty = bits_andnot(mo_tables(p)->ring_mask, bits_or(p->stones[0], p->stones[1]));
    if (!bits_any(&empty))
        return MOVE_NONE;
    return MO_PLACE | (Move)bits_random(empty, rng);
}

/* One slide of the light policy (the position is past its placements). */
static Move play_step(MoPlay *st, uint64_t *rng)
{
    const MoPos *p = st->p;
    Bits occ = mo_occupied(p);
    uint32_t roll = rng_below(rng, 100);
    if (roll < 80) {
        if (st->three[p->stm] && p->throne != p->stm + 1) {
            Move m = find_enthrone(st, &occ, rng);
            if (m != MOVE_NONE)
                return m;
        }
        if (roll < 65) {
            Move m = find_capture(st, &occ, rng);
            if (m != MOVE_NONE)
                return m;
        }
    }
    return random_slide(st, &occ, rng);
}

Move morelli_playout_step(const void *pos, uint64_t *rng)
{
    MoPos p = *(const MoPos *)pos;
    if (mo_placing(&p))
        return random_placement(&p, rng);
    MoPlay st;
    play_init(&st, &p);
    return play_step(&st, rng);
}

int morelli_playout(void *pos, uint64_t *rng, int cap)
{
    MoPos *p = pos;
    MoPlay st;
    int ply = 0, ready = 0;
    for (; ply < cap; ply++) {
        if (mo_placing(p)) {
            Move m = random_placement(p, rng);
            if (m == MOVE_NONE)
                break;
            MoUndo u;
            mo_make(p, m, &u);
            continue;
        }
        if (!ready) {
            play_init(&st, p);
            ready = 1;
        }
        Move m = play_step(&st, rng);
        if (m == MOVE_NONE)
            break;
        play_make(&st, m);
    }
    if (ply == cap) { /* the caller may evaluate it: the key and counts made */
        if (ready)
            mo_derive(p);
        if (mo_has_move(p))
            return RESULT_NONE;
    }
    return p->throne == 1 ? RESULT_P1_WIN : p->throne == 2 ? RESULT_P2_WIN : RESULT_DRAW;
}
