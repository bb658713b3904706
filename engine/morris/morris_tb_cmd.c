/*
 * morris_tb_cmd.c -- the `morelli tables ...` command (docs/tables.md):
 * its arguments and what it prints; the builder itself is
 * morris_tb_build.c.
 */
#include "morris_tb.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

static int bool_mask(const char *v, int *mask)
{
    if (strcmp(v, "true") == 0)
        *mask = 2;
    else if (strcmp(v, "false") == 0)
        *mask = 1;
    else if (strcmp(v, "both") == 0)
        *mask = 3;
    else
        return -1;
    return 0;
}

static int usage(void)
{
    fprintf(stderr,
            "usage: morelli tables build [--upto 3..%d] [--only GROUP[,GROUP...]] [--dir D] "
            "[--threads N] [--diagonals true|false|both] [--flying true|false|both] [--wdl-from P] "
            "[--quiet]\n"
            "       morelli tables plan [--upto 3..%d] [--only GROUP[,GROUP...]] [--dir D] "
            "[--diagonals true|false|both] [--flying true|false|both]\n"
            "       morelli tables info FILE...\n"
            "       morelli tables verify [--samples N|all] [--seed S] [--quiet] FILE|DIR...\n"
            "       morelli tables solve [--dir D] [--hash MB] [--nodes N] [--moves] [--quiet] "
            "[--diagonals B] [--flying B] [--pieces 9|12] [startpos|FEN] [moves M...]\n"
            "GROUP: 4v5 (or 5v4, 4v5+5v4): the classes 4v5 and 5v4\n",
            TB_MAX, TB_MAX);
    return 2;
}

static int info(int argc, char **argv)
{
    int rc = 0;
    for (int i = 0; i < argc; i++) {
        FILE *fp = fopen(argv[i], "rb");
        uint8_t head[TB_HEADER_BYTES];
        size_t got = fp ? fread(head, 1, sizeof head, fp) : 0;
        long size = fp && fseek(fp, 0, SEEK_END) == 0 ? ftell(fp) : -1;
        if (fp)
            fclose(fp);
        TbHeader h;
        char why[160];
        if (!fp) {
            printf("%s: %s\n", argv[i], strerror(errno));
            rc = 1;
        } else if (tb_header_parse(head, got, size < 0 ? 0 : (uint64_t)size, &h, why, sizeof why) !=
                   0) {
            printf("%s: refused: %s\n", argv[i], why);
            rc = 1;
        } else {
            printf("%s: %dv%d Diagonals=%s Flying=%s encoding %s, %llu entries, longest %u "
                   "plies\n",
                   argv[i], h.mover, h.opp, h.diagonals ? "true" : "false",
                   h.flying ? "true" : "false",
                   h.encoding == TB_ENC_DTM8    ? "dtm8"
                   : h.encoding == TB_ENC_DTM16 ? "dtm16"
                                                : "wdl2",
                   (unsigned long long)h.entries, h.longest);
        }
    }
    return rc;
}

/* --- the plan: the groups in build order ------------------------------- */

/* A group {m v o, o v m} (m <= o) of an option set, in wave m + o - 5: the
 * groups of one total of pieces read only classes of fewer pieces, so the
 * groups of a wave are independent of each other. */
typedef struct PlanGroup {
    int wave, d, f, m, o;
} PlanGroup;

#define PLAN_MAX (4 * (TB_MAX - TB_MIN + 1) * (TB_MAX - TB_MIN + 1))

typedef struct Plan {
    char dir[4096];
    int upto, threads, diag_mask, fly_mask, quiet, has_dir, wdl_from;
    uint64_t only;
    int n;
    PlanGroup g[PLAN_MAX];
} Plan;

static const char *tf(int b)
{
    return b ? "true" : "false";
}

static uint64_t group_entries(int m, int o)
{
    return tb_entries(m, o) + (m == o ? 0 : tb_entries(o, m));
}

/* Groups of more pieces than this may need distances over 252 plies (up
 * to 6 a side the longest is 167, docs/tables.md): the plan counts them at
 * the most they can take, 4-byte build words and 2-byte entries. */
