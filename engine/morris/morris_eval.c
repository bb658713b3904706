/*
 * morris_eval.c -- the Morris family's static evaluation (a weighted sum of
 * features, one weight row per phase, exposed to the tuner), the move
 * classification for ordering, and the playout policy.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "morris.h"
#include "morris_internal.h"

/*
 * Evaluation: a weighted sum of differences (mover minus opponent), one
 * weight row per phase (placement, moving, flying: either side flies).
 * The weights were fitted by the tuner (bench/eval_tune_main.c) on 102,698
 * positions of 2,000 depth-6 self-play games, placement.pieces and
 * flying.pieces held fixed, the three few weights at 0 (docs/tuning.md);
 * placement.tempo is set by hand (docs/rules-morris.md).  During placement
 * almost every mill can run, so mills and runmill there share one effect
 * (their sum).
 */
enum {
    F_PIECES,
    F_MILLS,
    F_OPEN,
    F_DOUBLE,
    F_MOBILITY,
    F_BLOCKED,
    F_FRONTIER, /* distinct empty points next to the side's pieces */
    F_STUCK,    /* walled in: no step now (moving), or the opponent's pieces in
                 * hand could fill every empty point next to ours (placement) */
    F_RUNMILL,  /* closed mills with a piece that can step out and back */
    F_LOCKED,   /* walled in by the opponent: no empty neighbour, every
                 * neighbour the opponent's or walled in too (a fixpoint) */
    F_CRAMP,    /* a near-blockade: 3 minus the empty points next to the
                 * side's pieces (placement: those the opponent's pieces in
                 * hand could not all fill), at least 0 */
    F_FEW,      /* 3 minus the pieces that can step now, at least 0 */
    F_TEMPO,    /* 1 for the side to move (its turn: during placement one
                 * more piece goes down before the other answers) */
    F_COUNT
};
static int eval_weight[3][F_COUNT] = {
    /* pieces mills open double mobility blocked frontier stuck runmill
     * locked cramp few tempo */
    {214, 14, 10, 17, 58, -70, -3, -100, 134, 23, -78, 0, 120}, /* placement */
    {214, -12, 59, -55, 29, -46, -27, 0, 172, -33, -125, 0, 0}, /* moving */
    {15, 56, 37, -92, 16, 2, -8, 0, 16, -34, -26, 0, 0},        /* flying */
};

/* The table, row by row, for the tuner (tools/eval_tune.c). */
static const char *const eval_weight_names[3 * F_COUNT] = {
    "placement.pieces",   "placement.mills",   "placement.open",     "placement.double",
    "placement.mobility", "placement.blocked", "placement.frontier", "placement.stuck",
    "placement.runmill",  "placement.locked",  "placement.cramp",    "placement.few",
    "placement.tempo",    "moving.pieces",     "moving.mills",       "moving.open",
    "moving.double",      "moving.mobility",   "moving.blocked",     "moving.frontier",
    "moving.stuck",       "moving.runmill",    "moving.locked",      "moving.cramp",
    "moving.few",         "moving.tempo",      "flying.pieces",      "flying.mills",
    "flying.open",        "flying.double",     "flying.mobility",    "flying.blocked",
    "flying.frontier",    "flying.stuck",      "flying.runmill",     "flying.locked",
    "flying.cramp",       "flying.few",        "flying.tempo",
};

int morris_weight_table(int **w, const char *const **names)
{
    *w = &eval_weight[0][0];
    *names = eval_weight_names;
    return 3 * F_COUNT;
}

/* The table as the initialiser of eval_weight[][] above. */
void morris_print_weights(const int *w, const char *const *names, int n, FILE *out)
{
    static const char *const rows[] = {"placement", "moving", "flying"};
    if (n != 3 * F_COUNT) {
        for (int i = 0; i < n; i++)
            fprintf(out, "    %d, /* %s */\n", w[i], names[i]);
        return;
    }
    fprintf(out, "static int eval_weight[3][F_COUNT] = {\n"
                 "    /* pieces mills open double mobility blocked frontier stuck runmill\n"
                 "     * locked cramp few tempo */\n");
    for (int r = 0; r < 3; r++) {
        fprintf(out, "    {");
        for (int j = 0; j < F_COUNT; j++)
            fprintf(out, "%s%d", j ? ", " : "", w[r * F_COUNT + j]);
        fprintf(out, "}, /* %s */\n", rows[r]);
    }
    fprintf(out, "};\n");
}

