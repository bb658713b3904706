/*
 * mcts.c -- Monte Carlo tree search: UCT with MCTS-Solver.
 *
 * The tree is a graph of positions: every node is one position, found by
 * its Zobrist key in an open-addressing table (the slot from tt_index(), as
 * the alpha-beta table does), so transposed positions share statistics and
 * the tree of the previous move is found again from the new root's key.
 * Nodes and edges live in two arenas allocated once (Hash megabytes between
 * them) and are addressed by 32-bit indices; when either arena is full the
 * tree stops growing and the search goes on with playouts from its leaves.
 *
 * Node (32 bytes):
 *   key     64  Zobrist key of the position
 *   value   32  float, sum of the results for the side to move here
 *               (1 win, 1/2 draw, 0 loss, or a playout's evaluation)
 *   visits  32  playouts through this node
 *   edge    32  first of its edges in the edge arena, NODE_NONE if the node
 *               is not expanded yet
 *   nedges  32  number of edges (legal moves)
 *   tried   32  edges with a child: the first `tried` ones (they are tried
 *               in their shuffled order)
 *   pdist   16  plies to the end of the game when proven
 *   proven   8  PROVEN_NONE / WIN / LOSS / DRAW for the side to move here
 *   stm      8  side to move (SIDE_P1/P2); values convert between sides
 *               through it, since a side may move twice running (Morelli's
 *               placement phase)
 * Edge (8 bytes): the move and the child node (NODE_NONE until visited).
 *
 * One iteration: select by UCT from the root while nodes are expanded
 * (unvisited moves first), expand a node on its second visit (later once
 * the arenas are 3/4 full, see expand_after()), add the child
 * reached, play out from there (the game's light playout_move policy in the
 * full setting, uniform random moves in the plain one), and back the result
 * up.  MCTS-Solver: a node whose child is lost for the opponent is a proven
 * win, a node whose children are all proven takes the best of them; proven
 * children are never explored again, and a proven root ends the search.
 * Playouts of games that may not end by themselves (Morris) stop after
 * MCTSPlayoutCap plies and score by the evaluation (full) or as a draw
 * (plain).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "past.h"
#include "search_internal.h"

#define NODE_NONE UINT32_MAX
#define MCTS_MAX_PATH 512
#define MCTS_PV_MAX 32
/* Roots with more legal moves than this have their untried moves ordered
 * by the evaluation (root_order()); smaller ones keep the random order. */
#define MCTS_ORDER_MIN 64

enum { PROVEN_NONE = 0, PROVEN_WIN = 1, PROVEN_LOSS = 2, PROVEN_DRAW = 3 };

typedef struct MctsNode {
    Key key;
    float value;
    uint32_t visits;
    uint32_t edge;
    uint32_t nedges;
    uint32_t tried;
    uint16_t pdist;
    uint8_t proven;
    uint8_t stm;
} MctsNode;

typedef struct MctsEdge {
    Move move;
    uint32_t child;
} MctsEdge;

_Static_assert(sizeof(MctsNode) == 32, "MCTS node is 32 bytes");
_Static_assert(sizeof(MctsEdge) == 8, "MCTS edge is 8 bytes");

struct Mcts {
    MctsNode *nodes;
    uint32_t nnodes, cap_nodes;
    MctsEdge *edges;
    uint32_t nedges, cap_edges;
    uint32_t *slots; /* node index + 1, 0 = empty */
    size_t nslots;   /* power of two */
    int full;
    const Game *game; /* what the tree belongs to */
    GameOptions opt;
    uint64_t rng;
};

/*
 * The root's children in arrays (its edge order), so that UCT at the root,
 * where Morelli has about 480 children, is a vector loop over two floats a
 * child instead of a walk over the nodes: q[i] = the mean result for the
 * root's side to move and s[i] = sqrt(1 / visits), both from uct_terms()
 * as in select_edge, so the choices are the same; made once every edge has a
 * child.  A child proven won or lost has q = ROOT_NEVER (a win is taken
 * first, by a scan, when `won` counts one).  Entries change only when a child's node does, which is on
 * an iteration's path: after each backup the entries of the path's nodes
 * that are root children (found by node index in an open-addressing set;
 * a node may be the child of several root edges) are made again.
 */