#define PLAN_SURE_TOTAL 12

/* Whether the plan builds group (m, o) win/draw/loss only (--wdl-from). */
static int plan_wdl(const Plan *p, int m, int o)
{
    return p->wdl_from && m + o > p->wdl_from;
}

/* The builder's memory for a group (morris_tb_build.c): 1 1/8 bytes an
 * entry win/draw/loss only, else 2 bytes, 4 where distances may pass 252. */
static uint64_t group_memory(const Plan *p, int m, int o)
{
    uint64_t n = group_entries(m, o);
    if (plan_wdl(p, m, o))
        return n + n / 8;
    return n * (m + o > PLAN_SURE_TOTAL ? 4 : 2);
}

/* The bytes of the file of class (m, o): encoding 2 win/draw/loss only,
 * else 1, or 3 where distances may pass 252. */
static uint64_t file_bytes(const Plan *p, int m, int o)
{
    int enc = plan_wdl(p, m, o)         ? TB_ENC_WDL2
              : m + o > PLAN_SURE_TOTAL ? TB_ENC_DTM16
                                        : TB_ENC_DTM8;
    return tb_file_bytes(enc, tb_entries(m, o));
}

static void plan_fill(Plan *p)
{
    p->n = 0;
    for (int total = 2 * TB_MIN; total <= 2 * p->upto; total++)
        for (int d = 0; d < 2; d++)
            for (int f = 0; f < 2; f++)
                for (int m = TB_MIN;
                     2 * m <= total && (p->diag_mask >> d & 1) && (p->fly_mask >> f & 1); m++) {
                    int o = total - m;
                    if (o > p->upto || (p->only && !(p->only & TB_GROUP_BIT(m, o))))
                        continue;
                    p->g[p->n++] = (PlanGroup){total - 2 * TB_MIN + 1, d, f, m, o};
                }
}

/* The classes the captures of group g read: (o - 1, m) and (m - 1, o), those
 * with 3 pieces a side at least (a capture from 3 ends the game); 0..2 of
 * them into r[][2]. */
static int group_reads(const PlanGroup *g, int r[2][2])
{
    int n = 0;
    if (g->o - 1 >= TB_MIN)
        r[n][0] = g->o - 1, r[n][1] = g->m, n++;
    if (g->m != g->o && g->m - 1 >= TB_MIN)
        r[n][0] = g->m - 1, r[n][1] = g->o, n++;
    return n;
}

/* Whether the plan builds class (m, o) of (d, f). */
static int plan_builds(const Plan *p, int d, int f, int m, int o)
{
    for (int i = 0; i < p->n; i++) {
        const PlanGroup *g = &p->g[i];
        if (g->d == d && g->f == f && ((g->m == m && g->o == o) || (g->m == o && g->o == m)))
            return 1;
    }
    return 0;
}

static void file_path(const char *dir, int d, int f, int m, int o, char *buf, size_t len)
{
    char name[64];
    tb_file_name(d, f, m, o, name, sizeof name);
    snprintf(buf, len, "%s/%s", dir, name);
}

/* Whether dir holds a file of class (m, o) of (d, f) whose header is
 * whole and whose size is the one the header gives (any encoding; its
 * checksums are the builder's to check). */
static int file_there(const char *dir, int d, int f, int m, int o)
{
    char file[4200], why[160];
    uint8_t buf[TB_HEADER_BYTES];
    struct stat st;
    TbHeader h;
    file_path(dir, d, f, m, o, file, sizeof file);
    FILE *fp = fopen(file, "rb");
    if (!fp)
        return 0;
    size_t got = fread(buf, 1, sizeof buf, fp);
    int ok = fstat(fileno(fp), &st) == 0 &&
             tb_header_parse(buf, got, (uint64_t)st.st_size, &h, why, sizeof why) == 0 &&
             h.diagonals == d && h.flying == f && h.mover == m && h.opp == o;
    fclose(fp);
    return ok;
}

