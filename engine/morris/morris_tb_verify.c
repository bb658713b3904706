/*
 * morris_tb_verify.c -- `morelli tables verify` (docs/tables.md, "Checking
 * the files"): for each file, its header; every block's checksum (version
 * 1: the whole payload's) recomputed by reading the file in pieces of a
 * few MB; what it holds (positions won, drawn and lost for the side to
 * move, the longest distances); and sampled entries against the values of
 * their children, found by the game's move generator and read from the
 * files of the same directory.
 *
 * Entries and positions: entry i of class (m, o) is a position up to the
 * board's symmetries when tb_index(tb_unindex(i)) == i.  The others are
 * the non-smallest images of y under the symmetries that keep a
 * symmetric mover set (morris_tb.c), never read by a probe (the builder
 * writes them the value of their position); and in encoding 2 the bits
 * past the last entry pad the last byte.  Neither counts as a position.
 */
#include "morris_tb.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "morris_internal.h"

#define VBUF (4u << 20)   /* bytes read at a time: 64 blocks of 64 KiB */
#define BIG (64ull << 20) /* progress lines for payloads over this */
#define SHOW_BAD 5        /* positions shown of those that disagree */
#define NVAL 65536        /* entry values: 0..65535 (see morris_tb.h) */

typedef struct Reader { /* a table file read entry by entry */
    int state;          /* 0 not tried, 1 open, -1 missing, -2 refused */
    int fd;
    const uint8_t *map; /* the whole file (--samples all), else NULL: pread */
    size_t len;
    TbHeader h;
    char why[300];
} Reader;

typedef struct Verify {
    uint64_t samples, seed;
    int all, quiet;
    char dir[4096];
    Reader r[TB_MAX + 1][TB_MAX + 1]; /* the classes of the file's option set */
} Verify;

static const char *tf(int b)
{
    return b ? "true" : "false";
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s && s[1] ? s + 1 : path;
}

/* Opens file as a reader of class (m, o) of (d, f): r->state 1, or -1
 * (missing) / -2 with the reason in r->why.  map: the file mapped (every
 * entry to read: resident up to its size), else read entry by entry. */
static void reader_open(Reader *r, const char *file, int d, int f, int m, int o, int map)
{
    uint8_t head[TB_HEADER_BYTES];
    struct stat st;
    char why[200];
    r->map = NULL;
    r->fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (r->fd < 0) {
        r->state = errno == ENOENT ? -1 : -2;
        snprintf(r->why, sizeof r->why, "%s %s", base_name(file),
                 errno == ENOENT ? "missing" : strerror(errno));
        return;
    }
    ssize_t got = fstat(r->fd, &st) == 0 ? pread(r->fd, head, sizeof head, 0) : -1;
    if (got < 0 ||
        tb_header_parse(head, (size_t)got, (uint64_t)st.st_size, &r->h, why, sizeof why) != 0) {
        snprintf(r->why, sizeof r->why, "%s refused: %s", base_name(file),
                 got < 0 ? strerror(errno) : why);
    } else if (r->h.diagonals != d || r->h.flying != f || r->h.mover != m || r->h.opp != o) {
        snprintf(r->why, sizeof r->why, "%s refused: holds %dv%d of Diagonals=%s Flying=%s",
                 base_name(file), r->h.mover, r->h.opp, tf(r->h.diagonals), tf(r->h.flying));
    } else {
        r->state = 1;
        r->len = (size_t)st.st_size;
        if (map) {
            void *p = mmap(NULL, r->len, PROT_READ, MAP_SHARED, r->fd, 0);
            r->map = p == MAP_FAILED ? NULL : p;
        }
        if (!r->map) /* entries here and there: no read-ahead */
            (void)posix_fadvise(r->fd, 0, 0, POSIX_FADV_RANDOM);
        return;
    }
    r->state = -2;
    close(r->fd);
}