#define ROOT_NEVER (-1e30f)

typedef struct RootCache {
    uint32_t n;     /* root edges; 0: not made yet */
    uint32_t won;   /* children proven won for the root's side to move */
    float *q, *s;   /* n rounded up to 8 */
    uint8_t *win;   /* 1: the child is proven won */
    uint32_t *slot; /* node index + 1 per slot, 0 = empty */
    uint32_t *slot_edge;
    uint32_t mask;  /* slots - 1 */
} RootCache;

/* One search's working state. */
typedef struct MctsRun {
    SearchCtx *c;
    Mcts *t;
    const Game *g;
    double explore;
    int plain;
    int cap;
    Key *keys; /* prev keys then the path's */
    int nbase;
    Move *moves;
    unsigned char pos[POS_MAX_BYTES];
    unsigned char undo[UNDO_MAX_BYTES];
    uint32_t path[MCTS_MAX_PATH];
    uint64_t playouts;
    uint64_t depth_sum;
    int seldepth;
    uint32_t root;
    RootCache rc;
} MctsRun;

/* --- arena and node table ---------------------------------------------- */

static Mcts *mcts_new(int64_t mb)
{
    Mcts *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    size_t bytes = tt_bytes_for_mb(mb);
    /* A quarter for nodes and their slots, the rest for edges. */
    size_t per_node = sizeof(MctsNode) + 2 * sizeof(uint32_t);
    size_t cap = bytes / 4 / per_node;
    if (cap < 64)
        cap = 64;
    if (cap > UINT32_MAX / 4)
        cap = UINT32_MAX / 4;
    size_t nslots = 1;
    while (nslots < 2 * cap)
        nslots <<= 1;
    size_t ecap = (bytes - bytes / 4) / sizeof(MctsEdge);
    if (ecap < 1024)
        ecap = 1024;
    if (ecap > UINT32_MAX - 1)
        ecap = UINT32_MAX - 1;
    t->nodes = malloc(cap * sizeof(MctsNode));
    t->edges = malloc(ecap * sizeof(MctsEdge));
    t->slots = calloc(nslots, sizeof(uint32_t));
    if (!t->nodes || !t->edges || !t->slots) {
        mcts_free(t);
        return NULL;
    }
    t->cap_nodes = (uint32_t)cap;
    t->cap_edges = (uint32_t)ecap;
    t->nslots = nslots;
    t->rng = 0x6d637473ull;
    return t;
}

void mcts_free(Mcts *t)
{
    if (!t)
        return;
    free(t->nodes);
    free(t->edges);
    free(t->slots);
    free(t);
}

void mcts_clear(Mcts *t)
{
    if (!t)
        return;
    memset(t->slots, 0, t->nslots * sizeof(uint32_t));
    t->nnodes = t->nedges = 0;
    t->full = 0;
    t->game = NULL;
    t->rng = 0x6d637473ull;
}

/* The node of pos (key k), created when new; NODE_NONE when full. */
static uint32_t node_get(Mcts *t, const Game *g, const void *pos, Key key)
{
    size_t mask = t->nslots - 1;
    size_t i = tt_index(key, t->nslots);
    for (;; i = (i + 1) & mask) {
        uint32_t s = t->slots[i];
        if (s == 0)
            break;
        if (t->nodes[s - 1].key == key)
            return s - 1;
    }
    if (t->nnodes >= t->cap_nodes) {
        t->full = 1;
        return NODE_NONE;
    }
    uint32_t id = t->nnodes++;
    MctsNode *n = &t->nodes[id];
    memset(n, 0, sizeof *n);
    n->key = key;
    n->edge = NODE_NONE;
    n->stm = (uint8_t)g->side_to_move(pos);
    int r = g->result(pos);
    if (r != RESULT_NONE) {
        int sc = units_result_score(r, n->stm, 0);
        n->proven = sc > 0 ? PROVEN_WIN : sc < 0 ? PROVEN_LOSS : PROVEN_DRAW;
    }
    t->slots[i] = id + 1;
    return id;
}

