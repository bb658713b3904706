/*
 * morris_internal.h -- shared by the files of the Nine Men's Morris family
 * (engine/morris/); nothing outside this folder includes it.
 *
 *   morris.c       tables, Zobrist keys, move generation, make/unmake,
 *                  result, perft and the Game descriptor
 *   morris_text.c  options, FEN, move text and the picture of `d`
 *   morris_eval.c  evaluation (the tuner's weight table) and playouts
 *   morris_egtb.c  endgame tables (retrograde analysis), solve()
 *   morris_place.c the last placements searched exactly down to the tables;
 *                  GameSolver.solve and .prepare
 *   morris_solved.c the move played from a table position (progress where
 *                  the distance does not say enough)
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
#ifndef MORELLI_MORRIS_INTERNAL_H
#define MORELLI_MORRIS_INTERNAL_H

#include "game.h"
#include "morris.h"

#define NPTS 24
#define ALL_PTS 0xFFFFFFu
#define MAX_LINES 20
#define MAX_PIECES 12
/* Step pairs (80 directed edges with diagonals) times removals (at most 12
 * adverse pieces on the board) bound every other kind of turn too. */
#define MORRIS_MAX_MOVES 960

/* Per board (0 plain, 1 with diagonals): lines, neighbours, and for each
 * point the masks of the two other points of each line through it. */
typedef struct Tables {
    int nlines;
    uint32_t line[MAX_LINES];
    uint32_t adj[NPTS];
    int npm[NPTS];
    uint32_t pmill[NPTS][3];
    /* Per line family (0 horizontal, 1 vertical, 2 diagonal) and triple
     * (morris_internal.h's triples, below): the points next to the line
     * and off it, where a piece of a closed mill can step out. */
    uint32_t exits[3][8];
} Tables;

/*
 * The lines as triples of consecutive bits.  The points of a rank are
 * consecutive already (the 8 horizontal lines start at bits 0, 3, ..., 21:
 * TRIPLE_BASE); each point is also on exactly one vertical line, so a fixed
 * permutation of the 24 points (to_v, back with from_v) makes the 8
 * vertical lines triples at the same bases; another (to_d, from_d) makes
 * the 4 diagonal lines triples at bits 0, 3, 6, 9 (DIAG_BASE).  A line test
 * then runs over 8 lines at once with shifts.  Each table maps a point set
 * byte by byte.
 */
#define TRIPLE_BASE 0x249249u
#define DIAG_BASE 0x249u
typedef struct Perm {
    uint32_t byte[3][256];
} Perm;
extern Perm morris_to_v, morris_from_v, morris_to_d, morris_from_d;

static inline uint32_t perm(const Perm *pm, uint32_t x)
{
    return pm->byte[0][x & 255] | pm->byte[1][(x >> 8) & 255] | pm->byte[2][(x >> 16) & 255];
}

/* The empty points (of e) that complete a line of two pieces of x. */
static inline uint32_t tri_close(uint32_t x, uint32_t e, uint32_t B)
{
    uint32_t a0 = x & B, a1 = (x >> 1) & B, a2 = (x >> 2) & B;
    uint32_t e0 = e & B, e1 = (e >> 1) & B, e2 = (e >> 2) & B;
    return (e0 & a1 & a2) | ((a0 & e1 & a2) << 1) | ((a0 & a1 & e2) << 2);
}

/* The empty points where a piece of own would complete a line of two. */
static inline uint32_t closing_points(int diag, uint32_t own, uint32_t empty)
{
    uint32_t cl = tri_close(own, empty, TRIPLE_BASE);
    cl |= perm(&morris_from_v,
               tri_close(perm(&morris_to_v, own), perm(&morris_to_v, empty), TRIPLE_BASE));
    if (diag)
        cl |= perm(&morris_from_d,
                   tri_close(perm(&morris_to_d, own), perm(&morris_to_d, empty), DIAG_BASE));
    return cl;
}