static void reader_close(Reader *r)
{
    if (r->state == 1) {
        if (r->map)
            munmap((void *)r->map, r->len);
        close(r->fd);
    }
    r->state = 0;
}

/* The value of entry i of an open reader; -1 encoding 2's value 3, -2 a
 * read that failed. */
static int reader_get(const Reader *r, uint64_t i)
{
    int enc = r->h.encoding;
    if (r->map)
        return tb_decode(enc, r->map + r->h.payload_at, i);
    uint8_t b[2];
    uint64_t at = enc == TB_ENC_DTM8 ? i : enc == TB_ENC_WDL2 ? i >> 2 : 2 * i;
    size_t n = enc == TB_ENC_DTM16 ? 2 : 1;
    if (pread(r->fd, b, n, (off_t)(r->h.payload_at + at)) != (ssize_t)n)
        return -2;
    return tb_decode(enc, b, enc == TB_ENC_WDL2 ? i & 3 : 0);
}

/* --- the values of the children ---------------------------------------- */

/* A value for the side to move: wdl 1 won, 0 drawn, -1 lost; plies the
 * distance, -1 when not stored; wdl 2: no value (encoding 2's value 3). */
typedef struct Val {
    int wdl, plies;
} Val;

static Val entry_val(int v)
{
    if (v < 0)
        return (Val){2, -1};
    if (v == 0)
        return (Val){0, 0};
    if (v == TB_WIN_FAR || v == TB_LOSS_FAR)
        return (Val){v == TB_WIN_FAR ? 1 : -1, -1};
    return (Val){(v - 1) % 2 ? 1 : -1, v - 1};
}

static void val_text(Val v, char *buf, size_t len)
{
    if (v.wdl == 2)
        snprintf(buf, len, "no value (encoding 2's unused 3, or a read error)");
    else if (v.wdl == 0)
        snprintf(buf, len, "drawn");
    else if (v.plies < 0)
        snprintf(buf, len, "%s (no distance)", v.wdl > 0 ? "won" : "lost");
    else
        snprintf(buf, len, "%s in %d pl%s", v.wdl > 0 ? "won" : "lost", v.plies,
                 v.plies == 1 ? "y" : "ies");
}

/* The position (x to move, y the other side) of v's option set into p. */
static void set_pos(int d, int f, uint32_t x, uint32_t y, Pos *p)
{
    GameOptions o;
    char err[128];
    game_options_default(&o);
    morris_opts(&o)->pieces = 9;
    morris_opts(&o)->diagonals = d;
    morris_opts(&o)->flying = f;
    morris_opts(&o)->move_rule = 0;
    (void)morris_init(p, &o, err, sizeof err);
    p->bb[SIDE_P1] = x;
    p->bb[SIDE_P2] = y;
    p->hand[0] = p->hand[1] = 0;
    p->stm = SIDE_P1;
    p->rev = 0;
    p->fresh = 0;
    p->key = morris_key_compute(p);
}

/* The value of position p as its children say: 0, or 1 when a child's
 * class has no usable file (its reason in v's reader). */
