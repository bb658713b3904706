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
    if (ecap > EDGE_BUSY - 1)
        ecap = EDGE_BUSY - 1;
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
    mcts_join(t);
    free(t->nodes);
    free(t->edges);
    free(t->slots);
    free(t);
}

void mcts_clear(Mcts *t)
{
    if (!t)
        return;
    memset((void *)t->slots, 0, t->nslots * sizeof(uint32_t));
    t->nnodes = 0;
    t->nedges = 0;
    t->full = 0;
    t->game = NULL;
    t->rng = 0x6d637473ull;
}

uint32_t mcts_nodes_used(const Mcts *t)
{
    uint32_t n = atomic_load_explicit(&t->nnodes, memory_order_relaxed);
    return n < t->cap_nodes ? n : t->cap_nodes;
}

uint32_t mcts_edges_used(const Mcts *t)
{
    uint64_t n = atomic_load_explicit(&t->nedges, memory_order_relaxed);
    return n < t->cap_edges ? (uint32_t)n : t->cap_edges;
}

/* A fresh node for pos (key key), not yet in the table: r's spare one, or
 * one taken from the arena; NODE_NONE when the arena is full. */
static uint32_t node_take(MctsRun *r, const void *pos, Key key)
{
    Mcts *t = r->t;
    uint32_t id = r->spare;
    if (id == NODE_NONE) {
        if (atomic_load_explicit(&t->nnodes, memory_order_relaxed) >= t->cap_nodes)
            id = t->cap_nodes;
        else
            id = atomic_fetch_add_explicit(&t->nnodes, 1, memory_order_relaxed);
        if (id >= t->cap_nodes) {
            atomic_store_explicit(&t->full, 1, memory_order_relaxed);
            return NODE_NONE;
        }
    }
    r->spare = NODE_NONE;
    MctsNode *n = &t->nodes[id];
    n->key = key;
    atomic_init(&n->value, 0);
    atomic_init(&n->visits, 0);
    atomic_init(&n->edge, NODE_NONE);
    n->nedges = 0;
    atomic_init(&n->tried, 0);
    int stm = r->g->side_to_move(pos);
    uint32_t proof = PROVEN_NONE;
    int res = r->g->result(pos);
    if (res != RESULT_NONE) {
        int sc = units_result_score(res, stm, 0);
        proof = sc > 0 ? PROVEN_WIN : sc < 0 ? PROVEN_LOSS : PROVEN_DRAW;
    }
    atomic_init(&n->proof, proof | (uint32_t)stm << 24);
    return id;
}

/* The node of pos (key key), created when new; NODE_NONE when full.  A new
 * node is made first and then published by a compare-and-swap of the empty
 * slot (release: its fields are written before); a thread that loses the
 * race keeps its node as a spare for the next one. */
uint32_t mcts_node_get(MctsRun *r, const void *pos, Key key)
{
    Mcts *t = r->t;
    size_t mask = t->nslots - 1;
    size_t i = tt_index(key, t->nslots);
    uint32_t id = NODE_NONE;
    for (;;) {
        uint32_t s = atomic_load_explicit(&t->slots[i], memory_order_acquire);
        if (s == 0) {
            if (id == NODE_NONE && (id = node_take(r, pos, key)) == NODE_NONE)
                return NODE_NONE;
            if (atomic_compare_exchange_strong_explicit(&t->slots[i], &s, id + 1,
                                                        memory_order_acq_rel, memory_order_acquire))
                return id;
            /* another thread filled the slot meanwhile: s is its node */
        }
        if (t->nodes[s - 1].key == key) {
            if (id != NODE_NONE)
                r->spare = id;
            return s - 1;
        }
        i = (i + 1) & mask;
    }
}