static int node_expand(MctsRun *r, MctsNode *n)
{
    Mcts *t = r->t;
    int k = r->g->gen_moves(r->pos, r->moves);
    if (k <= 0 || (uint64_t)t->nedges + (uint64_t)k > t->cap_edges) {
        if (k > 0)
            t->full = 1;
        return 0;
    }
    MctsEdge *e = &t->edges[t->nedges];
    /* Shuffled, so the unvisited moves are tried in random order. */
    for (int i = 0; i < k; i++) {
        int j = (int)rng_below(&t->rng, (uint32_t)(i + 1));
        e[i] = e[j];
        e[j].move = r->moves[i];
        e[j].child = NODE_NONE;
    }
    n->edge = t->nedges;
    n->nedges = (uint32_t)k;
    t->nedges += (uint32_t)k;
    return 1;
}

/* An untried root edge and its static value, for root_order(). */
typedef struct RootMove {
    int score;
    MctsEdge e;
} RootMove;

static int by_score(const void *a, const void *b)
{
    const RootMove *x = a, *y = b;
    return (x->score < y->score) - (x->score > y->score); /* best first */
}

/* Orders the untried edges of the root by the evaluation after each (a
 * finished game by its result), best for the side to move first: they are
 * tried in this order, so a search too short to try every move tries the
 * statically best ones, and equal visits are decided by it (best_edge()).
 * One evaluation per untried move, once per search. */
static void root_order(MctsRun *r, MctsNode *n)
{
    Mcts *t = r->t;
    const Game *g = r->g;
    uint32_t k = n->nedges - n->tried;
    if (n->edge == NODE_NONE || k < 2)
        return;
    RootMove *rm = malloc(k * sizeof *rm);
    if (!rm)
        return;
    MctsEdge *e = &t->edges[n->edge + n->tried];
    for (uint32_t i = 0; i < k; i++) {
        memcpy(r->pos, r->c->root, g->pos_size);
        g->make(r->pos, e[i].move, r->undo);
        int res = g->result(r->pos), v;
        if (res != RESULT_NONE) {
            v = units_result_score(res, n->stm, 1);
        } else {
            v = search_eval(g, r->pos);
            if (g->side_to_move(r->pos) != n->stm)
                v = -v;
        }
        rm[i].score = v;
        rm[i].e = e[i];
    }
    qsort(rm, k, sizeof *rm, by_score); /* ties: any order (the shuffle's) */
    for (uint32_t i = 0; i < k; i++)
        e[i] = rm[i].e;
    free(rm);
}

/* --- values ------------------------------------------------------------ */

/* Proven state of child c as seen by the side to move at parent p. */
static int proven_for(const MctsNode *p, const MctsNode *c)
{
    if (c->proven == PROVEN_NONE || c->proven == PROVEN_DRAW || c->stm == p->stm)
        return c->proven;
    return c->proven == PROVEN_WIN ? PROVEN_LOSS : PROVEN_WIN;
}

/* Mean result of child c for the side to move at parent p. */
static double q_for(const MctsNode *p, const MctsNode *c)
{
    double q = c->visits ? c->value / c->visits : 0.5;
    return c->stm == p->stm ? q : 1.0 - q;
}

/* Result for P1 of a proven node. */
static double proven_result_p1(const MctsNode *n)
{
    if (n->proven == PROVEN_DRAW)
        return 0.5;
    int win = n->proven == PROVEN_WIN;
    return (n->stm == SIDE_P1) == win ? 1.0 : 0.0;
}

/* MCTS-Solver: settle n from its proven children. */
static void solver_update(Mcts *t, MctsNode *n)
{
    if (n->proven || n->edge == NODE_NONE)
        return;
    int all = 1, draw = 0, win_d = -1, loss_d = 0;
    for (uint32_t i = 0; i < n->nedges; i++) {
        const MctsEdge *e = &t->edges[n->edge + i];
        if (e->child == NODE_NONE) {
            all = 0;
            continue;
        }
        const MctsNode *c = &t->nodes[e->child];
        int pv = proven_for(n, c);
        if (pv == PROVEN_WIN) {
            if (win_d < 0 || c->pdist < win_d)
                win_d = c->pdist;
        } else if (pv == PROVEN_LOSS) {
            if (c->pdist > loss_d)
                loss_d = c->pdist;
        } else if (pv == PROVEN_DRAW) {
            draw = 1;
        } else {
            all = 0;
        }
    }
    if (win_d >= 0) {
        n->proven = PROVEN_WIN;
        n->pdist = (uint16_t)(win_d + 1);
    } else if (all) {
        n->proven = draw ? PROVEN_DRAW : PROVEN_LOSS;
        n->pdist = (uint16_t)(loss_d + 1);
    }
}

