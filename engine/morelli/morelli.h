/*
 * morelli.h -- private to engine/morelli/: the position, the tables and the
 * move layout shared by the rules (tables.c, setup.c, gen.c, make.c,
 * morelli.c; their own shared parts are in internal.h) and the evaluation
 * (eval.c).
 * Nothing outside this folder includes it; the game is used only through
 * `game_morelli` (game.h).
 *
 * Board.  An N x N board (N = 9, 11, 13) has its cells numbered
 * idx = rank * N + file (a1 = 0, b1 = 1, ..., rank and file from 0), so
 * increasing index means "rank, then file": the canonical order of the
 * notation.  A set of cells is a Bits: 3 x 64 = 192 bits, enough for 169.
 *
 * Bands.  band(cell) = Chebyshev distance from the centre; band 0 is the
 * Throne, band (N-1)/2 the outer ring.  Orbits: the four cells (x,y),
 * (-y,x), (-x,-y), (y,-x) in centre coordinates.
 *
 * Directions 0..7: E, NE, N, NW, W, SW, S, SE.  Directions 0..3 raise the
 * index (first stone along a ray = lowest bit), 4..7 lower it (highest
 * bit); d ^ 4 is the opposite direction.
 *
 * Tables (MoTables, one per board size) are filled once by
 * morelli_tables_init() (pthread_once) and then only read:
 *   ray[c][d]   the cells beyond c in direction d up to the edge,
 *   inner[b]    the cells of bands 1 .. b-1 (where a stone of band b may
 *               land; the Throne is never a destination),
 *   orbit[c]    the 4 cells of c's orbit,
 *   cap[c][d]   the neighbour s = c + d when c + 2d is also on the board
 *               (a custodian capture at c in direction d takes s), else -1.
 */
#ifndef MORELLI_MORELLI_MORELLI_H
#define MORELLI_MORELLI_MORELLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "game.h"
#include "morelli_options.h"

#define MO_CELLS 169
#define MO_DIRS 8
#define MO_LINES 76 /* 13 ranks, 13 files, 25 + 25 diagonals */
/* The sentinel "cell" past both ends of every line (MoTables.lcell): an
 * occupied cell of band 0 that is nobody's stone and has no landings, so
 * that the nearest occupied cell along a line always exists. */
#define MO_SENT MO_CELLS

typedef struct Bits {
    uint64_t w[3];
} Bits;

