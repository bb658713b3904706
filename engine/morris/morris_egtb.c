/*
 * morris_egtb.c -- endgame tables of the Morris family: every position of
 * the moving (and flying) phase where each side has 3..4 pieces on the
 * board and none in hand, and every one of 5 against 3, with its exact
 * value (win, loss, draw) and the distance to the end in plies, for the
 * side to move.  Built in memory by retrograde analysis, one set per board
 * (with or without diagonals) and flying rule; Pieces=9 and 12 share them
 * (nothing is left in hand).
 *
 * Tables.  T(m,o) holds the positions whose mover has m pieces and whose
 * opponent has o (colours do not matter: the side to move is always
 * "the mover").  Index: the colex rank of the mover's set among the 24
 * points, times C(24-m, o), plus the colex rank of the opponent's set among
 * the 24-m points the mover leaves free.  One byte each: 0 = draw (or not
 * decided yet), d+1 = decided in d plies (d odd: the mover wins, d even:
 * the mover loses; d = 0 is a mover without a legal move), 255 only while
 * building.
 *
 * Build.  A move that closes a mill leaves the tables of fewer pieces, so
 * the groups are built in the order {T33}, {T34, T43}, {T44}, {T35, T53};
 * the moves out of a group (captures) are looked up in the groups before
 * it, or end the game (the opponent keeps 2 pieces).  Within a group, the
 * classic counting retrograde: each position counts its moves inside the
 * group; the levels d = 0, 1, 2, ... are processed in order: the
 * predecessors (un-moves that close no mill) of a loss in d become wins in
 * d+1, and a predecessor of a win in d whose count drops to zero is lost in
 * max(d+1, its captures' longest loss).  A capture that wins in c is kept
 * as "win in c at most" (255, the count byte holding c) until level c.
 * The build's words (value byte | count byte) are packed into the table's
 * bytes in place at the end, so a group needs two bytes a position at its
 * peak.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "notice.h"
#include "morris.h"
#include "morris_internal.h"
#include "morris_sets.h"
#include "morris_tb.h"

#define EG_MIN 3
#define EG_MAX MORRIS_EGTB_PIECES
#define EG_PENDING 255
#define EG_MAXD TB_MAXD /* the longest distance a byte holds */
/* The farthest distance the search's evaluation tells apart (odd: a win);
 * MORRIS_EGTB_SCORE - EG_EVAL_MAXD stays above every heuristic score. */
#define EG_EVAL_MAXD 9999

typedef struct EgSet {
    _Atomic int ready;   /* the largest piece count built per side, 0 = none */
    _Atomic int failed;  /* a build ran out of memory: not tried again */
    _Atomic int started; /* a background build was started */
    uint8_t *val[EG_MAX + 1][EG_MAX + 1];
    long positions;
    double ms;
} EgSet;

static EgSet sets[2][2]; /* [diagonals][flying] */
static pthread_mutex_t build_lock = PTHREAD_MUTEX_INITIALIZER;
static size_t limit_bytes, used_bytes;

/* Whether the tables built up to piece count r (3, 4 or 5; 0 = none) hold
 * T(m,o): each side 3..4 from r = 4 on, and 5 against 3 from r = 5 on. */
static inline int eg_holds(int r, int m, int o)
{
    return m >= EG_MIN && o >= EG_MIN && m <= r && o <= r && m + o <= MORRIS_EGTB_TOTAL;
}

static inline uint64_t table_size(int m, int o)
{
    return (uint64_t)morris_binom[NPTS][m] * morris_binom[NPTS - m][o];
}

static inline uint64_t eg_index(uint32_t x, uint32_t y)
{
    return (uint64_t)set_colex(x) * morris_binom[NPTS - popcnt(x)][popcnt(y)] +
           set_colex(set_squeeze(y, x));
}

/* What the moves of the mover x against y show: moves inside the group
 * (no mill closed), the shortest win and longest loss among captures, and
 * whether a capture leads to a draw. */
typedef struct Fwd {
    int nmoves, n_in, wc, maxl, draw;
} Fwd;

