/*
 * ab.c -- the alpha-beta searcher.
 *
 * Negamax with iterative deepening, principal variation search, aspiration
 * windows, a quiescence search over noisy moves, late move reductions,
 * internal iterative reductions and enhanced transposition cutoffs (games
 * with ordering hints), and move ordering by TT move, noisy moves, killers
 * and a history table.
 * Lazy SMP: helper threads run the same iterative deepening, each on an
 * iteration that too few threads are on yet, and share the transposition
 * table; the result is voted among the threads' last completed iterations
 * (ab_threads.c, docs/threads.md).
 *
 * Proven values.  Every leaf that is judged by the evaluation (a horizon
 * leaf, a stand-pat, a path-dependent repetition draw, a TT cut on an
 * unproven entry) bumps the thread's horizon counter.  A node whose counter
 * did not move while it was searched has an exact game value: it is stored
 * with the TT's proven bit, and proven entries cut at any depth.  When a
 * whole root iteration passes without a horizon leaf, the root is solved and
 * iterative deepening stops; a mate score found within the iteration's
 * depth also stops it.  Small endings of games that bound their plies left
 * are solved in slices between the iterations (ab_solve.c).  The move picker is in
 * ab_pick.c, what the files share in ab_internal.h.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ab_internal.h"
#include "skill.h"

static uint64_t total_nodes(AbThread *ts, int n)
{
    uint64_t sum = ts[0].nodes;
    for (int i = 1; i < n; i++)
        sum += atomic_load_explicit(&ts[i].nodes_pub, memory_order_relaxed);
    return sum;
}


static int ab_qsearch(AbThread *t, int alpha, int beta, int ply, int qply)
{
    const Game *g = t->g;
    int score;
    /* at qply 0 the main search has entered (and counted) this same node
     * just before: one position, one node */
    if (qply > 0 && ab_node_enter(t, ply, &score))
        return score;
    Key key = g->key(t->pos);
    int stand = ab_eval_key(t, key);
    int stm = g->side_to_move(t->pos);
    t->horizon++;
    if (stand >= beta || qply >= t->c->s->ab_qs_plies || ply >= MAX_PLY - 1)
        return stand;
    if (stand > alpha)
        alpha = stand;
    int best = stand;
    Move *mv = t->moves + (size_t)ply * (size_t)g->max_moves;
    int k = 0;
    if (t->gs->gen_noisy) {
        k = t->gs->gen_noisy(t->pos, mv, ab_note(t, key));
    } else {
        int n = g->gen_moves(t->pos, mv);
        for (int i = 0; i < n; i++)
            if (g->move_is_noisy(t->pos, mv[i]))
                mv[k++] = mv[i];
    }
    for (int i = 0; i < k; i++) {
        Move m = mv[i];
        ab_prefetch_child(t, m, 0, 0, 1); /* the child's stand-pat */
        ab_make(t, m, ply);
        ab_prefetch_child(t, m, 1, 0, 1);
        score = g->side_to_move(t->pos) == stm ? ab_qsearch(t, alpha, beta, ply + 1, qply + 1)
                                               : -ab_qsearch(t, -beta, -alpha, ply + 1, qply + 1);
        ab_unmake(t, m, ply);
        if (t->aborted)
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                pv_update(t, ply, m);
                if (alpha >= beta)
                    break;
            }
        }
    }
    return best;
}

static int ab_search(AbThread *t, int alpha, int beta, int depth, int ply, int pv_node);

/* A root move this search leaves out: not among go searchmoves, or the
 * first move of a line MultiPV found already this iteration. */
static int ab_root_skip(const AbThread *t, Move m)
{
    if (!search_root_allowed(t->c, m))
        return 1;
    for (int i = 0; i < t->nexcl; i++)
        if (t->excl[i] == m)
            return 1;
    return 0;
}

/* The child's value for the side stm that moved into it: negamax negates,
 * but a side may move twice running (Morelli's placement phase). */
