/*
 * morris_tb_files.c -- the table files on TablePath (docs/tables.md):
 * found and mapped read-only per option set, checked (the header at once,
 * each block of the payload when a probe first reaches it), probed; and
 * written atomically (a temporary file, fsync, rename).
 */
#include "morris_tb.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifndef __wasi__
#include <sys/mman.h>
#endif

#include "morris_internal.h"
#include "notice.h"

#define PATH_MAX_LEN 4096

typedef struct TbFile {
    _Atomic int state; /* 0 none, 1 mapped (its blocks checked as they are used), -1 refused */
    const uint8_t *map;
    size_t len;
    const uint8_t *payload; /* in map */
    uint64_t payload_bytes, sum;
    int encoding, shift; /* block of a payload offset: offset >> shift */
    uint32_t blocks;
    const uint8_t *sums;      /* version 2: the block table (in map); version 1: NULL, one block */
    _Atomic uint8_t *checked; /* per block: 1 once its checksum was found right */
    char name[PATH_MAX_LEN];
} TbFile;

static TbFile files[2][2][TB_MAX + 1][TB_MAX + 1];
static int opened_gen[2][2] = {{-1, -1}, {-1, -1}};
static pthread_mutex_t files_lock = PTHREAD_MUTEX_INITIALIZER;
static char path_text[PATH_MAX_LEN];
static int path_auto = 1, path_gen, said_dirs_gen = -1;
#ifndef __wasi__
static int said_write_gen = -1;
#endif
static _Atomic int suspended;

void tb_suspend(int on)
{
    atomic_store(&suspended, on);
}

void tb_set_path(const char *path)
{
    pthread_mutex_lock(&files_lock);
    path_auto = !path || strcmp(path, "auto") == 0;
    snprintf(path_text, sizeof path_text, "%s", path_auto ? "" : path);
    path_gen++;
    pthread_mutex_unlock(&files_lock);
}

static void path_resolve(char *buf, size_t len)
{
    const char *env = getenv("MORELLI_TABLES"), *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (!path_auto)
        snprintf(buf, len, "%s", path_text);
    else if (env)
        snprintf(buf, len, "%s", env);
    else if (xdg && *xdg)
        snprintf(buf, len, "%s/morelli", xdg);
    else if (home && *home)
        snprintf(buf, len, "%s/.cache/morelli", home);
    else
        buf[0] = '\0';
}

void tb_get_path(char *buf, size_t len)
{
    pthread_mutex_lock(&files_lock);
    path_resolve(buf, len);
    pthread_mutex_unlock(&files_lock);
}

/* The next directory of the ':'-separated list at *p into dir; 0 at the end. */
static int next_dir(const char **p, char *dir, size_t len)
{
    while (**p == ':')
        (*p)++;
    if (!**p)
        return 0;
    size_t n = strcspn(*p, ":");
    snprintf(dir, len, "%.*s", (int)(n < len - 1 ? n : len - 1), *p);
    *p += n;
    return 1;
}

static void unmap(TbFile *t)
{
#ifndef __wasi__
    if (t->map)
        munmap((void *)t->map, t->len);
#endif
    free((void *)t->checked);
    t->checked = NULL;
    t->map = NULL;
    atomic_store(&t->state, 0);
}

/* Maps file as table (m, o) of (d, f) into t; 0, or -1 with why (ENOENT:
 * -2, nothing said). */
