/*
 * mcts.c -- Monte Carlo tree search, the driver: one iteration (select,
 * expand, play out, back up), the reports and the entry point, mcts_go().
 * The tree's layout and the other files are described in mcts_internal.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcts_internal.h"
#include "past.h"

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
            res = mcts_proven_result_p1(n);
            break;
        }
        if (d > 0 && r->c->uses_history &&
            past_draw(g, r->pos, r->keys, r->nbase + d) == RESULT_DRAW) {
            res = 0.5;
            break;
        }
        if (n->visits == 0 || d >= MCTS_MAX_PATH - 1 ||
            (n->edge == NODE_NONE && (n->visits < expand_after(t) || !mcts_node_expand(r, n)))) {
            res = mcts_playout(r);
            break;
        }
        MctsEdge *e = &t->edges[mcts_select_edge(r, n)];
        r->keys[r->nbase + d] = n->key;
        g->make(r->pos, e->move, r->undo);
        if (e->child == NODE_NONE) {
            uint32_t ch = mcts_node_get(t, g, r->pos, g->key(r->pos));
            if (ch == NODE_NONE) { /* full: play out without a node */
                res = mcts_playout(r);
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
            mcts_solver_update(t, n);
        n->visits++;
        n->value += (float)(n->stm == SIDE_P1 ? res : 1.0 - res);
        child_proven = n->proven != PROVEN_NONE;
    }
    if (r->rc.n)
        mcts_root_cache_update(r, d);
}

/* --- reporting --------------------------------------------------------- */

/* The move to play: a proven win first, else the most visited move that is
 * not proven lost (of equal visits the better mean, then the first edge),
 * else the longest proven loss. */
static uint32_t best_edge_of(const Mcts *t, const MctsNode *n, const SearchCtx *root,
                             const uint32_t *skip, int nskip)
{
    uint32_t pick = NODE_NONE;
    long best = -1;
    for (uint32_t i = 0; i < n->nedges; i++) {
        const MctsEdge *e = &t->edges[n->edge + i];
        if (e->child == NODE_NONE || (root && !search_root_allowed(root, e->move)))
            continue;
        int skipped = 0;
        for (int j = 0; j < nskip && !skipped; j++)
            skipped = skip[j] == n->edge + i;
        if (skipped)
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
            (w == best && pv == PROVEN_NONE &&
             q_for(n, c) > q_for(n, &t->nodes[t->edges[pick].child]))) {
            best = w;
            pick = n->edge + i;
        }
    }
    return pick;
}

static uint32_t best_edge(const Mcts *t, const MctsNode *n)
{
    return best_edge_of(t, n, NULL, NULL, 0);
}

