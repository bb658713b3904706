/*
 * ab_lines.c -- MultiPV for the alpha-beta searcher: after an iteration's
 * first line, each further line is a root search without the first moves
 * of the lines found before it (ab_root_skip in ab.c), so line k is the
 * k-th best move and its value; the lines are then sorted best first
 * (stable), and line 1 is the search's best move.
 */
#include <string.h>

#include "ab_internal.h"
#include "skill.h"

/* The other k - 1 lines of the iteration of depth d whose first line
 * t's pv holds: each a root search without the moves of the lines before
 * it (so the k-th best move and its value), then all sorted best first
 * (stable) into done and the thread's done_* fields.  0, or -1 when cut. */
int ab_lines(AbThread *t, int depth, int d, int first)
{
    struct AbLines *ml = t->lines;
    for (int j = 0; j < ml->k; j++) {
        AbLine *l = &ml->cur[j];
        int score = first;
        uint64_t h0;
        if (j > 0) {
            t->excl = ml->excl;
            t->nexcl = j;
            t->root_best = MOVE_NONE;
            t->seldepth = 0;
            score = ab_root(t, depth, d, ml->done[j].score, &h0);
            t->nexcl = 0;
            if (t->aborted)
                return -1;
        }
        l->score = score;
        l->seldepth = t->seldepth;
        l->npv = t->pv_len[0];
        memcpy(l->pv, t->pv[0], (size_t)l->npv * sizeof(Move));
        ml->excl[j] = l->npv > 0 ? l->pv[0] : t->root_best;
    }
    for (int j = 0; j < ml->k; j++) {
        AbLine l = ml->cur[j];
        int i = j;
        for (; i > 0 && ml->done[i - 1].score < l.score; i--)
            ml->done[i] = ml->done[i - 1];
        ml->done[i] = l;
    }
    AbLine *b = &ml->done[0];
    t->done_score = b->score;
    t->done_seldepth = b->seldepth;
    t->done_pv_len = b->npv;
    memcpy(t->done_pv, b->pv, (size_t)b->npv * sizeof(Move));
    return 0;
}

/* Every line of done a mate within d plies (MultiPV: nothing left to find). */
int ab_lines_mated(const AbThread *t, int d)
{
    for (int j = 0; j < t->lines->k; j++) {
        int sc = t->lines->done[j].score;
        int mate_plies = SCORE_MATE - (sc < 0 ? -sc : sc);
        if (mate_plies > SCORE_MATE - SCORE_MATE_BOUND || mate_plies > d)
            return 0;
    }
    return 1;
}


void ab_lines_emit(AbThread *t, uint64_t nodes, int final, int repeat)
{
    SearchCtx *c = t->c;
    const struct AbLines *ml = t->lines;
    for (int j = 0; j < ml->k; j++) {
        const AbLine *l = &ml->done[j];
        search_info(c, &(SearchProgress){.depth = t->done_depth,
                                         .seldepth = l->seldepth,
                                         .score = l->score,
                                         .nodes = nodes,
                                         .hashfull = tt_hashfull(&c->s->tt),
                                         .pv = l->pv,
                                         .npv = l->npv,
                                         .multipv = j + 1,
                                         .no_line = repeat});
    }
    /* the root's value proven: said once, after the lines */
    if (final && t->proven)
        search_info(c, &(SearchProgress){.score = ml->done[0].score, .solved = 1, .no_line = 1});
}

Move ab_lines_skill(AbThread *t, Move best)
{
    SearchCtx *c = t->c;
    const struct AbLines *ml = t->lines;
    int scores[MULTIPV_MAX], n = 0;
    while (n < ml->k && ml->done[n].npv > 0) {
        scores[n] = ml->done[n].score;
        n++;
    }
    if (n == 0)
        return best;
    int i = skill_pick(c->skill, c->s->skill_seed ^ c->g->key(c->root), scores, n);
    Move m = ml->done[i].pv[0];
    return search_move_legal(c->g, c->root, m) ? m : best;
}
