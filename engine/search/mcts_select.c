/*
 * mcts_select.c -- UCT selection: the walk over a node's children, and at the root
 * the children in arrays for a vector loop (mcts_internal.h).
 */
#include <stdlib.h>
#include <string.h>

#include "mcts_internal.h"

/* --- the root's children in arrays ---------------------------------------- */

void mcts_root_cache_free(RootCache *rc)
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
    const MctsEdge *e = &r->t->edges[node_edge(n) + i];
    const MctsNode *c = &r->t->nodes[edge_child(e)];
    rc->won -= rc->win[i];
    int pv = proven_for(n, c);
    rc->win[i] = pv == PROVEN_WIN;
    rc->won += rc->win[i];
    if (pv == PROVEN_WIN || pv == PROVEN_LOSS) {
        rc->q[i] = ROOT_NEVER; /* a win is taken by the scan, a loss never */
        rc->s[i] = 0.0f;
        return;
    }
    rc->q[i] = uct_terms(n, e, c, &rc->s[i]);
}

/* The first slot of node id in the cache's set (node indices are small and
 * dense: mixed before the multiply-high). */
static size_t root_slot(const RootCache *rc, uint32_t id)
{
    return tt_index((Key)(id + 1) * 0x9E3779B97F4A7C15ull, (size_t)rc->mask + 1);
}

/* Makes the cache for the root n once every edge has a child (UCT's
 * turn); leaves it unmade (n = 0) when memory runs out or a child is still
 * being added by another thread, and mcts_select_edge walks the nodes
 * instead. */
static void root_cache_make(MctsRun *r, const MctsNode *n)
{
    RootCache *rc = &r->rc;
    for (uint32_t i = 0; i < n->nedges; i++)
        if (edge_child(&r->t->edges[node_edge(n) + i]) == NODE_NONE)
            return;
    uint32_t k = n->nedges, k8 = (k + 7) & ~7u, nslots = 16;
    while (nslots < 2 * k)
        nslots <<= 1;
    rc->q = malloc(k8 * sizeof(float));
    rc->s = malloc(k8 * sizeof(float));
    rc->win = calloc(k8, 1);
    rc->slot = calloc(nslots, sizeof(uint32_t));
    rc->slot_edge = malloc(nslots * sizeof(uint32_t));
    if (!rc->q || !rc->s || !rc->win || !rc->slot || !rc->slot_edge) {
        mcts_root_cache_free(rc);
        return;
    }
    rc->mask = nslots - 1;
    rc->won = 0;
    for (uint32_t i = k; i < k8; i++) {
        rc->q[i] = ROOT_NEVER;
        rc->s[i] = 0.0f;
    }
    for (uint32_t i = 0; i < k; i++) {
        uint32_t ch = edge_child(&r->t->edges[node_edge(n) + i]);
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
void mcts_root_cache_update(MctsRun *r, int d)
{
    RootCache *rc = &r->rc;
    const MctsNode *n = &r->t->nodes[r->root];
    if (r->threads > 1 && r->playouts % ROOT_REFRESH == 0) {
        for (uint32_t i = 0; i < rc->n; i++)
            root_cache_set(r, n, i);
        return;
    }
    /* the root's edge taken has one visit more (and maybe a draw) */
    if (r->root_edge != NODE_NONE)
        root_cache_set(r, n, r->root_edge - node_edge(n));
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
 * proven lost), as mcts_select_edge's walk would choose. */
static uint32_t root_cache_select(const MctsRun *r, const MctsNode *n, float c_log)
{
    const RootCache *rc = &r->rc;
    if (rc->won) {
        for (uint32_t i = 0; i < rc->n; i++)
            if (rc->win[i])
                return node_edge(n) + i;
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
    return node_edge(n) + pick;
}


/* --- the walk ----------------------------------------------------------- */

uint32_t mcts_select_edge(MctsRun *r, const MctsNode *n)
{
    Mcts *t = r->t;
    const MctsEdge *e = &t->edges[node_edge(n)];
    uint16_t tried = atomic_load_explicit(&n->tried, memory_order_relaxed);
    while (tried < n->nedges) {
        /* a child proven a win for the side to move here (found from
         * another path since it was tried), else the next untried move,
         * claimed by this thread */
        for (uint32_t i = 0; i < tried; i++) {
            uint32_t ch = edge_child(&e[i]);
            if (ch != NODE_NONE && proven_for(n, &t->nodes[ch]) == PROVEN_WIN)
                return node_edge(n) + i;
        }
        if (atomic_compare_exchange_weak_explicit((_Atomic uint16_t *)&n->tried, &tried,
                                                  (uint16_t)(tried + 1), memory_order_relaxed,
                                                  memory_order_relaxed))
            return node_edge(n) + tried;
    }
    /* u = q + C sqrt(ln N / n_i) = q + (C sqrt(ln N)) sqrt(1 / n_i), in
     * floats: one division and one square root a child; N the node's
     * visits, n_i the edge's */
    uint32_t nv = atomic_load_explicit(&n->visits, memory_order_relaxed);
    float c_log = (float)(r->explore * sqrt(log((double)(nv > 0 ? nv : 1))));
    if (n == &t->nodes[r->root]) {
        if (!r->rc.n)
            root_cache_make(r, n);
        if (r->rc.n)
            return root_cache_select(r, n, c_log);
    }
    float best = -1.0f;
    uint32_t pick = NODE_NONE;
    for (uint32_t i = 0; i < n->nedges; i++) {
        uint32_t ch = edge_child(&e[i]);
        if (ch == NODE_NONE) /* another thread is adding it */
            continue;
        const MctsNode *c = &t->nodes[ch];
        int pv = proven_for(n, c);
        if (pv == PROVEN_WIN)
            return node_edge(n) + i;
        if (pv == PROVEN_LOSS) {
            if (pick == NODE_NONE)
                pick = node_edge(n) + i;
            continue;
        }
        float sq, q = uct_terms(n, &e[i], c, &sq);
        float u = q + c_log * sq;
        if (u > best) {
            best = u;
            pick = node_edge(n) + i;
        }
    }
    return pick;
}