/* "812 MB", "8.6 GB" */
static const char *size_str(uint64_t b, char *buf, size_t len)
{
    if (b < (1ULL << 30))
        snprintf(buf, len, "%llu MB", (unsigned long long)((b + (1 << 20) - 1) >> 20));
    else
        snprintf(buf, len, "%.1f GB", (double)b / (1ULL << 30));
    return buf;
}

/* The disk and the memory what is left of the plan needs, against what
 * the directory and the machine have: said on one line (to out, or when
 * it does not fit, to stderr with "not built"); 0 fits, -1 does not.
 * with_mem: the memory must fit too (a build; a plan is made on a machine
 * that need not be the one that builds). */
static int plan_check(const Plan *p, FILE *out, const char *lead, int with_mem)
{
    uint64_t disk = 0, there = 0, mem = 0;
    const PlanGroup *big = NULL;
    for (int i = 0; i < p->n; i++) {
        const PlanGroup *g = &p->g[i];
        int left = 0;
        for (int s = 0; s < (g->m == g->o ? 1 : 2); s++) {
            int a = s ? g->o : g->m, b = s ? g->m : g->o;
            if (file_there(p->dir, g->d, g->f, a, b))
                there += file_bytes(p, a, b);
            else
                disk += file_bytes(p, a, b), left = 1;
        }
        if (left && group_memory(p, g->m, g->o) > mem)
            mem = group_memory(p, g->m, g->o), big = g;
    }
    /* The file system of dir, or of its nearest ancestor (a plan's dir
     * need not exist yet). */
    struct statvfs vf;
    char at[4096];
    snprintf(at, sizeof at, "%s", p->dir);
    int st;
    while ((st = statvfs(at, &vf)) != 0) {
        char *slash = strrchr(at, '/');
        if (!slash) {
            st = statvfs(".", &vf);
            break;
        }
        if (slash == at && !at[1])
            break;
        slash[slash == at] = 0;
    }
    uint64_t free_b = st == 0 ? (uint64_t)vf.f_bavail * vf.f_frsize : 0;
    uint64_t avail = tb_mem_available();
    int fits = disk <= free_b && (!with_mem || !avail || mem <= avail);
    if (fits && !out)
        return 0;
    char a[32], b[32], c[32], e[32], v[32], big_s[48] = "";
    if (big)
        snprintf(big_s, sizeof big_s, " (%dv%d)", big->m, big->o);
    fprintf(fits ? out : stderr,
            "%sneeds %s of disk in %s, %s free (%s written already); %s of memory%s, "
            "%s available%s\n",
            fits ? lead : "tables: ", size_str(disk, a, sizeof a), p->dir,
            size_str(free_b, b, sizeof b), size_str(there, c, sizeof c), size_str(mem, e, sizeof e),
            big_s, avail ? size_str(avail, v, sizeof v) : "unknown",
            fits       ? ""
            : with_mem ? "; not built"
                       : "; not enough disk");
    return fits ? 0 : -1;
}

