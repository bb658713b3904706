#include "tt.h"

#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "search.h"

#define F_MOVE_SHIFT 0
#define F_SCORE_SHIFT 32
#define F_DEPTH_SHIFT 48
#define F_BOUND_SHIFT 56
#define F_PROVEN_SHIFT 58
#define F_AGE_SHIFT 59

static inline uint64_t tt_pack(Move move, int score, int depth, int bound, int proven, unsigned age)
{
    if (depth < 0)
        depth = 0;
    if (depth > 255)
        depth = 255;
    return ((uint64_t)move << F_MOVE_SHIFT) |
           ((uint64_t)(uint16_t)(int16_t)score << F_SCORE_SHIFT) |
           ((uint64_t)depth << F_DEPTH_SHIFT) | ((uint64_t)(bound & 3) << F_BOUND_SHIFT) |
           ((uint64_t)(proven ? 1 : 0) << F_PROVEN_SHIFT) | ((uint64_t)(age & 31) << F_AGE_SHIFT);
}

static inline Move d_move(uint64_t d)
{
    return (Move)(d & 0xffffffffu);
}
static inline int d_score(uint64_t d)
{
    return (int16_t)(uint16_t)(d >> F_SCORE_SHIFT);
}
static inline int d_depth(uint64_t d)
{
    return (int)((d >> F_DEPTH_SHIFT) & 0xff);
}
static inline int d_bound(uint64_t d)
{
    return (int)((d >> F_BOUND_SHIFT) & 3);
}
static inline int d_proven(uint64_t d)
{
    return (int)((d >> F_PROVEN_SHIFT) & 1);
}
static inline unsigned d_age(uint64_t d)
{
    return (unsigned)(d >> F_AGE_SHIFT) & 31;
}

size_t tt_bytes_for_mb(int64_t mb)
{
    if (mb < 1)
        mb = 1;
    size_t bytes = (size_t)mb << 20;
    return bytes < sizeof(TTBucket) ? sizeof(TTBucket) : bytes;
}

int tt_resize(TT *t, int64_t mb)
{
    size_t n = tt_bytes_for_mb(mb) / sizeof(TTBucket);
    /* calloc hands large blocks over as fresh zero pages, so a big table
     * costs nothing until it is used; the buckets start at the first
     * 64-byte boundary. */
    void *mem = calloc(n + 1, sizeof(TTBucket));
    if (!mem)
        return -1;
    uintptr_t at = ((uintptr_t)mem + 63) & ~(uintptr_t)63;
#ifdef MADV_HUGEPAGE
    /* Transparent huge pages for the table's whole 2 MB pages, where the
     * kernel gives them only on request: a probe then rarely misses the
     * TLB as well as the cache. */
    {
        const uintptr_t huge = (uintptr_t)1 << 21;
        uintptr_t lo = ((uintptr_t)mem + huge - 1) & ~(huge - 1);
        uintptr_t hi = ((uintptr_t)mem + (n + 1) * sizeof(TTBucket)) & ~(huge - 1);
        if (hi > lo)
            madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
    }
#endif
    free(t->mem);
    t->mem = mem;
    t->buckets = (TTBucket *)at;
    t->nbuckets = n;
    t->age = 0;
    return 0;
}

void tt_free(TT *t)
{
    free(t->mem);
    t->mem = NULL;
    t->buckets = NULL;
    t->nbuckets = 0;
}

void tt_clear(TT *t)
{
    if (t->buckets)
        memset(t->buckets, 0, t->nbuckets * sizeof(TTBucket));
    t->age = 0;
}

void tt_new_search(TT *t)
{
    t->age = (t->age + 1) % TT_AGE_MOD;
}

int tt_score_to(int score, int ply)
{
    if (score >= SCORE_MATE_BOUND)
        return score + ply;
    if (score <= -SCORE_MATE_BOUND)
        return score - ply;
    return score;
}

int tt_score_from(int score, int ply)
{
    if (score >= SCORE_MATE_BOUND)
        return score - ply;
    if (score <= -SCORE_MATE_BOUND)
        return score + ply;
    return score;
}

int tt_probe(const TT *t, Key key, int ply, TTHit *hit)
{
    if (!t->buckets)
        return 0;
    const TTBucket *b = &t->buckets[tt_index(key, t->nbuckets)];
    for (int i = 0; i < TT_BUCKET; i++) {
        uint64_t d = atomic_load_explicit(&b->e[i].data, memory_order_relaxed);
        uint64_t c = atomic_load_explicit(&b->e[i].check, memory_order_relaxed);
        if ((c ^ d) == key && d_bound(d) != TT_NONE) {
            hit->move = d_move(d);
            hit->score = tt_score_from(d_score(d), ply);
            hit->depth = d_depth(d);
            hit->bound = d_bound(d);
            hit->proven = d_proven(d);
            return 1;
        }
    }
    return 0;
}

void tt_store(TT *t, Key key, int ply, Move move, int score, int depth, int bound, int proven)
{
    if (!t->buckets)
        return;
    TTBucket *b = &t->buckets[tt_index(key, t->nbuckets)];
    TTEntry *victim = NULL;
    int worst = 1 << 30;
    for (int i = 0; i < TT_BUCKET; i++) {
        TTEntry *e = &b->e[i];
        uint64_t d = atomic_load_explicit(&e->data, memory_order_relaxed);
        uint64_t c = atomic_load_explicit(&e->check, memory_order_relaxed);
        if (d_bound(d) == TT_NONE) {
            if (!victim || worst > -1000) {
                victim = e;
                worst = -1000;
            }
            continue;
        }
        if ((c ^ d) == key) {
            /* Same position: keep a deeper exact result of this search
             * unless the new one is exact, and keep the old move when the
             * new store has none. */
            if (move == MOVE_NONE)
                move = d_move(d);
            if (bound != TT_EXACT && d_age(d) == t->age && d_depth(d) > depth + 2 && !proven)
                return;
            victim = e;
            break;
        }
        int dist = (int)((t->age - d_age(d)) & 31);
        int worth = d_depth(d) - 8 * dist;
        if (worth < worst) {
            worst = worth;
            victim = e;
        }
    }
    uint64_t d = tt_pack(move, tt_score_to(score, ply), depth, bound, proven, t->age);
    atomic_store_explicit(&victim->data, d, memory_order_relaxed);
    atomic_store_explicit(&victim->check, key ^ d, memory_order_relaxed);
}

int tt_hashfull(const TT *t)
{
    if (!t->buckets)
        return 0;
    size_t n = t->nbuckets < 250 ? t->nbuckets : 250;
    int used = 0;
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < TT_BUCKET; j++) {
            uint64_t d = atomic_load_explicit(&t->buckets[i].e[j].data, memory_order_relaxed);
            if (d_bound(d) != TT_NONE && d_age(d) == t->age)
                used++;
        }
    return (int)((size_t)used * 1000 / (n * TT_BUCKET));
}
