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
 * The weights were fitted by the tuner (bench/eval_tune_main.c) on 50,454
 * positions of 1,200 depth-4 self-play games, placement.pieces and
 * flying.pieces held fixed (docs/tuning.md).  During placement almost every
 * mill can run, so mills and runmill there share one effect (their sum).
 */
enum {
    F_PIECES, F_MILLS, F_OPEN, F_DOUBLE, F_MOBILITY, F_BLOCKED,
    F_FRONTIER, /* distinct empty points next to the side's pieces */
    F_STUCK,    /* walled in: no step now (moving), or the opponent's pieces in
                 * hand could fill every empty point next to ours (placement) */
    F_RUNMILL,  /* closed mills with a piece that can step out and back */
    F_COUNT
};
static int eval_weight[3][F_COUNT] = {
    /* pieces mills open double mobility blocked frontier stuck runmill */
    {214, -332, 54, 239, 44, -36, 5, -63, 357}, /* placement */
    {162, -108, 59, 69, 46, -52, -31, 0, 335},  /* moving */
    {15, 3, -2, 32, -4, -8, 0, 0, -20},         /* flying */
};

/* The table, row by row, for the tuner (tools/eval_tune.c). */
static const char *const eval_weight_names[3 * F_COUNT] = {
    "placement.pieces", "placement.mills",    "placement.open",
    "placement.double", "placement.mobility", "placement.blocked",
    "placement.frontier", "placement.stuck",  "placement.runmill",
    "moving.pieces",    "moving.mills",       "moving.open",
    "moving.double",    "moving.mobility",    "moving.blocked",
    "moving.frontier",  "moving.stuck",       "moving.runmill",
    "flying.pieces",    "flying.mills",       "flying.open",
    "flying.double",    "flying.mobility",    "flying.blocked",
    "flying.frontier",  "flying.stuck",       "flying.runmill",
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
                 "    /* pieces mills open double mobility blocked */\n");
    for (int r = 0; r < 3; r++) {
        fprintf(out, "    {");
        for (int j = 0; j < F_COUNT; j++)
            fprintf(out, "%s%d", j ? ", " : "", w[r * F_COUNT + j]);
        fprintf(out, "}, /* %s */\n", rows[r]);
    }
    fprintf(out, "};\n");
}

static void features(const Pos *p, int s, int f[F_COUNT])
{
    const Tables *t = &morris_tabs[p->diag];
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
            for (uint32_t q = L; q; q &= q - 1)
                if (t->adj[lsb(q)] & empty & ~L) {
                    f[F_RUNMILL]++;
                    break;
                }
        } else if (c == 2 && (L & empty)) {
            f[F_OPEN]++;
        }
    }
    int fly = p->flying && popcnt(own) == 3 && p->hand[s] == 0;
    uint32_t front = 0;
    for (uint32_t b = own; b; b &= b - 1) {
        uint32_t d = t->adj[lsb(b)] & empty;
        if (!d)
            f[F_BLOCKED]++;
        f[F_MOBILITY] += popcnt(d);
        front |= d;
    }
    f[F_FRONTIER] = popcnt(front);
    if (p->hand[0] || p->hand[1])
        f[F_STUCK] = own && f[F_FRONTIER] <= p->hand[s ^ 1];
    else
        f[F_STUCK] = !fly && !front;
    if (fly)
        f[F_BLOCKED] = f[F_STUCK] = 0;
}

/*
 * Can the side to move wall the opponent in with one step (a blockade one
 * ply early)?  In the moving phase, against a side that does not fly: the
 * opponent's pieces have at most one empty point next to them, and one of
 * ours can step (or fly) there from a point next to none of theirs (so the
 * step frees nothing) without closing a mill (a removal could free them).
 */
static int blockade_in_one(const Pos *p)
{
    int s = p->stm, o = s ^ 1;
    if ((p->hand[0] | p->hand[1]) || flies(p, o))
        return 0;
    const Tables *t = &morris_tabs[p->diag];
    uint32_t own = p->bb[s], empty = ALL_PTS & ~(own | p->bb[o]), front = 0, near = 0;
    for (uint32_t b = p->bb[o]; b; b &= b - 1) {
        near |= t->adj[lsb(b)];
        front |= t->adj[lsb(b)] & empty;
    }
    if (front & (front - 1))
        return 0; /* two exits or more */
    int fly = flies(p, s);
    for (uint32_t b = own & ~near; b; b &= b - 1) {
        int from = lsb(b);
        uint32_t rest = own & ~(1u << from);
        /* Onto their one exit; or, when they have none, anywhere. */
        uint32_t dest = front ? front : empty;
        if (!fly)
            dest &= t->adj[from];
        for (; dest; dest &= dest - 1)
            if (!closes_mill(t, rest, lsb(dest)))
                return 1;
    }
    return 0;
}

int morris_evaluate(const void *vp)
{
    const Pos *p = vp;
    int s = p->stm, tb;
    if (morris_egtb_eval(p, &tb))
        return tb;
    if (blockade_in_one(p))
        return MORRIS_EGTB_SCORE - 1; /* a win in one ply */
    int a[F_COUNT], b[F_COUNT];
    features(p, s, a);
    features(p, s ^ 1, b);
    int phase = (p->hand[0] || p->hand[1]) ? 0 : (flies(p, 0) || flies(p, 1)) ? 2 : 1;
    int v = 0;
    for (int i = 0; i < F_COUNT; i++)
        v += eval_weight[phase][i] * (a[i] - b[i]);
    return v;
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
