/*
 * morris_tb.c -- the board's symmetries, the index of a position up to
 * them, and the format of the table files (docs/tables.md).
 *
 * Symmetry.  The 24 points sit on a 7x7 grid (file a..g, rank 1..7) around
 * the centre d4, each on one of three squares (ring 1 inner, 2 middle, 3
 * outer).  The 8 symmetries of a square (rotations by a quarter turn, and
 * each of them after a mirror image) map every square onto itself; swapping
 * the inner and outer squares (a point at (dx, dy) from the centre on ring r
 * goes to (dx, dy) * (4 - r) / r) doubles them to 16.  All 16 map the lines
 * of both boards (with and without diagonals) onto lines and the
 * neighbours onto neighbours: tb_sym_check() verifies it.
 *
 * Index of table (m, o): the mover's m-sets fall into classes under the 16
 * symmetries; a class is numbered in the order of its smallest set (as a
 * number), its representative.  cls_of[m][set_colex(x)] is x's class.  The
 * index of (x, y) is class(x) * C(24 - m, o) + the colex rank of g(y) among
 * the points g(x) leaves free, where g maps x to its representative; when
 * several do (a symmetric x), the one giving the smallest g(y).  So every
 * image of a position reads the same entry; entries whose y is not that
 * smallest image are never read (the builder writes them all the same).
 */
#include "morris_tb.h"

#include <pthread.h>
#include <stdatomic.h>
#ifdef __BMI2__
#include <immintrin.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "morris_internal.h"
#include "morris_sets.h"

static const char point_names[] = "a1d1g1b2d2f2c3d3e3a4b4c4e4f4g4c5d5e5b6d6f6a7d7g7";

static uint32_t symb[TB_NSYM][3][256];
/* colex ranks by bytes: crank[j][c][b], byte j's points b after c points
 * below them, for sets of at most TB_MAX points */
static uint32_t crank[3][TB_MAX + 1][256];
static int sym_pt[TB_NSYM][NPTS];
static pthread_once_t sym_once = PTHREAD_ONCE_INIT;

uint64_t morris_binom[NPTS + 1][NPTS + 1];
static pthread_once_t binom_once = PTHREAD_ONCE_INIT;

static void binom_init(void)
{
    for (int n = 0; n <= NPTS; n++)
        for (int k = 0; k <= NPTS; k++)
            morris_binom[n][k] = k == 0   ? 1
                                 : n == 0 ? 0
                                          : morris_binom[n - 1][k - 1] + morris_binom[n - 1][k];
}

void morris_sets_init(void)
{
    pthread_once(&binom_once, binom_init);
}

static int point_at(int x, int y)
{
    for (int p = 0; p < NPTS; p++)
        if (point_names[2 * p] - 'a' == x && point_names[2 * p + 1] - '1' == y)
            return p;
    return -1;
}

static void sym_init(void)
{
    morris_sets_init();
    for (int s = 0; s < TB_NSYM; s++) {
        for (int p = 0; p < NPTS; p++) {
            int dx = point_names[2 * p] - 'a' - 3, dy = point_names[2 * p + 1] - '1' - 3;
            if (s & 8) { /* inner and outer squares swapped */
                int r = abs(dx) > abs(dy) ? abs(dx) : abs(dy);
                dx = dx / r * (4 - r);
                dy = dy / r * (4 - r);
            }
            if (s & 4)
                dx = -dx;
            for (int q = 0; q < (s & 3); q++) {
                int t = dx;
                dx = -dy;
                dy = t;
            }
            sym_pt[s][p] = point_at(dx + 3, dy + 3);
        }
        for (int byte = 0; byte < 3 && s == 0; byte++)
            for (int c = 0; c <= TB_MAX; c++)
                for (int b = 0; b < 256; b++) {
                    uint32_t r = 0;
                    for (int i = 0, t = c + 1; i < 8; i++)
                        if (b >> i & 1)
                            r += t <= NPTS ? (uint32_t)morris_binom[8 * byte + i][t++] : 0;
                    crank[byte][c][b] = r;
                }
        for (int byte = 0; byte < 3; byte++)
            for (int b = 0; b < 256; b++) {
                uint32_t v = 0;
                for (int i = 0; i < 8; i++)
                    if (b >> i & 1)
                        v |= 1u << sym_pt[s][8 * byte + i];
                symb[s][byte][b] = v;
            }
    }
}