typedef struct MoTables {
    int n, cells, centre, ring, outer_band;
    /* the least band sum the ring's worth of stones (a board past its
     * placements) can end with: the bands filled from band 1 outwards,
     * 8b cells on band b (64, 88, 112 on 9x9, 11x11, 13x13) */
    int least_bsum;
    int delta[MO_DIRS];         /* index step of each direction */
    uint8_t band[MO_CELLS + 1]; /* band[MO_SENT] = 0 */
    uint8_t opposite[MO_CELLS]; /* point reflection through the Throne */
    int16_t cap[MO_CELLS][MO_DIRS];
    Bits ray[MO_CELLS][MO_DIRS];
    /* ray[c][d] cut after its last cell of a band below c's (the part
     * where a stone can block a landing), and its cells of such bands
     * (the landings when nothing blocks; never the Throne) */
    Bits path[MO_CELLS][MO_DIRS];
    Bits land[MO_CELLS][MO_DIRS];
    uint8_t land_dirs[MO_CELLS]; /* bit d: land[c][d] is not empty */
    /* the cells of land[c][d], and those before step k of the ray (the
     * landings when the first occupied cell is k steps away) */
    uint8_t land_count[MO_CELLS][MO_DIRS];
    uint8_t land_before[MO_CELLS + 1][MO_DIRS][16]; /* 16: the index is a shift;
                                                     * MO_SENT's all 0 */
    uint8_t file[MO_CELLS], rank[MO_CELLS];
    Bits inner[8];
    Bits band_mask[8];
    Bits orbit[MO_CELLS];
    Bits capnbr[MO_CELLS];  /* the cells cap[c][d] >= 0 (capturable neighbours) */
    Bits capby[MO_CELLS];   /* the cells c with s among capnbr[c] */
    Bits board;             /* all cells of the board */
    Bits ring_mask;         /* the outer ring */
    Bits throne;            /* the centre cell alone */
    uint8_t rot[MO_CELLS];  /* the cell a quarter turn on: (x,y) -> (-y,x) */
    Bits cap_from[MO_DIRS]; /* the cells c with cap[c][d] >= 0 */
    Bits frame_band;        /* bands 1 .. outer-1: the cells of frames */
    int norbits;            /* orbits of the inner bands 1 .. outer-1 */
    uint8_t orbit_cell[42]; /* one cell (the lowest index) of each */
    /* orbit_id[c]: the byte of MoPos.orb that counts the stones of c's
     * orbit: 0 .. norbits-1 for the frame bands (orbit_cell's order), the
     * outer ring's orbits after them (the Throne, never a stone's cell,
     * shares the last ring orbit's) */
    uint8_t orbit_id[MO_CELLS];
    /* Lines: the ranks, the NE diagonals, the files and the NW diagonals,
     * numbered together (at most MO_LINES); line[c][a] is the line of c
     * along axis a (the directions a and a + 4), lpos[c][a] its bit in the
     * line mask: 1 + its place on the line counted in increasing index
     * (bit 0 and the bit after the last cell are the sentinels, always
     * set), lcell[l][k] the cell of bit k (MO_SENT for the sentinels),
     * lm0[l] the sentinel bits of line l (0 past the board's lines). */
    uint8_t line[MO_CELLS][4];
    uint8_t lpos[MO_CELLS][4];
    uint16_t lbit[MO_CELLS][4]; /* 1 << lpos[c][a] */
    uint8_t lcell[MO_LINES][16];
    uint16_t lm0[MO_LINES];
    /* lbo[l][k]: lcell[l][k] scaled to its row of land_before (the byte
     * offset of land_before[lcell[l][k]], a multiple of MO_LB_ROW), so that
     * make reaches a nearest stone's landing counts with one add */
    uint16_t lbo[MO_LINES][16];
} MoTables;

#define MO_LB_ROW (MO_DIRS * 16) /* bytes of land_before[c] */

extern MoTables morelli_tables[3];
/* morelli_frame_val[v]: the frame counts (the bytes f3[0], f3[1], f2[0],
 * f2[1] of MoCounts, copied as one word) of an
 * orbit whose MoPos.orb byte is v (MO_ORB_BLACK, MO_ORB_WHITE,
 * MO_ORB_RING). */
extern uint32_t morelli_frame_val[256];
/* Zobrist keys: a stone of side s on cell c, a king of side s on the
 * Throne, White to move. */
extern Key morelli_zob_stone[2][MO_CELLS];
extern Key morelli_zob_king[2];
extern Key morelli_zob_white;

void morelli_tables_init(void);

/* An orbit's byte of MoPos.orb: Black's stones there in bits 0..2 (one
 * stone adds MO_ORB_BLACK), White's in bits 3..5 (MO_ORB_WHITE), and
 * MO_ORB_RING for an orbit of the outer ring (no frame). */
#define MO_ORB_BLACK 1u
#define MO_ORB_WHITE 8u
#define MO_ORB_RING 0x80u