/* UCT's two terms for the child c of n: returns q, the child's mean result
 * for n's side to move, and sets *s = sqrt(1 / visits).  The root's arrays
 * and select_edge's walk both take them from here, so they choose alike. */
static inline float uct_terms(const MctsNode *n, const MctsNode *c, float *s)
{
    float inv = 1.0f / (float)c->visits;
    float q = c->value * inv;
    if (c->stm != n->stm)
        q = 1.0f - q;
    *s = sqrtf(inv);
    return q;
}

/* --- the root's children in arrays ---------------------------------------- */

static void root_cache_free(RootCache *rc)
{
    free(rc->q);
    free(rc->s);
    free(rc->win);
    free(rc->slot);
    free(rc->slot_edge);
    memset(rc, 0, sizeof *rc);
}

/* Entry i of the cache from the root n's edge i (which has a child). */
static void root_cache_set(MctsRun *r, const MctsNode *n, uint32_t i)
{
    RootCache *rc = &r->rc;
    const MctsNode *c = &r->t->nodes[r->t->edges[n->edge + i].child];
    rc->won -= rc->win[i];
    int pv = proven_for(n, c);
    rc->win[i] = pv == PROVEN_WIN;
    rc->won += rc->win[i];
    if (pv == PROVEN_WIN || pv == PROVEN_LOSS) {
        rc->q[i] = ROOT_NEVER; /* a win is taken by the scan, a loss never */
        rc->s[i] = 0.0f;
        return;
    }
    rc->q[i] = uct_terms(n, c, &rc->s[i]);
}

/* The first slot of node id in the cache's set (node indices are small and
 * dense: mixed before the multiply-high). */
static size_t root_slot(const RootCache *rc, uint32_t id)
{
    return tt_index((Key)(id + 1) * 0x9E3779B97F4A7C15ull, (size_t)rc->mask + 1);
}

/* Makes the cache for the root n once every edge has a child (UCT's
 * turn); leaves it unmade (n = 0) when memory runs out, and select_edge
 * walks the nodes instead. */
static void root_cache_make(MctsRun *r, const MctsNode *n)
{
    RootCache *rc = &r->rc;
    uint32_t k = n->nedges, k8 = (k + 7) & ~7u, nslots = 16;
    while (nslots < 2 * k)
        nslots <<= 1;
    rc->q = malloc(k8 * sizeof(float));
    rc->s = malloc(k8 * sizeof(float));
    rc->win = calloc(k8, 1);
    rc->slot = calloc(nslots, sizeof(uint32_t));
    rc->slot_edge = malloc(nslots * sizeof(uint32_t));
    if (!rc->q || !rc->s || !rc->win || !rc->slot || !rc->slot_edge) {
        root_cache_free(rc);
        return;
    }
    rc->mask = nslots - 1;
    rc->won = 0;
    for (uint32_t i = k; i < k8; i++) {
        rc->q[i] = ROOT_NEVER;
        rc->s[i] = 0.0f;
    }
    for (uint32_t i = 0; i < k; i++) {
        uint32_t ch = r->t->edges[n->edge + i].child;
        size_t j = root_slot(rc, ch);
        while (rc->slot[j])
            j = (j + 1) & rc->mask;
        rc->slot[j] = ch + 1;
        rc->slot_edge[j] = i;
        root_cache_set(r, n, i);
    }
    rc->n = k;
}

/* After an iteration's backup: the entries of the path's nodes that are
 * root children. */