static inline void sym_ready(void)
{
    pthread_once(&sym_once, sym_init);
}

uint32_t tb_sym(int s, uint32_t x)
{
    sym_ready();
    return symb[s][0][x & 255] | symb[s][1][(x >> 8) & 255] | symb[s][2][(x >> 16) & 255];
}

static inline uint32_t symf(int s, uint32_t x)
{
    return symb[s][0][x & 255] | symb[s][1][(x >> 8) & 255] | symb[s][2][(x >> 16) & 255];
}

/* Whether every symmetry maps each board's lines onto lines and the
 * neighbours onto neighbours: 1 or 0. */
int tb_sym_check(void)
{
    sym_ready();
    morris_ensure_tables();
    for (int s = 0; s < TB_NSYM; s++) {
        if (tb_sym(s, ALL_PTS) != ALL_PTS)
            return 0;
        for (int d = 0; d < 2; d++) {
            const Tables *t = &morris_tabs[d];
            for (int l = 0; l < t->nlines; l++) {
                uint32_t img = tb_sym(s, t->line[l]);
                int found = 0;
                for (int k = 0; k < t->nlines; k++)
                    found |= t->line[k] == img;
                if (!found)
                    return 0;
            }
            for (int p = 0; p < NPTS; p++)
                if (tb_sym(s, t->adj[p]) != t->adj[sym_pt[s][p]])
                    return 0;
        }
    }
    return 1;
}

/* --- classes of mover sets ------------------------------------------- */

typedef struct Classes {
    _Atomic int ready;
    uint32_t n;     /* classes */
    uint32_t *of;   /* colex rank -> class << 4 | a symmetry taking x to its representative */
    uint32_t *rep;  /* class -> representative (smallest image) */
    uint16_t *stab; /* class -> the symmetries keeping the representative (bit s) */
} Classes;

static Classes cls[TB_MAX + 1];
static pthread_mutex_t cls_lock = PTHREAD_MUTEX_INITIALIZER;

static const Classes *classes(int m)
{
    Classes *c = &cls[m];
    if (atomic_load_explicit(&c->ready, memory_order_acquire))
        return c;
    sym_ready();
    pthread_mutex_lock(&cls_lock);
    if (!atomic_load(&c->ready)) {
        uint32_t total = (uint32_t)morris_binom[NPTS][m];
        c->of = malloc(total * sizeof *c->of);
        c->rep = malloc(total * sizeof *c->rep);
        if (!c->of || !c->rep) {
            fprintf(stderr, "morris tables: out of memory\n");
            abort();
        }
        c->stab = malloc(total * sizeof *c->stab);
        if (!c->stab) {
            fprintf(stderr, "morris tables: out of memory\n");
            abort();
        }
        uint32_t n = 0, r = 0;
        for (uint32_t x = (1u << m) - 1; x <= ALL_PTS; x = set_next(x), r++) {
            uint32_t best = x;
            int g = 0;
            for (int s = 1; s < TB_NSYM; s++) {
                uint32_t v = symf(s, x);
                if (v < best)
                    best = v, g = s;
            }
            if (best == x) {
                uint16_t st = 0;
                for (int s = 0; s < TB_NSYM; s++)
                    st |= (uint16_t)((symf(s, x) == x) << s);
                c->rep[n] = x;
                c->stab[n] = st;
                c->of[r] = n++ << 4;
            } else {
                c->of[r] = (c->of[set_colex(best)] & ~15u) | (uint32_t)g;
            }
        }
        c->n = n;
        uint32_t *shrunk = realloc(c->rep, (n ? n : 1) * sizeof *c->rep);
        c->rep = shrunk ? shrunk : c->rep;
        uint16_t *st2 = realloc(c->stab, (n ? n : 1) * sizeof *c->stab);
        c->stab = st2 ? st2 : c->stab;
        atomic_store_explicit(&c->ready, 1, memory_order_release);
    }
    pthread_mutex_unlock(&cls_lock);
    return c;
}

