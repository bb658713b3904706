/*
 * morris.c -- the Nine Men's Morris family (9 or 12 pieces, optional
 * diagonals, optional flying), as RULES.md settles it.
 *
 * Board: the 24 points, numbered in RULES.md's order (rank 1 first, files
 * left to right within a rank):
 *
 *     a1 d1 g1 b2 d2 f2 c3 d3 e3 a4 b4 c4 e4 f4 g4 c5 d5 e5 b6 d6 f6 a7 d7 g7
 *      0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22 23
 *
 * Point i is bit i of a uint32_t; each side has one such bitboard.  Because
 * the points are listed rank by rank, the points of one rank are a run of
 * consecutive indices, which is what the FEN walks.
 *
 * Move (32 bits): bits 0-4 destination + 1 (so never 0: MOVE_NONE is never
 * legal), bits 5-9 origin + 1 (0 for a placement), bits 10-14 removed
 * point + 1 (0 when the turn removes nothing).
 */
#include <ctype.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "tune/tune.h"

#define NPTS 24
#define ALL_PTS 0xFFFFFFu
#define MAX_LINES 20
#define MAX_PIECES 12
/* Step pairs (80 directed edges with diagonals) times removals (at most 12
 * adverse pieces on the board) bound every other kind of turn too. */
#define MORRIS_MAX_MOVES 960

static const char *const point_name[NPTS] = {
    "a1", "d1", "g1", "b2", "d2", "f2", "c3", "d3", "e3", "a4", "b4", "c4",
    "e4", "f4", "g4", "c5", "d5", "e5", "b6", "d6", "f6", "a7", "d7", "g7"};

/* First point index and number of points of ranks 1..7. */
static const int rank_first[7] = {0, 3, 6, 9, 15, 18, 21};
static const int rank_len[7] = {3, 3, 3, 6, 3, 3, 3};

/* The 16 lines of the plain board, then the 4 diagonals. */
static const int line_pts[MAX_LINES][3] = {
    {21, 22, 23}, {18, 19, 20}, {15, 16, 17}, {9, 10, 11}, {12, 13, 14},
    {6, 7, 8},    {3, 4, 5},    {0, 1, 2},    {0, 9, 21},  {3, 10, 18},
    {6, 11, 15},  {22, 19, 16}, {7, 4, 1},    {8, 12, 17}, {5, 13, 20},
    {2, 14, 23},  {0, 3, 6},    {21, 18, 15}, {23, 20, 17}, {2, 5, 8}};

/* Per board (0 plain, 1 with diagonals): lines, neighbours, and for each
 * point the masks of the two other points of each line through it. */
typedef struct Tables {
    int nlines;
    uint32_t line[MAX_LINES];
    uint32_t adj[NPTS];
    int npm[NPTS];
    uint32_t pmill[NPTS][3];
} Tables;

static Tables tabs[2];
static Key z_piece[2][NPTS], z_side, z_hand[2][MAX_PIECES + 1];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

/* The position: see game.h; everything a rule needs lives here. */
typedef struct Pos {
    Key key;
    uint32_t bb[2];   /* pieces on the board, per side */
    uint16_t rev;     /* plies since the last placement or removal */
    uint8_t hand[2];  /* pieces still to place */
    uint8_t stm;      /* SIDE_P1 (White) or SIDE_P2 (Black) */
    uint8_t pieces;   /* option Pieces: 9 or 12 */
    uint8_t diag;     /* option Diagonals */
    uint8_t flying;   /* option Flying */
} Pos;

typedef struct Undo {
    Key key;
    uint16_t rev;
} Undo;

_Static_assert(sizeof(Pos) <= POS_MAX_BYTES, "morris position too large");
_Static_assert(sizeof(Undo) <= UNDO_MAX_BYTES, "morris undo too large");

static void tables_init(void)
{
    for (int d = 0; d < 2; d++) {
        Tables *t = &tabs[d];
        memset(t, 0, sizeof *t);
        t->nlines = d ? 20 : 16;
        for (int l = 0; l < t->nlines; l++) {
            const int *q = line_pts[l];
            t->line[l] = (1u << q[0]) | (1u << q[1]) | (1u << q[2]);
            t->adj[q[0]] |= 1u << q[1];
            t->adj[q[1]] |= (1u << q[0]) | (1u << q[2]);
            t->adj[q[2]] |= 1u << q[1];
            for (int k = 0; k < 3; k++)
                t->pmill[q[k]][t->npm[q[k]]++] = t->line[l] & ~(1u << q[k]);
        }
    }
    uint64_t s = 0x4D6F727269735A6Bull; /* fixed seed: keys never change */
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < NPTS; i++)
            z_piece[c][i] = rng_next(&s);
    z_side = rng_next(&s);
    for (int c = 0; c < 2; c++)
        for (int h = 0; h <= MAX_PIECES; h++)
            z_hand[c][h] = rng_next(&s);
}