/*
 * The position with every line a triple of one 64-bit word (the triples
 * of morris_internal.h side by side): bits 0-23 the points as they are
 * (the horizontal lines), bits 24-35 the diagonal layout (on the board
 * with diagonals; 0 without), bits 36-59 the vertical layout.  The 20
 * triples sit at bits 0, 3, ..., 57 (LINE_BASE), triples 0-7 horizontal,
 * 8-11 diagonal, 12-19 vertical, so that a line test runs over every line
 * at once.  X[0]: the side to move's pieces, X[1] the other side's, E the
 * empty points; the permutations are taken once per position.
 */
#define LINE_BASE 0x249249249249249ull
#define LINE_D 24
#define LINE_V 36

typedef struct Layouts {
    int diag;
    int n[2], hand[2], fly[2]; /* per side as x: pieces on the board, in hand, flies */
    uint32_t x[2], empty;
    uint64_t X[2], E;
} Layouts;

static inline void layouts(const Pos *p, Layouts *l)
{
    int s = p->stm;
    l->diag = p->diag;
    l->x[0] = p->bb[s];
    l->x[1] = p->bb[s ^ 1];
    l->empty = ALL_PTS & ~(l->x[0] | l->x[1]);
    uint64_t all = ALL_PTS | (uint64_t)ALL_PTS << LINE_V;
    for (int k = 0; k < 2; k++) {
        l->n[k] = popcnt(l->x[k]);
        l->hand[k] = p->hand[s ^ k];
        l->fly[k] = p->flying & (l->n[k] == 3) & !l->hand[k];
        l->X[k] = l->x[k] | (uint64_t)perm(&morris_to_v, l->x[k]) << LINE_V;
    }
    if (l->diag) {
        all |= (uint64_t)0xFFF << LINE_D; /* the 12 points on a diagonal */
        for (int k = 0; k < 2; k++)
            l->X[k] |= (uint64_t)perm(&morris_to_d, l->x[k]) << LINE_D;
    }
    l->E = all & ~(l->X[0] | l->X[1]);
}

static inline int popcnt64(uint64_t x)
{
    return __builtin_popcountll(x);
}

/* The lines of three pieces of X (their base bits). */
static inline uint64_t lines_full(uint64_t X)
{
    return X & (X >> 1) & (X >> 2) & LINE_BASE;
}

/* The lines of two pieces of X and an empty point of E (their base bits). */
static inline uint64_t lines_open(uint64_t X, uint64_t E)
{
    return ((E & (X >> 1) & (X >> 2)) | (X & (E >> 1) & (X >> 2)) | (X & (X >> 1) & (E >> 2))) &
           LINE_BASE;
}

/* The empty points of E that complete a line of two pieces of X. */
static inline uint64_t lines_close(uint64_t X, uint64_t E)
{
    uint64_t a0 = X & LINE_BASE, a1 = (X >> 1) & LINE_BASE, a2 = (X >> 2) & LINE_BASE;
    uint64_t e0 = E & LINE_BASE, e1 = (E >> 1) & LINE_BASE, e2 = (E >> 2) & LINE_BASE;
    return (e0 & a1 & a2) | ((a0 & e1 & a2) << 1) | ((a0 & a1 & e2) << 2);
}

/* The steps between a piece of X and an empty point of E: pairs of
 * neighbours on a line (the middle point is next to the two others). */
static inline int lines_steps(uint64_t X, uint64_t E)
{
    return popcnt64(((X & (E >> 1)) | (E & (X >> 1))) & (LINE_BASE | LINE_BASE << 1));
}

/*
 * The points next to a set of points, byte by byte as the permutations of
 * morris_internal.h: nb_byte[d][j][b] is the union of Tables.adj of board
 * d over the points 8j + i of the bits i of b.  Built once from
 * morris_tabs (nb_tables()), after which neighbours() is three loads.
 */
static uint32_t nb_byte[2][3][256];
static atomic_int nb_ready;
static pthread_once_t nb_once = PTHREAD_ONCE_INIT;

static void nb_init(void)
{
    for (int d = 0; d < 2; d++)
        for (int j = 0; j < 3; j++)
            for (int b = 0; b < 256; b++) {
                uint32_t n = 0;
                for (int i = 0; i < 8; i++)
                    if (b >> i & 1)
                        n |= morris_tabs[d].adj[8 * j + i];
                nb_byte[d][j][b] = n;
            }
    atomic_store_explicit(&nb_ready, 1, memory_order_release);
}