static inline int ab_child(AbThread *t, int stm, int alpha, int beta, int depth, int ply,
                           int pv_node)
{
    if (t->g->side_to_move(t->pos) == stm)
        return ab_search(t, alpha, beta, depth, ply, pv_node);
    return -ab_search(t, -beta, -alpha, depth, ply, pv_node);
}

/* Late move reductions: about ln(depth) * ln(move number) / LMR_DIV plies,
 * at least one. */
#define LMR_DIV 2.0
static unsigned char lmr_table[64][64];
static pthread_once_t lmr_once = PTHREAD_ONCE_INIT;
static void lmr_init(void)
{
    for (int d = 1; d < 64; d++)
        for (int i = 1; i < 64; i++) {
            double r = log((double)d) * log((double)i) / LMR_DIV + 0.5;
            lmr_table[d][i] = (unsigned char)(r < 1 ? 1 : r > 20 ? 20 : r);
        }
}
static inline int lmr_reduction(int depth, int i)
{
    return lmr_table[depth < 63 ? depth : 63][i < 63 ? i : 63];
}

/* Enhanced transposition cutoff, for a game whose profile asks for it
 * (Morris), at a node of depth etc_depth or more off the principal variation that an
 * irreversible move led to (Game.reversible_plies 0: in Morris the
 * placement, where every move is one): each child reached by an
 * irreversible move (no repetition or move-rule draw can depend on the
 * path to it) is looked up in the table, and one whose entry already puts
 * this node at or above beta (an upper bound or exact value for the child,
 * of depth - 1 or more, or a proven one) ends the node without a search.  Placements transpose all the time, so the entry
 * of a position reached in another order often answers.  Returns 1 and the
 * value in *score, which is also stored. */
static int ab_etc(AbThread *t, Key key, int beta, int depth, int ply, int *score)
{
    const Game *g = t->g;
    const TT *tt = &t->c->s->tt;
    Move *mv = t->moves + (size_t)ply * (size_t)g->max_moves;
    void *u = t->undo + (size_t)ply * g->undo_size;
    int n = g->gen_moves(t->pos, mv), stm = g->side_to_move(t->pos), k = 0;
    /* the children worth a look (the first 64: a placement has at most 24
     * moves, or more only with a mill's removals) and their keys, each
     * bucket fetched from memory while the next child is made; then the
     * lookups */
    Key ck[64];
    Move cm[64];
    for (int i = 0; i < n && k < 64; i++) {
        g->make(t->pos, mv[i], u);
        /* (a child that ends the game has no entry: the searches return
         * there before the table) */
        if (g->side_to_move(t->pos) != stm && g->reversible_plies(t->pos) == 0) {
            ck[k] = g->key(t->pos);
            cm[k++] = mv[i];
            __builtin_prefetch(&tt->buckets[tt_index(ck[k - 1], tt->nbuckets)]);
        }
        g->unmake(t->pos, mv[i], u);
    }
    for (int i = 0; i < k; i++) {
        TTHit h;
        if (tt_probe(tt, ck[i], ply + 1, &h) && (h.bound == TT_UPPER || h.bound == TT_EXACT) &&
            -h.score >= beta &&
            (h.proven || (h.depth >= depth - 1 && -h.score < SCORE_MATE_BOUND))) {
            if (!h.proven)
                t->horizon++;
            *score = -h.score;
            tt_store(&t->c->s->tt, key, ply, cm[i], *score, depth, TT_LOWER, h.proven);
            return 1;
        }
    }
    return 0;
}

