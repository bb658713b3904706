/*
 * morris_tb_build.c -- the builder of the table files (`morelli tables
 * build`, docs/tables.md): retrograde analysis on the symmetric index.
 *
 * Classes are built in groups {(m, o), (o, m)} (a move that closes no mill
 * swaps the roles) in the order of the pieces on the board, so that a
 * capture, which leads to (o - 1, m), is looked up in a file written
 * before (or ends the game).  Within a group the counting retrograde of
 * morris_egtb.c, on entries indexed up to symmetry: each entry counts its
 * distinct children inside the group (children that are images of each
 * other are one entry), and the predecessors of an entry decided at level
 * k are collected, reduced to distinct entries and updated once each; so
 * the counts agree.  Build word per entry: value byte | count byte << 8;
 * SKIP marks the entries never read (tb_index never gives them).  Levels
 * run on all threads, the updates being atomic.
 */
#include "morris_tb.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "morris_internal.h"

#define NOWIN (1 << 30)

/* Build words.  Distances: value | count << vbits, a 16-bit word (vbits 8,
 * distances up to TB_MAXD) or a 32-bit one (vbits 16, up to TB_MAXD16);
 * value PENDING (all ones) with count c: won in c at most, not final; the
 * word of all ones: SKIP.  Win/draw/loss only: a byte, W_CNT count bits
 * (W_NOLOSS: a capture draws, so the entry cannot be lost) and two value
 * bits (0 undecided, W_WIN, W_LOSS, W_SKIP), and a bit an entry in fresh:
 * decided, not yet passed on to its predecessors. */
enum { WORD16, WORD32, WORD8 };
#define W_CNT 0x3Fu
#define W_NOLOSS 0x3Fu
#define W_WIN 0x40u
#define W_LOSS 0x80u
#define W_SKIP 0xC0u
#define W_VAL(w) ((w)&0xC0u)

typedef struct Group {
    const Tables *t;
    int d, f, n, kind, vbits, maxd;
    uint32_t vmask, skip;
    int m[2], o[2];
    void *w[2];
    _Atomic uint64_t *fresh[2];
    uint64_t size[2];
    _Atomic int maxk, overflow, missing, nodist, crowded;
    _Atomic uint64_t passed;
} Group;

#define VAL(G, w) ((w) & (G)->vmask)
#define CNT(G, w) ((w) >> (G)->vbits)
#define VC(G, v, c) ((uint32_t)(v) | (uint32_t)(c) << (G)->vbits)

static inline uint32_t wld(const Group *G, int s, uint64_t i)
{
    switch (G->kind) {
    case WORD32: return __atomic_load_n((uint32_t *)G->w[s] + i, __ATOMIC_RELAXED);
    case WORD16: return __atomic_load_n((uint16_t *)G->w[s] + i, __ATOMIC_RELAXED);
    default: return __atomic_load_n((uint8_t *)G->w[s] + i, __ATOMIC_RELAXED);
    }
}

static inline void wst(const Group *G, int s, uint64_t i, uint32_t v)
{
    switch (G->kind) {
    case WORD32: __atomic_store_n((uint32_t *)G->w[s] + i, v, __ATOMIC_RELAXED); break;
    case WORD16: __atomic_store_n((uint16_t *)G->w[s] + i, (uint16_t)v, __ATOMIC_RELAXED); break;
    default: __atomic_store_n((uint8_t *)G->w[s] + i, (uint8_t)v, __ATOMIC_RELAXED);
    }
}

/* Compare-and-swap of word i: 1 done, else 0 with *old the word now. */
static inline int wcas(const Group *G, int s, uint64_t i, uint32_t *old, uint32_t nw)
{
    if (G->kind == WORD32)
        return __atomic_compare_exchange_n((uint32_t *)G->w[s] + i, old, nw, 1, __ATOMIC_RELAXED,
                                           __ATOMIC_RELAXED);
    int ok;
    if (G->kind == WORD16) {
        uint16_t o16 = (uint16_t)*old;
        ok = __atomic_compare_exchange_n((uint16_t *)G->w[s] + i, &o16, (uint16_t)nw, 1,
                                         __ATOMIC_RELAXED, __ATOMIC_RELAXED);
        *old = o16;
    } else {
        uint8_t o8 = (uint8_t)*old;
        ok = __atomic_compare_exchange_n((uint8_t *)G->w[s] + i, &o8, (uint8_t)nw, 1,
                                         __ATOMIC_RELAXED, __ATOMIC_RELAXED);
        *old = o8;
    }
    return ok;
}