/* The neighbour table of board diag (built on first use). */
static inline const uint32_t (*nb_tables(int diag))[256]
{
    if (!atomic_load_explicit(&nb_ready, memory_order_acquire))
        pthread_once(&nb_once, nb_init);
    return nb_byte[diag];
}

static inline uint32_t neighbours(const uint32_t (*nb)[256], uint32_t y)
{
    return nb[0][y & 255] | nb[1][(y >> 8) & 255] | nb[2][(y >> 16) & 255];
}

/* A side's steps: the empty points next to its pieces (front), every
 * point next to them (near), its steps (mobility), its pieces without an
 * empty neighbour (walled: blocked of them). */
typedef struct Steps {
    uint32_t front, near, walled;
    int mobility, blocked;
} Steps;

/* Side k's (0: the side to move) steps; nbe: the points next to an empty
 * point. */
static inline void steps(const Layouts *l, const uint32_t (*nb)[256], int k, uint32_t nbe,
                         Steps *st)
{
    uint32_t x = l->x[k];
    st->near = neighbours(nb, x);
    st->front = st->near & l->empty;
    st->walled = x & ~nbe;
    st->blocked = popcnt(st->walled);
    st->mobility = lines_steps(l->X[k], l->E);
}

/*
 * Side s's pieces walled in by the opponent: none of them has an empty
 * neighbour, and every neighbour is the opponent's or one of them, so none
 * can step until the opponent moves a piece of the wall away or s removes
 * one (with a mill of its other pieces).  The greatest such set: start from
 * own's pieces without an empty neighbour (W) and drop any next to an own
 * piece outside the set until none is dropped.  (Counting the opponent's
 * wall as locked too, the only such set would be the whole board: a set of
 * points that holds every neighbour of its points is empty or all of this
 * connected board.)
 */
static uint32_t walled_pieces(const uint32_t (*nb)[256], uint32_t own, uint32_t W)
{
    while (W) {
        uint32_t keep = W & ~neighbours(nb, own & ~W);
        if (keep == W)
            break;
        W = keep;
    }
    return W;
}

/*
 * The lines (base bits of the word layout) with a point next to an empty
 * point (nbe: the points next to one).  A closed mill's exits (Tables.exits:
 * the points next to it and off it) hold an empty point exactly when one
 * of its points is in nbe, as its own points are not empty: so a mill
 * runs (a piece can step out) when it is in this set.
 */
static inline uint64_t lines_touching(const Layouts *l, uint32_t nbe)
{
    uint64_t N = nbe | (uint64_t)perm(&morris_to_v, nbe) << LINE_V;
    if (l->diag)
        N |= (uint64_t)perm(&morris_to_d, nbe) << LINE_D;
    return (N | (N >> 1) | (N >> 2)) & LINE_BASE;
}

/* Side k's terms of the lines, all lines of a family at once (the triples
 * of morris_internal.h): closed mills, mills sharing a piece with a mill
 * of an earlier family (double: a vertical with a horizontal, a diagonal
 * with either), mills with a piece that can step out (runmill), and open
 * lines of two and an empty point. */
static inline void line_features(const Layouts *l, int k, uint64_t runs, int f[F_COUNT])
{
    uint64_t X = l->X[k], m = lines_full(X);
    f[F_MILLS] = popcnt64(m);
    f[F_OPEN] = popcnt64(lines_open(X, l->E));
    f[F_DOUBLE] = 0;
    f[F_RUNMILL] = 0;
    if (!m)
        return;
    f[F_RUNMILL] = popcnt64(m & runs);
    uint32_t hm = (uint32_t)m & ALL_PTS, vm = (uint32_t)(m >> LINE_V);
    uint32_t dm = (uint32_t)(m >> LINE_D) & 0xFFFu;
    if (hm && vm) {
        uint32_t s = perm(&morris_to_v, hm * 7);
        f[F_DOUBLE] = popcnt((s | (s >> 1) | (s >> 2)) & vm);
    }
    if (dm) {
        uint32_t s = perm(&morris_to_d, hm * 7 | perm(&morris_from_v, vm * 7));
        f[F_DOUBLE] += popcnt((s | (s >> 1) | (s >> 2)) & dm);
    }
}

/* The features of side k (0: the side to move, 1 the other), whose steps
 * are st. */