static void root_cache_update(MctsRun *r, int d)
{
    RootCache *rc = &r->rc;
    const MctsNode *n = &r->t->nodes[r->root];
    for (int k = 1; k <= d; k++) {
        uint32_t id = r->path[k];
        for (size_t j = root_slot(rc, id); rc->slot[j]; j = (j + 1) & rc->mask)
            if (rc->slot[j] == id + 1)
                root_cache_set(r, n, rc->slot_edge[j]);
    }
}

typedef float F8 __attribute__((vector_size(32)));
typedef int32_t I8 __attribute__((vector_size(32)));

/* UCT at the root from the cache: the first child with the highest
 * q + c_log s (a proven win first; the first edge when every child is
 * proven lost), as select_edge's walk would choose. */
static uint32_t root_cache_select(const MctsRun *r, const MctsNode *n, float c_log)
{
    const RootCache *rc = &r->rc;
    if (rc->won) {
        for (uint32_t i = 0; i < rc->n; i++)
            if (rc->win[i])
                return n->edge + i;
    }
    F8 cl = {c_log, c_log, c_log, c_log, c_log, c_log, c_log, c_log};
    F8 best = {-1.0f, -1.0f, -1.0f, -1.0f, -1.0f, -1.0f, -1.0f, -1.0f};
    I8 bi = {0, 0, 0, 0, 0, 0, 0, 0}, idx = {0, 1, 2, 3, 4, 5, 6, 7};
    const I8 eight = {8, 8, 8, 8, 8, 8, 8, 8};
    for (uint32_t i = 0; i < rc->n; i += 8) {
        F8 q, sq;
        memcpy(&q, rc->q + i, sizeof q);
        memcpy(&sq, rc->s + i, sizeof sq);
        F8 u = q + cl * sq;
        I8 gt = u > best; /* per lane, the first of its highest */
        best = (F8)(((I8)u & gt) | ((I8)best & ~gt));
        bi = (idx & gt) | (bi & ~gt);
        idx += eight;
    }
    float b = -1.0f;
    uint32_t pick = 0;
    for (int l = 0; l < 8; l++)
        if (best[l] > b || (best[l] == b && (uint32_t)bi[l] < pick)) {
            b = best[l];
            pick = (uint32_t)bi[l];
        }
    return n->edge + pick;
}

/* --- the iteration ----------------------------------------------------- */

static uint32_t select_edge(MctsRun *r, const MctsNode *n)
{
    Mcts *t = r->t;
    const MctsEdge *e = &t->edges[n->edge];
    if (n->tried < n->nedges) {
        /* a child proven a win for the side to move here (found from
         * another path since it was tried), else the next untried move */
        for (uint32_t i = 0; i < n->tried; i++) {
            const MctsNode *c = &t->nodes[e[i].child];
            if (c->proven && proven_for(n, c) == PROVEN_WIN)
                return n->edge + i;
        }
        return n->edge + n->tried;
    }
    /* u = q + C sqrt(ln N / n_i) = q + (C sqrt(ln N)) sqrt(1 / n_i), in
     * floats: one division and one square root a child */
    float c_log = (float)(r->explore * sqrt(log((double)(n->visits > 0 ? n->visits : 1))));
    if (n == &t->nodes[r->root]) {
        if (!r->rc.n)
            root_cache_make(r, n);
        if (r->rc.n)
            return root_cache_select(r, n, c_log);
    }
    float best = -1.0f;
    uint32_t pick = n->edge;
    for (uint32_t i = 0; i < n->nedges; i++) {
        const MctsNode *c = &t->nodes[e[i].child];
        if (c->proven) {
            int pv = proven_for(n, c);
            if (pv == PROVEN_WIN)
                return n->edge + i;
            if (pv == PROVEN_LOSS)
                continue;
        }
        float sq, q = uct_terms(n, c, &sq);
        float u = q + c_log * sq;
        if (u > best) {
            best = u;
            pick = n->edge + i;
        }
    }
    return pick;
}

/* Result for P1 of a game result. */
static double result_p1(int res)
{
    return res == RESULT_P1_WIN ? 1.0 : res == RESULT_P2_WIN ? 0.0 : 0.5;
}