static void ensure_tables(void) { pthread_once(&tables_once, tables_init); }

static inline int popcnt(uint32_t x) { return __builtin_popcount(x); }
static inline int lsb(uint32_t x) { return __builtin_ctz(x); }

static inline Move enc(int from, int to, int rm)
{
    return (Move)((to + 1) | ((from + 1) << 5) | ((rm + 1) << 10));
}
static inline int mv_to(Move m) { return (int)(m & 31) - 1; }
static inline int mv_from(Move m) { return (int)((m >> 5) & 31) - 1; }
static inline int mv_rm(Move m) { return (int)((m >> 10) & 31) - 1; }

/* Pieces of bb that stand in a closed mill. */
static inline uint32_t in_mills(const Tables *t, uint32_t bb)
{
    uint32_t m = 0;
    for (int l = 0; l < t->nlines; l++)
        if ((bb & t->line[l]) == t->line[l])
            m |= t->line[l];
    return m;
}

/* Does a piece arriving on `to` close a mill with `own` (the mover's other
 * pieces, the origin already taken away)? */
static inline int closes_mill(const Tables *t, uint32_t own, int to)
{
    for (int k = 0; k < t->npm[to]; k++)
        if ((own & t->pmill[to][k]) == t->pmill[to][k])
            return 1;
    return 0;
}

/* The adverse pieces a mill may remove; 0 when the opponent has no piece
 * on the board (the mill then removes nothing). */
static inline uint32_t removable(const Tables *t, uint32_t opp)
{
    if (!opp)
        return 0;
    uint32_t free_pcs = opp & ~in_mills(t, opp);
    return free_pcs ? free_pcs : opp;
}

static inline int flies(const Pos *p, int s)
{
    return p->flying && p->hand[s] == 0 && popcnt(p->bb[s]) == 3;
}

static inline int material(const Pos *p, int s) { return popcnt(p->bb[s]) + p->hand[s]; }

/* Appends the turn from -> to, with each possible removal when it closes
 * a mill.  *rem is the removable set, computed on first need (~0u = not
 * yet): most turns close no mill. */
static inline int push_turn(const Tables *t, const Pos *p, uint32_t rest, int from, int to,
                            uint32_t *rem, Move *mv, int n)
{
    if (closes_mill(t, rest, to)) {
        if (*rem == ~0u)
            *rem = removable(t, p->bb[p->stm ^ 1]);
        if (*rem) {
            for (uint32_t r = *rem; r; r &= r - 1)
                mv[n++] = enc(from, to, lsb(r));
            return n;
        }
    }
    mv[n++] = enc(from, to, -1);
    return n;
}

static int morris_gen(const void *vp, Move *mv)
{
    const Pos *p = vp;
    const Tables *t = &tabs[p->diag];
    int s = p->stm;
    uint32_t own = p->bb[s], empty = ALL_PTS & ~(own | p->bb[s ^ 1]);
    uint32_t rem = ~0u;
    int n = 0;
    if (p->hand[s]) {
        for (uint32_t e = empty; e; e &= e - 1)
            n = push_turn(t, p, own, -1, lsb(e), &rem, mv, n);
        return n;
    }
    int fly = flies(p, s);
    for (uint32_t f = own; f; f &= f - 1) {
        int from = lsb(f);
        uint32_t rest = own & ~(1u << from);
        for (uint32_t dest = fly ? empty : (t->adj[from] & empty); dest; dest &= dest - 1)
            n = push_turn(t, p, rest, from, lsb(dest), &rem, mv, n);
    }
    return n;
}