static inline void side_features(const uint32_t (*nb)[256], int k, const Steps *st,
                                 const Layouts *l, int f[F_COUNT])
{
    int n = l->n[k], hand = l->hand[k], ohand = l->hand[k ^ 1], fly = l->fly[k];
    f[F_PIECES] = n + hand;
    f[F_TEMPO] = k == 0;
    f[F_MOBILITY] = st->mobility;
    f[F_BLOCKED] = fly ? 0 : st->blocked;
    f[F_FRONTIER] = popcnt(st->front);
    f[F_LOCKED] = fly || !st->blocked ? 0 : popcnt(walled_pieces(nb, l->x[k], st->walled));
    /* the near-blockade terms once the side has placed all its pieces */
    int exits = f[F_FRONTIER] - ohand;
    int movable = n - st->blocked;
    int done = !fly && !hand && n;
    f[F_CRAMP] = !done || exits >= 3 ? 0 : 3 - (exits > 0 ? exits : 0);
    f[F_FEW] = !done || movable >= 3 ? 0 : 3 - movable;
    if (fly)
        f[F_STUCK] = 0;
    else if (hand || ohand)
        f[F_STUCK] = n && f[F_FRONTIER] <= ohand;
    else
        f[F_STUCK] = !st->front;
}

/*
 * Can the side to move wall the opponent in with one turn (a blockade one
 * ply early)?  Against a side that does not fly and has no piece in hand:
 * the opponent's pieces (whose steps are os) have at most one empty point
 * next to them, and one of ours gets there without closing a mill (a
 * removal could free them): a step (or flight) from a point next to none
 * of theirs (so the step frees nothing), or the last placement of the
 * game (a placement frees nothing; it must leave a point empty, as a full
 * board is a draw).
 */
static int blockade_in_one(const Tables *t, const Layouts *l, const Steps *os)
{
    if (l->hand[1] || l->hand[0] > 1 || l->fly[1])
        return 0;
    uint32_t own = l->x[0], empty = l->empty, front = os->front;
    if (front & (front - 1))
        return 0; /* two exits or more */
    /* Onto their one exit; or, when they have none, anywhere. */
    uint32_t onto = front ? front : empty;
    if (l->hand[0]) {
        if (!(empty & (empty - 1)))
            return 0; /* the board would be full */
        for (; onto; onto &= onto - 1)
            if (!closes_mill(t, own, lsb(onto)))
                return 1;
        return 0;
    }
    int fly = l->fly[0];
    for (uint32_t b = own & ~os->near; b; b &= b - 1) {
        int from = lsb(b);
        uint32_t rest = own & ~(1u << from);
        uint32_t dest = fly ? onto : onto & t->adj[from];
        for (; dest; dest &= dest - 1)
            if (!closes_mill(t, rest, lsb(dest)))
                return 1;
    }
    return 0;
}

/* The empty points where a piece of side k would complete a line of two
 * (closing_points() of morris_internal.h on the layouts at hand). */
static inline uint32_t closing(const Layouts *l, int k)
{
    uint64_t c = lines_close(l->X[k], l->E);
    uint32_t cl = ((uint32_t)c & ALL_PTS) | perm(&morris_from_v, (uint32_t)(c >> LINE_V));
    if (l->diag)
        cl |= perm(&morris_from_d, (uint32_t)(c >> LINE_D) & 0xFFFu);
    return cl;
}

/*
 * A fork of the side not to move: two empty points or more where it could
 * complete a line of two next turn (a piece in hand, or a step from off
 * that line).  The side to move blocks one at most, so unless it closes a
 * mill first (the quiescence search tries that) it loses a piece.
 */
#define FORK_PENALTY 150
static int opponent_forks(const Tables *t, const Layouts *l)
{
    uint32_t cl = closing(l, 1);
    if (!(cl & (cl - 1)))
        return 0;
    if (l->hand[1])
        return 1;
    return step_closers(t, l->x[1], cl, 2) == 2;
}

int morris_evaluate(const void *vp)
{
    const Pos *p = vp;
    int tb;
    /* (the tables hold no position with a piece in hand; the files may
     * hold classes of more pieces than those built in memory, so the end
     * of the placement is scored by them whenever they are there) */
    if (!(p->hand[0] | p->hand[1]) && morris_egtb_eval(p, &tb))
        return tb;
    return morris_eval_heuristic(p);
}