/* Result for P1 of a playout stopped by the cap at r->pos: a draw (plain),
 * else the evaluation made a probability. */
static double capped(MctsRun *r)
{
    if (r->plain)
        return 0.5;
    double p = units_winrate(search_eval(r->g, r->pos));
    return r->g->side_to_move(r->pos) == SIDE_P1 ? p : 1.0 - p;
}

/* Result for P1 of a playout from r->pos, which is changed. */
static double playout(MctsRun *r)
{
    const Game *g = r->g;
    const GameOptions *opt = r->c->opt;
    int rule = g->uses_move_rule && opt->move_rule > 0 ? opt->move_rule : 0;
    if (!r->plain && g->playout && !rule) {
        int res = g->playout(r->pos, &r->t->rng, r->cap);
        return res == RESULT_NONE ? capped(r) : result_p1(res);
    }
    for (int ply = 0;; ply++) {
        int res = g->result(r->pos);
        if (res != RESULT_NONE)
            return result_p1(res);
        if (rule && g->reversible_plies && g->reversible_plies(r->pos) >= rule)
            return 0.5;
        if (ply >= r->cap)
            return capped(r);
        Move m;
        if (!r->plain && g->playout_step) {
            m = g->playout_step(r->pos, &r->t->rng);
            if (m == MOVE_NONE)
                return 0.5;
        } else {
            int n = g->gen_moves(r->pos, r->moves);
            if (n <= 0)
                return 0.5;
            if (!r->plain && g->playout_move)
                m = g->playout_move(r->pos, r->moves, n, &r->t->rng);
            else
                m = r->moves[rng_below(&r->t->rng, (uint32_t)n)];
        }
        g->make(r->pos, m, r->undo);
    }
}

/* Visits a node needs before it is expanded: 1 (expand on the second
 * visit) while both arenas are less than 3/4 full, then more and more, so
 * a long search keeps growing the tree where it is visited most instead of
 * filling the arenas early. */
static uint32_t expand_after(const Mcts *t)
{
    uint64_t fn = (uint64_t)t->nnodes * 8 / t->cap_nodes;
    uint64_t fe = (uint64_t)t->nedges * 8 / t->cap_edges;
    uint64_t f = fn > fe ? fn : fe; /* eighths used */
    return f < 6 ? 1u : f < 7 ? 8u : 64u;
}

static void mcts_iterate(MctsRun *r, uint32_t root)
{
    Mcts *t = r->t;
    const Game *g = r->g;
    memcpy(r->pos, r->c->root, g->pos_size);
    int d = 0;
    uint32_t cur = root;
    r->path[0] = root;
    double res;
    for (;;) {
        MctsNode *n = &t->nodes[cur];
        if (n->proven) {
            res = proven_result_p1(n);
            break;
        }
        if (d > 0 && r->c->uses_history &&
            past_draw(g, r->pos, r->c->opt, r->keys, r->nbase + d) == RESULT_DRAW) {
            res = 0.5;
            break;
        }
        if (n->visits == 0 || d >= MCTS_MAX_PATH - 1 ||
            (n->edge == NODE_NONE && (n->visits < expand_after(t) || !node_expand(r, n)))) {
            res = playout(r);
            break;
        }
        MctsEdge *e = &t->edges[select_edge(r, n)];
        r->keys[r->nbase + d] = n->key;
        g->make(r->pos, e->move, r->undo);
        if (e->child == NODE_NONE) {
            uint32_t ch = node_get(t, g, r->pos, g->key(r->pos));
            if (ch == NODE_NONE) { /* full: play out without a node */
                res = playout(r);
                break;
            }
            e->child = ch;
            n->tried++; /* e was the first untried edge */
        }
        cur = e->child;
        r->path[++d] = cur;
    }
    r->playouts++;
    r->depth_sum += (uint64_t)d;
    if (d > r->seldepth)
        r->seldepth = d;
    int child_proven = 0;
    for (int i = d; i >= 0; i--) {
        MctsNode *n = &t->nodes[r->path[i]];
        if (child_proven)
            solver_update(t, n);
        n->visits++;
        n->value += (float)(n->stm == SIDE_P1 ? res : 1.0 - res);
        child_proven = n->proven != PROVEN_NONE;
    }
    if (r->rc.n)
        root_cache_update(r, d);
}