/*
 * The position (456 bytes, memcpy-able, no hidden padding).
 * stones[s] holds the ordinary stones of side s (0 = Black = SIDE_P1);
 * the king is not a stone: throne = 0 empty, 1 Black's king, 2 White's.
 * count = stones on the board; count < ring means the placement phase.
 * Kept up to date by make/unmake for the evaluation, in c (mo_derive()
 * computes them from the stones): mob[s] = the landings of side s's stones (its
 * legal moves in standard play, the sum of morelli_reach_count), bsum[s]
 * = the sum of the bands of side s's stones, f3[s] and f2[s] = the orbits
 * of the frame bands (1 .. outer-1) where side s has 3 stones (the fourth
 * corner empty) or 2 (the rest empty); lm[l] = the occupied cells of
 * line l (MoTables.line), bit k for place k, the Throne with its king;
 * orb[o] = the stones of each side on orbit o (MoTables.orbit_id; 0 past
 * the board's orbits), from which make keeps f3 and f2 by table lookups
 * (morelli_frame_val); white[c] = -1 where a White stone stands, else 0
 * (MO_SENT and past it too): the colour of a stone found by the line
 * masks, one byte read that masks a count.
 */
/* The counts the evaluation reads (see MoPos), one block so that make saves
 * and unmake restores them with one copy. */
typedef struct MoCounts {
    int16_t mob[2];  /* landings of each side's stones */
    int16_t bsum[2]; /* bands of each side's stones, summed */
    uint8_t f3[2];   /* orbits with 3 of the side's stones and no other */
    uint8_t f2[2];   /* orbits with 2 of the side's stones and no other */
} MoCounts;
_Static_assert(offsetof(MoCounts, f2) == offsetof(MoCounts, f3) + 2, "f3 and f2 make one word");

/* The frame counts f3[0], f3[1], f2[0], f2[1] as one word (the form of
 * morelli_frame_val), read and written. */
static inline uint32_t mo_frames_get(const MoCounts *c)
{
    uint32_t fw;
    memcpy(&fw, c->f3, sizeof fw);
    return fw;
}
static inline void mo_frames_set(MoCounts *c, uint32_t fw)
{
    memcpy(c->f3, &fw, sizeof fw);
}

typedef struct MoPos {
    Bits stones[2];
    Key key;
    uint8_t n;                  /* board size */
    uint8_t sz;                 /* index of the tables: 0 = 9, 1 = 11, 2 = 13 */
    uint8_t stm;                /* SIDE_P1 (Black) or SIDE_P2 (White) */
    uint8_t throne;             /* 0, 1 + side of the king on the Throne */
    uint8_t ruleset;            /* RULESET_STANDARD or RULESET_CLASSIC */
    uint8_t pairs;              /* placement phase by pairs (1) or single stones (0) */
    uint8_t count;              /* stones on the board */
    uint8_t ring;               /* cells of the outer ring: 4 (N - 1) */
    MoCounts c;                 /* kept by make, restored by unmake as one copy */
    uint8_t spare[4];           /* always 0 */
    uint16_t lm[MO_LINES];      /* occupied cells by line (0 past the board's lines) */
    uint8_t orb[48];            /* stones by orbit (see above) */
    int8_t white[MO_CELLS + 7]; /* -1 on White's stones, else 0 */
} MoPos;

_Static_assert(sizeof(MoPos) == 456, "MoPos has no padding");

/*
 * Move layout (32 bits):
 *   bits  0..7   to: the landing cell, or the cell of a placement
 *   bits  8..15  from: the cell the stone leaves (0 for a placement)
 *   bits 16..23  captures: bit d set = the stone next to `to` in direction
 *                d changes colour (standard: all captures, filled by the
 *                generator; classic: the ones this move takes)
 *   bit  24      the move enthrones the mover's king
 *   bit  30      placement (so that a placement on a1 is not MOVE_NONE)
 * A sliding move has from != to, so it is never 0 either.
 */
#define MO_TO(m) ((int)((m)&0xFFu))
#define MO_FROM(m) ((int)(((m) >> 8) & 0xFFu))
#define MO_CAPS(m) ((unsigned)(((m) >> 16) & 0xFFu))
#define MO_ENTHRONE (1u << 24)
#define MO_PLACE (1u << 30)
#define MO_MAKE(from, to, caps) \
    ((Move)(unsigned)(to) | ((Move)(unsigned)(from) << 8) | ((Move)(unsigned)(caps) << 16))

