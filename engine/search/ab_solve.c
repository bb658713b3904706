/*
 * ab_solve.c -- exact endings for the alpha-beta searcher.
 *
 * A game that bounds the plies it can still last (plies_left; Morelli: the
 * band steps left) is searched to its end, in slices between the iterations
 * of iterative deepening, when the bound is at most SOLVE_PLIES: negamax
 * over game results only (win
 * SCORE_MATE - ply, loss its negation, draw 0), no depth, no evaluation, no
 * reduction or pruning but alpha-beta itself and mate distance, every node
 * stored in the TT as proven.  The root is probed first with null windows
 * (a win? else at least a draw?), so a winning or drawing move is known
 * early; then, for a win or a loss, a full window gives the exact distance:
 * the fastest win, or the longest resistance.  The solver has its own
 * share (half the soft time or of a node limit when the bound is at most
 * SOLVE_SURE, a quarter beyond, a SOLVE_BACKOFF-th under a clock while the
 * bound is within SOLVE_GAP of a full share that failed in the game's
 * previous moves; SOLVE_NODES under a depth limit, which it
 * takes only when the whole game fits in that depth).  It comes in slices:
 * a sixteenth after the first iteration, then after each iteration as much
 * as that iteration took, so the heuristic search keeps half of the time
 * and has a move from the start; each slice starts again from the root and
 * walks down the proven entries the earlier ones stored.  Once the sign of
 * the root is known the slice takes the rest of the share for the distance.
 * Past the share the normal search goes on alone, reusing every proven
 * entry.
 *
 * ab_solve_moves() (search_solve(), the protocol's `solve`) uses the same
 * negamax on every root move: the sign of each first, then the distances,
 * within the command's own budget, keeping what it proved when it ends.
 */
#include "ab_internal.h"

#define SOLVE_PLIES 40 /* the largest bound tried */
#define SOLVE_SURE 24  /* up to here half the budget, beyond a quarter */
/* Under a clock, a full share that failed at a bound L is not tried again
 * before the bound is SOLVE_GAP below L: in between the solver gets a
 * SOLVE_BACKOFF-th of the budget, enough to add the proven entries of
 * another slice or two. */
#define SOLVE_GAP 8
#define SOLVE_BACKOFF 16
#define SOLVE_NODES 20000000ull
#define SOLVE_TT_DEPTH 250
/* Under a clock or a node limit the solver's share comes in slices between
 * the iterations: the first, after the first iteration, a SOLVE_FIRST-th
 * of it, then each as long as the iterations since the last one.  Without
 * any limit (go infinite) the first is SOLVE_FIRST_NODES nodes. */
#define SOLVE_FIRST 16
#define SOLVE_FIRST_NODES 100000
#define SOLVE_MIN_NODES 1000
/* Why the solver gave up (AbThread.solve_gave_up): its budget, or a line
 * it cannot follow (longer than MAX_PLY, or a position without a move that
 * the game does not call over). */
#define SOLVE_GAVE_BUDGET 1
#define SOLVE_GAVE_DEEP 2

/* The node is over the solver's budget: give up (the search goes on). */
static int solve_over(AbThread *t)
{
    if (t->nodes >= t->solve_nodes_max)
        t->solve_gave_up = SOLVE_GAVE_BUDGET;
    else if ((t->nodes & 1023) == 0 && t->solve_ms_max >= 0 &&
             timeman_elapsed(&t->c->tm) >= t->solve_ms_max)
        t->solve_gave_up = SOLVE_GAVE_BUDGET;
    return t->solve_gave_up;
}

static int solve_rec(AbThread *t, int alpha, int beta, int ply);

static inline int solve_child(AbThread *t, int stm, int alpha, int beta, int ply)
{
    if (t->g->side_to_move(t->pos) == stm)
        return solve_rec(t, alpha, beta, ply);
    return -solve_rec(t, -beta, -alpha, ply);
}