static void forward(const EgSet *S, const Tables *t, int fly, uint32_t x, uint32_t y, Fwd *r)
{
    uint32_t empty = ALL_PTS & ~(x | y), rem = ~0u;
    int flying = fly && popcnt(x) == 3;
    r->nmoves = r->n_in = r->draw = 0;
    r->wc = 1 << 20;
    r->maxl = -1;
    for (uint32_t f = x; f; f &= f - 1) {
        int from = lsb(f);
        uint32_t rest = x & ~(1u << from);
        for (uint32_t d = flying ? empty : (t->adj[from] & empty); d; d &= d - 1) {
            int to = lsb(d);
            r->nmoves++;
            if (!closes_mill(t, rest, to)) {
                r->n_in++;
                continue;
            }
            if (rem == ~0u)
                rem = removable(t, y);
            uint32_t x2 = rest | (1u << to);
            for (uint32_t q = rem; q; q &= q - 1) {
                uint32_t y2 = y & ~(q & -q);
                if (popcnt(y2) < EG_MIN) {
                    r->wc = 1;
                    continue;
                }
                int v = S->val[popcnt(y2)][popcnt(x2)][eg_index(y2, x2)];
                if (!v)
                    r->draw = 1;
                else if ((v - 1) % 2 == 0)
                    r->wc = r->wc < v ? r->wc : v; /* loss in v-1: win in v */
                else
                    r->maxl = r->maxl > v ? r->maxl : v; /* win in v-1: loss in v */
            }
        }
    }
}

typedef struct Group {
    const EgSet *S;
    const Tables *t;
    int fly, n;
    int m[2], o[2];
    uint16_t *vc[2]; /* while building: value byte | count byte << 8 */
    int maxk, overflow;
} Group;

#define VAL(w) ((w)&0xFF)
#define CNT(w) ((w) >> 8)
#define VC(v, c) ((uint16_t)((v) | (c) << 8))

/* The slot of table (o, m) (mover o pieces) in the group. */
static inline int slot_of(const Group *G, int m, int o)
{
    return G->m[0] == m && G->o[0] == o ? 0 : 1;
}

static void group_init(Group *G, int s)
{
    int m = G->m[s], o = G->o[s], n = NPTS - m;
    uint16_t *vc = G->vc[s];
    uint64_t i = 0;
    for (uint32_t x = (1u << m) - 1; x <= ALL_PTS; x = set_next(x)) {
        for (uint32_t yc = (1u << o) - 1; yc < (1u << n); yc = set_next(yc), i++) {
            uint32_t y = set_spread(yc, x);
            Fwd f;
            forward(G->S, G->t, G->fly, x, y, &f);
            if (f.nmoves == 0) {
                vc[i] = VC(1, 0); /* no legal move: lost now */
            } else if (f.wc < (1 << 20)) {
                vc[i] = VC(EG_PENDING, f.wc);
                if (f.wc > G->maxk)
                    G->maxk = f.wc;
            } else if (f.maxl > EG_MAXD) {
                G->overflow = 1;
            } else if (f.n_in == 0) {
                vc[i] = VC(f.draw ? 0 : f.maxl + 1, 0);
                if (!f.draw && f.maxl > G->maxk)
                    G->maxk = f.maxl;
            } else {
                vc[i] = VC(0, f.n_in);
            }
        }
    }
}

/* Un-moves of the side y that just moved (closing no mill) into the
 * position (mover x, opponent y) decided at level k. */
static void retro(Group *G, uint32_t x, uint32_t y, int k)
{
    const Tables *t = G->t;
    int ps = slot_of(G, popcnt(y), popcnt(x));
    uint16_t *vc = G->vc[ps];
    uint32_t empty = ALL_PTS & ~(x | y);
    int yfly = G->fly && popcnt(y) == 3;
    uint64_t pred[4 * NPTS];
    uint32_t py[4 * NPTS];
    int np = 0;
    for (uint32_t a = y; a; a &= a - 1) {
        int to = lsb(a);
        uint32_t rest = y & ~(1u << to);
        if (closes_mill(t, rest, to))
            continue;
        for (uint32_t b = yfly ? empty : (t->adj[to] & empty); b; b &= b - 1) {
            py[np] = rest | (b & -b);
            pred[np] = eg_index(py[np], x);
            __builtin_prefetch(&vc[pred[np]], 1);
            np++;
        }
    }
    for (int i = 0; i < np; i++) {
        uint16_t *w = &vc[pred[i]];
        int v = VAL(*w);
        if (k % 2 == 0) {
            if (k + 1 > EG_MAXD) {
                G->overflow = 1;
            } else if (v == 0 || v == EG_PENDING) {
                *w = VC(k + 2, 0);
                if (k + 1 > G->maxk)
                    G->maxk = k + 1;
            }
        } else if (v == 0 && CNT(*w)) {
            *w = (uint16_t)(*w - (1 << 8));
            if (CNT(*w))
                continue;
            Fwd f;
            forward(G->S, t, G->fly, py[i], x, &f);
            if (f.draw)
                continue;
            int d = f.maxl > k + 1 ? f.maxl : k + 1;
            if (d > EG_MAXD) {
                G->overflow = 1;
                continue;
            }
            *w = VC(d + 1, 0);
            if (d > G->maxk)
                G->maxk = d;
        }
    }
}