static inline void set_fresh(Group *G, int s, uint64_t i)
{
    atomic_fetch_or_explicit(&G->fresh[s][i >> 6], 1ull << (i & 63), memory_order_relaxed);
}

static inline int slot(const Group *G, int m)
{
    return G->m[0] == m ? 0 : 1;
}

static void amax(_Atomic int *a, int v)
{
    int cur = atomic_load(a);
    while (cur < v && !atomic_compare_exchange_weak(a, &cur, v))
        ;
}

typedef struct Fwd {
    int nmoves, n_in, wc, maxl, draw;
    uint64_t in[4 * NPTS];
} Fwd;

/* Sorts and keeps the distinct values of v[0..n); their count. */
static int distinct(uint64_t *v, int n)
{
    if (n < 2)
        return n;
    for (int i = 1; i < n; i++) { /* insertion: a few dozen at most */
        uint64_t e = v[i];
        int j = i;
        for (; j > 0 && v[j - 1] > e; j--)
            v[j] = v[j - 1];
        v[j] = e;
    }
    int k = 1;
    for (int i = 1; i < n; i++)
        if (v[i] != v[k - 1])
            v[k++] = v[i];
    return k;
}

/* The moves of mover x against y: distinct children inside the group (if
 * want_in), and what the captures give (a smaller class's value without a
 * distance counts as a win or loss in TB_MAXD16 + 1 plies: only the
 * win/draw/loss build takes it). */
static void forward(Group *G, uint32_t x, uint32_t y, int want_in, Fwd *r)
{
    const Tables *t = G->t;
    uint32_t empty = ALL_PTS & ~(x | y), rem = ~0u;
    int flying = G->f && popcnt(x) == 3, nin = 0;
    r->nmoves = r->draw = 0;
    r->wc = NOWIN;
    r->maxl = -1;
    for (uint32_t a = x; a; a &= a - 1) {
        int from = lsb(a);
        uint32_t rest = x & ~(1u << from);
        for (uint32_t b = flying ? empty : (t->adj[from] & empty); b; b &= b - 1) {
            int to = lsb(b);
            uint32_t x2 = rest | (1u << to);
            r->nmoves++;
            if (!closes_mill(t, rest, to)) {
                if (want_in)
                    r->in[nin++] = tb_index(y, x2);
                else
                    nin++;
                continue;
            }
            if (rem == ~0u)
                rem = removable(t, y);
            for (uint32_t q = rem; q; q &= q - 1) {
                uint32_t y2 = y & ~(q & -q);
                if (popcnt(y2) < TB_MIN) {
                    r->wc = 1;
                    continue;
                }
                int v = tb_probe(G->d, G->f, y2, x2);
                if (v < 0) {
                    atomic_store(&G->missing, 1);
                    continue;
                }
                if (v >= TB_WIN_FAR) {
                    if (G->kind != WORD8)
                        atomic_store(&G->nodist, 1); /* no distance to build on */
                    v = v == TB_WIN_FAR ? TB_MAXD16 + 2 : TB_MAXD16 + 1;
                }
                if (v == 0)
                    r->draw = 1;
                else if ((v - 1) % 2 == 0)
                    r->wc = r->wc < v ? r->wc : v; /* loss in v-1: win in v */
                else
                    r->maxl = r->maxl > v ? r->maxl : v; /* win in v-1: loss in v */
            }
        }
    }
    r->n_in = want_in ? distinct(r->in, nin) : nin;
}

