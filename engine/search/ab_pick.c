/*
 * ab_pick.c -- the alpha-beta move picker: staged generation (TT move,
 * noisy moves, killers, quiet moves from a heap) for games that offer
 * gen_noisy, gen_quiet and move_legal, one selected list for the others.
 * See ab_internal.h.
 */
#include "ab_internal.h"

/* Pick the best-ordered remaining move into slot i. */
static inline void pick(Move *mv, int *ord, int i, int n)
{
    int b = i;
    for (int j = i + 1; j < n; j++)
        if (ord[j] > ord[b])
            b = j;
    if (b != i) {
        Move tm = mv[i];
        mv[i] = mv[b];
        mv[b] = tm;
        int to = ord[i];
        ord[i] = ord[b];
        ord[b] = to;
    }
}

/* Max-heap of n moves by ord: restores the order below slot i. */
static void heap_down(Move *mv, int *ord, int i, int n)
{
    Move m = mv[i];
    int o = ord[i];
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && ord[c + 1] > ord[c])
            c++;
        if (ord[c] <= o)
            break;
        mv[i] = mv[c];
        ord[i] = ord[c];
        i = c;
    }
    mv[i] = m;
    ord[i] = o;
}

/* Max-heap of n keys: restores the order below slot i.  h[n] is 0, below
 * every key (see heap_pop_keys), so a last child without a sibling is
 * chosen without a bound check. */
static void heap_down_keys(uint64_t *h, int i, int n)
{
    uint64_t x = h[i];
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n)
            break;
        c += h[c + 1] > h[c];
        if (h[c] <= x)
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
}

/* Takes the largest of n keys out of the heap h (n >= 1): the hole at the
 * top goes down along the larger children to a leaf, and the last key
 * moves up from there (one comparison a level on the way down).  h[n - 1]
 * becomes 0, below every key (a key's score half is biased positive), so
 * a last child without a sibling is chosen without a branch. */
static uint64_t heap_pop_keys(uint64_t *h, int n)
{
    uint64_t top = h[0], x = h[--n];
    h[n] = 0;
    int i = 0;
    for (int c; (c = 2 * i + 1) < n; i = c) {
        c += h[c + 1] > h[c];
        h[i] = h[c];
    }
    while (i > 0 && h[(i - 1) / 2] < x) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = x;
    return top;
}

/* A quiet move's order without hints: its history, ties by the
 * generator's order (i, the move's place in the generated list). */
static inline int quiet_order(const int *hist, Move m, int i)
{
    return hist[hist_slot(m)] * 16384 + (16383 - (i < 16383 ? i : 16383));
}

/* Was m tried before the quiet moves (the TT move, a killer)? */
static inline int tried_before(const Picker *pk, Move m)
{
    return m == pk->tt || m == pk->killer[0] || m == pk->killer[1];
}

void picker_init(AbThread *t, Picker *pk, int ply, Key key, Move tt_move)
{
    const Game *g = t->g;
    pk->key = key;
    pk->mv = t->moves + (size_t)ply * (size_t)g->max_moves;
    pk->ord = t->order + (size_t)ply * (size_t)g->max_moves;
    pk->qk = t->qkeys + (size_t)ply * (size_t)g->max_moves;
    pk->stm = g->side_to_move(t->pos);
    pk->tt = tt_move;
    pk->killer[0] = t->killers[ply][0];
    pk->killer[1] = t->killers[ply][1];
    pk->i = pk->n = pk->nq = pk->ki = 0;
    if (t->gs->gen_noisy && t->gs->gen_quiet && t->gs->move_legal) {
        pk->stage = PK_TT;
        return;
    }
    /* one list */
    Move *mv = pk->mv;
    int *ord = pk->ord, stm = pk->stm;
    Move k0 = pk->killer[0], k1 = pk->killer[1];
    pk->n = g->gen_moves(t->pos, mv);
    for (int i = 0; i < pk->n; i++) {
        Move m = mv[i];
        if (m == tt_move)
            ord[i] = ORD_TT;
        else if (g->move_is_noisy(t->pos, m))
            ord[i] = ORD_NOISY + t->hist[stm][hist_slot(m)];
        else if (m == k0 || m == k1)
            ord[i] = ORD_KILLER + (m == k0);
        else
            ord[i] = t->hist[stm][hist_slot(m)];
    }
    pk->stage = PK_ALL;
}

/* Drops the TT move and the killers from mv[0..n) (they are tried on
 * their own), scores the rest by history, ties in the generator's order
 * (the heap does not keep it by itself); the new count. */
static int picker_score(AbThread *t, const Picker *pk, Move *mv, int *ord, int n, int killers)
{
    const int *hist = t->hist[pk->stm];
    const GameSearch *gs = t->gs;
    int hint = gs->move_order != NULL, k = 0;
    if (hint)
        gs->move_order(t->pos, mv, n, ord);
    for (int i = 0; i < n; i++) {
        Move m = mv[i];
        if (killers ? tried_before(pk, m) : m == pk->tt)
            continue;
        mv[k] = m;
        if (hint) /* hint (8 bits), history (16), generator order (4) */
            ord[k] = (ord[i] << 20) + (hist[hist_slot(m)] + HIST_MAX) * 16 +
                     (15 - (i < 15 ? i : 15));
        else
            ord[k] = quiet_order(hist, m, i);
        k++;
    }
    return k;
}