static void group_level(Group *G, int s, int k)
{
    int m = G->m[s], o = G->o[s], n = NPTS - m;
    uint16_t *vc = G->vc[s];
    uint32_t cy = morris_binom[n][o];
    uint64_t base = 0;
    const int want = k + 1;
    for (uint32_t x = (1u << m) - 1; x <= ALL_PTS; x = set_next(x), base += cy) {
        uint16_t *v = vc + base;
        for (uint32_t j = 0; j < cy; j++) {
            if (VAL(v[j]) != want) {
                if (VAL(v[j]) != EG_PENDING || CNT(v[j]) != k)
                    continue;
                v[j] = VC(want, 0);
            }
            retro(G, x, set_spread(set_unrank(j, o, n), x), k);
        }
    }
}

static int reserve(size_t bytes)
{
    if (limit_bytes && used_bytes + bytes > limit_bytes)
        return -1;
    used_bytes += bytes;
    return 0;
}

/* Builds the group of tables (m[i], o[i]); 0 or -1. */
static int build_group(EgSet *S, const Tables *t, int fly, int n, const int mo[][2])
{
    Group G;
    memset(&G, 0, sizeof G);
    G.S = S;
    G.t = t;
    G.fly = fly;
    G.n = n;
    size_t vbytes = 0;
    for (int s = 0; s < n; s++) {
        G.m[s] = mo[s][0];
        G.o[s] = mo[s][1];
        vbytes += table_size(G.m[s], G.o[s]);
    }
    /* The build's words, packed into the tables' bytes in place at the end. */
    if (reserve(2 * vbytes) < 0)
        return -1;
    int ok = 1;
    for (int s = 0; s < n; s++) {
        G.vc[s] = malloc(table_size(G.m[s], G.o[s]) * sizeof(uint16_t));
        ok &= G.vc[s] != NULL;
    }
    if (ok) {
        for (int s = 0; s < n; s++)
            group_init(&G, s);
        for (int k = 0; k <= G.maxk && !G.overflow; k++)
            for (int s = 0; s < n; s++)
                group_level(&G, s, k);
        ok = !G.overflow;
    }
    if (!ok) {
        for (int s = 0; s < n; s++)
            free(G.vc[s]);
        used_bytes -= 2 * vbytes;
        return -1;
    }
    /* Byte i is written after word i is read, and words i+1.. lie beyond
     * it: packing in place never overwrites a word not read yet. */
    for (int s = 0; s < n; s++) {
        uint64_t sz = table_size(G.m[s], G.o[s]);
        uint8_t *b = (uint8_t *)G.vc[s];
        for (uint64_t i = 0; i < sz; i++)
            b[i] = (uint8_t)VAL(G.vc[s][i]);
        uint8_t *shrunk = realloc(b, sz);
        S->val[G.m[s]][G.o[s]] = shrunk ? shrunk : b;
    }
    used_bytes -= vbytes;
    return 0;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int morris_egtb_build(int diagonals, int flying, int maxp, long *positions, double *ms)
{
    morris_ensure_tables();
    morris_sets_init();
    if (maxp < EG_MIN || maxp > EG_MAX)
        return -1;
    EgSet *S = &sets[diagonals ? 1 : 0][flying ? 1 : 0];
    const Tables *t = &morris_tabs[diagonals ? 1 : 0];
    pthread_mutex_lock(&build_lock);
    int rc = 0;
    if (atomic_load(&S->ready) < maxp && !S->failed) {
        double t0 = now_ms();
        /* The groups in the order of their captures; ready becomes r once
         * the last group of r is built. */
        static const struct {
            int r, n, mo[2][2];
        } stage[] = {{3, 1, {{3, 3}}},
                     {4, 2, {{3, 4}, {4, 3}}},
                     {4, 1, {{4, 4}}},
                     {5, 2, {{3, 5}, {5, 3}}}};
        int have = atomic_load(&S->ready), nst = (int)(sizeof stage / sizeof stage[0]);
        for (int i = 0; i < nst && stage[i].r <= maxp; i++) {
            if (stage[i].r <= have)
                continue;
            if (build_group(S, t, flying, stage[i].n, stage[i].mo) < 0) {
                rc = -1;
                break;
            }
            if (i + 1 == nst || stage[i + 1].r != stage[i].r)
                atomic_store(&S->ready, stage[i].r);
        }
        S->ms += now_ms() - t0;
        int r = atomic_load(&S->ready);
        S->positions = 0;
        for (int m = EG_MIN; m <= EG_MAX; m++)
            for (int o = EG_MIN; o <= EG_MAX; o++)
                if (eg_holds(r, m, o))
                    S->positions += (long)table_size(m, o);
        if (rc) {
            S->failed = 1;
            char part[48] = "";
            if (r)
                snprintf(part, sizeof part, " of more than %d pieces a side", r);
            notice("morris endgame tables (Diagonals=%s Flying=%s)%s not built: "
                   "out of memory; playing %s",
                   diagonals ? "true" : "false", flying ? "true" : "false", part,
                   r ? "with the smaller ones" : "without them");
        }
    } else if (atomic_load(&S->ready) < maxp) {
        rc = -1;
    }
    if (positions)
        *positions = S->positions;
    if (ms)
        *ms = S->ms;
    pthread_mutex_unlock(&build_lock);
    return rc;
}

size_t morris_egtb_set_limit(size_t bytes)
{
    pthread_mutex_lock(&build_lock);
    size_t old = limit_bytes;
    limit_bytes = bytes;
    for (int d = 0; d < 2; d++) /* a new limit: failed builds may be tried again */
        for (int f = 0; f < 2; f++)
            sets[d][f].failed = 0;
    pthread_mutex_unlock(&build_lock);
    return old;
}

/* The table byte of p, or -1 when p is outside the tables built. */
static inline int probe_byte(const Pos *p)
{
    if (p->hand[0] | p->hand[1])
        return -1;
    uint32_t x = p->bb[p->stm], y = p->bb[p->stm ^ 1];
    int m = popcnt(x), o = popcnt(y);
    int f = tb_probe(p->diag, p->flying, x, y);
    if (f >= 0)
        return f;
    const EgSet *S = &sets[p->diag][p->flying];
    int r = atomic_load_explicit(&S->ready, memory_order_acquire);
    if (!eg_holds(r, m, o))
        return -1;
    return S->val[m][o][eg_index(x, y)];
}

int morris_egtb_memory_byte(int diagonals, int flying, uint32_t x, uint32_t y)
{
    const EgSet *S = &sets[diagonals][flying];
    int m = popcnt(x), o = popcnt(y);
    if (!eg_holds(atomic_load_explicit(&S->ready, memory_order_acquire), m, o))
        return -1;
    return S->val[m][o][eg_index(x, y)];
}

/* The distance of a decided entry value (tb_probe's): a value without a
 * distance reads as the farthest a file can say (a win in TB_MAXD16 + 1
 * plies, a loss in TB_MAXD16), so that a stored win is preferred to it. */
_Static_assert(TB_MAXD16 >= VALUE_FAR_PLIES, "a value without a distance must read as far");
static inline int entry_plies(int v)
{
    return v == TB_WIN_FAR ? TB_MAXD16 + 1 : v == TB_LOSS_FAR ? TB_MAXD16 : v - 1;
}

static inline int byte_value(int v)
{
    if (v == 0)
        return VALUE_DRAW;
    int d = entry_plies(v);
    return d % 2 ? VALUE_WIN - d : -(VALUE_WIN - d);
}

int morris_egtb_probe(const void *pos, int *value)
{
    int v = probe_byte(pos);
    if (v < 0)
        return 0;
    *value = byte_value(v);
    return 1;
}

int morris_egtb_eval(const Pos *p, int *score)
{
    int v = probe_byte(p);
    if (v < 0)
        return 0;
    int d = v ? entry_plies(v) : 0;
    if (d > EG_EVAL_MAXD) /* kept above every heuristic score, the parity kept */
        d = EG_EVAL_MAXD - 1 + d % 2;
    *score = v == 0 ? 0 : d % 2 ? MORRIS_EGTB_SCORE - d : -(MORRIS_EGTB_SCORE - d);
    return 1;
}

/* Entry i of table (m, o) of the file index from the in-memory table. */
static int memory_entry(void *ctx, uint64_t i)
{
    const int *mo = ctx;
    uint32_t x, y;
    tb_unindex(mo[0], mo[1], i, &x, &y);
    return sets[mo[2]][mo[3]].val[mo[0]][mo[1]][eg_index(x, y)];
}

/* The tables built in memory that no file holds, written into the first
 * writable directory of TablePath for the next start. */
void morris_egtb_save(int d, int f)
{
    char dir[4096], why[256];
    EgSet *S = &sets[d][f];
    int r = atomic_load(&S->ready);
    if (!r || tb_writable_dir(dir, sizeof dir) != 0)
        return;
    for (int m = EG_MIN; m <= EG_MAX; m++)
        for (int o = EG_MIN; o <= EG_MAX; o++) {
            int mo[4] = {m, o, d, f};
            if (!eg_holds(r, m, o) || tb_have(d, f, m, o))
                continue;
            if (tb_write(dir, d, f, m, o, TB_ENC_DTM8, memory_entry, mo, why, sizeof why) != 0) {
                notice("morris tables: %s", why);
                return;
            }
        }
}

static void *background(void *arg)
{
    EgSet *S = arg;
#ifdef __linux__
    /* The lowest priority: the build must not slow the searches down. */
    (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
#endif
    int d = (int)(S - &sets[0][0]) / 2, f = (int)(S - &sets[0][0]) % 2;
    if (morris_egtb_build(d, f, EG_MAX, NULL, NULL) == 0)
        morris_egtb_save(d, f);
    return NULL;
}

/* Whether files hold every table that the build in memory makes. */
static int files_hold_small(int d, int f)
{
    for (int m = EG_MIN; m <= EG_MAX; m++)
        for (int o = EG_MIN; o <= EG_MAX; o++)
            if (eg_holds(EG_MAX, m, o) && !tb_have(d, f, m, o))
                return 0;
    return 1;
}

/* The table files of pos's rules are mapped (once per TablePath setting).
 * In or near the tables (moving phase, at most 6 pieces a side) when the
 * files lack the small tables: build them in a background thread, once,
 * so that they are there when the game gets in, and write them to
 * TablePath for the next start; meanwhile everything goes on without
 * them.  (A build on the spot would hold a timed search up for the whole
 * build.)  The engine calls it (GameSolver.prepare) at isready and before
 * each search or solve; morris_solve never starts it. */
void morris_prepare(const void *vp)
{
    const Pos *p = vp;
    tb_open(p->diag, p->flying);
    EgSet *S = &sets[p->diag][p->flying];
    if ((p->hand[0] | p->hand[1]) || popcnt(p->bb[0]) > 6 || popcnt(p->bb[1]) > 6 ||
        atomic_load(&S->ready) >= EG_MAX || S->failed || atomic_load(&S->started) ||
        files_hold_small(p->diag, p->flying) || atomic_exchange(&S->started, 1))
        return;
    pthread_t th;
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&th, &at, background, S) != 0)
        atomic_store(&S->started, 0);
    pthread_attr_destroy(&at);
}