/* Number of legal moves without listing them (perft's bulk count). */
static int morris_count(const Pos *p)
{
    const Tables *t = &tabs[p->diag];
    int s = p->stm;
    uint32_t own = p->bb[s], empty = ALL_PTS & ~(own | p->bb[s ^ 1]);
    int n = 0, closing = 0;
    if (p->hand[s]) {
        n = popcnt(empty);
        for (uint32_t e = empty; e; e &= e - 1)
            closing += closes_mill(t, own, lsb(e));
    } else {
        int fly = flies(p, s);
        for (uint32_t f = own; f; f &= f - 1) {
            int from = lsb(f);
            uint32_t rest = own & ~(1u << from);
            uint32_t dest = fly ? empty : (t->adj[from] & empty);
            n += popcnt(dest);
            for (; dest; dest &= dest - 1)
                closing += closes_mill(t, rest, lsb(dest));
        }
    }
    /* Each mill-closing turn comes once per removable piece. */
    if (closing) {
        uint32_t rem = removable(t, p->bb[s ^ 1]);
        if (rem)
            n += closing * (popcnt(rem) - 1);
    }
    return n;
}

static int has_move(const Pos *p)
{
    const Tables *t = &tabs[p->diag];
    int s = p->stm;
    uint32_t empty = ALL_PTS & ~(p->bb[0] | p->bb[1]);
    if (!empty)
        return 0;
    if (p->hand[s] || flies(p, s))
        return 1;
    for (uint32_t f = p->bb[s]; f; f &= f - 1)
        if (t->adj[lsb(f)] & empty)
            return 1;
    return 0;
}

static inline void apply(Pos *p, Move m)
{
    int s = p->stm, to = mv_to(m), from = mv_from(m), rm = mv_rm(m);
    Key k = p->key ^ z_side ^ z_piece[s][to];
    if (from >= 0) {
        p->bb[s] ^= (1u << from) | (1u << to);
        k ^= z_piece[s][from];
        p->rev++;
    } else {
        p->bb[s] |= 1u << to;
        k ^= z_hand[s][p->hand[s]] ^ z_hand[s][p->hand[s] - 1];
        p->hand[s]--;
        p->rev = 0;
    }
    if (rm >= 0) {
        p->bb[s ^ 1] &= ~(1u << rm);
        k ^= z_piece[s ^ 1][rm];
        p->rev = 0;
    }
    p->key = k;
    p->stm = (uint8_t)(s ^ 1);
}

static void morris_make(void *vp, Move m, void *vu)
{
    Pos *p = vp;
    Undo *u = vu;
    u->key = p->key;
    u->rev = p->rev;
    apply(p, m);
}

static void morris_unmake(void *vp, Move m, const void *vu)
{
    Pos *p = vp;
    const Undo *u = vu;
    int s = p->stm ^ 1, to = mv_to(m), from = mv_from(m), rm = mv_rm(m);
    if (rm >= 0)
        p->bb[s ^ 1] |= 1u << rm;
    if (from >= 0) {
        p->bb[s] ^= (1u << from) | (1u << to);
    } else {
        p->bb[s] &= ~(1u << to);
        p->hand[s]++;
    }
    p->stm = (uint8_t)s;
    p->key = u->key;
    p->rev = u->rev;
}

static int morris_stm(const void *vp) { return ((const Pos *)vp)->stm; }

static inline int loss_of(int s) { return s == SIDE_P1 ? RESULT_P2_WIN : RESULT_P1_WIN; }

static int morris_result(const void *vp)
{
    const Pos *p = vp;
    int s = p->stm;
    if (material(p, s) < 3)
        return loss_of(s);
    if (material(p, s ^ 1) < 3)
        return loss_of(s ^ 1);
    if (!has_move(p))
        return (p->bb[0] | p->bb[1]) == ALL_PTS ? RESULT_DRAW : loss_of(s);
    return RESULT_NONE;
}

static Key key_compute(const Pos *p)
{
    Key k = p->stm ? z_side : 0;
    for (int c = 0; c < 2; c++) {
        for (uint32_t b = p->bb[c]; b; b &= b - 1)
            k ^= z_piece[c][lsb(b)];
        k ^= z_hand[c][p->hand[c]];
    }
    return k;
}

static Key morris_key(const void *vp) { return ((const Pos *)vp)->key; }
static Key morris_key_scratch(const void *vp) { return key_compute(vp); }

/* The empty position of the options opt (NULL: the defaults) into *p: no
 * piece on the board nor in hand (the caller fills those), White to move.
 * Returns 0, or -1 with a message in err when an option is bad. */
