/*
 * mcts_tree.c -- the MCTS tree: its arenas, the node table (a graph of positions
 * found by key), expansion, the root's order and MCTS-Solver's values
 * (mcts_internal.h).
 */
#include <stdlib.h>
#include <string.h>

#include "mcts_internal.h"

/* --- arena and node table ---------------------------------------------- */

Mcts *mcts_new(int64_t mb)
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
uint32_t mcts_node_get(Mcts *t, const Game *g, const void *pos, Key key)
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

int mcts_node_expand(MctsRun *r, MctsNode *n)
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

/* An untried root edge and its static value, for mcts_root_order(). */
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
void mcts_root_order(MctsRun *r, MctsNode *n)
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

/* Result for P1 of a proven node. */
double mcts_proven_result_p1(const MctsNode *n)
{
    if (n->proven == PROVEN_DRAW)
        return 0.5;
    int win = n->proven == PROVEN_WIN;
    return (n->stm == SIDE_P1) == win ? 1.0 : 0.0;
}

/* MCTS-Solver: settle n from its proven children. */
void mcts_solver_update(Mcts *t, MctsNode *n)
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