uint64_t tb_entries(int m, int o)
{
    if (m < 1 || m > TB_MAX || o < 0 || m + o > NPTS)
        return 0;
    return classes(m)->n * morris_binom[NPTS - m][o];
}

/* The colex rank of a set of at most TB_MAX points. */
static inline uint32_t colex(uint32_t s)
{
    int c0 = popcnt(s & 255), c1 = c0 + popcnt(s & 0xFF00);
    return crank[0][0][s & 255] + crank[1][c0][(s >> 8) & 255] + crank[2][c1][s >> 16];
}

uint64_t tb_index(uint32_t x, uint32_t y)
{
    int m = popcnt(x), o = popcnt(y);
    const Classes *c = classes(m);
    uint32_t e = c->of[colex(x)], k = e >> 4, cx = c->rep[k], by = symf((int)(e & 15), y);
    uint16_t st = c->stab[k];
    if (st != 1) /* a symmetric representative: the smallest image of y under its symmetries */
        for (uint32_t yy = by; st &= st - 1;) {
            uint32_t v = symf(__builtin_ctz(st), yy);
            by = v < by ? v : by;
        }
        /* The colex rank of by among the points cx leaves free. */
#ifdef __BMI2__
    uint64_t r = colex(_pext_u32(by, ALL_PTS & ~cx));
#else
    uint64_t r = 0;
    for (int i = 1; by; by &= by - 1, i++) {
        int q = lsb(by);
        r += morris_binom[q - popcnt(cx & ((1u << q) - 1))][i];
    }
#endif
    return k * morris_binom[NPTS - m][o] + r;
}

void tb_unindex(int m, int o, uint64_t i, uint32_t *x, uint32_t *y)
{
    const Classes *c = classes(m);
    uint64_t cy = morris_binom[NPTS - m][o];
    *x = c->rep[i / cy];
#ifdef __BMI2__
    *y = _pdep_u32(set_unrank(i % cy, o, NPTS - m), ALL_PTS & ~*x);
#else
    *y = set_spread(set_unrank(i % cy, o, NPTS - m), *x);
#endif
}

/* --- format ----------------------------------------------------------- */

#define SUM_BASIS 0xcbf29ce484222325ull
#define SUM_PRIME 0x100000001b3ull

uint64_t tb_checksum(const void *data, size_t n)
{
    return tb_checksum_more(SUM_BASIS, data, n);
}

uint64_t tb_checksum_more(uint64_t h, const void *data, size_t n)
{
    const uint8_t *p = data;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8); /* the formats' byte order: little-endian hosts */
        h = (h ^ w) * SUM_PRIME;
        h ^= h >> 29;
    }
    if (i < n) {
        uint64_t w = 0;
        for (size_t j = 0; i + j < n; j++)
            w |= (uint64_t)p[i + j] << (8 * j);
        h = (h ^ w) * SUM_PRIME;
        h ^= h >> 29;
    }
    return h;
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t get32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v |= (uint32_t)p[i] << (8 * i);
    return v;
}
static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

void tb_header_write(const TbHeader *h, uint8_t out[TB_HEADER_BYTES])
{
    memset(out, 0, TB_HEADER_BYTES);
    memcpy(out, TB_MAGIC, 8);
    put32(out + 8, h->version);
    put32(out + 12, TB_HEADER_BYTES);
    out[16] = (uint8_t)h->diagonals;
    out[17] = (uint8_t)h->flying;
    out[18] = (uint8_t)h->mover;
    out[19] = (uint8_t)h->opp;
    out[20] = 0; /* pieces in hand */
    out[21] = (uint8_t)h->scheme;
    out[22] = (uint8_t)h->encoding;
    out[23] = (uint8_t)(h->version >= 2 ? h->block_log : 0);
    put64(out + 24, h->entries);
    put64(out + 32, h->payload_bytes);
    put64(out + 40, h->payload_sum);
    put32(out + 48, h->longest);
    put32(out + 52, h->version >= 2 ? h->blocks : 0);
    put64(out + 56, tb_checksum(out, 56));
}

