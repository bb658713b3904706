/*
 * tbpack_main.c -- the Morris endgame tables the web page loads (make web;
 * docs/web.md): builds the classes of up to N pieces a side and T on the
 * board into a folder of byte-per-entry files (the builder of `morelli
 * tables build`, resumable), then writes each class again with two bits an
 * entry (win, draw or loss) into the page's folder.
 *
 *   tbpack [--upto N] [--total T] [--threads N] [--diagonals true|false|both]
 *          [--flying true|false|both] SRC OUT
 *
 * A native program, linked with the engine's objects; only the API of
 * morris/morris_tb.h is used, so the file format is the engine's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "morris/morris_tb.h"

typedef struct Class {
    int d, f, m, o;
} Class;

/* The entry byte of index i of the class, from the file opened. */
static int source_entry(void *ctx, uint64_t i)
{
    const Class *c = ctx;
    uint32_t x, y;
    tb_unindex(c->m, c->o, i, &x, &y);
    return tb_probe(c->d, c->f, x, y);
}

static int mask_of(const char *v)
{
    return strcmp(v, "false") == 0  ? 1
           : strcmp(v, "true") == 0 ? 2
           : strcmp(v, "both") == 0 ? 3
                                    : 0;
}

static int usage(void)
{
    fprintf(stderr,
            "usage: tbpack [--upto 3..%d] [--total 6..%d] [--threads N] "
            "[--diagonals true|false|both] [--flying true|false|both] SRC OUT\n",
            TB_MAX, 2 * TB_MAX);
    return 2;
}

int main(int argc, char **argv)
{
    TbBuildOpts o = {.upto = 4,
                     .threads = 1,
                     .encoding = TB_ENC_DTM8,
                     .diag_mask = 1,
                     .fly_mask = 2,
                     .quiet = 1};
    int i = 1;
    for (; i + 1 < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
        const char *a = argv[i], *v = argv[i + 1];
        if (strcmp(a, "--upto") == 0 && atoi(v) >= TB_MIN && atoi(v) <= TB_MAX)
            o.upto = atoi(v);
        else if (strcmp(a, "--total") == 0 && atoi(v) >= 2 * TB_MIN && atoi(v) <= 2 * TB_MAX)
            o.max_total = atoi(v);
        else if (strcmp(a, "--threads") == 0 && atoi(v) >= 1 && atoi(v) <= 64)
            o.threads = atoi(v);
        else if (strcmp(a, "--diagonals") == 0 && mask_of(v))
            o.diag_mask = mask_of(v);
        else if (strcmp(a, "--flying") == 0 && mask_of(v))
            o.fly_mask = mask_of(v);
        else
            return usage();
    }
    if (argc - i != 2)
        return usage();
    const char *src = argv[i], *out = argv[i + 1];
    o.dir = src;
    if (tb_make_dirs(src) != 0 || tb_make_dirs(out) != 0) {
        fprintf(stderr, "tbpack: cannot create %s or %s\n", src, out);
        return 1;
    }
    if (tb_build(&o) != 0)
        return 1;
    for (int d = 0; d < 2; d++)
        for (int f = 0; f < 2; f++)
            for (int m = TB_MIN; m <= o.upto; m++)
                for (int n = TB_MIN; n <= o.upto; n++) {
                    if (!(o.diag_mask >> d & 1) || !(o.fly_mask >> f & 1) ||
                        (o.max_total && m + n > o.max_total))
                        continue;
                    char name[64], file[4200], why[256] = "cannot read it";
                    tb_file_name(d, f, m, n, name, sizeof name);
                    snprintf(file, sizeof file, "%s/%s", src, name);
                    Class c = {d, f, m, n};
                    if (tb_open_file(file, d, f, m, n) != 0 ||
                        tb_write(out, d, f, m, n, TB_ENC_WDL2, source_entry, &c, why, sizeof why) !=
                            0) {
                        fprintf(stderr, "tbpack: %s: %s\n", name, why);
                        return 1;
                    }
                }
    return 0;
}
