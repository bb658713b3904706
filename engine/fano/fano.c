/*
 * fano.c -- Fano330-R-Morris (Masahiro Nakajima), as RULES.md settles it,
 * and its exact solution by retrograde analysis (solver in fano_solve.c).
 *
 * Points 1..7 are indices 0..6.  Pieces are of four kinds:
 *
 *     kind 0 white circle 'C'   kind 1 white triangle 'T'
 *     kind 2 black circle 'c'   kind 3 black triangle 't'
 *
 * so colour = kind >> 1 and shape = kind & 1.  A point holds a stack of at
 * most two pieces: lo[] is the bottom piece, hi[] the one on top of it,
 * each stored as kind + 1 (0 = none); a single piece sits in lo[].
 *
 * Move (32 bits): bits 0-2 destination point index, bits 3-5 origin index
 * + 1 (0 for a placement), bit 6 the shape placed (0 circle, 1 triangle),
 * bit 7 always set so that no move is MOVE_NONE.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "fano_internal.h"

#define FANO_MAX_MOVES 32

/* The seven lines, points 1..7 as RULES.md lists them. */
static const int fano_lines[7][3] = {{1, 2, 4}, {5, 2, 3}, {3, 4, 6}, {6, 1, 5},
                                     {2, 7, 6}, {4, 7, 5}, {1, 7, 3}};
/* The 15 adjacent pairs. */
static const int fano_pairs[15][2] = {{5, 2}, {2, 3}, {3, 4}, {4, 6}, {6, 1},
                                      {1, 5}, {2, 7}, {7, 6}, {4, 7}, {7, 5},
                                      {1, 7}, {7, 3}, {1, 2}, {2, 4}, {4, 1}};

static const char kind_char[4] = {'C', 'T', 'c', 't'};

uint8_t fano_has_line[128];
uint8_t fano_adj[7][7];
uint8_t fano_nadj[7];
static Key z_piece[7][2][4], z_side;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void tables_init(void)
{
    uint8_t lm[7];
    for (int l = 0; l < 7; l++)
        lm[l] = (uint8_t)((1u << (fano_lines[l][0] - 1)) | (1u << (fano_lines[l][1] - 1)) |
                          (1u << (fano_lines[l][2] - 1)));
    for (int m = 0; m < 128; m++) {
        fano_has_line[m] = 0;
        for (int l = 0; l < 7; l++)
            if ((m & lm[l]) == lm[l])
                fano_has_line[m] = 1;
    }
    memset(fano_nadj, 0, sizeof fano_nadj);
    for (int i = 0; i < 15; i++) {
        int a = fano_pairs[i][0] - 1, b = fano_pairs[i][1] - 1;
        fano_adj[a][fano_nadj[a]++] = (uint8_t)b;
        fano_adj[b][fano_nadj[b]++] = (uint8_t)a;
    }
    uint64_t s = 0x46616E6F33333052ull; /* fixed seed: keys never change */
    for (int p = 0; p < 7; p++)
        for (int l = 0; l < 2; l++)
            for (int k = 0; k < 4; k++)
                z_piece[p][l][k] = rng_next(&s);
    z_side = rng_next(&s);
}

void fano_tables(void)
{
    pthread_once(&tables_once, tables_init);
}

int fano_lost_line(const FanoPos *p)
{
    unsigned km[4] = {0, 0, 0, 0};
    for (int i = 0; i < 7; i++) {
        int t = p->hi[i] ? p->hi[i] : p->lo[i];
        if (t)
            km[t - 1] |= 1u << i;
    }
    return fano_has_line[km[0] | km[1]] | fano_has_line[km[2] | km[3]] |
           fano_has_line[km[0] | km[2]] | fano_has_line[km[1] | km[3]];
}

static inline Move enc(int from, int to, int shape)
{
    return (Move)(to | ((from + 1) << 3) | (shape << 6) | 0x80);
}
static inline int mv_to(Move m)
{
    return (int)(m & 7);
}
static inline int mv_from(Move m)
{
    return (int)((m >> 3) & 7) - 1;
}
static inline int mv_shape(Move m)
{
    return (int)((m >> 6) & 1);
}