/* Bit helpers. */
static inline int bits_test(const Bits *b, int i)
{
    return (int)((b->w[i >> 6] >> (i & 63)) & 1u);
}
static inline void bits_set(Bits *b, int i)
{
    b->w[i >> 6] |= (uint64_t)1 << (i & 63);
}
static inline void bits_clear(Bits *b, int i)
{
    b->w[i >> 6] &= ~((uint64_t)1 << (i & 63));
}
static inline void bits_flip(Bits *b, int i)
{
    b->w[i >> 6] ^= (uint64_t)1 << (i & 63);
}
static inline int bits_any(const Bits *b)
{
    return (b->w[0] | b->w[1] | b->w[2]) != 0;
}
static inline int bits_count(const Bits *b)
{
    return __builtin_popcountll(b->w[0]) + __builtin_popcountll(b->w[1]) +
           __builtin_popcountll(b->w[2]);
}
static inline Bits bits_and(Bits a, Bits b)
{
    return (Bits){{a.w[0] & b.w[0], a.w[1] & b.w[1], a.w[2] & b.w[2]}};
}
static inline Bits bits_or(Bits a, Bits b)
{
    return (Bits){{a.w[0] | b.w[0], a.w[1] | b.w[1], a.w[2] | b.w[2]}};
}
static inline Bits bits_andnot(Bits a, Bits b)
{
    return (Bits){{a.w[0] & ~b.w[0], a.w[1] & ~b.w[1], a.w[2] & ~b.w[2]}};
}
/* The set moved k cells up the index (k < 0: down), |k| < 64; cells
 * pushed past either end are lost. */
static inline Bits bits_shift(Bits a, int k)
{
    if (k > 0)
        return (Bits){{a.w[0] << k, (a.w[1] << k) | (a.w[0] >> (64 - k)),
                       (a.w[2] << k) | (a.w[1] >> (64 - k))}};
    if (k < 0) {
        k = -k;
        return (Bits){{(a.w[0] >> k) | (a.w[1] << (64 - k)), (a.w[1] >> k) | (a.w[2] << (64 - k)),
                       a.w[2] >> k}};
    }
    return a;
}
/* Index of the lowest set bit of a non-empty set. */
static inline int bits_lowest(const Bits *b)
{
    if (b->w[0])
        return __builtin_ctzll(b->w[0]);
    if (b->w[1])
        return 64 + __builtin_ctzll(b->w[1]);
    return 128 + __builtin_ctzll(b->w[2]);
}
static inline int bits_highest(const Bits *b)
{
    if (b->w[2])
        return 191 - __builtin_clzll(b->w[2]);
    if (b->w[1])
        return 127 - __builtin_clzll(b->w[1]);
    return 63 - __builtin_clzll(b->w[0]);
}
/* Removes and returns the lowest set bit of a non-empty set. */
static inline int bits_pop(Bits *b)
{
    for (int k = 0; k < 3; k++)
        if (b->w[k]) {
            int i = __builtin_ctzll(b->w[k]);
            b->w[k] &= b->w[k] - 1;
            return k * 64 + i;
        }
    return -1;
}

static inline const MoTables *mo_tables(const MoPos *p)
{
    return &morelli_tables[p->sz];
}
/* Every occupied cell: both colours, and the Throne when a king sits there. */
static inline Bits mo_occupied(const MoPos *p)
{
    Bits o = bits_or(p->stones[0], p->stones[1]);
    if (p->throne)
        o = bits_or(o, mo_tables(p)->throne);
    return o;
}
static inline int mo_placing(const MoPos *p)
{
    return p->count < p->ring;
}
/* The cell c turns occupied or empty in the line masks. */
static inline void mo_line_flip(MoPos *p, const MoTables *t, int c)
{
    for (int a = 0; a < 4; a++)
        p->lm[t->line[c][a]] ^= t->lbit[c][a];
}
/* On a line mask m (MoPos.lm), from place q: *up, the steps to the
 * nearest occupied place above q (q + *up is that place), and *lo, the
 * nearest occupied place below q (the sentinels make both exist).
 * Unsigned: no sign extension in the addresses made from them. */