static void init_entry(Group *G, int s, uint64_t i)
{
    uint32_t x, y;
    tb_unindex(G->m[s], G->o[s], i, &x, &y);
    if (tb_index(x, y) != i) {
        wst(G, s, i, G->skip);
        return;
    }
    Fwd f;
    forward(G, x, y, 1, &f);
    if (G->kind == WORD8) {
        uint32_t w = f.nmoves == 0         ? W_LOSS
                     : f.wc < NOWIN        ? W_WIN
                     : f.n_in == 0         ? (f.draw ? W_NOLOSS : W_LOSS)
                     : f.draw              ? W_NOLOSS
                     : f.n_in < (int)W_CNT ? (uint32_t)f.n_in
                                           : W_NOLOSS;
        if (!f.draw && f.wc == NOWIN && f.n_in >= (int)W_CNT)
            atomic_store(&G->crowded, 1);
        wst(G, s, i, w);
        if (W_VAL(w))
            set_fresh(G, s, i);
        return;
    }
    if (f.nmoves == 0) {
        wst(G, s, i, VC(G, 1, 0)); /* no legal move: lost now */
    } else if (f.wc < NOWIN) {
        if (f.wc > G->maxd)
            atomic_store(&G->overflow, 1);
        wst(G, s, i, VC(G, G->vmask, f.wc));
        amax(&G->maxk, f.wc);
    } else if (f.maxl > G->maxd) {
        atomic_store(&G->overflow, 1);
    } else if (f.n_in == 0) {
        wst(G, s, i, VC(G, f.draw ? 0 : f.maxl + 1, 0));
        if (!f.draw)
            amax(&G->maxk, f.maxl);
    } else {
        wst(G, s, i, VC(G, 0, f.n_in));
    }
}

/* The distinct entries (in slot *ps) whose mover (y, having just moved,
 * closing no mill) moved into (mover x, opponent y): their count. */
static int preds(const Group *G, uint32_t x, uint32_t y, int *ps, uint64_t *pred)
{
    const Tables *t = G->t;
    *ps = slot(G, popcnt(y));
    uint32_t empty = ALL_PTS & ~(x | y);
    int yfly = G->f && popcnt(y) == 3, np = 0;
    for (uint32_t a = y; a; a &= a - 1) {
        int to = lsb(a);
        uint32_t rest = y & ~(1u << to);
        if (closes_mill(t, rest, to))
            continue;
        for (uint32_t b = yfly ? empty : (t->adj[to] & empty); b; b &= b - 1)
            pred[np++] = tb_index(rest | (b & -b), x);
    }
    return distinct(pred, np);
}

/* The predecessors of (mover x, opponent y), decided at level k. */
static void retro(Group *G, uint32_t x, uint32_t y, int k)
{
    int ps;
    uint64_t pred[4 * NPTS];
    int np = preds(G, x, y, &ps, pred);
    for (int i = 0; i < np; i++) {
        uint32_t old = wld(G, ps, pred[i]);
        if (k % 2 == 0) {
            if (k + 1 > G->maxd) {
                atomic_store(&G->overflow, 1);
            } else if (VAL(G, old) == 0 || VAL(G, old) == G->vmask) {
                wst(G, ps, pred[i], VC(G, k + 2, 0));
                amax(&G->maxk, k + 1);
            }
            continue;
        }
        do {
            if (VAL(G, old) != 0 || CNT(G, old) == 0)
                break;
        } while (!wcas(G, ps, pred[i], &old, old - VC(G, 0, 1)));
        if (VAL(G, old) != 0 || CNT(G, old) != 1)
            continue;
        uint32_t px, py;
        tb_unindex(popcnt(y), popcnt(x), pred[i], &px, &py);
        Fwd f;
        forward(G, px, py, 0, &f);
        if (f.draw)
            continue;
        int d = f.maxl > k + 1 ? f.maxl : k + 1;
        if (d > G->maxd) {
            atomic_store(&G->overflow, 1);
            continue;
        }
        wst(G, ps, pred[i], VC(G, d + 1, 0));
        amax(&G->maxk, d);
    }
}

/* Win/draw/loss only: the predecessors of (mover x, opponent y), which the
 * mover wins (won) or loses. */
static void retro_wdl(Group *G, uint32_t x, uint32_t y, int won)
{
    int ps;
    uint64_t pred[4 * NPTS];
    int np = preds(G, x, y, &ps, pred);
    for (int i = 0; i < np; i++) {
        uint32_t old = wld(G, ps, pred[i]), nw = 0;
        do {
            if (W_VAL(old) || (won && old == W_NOLOSS))
                break;
            nw = !won ? W_WIN : old == 1 ? W_LOSS : old - 1;
        } while (!wcas(G, ps, pred[i], &old, nw));
        if (!W_VAL(old) && !(won && old == W_NOLOSS) && W_VAL(nw))
            set_fresh(G, ps, pred[i]);
    }
}

