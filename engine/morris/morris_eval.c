/*
 * morris_eval.c -- the Morris family's static evaluation (a weighted sum of
 * features, one weight row per phase, exposed to the tuner), the move
 * classification for ordering, and the playout policy.
 */
#include <stdio.h>
#include <string.h>

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
    F_PIECES, F_MILLS, F_OPEN, F_DOUBLE, F_MOBILITY, F_BLOCKED,
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
    {214, 14, 10, 17, 58, -70, -3, -100, 134, 23, -78, 0, 120},  /* placement */
    {214, -12, 59, -55, 29, -46, -27, 0, 172, -33, -125, 0, 0}, /* moving */
    {15, 56, 37, -92, 16, 2, -8, 0, 16, -34, -26, 0, 0},        /* flying */
};

/* The table, row by row, for the tuner (tools/eval_tune.c). */
static const char *const eval_weight_names[3 * F_COUNT] = {
    "placement.pieces", "placement.mills",    "placement.open",
    "placement.double", "placement.mobility", "placement.blocked",
    "placement.frontier", "placement.stuck",  "placement.runmill",
    "placement.locked", "placement.cramp",    "placement.few",
    "placement.tempo",
    "moving.pieces",    "moving.mills",       "moving.open",
    "moving.double",    "moving.mobility",    "moving.blocked",
    "moving.frontier",  "moving.stuck",       "moving.runmill",
    "moving.locked",    "moving.cramp",       "moving.few",
    "moving.tempo",
    "flying.pieces",    "flying.mills",       "flying.open",
    "flying.double",    "flying.mobility",    "flying.blocked",
    "flying.frontier",  "flying.stuck",       "flying.runmill",
    "flying.locked",    "flying.cramp",       "flying.few",
    "flying.tempo",
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

/* A side's steps: the empty points next to its pieces (front), every
 * point next to them (near), its steps (mobility) and its pieces without
 * an empty neighbour. */
typedef struct Steps {
    uint32_t front, near;
    int mobility, blocked;
} Steps;

/*
 * Side s's pieces walled in by the opponent: none of them has an empty
 * neighbour, and every neighbour is the opponent's or one of them, so none
 * can step until the opponent moves a piece of the wall away or s removes
 * one (with a mill of its other pieces).  The greatest such set: start from
 * own's pieces without an empty neighbour and drop any next to an own
 * piece outside the set until none is dropped.  (Counting the opponent's
 * wall as locked too, the only such set would be the whole board: a set of
 * points that holds every neighbour of its points is empty or all of this
 * connected board.)
 */
static uint32_t walled_pieces(const Tables *t, uint32_t own, uint32_t empty)
{
    uint32_t W = 0;
    for (uint32_t b = own; b; b &= b - 1)
        if (!(t->adj[lsb(b)] & empty))
            W |= b & -b;
    for (int changed = 1; changed && W;) {
        changed = 0;
        for (uint32_t b = W; b; b &= b - 1)
            if (t->adj[lsb(b)] & own & ~W) {
                W &= ~(b & -b);
                changed = 1;
            }
    }
    return W;
}

static inline void steps(const Tables *t, uint32_t bb, uint32_t empty, Steps *st)
{
    st->front = st->near = 0;
    st->mobility = st->blocked = 0;
    for (; bb; bb &= bb - 1) {
        uint32_t a = t->adj[lsb(bb)], d = a & empty;
        st->near |= a;
        st->front |= d;
        st->blocked += !d;
        st->mobility += popcnt(d);
    }
}

/* Closed mills (base bits m of family f) with a piece that can step out. */
static inline int running(const Tables *t, int f, uint32_t m, uint32_t empty)
{
    int n = 0;
    for (; m; m &= m - 1)
        n += (t->exits[f][lsb(m) / 3] & empty) != 0;
    return n;
}

/* A side's terms of the lines (own its pieces), all lines of a family at
 * once (the triples of morris_internal.h): closed mills, mills sharing a
 * piece with a mill of an earlier family (double: a vertical with a
 * horizontal, a diagonal with either), mills with a piece that can step
 * out (runmill), and open lines of two and an empty point. */
static void line_features(const Pos *p, const Tables *t, uint32_t own, uint32_t empty,
                          int f[F_COUNT])
{
    uint32_t ov = perm(&morris_to_v, own), ev = perm(&morris_to_v, empty);
    uint32_t hm = tri_full(own, TRIPLE_BASE), vm = tri_full(ov, TRIPLE_BASE);
    uint32_t hpts = hm * 7, s = perm(&morris_to_v, hpts);
    f[F_MILLS] = popcnt(hm) + popcnt(vm);
    f[F_OPEN] = popcnt(tri_open(own, empty, TRIPLE_BASE)) + popcnt(tri_open(ov, ev, TRIPLE_BASE));
    f[F_DOUBLE] = popcnt((s | (s >> 1) | (s >> 2)) & vm);
    f[F_RUNMILL] = running(t, 0, hm, empty) + running(t, 1, vm, empty);
    if (p->diag) {
        uint32_t od = perm(&morris_to_d, own), ed = perm(&morris_to_d, empty);
        uint32_t dm = tri_full(od, DIAG_BASE);
        s = perm(&morris_to_d, hpts | perm(&morris_from_v, vm * 7));
        f[F_MILLS] += popcnt(dm);
        f[F_OPEN] += popcnt(tri_open(od, ed, DIAG_BASE));
        f[F_DOUBLE] += popcnt((s | (s >> 1) | (s >> 2)) & dm);
        f[F_RUNMILL] += running(t, 2, dm, empty);
    }
}

/* The features of side s, whose steps are st. */
static void side_features(const Pos *p, const Tables *t, int s, const Steps *st,
                          uint32_t empty, int f[F_COUNT])
{
    int fly = p->flying && popcnt(p->bb[s]) == 3 && p->hand[s] == 0;
    f[F_PIECES] = material(p, s);
    f[F_TEMPO] = s == p->stm;
    f[F_MOBILITY] = st->mobility;
    f[F_BLOCKED] = fly ? 0 : st->blocked;
    f[F_FRONTIER] = popcnt(st->front);
    f[F_LOCKED] = fly || !st->blocked ? 0 : popcnt(walled_pieces(t, p->bb[s], empty));
    /* the near-blockade terms once the side has placed all its pieces */
    int exits = f[F_FRONTIER] - p->hand[s ^ 1];
    int movable = popcnt(p->bb[s]) - st->blocked;
    int done = !fly && !p->hand[s] && p->bb[s];
    f[F_CRAMP] = !done || exits >= 3 ? 0 : 3 - (exits > 0 ? exits : 0);
    f[F_FEW] = !done || movable >= 3 ? 0 : 3 - movable;
    if (fly)
        f[F_STUCK] = 0;
    else if (p->hand[0] || p->hand[1])
        f[F_STUCK] = p->bb[s] && f[F_FRONTIER] <= p->hand[s ^ 1];
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
static int blockade_in_one(const Pos *p, const Steps *os)
{
    int s = p->stm, o = s ^ 1;
    if (p->hand[o] || p->hand[s] > 1 || flies(p, o))
        return 0;
    const Tables *t = &morris_tabs[p->diag];
    uint32_t own = p->bb[s], empty = ALL_PTS & ~(own | p->bb[o]), front = os->front;
    if (front & (front - 1))
        return 0; /* two exits or more */
    /* Onto their one exit; or, when they have none, anywhere. */
    uint32_t onto = front ? front : empty;
    if (p->hand[s]) {
        if (!(empty & (empty - 1)))
            return 0; /* the board would be full */
        for (; onto; onto &= onto - 1)
            if (!closes_mill(t, own, lsb(onto)))
                return 1;
        return 0;
    }
    int fly = flies(p, s);
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

/*
 * A fork of the side not to move: two empty points or more where it could
 * complete a line of two next turn (a piece in hand, or a step from off
 * that line).  The side to move blocks one at most, so unless it closes a
 * mill first (the quiescence search tries that) it loses a piece.
 */
#define FORK_PENALTY 150
static int opponent_forks(const Pos *p, const Tables *t, uint32_t empty)
{
    int o = p->stm ^ 1;
    uint32_t opp = p->bb[o], cl = closing_points(p->diag, opp, empty);
    if (!(cl & (cl - 1)))
        return 0;
    if (p->hand[o])
        return 1;
    int n = 0;
    for (; cl; cl &= cl - 1) {
        int e = lsb(cl);
        for (int k = 0; k < t->npm[e]; k++) {
            uint32_t pm = t->pmill[e][k];
            if ((opp & pm) == pm && (t->adj[e] & opp & ~pm)) {
                n++;
                break;
            }
        }
    }
    return n >= 2;
}

int morris_evaluate(const void *vp)
{
    const Pos *p = vp;
    int s = p->stm, o = s ^ 1, tb;
    if (morris_egtb_eval(p, &tb))
        return tb;
    const Tables *t = &morris_tabs[p->diag];
    uint32_t empty = ALL_PTS & ~(p->bb[0] | p->bb[1]);
    Steps st[2];
    steps(t, p->bb[s], empty, &st[0]);
    steps(t, p->bb[o], empty, &st[1]);
    if (blockade_in_one(p, &st[1]))
        return MORRIS_EGTB_SCORE - 1; /* a win in one ply */
    int a[F_COUNT], b[F_COUNT];
    line_features(p, t, p->bb[s], empty, a);
    line_features(p, t, p->bb[o], empty, b);
    side_features(p, t, s, &st[0], empty, a);
    side_features(p, t, o, &st[1], empty, b);
    int phase = (p->hand[0] || p->hand[1]) ? 0 : (flies(p, 0) || flies(p, 1)) ? 2 : 1;
    int v = 0;
    for (int i = 0; i < F_COUNT; i++)
        v += eval_weight[phase][i] * (a[i] - b[i]);
    if (phase < 2 && opponent_forks(p, t, empty))
        v -= FORK_PENALTY;
    return v;
}

/*
 * Ordering hints (Game.move_order): threats.  A turn that puts a piece on
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

typedef struct OrderCtx {
    const Tables *t;
    int s;
    uint32_t own, opp;
} OrderCtx;

/* Side s's pieces bb (hand: its pieces in hand after the turn): can one of
 * them come onto the empty point e next turn without leaving the line pm? */
static inline int reach(const OrderCtx *c, const Pos *p, int s, int hand, uint32_t bb, int e,
                        uint32_t pm)
{
    return hand || (p->flying && !p->hand[s] && popcnt(bb) == 3) || (c->t->adj[e] & bb & ~pm);
}

static int order_one(const Pos *p, const OrderCtx *c, Move m)
{
    const Tables *t = c->t;
    int s = c->s, o = s ^ 1, to = mv_to(m), from = mv_from(m), rm = mv_rm(m);
    uint32_t own2 = (c->own | (1u << to)) & ~(from >= 0 ? 1u << from : 0);
    uint32_t opp2 = rm >= 0 ? c->opp & ~(1u << rm) : c->opp;
    uint32_t empty2 = ALL_PTS & ~(own2 | opp2);
    int hs = p->hand[s] - (from < 0), ho = p->hand[o];
    int v = 32;
    for (int k = 0; k < t->npm[to]; k++) {
        uint32_t pm = t->pmill[to][k];
        if ((opp2 & pm) == pm) { /* a block */
            v += ORD_BLOCK + (reach(c, p, o, ho, opp2, to, pm) ? ORD_BLOCK_NEAR : 0);
        } else if (popcnt(own2 & pm) == 1 && (empty2 & pm)) {
            int e = lsb(empty2 & pm);
            if (reach(c, p, s, hs, own2, e, pm | (1u << to)))
                v += ORD_THREAT + (reach(c, p, o, ho, opp2, e, 0) ? 0 : ORD_THREAT_FREE);
        }
    }
    if (from >= 0)
        for (int k = 0; k < t->npm[from]; k++) {
            uint32_t pm = t->pmill[from][k];
            if ((own2 & pm) == pm) { /* out of a mill: back next turn? */
                if (reach(c, p, s, hs, own2, from, pm))
                    v += ORD_THREAT + (reach(c, p, o, ho, opp2, from, 0) ? 0 : ORD_THREAT_FREE);
            } else if ((opp2 & pm) == pm &&
                       reach(c, p, o, ho, opp2, from, pm)) {
                v -= ORD_BLOCK_NEAR; /* lets them close a mill */
            }
        }
    if (rm >= 0)
        for (int k = 0; k < t->npm[rm]; k++) {
            uint32_t pm = t->pmill[rm][k];
            if (popcnt(c->opp & pm) == 1 && (empty2 & pm))
                v += ORD_BLOCK; /* breaks a line of two */
        }
    return v < 0 ? 0 : v > 255 ? 255 : v;
}

void morris_move_order(const void *vp, const Move *mv, int n, int *hint)
{
    const Pos *p = vp;
    OrderCtx c = {.t = &morris_tabs[p->diag], .s = p->stm};
    c.own = p->bb[c.s];
    c.opp = p->bb[c.s ^ 1];
    for (int i = 0; i < n; i++)
        hint[i] = order_one(p, &c, mv[i]);
}

/*
 * Pruning in the last plies (Game.prune).  A cut when the evaluation stays
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
        uint32_t front = 0;
        for (uint32_t b = own; b; b &= b - 1)
            front |= t->adj[lsb(b)] & empty;
        if (!(front & (front - 1)))
            return PRUNE_NONE;
    }
    if (up) {
        int threat = 0, ofly = flies(p, o);
        for (int l = 0; l < t->nlines && !threat; l++) {
            uint32_t L = t->line[l], e = L & empty;
            threat = popcnt(opp & L) == 2 && e &&
                     (p->hand[o] || ofly || (t->adj[lsb(e)] & opp & ~L));
        }
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