static int from_children(Verify *v, const Pos *p, Val *out, const Reader **missing)
{
    const Game *g = &game_morris;
    Move mv[MORRIS_MAX_MOVES];
    unsigned char undo[POS_MAX_BYTES];
    int n = g->gen_moves(p, mv), win = 0, win_far = 0, draw = 0, loss_far = 0;
    int win_min = 1 << 30, loss_max = 0;
    if (n == 0) { /* no move: lost now */
        *out = (Val){-1, 0};
        return 0;
    }
    for (int k = 0; k < n; k++) {
        Pos c = *p;
        g->make(&c, mv[k], undo);
        int r = g->result(&c);
        Val cv; /* the child's value for its side to move */
        if (r == RESULT_P1_WIN || r == RESULT_P2_WIN) {
            cv = (Val){r == RESULT_P1_WIN ? -1 : 1, 0};
        } else if (r == RESULT_DRAW) {
            cv = (Val){0, 0};
        } else {
            int cm = popcnt(c.bb[c.stm]), co = popcnt(c.bb[c.stm ^ 1]);
            Reader *rd = &v->r[cm][co];
            if (rd->state == 0) {
                char name[64], file[4200];
                tb_file_name(p->diag, p->flying, cm, co, name, sizeof name);
                snprintf(file, sizeof file, "%s/%s", v->dir, name);
                reader_open(rd, file, p->diag, p->flying, cm, co, v->all);
            }
            if (rd->state != 1) {
                *missing = rd;
                return 1;
            }
            cv = entry_val(reader_get(rd, tb_index(c.bb[c.stm], c.bb[c.stm ^ 1])));
            if (cv.wdl == 2) { /* a child whose entry says nothing: the mover's unknown */
                *out = cv;
                return 0;
            }
        }
        if (cv.wdl < 0) { /* the child lost: the mover wins */
            win = 1;
            if (cv.plies < 0)
                win_far = 1;
            else if (cv.plies + 1 < win_min)
                win_min = cv.plies + 1;
        } else if (cv.wdl == 0) {
            draw = 1;
        } else if (cv.plies < 0) {
            loss_far = 1;
        } else if (cv.plies + 1 > loss_max) {
            loss_max = cv.plies + 1;
        }
    }
    if (win)
        *out = (Val){1, win_far ? -1 : win_min};
    else if (draw)
        *out = (Val){0, 0};
    else
        *out = (Val){-1, loss_far ? -1 : loss_max};
    return 0;
}

/* Whether the file's value agrees with the children's: the same outcome,
 * and the same distance where both are known. */
static int agree(Val file, Val kids)
{
    if (file.wdl == 2 || kids.wdl == 2 || file.wdl != kids.wdl)
        return 0;
    return file.wdl == 0 || file.plies < 0 || kids.plies < 0 || file.plies == kids.plies;
}

/* --- one file ---------------------------------------------------------- */

typedef struct Counts {
    uint64_t pos[NVAL], dup[NVAL]; /* positions, other entries, by value */
    uint64_t bad3;                 /* entries of encoding 2's value 3 */
} Counts;

static uint64_t binom(int n, int k)
{
    uint64_t r = 1;
    for (int i = 1; i <= k; i++)
        r = r * (uint64_t)(n - k + i) / (uint64_t)i;
    return r;
}

/* The symmetries (bits) keeping the mover set of class k of (m, o). */
static uint32_t class_stab(int m, int o, uint64_t k, uint64_t per)
{
    uint32_t x, y, st = 0;
    tb_unindex(m, o, k * per, &x, &y);
    for (int s = 1; s < TB_NSYM; s++)
        st |= (uint32_t)(tb_sym(s, x) == x) << s;
    return st;
}

/* Whether entry i (mover set kept by the symmetries st) is a position:
 * its y the smallest of its images under them. */
static int is_position(int m, int o, uint64_t i, uint32_t st)
{
    uint32_t x, y;
    tb_unindex(m, o, i, &x, &y);
    for (; st; st &= st - 1)
        if (tb_sym(__builtin_ctz(st), y) < y)
            return 0;
    return 1;
}

static void progress(const Verify *v, const char *name, const char *what, uint64_t done,
                     uint64_t all, int *last)
{
    int pc = all ? (int)(100 * done / all) : 100;
    if (v->quiet || pc / 10 == *last / 10)
        return;
    *last = pc;
    fprintf(stderr, "tables verify: %s: %s %d%%\n", name, what, pc);
}

/* Reads the whole payload of file fd (header h) in pieces: the checksums,
 * and the entries counted into c.  0, or -1 with the reason in why. */
