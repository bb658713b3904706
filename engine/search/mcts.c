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
    uint64_t fn = (uint64_t)mcts_nodes_used(t) * 8 / t->cap_nodes;
    uint64_t fe = (uint64_t)mcts_edges_used(t) * 8 / t->cap_edges;
    uint64_t f = fn > fe ? fn : fe; /* eighths used */
    return f < 6 ? 1u : f < 7 ? 8u : 64u;
}

/* The value of a result (for P1) for the side to move at n. */
static uint64_t value_of(const MctsNode *n, double res_p1)
{
    return (uint64_t)llround((node_stm(n) == SIDE_P1 ? res_p1 : 1.0 - res_p1) * VALUE_ONE);
}

/* Enters node id at depth d of the path: a visit and a virtual loss, the
 * result worst for the side that chose it (a win for the node's side to
 * move when the other side chose it, else a loss), taken back at the
 * backup.  Returns the visits before this one. */
static uint32_t path_enter(MctsRun *r, int d, uint32_t id, const MctsNode *parent)
{
    MctsNode *n = &r->t->nodes[id];
    r->path[d] = id;
    r->vl[d] = parent && node_stm(parent) != node_stm(n) ? (uint64_t)VALUE_ONE : 0;
    if (r->vl[d])
        atomic_fetch_add_explicit(&n->value, r->vl[d], memory_order_relaxed);
    return atomic_fetch_add_explicit(&n->visits, 1, memory_order_relaxed);
}

static void mcts_iterate(MctsRun *r, uint32_t root)
{
    Mcts *t = r->t;
    const Game *g = r->g;
    memcpy(r->pos, r->c->root, g->pos_size);
    int d = 0;
    uint32_t cur = root;
    uint32_t seen = path_enter(r, 0, root, NULL);
    r->root_edge = NODE_NONE;
    double res;
    for (;;) {
        MctsNode *n = &t->nodes[cur];
        if (node_proven(n)) {
            res = mcts_proven_result_p1(n);
            break;
        }
        if (seen == 0 || d >= MCTS_MAX_PATH - 1 ||
            (!node_expanded(n) && (seen < expand_after(t) || !mcts_node_expand(r, n)))) {
            res = mcts_playout(r);
            break;
        }
        uint32_t ei = mcts_select_edge(r, n);
        if (ei == NODE_NONE) { /* every child still being added */
            res = mcts_playout(r);
            break;
        }
        MctsEdge *e = &t->edges[ei];
        if (d == 0)
            r->root_edge = ei;
        atomic_fetch_add_explicit(&e->visits, 1, memory_order_relaxed);
        r->keys[r->nbase + d] = n->key;
        g->make(r->pos, e->move, r->undo);
        uint32_t ch = edge_child(e);
        if (ch == NODE_NONE) {
            /* this thread claimed the edge (mcts_select_edge) */
            ch = mcts_node_get(r, r->pos, g->key(r->pos));
            if (ch == NODE_NONE) { /* full: play out without a node */
                res = mcts_playout(r);
                break;
            }
            atomic_store_explicit(&e->child, ch, memory_order_release);
        }
        /* A repetition draw belongs to this path, not to the position:
         * counted on the edge, the node left as it is. */
        if (r->c->uses_history && past_draw(g, r->pos, r->keys, r->nbase + d + 1) == RESULT_DRAW) {
            atomic_fetch_add_explicit(&e->draws, 1, memory_order_relaxed);
            res = 0.5;
            break;
        }
        seen = path_enter(r, d + 1, ch, n);
        cur = ch;
        d++;
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
        atomic_fetch_add_explicit(&n->value, value_of(n, res) - r->vl[i], memory_order_relaxed);
        child_proven = node_proven(n) != PROVEN_NONE;
    }
    if (r->rc.n)
        mcts_root_cache_update(r, d);
}

/* --- reporting --------------------------------------------------------- */

/* The move to play: a proven win first, else the move most visited from n
 * (its edge's visits) that is not proven lost (of equal visits the better
 * mean, then the first edge), else the longest proven loss; at the root
 * (root given) only the moves searched, and none of skip[0..nskip). */
