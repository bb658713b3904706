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
            "usage: morelli tables build [--upto 3..%d] [--dir D] [--threads N] "
            "[--diagonals true|false|both] [--flying true|false|both] [--quiet]\n"
            "       morelli tables info FILE...\n",
            TB_MAX);
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
                   h.flying ? "true" : "false", h.encoding == TB_ENC_DTM8 ? "dtm8" : "wdl2",
                   (unsigned long long)h.entries, h.longest);
        }
    }
    return rc;
}

int tb_command(int argc, char **argv)
{
    if (argc >= 1 && strcmp(argv[0], "info") == 0)
        return info(argc - 1, argv + 1);
    if (argc < 1 || strcmp(argv[0], "build") != 0)
        return usage();
    char dir[4096] = "";
    long nproc = sysconf(_SC_NPROCESSORS_ONLN);
    TbBuildOpts o = {dir, 6, nproc > 0 ? (int)nproc : 1, TB_ENC_DTM8, 3, 3, 0, 0, 0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--quiet") == 0) {
            o.quiet = 1;
            continue;
        }
        if (!v)
            return usage();
        i++;
        if (strcmp(a, "--upto") == 0 && atoi(v) >= TB_MIN && atoi(v) <= TB_MAX)
            o.upto = atoi(v);
        else if (strcmp(a, "--threads") == 0 && atoi(v) >= 1 && atoi(v) <= 64)
            o.threads = atoi(v);
        else if (strcmp(a, "--dir") == 0 && *v)
            snprintf(dir, sizeof dir, "%s", v);
        else if (strcmp(a, "--diagonals") == 0 && bool_mask(v, &o.diag_mask) == 0)
            ;
        else if (strcmp(a, "--flying") == 0 && bool_mask(v, &o.fly_mask) == 0)
            ;
        else
            return usage();
    }
    if (!dir[0] && tb_writable_dir(dir, sizeof dir) != 0) {
        fprintf(stderr, "tables: no directory to write to (--dir, or TablePath's default)\n");
        return 1;
    }
    (void)tb_make_dirs(dir);
    if (access(dir, W_OK) != 0) {
        fprintf(stderr, "tables: cannot write to %s: %s\n", dir, strerror(errno));
        return 1;
    }
    if (!o.quiet)
        printf("tables: up to %d a side into %s, %d threads\n", o.upto, dir, o.threads);
    return tb_build(&o) == 0 ? 0 : 1;
}