/* The value of the root's edge be (a line after the first, MultiPV). */
static int edge_score(const Mcts *t, const MctsNode *root, uint32_t be)
{
    const MctsNode *c = &t->nodes[t->edges[be].child];
    int pv = proven_for(root, c);
    if (pv == PROVEN_WIN)
        return units_mate(c->pdist + 1);
    if (pv == PROVEN_LOSS)
        return -units_mate(c->pdist + 1);
    if (pv == PROVEN_DRAW)
        return 0;
    return units_winrate_cp(q_for(root, c));
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
    uint32_t lines[MULTIPV_MAX];
    const MctsNode *rn = &t->nodes[root];
    uint64_t fn = (uint64_t)t->nnodes * 1000 / t->cap_nodes;
    uint64_t fe = (uint64_t)t->nedges * 1000 / t->cap_edges;
    int avg = r->playouts ? (int)((r->depth_sum + r->playouts / 2) / r->playouts) : 0;
    /* MultiPV: the root's children in the order best_edge ranks them (a
     * proven win, then by visits), one line each */
    for (int j = 0; j < c->multipv; j++) {
        uint32_t be = rn->edge != NODE_NONE ? best_edge_of(t, rn, c, lines, j) : NODE_NONE;
        if (j > 0 && be == NODE_NONE)
            break;
        lines[j] = be;
        int score = j == 0 ? root_score(t, rn, be) : edge_score(t, rn, be);
        int npv = 0;
        const MctsNode *n = rn;
        for (uint32_t e = be; e != NODE_NONE && npv < MCTS_PV_MAX;) {
            pv[npv++] = t->edges[e].move;
            n = &t->nodes[t->edges[e].child];
            e = n->edge != NODE_NONE ? best_edge(t, n) : NODE_NONE;
        }
        search_info(c,
                    &(SearchProgress){.depth = avg,
                                      .seldepth = r->seldepth,
                                      .score = score,
                                      .nodes = r->playouts,
                                      .hashfull = (int)(fn > fe ? fn : fe),
                                      .pv = pv,
                                      .npv = npv,
                                      .multipv = c->multipv > 1 ? j + 1 : 0,
                                      .solved = final && rn->proven && j == 0 && c->multipv == 1});
    }
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

    uint32_t root = mcts_node_get(t, g, c->root, g->key(c->root));
    if (root == NODE_NONE) {
        mcts_clear(t);
        t->game = g;
        t->opt = *c->opt;
        root = mcts_node_get(t, g, c->root, g->key(c->root));
    }
    if (root == NODE_NONE)
        goto out;
    r.root = root;
    /* With many moves (Morelli: hundreds), the root expanded at once, its
     * untried moves best first. */
    if (nlegal > MCTS_ORDER_MIN && !t->nodes[root].proven) {
        if (t->nodes[root].edge == NODE_NONE) {
            memcpy(r.pos, c->root, g->pos_size);
            mcts_node_expand(&r, &t->nodes[root]);
        }
        mcts_root_order(&r, &t->nodes[root]);
    }
    /* The root of a new search is never a repetition leaf; a node proven
     * from another path keeps its value. */
    const SearchLimits *l = c->limits;
    uint64_t depth_cap = l->depth > 0 ? 10000ull * (uint64_t)l->depth : 0;
    /* A first report by a quarter of the hard budget (then every second): should
     * the search run late, the protocol's watchdog answers with its pv move
     * instead of the first legal move. */
    int64_t next_report = c->tm.hard_ms > 0 && c->tm.hard_ms < 2000 ? c->tm.hard_ms / 4 : 1000;
    /* The first look at the root, which no limit cuts short (only the
     * caller's stop): every root move tried once, or with an ordered root
     * its best first (the root's first expansion is on its second visit).
     * A tree too full to expand the root gives up after a few playouts. */
    int first_done = 0;
    uint64_t first_cap = 2 * (uint64_t)nlegal + 8;
    for (;;) {
        if (t->nodes[root].proven)
            break;
        mcts_iterate(&r, root);
        if (search_should_stop(c))
            break;
        if (!first_done) {
            const MctsNode *rn = &t->nodes[root];
            first_done = rn->proven || r.playouts >= first_cap ||
                         (rn->edge != NODE_NONE &&
                          (rn->tried >= rn->nedges || (nlegal > MCTS_ORDER_MIN && rn->tried > 0)));
            if (!first_done)
                continue;
        }
        if (l->nodes && r.playouts >= l->nodes)
            break;
        if (l->depth > 0 &&
            (r.depth_sum >= (uint64_t)l->depth * r.playouts || r.playouts >= depth_cap))
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
    uint32_t be = rn->edge != NODE_NONE ? best_edge_of(t, rn, c, NULL, 0) : NODE_NONE;
    if (be != NODE_NONE)
        best = t->edges[be].move;
    else if (c->root_only) /* go searchmoves, none of them tried: the first */
        best = c->root_only[0];
    if (best != MOVE_NONE && !search_move_legal(g, c->root, best))
        best = MOVE_NONE;
    mcts_report(&r, root, 1);
    if (res) {
        res->score = root_score(t, rn, be);
        res->depth = r.playouts ? (int)(r.depth_sum / r.playouts) : 0;
        res->proven = rn->proven != PROVEN_NONE || res->score >= SCORE_MATE_BOUND ||
                      res->score <= -SCORE_MATE_BOUND;
    }
out:
    /* Stopped before any root move was tried: the move best by the
     * evaluation (the first legal move only when out of memory). */
    if (best == MOVE_NONE && fallback != MOVE_NONE) {
        Move guess = search_guess(g, c->root);
        best = guess != MOVE_NONE ? guess : fallback;
    }
    if (res) {
        res->best = best;
        res->nodes = r.playouts;
        res->time_ms = timeman_elapsed(&c->tm);
    }
    free(r.keys);
    free(r.moves);
    mcts_root_cache_free(&r.rc);
    return best;
}