static int ab_search(AbThread *t, int alpha, int beta, int depth, int ply, int pv_node)
{
    const Game *g = t->g;
    const GameSearch *gs = t->gs;
    const SearchProfile *sp = &gs->profile;
    SearchCtx *c = t->c;

    /* Step 1. Stop, game over, path draw, horizon. */
    int score;
    if (ab_node_enter(t, ply, &score))
        return score;
    if (ply >= MAX_PLY - 1) {
        t->horizon++;
        return ab_eval(t);
    }
    /* A node the game marks (GameSearch.forced: a reply forced by a single
     * threat, or a position its evaluation judges poorly) does not count
     * as a ply, on paths up to twice the iteration's depth. */
    if (depth >= 1 && gs->forced && ply < 2 * t->iter_depth && gs->forced(t->pos))
        depth++;
    if (depth <= 0)
        return ab_qsearch(t, alpha, beta, ply, 0);

    /* Step 2. Mate distance: nothing here beats a game end next ply. */
    if (ab_mate_distance(ply, &alpha, &beta))
        return alpha;

    /* Step 4's evaluation, taken first: the table bucket, prefetched when
     * the parent made the move, mostly comes from memory meanwhile (the
     * value is the same; a cut by the table leaves it unused) */
    Key key = g->key(t->pos);
    int prunable = gs->prune && !pv_node && ply > 0 && depth <= PRUNE_DEPTH && !c->exact &&
                   alpha > -SCORE_MATE_BOUND && beta < SCORE_MATE_BOUND;
    int v = prunable ? ab_eval_key(t, key) : 0;

    /* Step 3. Transposition table. */
    TTHit h;
    Move tt_move = MOVE_NONE;
    if (tt_probe(&c->s->tt, key, ply, &h)) {
        tt_move = h.move;
        int usable = h.proven ? ply > 0 : (!pv_node && h.depth >= depth && !c->exact);
        if (usable && (h.bound == TT_EXACT || (h.bound == TT_LOWER && h.score >= beta) ||
                       (h.bound == TT_UPPER && h.score <= alpha))) {
            if (!h.proven && h.score > -SCORE_MATE_BOUND && h.score < SCORE_MATE_BOUND)
                t->horizon++;
            return h.score;
        }
    }

    /* Internal iterative reduction, where the game's profile asks for it
     * (Morris): a node the table has no move for is searched a ply
     * shallower from depth iir_depth on; its ordering is a guess, and the
     * next iteration finds the move this one stores. */
    if (sp->iir_depth > 0 && depth >= sp->iir_depth && tt_move == MOVE_NONE && !c->exact)
        depth--;

    /* Step 4. The game's pruning in the last plies (GameSearch.prune): a cut on
     * the evaluation, or only the noisy moves and the first. */
    int futile = 0;
    if (prunable) {
        int pr = gs->prune(t->pos, depth, v, alpha, beta);
        if (pr == PRUNE_CUT) {
            t->horizon++;
            return v;
        }
        futile = pr == PRUNE_QUIET;
    }

    /* Step 4b. Enhanced transposition cutoff (ab_etc above). */
    if (sp->etc_depth > 0 && g->reversible_plies && !pv_node && ply > 0 && !c->exact &&
        depth >= sp->etc_depth && g->reversible_plies(t->pos) == 0 &&
        ab_etc(t, key, beta, depth, ply, &score))
        return score;

    /* Step 5. Moves, ordered (by stages where the game allows). */
    Picker pk;
    picker_init(t, &pk, ply, key, tt_move);
    int stm = pk.stm;
    /* the whole rest of the game fits in the depth: no reduction may hide
     * a win there */
    int lmr = c->s->ab_lmr && !c->exact &&
              !(depth >= 3 && gs->plies_left && gs->plies_left(t->pos) <= depth);

    /* Step 6. Principal variation search with late move reductions (from
     * the profile's lmr_late-th move: the third in Morris, else the fourth). */
    uint64_t horizon0 = t->horizon;
    int orig_alpha = alpha, best = -INF;
    Move best_move = MOVE_NONE;
    Move tried[64]; /* the quiet moves searched (history malus) */
    int ntried = 0, quiet, i = 0;
    int late = sp->lmr_late, later = sp->lmr_later;
    int lmp = sp->lmp && lmr && !pv_node && ply > 0 && depth <= 3 && alpha > -SCORE_MATE_BOUND &&
                      beta < SCORE_MATE_BOUND
                  ? 6 + 4 * depth * depth
                  : 0;
    for (Move m; (m = picker_next(t, &pk, &quiet)) != MOVE_NONE; i++) {
        if (ply == 0 && t->root_filter && ab_root_skip(t, m)) {
            i--; /* not searched: the next move takes its place */
            continue;
        }
        /* A quiet move skipped: every one at a "noisy moves only" node,
         * and by late move pruning those far down the order. */
        if (quiet && best > -SCORE_MATE_BOUND && (futile || (lmp && i >= lmp))) {
            t->horizon++; /* pruned: the value is not exact */
            /* past the noisy moves every move left is quiet: none would
             * be searched, so the quiet moves are never generated */
            if (picker_quiet_only(&pk))
                break;
            continue;
        }
        /* the child probes the table above the horizon, and evaluates in
         * the last plies and in the quiescence search */
        int pf_tt = depth > 1, pf_eval = depth <= PRUNE_DEPTH + 1;
        ab_prefetch_child(t, m, 0, pf_tt, pf_eval);
        ab_make(t, m, ply);
        ab_prefetch_child(t, m, 1, pf_tt, pf_eval);
        if (i == 0) {
            score = ab_child(t, stm, alpha, beta, depth - 1, ply + 1, pv_node);
        } else {
            int r = 0;
            if (depth >= 3 && i >= late && quiet && lmr) {
                r = sp->lmr_style == LMR_STEPS ? 1 + (i >= later) + (depth >= 8 && i >= 24)
                                               : lmr_reduction(depth, i);
                if (pv_node && r > 0)
                    r--;
                if (r > depth - 2)
                    r = depth - 2;
            }
            score = ab_child(t, stm, alpha, alpha + 1, depth - 1 - r, ply + 1, 0);
            if (score > alpha && r > 0 && !t->aborted)
                score = ab_child(t, stm, alpha, alpha + 1, depth - 1, ply + 1, 0);
            if (score > alpha && score < beta && pv_node && !t->aborted)
                score = ab_child(t, stm, alpha, beta, depth - 1, ply + 1, 1);
        }
        ab_unmake(t, m, ply);
        if (t->aborted)
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                alpha = score;
                pv_update(t, ply, m);
                if (ply == 0) {
                    t->root_best = m;
                    t->root_score = score;
                }
                if (alpha >= beta) {
                    if (quiet) {
                        if (t->killers[ply][0] != m) {
                            t->killers[ply][1] = t->killers[ply][0];
                            t->killers[ply][0] = m;
                        }
                        int *hs = &t->hist[stm][hist_slot(m)];
                        *hs += depth * depth;
                        if (*hs > HIST_MAX)
                            *hs = HIST_MAX;
                        /* The quiet moves tried before it did not cut. */
                        for (int j = 0; j < ntried; j++) {
                            int *hq = &t->hist[stm][hist_slot(tried[j])];
                            *hq -= depth;
                            if (*hq < -HIST_MAX)
                                *hq = -HIST_MAX;
                        }
                    }
                    break;
                }
            }
        }
        if (quiet && ntried < 64)
            tried[ntried++] = m;
    }
    if (best == -INF) { /* the game says it goes on but offers nothing */
        t->horizon++;
        return search_eval(g, t->pos);
    }

    /* Step 7. Store (not a root with moves left out: not its value). */
    if (ply == 0 && t->root_filter)
        return best;
    int bound = best >= beta ? TT_LOWER : best > orig_alpha ? TT_EXACT : TT_UPPER;
    tt_store(&c->s->tt, key, ply, best_move, best, depth, bound, t->horizon == horizon0);
    return best;
}