static int solve_rec(AbThread *t, int alpha, int beta, int ply)
{
    const Game *g = t->g;
    int score;
    if (ab_node_enter(t, ply, &score))
        return score;
    if (solve_over(t))
        return 0;
    if (ply >= MAX_PLY - 1) { /* a line longer than the solver follows */
        t->solve_gave_up = SOLVE_GAVE_DEEP;
        return 0;
    }
    if (ab_mate_distance(ply, &alpha, &beta))
        return alpha;
    Key key = g->key(t->pos);
    TTHit h;
    Move tt_move = MOVE_NONE;
    if (tt_probe(&t->c->s->tt, key, ply, &h)) {
        tt_move = h.move;
        if (h.proven && ply > 0 &&
            (h.bound == TT_EXACT || (h.bound == TT_LOWER && h.score >= beta) ||
             (h.bound == TT_UPPER && h.score <= alpha)))
            return h.score;
    }
    Picker pk;
    picker_init(t, &pk, ply, key, tt_move);
    int orig_alpha = alpha, best = -INF, quiet, i = 0;
    Move best_move = MOVE_NONE;
    for (Move m; (m = picker_next(t, &pk, &quiet)) != MOVE_NONE; i++) {
        ab_make(t, m, ply);
        if (i == 0) {
            score = solve_child(t, pk.stm, alpha, beta, ply + 1);
        } else {
            score = solve_child(t, pk.stm, alpha, alpha + 1, ply + 1);
            if (score > alpha && score < beta && !t->aborted && !t->solve_gave_up)
                score = solve_child(t, pk.stm, alpha, beta, ply + 1);
        }
        ab_unmake(t, m, ply);
        if (t->aborted || t->solve_gave_up)
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                alpha = score;
                pv_update(t, ply, m);
                if (alpha >= beta) {
                    if (quiet && t->killers[ply][0] != m) {
                        t->killers[ply][1] = t->killers[ply][0];
                        t->killers[ply][0] = m;
                    }
                    break;
                }
            }
        }
    }
    if (best == -INF) { /* the game goes on without a move: not ours to judge */
        t->solve_gave_up = SOLVE_GAVE_DEEP;
        return 0;
    }
    int bound = best >= beta ? TT_LOWER : best > orig_alpha ? TT_EXACT : TT_UPPER;
    tt_store(&t->c->s->tt, key, ply, best_move, best, SOLVE_TT_DEPTH, bound, 1);
    return best;
}

/* The root searched with (alpha, beta): 1 and *score, *move (the root move
 * that raised alpha, MOVE_NONE if none did) unless the solver gave up. */
static int solve_probe(AbThread *t, int alpha, int beta, int *score, Move *move)
{
    t->pv_len[0] = 0;
    int v = solve_rec(t, alpha, beta, 0);
    if (t->aborted || t->solve_gave_up)
        return 0;
    *score = v;
    *move = t->pv_len[0] > 0 ? t->pv[0][0] : MOVE_NONE;
    return 1;
}

static void solve_done(AbThread *t, int score, int exact)
{
    t->done_score = score;
    t->done_depth = t->gs->plies_left(t->c->root);
    t->done_seldepth = t->seldepth;
    t->done_pv_len = t->pv_len[0];
    memcpy(t->done_pv, t->pv[0], (size_t)t->pv_len[0] * sizeof(Move));
    t->proven = exact;
}

void ab_solve_plan(AbThread *t, SolveSched *ss)
{
    const Game *g = t->g;
    SearchCtx *c = t->c;
    const SearchLimits *lim = c->limits;
    memset(ss, 0, sizeof *ss);
    int left = t->gs->plies_left ? t->gs->plies_left(t->pos) : SOLVE_PLIES + 1;
    if (t->id != 0 || left > SOLVE_PLIES || g->result(t->pos) != RESULT_NONE)
        return;
    /* a fixed depth asks for no more than that depth: solve only when the
     * whole game fits in it */
    if (lim->depth > 0 && left > lim->depth)
        return;
    int64_t soft = c->tm.soft_ms;
    int share = left <= SOLVE_SURE ? 2 : 4; /* 1/2 or 1/4 of the budget */
    ss->on = 1;
    ss->left = left;
    if (soft >= 0) {
        int failed = c->s->solve_failed;
        if (failed && left >= failed) /* not a later position of that game */
            c->s->solve_failed = failed = 0;
        if (failed && left > failed - SOLVE_GAP) {
            ss->backed_off = 1;
            share = SOLVE_BACKOFF;
        }
        ss->budget = soft / share;
    } else if (lim->nodes) {
        ss->by_nodes = 1;
        ss->budget = (int64_t)(lim->nodes / (uint64_t)share);
    } else if (lim->infinite) {
        ss->by_nodes = 1;
        ss->budget = INT64_MAX / 4; /* no end, but room to add to */
        ss->first = SOLVE_FIRST_NODES;
        return;
    } else { /* a depth alone: all of it at once, as before any iteration */
        ss->by_nodes = 1;
        ss->budget = ss->first = SOLVE_NODES;
        return;
    }
    ss->first = ss->budget / SOLVE_FIRST;
}