int morris_eval_heuristic(const Pos *p)
{
    const Tables *t = &morris_tabs[p->diag];
    Layouts l;
    layouts(p, &l);
    const uint32_t(*nb)[256] = nb_tables(p->diag);
    uint32_t nbe = neighbours(nb, l.empty);
    Steps st[2];
    steps(&l, nb, 0, nbe, &st[0]);
    steps(&l, nb, 1, nbe, &st[1]);
    if (blockade_in_one(t, &l, &st[1]))
        return MORRIS_EGTB_SCORE - 1; /* a win in one ply */
    int a[F_COUNT], b[F_COUNT];
    uint64_t runs = lines_touching(&l, nbe);
    line_features(&l, 0, runs, a);
    line_features(&l, 1, runs, b);
    side_features(nb, 0, &st[0], &l, a);
    side_features(nb, 1, &st[1], &l, b);
    int phase = (l.hand[0] | l.hand[1]) ? 0 : (l.fly[0] | l.fly[1]) ? 2 : 1;
    int v = 0;
    for (int i = 0; i < F_COUNT; i++)
        v += eval_weight[phase][i] * (a[i] - b[i]);
    if (phase < 2 && opponent_forks(t, &l))
        v -= FORK_PENALTY;
    return v;
}

/*
 * Ordering hints (GameSearch.move_order): threats.  A turn that puts a piece on
 * the point where the opponent would close a mill (a block), that leaves a
 * line of two of ours with an empty third point we can reach next turn (a
 * threat: a piece stepping out of a mill it can close again is one), or
 * that removes a piece of a line of two, scores up; one that steps off a
 * point where the opponent would close a mill scores down.
 */
#define ORD_BLOCK 8        /* onto the opponent's closing point */
#define ORD_BLOCK_NEAR 16  /* ... which it could reach next turn */
#define ORD_THREAT 8       /* a closing point of ours we can reach */
#define ORD_THREAT_FREE 16 /* ... which the opponent cannot reach */

/* The position as order_one() reads it: the mover's pieces (own) and the
 * opponent's (opp), and whether a piece of either can come onto any
 * point next turn whatever its neighbours (pieces in hand after the turn,
 * or three on the board when flying): the mover after a placement
 * (free_s[0]) or a step (free_s[1]), the opponent without a removal
 * (free_o[0]) or with one (free_o[1]). */
typedef struct OrderCtx {
    const Tables *t;
    uint32_t own, opp;
    int free_s[2], free_o[2];
} OrderCtx;

/* A turn's pieces after it (own2, opp2, empty2) and whether a piece of
 * the mover (fs) or the opponent (fo) can come onto any point next turn. */
typedef struct OrderTurn {
    const Tables *t;
    uint32_t own2, opp2, empty2;
    int fs, fo;
} OrderTurn;

/* reach: can a piece of the mover (own2) or the opponent (opp2) come onto
 * e next turn without leaving the line pm? */
static inline int reach_s(const OrderTurn *u, int e, uint32_t pm)
{
    return u->fs || (u->t->adj[e] & u->own2 & ~pm);
}

static inline int reach_o(const OrderTurn *u, int e, uint32_t pm)
{
    return u->fo || (u->t->adj[e] & u->opp2 & ~pm);
}

/* The turn's point to and pm, the two other points of a line through it. */
static inline int order_to(const OrderTurn *u, int to, uint32_t pm)
{
    if ((u->opp2 & pm) == pm) /* a block */
        return ORD_BLOCK + (reach_o(u, to, pm) ? ORD_BLOCK_NEAR : 0);
    if ((u->own2 & pm) && (u->empty2 & pm)) { /* pm: one of ours, one empty */
        int e = lsb(u->empty2 & pm);
        if (reach_s(u, e, pm | (1u << to)))
            return ORD_THREAT + (reach_o(u, e, 0) ? 0 : ORD_THREAT_FREE);
    }
    return 0;
}

/* The turn's origin from and pm, the two other points of a line through it. */
static inline int order_from(const OrderTurn *u, int from, uint32_t pm)
{
    if ((u->own2 & pm) == pm) { /* out of a mill: back next turn? */
        if (reach_s(u, from, pm))
            return ORD_THREAT + (reach_o(u, from, 0) ? 0 : ORD_THREAT_FREE);
    } else if ((u->opp2 & pm) == pm && reach_o(u, from, pm)) {
        return -ORD_BLOCK_NEAR; /* lets them close a mill */
    }
    return 0;
}

/* Every point lies on two lines or three (a diagonal too): the third's
 * pmill is read only when there is one. */
