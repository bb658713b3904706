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

#define PENDING 255
#define SKIP 0xFFFFu
#define VAL(w) ((w)&0xFF)
#define CNT(w) ((w) >> 8)
#define VC(v, c) ((uint16_t)((v) | (c) << 8))
#define NOWIN (1 << 20)

typedef struct Group {
    const Tables *t;
    int d, f, n;
    int m[2], o[2];
    uint16_t *w[2];
    uint64_t size[2];
    _Atomic int maxk, overflow, missing;
} Group;

static inline int slot(const Group *G, int m)
{
    return G->m[0] == m ? 0 : 1;
}

static inline uint16_t ld(uint16_t *p)
{
    return __atomic_load_n(p, __ATOMIC_RELAXED);
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
 * want_in), and what the captures give. */
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
                if (v == 0)
                    r->draw = 1;
                else if (v == TB_LOSS_FAR || v == TB_WIN_FAR)
                    atomic_store(&G->overflow, 1); /* no distance to build on */
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
    uint16_t *w = &G->w[s][i];
    if (tb_index(x, y) != i) {
        *w = SKIP;
        return;
    }
    Fwd f;
    forward(G, x, y, 1, &f);
    if (f.nmoves == 0) {
        *w = VC(1, 0); /* no legal move: lost now */
    } else if (f.wc < NOWIN) {
        *w = VC(PENDING, f.wc);
        amax(&G->maxk, f.wc);
    } else if (f.maxl > TB_MAXD) {
        atomic_store(&G->overflow, 1);
    } else if (f.n_in == 0) {
        *w = VC(f.draw ? 0 : f.maxl + 1, 0);
        if (!f.draw)
            amax(&G->maxk, f.maxl);
    } else {
        *w = VC(0, f.n_in);
    }
}

/* The entries whose mover (y, having just moved, closing no mill) moved
 * into (mover x, opponent y), decided at level k. */
static void retro(Group *G, uint32_t x, uint32_t y, int k)
{
    const Tables *t = G->t;
    int ps = slot(G, popcnt(y));
    uint16_t *vc = G->w[ps];
    uint32_t empty = ALL_PTS & ~(x | y);
    int yfly = G->f && popcnt(y) == 3, np = 0;
    uint64_t pred[4 * NPTS];
    for (uint32_t a = y; a; a &= a - 1) {
        int to = lsb(a);
        uint32_t rest = y & ~(1u << to);
        if (closes_mill(t, rest, to))
            continue;
        for (uint32_t b = yfly ? empty : (t->adj[to] & empty); b; b &= b - 1)
            pred[np++] = tb_index(rest | (b & -b), x);
    }
    np = distinct(pred, np);
    for (int i = 0; i < np; i++) {
        uint16_t *w = &vc[pred[i]], old = ld(w);
        if (k % 2 == 0) {
            if (k + 1 > TB_MAXD) {
                atomic_store(&G->overflow, 1);
            } else if (VAL(old) == 0 || VAL(old) == PENDING) {
                __atomic_store_n(w, VC(k + 2, 0), __ATOMIC_RELAXED);
                amax(&G->maxk, k + 1);
            }
            continue;
        }
        uint16_t nw;
        do {
            if (VAL(old) != 0 || CNT(old) == 0)
                break;
            nw = (uint16_t)(old - (1 << 8));
        } while (!__atomic_compare_exchange_n(w, &old, nw, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
        if (VAL(old) != 0 || CNT(old) != 1)
            continue;
        uint32_t px, py;
        tb_unindex(popcnt(y), popcnt(x), pred[i], &px, &py);
        Fwd f;
        forward(G, px, py, 0, &f);
        if (f.draw)
            continue;
        int d = f.maxl > k + 1 ? f.maxl : k + 1;
        if (d > TB_MAXD) {
            atomic_store(&G->overflow, 1);
            continue;
        }
        __atomic_store_n(w, VC(d + 1, 0), __ATOMIC_RELAXED);
        amax(&G->maxk, d);
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
        int want = j->k + 1;
        for (uint64_t i = lo; i < hi; i++) {
            uint16_t w = ld(&G->w[s][i]);
            if (VAL(w) != want) {
                if (VAL(w) != PENDING || CNT(w) != j->k)
                    continue;
                __atomic_store_n(&G->w[s][i], VC(want, 0), __ATOMIC_RELAXED);
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

static int entry_of(void *ctx, uint64_t i)
{
    Group *G = ((void **)ctx)[0];
    int s = *(int *)((void **)ctx)[1];
    uint16_t w = G->w[s][i];
    if (w == SKIP) {
        uint32_t x, y;
        tb_unindex(G->m[s], G->o[s], i, &x, &y);
        w = G->w[s][tb_index(x, y)];
    }
    return VAL(w);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Bytes of memory available (MemAvailable), or 0 when unknown. */
static uint64_t mem_available(void)
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
    uint64_t need = 0, avail = op->limit ? op->limit : mem_available();
    for (int s = 0; s < G.n; s++) {
        G.size[s] = tb_entries(G.m[s], G.o[s]);
        need += G.size[s] * sizeof(uint16_t);
    }
    if (avail && need > avail) {
        fprintf(stderr,
                "tables: %dv%d of Diagonals=%s Flying=%s needs %llu MB, %llu MB available; "
                "not built\n",
                m, o, d ? "true" : "false", f ? "true" : "false",
                (unsigned long long)((need + (1 << 20) - 1) >> 20),
                (unsigned long long)(avail >> 20));
        return -1;
    }
    if (!op->quiet) {
        printf("tables: %dv%d Diagonals=%s Flying=%s: building, %llu MB of memory (%llu MB "
               "available)\n",
               m, o, d ? "true" : "false", f ? "true" : "false",
               (unsigned long long)((need + (1 << 20) - 1) >> 20),
               (unsigned long long)(avail >> 20));
        fflush(stdout);
    }
    int ok = 1;
    for (int s = 0; s < G.n; s++)
        ok &= (G.w[s] = malloc(G.size[s] * sizeof(uint16_t))) != NULL;
    double t0 = now_s();
    if (ok) {
        run_pass(&G, -1, op->threads);
        for (int k = 0; k <= atomic_load(&G.maxk) && !G.overflow && !G.missing; k++)
            run_pass(&G, k, op->threads);
        ok = !G.overflow && !G.missing;
        if (!ok)
            fprintf(stderr, "tables: %dv%d of Diagonals=%s Flying=%s: %s; not built\n", m, o,
                    d ? "true" : "false", f ? "true" : "false",
                    G.missing ? "a smaller class is missing" : "a distance exceeds 252 plies");
    } else {
        fprintf(stderr, "tables: out of memory\n");
    }
    for (int s = 0; s < G.n && ok; s++) {
        char why[256], name[64], file[4200];
        void *ctx[2] = {&G, &s};
        if (tb_write(op->dir, d, f, G.m[s], G.o[s], op->encoding, entry_of, ctx, why, sizeof why) !=
            0) {
            fprintf(stderr, "tables: %s\n", why);
            ok = 0;
            break;
        }
        tb_file_name(d, f, G.m[s], G.o[s], name, sizeof name);
        snprintf(file, sizeof file, "%s/%s", op->dir, name);
        ok = tb_open_file(file, d, f, G.m[s], G.o[s]) == 0;
    }
    for (int s = 0; s < G.n; s++)
        free(G.w[s]);
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