uint64_t tb_payload_bytes(int encoding, uint64_t entries)
{
    return encoding == TB_ENC_WDL2    ? (entries + 3) / 4
           : encoding == TB_ENC_DTM16 ? 2 * entries
                                      : entries;
}

uint64_t tb_file_bytes(int encoding, uint64_t entries)
{
    uint64_t pl = tb_payload_bytes(encoding, entries);
    return TB_HEADER_BYTES + 8 * ((pl + (1ull << TB_BLOCK_LOG) - 1) >> TB_BLOCK_LOG) + pl;
}

int tb_header_parse(const uint8_t *buf, size_t len, uint64_t file_bytes, TbHeader *h, char *why,
                    size_t whylen)
{
    memset(h, 0, sizeof *h);
    if (len < TB_HEADER_BYTES || file_bytes < TB_HEADER_BYTES) {
        snprintf(why, whylen, "truncated header");
        return -1;
    }
    if (memcmp(buf, TB_MAGIC, 8) != 0) {
        snprintf(why, whylen, "not a Morris table file");
        return -1;
    }
    h->version = get32(buf + 8);
    if (h->version < 1 || h->version > TB_VERSION) {
        snprintf(why, whylen, "format version %u, this engine reads 1 and %d", h->version,
                 TB_VERSION);
        return -1;
    }
    if (get32(buf + 12) != TB_HEADER_BYTES || get64(buf + 56) != tb_checksum(buf, 56)) {
        snprintf(why, whylen, "corrupt header (checksum)");
        return -1;
    }
    h->diagonals = buf[16];
    h->flying = buf[17];
    h->mover = buf[18];
    h->opp = buf[19];
    h->scheme = buf[21];
    h->encoding = buf[22];
    h->entries = get64(buf + 24);
    h->payload_bytes = get64(buf + 32);
    h->payload_sum = get64(buf + 40);
    h->longest = get32(buf + 48);
    h->block_log = buf[23];
    h->blocks = get32(buf + 52);
    int v2 = h->version >= 2;
    if (h->diagonals > 1 || h->flying > 1 || h->mover < TB_MIN || h->mover > TB_MAX ||
        h->opp < TB_MIN || h->opp > TB_MAX || buf[20] != 0 ||
        (v2 ? h->block_log < 12 || h->block_log > 30 : h->block_log || h->blocks)) {
        snprintf(why, whylen, "header names no table of this format");
        return -1;
    }
    if (h->scheme != TB_SCHEME_SYM16) {
        snprintf(why, whylen, "unknown index scheme %d", h->scheme);
        return -1;
    }
    if (h->encoding != TB_ENC_DTM8 && h->encoding != TB_ENC_WDL2 &&
        !(v2 && h->encoding == TB_ENC_DTM16)) {
        snprintf(why, whylen, "unknown entry encoding %d", h->encoding);
        return -1;
    }
    if (h->entries != tb_entries(h->mover, h->opp) ||
        h->payload_bytes != tb_payload_bytes(h->encoding, h->entries)) {
        snprintf(why, whylen, "wrong entry count for %dv%d", h->mover, h->opp);
        return -1;
    }
    if (v2 && h->blocks != (h->payload_bytes + (1ull << h->block_log) - 1) >> h->block_log) {
        snprintf(why, whylen, "wrong block count %u", h->blocks);
        return -1;
    }
    h->payload_at = TB_HEADER_BYTES + 8ull * h->blocks;
    if (file_bytes != h->payload_at + h->payload_bytes) {
        snprintf(why, whylen, "%s: %llu bytes, the header says %llu",
                 file_bytes < h->payload_at + h->payload_bytes ? "truncated" : "too long",
                 (unsigned long long)file_bytes,
                 (unsigned long long)(h->payload_at + h->payload_bytes));
        return -1;
    }
    return 0;
}

void tb_file_name(int diagonals, int flying, int m, int o, char *buf, size_t len)
{
    snprintf(buf, len, "morris-%s-%s-%dv%d.mtb", diagonals ? "diag" : "plain",
             flying ? "fly" : "nofly", m, o);
}
