/*
 * morelli.c -- Richard Moxham's Morelli on bitboards: tables, move
 * generation, make/unmake, FEN, notation, perft.  Layouts are described in
 * morelli.h; the rules as implemented in docs/rules-morelli.md.
 */
#include "morelli.h"

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

MoTables morelli_tables[3];
Key morelli_zob_stone[2][MO_CELLS];
Key morelli_zob_king[2];
Key morelli_zob_white;

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
    t->outer_band = h;
    for (int d = 0; d < MO_DIRS; d++)
        t->delta[d] = dir_dx[d] + dir_dy[d] * n;
    for (int c = 0; c < n * n; c++) {
        int x = c % n - h, y = c / n - h;
        int ax = x < 0 ? -x : x, ay = y < 0 ? -y : y;
        int b = ax > ay ? ax : ay;
        t->band[c] = (uint8_t)b;
        t->opposite[c] = (uint8_t)((h - y) * n + (h - x));
        bits_set(&t->board, c);
        bits_set(&t->band_mask[b], c);
        if (b == h)
            bits_set(&t->ring_mask, c);
        /* the orbit: quarter turns (x,y) -> (-y,x) */
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
            for (int k = 1; k <= last; k++) {
                int x = (r + k * dir_dy[d]) * n + f + k * dir_dx[d];
                bits_set(&t->path[c][d], x);
                if (t->band[x] < t->band[c] && x != t->centre)
                    bits_set(&t->land[c][d], x);
            }
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
    for (int b = 0; b < 8; b++)
        for (int c = 0; c < n * n; c++)
            if (t->band[c] >= 1 && t->band[c] < b)
                bits_set(&t->inner[b], c);
}