static int map_file(TbFile *t, const char *file, int d, int f, int m, int o, char *why, size_t wl)
{
#ifdef __wasi__
    (void)t, (void)file, (void)d, (void)f, (void)m, (void)o;
    snprintf(why, wl, "no files in this build");
    return -1;
#else
    int fd = open(file, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT)
            return -2;
        snprintf(why, wl, "%s", strerror(errno));
        return -1;
    }
    struct stat st;
    uint8_t head[TB_HEADER_BYTES];
    ssize_t got = fstat(fd, &st) == 0 ? pread(fd, head, sizeof head, 0) : -1;
    TbHeader h;
    if (got < 0) {
        snprintf(why, wl, "%s", strerror(errno));
        close(fd);
        return -1;
    }
    if (tb_header_parse(head, (size_t)got, (uint64_t)st.st_size, &h, why, wl) != 0) {
        close(fd);
        return -1;
    }
    if (h.diagonals != d || h.flying != f || h.mover != m || h.opp != o) {
        snprintf(why, wl, "holds %dv%d of Diagonals=%s Flying=%s", h.mover, h.opp,
                 h.diagonals ? "true" : "false", h.flying ? "true" : "false");
        close(fd);
        return -1;
    }
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        snprintf(why, wl, "cannot map it: %s", strerror(errno));
        return -1;
    }
    uint32_t blocks = h.version >= 2 ? h.blocks : 1;
    _Atomic uint8_t *checked = calloc(blocks ? blocks : 1, sizeof *checked);
    if (!checked) {
        munmap(p, (size_t)st.st_size);
        snprintf(why, wl, "out of memory");
        return -1;
    }
    t->map = p;
    t->len = (size_t)st.st_size;
    t->payload = t->map + h.payload_at;
    t->payload_bytes = h.payload_bytes;
    t->encoding = h.encoding;
    t->sum = h.payload_sum;
    t->shift = h.version >= 2 ? h.block_log : 63;
    t->blocks = blocks;
    t->sums = h.version >= 2 ? t->map + TB_HEADER_BYTES : NULL;
    t->checked = checked;
    snprintf(t->name, sizeof t->name, "%s", file);
    atomic_store_explicit(&t->state, 1, memory_order_release);
    return 0;
#endif
}

static void refuse(const char *file, const char *why)
{
    notice("morris tables: file %s refused: %s; playing without it", file, why);
}

void tb_open(int d, int f)
{
    if (atomic_load(&suspended))
        return;
    pthread_mutex_lock(&files_lock);
    if (opened_gen[d][f] == path_gen) {
        pthread_mutex_unlock(&files_lock);
        return;
    }
    opened_gen[d][f] = path_gen;
    char path[PATH_MAX_LEN], dir[PATH_MAX_LEN], file[PATH_MAX_LEN + 64], name[64], why[160];
    path_resolve(path, sizeof path);
    for (int m = TB_MIN; m <= TB_MAX; m++)
        for (int o = TB_MIN; o <= TB_MAX; o++)
            unmap(&files[d][f][m][o]);
    int say_dirs = said_dirs_gen != path_gen;
    said_dirs_gen = path_gen;
    for (const char *p = path; next_dir(&p, dir, sizeof dir);) {
        struct stat st;
        if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
            if (say_dirs && !path_auto)
                notice("morris tables: TablePath directory %s: %s", dir,
                       errno ? strerror(errno) : "not a directory");
            continue;
        }
        for (int m = TB_MIN; m <= TB_MAX; m++)
            for (int o = TB_MIN; o <= TB_MAX; o++) {
                TbFile *t = &files[d][f][m][o];
                if (atomic_load(&t->state))
                    continue;
                tb_file_name(d, f, m, o, name, sizeof name);
                snprintf(file, sizeof file, "%s/%s", dir, name);
                int rc = map_file(t, file, d, f, m, o, why, sizeof why);
                if (rc == -1)
                    refuse(file, why);
            }
    }
    pthread_mutex_unlock(&files_lock);
}

static uint64_t le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* Refuses t from now on (said once); its mapping stays until the next
 * tb_open, as other threads may be reading it. */
static void refuse_mapped(TbFile *t, const char *why)
{
    int was = 1;
    if (atomic_compare_exchange_strong(&t->state, &was, -1))
        refuse(t->name, why);
}

/* Checks block b of t's payload against its checksum (once: a block found
 * right is marked); 1 right, 0 wrong (t refused).  Any thread: two that
 * check the same block at once both find the same. */
static int check_block(TbFile *t, uint32_t b)
{
    if (atomic_load_explicit(&t->checked[b], memory_order_acquire))
        return 1;
    uint64_t at = t->sums ? (uint64_t)b << t->shift : 0;
    uint64_t n = t->sums ? (uint64_t)1 << t->shift : t->payload_bytes;
    n = n < t->payload_bytes - at ? n : t->payload_bytes - at;
    uint64_t want = t->sums ? le64(t->sums + 8ull * b) : t->sum;
    if (tb_checksum(t->payload + at, (size_t)n) != want) {
        char why[64];
        if (t->sums)
            snprintf(why, sizeof why, "corrupt (checksum of block %u)", b);
        else
            snprintf(why, sizeof why, "corrupt (checksum)");
        refuse_mapped(t, why);
        return 0;
    }
    atomic_store_explicit(&t->checked[b], 1, memory_order_release);
    return 1;
}