static void emit_iteration(AbThread *ts, int nthreads, int final)
{
    AbThread *t = &ts[0];
    SearchCtx *c = t->c;
    if (!c->emit)
        return;
    uint64_t nodes = total_nodes(ts, nthreads);
    /* The last iteration's line already says it all when no node was
     * searched since (the search ended after it): no second copy. */
    int repeat = final && nodes == t->reported;
    t->reported = nodes;
    if (t->lines && t->done_depth > 0) {
        ab_lines_emit(t, nodes, final, repeat);
        return;
    }
    search_info(c, &(SearchProgress){.depth = t->done_depth,
                                     .seldepth = t->done_seldepth,
                                     .score = t->done_score,
                                     .nodes = nodes,
                                     .hashfull = tt_hashfull(&c->s->tt),
                                     .pv = t->done_pv,
                                     .npv = t->done_pv_len,
                                     .solved = final && t->proven,
                                     .no_line = repeat});
}

void ab_tell(AbThread *t)
{
    SearchCtx *c = t->c;
    if (!c->emit || t->root_best == MOVE_NONE || t->nexcl > 0 ||
        timeman_elapsed(&c->tm) < AB_TELL_MS)
        return;
    t->told = t->root_best;
    search_info(c, &(SearchProgress){.depth = 1,
                                     .seldepth = t->seldepth,
                                     .score = t->root_score,
                                     .bound = 1,
                                     .nodes = t->nodes,
                                     .hashfull = tt_hashfull(&c->s->tt),
                                     .pv = &t->told,
                                     .npv = 1,
                                     .multipv = c->multipv > 1});
}