static uint32_t best_edge_of(const Mcts *t, const MctsNode *n, const SearchCtx *root,
                             const uint32_t *skip, int nskip)
{
    uint32_t pick = NODE_NONE;
    long best = -1;
    double best_q = 0.0;
    for (uint32_t i = 0; i < n->nedges; i++) {
        const MctsEdge *e = &t->edges[node_edge(n) + i];
        uint32_t ch = edge_child(e);
        if (ch == NODE_NONE || (root && !search_root_allowed(root, e->move)))
            continue;
        int skipped = 0;
        for (int j = 0; j < nskip && !skipped; j++)
            skipped = skip[j] == node_edge(n) + i;
        if (skipped)
            continue;
        const MctsNode *c = &t->nodes[ch];
        int pv = proven_for(n, c);
        long w;
        if (pv == PROVEN_WIN)
            w = 4000000000L - node_pdist(c);
        else if (pv == PROVEN_LOSS)
            w = -1000000L + node_pdist(c);
        else
            w = (long)atomic_load_explicit(&e->visits, memory_order_relaxed);
        double q = edge_q(n, e, c);
        /* equal visits: the better mean, then the earlier edge */
        if (pick == NODE_NONE || w > best || (w == best && pv == PROVEN_NONE && q > best_q)) {
            best = w;
            best_q = q;
            pick = node_edge(n) + i;
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
    const MctsEdge *e = &t->edges[be];
    const MctsNode *c = &t->nodes[edge_child(e)];
    int pv = proven_for(root, c);
    if (pv == PROVEN_WIN)
        return units_mate(node_pdist(c) + 1);
    if (pv == PROVEN_LOSS)
        return -units_mate(node_pdist(c) + 1);
    if (pv == PROVEN_DRAW)
        return 0;
    return units_winrate_cp(edge_q(root, e, c));
}

static int root_score(const Mcts *t, const MctsNode *root, uint32_t be)
{
    int pr = node_proven(root);
    if (pr == PROVEN_WIN)
        return units_mate(node_pdist(root));
    if (pr == PROVEN_LOSS)
        return -units_mate(node_pdist(root));
    if (pr == PROVEN_DRAW)
        return 0;
    if (be == NODE_NONE)
        return 0;
    const MctsEdge *e = &t->edges[be];
    const MctsNode *c = &t->nodes[edge_child(e)];
    int pv = proven_for(root, c);
    if (pv == PROVEN_WIN)
        return units_mate(node_pdist(c) + 1);
    if (pv == PROVEN_DRAW)
        return 0;
    return units_winrate_cp(edge_q(root, e, c));
}

/* Playouts of every thread: the first thread's own and those the others
 * published. */
static uint64_t all_playouts(const MctsRun *r)
{
    return r->playouts + (r->sh ? atomic_load_explicit(&r->sh->playouts, memory_order_relaxed) : 0);
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
    uint64_t fn = (uint64_t)mcts_nodes_used(t) * 1000 / t->cap_nodes;
    uint64_t fe = (uint64_t)mcts_edges_used(t) * 1000 / t->cap_edges;
    int avg = r->playouts ? (int)((r->depth_sum + r->playouts / 2) / r->playouts) : 0;
    /* MultiPV: the root's children in the order best_edge ranks them (a
     * proven win, then by visits), one line each */
    for (int j = 0; j < c->multipv; j++) {
        uint32_t be = node_expanded(rn) ? best_edge_of(t, rn, c, lines, j) : NODE_NONE;
        if (j > 0 && be == NODE_NONE)
            break;
        lines[j] = be;
        int score = j == 0 ? root_score(t, rn, be) : edge_score(t, rn, be);
        int npv = 0;
        const MctsNode *n = rn;
        for (uint32_t e = be; e != NODE_NONE && npv < MCTS_PV_MAX;) {
            pv[npv++] = t->edges[e].move;
            n = &t->nodes[edge_child(&t->edges[e])];
            e = node_expanded(n) ? best_edge(t, n) : NODE_NONE;
        }
        search_info(
            c, &(SearchProgress){.depth = avg,
                                 .seldepth = r->seldepth,
                                 .score = score,
                                 .nodes = all_playouts(r),
                                 .hashfull = (int)(fn > fe ? fn : fe),
                                 .pv = pv,
                                 .npv = npv,
                                 .multipv = c->multipv > 1 ? j + 1 : 0,
                                 .solved = final && node_proven(rn) && j == 0 && c->multipv == 1});
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

/* r's buffers and copies for thread id of threads: 0, or -1 when out of
 * memory. */
static int run_init(MctsRun *r, SearchCtx *c, MctsShared *sh, int id, int threads)
{
    Search *s = c->s;
    const Game *g = c->g;
    Mcts *t = s->mcts;
    *r = (MctsRun){.c = c, .t = t, .g = g, .sh = sh, .id = id, .threads = threads};
    r->nbase = c->nprev;
    r->explore = s->mcts_explore / 100.0;
    r->plain = s->mcts_policy == MCTS_POLICY_PLAIN;
    r->cap = s->mcts_playout_cap;
    r->spare = NODE_NONE;
    /* the first thread goes on with the tree's stream, the others with
     * streams of their own */
    r->rng = t->rng;
    for (int i = 0; i < id; i++)
        r->rng = r->rng * 6364136223846793005ull + 0x9E3779B97F4A7C15ull;
    r->keys = malloc(((size_t)c->nprev + MCTS_MAX_PATH + 1) * sizeof(Key));
    r->moves = malloc((size_t)g->max_moves * sizeof(Move));
    if (!r->keys || !r->moves)
        return -1;
    if (c->nprev)
        memcpy(r->keys, c->prev, (size_t)c->nprev * sizeof(Key));
    return 0;
}

static void run_free(MctsRun *r)
{
    free(r->keys);
    free(r->moves);
    mcts_root_cache_free(&r->rc);
}

static void publish(MctsRun *r)
{
    MctsShared *sh = r->sh;
    atomic_fetch_add_explicit(&sh->depth_sum, r->depth_sum - r->published_depth,
                              memory_order_relaxed);
    atomic_fetch_add_explicit(&sh->playouts, r->playouts - r->published, memory_order_relaxed);
    r->published = r->playouts;
    r->published_depth = r->depth_sum;
    int d = atomic_load_explicit(&sh->seldepth, memory_order_relaxed);
    while (r->seldepth > d && !atomic_compare_exchange_weak(&sh->seldepth, &d, r->seldepth)) {
    }
}

/* A helper thread: iterations until the first thread says done. */
static void *mcts_helper(void *arg)
{
    MctsRun *r = arg;
    const MctsNode *root = &r->t->nodes[r->root];
    for (;;) {
        if (search_helper_hook)
            search_helper_hook(r->id);
        if (atomic_load_explicit(&r->sh->done, memory_order_relaxed) || node_proven(root) ||
            search_should_stop(r->c))
            break;
        mcts_iterate(r, r->root);
        if ((r->playouts & 15) == 0)
            publish(r);
    }
    publish(r);
    return NULL;
}

void mcts_join(Mcts *t)
{
    for (int i = 1; i < t->nruns; i++) {
        pthread_join(t->runs[i].th, NULL);
        run_free(&t->runs[i]);
    }
    free(t->runs);
    t->runs = NULL;
    t->nruns = 0;
}

/* Starts the helpers of r[0]'s search (r[1..n) filled), which read the
 * context hc; returns how many run. */
static int helpers_start(MctsRun *r, int n, SearchCtx *hc)
{
    int started = 1;
    for (; hc && started < n; started++) {
        if (run_init(&r[started], r[0].c, r[0].sh, started, n) != 0)
            break;
        r[started].c = hc;
        r[started].root = r[0].root;
        if (search_thread_create(&r[started].th, mcts_helper, &r[started]) != 0)
            break;
    }
    if (started < n)
        run_free(&r[started]);
    return started;
}

Move mcts_go(SearchCtx *c, SearchResult *res)
{
    Search *s = c->s;
    const Game *g = c->g;
    if (!s->mcts && !(s->mcts = mcts_new(s->hash_mb)) && !(s->mcts = mcts_new(1)))
        return MOVE_NONE;
    Mcts *t = s->mcts;
    /* A tree of another game, or mostly spent, starts afresh. */
    if (!same_game(t, g, c->opt) || t->full || mcts_nodes_used(t) > t->cap_nodes / 2 ||
        mcts_edges_used(t) > t->cap_edges / 2)
        mcts_clear(t);
    t->game = g;
    t->opt = *c->opt;

    int nthreads = s->threads > 0 ? s->threads : 1;
    MctsShared *sh = &t->sh;
    atomic_init(&sh->playouts, 0);
    atomic_init(&sh->depth_sum, 0);
    atomic_init(&sh->seldepth, 0);
    atomic_init(&sh->done, 0);
    MctsRun *runs = calloc((size_t)nthreads, sizeof *runs), *rp = runs;
    MctsRun one;
    if (!runs) { /* one thread, on the stack */
        nthreads = 1;
        rp = &one;
    }
    MctsRun *r0 = rp;
    int started = 1;
    Move best = MOVE_NONE, fallback = MOVE_NONE;
    if (run_init(r0, c, sh, 0, nthreads) != 0)
        goto out;
    int nlegal = g->gen_moves(c->root, r0->moves);
    if (nlegal <= 0)
        goto out;
    fallback = r0->moves[0];

    uint32_t root = mcts_node_get(r0, c->root, g->key(c->root));
    if (root == NODE_NONE) {
        mcts_clear(t);
        t->game = g;
        t->opt = *c->opt;
        root = mcts_node_get(r0, c->root, g->key(c->root));
    }
    if (root == NODE_NONE)
        goto out;
    r0->root = root;
    MctsNode *rn = &t->nodes[root];
    /* With many moves (Morelli: hundreds), the root expanded at once, its
     * untried moves best first. */
    if (nlegal > MCTS_ORDER_MIN && !node_proven(rn)) {
        if (!node_expanded(rn)) {
            memcpy(r0->pos, c->root, g->pos_size);
            mcts_node_expand(r0, rn);
        }
        mcts_root_order(r0, rn);
    }
    if (nthreads > 1) {
        /* the helpers read a copy of the context: they may outlive this
         * call */
        started = helpers_start(rp, nthreads, search_share(c));
        search_threads_short(s, started, nthreads);
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
        if (node_proven(rn))
            break;
        mcts_iterate(r0, root);
        if (search_should_stop(c))
            break;
        if (!first_done) {
            uint32_t tried = atomic_load(&rn->tried);
            first_done = node_proven(rn) || r0->playouts >= first_cap ||
                         (node_expanded(rn) &&
                          (tried >= rn->nedges || (nlegal > MCTS_ORDER_MIN && tried > 0)));
            if (!first_done)
                continue;
        }
        if (l->nodes && all_playouts(r0) >= l->nodes)
            break;
        if (l->depth > 0 &&
            (r0->depth_sum >= (uint64_t)l->depth * r0->playouts || r0->playouts >= depth_cap))
            break;
        /* Every playout: a long one (13x13, cap 200 plies) on a starved
         * thread takes milliseconds. */
        if (timeman_soft_over(&c->tm, 1, 1))
            break;
        if ((r0->playouts & 15) == 0) {
            if (c->emit && timeman_elapsed(&c->tm) >= next_report) {
                mcts_report(r0, root, 0);
                next_report = timeman_elapsed(&c->tm) + 1000;
            }
        }
    }
    /* The helpers end after their playouts under way and are joined later
     * (search_wait): the answer comes from the tree as it stands. */
    atomic_store(&sh->done, 1);
    if (started > 1) {
        t->runs = rp;
        t->nruns = started;
        runs = NULL;
    }
    /* the averages over every thread's iterations published so far (the
     * helpers', from here on in r0's own counts) */
    r0->playouts += atomic_load(&sh->playouts);
    r0->depth_sum += atomic_load(&sh->depth_sum);
    int sd = atomic_load(&sh->seldepth);
    r0->seldepth = sd > r0->seldepth ? sd : r0->seldepth;
    r0->sh = NULL;
    uint32_t be = node_expanded(rn) ? best_edge_of(t, rn, c, NULL, 0) : NODE_NONE;
    if (be != NODE_NONE)
        best = t->edges[be].move;
    else if (c->root_only) /* go searchmoves, none of them tried: the first */
        best = c->root_only[0];
    if (best != MOVE_NONE && !search_move_legal(g, c->root, best))
        best = MOVE_NONE;
    mcts_report(r0, root, 1);
    if (res) {
        res->score = root_score(t, rn, be);
        res->depth = r0->playouts ? (int)(r0->depth_sum / r0->playouts) : 0;
        res->proven = node_proven(rn) != PROVEN_NONE || res->score >= SCORE_MATE_BOUND ||
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
        res->nodes = r0->playouts;
        res->time_ms = timeman_elapsed(&c->tm);
    }
    t->rng = r0->rng;
    run_free(r0);
    free(runs);
    return best;
}