typedef struct Job {
    Group *G;
    int k, part, parts; /* k < 0: the initial pass */
} Job;

static void *run_job(void *arg)
{
    Job *j = arg;
    Group *G = j->G;
    for (int s = 0; s < G->n; s++) {
        uint64_t lo = G->size[s] * (uint64_t)j->part / (uint64_t)j->parts;
        uint64_t hi = G->size[s] * (uint64_t)(j->part + 1) / (uint64_t)j->parts;
        if (j->k < 0) {
            for (uint64_t i = lo; i < hi; i++)
                init_entry(G, s, i);
            continue;
        }
        if (G->kind == WORD8) { /* the entries decided and not yet passed on */
            uint64_t n = 0;     /* (a word two slices share goes to whichever takes it) */
            for (uint64_t b = lo >> 6; b < (hi + 63) >> 6; b++) {
                if (!atomic_load_explicit(&G->fresh[s][b], memory_order_relaxed))
                    continue;
                uint64_t bits = atomic_exchange(&G->fresh[s][b], 0);
                for (; bits; bits &= bits - 1, n++) {
                    uint64_t i = b << 6 | (uint64_t)__builtin_ctzll(bits);
                    uint32_t x, y;
                    tb_unindex(G->m[s], G->o[s], i, &x, &y);
                    retro_wdl(G, x, y, W_VAL(wld(G, s, i)) == W_WIN);
                }
            }
            atomic_fetch_add(&G->passed, n);
            continue;
        }
        uint32_t want = (uint32_t)j->k + 1;
        for (uint64_t i = lo; i < hi; i++) {
            uint32_t w = wld(G, s, i);
            if (VAL(G, w) != want) {
                if (VAL(G, w) != G->vmask || CNT(G, w) != (uint32_t)j->k)
                    continue;
                wst(G, s, i, VC(G, want, 0));
            }
            uint32_t x, y;
            tb_unindex(G->m[s], G->o[s], i, &x, &y);
            retro(G, x, y, j->k);
        }
    }
    return NULL;
}

static void run_pass(Group *G, int k, int threads)
{
    Job jobs[64];
    pthread_t th[64];
    int started[64] = {0};
    if (threads > 64)
        threads = 64;
    for (int p = 0; p < threads; p++) {
        jobs[p] = (Job){G, k, p, threads};
        if (p > 0)
            started[p] = pthread_create(&th[p], NULL, run_job, &jobs[p]) == 0;
    }
    run_job(&jobs[0]);
    for (int p = 1; p < threads; p++) {
        if (started[p])
            pthread_join(th[p], NULL);
        else
            run_job(&jobs[p]); /* no thread: this one does its part */
    }
}

/* The entry value of index i of slot s (the canonical entry's). */
static int word_value(const Group *G, int s, uint64_t i)
{
    uint32_t w = wld(G, s, i);
    if (w == G->skip) {
        uint32_t x, y;
        tb_unindex(G->m[s], G->o[s], i, &x, &y);
        w = wld(G, s, tb_index(x, y));
    }
    if (G->kind == WORD8)
        return W_VAL(w) == W_WIN ? TB_WIN_FAR : W_VAL(w) == W_LOSS ? TB_LOSS_FAR : 0;
    return (int)VAL(G, w);
}