static inline int order_one(const OrderCtx *c, Move m)
{
    const Tables *t = c->t;
    /* the origin and the removed point + 1 (0: none), their bits */
    int to = mv_to(m), fr = mv_from(m) + 1, rr = mv_rm(m) + 1;
    uint32_t frb = (1u << fr) >> 1, rmb = (1u << rr) >> 1;
    OrderTurn u = {.t = t, .own2 = (c->own | (1u << to)) & ~frb, .opp2 = c->opp & ~rmb};
    u.empty2 = ALL_PTS & ~(u.own2 | u.opp2);
    u.fs = c->free_s[fr != 0];
    u.fo = c->free_o[rr != 0];
    int v = 32 + order_to(&u, to, t->pmill[to][0]) + order_to(&u, to, t->pmill[to][1]);
    if (t->npm[to] > 2)
        v += order_to(&u, to, t->pmill[to][2]);
    if (fr) {
        int from = fr - 1;
        v += order_from(&u, from, t->pmill[from][0]) + order_from(&u, from, t->pmill[from][1]);
        if (t->npm[from] > 2)
            v += order_from(&u, from, t->pmill[from][2]);
    }
    if (rr) {
        int rm = rr - 1;
        for (int k = 0; k < t->npm[rm]; k++) {
            uint32_t pm = t->pmill[rm][k];
            if ((c->opp & pm) && (u.empty2 & pm)) /* pm: one of theirs, one empty */
                v += ORD_BLOCK;                   /* breaks a line of two */
        }
    }
    return v < 0 ? 0 : v > 255 ? 255 : v;
}

void morris_move_order(const void *vp, const Move *mv, int n, int *hint)
{
    const Pos *p = vp;
    int s = p->stm, o = s ^ 1, hs = p->hand[s], ho = p->hand[o];
    OrderCtx c = {.t = &morris_tabs[p->diag], .own = p->bb[s], .opp = p->bb[o]};
    int ns = popcnt(c.own), no = popcnt(c.opp);
    c.free_s[0] = hs - 1 != 0 || (p->flying && !hs && ns + 1 == 3);
    c.free_s[1] = hs != 0 || (p->flying && !hs && ns == 3);
    c.free_o[0] = ho != 0 || (p->flying && !ho && no == 3);
    c.free_o[1] = ho != 0 || (p->flying && !ho && no - 1 == 3);
    for (int i = 0; i < n; i++)
        hint[i] = order_one(&c, mv[i]);
}

/*
 * Pruning in the last plies (GameSearch.prune).  A cut when the evaluation stays
 * PRUNE_UP a ply above beta, and PRUNE_THREAT more when the opponent could
 * close a mill next turn; only the noisy moves in the last three plies when
 * it is PRUNE_DOWN a ply below alpha.  Neither when the side to move has at
 * most one empty point next to its pieces (a wall closing in: the
 * evaluation sees a blockade only one ply ahead).
 */
#define PRUNE_UP 60
#define PRUNE_THREAT 150
#define PRUNE_DOWN 100

int morris_prune(const void *vp, int depth, int eval, int alpha, int beta)
{
    const Pos *p = vp;
    int up = eval - PRUNE_UP * depth >= beta;
    int down = depth <= 3 && eval + PRUNE_DOWN * depth <= alpha;
    if (!up && !down)
        return PRUNE_NONE;
    const Tables *t = &morris_tabs[p->diag];
    int s = p->stm, o = s ^ 1;
    uint32_t own = p->bb[s], opp = p->bb[o], empty = ALL_PTS & ~(own | opp);
    if (!p->hand[s] && !flies(p, s)) {
        uint32_t front = neighbours(nb_tables(p->diag), own) & empty;
        if (!(front & (front - 1)))
            return PRUNE_NONE;
    }
    if (up) {
        /* a line of two of theirs and an empty point they can reach */
        uint32_t cl = closing_points(p->diag, opp, empty);
        int threat = cl && (p->hand[o] || flies(p, o) || step_closers(t, opp, cl, 1));
        if (!threat || eval - PRUNE_UP * depth - PRUNE_THREAT >= beta)
            return PRUNE_CUT;
    }
    return down ? PRUNE_QUIET : PRUNE_NONE;
}

int morris_noisy(const void *vp, Move m)
{
    (void)vp;
    return mv_rm(m) >= 0;
}

/* Light playout policy: a removal whenever one is legal (random among
 * them), otherwise a random move. */
Move morris_playout_move(const void *vp, const Move *moves, int n, uint64_t *rng)
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