static int pos_for_options(Pos *p, const GameOptions *opt, char *err, size_t errlen)
{
    GameOptions def;
    const GameOptions *o = game_options_or_default(opt, &def);
    if (o->pieces != 9 && o->pieces != 12) {
        snprintf(err, errlen, "morris: Pieces must be 9 or 12, not %d", o->pieces);
        return -1;
    }
    memset(p, 0, sizeof *p);
    p->pieces = (uint8_t)o->pieces;
    p->diag = o->diagonals ? 1 : 0;
    p->flying = o->flying ? 1 : 0;
    return 0;
}

static int morris_init(void *vp, const GameOptions *opt, char *err, size_t errlen)
{
    Pos p;
    ensure_tables();
    if (pos_for_options(&p, opt, err, errlen) < 0)
        return -1;
    p.hand[0] = p.hand[1] = p.pieces;
    p.key = key_compute(&p);
    memcpy(vp, &p, sizeof p);
    return 0;
}

/* A non-negative decimal number that ends the token; -1 if malformed. */
static long parse_count(const char *s, size_t len)
{
    if (len == 0 || len > 6)
        return -1;
    long v = 0;
    for (size_t i = 0; i < len; i++) {
        if (!isdigit((unsigned char)s[i]))
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

static int morris_from_fen(void *vp, const char *fen, const GameOptions *opt, char *err,
                           size_t errlen)
{
    Pos p;
    ensure_tables();
    if (pos_for_options(&p, opt, err, errlen) < 0)
        return -1;
    if (!fen) {
        snprintf(err, errlen, "morris fen: empty");
        return -1;
    }
    /* Split into whitespace-separated fields. */
    const char *tok[6];
    size_t tlen[6];
    int nt = 0;
    for (const char *c = fen; *c;) {
        while (*c && isspace((unsigned char)*c))
            c++;
        if (!*c)
            break;
        if (nt == 6) {
            snprintf(err, errlen, "morris fen: too many fields (want board side "
                                  "white-in-hand black-in-hand [plies])");
            return -1;
        }
        tok[nt] = c;
        while (*c && !isspace((unsigned char)*c))
            c++;
        tlen[nt] = (size_t)(c - tok[nt]);
        nt++;
    }
    if (nt < 4 || nt > 5) {
        snprintf(err, errlen, "morris fen: want 4 or 5 fields (board side "
                              "white-in-hand black-in-hand [plies]), got %d", nt);
        return -1;
    }
    /* Board: ranks 7 down to 1. */
    const char *b = tok[0], *bend = tok[0] + tlen[0];
    for (int r = 6; r >= 0; r--) {
        int filled = 0, lastdigit = 0;
        while (b < bend && *b != '/') {
            char ch = *b++;
            if (ch >= '1' && ch <= '6') {
                if (lastdigit) {
                    snprintf(err, errlen, "morris fen: two digits in a row in rank %d", r + 1);
                    return -1;
                }
                filled += ch - '0';
                lastdigit = 1;
            } else if (ch == 'W' || ch == 'B' || ch == 'w' || ch == 'b') {
                if (filled < rank_len[r]) {
                    int side = (ch == 'W' || ch == 'w') ? 0 : 1;
                    p.bb[side] |= 1u << (rank_first[r] + filled);
                }
                filled++;
                lastdigit = 0;
            } else {
                snprintf(err, errlen, "morris fen: bad character '%c' in the board", ch);
                return -1;
            }
            if (filled > rank_len[r]) {
                snprintf(err, errlen, "morris fen: rank %d has more than %d points", r + 1,
                         rank_len[r]);
                return -1;
            }
        }
        if (filled != rank_len[r]) {
            snprintf(err, errlen, "morris fen: rank %d has %d points, not %d", r + 1, filled,
                     rank_len[r]);
            return -1;
        }
        if (r > 0) {
            if (b >= bend) {
                snprintf(err, errlen, "morris fen: want 7 ranks separated by '/'");
                return -1;
            }
            b++; /* the '/' */
        }
    }
    if (b != bend) {
        snprintf(err, errlen, "morris fen: more than 7 ranks");
        return -1;
    }
    if (tlen[1] != 1 || (tok[1][0] != 'w' && tok[1][0] != 'b' && tok[1][0] != 'W' &&
                         tok[1][0] != 'B')) {
        snprintf(err, errlen, "morris fen: side to move must be 'w' or 'b'");
        return -1;
    }
    p.stm = (tok[1][0] == 'w' || tok[1][0] == 'W') ? SIDE_P1 : SIDE_P2;
    for (int c = 0; c < 2; c++) {
        long h = parse_count(tok[2 + c], tlen[2 + c]);
        if (h < 0) {
            snprintf(err, errlen, "morris fen: bad %s pieces-in-hand count",
                     c ? "Black" : "White");
            return -1;
        }
        if (h + popcnt(p.bb[c]) > p.pieces) {
            snprintf(err, errlen, "morris fen: %s has %ld in hand and %d on the board, "
                                  "more than Pieces=%d", c ? "Black" : "White", h,
                     popcnt(p.bb[c]), p.pieces);
            return -1;
        }
        p.hand[c] = (uint8_t)h;
    }
    if (nt == 5) {
        long r = parse_count(tok[4], tlen[4]);
        if (r < 0 || r > 65535) {
            snprintf(err, errlen, "morris fen: bad ply count since the last removal");
            return -1;
        }
        p.rev = (uint16_t)r;
    }
    p.key = key_compute(&p);
    memcpy(vp, &p, sizeof p);
    return 0;
}

static void morris_to_fen(const void *vp, char *buf, size_t len)
{
    const Pos *p = vp;
    char out[FEN_MAX];
    size_t n = 0;
    for (int r = 6; r >= 0; r--) {
        int run = 0;
        for (int i = 0; i < rank_len[r]; i++) {
            uint32_t bit = 1u << (rank_first[r] + i);
            char ch = (p->bb[0] & bit) ? 'W' : (p->bb[1] & bit) ? 'B' : 0;
            if (!ch) {
                run++;
                continue;
            }
            if (run)
                out[n++] = (char)('0' + run);
            run = 0;
            out[n++] = ch;
        }
        if (run)
            out[n++] = (char)('0' + run);
        if (r)
            out[n++] = '/';
    }
    out[n] = '\0';
    snprintf(buf, len, "%s %c %d %d %d", out, p->stm ? 'b' : 'w', p->hand[0], p->hand[1],
             p->rev);
}

static int morris_move_to_str(const void *vp, Move m, char *buf, size_t len)
{
    (void)vp;
    int to = mv_to(m), from = mv_from(m), rm = mv_rm(m);
    if (m == MOVE_NONE || to < 0 || to >= NPTS || from >= NPTS || rm >= NPTS)
        return snprintf(buf, len, "0000");
    char s[16];
    int n = 0;
    if (from >= 0)
        n += snprintf(s + n, sizeof s - (size_t)n, "%s-", point_name[from]);
    n += snprintf(s + n, sizeof s - (size_t)n, "%s", point_name[to]);
    if (rm >= 0)
        n += snprintf(s + n, sizeof s - (size_t)n, "x%s", point_name[rm]);
    return snprintf(buf, len, "%s", s);
}

/* Point named at s (two characters, any case), or -1. */
static int parse_point(const char *s)
{
    char f = (char)tolower((unsigned char)s[0]);
    char r = s[1];
    for (int i = 0; i < NPTS; i++)
        if (point_name[i][0] == f && point_name[i][1] == r)
            return i;
    return -1;
}

static Move morris_move_from_str(const void *vp, const char *s)
{
    /* Lower case without '-': "d2", "d2d3", "d2xa1", "d2d3xa1". */
    char t[16];
    int n = game_move_text_normalise(s, t, sizeof t);
    int from = -1, to, rm = -1;
    int i = 0;
    if (n != 2 && n != 4 && n != 5 && n != 7)
        return MOVE_NONE;
    if (n == 4 || n == 7) {
        from = parse_point(t);
        i = 2;
    }
    to = parse_point(t + i);
    i += 2;
    if (i < n) {
        if (t[i] != 'x')
            return MOVE_NONE;
        rm = parse_point(t + i + 1);
        if (rm < 0)
            return MOVE_NONE;
    }
    if (to < 0 || ((n == 4 || n == 7) && from < 0))
        return MOVE_NONE;
    Move want = enc(from, to, rm);
    Move moves[MORRIS_MAX_MOVES];
    int cnt = morris_gen(vp, moves);
    for (int k = 0; k < cnt; k++)
        if (moves[k] == want)
            return want;
    return MOVE_NONE;
}

/*
 * Evaluation: a weighted sum of differences (mover minus opponent), one
 * weight row per phase (placement, moving, flying: either side flies).
 * The weights were fitted by tools/eval_tune.c on 27,009 positions of 600
 * depth-4 self-play games, with moving.mobility and moving.blocked held at
 * their hand-set values (docs/tuning.md); the hand-set table before was
 * {100, 25, 20, 30, 2, -6}, {100, 30, 25, 45, 6, -12}, {100, 20, 40, 50, 2, -4}.
 */
enum { F_PIECES, F_MILLS, F_OPEN, F_DOUBLE, F_MOBILITY, F_BLOCKED, F_COUNT };
static int eval_weight[3][F_COUNT] = {
    /* pieces mills open double mobility blocked */
    {214, 25, 27, 159, 94, -42}, /* placement */
    {174, 29, 54, -7, 6, -12},   /* moving */
    {15, 70, 32, 32, 2, -4},     /* flying */
};

/* The table, row by row, for the tuner (tools/eval_tune.c). */
static const char *const eval_weight_names[3 * F_COUNT] = {
    "placement.pieces", "placement.mills", "placement.open",
    "placement.double", "placement.mobility", "placement.blocked",
    "moving.pieces",    "moving.mills",    "moving.open",
    "moving.double",    "moving.mobility",    "moving.blocked",
    "flying.pieces",    "flying.mills",    "flying.open",
    "flying.double",    "flying.mobility",    "flying.blocked",
};

int morris_weight_table(int **w, const char *const **names)
{
    *w = &eval_weight[0][0];
    *names = eval_weight_names;
    return 3 * F_COUNT;
}

static void features(const Pos *p, int s, int f[F_COUNT])
{
    const Tables *t = &tabs[p->diag];
    uint32_t own = p->bb[s], empty = ALL_PTS & ~(p->bb[0] | p->bb[1]);
    memset(f, 0, sizeof(int) * F_COUNT);
    f[F_PIECES] = material(p, s);
    uint32_t millpts = 0;
    for (int l = 0; l < t->nlines; l++) {
        uint32_t L = t->line[l];
        int c = popcnt(own & L);
        if (c == 3) {
            if (millpts & L)
                f[F_DOUBLE]++; /* shares a piece with another mill */
            millpts |= L;
            f[F_MILLS]++;
        } else if (c == 2 && (L & empty)) {
            f[F_OPEN]++;
        }
    }
    int fly = p->flying && popcnt(own) == 3 && p->hand[s] == 0;
    for (uint32_t b = own; b; b &= b - 1) {
        uint32_t d = t->adj[lsb(b)] & empty;
        if (!d)
            f[F_BLOCKED]++;
        f[F_MOBILITY] += popcnt(d);
    }
    if (fly)
        f[F_BLOCKED] = 0;
}

static int morris_evaluate(const void *vp)
{
    const Pos *p = vp;
    int s = p->stm;
    int a[F_COUNT], b[F_COUNT];
    features(p, s, a);
    features(p, s ^ 1, b);
    int phase = (p->hand[0] || p->hand[1]) ? 0 : (flies(p, 0) || flies(p, 1)) ? 2 : 1;
    int v = 0;
    for (int i = 0; i < F_COUNT; i++)
        v += eval_weight[phase][i] * (a[i] - b[i]);
    return v;
}

static int morris_noisy(const void *vp, Move m)
{
    (void)vp;
    return mv_rm(m) >= 0;
}

/* Light playout policy: a removal whenever one is legal (random among
 * them), otherwise a random move. */
static Move morris_playout_move(const void *vp, const Move *moves, int n, uint64_t *rng)
{
    (void)vp;
    int nm = 0;
    for (int i = 0; i < n; i++)
        if (mv_rm(moves[i]) >= 0)
            nm++;
    if (nm) {
        int k = (int)rng_below(rng, (uint32_t)nm);
        for (int i = 0; i < n; i++)
            if (mv_rm(moves[i]) >= 0 && k-- == 0)
                return moves[i];
    }
    return moves[rng_below(rng, (uint32_t)n)];
}

static void morris_print(const void *vp, FILE *out, int ansi)
{
    const Pos *p = vp;
    static const char *const pic[13] = {
        "7 o-----------o-----------o",
        "  |           |           |",
        "6 |   o-------o-------o   |",
        "  |   |       |       |   |",
        "5 |   |   o---o---o   |   |",
        "  |   |   |       |   |   |",
        "4 o---o---o       o---o---o",
        "  |   |   |       |   |   |",
        "3 |   |   o---o---o   |   |",
        "  |   |       |       |   |",
        "2 |   o-------o-------o   |",
        "  |           |           |",
        "1 o-----------o-----------o",
    };
    for (int row = 0; row < 13; row++) {
        char line[40];
        snprintf(line, sizeof line, "%s", pic[row]);
        if (p->diag && row % 2 == 1 && row != 5 && row != 7) {
            /* Diagonal strokes between the corners of the squares. */
            int upper = row < 6;
            int col = (row == 1 || row == 11) ? 4 : 8;
            line[col] = upper ? '\\' : '/';
            line[28 - col] = upper ? '/' : '\\';
        }
        for (int c = 0; line[c]; c++) {
            if (line[c] != 'o') {
                fputc(line[c], out);
                continue;
            }
            int rank = 7 - row / 2, file = (c - 2) / 4;
            char name[3] = {(char)('a' + file), (char)('0' + rank), 0};
            int q = parse_point(name);
            uint32_t bit = q >= 0 ? 1u << q : 0;
            if (p->bb[0] & bit)
                fputs(ansi ? "\033[1;37mW\033[0m" : "W", out);
            else if (p->bb[1] & bit)
                fputs(ansi ? "\033[1;31mB\033[0m" : "B", out);
            else
                fputc('.', out);
        }
        fputc('\n', out);
    }
    fputs("  a   b   c   d   e   f   g\n", out);
    fprintf(out, "%s to move; in hand White %d, Black %d; plies since removal %d\n",
            p->stm ? "Black" : "White", p->hand[0], p->hand[1], p->rev);
}

/* With bulk counting: the last ply is counted, not generated. */
static uint64_t perft_bulk(const Pos *p, int depth)
{
    if (material(p, 0) < 3 || material(p, 1) < 3)
        return 0;
    if (depth == 1)
        return (uint64_t)morris_count(p);
    Move moves[MORRIS_MAX_MOVES];
    int n = morris_gen(p, moves);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        Pos c = *p;
        apply(&c, moves[i]);
        total += perft_bulk(&c, depth - 1);
    }
    return total;
}

/* Without bulk counting every leaf is made; the leaves' keys are folded
 * into *acc so the makes cannot be optimised away. */
static uint64_t perft_leaves(const Pos *p, int depth, Key *acc)
{
    if (material(p, 0) < 3 || material(p, 1) < 3)
        return 0;
    Move moves[MORRIS_MAX_MOVES];
    int n = morris_gen(p, moves);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        Pos c = *p;
        apply(&c, moves[i]);
        if (depth == 1) {
            *acc ^= c.key;
            total++;
        } else {
            total += perft_leaves(&c, depth - 1, acc);
        }
    }
    return total;
}