static inline void mo_line_near(unsigned m, unsigned q, unsigned *up, unsigned *lo)
{
    *up = 1 + (unsigned)__builtin_ctz(m >> (q + 1));
    *lo = 31 - (unsigned)__builtin_clz(m & ((1u << q) - 1));
}
/* The nearest occupied cells on both sides of x along axis ax: *a in
 * direction ax, *ka steps away, and *b in direction ax + 4, *kb steps
 * away (MO_SENT one step past the edge when no stone is there); one read
 * of the line mask for both, no branch. */
static inline void mo_first_both(const MoPos *p, const MoTables *t, int x, int ax, int *a, int *ka,
                                 int *b, int *kb)
{
    unsigned l = t->line[x][ax], q = t->lpos[x][ax], up, lo;
    mo_line_near(p->lm[l], q, &up, &lo);
    *ka = (int)up;
    *a = t->lcell[l][q + up];
    *kb = (int)(q - lo);
    *b = t->lcell[l][lo];
}
/* The cells a stone on `from` can reach (any side; occ = mo_occupied). */
Bits morelli_reach(const MoTables *t, const Bits *occ, int from);
/* Mask of the directions in which a stone of side s landing on `to` of
 * p (with from vacated) captures. */
unsigned morelli_captures(const MoPos *p, int s, int to);
/* Legal moves of p into moves[]; the count. */
int morelli_gen(const MoPos *p, Move *moves);
/* How many cells a stone on `from` of p can land on, by the line masks
 * (land_before up to the nearest occupied cell, the sentinel past the
 * edge counting as one: land_before there is land_count). */
static inline int mo_landings(const MoPos *p, const MoTables *t, int from)
{
    const uint8_t *lx = t->land_before[from][0];
    int n = 0;
    for (int ax = 0; ax < 4; ax++) {
        unsigned q = t->lpos[from][ax], ka, lo;
        mo_line_near(p->lm[t->line[from][ax]], q, &ka, &lo);
        n += lx[ax * 16 + ka] + lx[(ax + 4) * 16 + (q - lo)];
    }
    return n;
}
/* How many cells a stone on `from` can land on (|morelli_reach|). */
static inline int morelli_reach_count(const MoTables *t, const Bits *occ, int from)
{
    int n = 0;
    for (unsigned dirs = t->land_dirs[from]; dirs; dirs &= dirs - 1) {
        int d = __builtin_ctz(dirs);
        Bits blk = bits_and(t->path[from][d], *occ);
        if (!bits_any(&blk)) {
            n += t->land_count[from][d];
            continue;
        }
        int b = d < 4 ? bits_lowest(&blk) : bits_highest(&blk);
        int k = (d & 3) == 0 ? t->file[b] - t->file[from] : t->rank[b] - t->rank[from];
        n += t->land_before[from][d][k < 0 ? -k : k];
    }
    return n;
}
/* The empty cells where a stone of side s would capture (by_dir[d]: those
 * capturing in direction d, emptiness aside), the stones of side s that
 * can land on the empty cell `to` (by the rays and occ), whether there is
 * one (by the line masks), the empty cells completing a frame of side s
 * (gen.c; by the frame counts). */
Bits morelli_capture_targets(const MoPos *p, int s, const Bits *occ, Bits by_dir[MO_DIRS]);
/* The capture cells of both sides by the number of stones a landing there
 * takes: ge[s][0] holds the empty cells (never the Throne) where a stone of
 * side s landing captures at least 1 stone, ge[s][1] at least 2 (the
 * evaluation's best capture looks at the larger class first). */