/* The position: see game.h; everything a rule needs lives here. */
typedef struct Pos {
    Key key;
    uint32_t bb[2];     /* pieces on the board, per side */
    uint32_t move_rule; /* option MoveRule: rev that draws, 0 = off */
    uint16_t rev;       /* plies since the last placement or removal */
    uint8_t hand[2];    /* pieces still to place */
    uint8_t stm;        /* SIDE_P1 (White) or SIDE_P2 (Black) */
    uint8_t pieces;     /* option Pieces: 9 or 12 */
    uint8_t diag;       /* option Diagonals */
    uint8_t flying;     /* option Flying */
    uint8_t fresh;      /* the last move was the game's last placement (a FEN
                       * cannot say so: 0 when read from one) */
} Pos;

typedef struct Undo {
    Key key;
    uint16_t rev;
    uint8_t fresh;
} Undo;

/* morris_tabs[0]: plain board, [1]: with diagonals (built once, see
 * morris_ensure_tables()). */
extern Tables morris_tabs[2];
extern Key morris_z_piece[2][NPTS], morris_z_side, morris_z_hand[2][MAX_PIECES + 1];

void morris_ensure_tables(void);

static inline int popcnt(uint32_t x)
{
    return __builtin_popcount(x);
}
static inline int lsb(uint32_t x)
{
    return __builtin_ctz(x);
}

static inline Move enc(int from, int to, int rm)
{
    return (Move)((to + 1) | ((from + 1) << 5) | ((rm + 1) << 10));
}
static inline int mv_to(Move m)
{
    return (int)(m & 31) - 1;
}
static inline int mv_from(Move m)
{
    return (int)((m >> 5) & 31) - 1;
}
static inline int mv_rm(Move m)
{
    return (int)((m >> 10) & 31) - 1;
}

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

/* How many of the empty points cl, where pieces would complete a line of
 * two of them, a piece of pieces off that line can step onto next turn;
 * counted up to stop (the callers ask "one?", "two?", "exactly one?"). */
static inline int step_closers(const Tables *t, uint32_t pieces, uint32_t cl, int stop)
{
    int n = 0;
    for (; cl && n < stop; cl &= cl - 1) {
        int e = lsb(cl);
        for (int k = 0; k < t->npm[e]; k++) {
            uint32_t pm = t->pmill[e][k];
            if ((pieces & pm) == pm && (t->adj[e] & pieces & ~pm)) {
                n++;
                break;
            }
        }
    }
    return n;
}

static inline int flies(const Pos *p, int s)
{
    return p->flying && p->hand[s] == 0 && popcnt(p->bb[s]) == 3;
}

static inline int material(const Pos *p, int s)
{
    return popcnt(p->bb[s]) + p->hand[s];
}

static inline int loss_of(int s)
{
    return s == SIDE_P1 ? RESULT_P2_WIN : RESULT_P1_WIN;
}

/* Plays m on p (no undo record; perft and copy-make callers). */
static inline void apply(Pos *p, Move m)
{
    int s = p->stm, to = mv_to(m), from = mv_from(m), rm = mv_rm(m);
    Key k = p->key ^ morris_z_side ^ morris_z_piece[s][to];
    if (from >= 0) {
        p->bb[s] ^= (1u << from) | (1u << to);
        k ^= morris_z_piece[s][from];
        p->rev++;
    } else {
        p->bb[s] |= 1u << to;
        k ^= morris_z_hand[s][p->hand[s]] ^ morris_z_hand[s][p->hand[s] - 1];
        p->hand[s]--;
        p->rev = 0;
    }
    p->fresh = from < 0 && !p->hand[0] && !p->hand[1];
    if (rm >= 0) {
        p->bb[s ^ 1] &= ~(1u << rm);
        k ^= morris_z_piece[s ^ 1][rm];
        p->rev = 0;
    }
    p->key = k;
    p->stm = (uint8_t)(s ^ 1);
}

/* morris.c */
int morris_gen(const void *pos, Move *moves);
int morris_has_move(const Pos *p);
Key morris_key_compute(const Pos *p);
/* Game.result: the rules' result of the position (no history). */
int morris_result(const void *pos);