static _Atomic Key perft_sink;

static uint64_t morris_perft(void *vp, int depth, int bulk)
{
    const Pos *p = vp;
    if (depth <= 0)
        return 1;
    if (bulk)
        return perft_bulk(p, depth);
    Key acc = 0;
    uint64_t n = perft_leaves(p, depth, &acc);
    atomic_store_explicit(&perft_sink, acc, memory_order_relaxed);
    return n;
}

static int morris_reversible(const void *vp) { return ((const Pos *)vp)->rev; }

const Game game_morris = {
    .name = "morris",
    .pos_size = sizeof(Pos),
    .undo_size = sizeof(Undo),
    .max_moves = MORRIS_MAX_MOVES,
    .repetition_count = 3,
    .init = morris_init,
    .from_fen = morris_from_fen,
    .to_fen = morris_to_fen,
    .gen_moves = morris_gen,
    .make = morris_make,
    .unmake = morris_unmake,
    .side_to_move = morris_stm,
    .result = morris_result,
    .key = morris_key,
    .key_from_scratch = morris_key_scratch,
    .evaluate = morris_evaluate,
    .move_is_noisy = morris_noisy,
    .move_to_str = morris_move_to_str,
    .move_from_str = morris_move_from_str,
    .print = morris_print,
    .perft = morris_perft,
    .playout_move = morris_playout_move,
    .solve = NULL,
    .reversible_plies = morris_reversible,
    .uses_move_rule = 1,
};