/* Can a piece of kind k (0..3) go onto point q? */
static inline int can_land(const FanoPos *p, int q, int k)
{
    return !p->lo[q] || (!p->hi[q] && p->lo[q] != k + 1);
}

int fano_gen(const void *vp, Move *mv)
{
    const FanoPos *p = vp;
    int s = p->stm, n = 0;
    if (p->hand[2 * s] | p->hand[2 * s + 1]) {
        for (int sh = 0; sh < 2; sh++) {
            int k = 2 * s + sh;
            if (!p->hand[k])
                continue;
            for (int q = 0; q < 7; q++)
                if (can_land(p, q, k))
                    mv[n++] = enc(-1, q, sh);
        }
        return n;
    }
    for (int a = 0; a < 7; a++) {
        int t = p->hi[a] ? p->hi[a] : p->lo[a];
        if (!t || ((t - 1) >> 1) != s)
            continue;
        for (int j = 0; j < fano_nadj[a]; j++) {
            int q = fano_adj[a][j];
            if (can_land(p, q, t - 1))
                mv[n++] = enc(a, q, 0);
        }
    }
    return n;
}

void fano_apply(FanoPos *p, Move m)
{
    int s = p->stm, to = mv_to(m), from = mv_from(m);
    int k;
    Key key = p->key ^ z_side;
    if (from < 0) {
        k = 2 * s + mv_shape(m);
        p->hand[k]--;
    } else if (p->hi[from]) {
        k = p->hi[from] - 1;
        p->hi[from] = 0;
        key ^= z_piece[from][1][k];
    } else {
        k = p->lo[from] - 1;
        p->lo[from] = 0;
        key ^= z_piece[from][0][k];
    }
    if (p->lo[to]) {
        p->hi[to] = (uint8_t)(k + 1);
        key ^= z_piece[to][1][k];
    } else {
        p->lo[to] = (uint8_t)(k + 1);
        key ^= z_piece[to][0][k];
    }
    p->key = key;
    p->stm = (uint8_t)(s ^ 1);
}

typedef struct Undo {
    Key key;
} Undo;

_Static_assert(sizeof(FanoPos) <= POS_MAX_BYTES, "fano position too large");
_Static_assert(sizeof(Undo) <= UNDO_MAX_BYTES, "fano undo too large");

static void fano_make(void *vp, Move m, void *vu)
{
    ((Undo *)vu)->key = ((FanoPos *)vp)->key;
    fano_apply(vp, m);
}

static void fano_unmake(void *vp, Move m, const void *vu)
{
    FanoPos *p = vp;
    int s = p->stm ^ 1, to = mv_to(m), from = mv_from(m), k;
    if (p->hi[to]) {
        k = p->hi[to] - 1;
        p->hi[to] = 0;
    } else {
        k = p->lo[to] - 1;
        p->lo[to] = 0;
    }
    if (from < 0)
        p->hand[k]++;
    else if (p->lo[from])
        p->hi[from] = (uint8_t)(k + 1);
    else
        p->lo[from] = (uint8_t)(k + 1);
    p->stm = (uint8_t)s;
    p->key = ((const Undo *)vu)->key;
}

static int fano_stm(const void *vp)
{
    return ((const FanoPos *)vp)->stm;
}

int fano_result(const void *vp)
{
    const FanoPos *p = vp;
    int s = p->stm;
    /* A line on the board: the side that just moved made it and lost. */
    if (fano_lost_line(p))
        return s == SIDE_P1 ? RESULT_P1_WIN : RESULT_P2_WIN;
    Move mv[FANO_MAX_MOVES];
    if (fano_gen(p, mv) == 0)
        return s == SIDE_P1 ? RESULT_P2_WIN : RESULT_P1_WIN;
    return RESULT_NONE;
}