Move picker_next(AbThread *t, Picker *pk, int *quiet)
{
    const Game *g = t->g;
    const GameSearch *gs = t->gs; /* staged: the game has the three */
    for (;;) {
        switch (pk->stage) {
        case PK_TT:
            pk->stage = PK_NOISY_GEN;
            if (pk->tt != MOVE_NONE && gs->move_legal(t->pos, pk->tt)) {
                *quiet = !g->move_is_noisy(t->pos, pk->tt);
                return pk->tt;
            }
            pk->tt = MOVE_NONE;
            break;
        case PK_NOISY_GEN:
            pk->n = picker_score(t, pk, pk->mv, pk->ord,
                                 gs->gen_noisy(t->pos, pk->mv, ab_note(t, pk->key)), 0);
            pk->stage = PK_NOISY;
            break;
        case PK_NOISY:
            if (pk->i < pk->n) {
                pick(pk->mv, pk->ord, pk->i, pk->n);
                *quiet = 0;
                return pk->mv[pk->i++];
            }
            pk->stage = PK_KILLER;
            break;
        case PK_KILLER:
            while (pk->ki < 2) {
                Move k = pk->killer[pk->ki++];
                if (k != MOVE_NONE && k != pk->tt && !g->move_is_noisy(t->pos, k) &&
                    gs->move_legal(t->pos, k)) {
                    *quiet = 1;
                    return k;
                }
            }
            pk->stage = PK_QUIET_GEN;
            break;
        case PK_QUIET_GEN: {
            Move *q = pk->mv + pk->n;
            int *qo = pk->ord + pk->n;
            pk->stage = PK_QUIET;
            if (!gs->move_order) {
                /* without hints the scores are distinct (history, then the
                 * generator order in the low bits): one key a move, the
                 * score above the move, made in one pass over the whole
                 * list; the TT move and the killers stay among them and
                 * are passed over when they come out (the order of the
                 * others is the same).  Most nodes take a few quiet moves
                 * (late move pruning): the PK_TOP largest keys are chosen
                 * in one pass into qk[0 .. PK_TOP), sorted, and the rest
                 * become a heap only if those run out. */
                int nq = gs->gen_quiet(t->pos, q);
                const int *hist = t->hist[pk->stm];
                uint64_t *qk = pk->qk;
                for (int i = 0; i < nq; i++) {
                    Move m = q[i];
                    qk[i] = (uint64_t)((uint32_t)quiet_order(hist, m, i) ^ 0x80000000u) << 32 | m;
                }
                qk[nq] = 0; /* room: a ply's lists end max_moves before the buffer's */
                int k = nq < PK_TOP ? nq : PK_TOP;
                /* the run in top[1 .. k], ascending, between a 0 below
                 * every key and a maximum above */
                uint64_t top[PK_TOP + 2];
                top[0] = 0;
                top[k + 1] = UINT64_MAX;
                for (int i = 0; i < k; i++) {
                    uint64_t x = qk[i];
                    int j = i + 1;
                    for (; top[j - 1] > x; j--)
                        top[j] = top[j - 1];
                    top[j] = x;
                }
                /* a larger key evicts the least, kept in a register
                 * (least): read from the run after each store into it,
                 * the test waited on the stores' addresses */
                uint64_t least = top[1];
                for (int i = k; i < nq; i++) {
                    uint64_t x = qk[i];
                    if (x < least)
                        continue;
                    qk[i] = least;
                    int j = 1;
                    for (; top[j + 1] < x; j++)
                        top[j] = top[j + 1];
                    top[j] = x;
                    least = top[1];
                }
                memcpy(qk, top + 1, (size_t)k * sizeof *qk);
                pk->top = k;
                pk->nq = nq - k;
                pk->stage = PK_QUIET_TOP;
                break;
            }
            pk->nq = picker_score(t, pk, q, qo, gs->gen_quiet(t->pos, q), 1);
            for (int i = pk->nq / 2 - 1; i >= 0; i--)
                heap_down(q, qo, i, pk->nq);
            break;
        }
        case PK_QUIET_TOP:
            while (pk->top > 0) {
                Move m = (Move)pk->qk[--pk->top];
                if (tried_before(pk, m))
                    continue;
                *quiet = 1;
                return m;
            }
            /* the rest, all below them: a heap (its 0 past the end is
             * the list's) */
            pk->qk += PK_TOP;
            for (int i = pk->nq / 2 - 1; i >= 0; i--)
                heap_down_keys(pk->qk, i, pk->nq);
            pk->stage = PK_QUIET_KEYS;
            break;
        case PK_QUIET_KEYS:
            while (pk->nq > 0) {
                Move m = (Move)heap_pop_keys(pk->qk, pk->nq--);
                if (tried_before(pk, m))
                    continue;
                *quiet = 1;
                return m;
            }
            pk->stage = PK_DONE;
            break;
        case PK_QUIET:
            if (pk->nq > 0) {
                Move *q = pk->mv + pk->n;
                int *qo = pk->ord + pk->n;
                Move m = q[0];
                int last = --pk->nq;
                q[0] = q[last];
                qo[0] = qo[last];
                heap_down(q, qo, 0, last);
                *quiet = 1;
                return m;
            }
            pk->stage = PK_DONE;
            break;
        case PK_ALL:
            if (pk->i < pk->n) {
                pick(pk->mv, pk->ord, pk->i, pk->n);
                *quiet = pk->ord[pk->i] < ORD_NOISY;
                return pk->mv[pk->i++];
            }
            pk->stage = PK_DONE;
            break;
        default: return MOVE_NONE;
        }
    }
}