static int stream(const Verify *v, int fd, const TbHeader *h, const char *name, Counts *c,
                  char *why, size_t wl, uint32_t *bad_blocks)
{
    uint64_t n = h->entries, per = binom(NPTS - h->mover, h->opp);
    uint32_t nb = h->version >= 2 ? h->blocks : 0;
    uint8_t *buf = malloc(VBUF), *table = malloc(8ull * nb + 8);
    int rc = 0, last = 0, big = h->payload_bytes > BIG, first_bad = -1;
    if (!buf || !table) {
        snprintf(why, wl, "out of memory");
        free(buf), free(table);
        return -1;
    }
    if (nb && pread(fd, table, 8ull * nb, TB_HEADER_BYTES) != (ssize_t)(8ull * nb)) {
        snprintf(why, wl, "read error: %s", strerror(errno));
        free(buf), free(table);
        return -1;
    }
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    uint64_t sum = tb_checksum(NULL, 0), bsum = sum, i = 0, k = 0, class_end = 0;
    uint32_t st = 0;
    for (uint64_t at = 0; at < h->payload_bytes;) {
        size_t len = (size_t)(h->payload_bytes - at < VBUF ? h->payload_bytes - at : VBUF);
        ssize_t got = pread(fd, buf, len, (off_t)(h->payload_at + at));
        if (got != (ssize_t)len) {
            snprintf(why, wl, "read error at payload byte %llu: %s", (unsigned long long)at,
                     got < 0 ? strerror(errno) : "short read");
            rc = -1;
            break;
        }
        sum = tb_checksum_more(sum, buf, len);
        /* the blocks' checksums, a block running on over pieces when it
         * is larger than one (pieces and blocks are multiples of 8 bytes) */
        for (size_t b = 0; nb && b < len;) {
            uint64_t pos = at + b, bsize = (uint64_t)1 << h->block_log;
            uint64_t bend = (pos / bsize + 1) * bsize;
            bend = bend < h->payload_bytes ? bend : h->payload_bytes;
            size_t seg = (size_t)(bend - pos < len - b ? bend - pos : len - b);
            bsum = tb_checksum_more(bsum, buf + b, seg);
            b += seg;
            if (at + b < bend)
                continue; /* the block goes on in the next piece */
            uint32_t blk = (uint32_t)(pos / bsize);
            uint64_t want = 0;
            for (int q = 0; q < 8; q++)
                want |= (uint64_t)table[8ull * blk + q] << (8 * q);
            if (bsum != want) {
                if (first_bad < 0)
                    first_bad = (int)blk;
                (*bad_blocks)++;
            }
            bsum = tb_checksum(NULL, 0);
        }
        /* the entries of these bytes */
        uint64_t first = h->encoding == TB_ENC_DTM8   ? at
                         : h->encoding == TB_ENC_WDL2 ? at * 4
                                                      : at / 2;
        uint64_t end = h->encoding == TB_ENC_DTM8   ? at + len
                       : h->encoding == TB_ENC_WDL2 ? (at + len) * 4
                                                    : (at + len) / 2;
        end = end < n ? end : n;
        for (i = first; i < end; i++) {
            if (i >= class_end) {
                k = i / per;
                class_end = (k + 1) * per;
                st = class_stab(h->mover, h->opp, k, per);
            }
            int val = tb_decode(h->encoding, buf, i - first);
            if (val < 0) {
                c->bad3++;
                continue;
            }
            if (!st || is_position(h->mover, h->opp, i, st))
                c->pos[val]++;
            else
                c->dup[val]++;
        }
        at += len;
        if (big)
            progress(v, name, "read", at, h->payload_bytes, &last);
    }
    if (rc == 0 && first_bad >= 0) {
        snprintf(why, wl, "corrupt (checksum of block %d; %u of its %u blocks wrong)", first_bad,
                 *bad_blocks, nb);
        rc = -1;
    } else if (rc == 0 && sum != h->payload_sum) {
        snprintf(why, wl, "corrupt (checksum of the whole payload)");
        rc = -1;
    }
    free(buf);
    free(table);
    return rc;
}