Key fano_key_compute(const FanoPos *p)
{
    Key k = p->stm ? z_side : 0;
    for (int i = 0; i < 7; i++) {
        if (p->lo[i])
            k ^= z_piece[i][0][p->lo[i] - 1];
        if (p->hi[i])
            k ^= z_piece[i][1][p->hi[i] - 1];
    }
    return k;
}

static Key fano_key(const void *vp)
{
    return ((const FanoPos *)vp)->key;
}
static Key fano_key_scratch(const void *vp)
{
    return fano_key_compute(vp);
}

static int fano_init(void *vp, const GameOptions *opt, char *err, size_t errlen)
{
    (void)opt;
    (void)err;
    (void)errlen;
    fano_tables();
    FanoPos p;
    memset(&p, 0, sizeof p);
    for (int k = 0; k < 4; k++)
        p.hand[k] = 2;
    p.key = fano_key_compute(&p);
    memcpy(vp, &p, sizeof p);
    return 0;
}

static int kind_of_char(char c)
{
    for (int k = 0; k < 4; k++)
        if (kind_char[k] == c)
            return k;
    return -1;
}

static int fano_from_fen(void *vp, const char *fen, const GameOptions *opt, char *err,
                         size_t errlen)
{
    (void)opt;
    fano_tables();
    if (!fen) {
        snprintf(err, errlen, "fano fen: empty");
        return -1;
    }
    FanoPos p;
    memset(&p, 0, sizeof p);
    const char *c = fen;
    while (isspace((unsigned char)*c))
        c++;
    int count[4] = {0, 0, 0, 0};
    for (int i = 0; i < 7; i++) {
        int h = 0;
        if (*c == '.') {
            c++;
        } else {
            while (*c && *c != '/' && !isspace((unsigned char)*c)) {
                int k = kind_of_char(*c);
                if (k < 0) {
                    snprintf(err, errlen,
                             "fano fen: bad character '%c' at point %d "
                             "(want C T c t or .)",
                             *c, i + 1);
                    return -1;
                }
                if (h == 2) {
                    snprintf(err, errlen, "fano fen: point %d holds more than 2 pieces", i + 1);
                    return -1;
                }
                if (h == 1 && p.lo[i] == k + 1) {
                    snprintf(err, errlen, "fano fen: point %d stacks two identical pieces '%c'",
                             i + 1, *c);
                    return -1;
                }
                if (++count[k] > 2) {
                    snprintf(err, errlen, "fano fen: more than 2 pieces '%c'", *c);
                    return -1;
                }
                if (h == 0)
                    p.lo[i] = (uint8_t)(k + 1);
                else
                    p.hi[i] = (uint8_t)(k + 1);
                h++;
                c++;
            }
            if (h == 0) {
                snprintf(err, errlen, "fano fen: point %d is blank (use '.' for empty)", i + 1);
                return -1;
            }
        }
        if (i < 6) {
            if (*c != '/') {
                snprintf(err, errlen,
                         "fano fen: want 7 points separated by '/' "
                         "(problem after point %d)",
                         i + 1);
                return -1;
            }
            c++;
        }
    }
    if (!isspace((unsigned char)*c)) {
        snprintf(err, errlen, "fano fen: want 7 points, then a space and the side w or b");
        return -1;
    }
    while (isspace((unsigned char)*c))
        c++;
    if ((*c != 'w' && *c != 'b' && *c != 'W' && *c != 'B')) {
        snprintf(err, errlen, "fano fen: side to move must be 'w' or 'b'");
        return -1;
    }
    p.stm = (*c == 'w' || *c == 'W') ? SIDE_P1 : SIDE_P2;
    c++;
    while (isspace((unsigned char)*c))
        c++;
    if (*c) {
        snprintf(err, errlen, "fano fen: unexpected text after the side to move");
        return -1;
    }
    for (int k = 0; k < 4; k++)
        p.hand[k] = (uint8_t)(2 - count[k]);
    p.key = fano_key_compute(&p);
    memcpy(vp, &p, sizeof p);
    return 0;
}