/* --- reporting --------------------------------------------------------- */

/* The move to play: a proven win first, else the most visited move that is
 * not proven lost (of equal visits the better mean, then the first edge),
 * else the longest proven loss. */
static uint32_t best_edge(const Mcts *t, const MctsNode *n)
{
    uint32_t pick = NODE_NONE;
    long best = -1;
    for (uint32_t i = 0; i < n->nedges; i++) {
        const MctsEdge *e = &t->edges[n->edge + i];
        if (e->child == NODE_NONE)
            continue;
        const MctsNode *c = &t->nodes[e->child];
        int pv = proven_for(n, c);
        long w;
        if (pv == PROVEN_WIN)
            w = 4000000000L - c->pdist;
        else if (pv == PROVEN_LOSS)
            w = -1000000L + c->pdist;
        else
            w = (long)c->visits;
        /* equal visits: the better mean, then the earlier edge */
        if (pick == NODE_NONE || w > best ||
            (w == best && pv == PROVEN_NONE && q_for(n, c) > q_for(n, &t->nodes[t->edges[pick].child]))) {
            best = w;
            pick = n->edge + i;
        }
    }
    return pick;
}

static int root_score(const Mcts *t, const MctsNode *root, uint32_t be)
{
    if (root->proven == PROVEN_WIN)
        return units_mate(root->pdist);
    if (root->proven == PROVEN_LOSS)
        return -units_mate(root->pdist);
    if (root->proven == PROVEN_DRAW)
        return 0;
    if (be == NODE_NONE)
        return 0;
    const MctsNode *c = &t->nodes[t->edges[be].child];
    int pv = proven_for(root, c);
    if (pv == PROVEN_WIN)
        return units_mate(c->pdist + 1);
    if (pv == PROVEN_DRAW)
        return 0;
    return units_winrate_cp(q_for(root, c));
}

static void mcts_report(MctsRun *r, uint32_t root, int final)
{
    SearchCtx *c = r->c;
    const Mcts *t = r->t;
    if (!c->emit)
        return;
    Move pv[MCTS_PV_MAX];
    int npv = 0;
    const MctsNode *n = &t->nodes[root];
    uint32_t be = n->edge != NODE_NONE ? best_edge(t, n) : NODE_NONE;
    int score = root_score(t, n, be);
    while (npv < MCTS_PV_MAX && n->edge != NODE_NONE) {
        uint32_t e = best_edge(t, n);
        if (e == NODE_NONE)
            break;
        pv[npv++] = t->edges[e].move;
        n = &t->nodes[t->edges[e].child];
    }
    uint64_t fn = (uint64_t)t->nnodes * 1000 / t->cap_nodes;
    uint64_t fe = (uint64_t)t->nedges * 1000 / t->cap_edges;
    int avg = r->playouts ? (int)((r->depth_sum + r->playouts / 2) / r->playouts) : 0;
    search_info(c, &(SearchProgress){.depth = avg, .seldepth = r->seldepth, .score = score,
                                 .nodes = r->playouts, .hashfull = (int)(fn > fe ? fn : fe),
                                 .pv = pv, .npv = npv,
                                 .solved = final && t->nodes[root].proven});
}

/* --- entry point ------------------------------------------------------- */

static int same_game(const Mcts *t, const Game *g, const GameOptions *opt)
{
    return t->game == g && game_options_equal(g, &t->opt, opt);
}

void mcts_prepare(Search *s)
{
    if (!s->mcts)
        s->mcts = mcts_new(s->hash_mb);
}

