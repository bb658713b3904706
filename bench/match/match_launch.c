/*
 * match_launch.c -- what lets a shard run with no shell around it (a
 * container image holds only the two programs): `--shard auto/N` takes K
 * from the launcher's variables, `{K}` in `--results` names the file after
 * the shard, and `--merge DIR` joins the results files a folder holds.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "match_shard.h"

/* A whole number 0..SHARD_MAX from a variable's text, or -1. */
static long env_number(const char *s)
{
    char *end;
    if (!s || *s < '0' || *s > '9')
        return -1;
    errno = 0;
    long v = strtol(s, &end, 10);
    return errno || *end || v > SHARD_MAX ? -1 : v;
}

int shard_auto_spec(const char *text, char *out, size_t outlen, char *err, size_t errlen)
{
    if (strncmp(text, "auto/", 5) != 0) {
        snprintf(out, outlen, "%s", text);
        return 0;
    }
    static const struct {
        const char *name;
        int base; /* 1 for a 0-based index */
    } vars[] = {{"SHARD", 0}, {"SLURM_ARRAY_TASK_ID", 0}, {"JOB_COMPLETION_INDEX", 1}};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *s = getenv(vars[i].name);
        if (!s || !*s)
            continue;
        long k = env_number(s);
        if (k < 0) {
            snprintf(err, errlen, "--shard %.40s: %s='%.40s' is not a whole number", text,
                     vars[i].name, s);
            return -1;
        }
        snprintf(out, outlen, "%ld/%s", k + vars[i].base, text + 5);
        return 0;
    }
    snprintf(err, errlen,
             "--shard %.40s: none of SHARD, SLURM_ARRAY_TASK_ID (1-based) or "
             "JOB_COMPLETION_INDEX (0-based) is set",
             text);
    return -1;
}

int shard_results_path(char *path, size_t len, int k, char *err, size_t errlen)
{
    char *at = strstr(path, "{K}");
    if (!at)
        return 0;
    if (k <= 0) {
        snprintf(err, errlen, "--results %.200s: {K} needs --shard", path);
        return -1;
    }
    char tail[MATCH_PATH_MAX];
    snprintf(tail, sizeof tail, "%s", at + 3);
    if (strstr(tail, "{K}")) {
        snprintf(err, errlen, "--results %.200s: {K} more than once", path);
        return -1;
    }
    int n = snprintf(at, len - (size_t)(at - path), "%d%s", k, tail);
    if (n < 0 || (size_t)n >= len - (size_t)(at - path)) {
        snprintf(err, errlen, "--results: path too long");
        return -1;
    }
    return 0;
}

/* Orders the results files of a folder by the shard number in their name
 * (shard-2 before shard-10), then by name. */
static int by_shard_name(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    const char *px = strrchr(x, '/'), *py = strrchr(y, '/');
    long kx = strtol((px ? px + 1 : x) + 6, NULL, 10), ky = strtol((py ? py + 1 : y) + 6, NULL, 10);
    return kx != ky ? (kx < ky ? -1 : 1) : strcmp(x, y);
}

/* Whether name is shard-*.txt. */
static int results_name(const char *name)
{
    size_t n = strlen(name);
    return n > 10 && !strncmp(name, "shard-", 6) && !strcmp(name + n - 4, ".txt");
}

/* Appends s (taken) to the list; 0, or -1 when out of memory (s freed). */
static int push(char ***list, int *n, int *cap, char *s)
{
    if (!s)
        return -1;
    if (*n == *cap) {
        char **more = realloc(*list, (size_t)(*cap * 2) * sizeof **list);
        if (!more) {
            free(s);
            return -1;
        }
        *list = more;
        *cap *= 2;
    }
    (*list)[(*n)++] = s;
    return 0;
}

int shard_expand(char *const *args, int nargs, char ***paths, int *npaths, char *err, size_t errlen)
{
    int n = 0, cap = 16;
    char **list = malloc((size_t)cap * sizeof *list);
    if (!list)
        goto oom;
    for (int i = 0; i < nargs; i++) {
        struct stat st;
        if (stat(args[i], &st) != 0 || !S_ISDIR(st.st_mode)) {
            if (push(&list, &n, &cap, strdup(args[i])))
                goto oom;
            continue;
        }
        DIR *d = opendir(args[i]);
        if (!d) {
            snprintf(err, errlen, "%.200s: %s", args[i], strerror(errno));
            goto fail;
        }
        int first = n;
        for (struct dirent *e; (e = readdir(d));) {
            if (!results_name(e->d_name))
                continue;
            size_t len = strlen(args[i]) + strlen(e->d_name) + 2;
            char *path = malloc(len);
            if (path)
                snprintf(path, len, "%s/%s", args[i], e->d_name);
            if (push(&list, &n, &cap, path)) {
                closedir(d);
                goto oom;
            }
        }
        closedir(d);
        if (n == first) {
            snprintf(err, errlen, "%.200s: no results files (shard-*.txt) in this folder", args[i]);
            goto fail;
        }
        qsort(list + first, (size_t)(n - first), sizeof *list, by_shard_name);
    }
    *paths = list;
    *npaths = n;
    return 0;
oom:
    snprintf(err, errlen, "out of memory");
fail:
    if (list)
        shard_free_paths(list, n);
    return -1;
}

void shard_free_paths(char **paths, int n)
{
    for (int i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
}