/* morris_text.c */
int morris_init(void *pos, const GameOptions *opt, char *err, size_t errlen);
int morris_from_fen(void *pos, const char *fen, const GameOptions *opt, char *err, size_t errlen);
void morris_to_fen(const void *pos, char *buf, size_t len);
int morris_move_to_str(const void *pos, Move m, char *buf, size_t len);
Move morris_move_from_str(const void *pos, const char *s);
void morris_print(const void *pos, FILE *out, int ansi);

/* morris_eval.c */
int morris_evaluate(const void *pos);
/* The same without the tables: the weighted terms alone. */
int morris_eval_heuristic(const Pos *p);
/* The tuner's view of the evaluation weights (the descriptor's weights and
 * print_weights, engine/tune). */
int morris_weight_table(int **w, const char *const **names);
void morris_print_weights(const int *w, const char *const *names, int n, FILE *out);
int morris_noisy(const void *pos, Move m);
void morris_move_order(const void *pos, const Move *mv, int n, int *hint);
int morris_prune(const void *pos, int depth, int eval, int alpha, int beta);
Move morris_playout_move(const void *pos, const Move *moves, int n, uint64_t *rng);

/* morris_egtb.c (the rest is in morris.h).  A table value as an evaluation:
 * +-(MORRIS_EGTB_SCORE - plies), far above any heuristic score and below
 * the search's proven range. */
#define MORRIS_EGTB_SCORE 20000
int morris_egtb_eval(const Pos *p, int *score);
int morris_solve(const void *pos, int *value, Move *best);
/* GameSolver.prepare: starts the tables' build for pos's rules in the
 * background when pos is in or near them. */
void morris_prepare(const void *pos);

/* morris_place.c: the exact search of the last placements (pieces in hand,
 * both sides together, at most PLACE_HAND_MAX there) down to the tables;
 * GameSolver.solve's values, 0 when unknown (a leaf outside the tables, or
 * over its node budget).  morris_solve_any is GameSolver.solve: this search
 * with pieces in hand, the tables after the placement. */
int morris_place_solve(const void *pos, int *value, Move *best);
/* The same search with a table (morris_place_table_new: 2^bits entries of
 * 16 bytes) and a budget of the caller's (PlaceRun).  Returns 1 with the
 * value and a best move, or 0: the position is not one of the placement,
 * or the budget ran out, give_up said so, or a leaf lay outside the tables
 * (run->missing then holds its pieces, White's and Black's). */
typedef struct PlaceTable PlaceTable;
typedef struct PlaceRun {
    uint64_t max_nodes; /* 0: no limit */
    /* asked every 4096 nodes with share: non-zero ends the search (may be
     * NULL) */
    int (*give_up)(void *ctx, int share);
    int share;
    /* called every 2^25 nodes with the nodes so far (may be NULL) */
    void (*progress)(void *ctx, uint64_t nodes);
    void *ctx;
    uint64_t nodes; /* out: the nodes searched, answered or not */
    int missing[2]; /* out */
} PlaceRun;
PlaceTable *morris_place_table_new(int bits);
void morris_place_table_free(PlaceTable *t);
int morris_place_search(const void *pos, PlaceTable *tt, PlaceRun *run, int *value, Move *best);
int morris_solve_any(const void *pos, int *value, Move *best);
/* GameSolver.solve_until: the same with more pieces in hand
 * (PLACE_GO_HAND_MAX) and no node limit, until give_up says so. */
int morris_solve_until(const void *pos, int (*give_up)(void *ctx, int share), void *ctx, int *value,
                       Move *best);
/* GameSolver.prepare: morris_prepare, also for the last placements. */
void morris_prepare_any(const void *pos);
/* morris_solved.c: morris_solve's value, and its move made to progress
 * where the tables' distance does not say enough (docs/solved.md). */
int morris_solve_moving(const void *pos, int *value, Move *best);

#endif