int ab_root(AbThread *t, int depth, int d, int prev, uint64_t *h0)
{
    int delta = ASPIRATION, alpha = -INF, beta = INF;
    if (depth >= 4 && prev > -SCORE_MATE_BOUND && prev < SCORE_MATE_BOUND) {
        alpha = prev - delta;
        beta = prev + delta;
    }
    int score;
    for (;;) {
        *h0 = t->horizon;
        t->iter_depth = d;
        score = ab_search(t, alpha, beta, d, 0, 1);
        if (t->aborted)
            break;
        if (score <= alpha) {
            beta = (alpha + beta) / 2;
            alpha = score - delta > -INF ? score - delta : -INF;
        } else if (score >= beta) {
            beta = score + delta < INF ? score + delta : INF;
        } else {
            break;
        }
        delta *= 2;
        if (delta > 2000) {
            alpha = -INF;
            beta = INF;
        }
    }
    return score;
}

/* Iterative deepening of one thread; only thread 0 reports and decides. */
static void ab_iterate(AbThread *t, int nthreads, AbThread *all)
{
    SearchCtx *c = t->c;
    int max_depth = c->limits->depth > 0 ? c->limits->depth : MAX_PLY - 2;
    /* go mate N: full width to 2N - 1 plies, where a forced win in N
     * moves would be seen */
    if (c->exact && max_depth > 2 * c->limits->mate - 1)
        max_depth = 2 * c->limits->mate - 1;
    if (max_depth > MAX_PLY - 2)
        max_depth = MAX_PLY - 2;
    t->root_filter = c->root_only != NULL || t->lines;
    /* A small ending is solved exactly (ab_solve.c), in slices after the
     * iterations from the first on: a move and a pv come at once.  Not
     * with moves left out or several lines: the solver answers for all. */
    SolveSched ss;
    ab_solve_plan(t, &ss);
    if (t->root_filter)
        ss.on = 0;
    int prev = 0;
    for (int depth = 1; depth <= max_depth; depth++) {
        int d = depth;
        /* A helper leaves an iteration that half the threads (at least
         * one) are on already to them and goes on to the next one. */
        if (t->id > 0 && d < max_depth &&
            atomic_load_explicit(&t->searching[d], memory_order_relaxed) >= (t->nthreads + 1) / 2)
            continue;
        atomic_fetch_add_explicit(&t->searching[d], 1, memory_order_relaxed);
        t->root_best = MOVE_NONE;
        t->seldepth = 0;
        uint64_t h0, hiter = t->horizon;
        int score = ab_root(t, depth, d, prev, &h0);
        atomic_fetch_sub_explicit(&t->searching[d], 1, memory_order_relaxed);
        if (t->aborted) {
            /* A move that raised alpha in the cut iteration stands (one
             * line only: the others would not be of this iteration). */
            if (t->id == 0 && !t->lines && t->root_best != MOVE_NONE && t->pv_len[0] > 0 &&
                t->pv[0][0] == t->root_best) {
                t->done_score = t->root_score;
                t->done_pv_len = t->pv_len[0];
                memcpy(t->done_pv, t->pv[0], (size_t)t->pv_len[0] * sizeof(Move));
            }
            break;
        }
        if (t->lines) {
            if (ab_lines(t, depth, d, score) != 0)
                break;
            h0 = hiter;
            score = t->done_score;
        } else {
            t->done_score = score;
            t->done_seldepth = t->seldepth;
            t->done_pv_len = t->pv_len[0];
            memcpy(t->done_pv, t->pv[0], (size_t)t->pv_len[0] * sizeof(Move));
        }
        prev = score;
        t->done_depth = d;
        t->proven = t->horizon == h0;
        if (t->id != 0) {
            ab_publish(t);
            /* a helper that completed the depth asked for ends the search
             * (not the main thread's MultiPV lines) */
            if (c->limits->depth > 0 && d >= max_depth && c->multipv <= 1)
                atomic_store(&c->s->halt, 1);
            continue;
        }
        emit_iteration(all, nthreads, 0);
        timeman_iteration(&c->tm, t->done_pv_len > 0 ? t->done_pv[0] : MOVE_NONE, score);
        int mate_plies = SCORE_MATE - (score < 0 ? -score : score);
        if (t->proven ||
            (t->lines ? ab_lines_mated(t, d)
                      : mate_plies <= SCORE_MATE - SCORE_MATE_BOUND && mate_plies <= d))
            break;
        if (ab_solve_slice(t, &ss)) {
            emit_iteration(all, nthreads, 0);
            break;
        }
        if (t->aborted || timeman_stop_iterating(&c->tm, 3, 5))
            break;
        if (c->limits->nodes && total_nodes(all, nthreads) >= c->limits->nodes)
            break;
    }
    if (t->id == 0)
        ab_solve_end(t, &ss);
}