Move mcts_go(SearchCtx *c, SearchResult *res)
{
    Search *s = c->s;
    const Game *g = c->g;
    if (!s->mcts && !(s->mcts = mcts_new(s->hash_mb)) && !(s->mcts = mcts_new(1)))
        return MOVE_NONE;
    Mcts *t = s->mcts;
    /* A tree of another game, or mostly spent, starts afresh. */
    if (!same_game(t, g, c->opt) || t->full || t->nnodes > t->cap_nodes / 2 ||
        t->nedges > t->cap_edges / 2)
        mcts_clear(t);
    t->game = g;
    t->opt = *c->opt;

    MctsRun r = {.c = c, .t = t, .g = g, .nbase = c->nprev};
    r.explore = s->mcts_explore / 100.0;
    r.plain = s->mcts_policy == MCTS_POLICY_PLAIN;
    r.cap = s->mcts_playout_cap;
    r.keys = malloc(((size_t)c->nprev + MCTS_MAX_PATH + 1) * sizeof(Key));
    r.moves = malloc((size_t)g->max_moves * sizeof(Move));
    Move best = MOVE_NONE, fallback = MOVE_NONE;
    if (!r.keys || !r.moves)
        goto out;
    if (c->nprev)
        memcpy(r.keys, c->prev, (size_t)c->nprev * sizeof(Key));
    int nlegal = g->gen_moves(c->root, r.moves);
    if (nlegal <= 0)
        goto out;
    fallback = r.moves[0];

    uint32_t root = node_get(t, g, c->root, g->key(c->root));
    if (root == NODE_NONE) {
        mcts_clear(t);
        t->game = g;
        t->opt = *c->opt;
        root = node_get(t, g, c->root, g->key(c->root));
    }
    if (root == NODE_NONE)
        goto out;
    r.root = root;
    /* With many moves (Morelli: hundreds), the root expanded at once, its
     * untried moves best first. */
    if (nlegal > MCTS_ORDER_MIN && !t->nodes[root].proven) {
        if (t->nodes[root].edge == NODE_NONE) {
            memcpy(r.pos, c->root, g->pos_size);
            node_expand(&r, &t->nodes[root]);
        }
        root_order(&r, &t->nodes[root]);
    }
    /* The root of a new search is never a repetition leaf; a node proven
     * from another path keeps its value. */
    const SearchLimits *l = c->limits;
    uint64_t depth_cap = l->depth > 0 ? 10000ull * (uint64_t)l->depth : 0;
    /* A first report by a quarter of the hard budget (then every second): should
     * the search run late, the protocol's watchdog answers with its pv move
     * instead of the first legal move. */
    int64_t next_report = c->tm.hard_ms > 0 && c->tm.hard_ms < 2000 ? c->tm.hard_ms / 4 : 1000;
    for (;;) {
        if (t->nodes[root].proven)
            break;
        mcts_iterate(&r, root);
        if (search_should_stop(c))
            break;
        if (l->nodes && r.playouts >= l->nodes)
            break;
        if (l->depth > 0 && (r.depth_sum >= (uint64_t)l->depth * r.playouts || r.playouts >= depth_cap))
            break;
        /* Every playout: a long one (13x13, cap 200 plies) on a starved
         * thread takes milliseconds. */
        if (timeman_soft_over(&c->tm, 1, 1))
            break;
        if ((r.playouts & 15) == 0) {
            if (c->emit && timeman_elapsed(&c->tm) >= next_report) {
                mcts_report(&r, root, 0);
                next_report = timeman_elapsed(&c->tm) + 1000;
            }
        }
    }
    const MctsNode *rn = &t->nodes[root];
    uint32_t be = rn->edge != NODE_NONE ? best_edge(t, rn) : NODE_NONE;
    if (be != NODE_NONE)
        best = t->edges[be].move;
    if (best != MOVE_NONE && !search_move_legal(g, c->root, best))
        best = MOVE_NONE;
    mcts_report(&r, root, 1);
    if (res) {
        res->score = root_score(t, rn, be);
        res->depth = r.playouts ? (int)(r.depth_sum / r.playouts) : 0;
        res->proven = rn->proven != PROVEN_NONE ||
                      res->score >= SCORE_MATE_BOUND || res->score <= -SCORE_MATE_BOUND;
    }
out:
    if (best == MOVE_NONE)
        best = fallback;
    if (res) {
        res->best = best;
        res->nodes = r.playouts;
        res->time_ms = timeman_elapsed(&c->tm);
    }
    free(r.keys);
    free(r.moves);
    root_cache_free(&r.rc);
    return best;
}