/* The solver's clock: nodes or ms. */
static int64_t sched_now(AbThread *t, const SolveSched *ss)
{
    return ss->by_nodes ? (int64_t)t->nodes : timeman_elapsed(&t->c->tm);
}

/* The solver's limits: until the count `until` (ms or nodes). */
static void solve_until(AbThread *t, const SolveSched *ss, int64_t until)
{
    t->solve_ms_max = ss->by_nodes ? -1 : until;
    t->solve_nodes_max = ss->by_nodes ? (uint64_t)until : UINT64_MAX;
}

/* The probes at the root within the thread's solve_*_max, which grow to
 * the whole share left (counted from `now`) once the value's sign is
 * known: the distance then comes in the same slice.  1 when solved. */
static int solve_root_probes(AbThread *t, const SolveSched *ss, int64_t now);

int ab_solve_slice(AbThread *t, SolveSched *ss)
{
    if (!ss->on || t->aborted)
        return 0;
    int64_t now = sched_now(t, ss);
    /* as much as the search had since the last slice */
    int64_t slice = ss->slices == 0 ? ss->first : now - ss->mark;
    if (slice > ss->budget - ss->spent)
        slice = ss->budget - ss->spent;
    if (slice < (ss->by_nodes ? SOLVE_MIN_NODES : 1)) {
        if (ss->spent >= ss->budget)
            ss->on = 0;
        return 0; /* the next one gets more */
    }
    solve_until(t, ss, now + slice);
    int solved = solve_root_probes(t, ss, now);
    int64_t after = sched_now(t, ss);
    ss->spent += after - now;
    ss->mark = after;
    ss->slices++;
    if (solved || t->solve_gave_up == SOLVE_GAVE_DEEP)
        ss->on = 0;
    ss->solved |= solved;
    t->solve_gave_up = 0;
    return solved;
}

void ab_solve_end(AbThread *t, const SolveSched *ss)
{
    Search *s = t->c->s;
    if (ss->solved || t->proven)
        s->solve_failed = 0;
    else if (ss->slices > 0 && !ss->backed_off && !ss->by_nodes)
        s->solve_failed = ss->left;
}

static int solve_root_probes(AbThread *t, const SolveSched *ss, int64_t now)
{
    t->solve_gave_up = 0;
    int v, solved = 0;
    Move m;
    /* a win? */
    if (!solve_probe(t, 0, 1, &v, &m))
        goto out;
    if (v >= 1) {
        solve_done(t, v, 0); /* a winning move, its distance an upper bound */
        solved = 1;
        solve_until(t, ss, now + (ss->budget - ss->spent));
        if (solve_probe(t, 0, INF, &v, &m) && m != MOVE_NONE)
            solve_done(t, v, 1); /* the fastest win */
        goto out;
    }
    /* at least a draw? */
    if (!solve_probe(t, -1, 0, &v, &m))
        goto out;
    if (v >= 0 && m != MOVE_NONE) {
        solve_done(t, 0, 1);
        solved = 1;
        goto out;
    }
    /* lost: the longest resistance */
    solve_until(t, ss, now + (ss->budget - ss->spent));
    if (solve_probe(t, -INF, INF, &v, &m) && m != MOVE_NONE) {
        solve_done(t, v, 1);
        solved = 1;
    }
out:
    return solved;
}

/* ------------------------------------------------------------------------ */
/* Every root move's value (the solve command)                               */

/* Root move m searched with the root's window (alpha, beta): 1 and *v, or
 * 0 when the solver was stopped or gave up. */
static int move_probe(AbThread *t, Move m, int stm, int alpha, int beta, int *v)
{
    ab_make(t, m, 0);
    int s = solve_child(t, stm, alpha, beta, 1);
    ab_unmake(t, m, 0);
    if (t->aborted || t->solve_gave_up)
        return 0;
    *v = s;
    return 1;
}

/* How good a move's known value is for its player: exact wins by their
 * speed, a win, a draw, unknown, losses by their length. */
static long move_rank(const SolveMove *m)
{
    int n = units_value_plies(m->value); /* exact: plies */
    if (m->state == SOLVE_UNKNOWN)
        return 500000;
    if (m->value > 0)
        return m->state == SOLVE_EXACT ? 3000000 - n : 2000000;
    if (m->value == 0)
        return 1000000;
    return m->state == SOLVE_EXACT ? n : 0;
}