int mcts_node_expand(MctsRun *r, MctsNode *n)
{
    Mcts *t = r->t;
    uint32_t st = NODE_NONE;
    if (!atomic_compare_exchange_strong_explicit(&n->edge, &st, EDGE_BUSY, memory_order_acquire,
                                                 memory_order_acquire))
        return st < EDGE_BUSY;
    int k = r->g->gen_moves(r->pos, r->moves);
    if (k > MCTS_MAX_EDGES)
        k = 0;
    uint64_t first = NODE_NONE;
    if (k > 0 &&
        atomic_load_explicit(&t->nedges, memory_order_relaxed) + (uint64_t)k <= t->cap_edges)
        first = atomic_fetch_add_explicit(&t->nedges, (uint64_t)k, memory_order_relaxed);
    if (k <= 0 || first == NODE_NONE || first + (uint64_t)k > t->cap_edges) {
        if (k > 0)
            atomic_store_explicit(&t->full, 1, memory_order_relaxed);
        /* a node without moves stays a leaf; a full arena too (the next
         * visit tries again and fails as fast) */
        atomic_store_explicit(&n->edge, NODE_NONE, memory_order_release);
        return 0;
    }
    MctsEdge *e = &t->edges[first];
    /* Shuffled, so the unvisited moves are tried in random order. */
    for (int i = 0; i < k; i++) {
        int j = (int)rng_below(&r->rng, (uint32_t)(i + 1));
        e[i].move = e[j].move;
        e[j].move = r->moves[i];
    }
    for (int i = 0; i < k; i++) {
        atomic_init(&e[i].child, NODE_NONE);
        atomic_init(&e[i].visits, 0);
        atomic_init(&e[i].draws, 0);
    }
    n->nedges = (uint16_t)k;
    atomic_store_explicit(&n->edge, (uint32_t)first, memory_order_release);
    return 1;
}

/* An untried root edge and its static value, for mcts_root_order(). */
typedef struct RootMove {
    int score;
    Move move;
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
    uint32_t tried = atomic_load(&n->tried);
    if (!node_expanded(n) || n->nedges - tried < 2)
        return;
    uint32_t k = n->nedges - tried;
    if (k < 2)
        return;
    RootMove *rm = malloc(k * sizeof *rm);
    if (!rm)
        return;
    MctsEdge *e = &t->edges[node_edge(n) + tried];
    for (uint32_t i = 0; i < k; i++) {
        memcpy(r->pos, r->c->root, g->pos_size);
        g->make(r->pos, e[i].move, r->undo);
        int res = g->result(r->pos), v;
        if (res != RESULT_NONE) {
            v = units_result_score(res, node_stm(n), 1);
        } else {
            v = search_eval(g, r->pos);
            if (g->side_to_move(r->pos) != node_stm(n))
                v = -v;
        }
        rm[i].score = v;
        rm[i].move = e[i].move;
    }
    qsort(rm, k, sizeof *rm, by_score); /* ties: any order (the shuffle's) */
    for (uint32_t i = 0; i < k; i++)
        e[i].move = rm[i].move; /* untried: no child, no visits yet */
    free(rm);
}

/* --- values ------------------------------------------------------------ */

/* Result for P1 of a proven node. */
double mcts_proven_result_p1(const MctsNode *n)
{
    int pr = node_proven(n);
    if (pr == PROVEN_DRAW)
        return 0.5;
    int win = pr == PROVEN_WIN;
    return (node_stm(n) == SIDE_P1) == win ? 1.0 : 0.0;
}

/* MCTS-Solver: settle n from its proven children.  Threads may settle one
 * node at once: they find the same value from the same children, or one
 * from more of them (proofs only ever get added). */
void mcts_solver_update(Mcts *t, MctsNode *n)
{
    if (node_proven(n) || !node_expanded(n))
        return;
    int all = 1, draw = 0, win_d = -1, loss_d = 0;
    for (uint32_t i = 0; i < n->nedges; i++) {
        uint32_t ch = edge_child(&t->edges[node_edge(n) + i]);
        if (ch == NODE_NONE) {
            all = 0;
            continue;
        }
        const MctsNode *c = &t->nodes[ch];
        int pv = proven_for(n, c), pd = node_pdist(c);
        if (pv == PROVEN_WIN) {
            if (win_d < 0 || pd < win_d)
                win_d = pd;
        } else if (pv == PROVEN_LOSS) {
            if (pd > loss_d)
                loss_d = pd;
        } else if (pv == PROVEN_DRAW) {
            draw = 1;
        } else {
            all = 0;
        }
    }
    uint32_t proof = PROVEN_NONE;
    if (win_d >= 0)
        proof = PROVEN_WIN | (uint32_t)(uint16_t)(win_d + 1) << 8;
    else if (all)
        proof = (uint32_t)(draw ? PROVEN_DRAW : PROVEN_LOSS) | (uint32_t)(uint16_t)(loss_d + 1)
                                                                   << 8;
    if (proof != PROVEN_NONE)
        atomic_store_explicit(&n->proof, proof | (uint32_t)node_stm(n) << 24, memory_order_relaxed);
}
