/*
 * morris.c -- the Nine Men's Morris family (9 or 12 pieces, optional
 * diagonals, optional flying): board tables, Zobrist keys, move
 * generation, make/unmake, the result of a position, perft, and the Game
 * descriptor.  Board and move layout: morris_internal.h.  Text (options,
 * FEN, moves, picture): morris_text.c; evaluation: morris_eval.c.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "morris_internal.h"
#include "options.h"

/* The 16 lines of the plain board, then the 4 diagonals. */
static const int line_pts[MAX_LINES][3] = {
    {21, 22, 23}, {18, 19, 20}, {15, 16, 17}, {9, 10, 11},  {12, 13, 14}, {6, 7, 8}, {3, 4, 5},
    {0, 1, 2},    {0, 9, 21},   {3, 10, 18},  {6, 11, 15},  {22, 19, 16}, {7, 4, 1}, {8, 12, 17},
    {5, 13, 20},  {2, 14, 23},  {0, 3, 6},    {21, 18, 15}, {23, 20, 17}, {2, 5, 8}};

Tables morris_tabs[2];
Perm morris_to_v, morris_from_v, morris_to_d, morris_from_d;
Key morris_z_piece[2][NPTS], morris_z_side, morris_z_hand[2][MAX_PIECES + 1];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void tables_init(void)
{
    for (int d = 0; d < 2; d++) {
        Tables *t = &morris_tabs[d];
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
    /* The permutations of the triples (morris_internal.h): the vertical
     * lines are lines 8-15, the diagonals 16-19 of line_pts. */
    for (int l = 8; l < 20; l++)
        for (int k = 0; k < 3; k++) {
            int pt = line_pts[l][k], at = 3 * (l < 16 ? l - 8 : l - 16) + k;
            Perm *to = l < 16 ? &morris_to_v : &morris_to_d;
            Perm *from = l < 16 ? &morris_from_v : &morris_from_d;
            for (int b = 0; b < 256; b++) {
                if (b >> (pt & 7) & 1)
                    to->byte[pt >> 3][b] |= 1u << at;
                if (b >> (at & 7) & 1)
                    from->byte[at >> 3][b] |= 1u << pt;
            }
        }
    for (int d = 0; d < 2; d++)
        for (int f = 0; f < 3; f++)
            for (int i = 0; i < 8; i++) {
                uint32_t L = 7u << (3 * i), x = 0;
                if (f == 1)
                    L = perm(&morris_from_v, L);
                else if (f == 2)
                    L = i < 4 ? perm(&morris_from_d, L) : 0;
                for (uint32_t q = L; q; q &= q - 1)
                    x |= morris_tabs[d].adj[lsb(q)];
                morris_tabs[d].exits[f][i] = x & ~L;
            }
    uint64_t s = 0x4D6F727269735A6Bull; /* fixed seed: keys never change */
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < NPTS; i++)
            morris_z_piece[c][i] = rng_next(&s);
    morris_z_side = rng_next(&s);
    for (int c = 0; c < 2; c++)
        for (int h = 0; h <= MAX_PIECES; h++)
            morris_z_hand[c][h] = rng_next(&s);
}

void morris_ensure_tables(void)
{
    pthread_once(&tables_once, tables_init);
}

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