static void *ab_helper(void *arg)
{
    AbThread *t = arg;
    ab_iterate(t, 0, NULL);
    atomic_store(&t->nodes_pub, t->nodes);
    return NULL;
}

Move ab_go(SearchCtx *c, SearchResult *res)
{
    pthread_once(&lmr_once, lmr_init);
    Search *s = c->s;
    const Game *g = c->g;
    if (!s->tt.buckets && tt_resize(&s->tt, s->hash_mb) != 0 && tt_resize(&s->tt, 1) != 0)
        return MOVE_NONE;
    tt_new_search(&s->tt);
    int nthreads = s->threads > 0 ? s->threads : 1;
    AbThread *ts = ab_pool_threads(s, nthreads);
    if (!ts)
        return MOVE_NONE;
    for (int d = 0; d < MAX_PLY; d++)
        atomic_init(&s->ab_pool->searching[d], 0);
    /* The helpers read a copy of the context: they may outlive this call. */
    SearchCtx *hc = nthreads > 1 ? search_share(c) : NULL;
    AbPool *p = s->ab_pool;
    int started = 0, ok = ab_setup(&ts[0], c, 0) == 0;
    for (int i = 0; ok && i < nthreads; i++) {
        if (i > 0 && (!hc || ab_setup(&ts[i], c, i) != 0))
            break;
        ts[i].nthreads = nthreads;
        ts[i].searching = p->searching;
        if (i > 0) {
            ts[i].c = hc;
            ts[i].pub = p->pub[i];
            p->pub[i]->d.pv_len = 0;
            if (search_thread_create(&ts[i].th, ab_helper, &ts[i]) != 0)
                break;
        }
        started = p->running = i;
    }
    if (ok)
        search_threads_short(s, started + 1, nthreads);
    ts[0].reported = UINT64_MAX;
    struct AbLines ml = {.k = c->multipv};
    if (ok && c->multipv > 1) {
        ml.cur = calloc((size_t)ml.k, sizeof *ml.cur);
        ml.done = calloc((size_t)ml.k, sizeof *ml.done);
        ml.excl = calloc((size_t)ml.k, sizeof *ml.excl);
        ts[0].lines = ml.cur && ml.done && ml.excl ? &ml : NULL;
    }
    if (ok)
        ab_iterate(&ts[0], started + 1, ts);
    /* The helpers stop at their next look at halt, and are joined later
     * (search_wait): the answer waits for none of them.  (An exchange: a
     * helper that ended a go depth published its iteration before it set
     * halt, and the vote sees it.) */
    atomic_exchange(&s->halt, 1);
    ts[0].nodes_pub = ts[0].nodes;

    /* The threads vote for the first moves of their last completed
     * iterations (the helpers': those published so far), each with the
     * weight (score - the lowest score + 14) * depth; of the threads on the
     * winning move the deepest (of equal depths the better score) speaks
     * for the search, unless the main thread's value is already proven. */
    int sc0 = ts[0].done_score;
    int main_proven = ts[0].proven || sc0 >= SCORE_MATE_BOUND || sc0 <= -SCORE_MATE_BOUND ||
                      ts[0].lines; /* MultiPV: the main thread's lines */
    int pick = ab_vote(p, started + 1);
    if (!main_proven && pick > 0) {
        const AbDone *h = &p->vote[pick];
        ts[0].done_depth = h->depth;
        ts[0].done_score = h->score;
        ts[0].done_seldepth = h->seldepth;
        ts[0].done_pv_len = h->pv_len;
        memcpy(ts[0].done_pv, h->pv, (size_t)h->pv_len * sizeof(Move));
        ts[0].proven = h->proven;
    }
    Move best = ts[0].done_pv_len > 0 ? ts[0].done_pv[0] : MOVE_NONE;
    /* Stopped by the caller before the first iteration ended: the move
     * best by the evaluation, not merely the first legal one. */
    if (best == MOVE_NONE || !search_move_legal(g, c->root, best))
        best = search_guess(g, c->root);
    emit_iteration(ts, started + 1, 1);
    if (ts[0].lines && ts[0].done_depth > 0 && c->skill < SKILL_MAX)
        best = ab_lines_skill(&ts[0], best);
    ts[0].lines = NULL;
    free(ml.cur);
    free(ml.done);
    free(ml.excl);
    if (res) {
        res->best = best;
        res->score = ts[0].done_score;
        res->depth = ts[0].done_depth;
        res->nodes = total_nodes(ts, started + 1);
        res->time_ms = timeman_elapsed(&c->tm);
        int sc = ts[0].done_score;
        res->proven = ts[0].done_depth > 0 &&
                      (ts[0].proven || sc >= SCORE_MATE_BOUND || sc <= -SCORE_MATE_BOUND);
    }
    return best;
}

int ab_solve_go(SearchCtx *c, int64_t ms, uint64_t nodes, SolveReport *out)
{
    Search *s = c->s;
    if (!s->tt.buckets && tt_resize(&s->tt, s->hash_mb) != 0 && tt_resize(&s->tt, 1) != 0)
        return -1;
    tt_new_search(&s->tt);
    AbThread *ts = ab_pool_threads(s, 1);
    if (!ts || ab_setup(&ts[0], c, 0) != 0)
        return -1;
    return ab_solve_moves(&ts[0], ms, nodes, out);
}