static void tables_once(void)
{
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

/* ------------------------------------------------------------------------
 * Move generation
 * --------------------------------------------------------------------- */

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

static int placement_side(int count, int pairs)
{
    int i = pairs ? count / 2 : count;
    return ((i + 1) / 2) & 1;
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
 * A true bound on the legal moves of any position (see morelli_max_moves
 * below) is large for classic; the count of standard moves needs no list.
 */
int morelli_count(const MoPos *p)
{
    if (mo_placing(p)) {
        const MoTables *t = mo_tables(p);
        Bits empty = bits_andnot(t->ring_mask, bits_or(p->stones[0], p->stones[1]));
        return bits_count(&empty);
    }
    if (p->ruleset == RULESET_CLASSIC) {
        Move *moves = malloc(sizeof(Move) * 9440);
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

static int has_move(const MoPos *p)
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

/* ------------------------------------------------------------------------
 * Make / unmake
 * --------------------------------------------------------------------- */

typedef struct MoUndo {
    uint8_t throne, stm;
} MoUndo;

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

static void mo_make(MoPos *p, Move m, MoUndo *u)
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

static void mo_unmake(MoPos *p, Move m, const MoUndo *u)
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

static Key mo_key_scratch(const MoPos *p)
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

/* ------------------------------------------------------------------------
 * Start positions and FEN
 * --------------------------------------------------------------------- */

static int size_index(int n)
{
    return n == 9 ? 0 : n == 11 ? 1 : n == 13 ? 2 : -1;
}

static void pos_empty(MoPos *p, int n, const GameOptions *opt)
{
    memset(p, 0, sizeof *p);
    p->n = (uint8_t)n;
    p->sz = (uint8_t)size_index(n);
    p->ruleset = (uint8_t)(opt->ruleset == RULESET_CLASSIC);
    p->pairs = (uint8_t)(opt->setup == SETUP_PAIRS);
    p->ring = (uint8_t)(4 * (n - 1));
}

static void put(MoPos *p, int side, int file, int rank)
{
    bits_set(&p->stones[side], rank * p->n + file);
    p->count++;
}

static int mo_init(void *pos, const GameOptions *opt, char *err, size_t errlen)
{
    morelli_tables_init();
    GameOptions def;
    opt = game_options_or_default(opt, &def);
    int n = opt->board_size;
    if (size_index(n) < 0) {
        snprintf(err, errlen, "morelli: board size %d (expected 9, 11 or 13)", n);
        return -1;
    }
    if (opt->ruleset != RULESET_STANDARD && opt->ruleset != RULESET_CLASSIC) {
        snprintf(err, errlen, "morelli: unknown ruleset %d", opt->ruleset);
        return -1;
    }
    if (opt->setup < SETUP_ADJACENT || opt->setup > SETUP_PAIRS) {
        snprintf(err, errlen, "morelli: unknown setup %d", opt->setup);
        return -1;
    }
    MoPos p;
    pos_empty(&p, n, opt);
    int l = n - 1;
    switch (opt->setup) {
    case SETUP_ADJACENT:
        for (int i = 0; i < n; i++) {
            put(&p, SIDE_P1, 0, i);
            put(&p, SIDE_P2, l, i);
        }
        for (int i = 1; i < l; i++) {
            put(&p, SIDE_P1, i, 0);
            put(&p, SIDE_P2, i, l);
        }
        break;
    case SETUP_FACING:
        for (int i = 0; i < l; i++) {
            put(&p, SIDE_P1, i, 0);
            put(&p, SIDE_P1, i + 1, l);
            put(&p, SIDE_P2, 0, i + 1);
            put(&p, SIDE_P2, l, i);
        }
        break;
    case SETUP_RANDOM: {
        const MoTables *t = &morelli_tables[p.sz];
        uint64_t rng = opt->setup_seed ^ 0x52616E646F6D5365ull;
        for (int c = 0; c < n * n; c++) {
            if (t->band[c] != t->outer_band || t->opposite[c] < c)
                continue;
            int s = (int)(rng_next(&rng) >> 63);
            put(&p, s, c % n, c / n);
            put(&p, s ^ 1, t->opposite[c] % n, t->opposite[c] / n);
        }
        break;
    }
    default: /* free, pairs: an empty board, Black places first */
        break;
    }
    p.stm = SIDE_P1;
    p.key = mo_key_scratch(&p);
    memcpy(pos, &p, sizeof p);
    return 0;
}

static int mo_from_fen(void *pos, const char *fen, const GameOptions *opt, char *err,
                       size_t errlen)
{
    morelli_tables_init();
    GameOptions def;
    opt = game_options_or_default(opt, &def);
    if (!fen) {
        snprintf(err, errlen, "fen: missing");
        return -1;
    }
    while (*fen == ' ' || *fen == '\t')
        fen++;
    /* the board part: count the rows to learn N */
    size_t blen = strcspn(fen, " \t\r\n");
    int rows = 1;
    for (size_t i = 0; i < blen; i++)
        rows += fen[i] == '/';
    if (blen == 0 || size_index(rows) < 0) {
        snprintf(err, errlen, "fen: %d rows (expected 9, 11 or 13)", blen ? rows : 0);
        return -1;
    }
    int n = rows;
    MoPos p;
    pos_empty(&p, n, opt);
    const MoTables *t = &morelli_tables[p.sz];
    const char *s = fen;
    for (int r = n - 1; r >= 0; r--) {
        int f = 0;
        while (*s && *s != '/' && *s != ' ' && *s != '\t' && *s != '\r' && *s != '\n') {
            if (isdigit((unsigned char)*s)) {
                if (*s == '0') {
                    snprintf(err, errlen, "fen: bad number in rank %d", r + 1);
                    return -1;
                }
                int k = 0;
                while (isdigit((unsigned char)*s) && k <= n)
                    k = k * 10 + (*s++ - '0');
                f += k;
                if (f > n)
                    break;
                continue;
            }
            int side = *s == 'b' || *s == 'B' ? SIDE_P1 : *s == 'w' || *s == 'W' ? SIDE_P2 : -1;
            if (side < 0) {
                snprintf(err, errlen, "fen: bad character '%c' in rank %d",
                         isprint((unsigned char)*s) ? *s : '?', r + 1);
                return -1;
            }
            if (f >= n) {
                f = n + 1;
                break;
            }
            int c = r * n + f;
            if (isupper((unsigned char)*s)) {
                if (c != t->centre) {
                    snprintf(err, errlen, "fen: a king off the Throne on %c%d", 'a' + f, r + 1);
                    return -1;
                }
                p.throne = (uint8_t)(side + 1);
            } else {
                if (c == t->centre) {
                    snprintf(err, errlen, "fen: a stone on the Throne");
                    return -1;
                }
                bits_set(&p.stones[side], c);
                p.count++;
            }
            f++;
            s++;
        }
        if (f != n) {
            snprintf(err, errlen, "fen: rank %d has %s than %d cells", r + 1,
                     f > n ? "more" : "fewer", n);
            return -1;
        }
        if (r > 0) {
            if (*s != '/') {
                snprintf(err, errlen, "fen: rank %d not followed by '/'", r + 1);
                return -1;
            }
            s++;
        }
    }
    if (*s != ' ' && *s != '\t') {
        snprintf(err, errlen, "fen: missing side to move");
        return -1;
    }
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s != 'b' && *s != 'w') {
        snprintf(err, errlen, "fen: bad side to move (expected b or w)");
        return -1;
    }
    p.stm = (uint8_t)(*s == 'w');
    s++;
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        s++;
    if (*s) {
        snprintf(err, errlen, "fen: trailing characters after the side to move");
        return -1;
    }
    if (p.count > p.ring) {
        snprintf(err, errlen, "fen: %d stones, more than the outer ring holds (%d)", p.count,
                 p.ring);
        return -1;
    }
    if (p.count < p.ring) {
        Bits all = bits_or(p.stones[0], p.stones[1]);
        Bits off = bits_andnot(all, t->ring_mask);
        if (bits_any(&off)) {
            int c = bits_lowest(&off);
            snprintf(err, errlen,
                     "fen: placement phase (%d of %d stones) with a stone off the outer ring "
                     "on %c%d",
                     p.count, p.ring, 'a' + c % n, c / n + 1);
            return -1;
        }
        if (p.throne) {
            snprintf(err, errlen, "fen: placement phase with a king on the Throne");
            return -1;
        }
        if (p.pairs) {
            int bad = 0;
            for (int side = 0; side < 2; side++) {
                Bits b = p.stones[side];
                while (bits_any(&b)) {
                    int c = bits_pop(&b);
                    bad |= !bits_test(&p.stones[side ^ 1], t->opposite[c]);
                }
            }
            if (bad) {
                snprintf(err, errlen, "fen: pairs placement with a stone not facing an adverse one");
                return -1;
            }
        }
        if (p.stm != placement_side(p.count, p.pairs)) {
            snprintf(err, errlen, "fen: side to move does not follow the placement schedule");
            return -1;
        }
    }
    p.key = mo_key_scratch(&p);
    memcpy(pos, &p, sizeof p);
    return 0;
}

static void mo_to_fen(const void *pos, char *buf, size_t len)
{
    const MoPos *p = pos;
    const MoTables *t = mo_tables(p);
    char tmp[FEN_MAX];
    size_t k = 0;
    int n = p->n;
    for (int r = n - 1; r >= 0; r--) {
        int run = 0;
        for (int f = 0; f < n; f++) {
            int c = r * n + f;
            char ch = 0;
            if (bits_test(&p->stones[0], c))
                ch = 'b';
            else if (bits_test(&p->stones[1], c))
                ch = 'w';
            else if (c == t->centre && p->throne)
                ch = p->throne == 1 ? 'B' : 'W';
            if (!ch) {
                run++;
                continue;
            }
            if (run)
                k += (size_t)snprintf(tmp + k, sizeof tmp - k, "%d", run);
            run = 0;
            tmp[k++] = ch;
        }
        if (run)
            k += (size_t)snprintf(tmp + k, sizeof tmp - k, "%d", run);
        if (r > 0)
            tmp[k++] = '/';
    }
    tmp[k++] = ' ';
    tmp[k++] = p->stm == SIDE_P1 ? 'b' : 'w';
    tmp[k] = '\0';
    snprintf(buf, len, "%s", tmp);
}

/* ------------------------------------------------------------------------
 * Notation
 * --------------------------------------------------------------------- */

static int cell_str(const MoPos *p, int c, char *out)
{
    return sprintf(out, "%c%d", 'a' + c % p->n, c / p->n + 1);
}

static int mo_move_to_str(const void *pos, Move m, char *buf, size_t len)
{
    const MoPos *p = pos;
    const MoTables *t = mo_tables(p);
    char tmp[MOVE_STR_MAX];
    int k = 0;
    if (m & MO_PLACE) {
        k = cell_str(p, MO_TO(m), tmp);
    } else {
        int to = MO_TO(m);
        k = cell_str(p, MO_FROM(m), tmp);
        tmp[k++] = '-';
        k += cell_str(p, to, tmp + k);
        if (p->ruleset == RULESET_CLASSIC) {
            /* captured cells in index order = rank, then file */
            int cells[8], nc = 0;
            for (unsigned c = MO_CAPS(m); c; c &= c - 1)
                cells[nc++] = to + t->delta[__builtin_ctz(c)];
            for (int i = 1; i < nc; i++)
                for (int j = i; j > 0 && cells[j - 1] > cells[j]; j--) {
                    int x = cells[j];
                    cells[j] = cells[j - 1];
                    cells[j - 1] = x;
                }
            for (int i = 0; i < nc; i++) {
                tmp[k++] = 'x';
                k += cell_str(p, cells[i], tmp + k);
            }
            if (m & MO_ENTHRONE)
                tmp[k++] = '+';
        }
    }
    tmp[k] = '\0';
    snprintf(buf, len, "%s", tmp);
    return k;
}

/* A cell name at *s (case-insensitive); advances *s. -1 if none. */
static int parse_cell(const MoPos *p, const char **s)
{
    const char *q = *s;
    int f = tolower((unsigned char)*q) - 'a';
    if (f < 0 || f >= p->n)
        return -1;
    q++;
    if (!isdigit((unsigned char)*q) || *q == '0')
        return -1;
    int r = 0;
    while (isdigit((unsigned char)*q) && r <= p->n)
        r = r * 10 + (*q++ - '0');
    if (r < 1 || r > p->n)
        return -1;
    *s = q;
    return (r - 1) * p->n + f;
}

static Move mo_move_from_str(const void *pos, const char *str)
{
    const MoPos *p = pos;
    const MoTables *t = mo_tables(p);
    if (!str)
        return MOVE_NONE;
    const char *s = str;
    while (*s == ' ' || *s == '\t')
        s++;
    int a = parse_cell(p, &s);
    if (a < 0)
        return MOVE_NONE;
    Move want;
    int has_suffix = 0;
    if (*s == '-' || isalpha((unsigned char)*s)) {
        if (*s == '-')
            s++;
        int b = parse_cell(p, &s);
        if (b < 0)
            return MOVE_NONE;
        unsigned caps = 0;
        Move en = 0;
        while (*s == 'x' || *s == 'X') {
            s++;
            int c = parse_cell(p, &s);
            if (c < 0)
                return MOVE_NONE;
            int d;
            for (d = 0; d < MO_DIRS; d++)
                if (t->cap[b][d] == c)
                    break;
            if (d == MO_DIRS || (caps & (1u << d)))
                return MOVE_NONE;
            caps |= 1u << d;
            has_suffix = 1;
        }
        if (*s == '+') {
            en = MO_ENTHRONE;
            s++;
            has_suffix = 1;
        }
        want = MO_MAKE(a, b, caps) | en;
    } else {
        want = MO_PLACE | (Move)a;
    }
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        s++;
    if (*s)
        return MOVE_NONE;
    Move *moves = malloc(sizeof(Move) * 9440);
    if (!moves)
        return MOVE_NONE;
    int n = morelli_gen(p, moves);
    Move found = MOVE_NONE;
    const int loose = p->ruleset == RULESET_STANDARD && !(want & MO_PLACE) && !has_suffix;
    for (int i = 0; i < n; i++) {
        Move m = moves[i];
        if (loose ? (m & 0xFFFFu) == (want & 0xFFFFu) : m == want) {
            found = m;
            break;
        }
    }
    free(moves);
    return found;
}

/* ------------------------------------------------------------------------
 * The interface
 * --------------------------------------------------------------------- */

static int mo_gen_moves(const void *pos, Move *moves)
{
    return morelli_gen(pos, moves);
}

static void mo_make_v(void *pos, Move m, void *undo)
{
    mo_make(pos, m, undo);
}

static void mo_unmake_v(void *pos, Move m, const void *undo)
{
    mo_unmake(pos, m, undo);
}

static int mo_side_to_move(const void *pos)
{
    return ((const MoPos *)pos)->stm;
}

static int mo_result(const void *pos)
{
    const MoPos *p = pos;
    if (has_move(p))
        return RESULT_NONE;
    return p->throne == 1 ? RESULT_P1_WIN : p->throne == 2 ? RESULT_P2_WIN : RESULT_DRAW;
}

static Key mo_key(const void *pos)
{
    return ((const MoPos *)pos)->key;
}

static Key mo_key_from_scratch(const void *pos)
{
    return mo_key_scratch(pos);
}

static int mo_move_is_noisy(const void *pos, Move m)
{
    (void)pos;
    return (m & MO_PLACE) ? 0 : (MO_CAPS(m) != 0 || (m & MO_ENTHRONE) != 0);
}

static uint64_t perft_rec(MoPos *p, int depth, int bulk)
{
    if (bulk && depth == 1 && p->ruleset == RULESET_STANDARD)
        return (uint64_t)morelli_count(p);
    Move moves[9440];
    int n = morelli_gen(p, moves);
    if (bulk && depth == 1)
        return (uint64_t)n;
    uint64_t total = 0;
    MoUndo u;
    for (int i = 0; i < n; i++) {
        mo_make(p, moves[i], &u);
        total += perft_rec(p, depth - 1, bulk);
        mo_unmake(p, moves[i], &u);
    }
    return total;
}

/* Making every leaf: the last ply's moves are made and unmade one by one. */
static uint64_t perft_full(MoPos *p, int depth)
{
    Move moves[9440];
    int n = morelli_gen(p, moves);
    uint64_t total = 0;
    MoUndo u;
    for (int i = 0; i < n; i++) {
        mo_make(p, moves[i], &u);
        total += depth > 1 ? perft_full(p, depth - 1) : 1;
        mo_unmake(p, moves[i], &u);
    }
    return total;
}

static uint64_t mo_perft(void *pos, int depth, int bulk)
{
    if (depth <= 0)
        return 1;
    return bulk ? perft_rec(pos, depth, 1) : perft_full(pos, depth);
}

/* Band colours, outermost (Red) first, as ANSI 256-colour backgrounds. */
static const int band_colour[7] = {129, 54, 27, 34, 226, 208, 196};
static const char band_letter[7] = {'v', 'i', 'u', 'g', 'y', 'o', 'r'};

static void mo_print(const void *pos, FILE *out, int ansi)
{
    const MoPos *p = pos;
    const MoTables *t = mo_tables(p);
    int n = p->n;
    for (int r = n - 1; r >= 0; r--) {
        fprintf(out, "%3d ", r + 1);
        for (int f = 0; f < n; f++) {
            int c = r * n + f, b = t->band[c];
            char ch = band_letter[b];
            int stone = 0;
            if (bits_test(&p->stones[0], c))
                ch = 'b', stone = 1;
            else if (bits_test(&p->stones[1], c))
                ch = 'w', stone = 2;
            else if (c == t->centre && p->throne)
                ch = p->throne == 1 ? 'B' : 'W', stone = p->throne;
            if (ansi) {
                const char *fg = stone == 1 ? "\033[1;30m" : stone == 2 ? "\033[1;97m" : "";
                fprintf(out, "\033[48;5;%dm%s %c \033[0m", band_colour[b], fg,
                        stone ? ch : ' ');
            } else {
                fprintf(out, " %c", ch);
            }
        }
        fputc('\n', out);
    }
    fprintf(out, "    ");
    for (int f = 0; f < n; f++)
        fprintf(out, ansi ? " %c " : " %c", 'a' + f);
    fputc('\n', out);
    if (!ansi)
        fprintf(out, "bands: r o y g u i v (red .. violet Throne); b/w stones, B/W king\n");
    fprintf(out, "%s to move%s; Throne: %s\n", p->stm == SIDE_P1 ? "Black" : "White",
            mo_placing(p) ? (p->pairs ? " (placing pairs)" : " (placing)") : "",
            p->throne == 1 ? "Black king" : p->throne == 2 ? "White king" : "empty");
}

/*
 * max_moves: a true bound for every option, the classic ruleset being the
 * worst case.  Let T be the empty cells (targets), S the stones (at most
 * the ring, 48), A <= S - 1 the adverse stones.  For a target t:
 *  - the captures k_t at t do not depend on the stone that lands there
 *    (a stone coming from direction d passes the cell t+d, which is then
 *    empty, so it is neither a captured stone nor a partner), and a stone
 *    can come only along a ray whose neighbour of t is empty: at most
 *    8 - k_t movers reach t;
 *  - each landing gives at most 2^k subsets times 2 (enthrone or not).
 * So t gives at most g(k) = (8 - k) 2^(k+1) <= 16 + 40 k moves.  Each
 * capture is a line (t, s, p) with s adverse: at most one per line through
 * s, so sum k_t <= 4 A.  Total <= 16 T + 160 A <= 16 (168 - S) + 160 (S - 1)
 * = 2528 + 144 S <= 9440 on 13x13 (smaller boards give less).  Standard
 * play gives at most 8 per target (1344), placement at most 48.
 */
#define MORELLI_MAX_MOVES 9440

const Game game_morelli = {
    .name = "morelli",
    .pos_size = sizeof(MoPos),
    .undo_size = sizeof(MoUndo),
    .max_moves = MORELLI_MAX_MOVES,
    .repetition_count = 0,
    .init = mo_init,
    .from_fen = mo_from_fen,
    .to_fen = mo_to_fen,
    .gen_moves = mo_gen_moves,
    .make = mo_make_v,
    .unmake = mo_unmake_v,
    .side_to_move = mo_side_to_move,
    .result = mo_result,
    .key = mo_key,
    .key_from_scratch = mo_key_from_scratch,
    .evaluate = morelli_evaluate,
    .move_is_noisy = mo_move_is_noisy,
    .move_to_str = mo_move_to_str,
    .move_from_str = mo_move_from_str,
    .print = mo_print,
    .perft = mo_perft,
    .playout_move = morelli_playout_move,
    .solve = NULL,
    .reversible_plies = NULL,
    .uses_move_rule = 0,
};