int morris_gen(const void *vp, Move *mv)
{
    const Pos *p = vp;
    const Tables *t = &morris_tabs[p->diag];
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

/* The turns of gen that remove a piece (want 1: noisy) or do not (want 0:
 * quiet), in gen's order.  A mill-closing turn removes a piece unless the
 * opponent has none on the board; it goes to a closing point. */
static int gen_part(const Pos *p, Move *mv, int want)
{
    const Tables *t = &morris_tabs[p->diag];
    int s = p->stm;
    uint32_t own = p->bb[s], empty = ALL_PTS & ~(own | p->bb[s ^ 1]);
    /* a removable piece exists when the opponent has one on the board */
    uint32_t cl = p->bb[s ^ 1] ? closing_points(p->diag, own, empty) : 0;
    if (want && !cl)
        return 0;
    uint32_t rem = want ? removable(t, p->bb[s ^ 1]) : 0;
    int n = 0, hand = p->hand[s] != 0, fly = flies(p, s);
    for (uint32_t f = hand ? 1 : own; f; f &= f - 1) {
        int from = hand ? -1 : lsb(f);
        uint32_t rest = hand ? own : own & ~(1u << from);
        uint32_t dest = hand || fly ? empty : t->adj[from] & empty;
        if (want)
            dest &= cl;
        for (; dest; dest &= dest - 1) {
            int to = lsb(dest);
            int noisy = (cl >> to & 1) && closes_mill(t, rest, to);
            if (noisy != want)
                continue;
            if (noisy)
                for (uint32_t r = rem; r; r &= r - 1)
                    mv[n++] = enc(from, to, lsb(r));
            else
                mv[n++] = enc(from, to, -1);
        }
    }
    return n;
}

static int morris_gen_noisy(const void *vp, Move *mv, const void *note)
{
    (void)note;
    return gen_part(vp, mv, 1);
}
static int morris_gen_quiet(const void *vp, Move *mv)
{
    return gen_part(vp, mv, 0);
}

/* Is m, any 32-bit value, a legal turn of p? */
static int morris_move_legal(const void *vp, Move m)
{
    const Pos *p = vp;
    const Tables *t = &morris_tabs[p->diag];
    int s = p->stm, to = mv_to(m), from = mv_from(m), rm = mv_rm(m);
    uint32_t own = p->bb[s], empty = ALL_PTS & ~(own | p->bb[s ^ 1]);
    if ((m >> 15) || to < 0 || to >= NPTS || !(empty >> to & 1))
        return 0;
    if (p->hand[s]) {
        if (from >= 0)
            return 0;
    } else {
        if (from < 0 || from >= NPTS || !(own >> from & 1))
            return 0;
        if (!flies(p, s) && !(t->adj[from] >> to & 1))
            return 0;
        own &= ~(1u << from);
    }
    uint32_t rem = closes_mill(t, own, to) ? removable(t, p->bb[s ^ 1]) : 0;
    if (!rem)
        return rm == -1;
    return rm >= 0 && rm < NPTS && (rem >> rm & 1);
}

/* Number of legal moves without listing them (perft's bulk count). */
static int morris_count(const Pos *p)
{
    const Tables *t = &morris_tabs[p->diag];
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

int morris_has_move(const Pos *p)
{
    const Tables *t = &morris_tabs[p->diag];
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

/*
 * GameSearch.forced: during the placement, while the side to move still has
 * FORCED_HAND pieces or more to place, the opponent threatens exactly one
 * mill for its next turn (one empty point completing a line of two of its
 * pieces that it can fill: with a piece in hand, by flying, or by a step
 * from off that line) and the side to move has no mill of its own to
 * close.  Its reply is then forced: block that point, or lose a piece.
 * Not in the last placements: there the search needs its depth to see
 * into the moving phase, where walls decide (docs/rules-morris.md).
 * Also the first position of the moving phase (Pos.fresh: the move before
 * was the game's last placement): its static evaluation guesses at walls
 * that a few steps show, so the search looks one ply further there.
 */
#define FORCED_HAND 4
static int morris_forced(const void *vp)
{
    const Pos *p = vp;
    int s = p->stm, o = s ^ 1;
    if (p->fresh)
        return 1;
    if (p->hand[s] < FORCED_HAND)
        return 0;
    uint32_t own = p->bb[s], opp = p->bb[o], empty = ALL_PTS & ~(own | opp);
    if (!opp || closing_points(p->diag, own, empty))
        return 0;
    uint32_t cl = closing_points(p->diag, opp, empty);
    if (!cl)
        return 0;
    /* with a piece in hand or flying it reaches every one of them */
    if (p->hand[o] || flies(p, o))
        return !(cl & (cl - 1));
    return step_closers(&morris_tabs[p->diag], opp, cl, 2) == 1;
}

static void morris_make(void *vp, Move m, void *vu)
{
    Pos *p = vp;
    Undo *u = vu;
    u->key = p->key;
    u->rev = p->rev;
    u->fresh = p->fresh;
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
    p->fresh = u->fresh;
}

static int morris_stm(const void *vp)
{
    return ((const Pos *)vp)->stm;
}

int morris_result(const void *vp)
{
    const Pos *p = vp;
    int s = p->stm;
    if (material(p, s) < 3)
        return loss_of(s);
    if (material(p, s ^ 1) < 3)
        return loss_of(s ^ 1);
    if (!morris_has_move(p))
        return (p->bb[0] | p->bb[1]) == ALL_PTS ? RESULT_DRAW : loss_of(s);
    return RESULT_NONE;
}

Key morris_key_compute(const Pos *p)
{
    Key k = p->stm ? morris_z_side : 0;
    for (int c = 0; c < 2; c++) {
        for (uint32_t b = p->bb[c]; b; b &= b - 1)
            k ^= morris_z_piece[c][lsb(b)];
        k ^= morris_z_hand[c][p->hand[c]];
    }
    return k;
}

static Key morris_key(const void *vp)
{
    return ((const Pos *)vp)->key;
}
static Key morris_key_scratch(const void *vp)
{
    return morris_key_compute(vp);
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

static int morris_reversible(const void *vp)
{
    return ((const Pos *)vp)->rev;
}
static int morris_move_rule(const void *vp)
{
    return (int)((const Pos *)vp)->move_rule;
}

static const int64_t piece_counts[] = {9, 12, OPTION_ONLY_END};
static const Option morris_options[] = {
    {"Pieces", OPTION_SPIN, 9, 9, 12, NULL, piece_counts, offsetof(MorrisOptions, pieces)},
    {"Diagonals", OPTION_CHECK, 0, 0, 1, NULL, NULL, offsetof(MorrisOptions, diagonals)},
    {"Flying", OPTION_CHECK, 1, 0, 1, NULL, NULL, offsetof(MorrisOptions, flying)},
    {"MoveRule", OPTION_SPIN, 100, 0, 100000, NULL, NULL, offsetof(MorrisOptions, move_rule)},
};

/* Morris's search profile: with its ordering hints the first moves are
 * the good ones far more often than in the other games, so it reduces from
 * the third move by small steps and prunes none; the placement transposes
 * all the time (ETC, and IIR where the table has no move). */
static const GameSearch morris_search = {
    .profile = {.iir_depth = 4,
                .etc_depth = 3,
                .lmr_late = 2,
                .lmr_later = 4,
                .lmr_style = LMR_STEPS,
                .lmp = 0},
    .gen_noisy = morris_gen_noisy,
    .gen_quiet = morris_gen_quiet,
    .move_legal = morris_move_legal,
    .move_order = morris_move_order,
    .prune = morris_prune,
    .forced = morris_forced,
};

static const GamePlayout morris_playout = {
    .move = morris_playout_move,
};

static const GameSolver morris_solver = {
    .prepare = morris_prepare_any,
    .solve = morris_solve_any,
    .solve_until = morris_solve_until,
};

static const GameTuning morris_tuning = {
    .weights = morris_weight_table,
    .print_weights = morris_print_weights,
};

static const GameSetup morris_setup = {
    .opening_plies = 4,
};

const Game game_morris = {
    .name = "morris",
    .pos_size = sizeof(Pos),
    .undo_size = sizeof(Undo),
    .max_moves = MORRIS_MAX_MOVES,
    .side_names = {"White", "Black"},
    .options = morris_options,
    .option_count = (int)(sizeof morris_options / sizeof morris_options[0]),
    .opts_size = sizeof(MorrisOptions),
    .init = morris_init,
    .from_fen = morris_from_fen,
    .to_fen = morris_to_fen,
    .gen_moves = morris_gen,
    .make = morris_make,
    .unmake = morris_unmake,
    .side_to_move = morris_stm,
    .result = morris_result,
    .repetition_count = 3,
    .reversible_plies = morris_reversible,
    .move_rule = morris_move_rule,
    .key = morris_key,
    .key_from_scratch = morris_key_scratch,
    .evaluate = morris_evaluate,
    .move_is_noisy = morris_noisy,
    .move_to_str = morris_move_to_str,
    .move_from_str = morris_move_from_str,
    .print = morris_print,
    .perft = morris_perft,
    .search = &morris_search,
    .playout = &morris_playout,
    .solver = &morris_solver,
    .tuning = &morris_tuning,
    .setup = &morris_setup,
};