static int plan_print(Plan *p)
{
    printf("# wave group diagonals flying entries memory disk reads\n");
    uint64_t entries = 0, disk = 0, peak = 0, w_entries = 0, w_disk = 0, w_mem = 0;
    int waves = 0, w_groups = 0;
    for (int i = 0; i < p->n; i++) {
        const PlanGroup *g = &p->g[i];
        char cls[16], reads[32] = "-";
        snprintf(cls, sizeof cls, g->m == g->o ? "%dv%d" : "%dv%d+%dv%d", g->m, g->o, g->o, g->m);
        int r[2][2], nr = group_reads(g, r);
        for (int k = 0; k < nr; k++)
            snprintf(reads + (k ? strlen(reads) : 0), sizeof reads - (k ? strlen(reads) : 0),
                     "%s%dv%d", k ? "," : "", r[k][0], r[k][1]);
        uint64_t bytes = file_bytes(p, g->m, g->o) + (g->m == g->o ? 0 : file_bytes(p, g->o, g->m));
        printf("%d %s %s %s %llu %llu %llu %s\n", g->wave, cls, tf(g->d), tf(g->f),
               (unsigned long long)group_entries(g->m, g->o),
               (unsigned long long)group_memory(p, g->m, g->o), (unsigned long long)bytes, reads);
        entries += group_entries(g->m, g->o);
        disk += bytes;
        if (group_memory(p, g->m, g->o) > peak)
            peak = group_memory(p, g->m, g->o);
        w_groups++, w_entries += group_entries(g->m, g->o), w_disk += bytes;
        w_mem += group_memory(p, g->m, g->o);
        if (i + 1 == p->n || p->g[i + 1].wave != g->wave) {
            char a[32], b[32];
            printf("# wave %d: %d group%s, %llu entries, %s on disk, %s of memory all at once\n",
                   g->wave, w_groups, w_groups > 1 ? "s" : "", (unsigned long long)w_entries,
                   size_str(w_disk, a, sizeof a), size_str(w_mem, b, sizeof b));
            waves++, w_groups = 0, w_entries = w_disk = w_mem = 0;
        }
    }
    char a[32], b[32];
    printf("# %d groups in %d waves: %llu entries, %s on disk; %s of memory one group at a "
           "time\n",
           p->n, waves, (unsigned long long)entries, size_str(disk, a, sizeof a),
           size_str(peak, b, sizeof b));
    if (!p->has_dir)
        return 0;
    return plan_check(p, stdout, "# ", 0) == 0 ? 0 : 1;
}

/* "4v5", "5v4" or "4v5+5v4", separated by commas, into p->only; the most
 * pieces a side named into p->upto. */
static int parse_only(const char *v, Plan *p)
{
    p->upto = TB_MIN;
    while (*v) {
        int m, o, m2, o2, n = 0, n2 = 0;
        if (sscanf(v, "%1dv%1d%n", &m, &o, &n) != 2 || n != 3)
            return -1;
        v += n;
        if (*v == '+') {
            if (sscanf(v, "+%1dv%1d%n", &m2, &o2, &n2) != 2 || n2 != 4 || m2 != o || o2 != m)
                return -1;
            v += n2;
        }
        if (m < TB_MIN || m > TB_MAX || o < TB_MIN || o > TB_MAX || (*v && *v != ','))
            return -1;
        if (*v)
            v++;
        p->only |= TB_GROUP_BIT(m, o);
        p->upto = m > p->upto ? m : p->upto;
        p->upto = o > p->upto ? o : p->upto;
    }
    return p->only ? 0 : -1;
}

/* The classes the plan's captures read and it does not build itself, each
 * mapped from dir or else from TablePath; the missing ones said on one
 * line.  0, or -1. */
static int plan_reads_present(const Plan *p)
{
    char missing[2048] = "", path[8192], file[4200];
    int nmiss = 0;
    tb_get_path(path, sizeof path);
    for (int i = 0; i < p->n; i++) {
        const PlanGroup *g = &p->g[i];
        int r[2][2], nr = group_reads(g, r), d = g->d, f = g->f;
        if (file_there(p->dir, d, f, g->m, g->o) && file_there(p->dir, d, f, g->o, g->m))
            continue; /* built already: reads nothing */
        for (int k = 0; k < nr; k++) {
            int m = r[k][0], o = r[k][1], ok = 0;
            if (plan_builds(p, d, f, m, o) || tb_have(d, f, m, o))
                continue;
            file_path(p->dir, d, f, m, o, file, sizeof file);
            ok = access(file, F_OK) == 0 && tb_open_file(file, d, f, m, o) == 0;
            for (const char *q = path; !ok && *q;) {
                size_t n = strcspn(q, ":");
                if (n) {
                    char dir[4096];
                    snprintf(dir, sizeof dir, "%.*s",
                             (int)(n < sizeof dir - 1 ? n : sizeof dir - 1), q);
                    file_path(dir, d, f, m, o, file, sizeof file);
                    ok = access(file, F_OK) == 0 && tb_open_file(file, d, f, m, o) == 0;
                }
                q += n + (q[n] == ':');
            }
            if (!ok) {
                char name[64];
                tb_file_name(d, f, m, o, name, sizeof name);
                size_t len = strlen(missing);
                if (!strstr(missing, name))
                    snprintf(missing + len, sizeof missing - len, "%s%s (read by %dv%d)",
                             nmiss++ ? ", " : "", name, g->m, g->o);
            }
        }
    }
    if (!nmiss)
        return 0;
    fprintf(stderr,
            "tables: missing %s: neither in %s nor on TablePath; build the smaller groups "
            "first; not built\n",
            missing, p->dir);
    return -1;
}