static uint64_t next_rand(uint64_t *s) /* splitmix64 */
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Entries against their children: every position (v->all) or v->samples
 * drawn at random.  Appends its verdict to line; 0 agreed or skipped, -1
 * some disagree (the first SHOW_BAD printed after the line by the caller
 * from shown). */
static int samples(Verify *v, const TbHeader *h, const char *name, char *line, size_t ll,
                   char shown[SHOW_BAD][400], int *nshown)
{
    int m = h->mover, o = h->opp, last = 0;
    uint64_t n = h->entries, want = v->all ? n : v->samples, done = 0, bad = 0, rng = v->seed;
    const Reader *miss = NULL;
    size_t at = strlen(line);
    if (want == 0) {
        snprintf(line + at, ll - at, "; no positions checked against their children");
        return 0;
    }
    for (uint64_t s = 0; s < want; s++) {
        uint64_t i = s;
        uint32_t x, y;
        if (v->all) {
            tb_unindex(m, o, i, &x, &y);
            if (tb_index(x, y) != i)
                continue;
        } else { /* a position at random: drawn again while the entry is none */
            do {
                i = next_rand(&rng) % n;
                tb_unindex(m, o, i, &x, &y);
            } while (tb_index(x, y) != i);
        }
        Pos p;
        Val kids, file = entry_val(reader_get(&v->r[m][o], i));
        set_pos(h->diagonals, h->flying, x, y, &p);
        if (from_children(v, &p, &kids, &miss) != 0)
            break;
        done++;
        if (!agree(file, kids)) {
            if (bad < SHOW_BAD) {
                char fen[128], a[64], b[64];
                morris_to_fen(&p, fen, sizeof fen);
                val_text(file, a, sizeof a);
                val_text(kids, b, sizeof b);
                snprintf(shown[bad], 400, "  %s: entry %llu: the file says %s, the children %s",
                         fen, (unsigned long long)i, a, b);
            }
            bad++;
        }
        if (want >= 100000)
            progress(v, name, "children", s + 1, want, &last);
    }
    *nshown = bad < SHOW_BAD ? (int)bad : SHOW_BAD;
    if (bad)
        at += (size_t)snprintf(line + at, ll - at,
                               "; %llu of %llu positions disagree with their children",
                               (unsigned long long)bad, (unsigned long long)done);
    else if (!miss)
        snprintf(line + at, ll - at, "; %llu positions as their children say",
                 (unsigned long long)done);
    if (miss && at < ll)
        snprintf(line + at, ll - at, "; children not checked: %s", miss->why);
    return bad ? -1 : 0;
}

/* "120 won (longest 33 plies)" and the like, for values of wdl w. */
static size_t say_kind(const Counts *c, int enc, int w, char *buf, size_t len)
{
    uint64_t all = 0, far = 0;
    int longest = -1;
    for (int val = 0; val < NVAL; val++) {
        Val x = entry_val(val);
        if (x.wdl != w || !c->pos[val])
            continue;
        all += c->pos[val];
        if (x.plies < 0)
            far += c->pos[val];
        else if (x.plies > longest)
            longest = x.plies;
    }
    const char *word = w > 0 ? "won" : w < 0 ? "lost" : "drawn";
    if (w == 0 || enc == TB_ENC_WDL2 || !all)
        return (size_t)snprintf(buf, len, "%llu %s", (unsigned long long)all, word);
    if (!far)
        return (size_t)snprintf(buf, len, "%llu %s (longest %d pl%s)", (unsigned long long)all,
                                word, longest, longest == 1 ? "y" : "ies");
    if (longest < 0)
        return (size_t)snprintf(buf, len, "%llu %s (no distances)", (unsigned long long)all, word);
    return (size_t)snprintf(buf, len, "%llu %s (longest %d plies, %llu without a distance)",
                            (unsigned long long)all, word, longest, (unsigned long long)far);
}