/* The root's value and best move from its moves'. */
static void solve_summary(SolveReport *out)
{
    int unknown = 0, sign_wins = 0, wins = 0, draws = 0, exact_losses = 0, bi = -1;
    for (int i = 0; i < out->n; i++) {
        const SolveMove *m = &out->moves[i];
        if (bi < 0 || move_rank(m) > move_rank(&out->moves[bi]))
            bi = i;
        unknown += m->state == SOLVE_UNKNOWN;
        if (m->state == SOLVE_UNKNOWN)
            continue;
        wins += m->value > 0;
        sign_wins += m->value > 0 && m->state == SOLVE_SIGN;
        draws += m->value == 0;
        exact_losses += m->value < 0 && m->state == SOLVE_EXACT;
    }
    out->best = bi >= 0 ? out->moves[bi].move : MOVE_NONE;
    out->state = SOLVE_UNKNOWN;
    out->value = 0;
    if (wins) { /* a win is the best there is: known without the others */
        out->state = unknown || sign_wins ? SOLVE_SIGN : SOLVE_EXACT;
        out->value = out->state == SOLVE_EXACT ? out->moves[bi].value : 1;
    } else if (!unknown && out->n > 0) {
        out->state = draws || exact_losses == out->n ? SOLVE_EXACT : SOLVE_SIGN;
        out->value = draws ? VALUE_DRAW : out->state == SOLVE_EXACT ? out->moves[bi].value : -1;
    }
}

int ab_solve_moves(AbThread *t, int64_t ms, uint64_t nodes, SolveReport *out)
{
    const Game *g = t->g;
    int stm = g->side_to_move(t->pos);
    out->n = g->gen_moves(t->pos, t->moves);
    for (int i = 0; i < out->n; i++)
        out->moves[i] = (SolveMove){t->moves[i], SOLVE_UNKNOWN, 0};
    t->solve_ms_max = ms > 0 ? ms : -1;
    t->solve_nodes_max = nodes > 0 ? nodes : UINT64_MAX;
    t->solve_gave_up = 0;
    int deep = 0, v;
    /* First the sign of every move (null windows: a win? at least a
     * draw?), then the distance of the wins, then of the losses. */
    for (int pass = 0; pass < 3 && !t->aborted && t->solve_gave_up != SOLVE_GAVE_BUDGET; pass++) {
        for (int i = 0; i < out->n; i++) {
            SolveMove *m = &out->moves[i];
            int ok;
            if (pass == 0) {
                ok = move_probe(t, m->move, stm, 0, 1, &v);
                if (ok && v >= 1) {
                    *m = (SolveMove){m->move, SOLVE_SIGN, 1};
                } else if (ok && (ok = move_probe(t, m->move, stm, -1, 0, &v))) {
                    *m = v >= 0 ? (SolveMove){m->move, SOLVE_EXACT, VALUE_DRAW}
                                : (SolveMove){m->move, SOLVE_SIGN, -1};
                }
            } else {
                if (m->state != SOLVE_SIGN || (m->value > 0) != (pass == 1))
                    continue;
                ok = m->value > 0 ? move_probe(t, m->move, stm, 0, INF, &v)
                                  : move_probe(t, m->move, stm, -INF, 0, &v);
                if (ok)
                    *m = (SolveMove){m->move, SOLVE_EXACT, units_score_value(v)};
            }
            if (t->aborted || t->solve_gave_up == SOLVE_GAVE_BUDGET)
                break;
            if (t->solve_gave_up) { /* too deep under this move: the others may not be */
                deep = 1;
                t->solve_gave_up = 0;
            }
        }
    }
    solve_summary(out);
    int complete = 1;
    for (int i = 0; i < out->n; i++)
        complete &= out->moves[i].state == SOLVE_EXACT;
    out->ended = complete                                         ? SOLVE_END_DONE
                 : t->aborted                                     ? SOLVE_END_STOPPED
                 : t->solve_gave_up == SOLVE_GAVE_BUDGET || !deep ? SOLVE_END_BUDGET
                                                                  : SOLVE_END_DEEP;
    out->nodes = t->nodes;
    out->time_ms = timeman_elapsed(&t->c->tm);
    t->solve_gave_up = 0;
    return 0;
}