typedef struct MoCapClasses {
    Bits ge[2][2];
} MoCapClasses;
void morelli_capture_classes(const MoPos *p, MoCapClasses *cc);
Bits morelli_movers_to(const MoPos *p, int s, const Bits *occ, int to);
Bits morelli_frame_gaps(const MoPos *p, int s);
/* Number of legal moves (cheap in standard play). */
int morelli_count(const MoPos *p);
/* What the evaluation found that the noisy generator can start from
 * (GameSearch.evaluate_noted's note; captures.h reads and writes it): the
 * position's first 64 bytes, which the rest depends on (a copy, not the
 * key, so that a note of another position is never taken for p's), and
 * either that the mover has no noisy move or its capture cells. */
#define MO_NOTE_HEAD 64
typedef struct MoNoisyNote {
    unsigned char head[MO_NOTE_HEAD];
    uint64_t cells[4]; /* the mover's capture cells (MoCapClasses.ge[stm][0]) in
                        * words 0..2 */
    uint8_t state;     /* MO_NOTE_QUIET: no noisy move; MO_NOTE_CELLS: cells */
} MoNoisyNote;
_Static_assert(sizeof(MoNoisyNote) <= EVAL_NOTE_MAX, "the note fits EVAL_NOTE_MAX");
/* The noisy moves of p alone (captures, enthronements): exactly the moves
 * of morelli_gen that carry captures or MO_ENTHRONE, found from the
 * target cells without enumerating the quiet moves; the count.  note: NULL
 * or a note of morelli_evaluate_noted (used only when it is p's). */
int morelli_gen_noisy(const MoPos *p, Move *moves, const MoNoisyNote *note);
/* The quiet moves of p alone: the rest of morelli_gen; the count. */
int morelli_gen_quiet(const MoPos *p, Move *moves);
/* Is m (any value) a legal move of p? */
int morelli_move_legal(const MoPos *p, Move m);
/* Does the move from -> to of side s taking `caps` complete a frame (an
 * orbit of the landing cell or of a captured stone all s's afterwards)? */
int morelli_completes_frame(const MoPos *p, int s, int from, int to, unsigned caps);
/* playout.c: one move for a light MCTS playout, without a move list; and
 * the playout policy over the full move list. */
Move morelli_playout_move(const void *pos, const Move *moves, int n, uint64_t *rng);
Move morelli_playout_step(const void *pos, uint64_t *rng);
int morelli_playout(void *pos, uint64_t *rng, int cap);

/* eval.c: the weights of the evaluation, in one table (MoWeight names
 * the entries) so that a tuner can change them. */
enum MoWeight {
    MW_THRONE,         /* the mover's king on the Throne (minus the other's) */
    MW_THRONE_LATE,    /* ... added in proportion as the game runs out */
    MW_STONE,          /* a stone of one's colour */
    MW_MOBILITY,       /* a legal move (standard count) */
    MW_RESERVE,        /* a band step still available to a stone */
    MW_INNER,          /* a band step already made towards the Throne */
    MW_FRAME_NOW,      /* the mover can complete a frame and enthrone now */
    MW_FRAME_THREAT,   /* the opponent can complete one next move */
    MW_FRAME3,         /* an orbit with 3 own stones and an empty corner */
    MW_FRAME2,         /* an orbit with 2 own stones, the rest empty */
    MW_CAPTURE_NOW,    /* a stone the mover can capture with one move (best) */
    MW_CAPTURE_THREAT, /* a stone the opponent threatens (best) */
    MW_TEMPO,          /* having the move */
    MW_COUNT
};
extern int morelli_weights[MW_COUNT];

int morelli_evaluate(const void *pos);
/* The same, leaving in note (a MoNoisyNote) what morelli_gen_noisy of the
 * same position starts from. */
int morelli_evaluate_noted(const void *pos, void *note);
/* The tuner's view of morelli_weights[] (the descriptor's weights and
 * print_weights, engine/tune). */
int morelli_weight_table(int **w, const char *const **names);
void morelli_print_weights(const int *w, const char *const *names, int n, FILE *out);
/* picture.c: the picture of `match --demo` (the descriptor's picture). */
void morelli_picture(int part, const char *prev, const char *fen, const char *move, int *tally,
                     int ansi, FILE *out);

#endif