/* Every block, and the whole payload's checksum (the builder, the tests). */
static int verify(TbFile *t)
{
    for (uint32_t b = 0; b < t->blocks && atomic_load(&t->state) == 1; b++)
        (void)check_block(t, b);
    if (atomic_load(&t->state) == 1 && t->sums &&
        tb_checksum(t->payload, (size_t)t->payload_bytes) != t->sum)
        refuse_mapped(t, "corrupt (checksum)");
    return atomic_load(&t->state) == 1;
}

int tb_open_file(const char *file, int d, int f, int m, int o)
{
    char why[160];
    pthread_mutex_lock(&files_lock);
    TbFile *t = &files[d][f][m][o];
    unmap(t);
    int rc = map_file(t, file, d, f, m, o, why, sizeof why);
    if (rc == -2)
        snprintf(why, sizeof why, "no such file");
    if (rc)
        refuse(file, why);
    else if (!verify(t))
        rc = -1;
    pthread_mutex_unlock(&files_lock);
    return rc ? -1 : 0;
}

void tb_close_all(void)
{
    pthread_mutex_lock(&files_lock);
    for (int d = 0; d < 2; d++)
        for (int f = 0; f < 2; f++) {
            for (int m = TB_MIN; m <= TB_MAX; m++)
                for (int o = TB_MIN; o <= TB_MAX; o++)
                    unmap(&files[d][f][m][o]);
            opened_gen[d][f] = -1;
        }
    pthread_mutex_unlock(&files_lock);
}

static TbFile *usable(int d, int f, int m, int o)
{
    if (m < TB_MIN || m > TB_MAX || o < TB_MIN || o > TB_MAX ||
        atomic_load_explicit(&suspended, memory_order_relaxed))
        return NULL;
    TbFile *t = &files[d][f][m][o];
    return atomic_load_explicit(&t->state, memory_order_acquire) == 1 ? t : NULL;
}

int tb_have(int d, int f, int m, int o)
{
    return usable(d, f, m, o) != NULL;
}

int tb_probe(int d, int f, uint32_t x, uint32_t y)
{
    TbFile *t = usable(d, f, popcnt(x), popcnt(y));
    if (!t)
        return -1;
    uint64_t i = tb_index(x, y);
    uint64_t at = t->encoding == TB_ENC_DTM8 ? i : t->encoding == TB_ENC_WDL2 ? i >> 2 : 2 * i;
    if (!check_block(t, (uint32_t)(at >> t->shift)))
        return -1;
    return tb_decode(t->encoding, t->payload, i);
}

/* --- writing ---------------------------------------------------------- */

#ifndef __wasi__
static int fail(char *why, size_t wl, const char *what, const char *file)
{
    snprintf(why, wl, "%s %s: %s", what, file, strerror(errno));
    return -1;
}
#endif