static void fano_to_fen(const void *vp, char *buf, size_t len)
{
    const FanoPos *p = vp;
    char out[64];
    size_t n = 0;
    for (int i = 0; i < 7; i++) {
        if (i)
            out[n++] = '/';
        if (!p->lo[i])
            out[n++] = '.';
        else {
            out[n++] = kind_char[p->lo[i] - 1];
            if (p->hi[i])
                out[n++] = kind_char[p->hi[i] - 1];
        }
    }
    out[n] = '\0';
    snprintf(buf, len, "%s %c", out, p->stm ? 'b' : 'w');
}

static int fano_move_to_str(const void *vp, Move m, char *buf, size_t len)
{
    (void)vp;
    int from = mv_from(m), to = mv_to(m);
    if (m == MOVE_NONE || to > 6 || from > 6)
        return snprintf(buf, len, "0000");
    if (from < 0)
        return snprintf(buf, len, "%c@%d", mv_shape(m) ? 't' : 'c', to + 1);
    return snprintf(buf, len, "%d-%d", from + 1, to + 1);
}

static Move fano_move_from_str(const void *vp, const char *s)
{
    char t[8];
    int n = game_move_text_normalise(s, t, sizeof t);
    Move want;
    if (n == 3 && (t[0] == 'c' || t[0] == 't') && t[1] == '@' && t[2] >= '1' && t[2] <= '7')
        want = enc(-1, t[2] - '1', t[0] == 't');
    else if (n == 2 && t[0] >= '1' && t[0] <= '7' && t[1] >= '1' && t[1] <= '7')
        want = enc(t[0] - '1', t[1] - '1', 0);
    else
        return MOVE_NONE;
    Move mv[FANO_MAX_MOVES];
    int cnt = fano_gen(vp, mv);
    for (int i = 0; i < cnt; i++)
        if (mv[i] == want)
            return want;
    return MOVE_NONE;
}

/* Moves of the side to move that do not form a line at once, times 10:
 * the solver decides Fano; this is only a tie-breaker for searchers. */
static int fano_evaluate(const void *vp)
{
    FanoPos c;
    Move mv[FANO_MAX_MOVES];
    int n = fano_gen(vp, mv), safe = 0;
    for (int i = 0; i < n; i++) {
        memcpy(&c, vp, sizeof c);
        fano_apply(&c, mv[i]);
        safe += !fano_lost_line(&c);
    }
    return 10 * safe;
}

static int fano_noisy(const void *vp, Move m)
{
    (void)vp;
    (void)m;
    return 0;
}

/* Playouts avoid moves that lose on the spot when they can. */
static Move fano_playout_move(const void *vp, const Move *moves, int n, uint64_t *rng)
{
    FanoPos c;
    int start = (int)rng_below(rng, (uint32_t)n);
    for (int j = 0; j < n; j++) {
        Move m = moves[(start + j) % n];
        memcpy(&c, vp, sizeof c);
        fano_apply(&c, m);
        if (!fano_lost_line(&c))
            return m;
    }
    return moves[start];
}

static void stack_text(const FanoPos *p, int i, char out[4])
{
    int n = 0;
    if (p->lo[i])
        out[n++] = kind_char[p->lo[i] - 1];
    if (p->hi[i])
        out[n++] = kind_char[p->hi[i] - 1];
    if (!n)
        out[n++] = '.';
    out[n] = '\0';
}

static void fano_print(const void *vp, FILE *out, int ansi)
{
    (void)ansi;
    const FanoPos *p = vp;
    char s[7][4];
    for (int i = 0; i < 7; i++)
        stack_text(p, i, s[i]);
    fprintf(out, "                3:%-2s\n", s[2]);
    fprintf(out, "               /  |  \\\n");
    fprintf(out, "          2:%-2s  7:%-2s  4:%-2s\n", s[1], s[6], s[3]);
    fprintf(out, "           /      |      \\\n");
    fprintf(out, "      5:%-2s ----- 1:%-2s ----- 6:%-2s\n", s[4], s[0], s[5]);
    fprintf(out, "  (lines 1-2-4 circle, 5-2-3, 3-4-6, 6-1-5, 2-7-6, 4-7-5, 1-7-3;\n"
                 "   stacks bottom to top: C T white, c t black)\n");
    fprintf(out, "%s to move; in hand White %dC %dT, Black %dc %dt\n", p->stm ? "Black" : "White",
            p->hand[0], p->hand[1], p->hand[2], p->hand[3]);
}

