/*
 * ab_threads.c -- the alpha-beta threads' states, kept by the Search in a
 * pool between searches, and Lazy SMP's vote.  A helper publishes each
 * iteration it completes under its own lock; the main thread votes over
 * what is published when it stops, without waiting for the helpers, which
 * are joined later (ab_join, by search_wait: docs/threads.md).
 */
#include <stdlib.h>
#include <string.h>

#include "ab_internal.h"

/* The search block of a game without one: the plain profile, no hooks. */
static const GameSearch search_plain = {.profile = SEARCH_PROFILE_PLAIN};

static void ab_release(AbThread *t)
{
    free(t->stack);
    free(t->undo);
    free(t->moves);
    free(t->order);
    free(t->qkeys);
    free(t->keys);
    free(t->ecache);
    t->stack = t->undo = NULL;
    t->moves = NULL;
    t->order = NULL;
    t->qkeys = NULL;
    t->keys = NULL;
    t->ecache = NULL;
    t->keys_cap = 0;
    t->sized = NULL;
}

/*
 * A thread's state for one search.  Its buffers (a few MB for Morelli,
 * whose move lists are long) outlive the search in the Search's pool, so
 * a move costs no allocation and no fresh page faults; they are sized
 * again only for another game or a longer game history.  Everything else
 * starts from zero, the evaluation cache included, as before.
 */
int ab_setup(AbThread *t, SearchCtx *c, int id)
{
    const Game *g = c->g;
    if (t->sized != g)
        ab_release(t);
    unsigned char *stack = t->stack, *undo = t->undo;
    Move *moves = t->moves;
    int *order = t->order;
    uint64_t *qkeys = t->qkeys;
    Key *keys = t->keys;
    EvalSlot *ecache = t->ecache;
    size_t keys_cap = t->keys_cap;
    memset(t, 0, sizeof *t);
    t->stack = stack;
    t->undo = undo;
    t->moves = moves;
    t->order = order;
    t->qkeys = qkeys;
    t->keys = keys;
    t->ecache = ecache;
    t->keys_cap = keys_cap;
    t->sized = g;
    t->c = c;
    t->g = g;
    t->id = id;
    t->gs = g->search ? g->search : &search_plain;
    size_t nm = (size_t)(MAX_PLY + 1) * (size_t)g->max_moves;
    if (!t->stack)
        t->stack = malloc(g->pos_size);
    t->pos = t->stack;
    if (!t->undo)
        t->undo = malloc((size_t)(MAX_PLY + 1) * (g->undo_size ? g->undo_size : 1));
    if (!t->moves)
        t->moves = malloc(nm * sizeof(Move));
    if (!t->order)
        t->order = malloc(nm * sizeof(int));
    if (!t->qkeys)
        t->qkeys = malloc(nm * sizeof(uint64_t));
    t->nbase = c->nprev;
    size_t nkeys = (size_t)c->nprev + MAX_PLY + 2;
    if (t->keys_cap < nkeys) {
        free(t->keys);
        t->keys = malloc(nkeys * sizeof(Key));
        t->keys_cap = t->keys ? nkeys : 0;
    }
    if (!t->ecache)
        t->ecache = malloc(((size_t)1 << ECACHE_BITS) * sizeof(EvalSlot));
    if (!t->stack || !t->undo || !t->moves || !t->order || !t->qkeys || !t->keys || !t->ecache)
        return -1;
    memset(t->ecache, 0, ((size_t)1 << ECACHE_BITS) * sizeof(EvalSlot));
    memcpy(t->stack, c->root, g->pos_size);
    if (c->nprev)
        memcpy(t->keys, c->prev, (size_t)c->nprev * sizeof(Key));
    return 0;
}

void ab_join(AbPool *p)
{
    for (int i = 1; i <= p->running; i++)
        pthread_join(p->ts[i].th, NULL);
    p->running = 0;
}

void ab_pool_free(AbPool *p)
{
    if (!p)
        return;
    ab_join(p);
    for (int i = 0; i < p->n; i++) {
        ab_release(&p->ts[i]);
        pthread_mutex_destroy(&p->pub[i]->lock);
        free(p->pub[i]);
    }
    free(p->ts);
    free(p->pub);
    free(p->vote);
    free(p);
}

/* At least n thread states (the new ones empty), or NULL. */
AbThread *ab_pool_threads(Search *s, int n)
{
    if (!s->ab_pool && !(s->ab_pool = calloc(1, sizeof *s->ab_pool)))
        return NULL;
    AbPool *p = s->ab_pool;
    while (p->n < n) {
        AbThread *ts = realloc(p->ts, (size_t)(p->n + 1) * sizeof *ts);
        if (ts)
            p->ts = ts;
        struct AbPub **pub = realloc(p->pub, (size_t)(p->n + 1) * sizeof *pub);
        if (pub)
            p->pub = pub;
        AbDone *vote = realloc(p->vote, (size_t)(p->n + 1) * sizeof *vote);
        if (vote)
            p->vote = vote;
        if (!ts || !pub || !vote || !(pub[p->n] = calloc(1, sizeof **pub)))
            return NULL;
        pthread_mutex_init(&pub[p->n]->lock, NULL);
        memset(&ts[p->n], 0, sizeof *ts);
        p->n++;
    }
    return p->ts;
}

/* A thread's last completed iteration, its done_* fields, into d. */
static void ab_done(const AbThread *t, AbDone *d)
{
    d->depth = t->done_depth;
    d->score = t->done_score;
    d->seldepth = t->done_seldepth;
    d->proven = t->proven;
    d->pv_len = t->done_pv_len;
    memcpy(d->pv, t->done_pv, (size_t)t->done_pv_len * sizeof(Move));
}

void ab_publish(AbThread *t)
{
    pthread_mutex_lock(&t->pub->lock);
    ab_done(t, &t->pub->d);
    pthread_mutex_unlock(&t->pub->lock);
}

int ab_vote(AbPool *p, int n)
{
    AbDone *v = p->vote;
    ab_done(&p->ts[0], &v[0]);
    for (int i = 1; i < n; i++) {
        pthread_mutex_lock(&p->pub[i]->lock);
        v[i] = p->pub[i]->d;
        pthread_mutex_unlock(&p->pub[i]->lock);
    }
    int lo = INF;
    for (int i = 0; i < n; i++)
        if (v[i].pv_len > 0 && v[i].score < lo)
            lo = v[i].score;
    int best = 0;
    int64_t best_votes = -1;
    for (int i = 0; i < n; i++) {
        if (v[i].pv_len == 0)
            continue;
        int64_t votes = 0;
        for (int j = 0; j < n; j++)
            if (v[j].pv_len > 0 && v[j].pv[0] == v[i].pv[0])
                votes += (int64_t)(v[j].score - lo + 14) * v[j].depth;
        const AbDone *b = &v[best];
        if (votes > best_votes ||
            (votes == best_votes &&
             (v[i].depth > b->depth || (v[i].depth == b->depth && v[i].score > b->score)))) {
            best = i;
            best_votes = votes;
        }
    }
    return best;
}