/* Checks one file; its line (and the positions that disagree) on stdout.
 * 0 passed, 1 failed. */
static int verify_file(Verify *v, const char *path)
{
    const char *name = base_name(path);
    char why[300], line[1400];
    struct stat st;
    uint8_t head[TB_HEADER_BYTES];
    TbHeader h;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO must not block */
    if (fd < 0) {
        printf("%s: FAILED, %s\n", path, strerror(errno));
        return 1;
    }
    ssize_t got = fstat(fd, &st) != 0   ? -1
                  : S_ISREG(st.st_mode) ? pread(fd, head, sizeof head, 0)
                                        : 0;
    if (got < 0 || !S_ISREG(st.st_mode)) {
        printf("%s: FAILED, %s\n", path, got < 0 ? strerror(errno) : "not a regular file");
        close(fd);
        return 1;
    }
    if (tb_header_parse(head, (size_t)got, (uint64_t)st.st_size, &h, why, sizeof why) != 0) {
        printf("%s: FAILED, %s\n", path, why);
        close(fd);
        return 1;
    }
    int n = snprintf(line, sizeof line, "%dv%d Diagonals=%s Flying=%s", h.mover, h.opp,
                     tf(h.diagonals), tf(h.flying));
    Counts *c = calloc(1, sizeof *c);
    uint32_t bad_blocks = 0;
    if (!c || stream(v, fd, &h, name, c, why, sizeof why, &bad_blocks) != 0) {
        printf("%s: FAILED, %dv%d Diagonals=%s Flying=%s: %s\n", name, h.mover, h.opp,
               tf(h.diagonals), tf(h.flying), c ? why : "out of memory");
        free(c);
        close(fd);
        return 1;
    }
    close(fd);
    uint64_t pos = 0, longest = 0;
    for (int val = 0; val < NVAL; val++) {
        pos += c->pos[val];
        Val x = entry_val(val);
        if ((c->pos[val] || c->dup[val]) && x.plies > (int)longest)
            longest = (uint64_t)x.plies;
    }
    n += snprintf(line + n, sizeof line - (size_t)n,
                  ", %llu entries, %llu positions: ", (unsigned long long)h.entries,
                  (unsigned long long)pos);
    for (int w = 1; w >= -1; w--) {
        n += (int)say_kind(c, h.encoding, w, line + n, sizeof line - (size_t)n);
        n += snprintf(line + n, sizeof line - (size_t)n, "%s", w > -1 ? ", " : "");
    }
    if (h.encoding == TB_ENC_WDL2)
        n += snprintf(line + n, sizeof line - (size_t)n, " (no distances)");
    if (h.version >= 2)
        n += snprintf(line + n, sizeof line - (size_t)n, "; %u block%s ok", h.blocks,
                      h.blocks == 1 ? "" : "s");
    else
        n += snprintf(line + n, sizeof line - (size_t)n, "; payload ok (format version 1)");
    int failed = 0;
    if (c->bad3) {
        n += snprintf(line + n, sizeof line - (size_t)n, "; %llu entries hold the unused value 3",
                      (unsigned long long)c->bad3);
        failed = 1;
    }
    if (h.encoding != TB_ENC_WDL2 && longest != h.longest) {
        n += snprintf(line + n, sizeof line - (size_t)n,
                      "; the header says longest %u plies, the entries %llu", h.longest,
                      (unsigned long long)longest);
        failed = 1;
    }
    free(c);
    static char shown[SHOW_BAD][400];
    int nshown = 0;
    if (!failed) {
        Reader *own = &v->r[h.mover][h.opp];
        const char *slash = strrchr(path, '/');
        if (!slash)
            snprintf(v->dir, sizeof v->dir, ".");
        else
            snprintf(v->dir, sizeof v->dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
        reader_open(own, path, h.diagonals, h.flying, h.mover, h.opp, v->all);
        if (own->state != 1) {
            n += snprintf(line + n, sizeof line - (size_t)n, "; %s", own->why);
            failed = 1;
        } else if (samples(v, &h, name, line, sizeof line, shown, &nshown) != 0) {
            failed = 1;
        }
        for (int m = TB_MIN; m <= TB_MAX; m++)
            for (int o = TB_MIN; o <= TB_MAX; o++)
                reader_close(&v->r[m][o]);
    }
    printf("%s: %s, %s\n", name, failed ? "FAILED" : "ok", line);
    for (int k = 0; k < nshown; k++)
        printf("%s\n", shown[k]);
    fflush(stdout);
    return failed;
}

/* --- the command ------------------------------------------------------- */

typedef struct Named {
    char *path;
    int total, m, o;
} Named;

static int named_cmp(const void *a, const void *b)
{
    const Named *x = a, *y = b;
    if (x->total != y->total)
        return x->total - y->total;
    if (x->m != y->m)
        return x->m - y->m;
    if (x->o != y->o)
        return x->o - y->o;
    return strcmp(x->path, y->path);
}

/* Every .mtb file of dir, smaller classes first; -1 when none or dir
 * cannot be read (said). */
static int verify_dir(Verify *v, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        printf("%s: FAILED, %s\n", dir, strerror(errno));
        return 1;
    }
    Named *list = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 5 || e->d_name[0] == '.' || strcmp(e->d_name + len - 4, ".mtb") != 0)
            continue;
        if (n == cap) {
            Named *grown = realloc(list, (cap = cap ? 2 * cap : 64) * sizeof *list);
            if (!grown)
                break;
            list = grown;
        }
        Named *x = &list[n];
        size_t plen = strlen(dir) + len + 2;
        if (!(x->path = malloc(plen)))
            break;
        snprintf(x->path, plen, "%s/%s", dir, e->d_name);
        const char *v_at = strrchr(e->d_name, 'v');
        x->m = x->o = 99;
        if (v_at && v_at > e->d_name && v_at[-1] >= '0' && v_at[-1] <= '9')
            x->m = v_at[-1] - '0', x->o = atoi(v_at + 1);
        x->total = x->m + x->o;
        n++;
    }
    closedir(d);
    if (n == 0) {
        printf("%s: FAILED, no .mtb files\n", dir);
        rc = 1;
    }
    qsort(list, n, sizeof *list, named_cmp);
    for (size_t k = 0; k < n; k++) {
        rc |= verify_file(v, list[k].path);
        free(list[k].path);
    }
    free(list);
    return rc;
}

int tb_verify_command(int argc, char **argv)
{
    static Verify v;
    memset(&v, 0, sizeof v);
    v.samples = 10000;
    v.seed = 1;
    int files = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        char *end;
        if (strcmp(a, "--quiet") == 0) {
            v.quiet = 1;
        } else if (strcmp(a, "--samples") == 0 && val) {
            v.all = strcmp(val, "all") == 0;
            v.samples = v.all ? 0 : strtoull(val, &end, 10);
            if (!v.all && (!*val || *end || *val == '-'))
                return -1;
            i++;
        } else if (strcmp(a, "--seed") == 0 && val) {
            v.seed = strtoull(val, &end, 10);
            if (!*val || *end || *val == '-')
                return -1;
            i++;
        } else if (a[0] == '-' && a[1]) {
            return -1;
        } else {
            files++;
        }
    }
    if (!files)
        return -1;
    int rc = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--quiet") == 0)
            continue;
        if (strcmp(argv[i], "--samples") == 0 || strcmp(argv[i], "--seed") == 0) {
            i++;
            continue;
        }
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
            rc |= verify_dir(&v, argv[i]);
        else
            rc |= verify_file(&v, argv[i]);
    }
    return rc ? 1 : 0;
}