static int build(Plan *p)
{
    if (!p->dir[0] && tb_writable_dir(p->dir, sizeof p->dir) != 0) {
        fprintf(stderr, "tables: no directory to write to (--dir, or TablePath's default)\n");
        return 1;
    }
    (void)tb_make_dirs(p->dir);
    if (access(p->dir, W_OK) != 0) {
        fprintf(stderr, "tables: cannot write to %s: %s\n", p->dir, strerror(errno));
        return 1;
    }
    plan_fill(p);
    if (!p->quiet)
        printf("tables: %d group%s up to %d a side into %s, %d thread%s\n", p->n,
               p->n == 1 ? "" : "s", p->upto, p->dir, p->threads, p->threads == 1 ? "" : "s");
    if (plan_reads_present(p) != 0 || plan_check(p, p->quiet ? NULL : stdout, "tables: ", 1) != 0)
        return 1;
    TbBuildOpts o = {.dir = p->dir,
                     .upto = p->upto,
                     .threads = p->threads,
                     .encoding = TB_ENC_DTM8,
                     .diag_mask = p->diag_mask,
                     .fly_mask = p->fly_mask,
                     .quiet = p->quiet,
                     .only = p->only,
                     .wdl_from = p->wdl_from};
    return tb_build(&o) == 0 ? 0 : 1;
}

int tb_command(int argc, char **argv)
{
    if (argc >= 1 && strcmp(argv[0], "info") == 0)
        return info(argc - 1, argv + 1);
    if (argc >= 1 && strcmp(argv[0], "solve") == 0)
        return tb_solve_command(argc - 1, argv + 1);
    if (argc >= 1 && strcmp(argv[0], "verify") == 0) {
        int rc = tb_verify_command(argc - 1, argv + 1);
        return rc < 0 ? usage() : rc;
    }
    if (argc < 1 || (strcmp(argv[0], "build") != 0 && strcmp(argv[0], "plan") != 0))
        return usage();
    int is_plan = strcmp(argv[0], "plan") == 0, upto = 6, only = 0;
    static Plan p;
    long nproc = sysconf(_SC_NPROCESSORS_ONLN);
    memset(&p, 0, sizeof p);
    p.threads = nproc > 0 ? (int)nproc : 1;
    p.diag_mask = p.fly_mask = 3;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--quiet") == 0 && !is_plan) {
            p.quiet = 1;
            continue;
        }
        if (!v)
            return usage();
        i++;
        if (strcmp(a, "--upto") == 0 && atoi(v) >= TB_MIN && atoi(v) <= TB_MAX)
            upto = atoi(v);
        else if (strcmp(a, "--only") == 0 && !only && parse_only(v, &p) == 0)
            only = 1;
        else if (strcmp(a, "--threads") == 0 && !is_plan && atoi(v) >= 1 && atoi(v) <= 64)
            p.threads = atoi(v);
        else if (strcmp(a, "--wdl-from") == 0 && atoi(v) >= 0 && atoi(v) <= 2 * TB_MAX)
            p.wdl_from = atoi(v);
        else if (strcmp(a, "--dir") == 0 && *v)
            snprintf(p.dir, sizeof p.dir, "%s", v), p.has_dir = 1;
        else if (strcmp(a, "--diagonals") == 0 && bool_mask(v, &p.diag_mask) == 0)
            ;
        else if (strcmp(a, "--flying") == 0 && bool_mask(v, &p.fly_mask) == 0)
            ;
        else
            return usage();
    }
    if (!only)
        p.upto = upto;
    if (!is_plan)
        return build(&p);
    plan_fill(&p);
    return plan_print(&p);
}