static int entry_of(void *ctx, uint64_t i)
{
    Group *G = ((void **)ctx)[0];
    return word_value(G, *(int *)((void **)ctx)[1], i);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Bytes of memory available (MemAvailable), or 0 when unknown. */
uint64_t tb_mem_available(void)
{
    FILE *fp = fopen("/proc/meminfo", "r");
    char line[128];
    unsigned long long kb = 0;
    while (fp && fgets(line, sizeof line, fp))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
            break;
    if (fp)
        fclose(fp);
    return (uint64_t)kb * 1024;
}

static int file_whole(const char *dir, int d, int f, int m, int o)
{
    char name[64], file[4200];
    tb_file_name(d, f, m, o, name, sizeof name);
    snprintf(file, sizeof file, "%s/%s", dir, name);
    return access(file, F_OK) == 0 && tb_open_file(file, d, f, m, o) == 0;
}

static void set_kind(Group *G, int kind)
{
    G->kind = kind;
    G->vbits = kind == WORD32 ? 16 : 8;
    G->vmask = (1u << G->vbits) - 1;
    G->skip = kind == WORD32 ? 0xFFFFFFFFu : kind == WORD16 ? 0xFFFFu : W_SKIP;
    G->maxd = kind == WORD32 ? TB_MAXD16 : TB_MAXD;
}

/* Bytes of build memory an entry takes, times 8. */
static uint64_t eighths(int kind)
{
    return kind == WORD32 ? 32 : kind == WORD16 ? 16 : 9; /* a byte and a fresh bit */
}

static void free_words(Group *G)
{
    for (int s = 0; s < G->n; s++) {
        free(G->w[s]);
        free((void *)G->fresh[s]);
        G->w[s] = NULL;
        G->fresh[s] = NULL;
    }
}

/* G's entries in words of its kind: NULL, or why not. */
static const char *solve_group(Group *G, int threads)
{
    atomic_store(&G->maxk, 0);
    atomic_store(&G->overflow, 0);
    atomic_store(&G->missing, 0);
    atomic_store(&G->nodist, 0);
    atomic_store(&G->crowded, 0);
    for (int s = 0; s < G->n; s++) {
        G->w[s] = malloc(G->size[s] * eighths(G->kind) / 8 + 1);
        if (G->kind == WORD8)
            G->fresh[s] = calloc((G->size[s] + 63) / 64 + 1, sizeof(uint64_t));
        if (!G->w[s] || (G->kind == WORD8 && !G->fresh[s]))
            return "out of memory";
    }
    run_pass(G, -1, threads);
    if (G->kind == WORD8) {
        uint64_t n;
        do {
            atomic_store(&G->passed, 0);
            run_pass(G, 0, threads);
            n = atomic_load(&G->passed);
        } while (n && !G->missing);
    } else {
        for (int k = 0; k <= atomic_load(&G->maxk) && !G->overflow && !G->missing && !G->nodist;
             k++)
            run_pass(G, k, threads);
    }
    return G->missing    ? "a smaller class is missing"
           : G->nodist   ? "a smaller class holds no distances (built win/draw/loss only)"
           : G->crowded  ? "an entry has more children than a byte word counts"
           : G->overflow ? (G->kind == WORD16 ? "a distance exceeds 252 plies"
                                              : "a distance exceeds 65532 plies")
                         : NULL;
}

/* Builds group (m, o) [and (o, m)] of (d, f) into dir; 1 built, 0 on disk
 * already, -1 failed. */
static int build_group(const TbBuildOpts *op, int d, int f, int m, int o, double *secs)
{
    Group G;
    memset(&G, 0, sizeof G);
    morris_ensure_tables();
    G.t = &morris_tabs[d];
    G.d = d;
    G.f = f;
    G.n = m == o ? 1 : 2;
    G.m[0] = m, G.o[0] = o, G.m[1] = o, G.o[1] = m;
    int have = 1;
    for (int s = 0; s < G.n; s++)
        have &= file_whole(op->dir, d, f, G.m[s], G.o[s]);
    if (have)
        return 0;
    int wdl = op->encoding == TB_ENC_WDL2 || (op->wdl_from && m + o > op->wdl_from);
    set_kind(&G, wdl ? WORD8 : op->wide ? WORD32 : WORD16);
    const char *opts = d ? (f ? "Diagonals=true Flying=true" : "Diagonals=true Flying=false")
                         : (f ? "Diagonals=false Flying=true" : "Diagonals=false Flying=false");
    uint64_t avail = op->limit ? op->limit : tb_mem_available();
    double t0 = now_s();
    const char *why = NULL;
    for (;;) {
        uint64_t need = 0;
        for (int s = 0; s < G.n; s++) {
            G.size[s] = tb_entries(G.m[s], G.o[s]);
            need += (G.size[s] * eighths(G.kind) + 7) / 8;
        }
        if (avail && need > avail) {
            fprintf(stderr, "tables: %dv%d of %s needs %llu MB, %llu MB available; not built\n", m,
                    o, opts, (unsigned long long)((need + (1 << 20) - 1) >> 20),
                    (unsigned long long)(avail >> 20));
            return -1;
        }
        if (!op->quiet) {
            printf("tables: %dv%d %s: building%s, %llu MB of memory (%llu MB available)\n", m, o,
                   opts, G.kind == WORD8 ? " win/draw/loss only" : "",
                   (unsigned long long)((need + (1 << 20) - 1) >> 20),
                   (unsigned long long)(avail >> 20));
            fflush(stdout);
        }
        why = solve_group(&G, op->threads);
        if (!why || G.kind != WORD16 || !G.overflow || G.missing || G.nodist || G.crowded)
            break;
        free_words(&G); /* distances past 252 plies: again with 4-byte words */
        set_kind(&G, WORD32);
        if (!op->quiet)
            printf("tables: %dv%d %s: a distance passes 252 plies; again with 4-byte words\n", m, o,
                   opts);
    }
    if (why)
        fprintf(stderr, "tables: %dv%d of %s: %s; not built\n", m, o, opts, why);
    int ok = !why;
    for (int s = 0; s < G.n && ok; s++) {
        char msg[256], name[64], file[4200];
        void *ctx[2] = {&G, &s};
        int enc = TB_ENC_WDL2, longest = 0;
        if (G.kind != WORD8) {
            for (uint64_t i = 0; i < G.size[s]; i++) {
                int v = word_value(&G, s, i);
                longest = v - 1 > longest ? v - 1 : longest;
            }
            enc = longest > TB_MAXD ? TB_ENC_DTM16 : TB_ENC_DTM8;
        }
        if (tb_write(op->dir, d, f, G.m[s], G.o[s], enc, entry_of, ctx, msg, sizeof msg) != 0) {
            fprintf(stderr, "tables: %s\n", msg);
            ok = 0;
            break;
        }
        tb_file_name(d, f, G.m[s], G.o[s], name, sizeof name);
        snprintf(file, sizeof file, "%s/%s", op->dir, name);
        ok = tb_open_file(file, d, f, G.m[s], G.o[s]) == 0;
    }
    free_words(&G);
    *secs = now_s() - t0;
    return ok ? 1 : -1;
}

int tb_build(const TbBuildOpts *op)
{
    double t0 = now_s(), done_pos = 0, left_pos = 0;
    for (int d = 0; d < 2; d++)
        for (int f = 0; f < 2; f++)
            for (int m = TB_MIN;
                 m <= op->upto && (op->diag_mask >> d & 1) && (op->fly_mask >> f & 1); m++)
                for (int o = TB_MIN; o <= op->upto; o++)
                    if ((!op->max_total || m + o <= op->max_total) &&
                        (!op->only || (op->only & TB_GROUP_BIT(m, o))))
                        left_pos += (double)tb_entries(m, o);
    for (int d = 0; d < 2; d++)
        for (int f = 0; f < 2; f++) {
            if (!(op->diag_mask >> d & 1) || !(op->fly_mask >> f & 1))
                continue;
            int top = op->max_total && op->max_total < 2 * op->upto ? op->max_total : 2 * op->upto;
            for (int total = 2 * TB_MIN; total <= top; total++)
                for (int m = TB_MIN; 2 * m <= total; m++) {
                    int o = total - m;
                    if (o > op->upto || (op->only && !(op->only & TB_GROUP_BIT(m, o))))
                        continue;
                    double pos = (double)tb_entries(m, o) + (m == o ? 0 : (double)tb_entries(o, m));
                    double secs = 0;
                    int rc = build_group(op, d, f, m, o, &secs);
                    if (rc < 0)
                        return -1;
                    left_pos -= pos;
                    double el = now_s() - t0;
                    if (rc > 0)
                        done_pos += pos;
                    if (!op->quiet) {
                        char left[64] = "";
                        if (rc > 0 && left_pos > 0)
                            snprintf(left, sizeof left, "; about %.0f s left",
                                     el / done_pos * left_pos);
                        char cls[64];
                        snprintf(cls, sizeof cls, m == o ? "%dv%d" : "%dv%d+%dv%d", m, o, o, m);
                        if (rc > 0)
                            printf("tables: %s Diagonals=%s Flying=%s: %.0f entries, %.1f s%s\n",
                                   cls, d ? "true" : "false", f ? "true" : "false", pos, secs,
                                   left);
                        else
                            printf("tables: %s Diagonals=%s Flying=%s: on disk already\n", cls,
                                   d ? "true" : "false", f ? "true" : "false");
                        fflush(stdout);
                    }
                }
        }
    return 0;
}