int tb_write(const char *dir, int d, int f, int m, int o, int encoding,
             int (*get)(void *ctx, uint64_t i), void *ctx, char *why, size_t wl)
{
#ifdef __wasi__
    (void)dir, (void)d, (void)f, (void)m, (void)o, (void)encoding, (void)get, (void)ctx;
    snprintf(why, wl, "no files in this build");
    return -1;
#else
    char name[64], file[PATH_MAX_LEN + 64], tmp[PATH_MAX_LEN + 96];
    tb_file_name(d, f, m, o, name, sizeof name);
    snprintf(file, sizeof file, "%s/%s", dir, name);
    snprintf(tmp, sizeof tmp, "%s/.%s.%ld.tmp", dir, name, (long)getpid());
    TbHeader h = {.version = TB_VERSION,
                  .diagonals = d,
                  .flying = f,
                  .mover = m,
                  .opp = o,
                  .scheme = TB_SCHEME_SYM16,
                  .encoding = encoding,
                  .block_log = TB_BLOCK_LOG};
    h.entries = tb_entries(m, o);
    h.payload_bytes = tb_payload_bytes(encoding, h.entries);
    const uint64_t bs = 1ull << TB_BLOCK_LOG;
    h.blocks = (uint32_t)((h.payload_bytes + bs - 1) >> TB_BLOCK_LOG);
    h.payload_at = TB_HEADER_BYTES + 8ull * h.blocks;
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return fail(why, wl, "cannot create", tmp);
    uint8_t head[TB_HEADER_BYTES] = {0}, *buf = malloc(bs), *table = calloc(h.blocks + 1, 8);
    int ok = buf && table && pwrite(fd, head, sizeof head, 0) == (ssize_t)sizeof head, bad = 0;
    /* The payload block by block (a multiple of 8 bytes: tb_checksum's words). */
    uint64_t i = 0, at = 0, sum = tb_checksum(NULL, 0);
    for (uint32_t blk = 0; ok && at < h.payload_bytes; blk++) {
        size_t n = (size_t)(h.payload_bytes - at < bs ? h.payload_bytes - at : bs);
        for (size_t k = 0; k < n; k++) {
            if (encoding == TB_ENC_WDL2) { /* four entries a byte */
                uint8_t byte = 0;
                for (int q = 0; q < 4 && i < h.entries; q++, i++) {
                    int v = get(ctx, i);
                    int w = v == 0             ? 0
                            : v == TB_WIN_FAR  ? 1
                            : v == TB_LOSS_FAR ? 2
                                               : 2 - (v - 1) % 2;
                    byte |= (uint8_t)(w << (2 * q));
                }
                buf[k] = byte;
                continue;
            }
            int v = get(ctx, i++);
            if (v > 0 && v < TB_WIN_FAR && (uint32_t)(v - 1) > h.longest)
                h.longest = (uint32_t)(v - 1);
            if (encoding == TB_ENC_DTM16) {
                buf[k] = (uint8_t)v;
                buf[++k] = (uint8_t)(v >> 8);
            } else {
                bad |= v > TB_MAXD + 1 && v < TB_WIN_FAR;
                buf[k] = (uint8_t)(v == TB_WIN_FAR ? 254 : v == TB_LOSS_FAR ? 255 : v);
            }
        }
        uint64_t bsum = tb_checksum(buf, n);
        for (int q = 0; q < 8; q++)
            table[8 * blk + q] = (uint8_t)(bsum >> (8 * q));
        sum = tb_checksum_more(sum, buf, n);
        ok = !bad && pwrite(fd, buf, n, (off_t)(h.payload_at + at)) == (ssize_t)n;
        at += n;
    }
    if (ok) {
        h.payload_sum = sum;
        tb_header_write(&h, head);
        ok = pwrite(fd, table, 8ull * h.blocks, TB_HEADER_BYTES) == (ssize_t)(8ull * h.blocks) &&
             pwrite(fd, head, sizeof head, 0) == (ssize_t)sizeof head && fsync(fd) == 0;
    }
    free(buf);
    free(table);
    if (!ok) {
        if (bad)
            snprintf(why, wl, "%s: a distance over %d plies, which a byte cannot hold", file,
                     TB_MAXD);
        else
            fail(why, wl, "cannot write", tmp);
        close(fd);
        unlink(tmp);
        return -1;
    }
    if (close(fd) != 0 || rename(tmp, file) != 0) {
        fail(why, wl, "cannot write", file);
        unlink(tmp);
        return -1;
    }
    int dfd = open(dir, O_RDONLY | O_CLOEXEC);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    return 0;
#endif
}

int tb_make_dirs(const char *dir)
{
    char p[PATH_MAX_LEN];
    snprintf(p, sizeof p, "%s", dir);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            (void)mkdir(p, 0755);
            *s = '/';
        }
    return mkdir(p, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

int tb_writable_dir(char *buf, size_t len)
{
#ifdef __wasi__
    (void)buf, (void)len;
    return -1;
#else
    if (atomic_load(&suspended))
        return -1;
    pthread_mutex_lock(&files_lock);
    char path[PATH_MAX_LEN], dir[PATH_MAX_LEN];
    path_resolve(path, sizeof path);
    int first = 1, rc = -1;
    for (const char *p = path; next_dir(&p, dir, sizeof dir); first = 0) {
        if (first && path_auto)
            (void)tb_make_dirs(dir);
        if (access(dir, W_OK) == 0) {
            snprintf(buf, len, "%s", dir);
            rc = 0;
            break;
        }
    }
    if (rc && path[0] && said_write_gen != path_gen) {
        said_write_gen = path_gen;
        notice("morris tables: no directory of TablePath %s can be written; tables built "
               "here are not kept",
               path);
    }
    pthread_mutex_unlock(&files_lock);
    return rc;
#endif
}