/* Perft carries the masks of top pieces per kind (km[]) and updates them
 * with each move instead of recomputing them for the line test. */
static inline int lost_masks(const uint8_t km[4])
{
    return fano_has_line[km[0] | km[1]] | fano_has_line[km[2] | km[3]] |
           fano_has_line[km[0] | km[2]] | fano_has_line[km[1] | km[3]];
}

static inline void masks_after(const FanoPos *p, Move m, const uint8_t km[4], uint8_t out[4])
{
    int to = mv_to(m), from = mv_from(m), k;
    memcpy(out, km, 4);
    if (from < 0) {
        k = 2 * p->stm + mv_shape(m);
    } else {
        int lo = p->lo[from], hi = p->hi[from];
        k = (hi ? hi : lo) - 1;
        out[k] &= (uint8_t) ~(1u << from);
        if (hi) /* uncovers the bottom piece */
            out[lo - 1] |= (uint8_t)(1u << from);
    }
    if (p->lo[to]) /* covers it */
        out[p->lo[to] - 1] &= (uint8_t) ~(1u << to);
    out[k] |= (uint8_t)(1u << to);
}

static uint64_t perft_rec(const FanoPos *p, const uint8_t km[4], int depth, int bulk)
{
    if (lost_masks(km))
        return 0;
    Move mv[FANO_MAX_MOVES];
    int n = fano_gen(p, mv);
    if (depth == 1 && bulk)
        return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        FanoPos c = *p;
        uint8_t ck[4];
        masks_after(p, mv[i], km, ck);
        fano_apply(&c, mv[i]);
        total += depth == 1 ? 1 : perft_rec(&c, ck, depth - 1, bulk);
    }
    return total;
}

static uint64_t fano_perft(void *vp, int depth, int bulk)
{
    const FanoPos *p = vp;
    if (depth <= 0)
        return 1;
    uint8_t km[4] = {0, 0, 0, 0};
    for (int i = 0; i < 7; i++) {
        int t = p->hi[i] ? p->hi[i] : p->lo[i];
        if (t)
            km[t - 1] |= (uint8_t)(1u << i);
    }
    return perft_rec(p, km, depth, bulk);
}

static const GamePlayout fano_playout = {
    .move = fano_playout_move,
};

static const GameSolver fano_solver = {
    .prepare = fano_prepare,
    .solve = fano_solve,
};

static const GameSetup fano_setup = {
    .opening_plies = 2,
};

const Game game_fano = {
    .name = "fano",
    .pos_size = sizeof(FanoPos),
    .undo_size = sizeof(Undo),
    .max_moves = FANO_MAX_MOVES,
    .side_names = {"White", "Black"},
    .init = fano_init,
    .from_fen = fano_from_fen,
    .to_fen = fano_to_fen,
    .gen_moves = fano_gen,
    .make = fano_make,
    .unmake = fano_unmake,
    .side_to_move = fano_stm,
    .result = fano_result,
    .repetition_count = 2,
    .reversible_plies = NULL, /* scan the whole history */
    .key = fano_key,
    .key_from_scratch = fano_key_scratch,
    .evaluate = fano_evaluate,
    .move_is_noisy = fano_noisy,
    .move_to_str = fano_move_to_str,
    .move_from_str = fano_move_from_str,
    .print = fano_print,
    .perft = fano_perft,
    .search = NULL,
    .playout = &fano_playout,
    .solver = &fano_solver,
    .setup = &fano_setup,
};