/* Whether the tables (files or memory) hold T(m, o) of option set (d, f). */
static int holds(int d, int f, int m, int o)
{
    return tb_have(d, f, m, o) || eg_holds(atomic_load(&sets[d][f].ready), m, o);
}

/* The value of child c of a position, seen from the side that moved. */
static int child_value(const Pos *c)
{
    if (material(c, c->stm) < EG_MIN || !morris_has_move(c))
        return VALUE_WIN - 1;
    int b = probe_byte(c);
    if (b < 0)
        return -VALUE_WIN - 2; /* a file refused while solving: no value */
    int v = byte_value(b);
    return v > 0 ? -(v - 1) : v < 0 ? -(v + 1) : 0;
}

int morris_solve(const void *vp, int *value, Move *best)
{
    const Pos *p = vp;
    int m = popcnt(p->bb[p->stm]), o = popcnt(p->bb[p->stm ^ 1]);
    /* The children: T(o, m) and, after a capture, T(o - 1, m) or the end. */
    int d = p->diag, f = p->flying;
    if ((p->hand[0] | p->hand[1]) || !holds(d, f, m, o) || !holds(d, f, o, m) ||
        (o > EG_MIN && !holds(d, f, o - 1, m))) {
        return 0;
    }
    Move mv[MORRIS_MAX_MOVES];
    int n = morris_gen(p, mv), bv = -(VALUE_WIN + 1);
    *best = MOVE_NONE;
    for (int i = 0; i < n; i++) {
        Pos c = *p;
        apply(&c, mv[i]);
        int v = child_value(&c);
        if (v < -VALUE_WIN - 1)
            return 0;
        if (v > bv) {
            bv = v;
            *best = mv[i];
        }
    }
    *value = n ? bv : -VALUE_WIN;
    return 1;
}
