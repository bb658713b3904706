/* Sharded matches: see match_shard.h. */
#include "match_shard.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --- small helpers ------------------------------------------------------ */

static uint64_t fnv(uint64_t h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ull;
    }
    return h;
}
#define FNV0 0xcbf29ce484222325ull

/* A whole number in [lo, hi] that is all of s. */
static int whole(const char *s, long long lo, long long hi, long long *v)
{
    if (!s || !*s)
        return -1;
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (errno || *end || x < lo || x > hi)
        return -1;
    *v = x;
    return 0;
}

int shard_parse_spec(const char *text, int *k, int *n, char *err, size_t errlen)
{
    const char *slash = text ? strchr(text, '/') : NULL;
    long long a, b;
    char left[32];
    if (!slash || (size_t)(slash - text) >= sizeof left) {
        snprintf(err, errlen, "--shard wants K/N (shard K of N, 1 <= K <= N), not '%.40s'",
                 text ? text : "");
        return -1;
    }
    memcpy(left, text, (size_t)(slash - text));
    left[slash - text] = '\0';
    if (whole(left, 0, SHARD_MAX, &a) != 0 || whole(slash + 1, 1, SHARD_MAX, &b) != 0) {
        snprintf(err, errlen, "--shard wants K/N with whole numbers, N from 1 to %d, not '%.40s'",
                 SHARD_MAX, text);
        return -1;
    }
    if (a < 1 || a > b) {
        snprintf(err, errlen,
                 "--shard %lld/%lld: K must be from 1 to N (shards are numbered 1..%lld)", a, b, b);
        return -1;
    }
    *k = (int)a;
    *n = (int)b;
    return 0;
}

int shard_owns(int k, int n, int pair)
{
    return n <= 0 || pair % n == k - 1;
}

/* Writes s with control bytes as '?' (one identity line stays one line). */
static void put_clean(FILE *f, const char *s)
{
    for (; *s; s++)
        fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
}

static void put_tc(FILE *f, const char *key, const TimeControl *tc)
{
    switch (tc->type) {
    case TC_CLOCK:
        fprintf(f, "%s clock %" PRId64 " %" PRId64 "\n", key, tc->time_ms, tc->inc_ms);
        break;
    case TC_MOVETIME: fprintf(f, "%s movetime %" PRId64 "\n", key, tc->movetime_ms); break;
    case TC_DEPTH: fprintf(f, "%s depth %d\n", key, tc->depth); break;
    default: fprintf(f, "%s nodes %" PRIu64 "\n", key, tc->nodes); break;
    }
}

static void put_option(FILE *f, const char *key, const MatchOption *o)
{
    fprintf(f, "%s ", key);
    put_clean(f, o->name);
    fputc('=', f);
    put_clean(f, o->value);
    fputc('\n', f);
}

char *shard_identity(const MatchConfig *c, char *const *openings, int nopenings)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    fprintf(f, "variant %s\n", c->game->name);
    for (int e = 0; e < 2; e++) {
        const EngineSpec *s = &c->engines[e];
        char key[32];
        fprintf(f, "engine%d.name ", e + 1);
        put_clean(f, s->name);
        fprintf(f, "\nengine%d.cmd ", e + 1);
        put_clean(f, s->cmd);
        fputc('\n', f);
        snprintf(key, sizeof key, "engine%d.option", e + 1);
        for (int i = 0; i < s->noptions; i++)
            put_option(f, key, &s->options[i]);
        snprintf(key, sizeof key, "engine%d.tc", e + 1);
        if (s->has_tc)
            put_tc(f, key, &s->tc);
        else
            fprintf(f, "%s none\n", key);
    }
    for (int i = 0; i < c->neach; i++)
        put_option(f, "each", &c->each[i]);
    put_tc(f, "tc", &c->tc);
    fprintf(f, "games %d\n", c->games);
    fprintf(f, "margin %" PRId64 "\ntimeout %" PRId64 "\nmaxplies %d\n", c->margin_ms,
            c->timeout_ms, c->max_plies);
    fprintf(f, "seed %" PRIu64 "\nshuffle %d\n", c->seed, c->shuffle);
    uint64_t h = FNV0;
    for (int i = 0; i < nopenings; i++) {
        h = fnv(h, openings[i], strlen(openings[i]));
        h = fnv(h, "\n", 1);
    }
    fprintf(f, "openings %d %016" PRIx64 "\n", nopenings, h);
    if (c->sprt)
        fprintf(f, "sprt %s %.17g %.17g %.17g %.17g\n",
                c->sprt_model == SPRT_PENTANOMIAL ? "pentanomial" : "trinomial", c->elo0, c->elo1,
                c->alpha, c->beta);
    else
        fprintf(f, "sprt none\n");
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

int shard_add(ShardFile *f, const ShardGame *g)
{
    if (f->ngames == f->cap) {
        int cap = f->cap ? 2 * f->cap : 16;
        ShardGame *p = realloc(f->game, (size_t)cap * sizeof *p);
        if (!p)
            return -1;
        f->game = p;
        f->cap = cap;
    }
    ShardGame *d = &f->game[f->ngames];
    *d = *g;
    d->moves = strdup(g->moves ? g->moves : "");
    if (!d->moves)
        return -1;
    f->ngames++;
    return 0;
}

void shard_free(ShardFile *f)
{
    for (int i = 0; i < f->ngames; i++)
        free(f->game[i].moves);
    free(f->game);
    free(f->ident);
    free(f->path);
    memset(f, 0, sizeof *f);
}

static int by_number(const void *a, const void *b)
{
    const ShardGame *x = a, *y = b;
    return (x->number > y->number) - (x->number < y->number);
}

static const char *result_word(int r)
{
    return r == RESULT_P1_WIN ? "1-0" : r == RESULT_P2_WIN ? "0-1" : "1/2-1/2";
}

/* The termination's name with '-' for blanks (one word). */
static void term_word(const char *const *names, int nterm, int t, char *buf, size_t len)
{
    snprintf(buf, len, "%s", t >= 0 && t < nterm ? names[t] : "?");
    for (char *p = buf; *p; p++)
        if (*p == ' ')
            *p = '-';
}

int shard_write(const char *path, ShardFile *f, const char *const *term_names, int nterm, char *err,
                size_t errlen)
{
    char *body = NULL;
    size_t blen = 0;
    FILE *m = open_memstream(&body, &blen);
    if (!m) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    qsort(f->game, (size_t)f->ngames, sizeof *f->game, by_number);
    fprintf(m, "%s %d\n%s", SHARD_MAGIC, SHARD_VERSION, f->ident);
    fprintf(m, "match %016" PRIx64 "\n", fnv(FNV0, f->ident, strlen(f->ident)));
    fprintf(m, "shard %d/%d\n", f->k, f->n);
    for (int i = 0; i < f->ngames; i++) {
        const ShardGame *g = &f->game[i];
        char tw[64];
        term_word(term_names, nterm, g->term, tw, sizeof tw);
        fprintf(m, "game %d %d %s %s %d %d %d%s%s\n", g->number, g->p1, result_word(g->result), tw,
                g->forfeit, g->disagree, g->nplies, g->moves[0] ? " " : "", g->moves);
    }
    if (fclose(m) != 0) {
        free(body);
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    size_t tlen = strlen(path) + 32;
    char *tmp = malloc(tlen);
    if (!tmp) {
        free(body);
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    snprintf(tmp, tlen, "%s.tmp.%ld", path, (long)getpid());
    FILE *out = fopen(tmp, "w");
    int ok = out != NULL;
    if (ok) {
        ok = fwrite(body, 1, blen, out) == blen &&
             fprintf(out, "end %d %016" PRIx64 "\n", f->ngames, fnv(FNV0, body, blen)) > 0;
        ok = fflush(out) == 0 && fsync(fileno(out)) == 0 && ok;
        ok = fclose(out) == 0 && ok;
    }
    if (ok && rename(tmp, path) != 0)
        ok = 0;
    if (!ok) {
        snprintf(err, errlen, "%s: cannot write the results: %s", path, strerror(errno));
        unlink(tmp);
    }
    free(tmp);
    free(body);
    return ok ? 0 : -1;
}

/* --- reading -------------------------------------------------------------- */

static char *slurp(const char *path, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 65536;
            char *p = realloc(buf, cap);
            if (!p) {
                free(buf);
                fclose(f);
                snprintf(err, errlen, "%s: out of memory", path);
                return NULL;
            }
            buf = p;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        snprintf(err, errlen, "%s: read error", path);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

static int parse_result(const char *w)
{
    return !strcmp(w, "1-0")       ? RESULT_P1_WIN
           : !strcmp(w, "0-1")     ? RESULT_P2_WIN
           : !strcmp(w, "1/2-1/2") ? RESULT_DRAW
                                   : -1;
}

/* One "game ..." line (after "game ") into g; the moves point into line. */
static int parse_game(char *line, const char *const *term_names, int nterm, ShardGame *g)
{
    char *save = NULL, *w[7];
    for (int i = 0; i < 7; i++)
        if (!(w[i] = strtok_r(i ? NULL : line, " ", &save)))
            return -1;
    char *moves = strtok_r(NULL, "", &save);
    long long v[6];
    if (whole(w[0], 1, 1000000000, &v[0]) || whole(w[1], 0, 1, &v[1]) ||
        whole(w[4], -1, 1, &v[3]) || whole(w[5], 0, 1, &v[4]) || whole(w[6], 0, 100000000, &v[5]))
        return -1;
    int r = parse_result(w[2]), t = -1;
    for (int i = 0; i < nterm; i++) {
        char tw[64];
        term_word(term_names, nterm, i, tw, sizeof tw);
        if (!strcmp(tw, w[3]))
            t = i;
    }
    if (r < 0 || t < 0)
        return -1;
    int nmoves = 0;
    for (const char *p = moves; p && *p; nmoves++) {
        p += strcspn(p, " ");
        p += strspn(p, " ");
    }
    if (nmoves != v[5])
        return -1;
    *g = (ShardGame){.number = (int)v[0],
                     .p1 = (int)v[1],
                     .result = r,
                     .term = t,
                     .forfeit = (int)v[3],
                     .disagree = (int)v[4],
                     .nplies = (int)v[5],
                     .moves = moves ? moves : ""};
    return 0;
}

/* "shard K/N": 0 with *k, *n, or -1. */
static int parse_shard_line(const char *line, int *k, int *n)
{
    char spec[64], e[128];
    return strncmp(line, "shard ", 6) == 0 && sscanf(line + 6, "%63s", spec) == 1 &&
                   shard_parse_spec(spec, k, n, e, sizeof e) == 0
               ? 0
               : -1;
}

/* "game ...": 0 with *g (pointing into line), or -1. */
static int parse_game_line(char *line, const char *const *term_names, int nterm, ShardGame *g)
{
    return strncmp(line, "game ", 5) == 0 ? parse_game(line + 5, term_names, nterm, g) : -1;
}

/* The games of the match from its identity lines. */
static int ident_games(const char *ident)
{
    const char *p = strstr(ident, "\ngames ");
    return p ? atoi(p + 7) : 0;
}

/* The number (1-based) of the line of buf that p points into. */
static int line_number(const char *buf, const char *p)
{
    int n = 1;
    for (const char *q = buf; q < p; q++)
        n += *q == '\n';
    return n;
}

/*
 * The first line of buf[0..len) that cannot be what its place wants (an
 * identity line "key value", the match and shard lines, then game lines),
 * quoted into quote; 0 when every line reads well.  For a file whose
 * checksum failed: it names the line an edit or damage broke, when it
 * broke one.
 */
static int first_bad_line(const char *buf, size_t len, const char *const *term_names, int nterm,
                          char *quote, size_t qlen)
{
    int lineno = 0, part = 0, games = 0; /* part: 0 identity, 1 shard, 2 games */
    char line[8192];
    for (size_t at = 0; at < len;) {
        size_t n = strcspn(buf + at, "\n");
        lineno++;
        int ok;
        snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line - 1 ? n : sizeof line - 1),
                 buf + at);
        snprintf(quote, qlen, "%.60s%s", line, n > 60 ? "..." : "");
        if (lineno == 1) {
            ok = 1; /* the version line, checked before */
        } else if (part == 0) {
            ok = strchr(line, ' ') != NULL;
            part = !strncmp(line, "match ", 6);
        } else if (part == 1) {
            int k, nn;
            ok = parse_shard_line(line, &k, &nn) == 0;
            part = 2;
        } else if (at + n + 1 >= len) {
            int count = -1; /* the end line: its count of game lines */
            ok = sscanf(line, "end %d", &count) == 1 && count == games;
        } else {
            ShardGame g;
            ok = n < sizeof line - 1 && parse_game_line(line, term_names, nterm, &g) == 0;
            games++;
        }
        if (!ok)
            return lineno;
        at += n + 1;
    }
    return 0;
}

int shard_read(const char *path, ShardFile *f, const char *const *term_names, int nterm, char *err,
               size_t errlen)
{
    memset(f, 0, sizeof *f);
    size_t len;
    char *buf = slurp(path, &len, err, errlen);
    if (!buf)
        return -1;
    int rc = -1;
    char magic[64];
    int version = 0;
    if (sscanf(buf, "%63s %d", magic, &version) != 2 || strcmp(magic, SHARD_MAGIC) != 0) {
        size_t n = strcspn(buf, "\n");
        snprintf(err, errlen, "%s: not a match results file (no '%s' line; line 1 is '%.*s%s')",
                 path, SHARD_MAGIC, (int)(n < 60 ? n : 60), buf, n > 60 ? "..." : "");
        goto out;
    }
    if (version != SHARD_VERSION || strchr(buf, '\n') - buf != (long)strlen(SHARD_MAGIC) + 2) {
        snprintf(err, errlen, "%s: results file version %d; this runner reads version %d only",
                 path, version, SHARD_VERSION);
        goto out;
    }
    /* The end line: the last line, complete. */
    if (len < 2 || buf[len - 1] != '\n') {
        snprintf(err, errlen, "%s: truncated (line %d, the last, is not complete)", path,
                 line_number(buf, buf + len));
        goto out;
    }
    buf[len - 1] = '\0';
    char *last = strrchr(buf, '\n');
    buf[len - 1] = '\n';
    int nend = -1;
    uint64_t sum = 0;
    char tail;
    if (!last || sscanf(last + 1, "end %d %" SCNx64 "%c", &nend, &sum, &tail) != 3 ||
        tail != '\n') {
        snprintf(err, errlen, "%s: truncated (the last line, line %d, is no end line)", path,
                 line_number(buf, last ? last + 1 : buf));
        goto out;
    }
    size_t body = (size_t)(last + 1 - buf);
    if (fnv(FNV0, buf, body) != sum) {
        char quote[80];
        int bad = first_bad_line(buf, len, term_names, nterm, quote, sizeof quote);
        if (bad)
            snprintf(err, errlen,
                     "%s: checksum mismatch: the file was edited or damaged; line %d is wrong: "
                     "'%s'",
                     path, bad, quote);
        else
            snprintf(err, errlen,
                     "%s: checksum mismatch: the file was edited or damaged (every line reads "
                     "well: a value was changed)",
                     path);
        goto out;
    }
    buf[body] = '\0';
    /* Identity lines up to "match", then shard, then games. */
    char *line = strchr(buf, '\n') + 1, *ident = line, *match = NULL;
    while (*line && strncmp(line, "match ", 6) != 0)
        line = strchr(line, '\n') + 1;
    if (!*line) {
        snprintf(err, errlen, "%s: no match line", path);
        goto out;
    }
    match = line;
    *match = '\0';
    f->ident = strdup(ident);
    f->path = strdup(path);
    if (!f->ident || !f->path) {
        snprintf(err, errlen, "%s: out of memory", path);
        goto out;
    }
    uint64_t mh = 0;
    if (sscanf(match + 1, "atch %" SCNx64, &mh) != 1 ||
        mh != fnv(FNV0, f->ident, strlen(f->ident))) {
        snprintf(err, errlen, "%s: the match line does not fit the identity lines", path);
        goto out;
    }
    f->games = ident_games(f->ident);
    line = strchr(match + 1, '\n') + 1;
    char *nl = strchr(line, '\n');
    if (nl)
        *nl = '\0';
    if (!nl || parse_shard_line(line, &f->k, &f->n) != 0) {
        snprintf(err, errlen, "%s: no valid shard line", path);
        goto out;
    }
    if (f->games < 1) {
        snprintf(err, errlen, "%s: no valid games line", path);
        goto out;
    }
    char *seen = calloc((size_t)f->games + 1, 1);
    if (!seen) {
        snprintf(err, errlen, "%s: out of memory", path);
        goto out;
    }
    int lineno = line_number(buf, line), bad = 0;
    for (line = nl + 1; *line && !bad; line = nl + 1) {
        nl = strchr(line, '\n');
        *nl = '\0';
        lineno++;
        ShardGame g;
        char quote[64];
        snprintf(quote, sizeof quote, "%.60s", line);
        if (parse_game_line(line, term_names, nterm, &g) != 0) {
            snprintf(err, errlen, "%s: line %d is not a valid game line: '%s'", path, lineno,
                     quote);
            bad = 1;
        } else if (g.number > f->games || !shard_owns(f->k, f->n, (g.number - 1) / 2)) {
            snprintf(err, errlen, "%s: game %d is not one of shard %d/%d of a %d-game match", path,
                     g.number, f->k, f->n, f->games);
            bad = 1;
        } else if (seen[g.number]++) {
            snprintf(err, errlen, "%s: game %d appears twice", path, g.number);
            bad = 1;
        } else if (shard_add(f, &g) != 0) {
            snprintf(err, errlen, "%s: out of memory", path);
            bad = 1;
        }
    }
    free(seen);
    if (bad)
        goto out;
    if (f->ngames != nend) {
        snprintf(err, errlen, "%s: %d game lines, the end line says %d", path, f->ngames, nend);
        goto out;
    }
    rc = 0;
out:
    free(buf);
    if (rc != 0)
        shard_free(f);
    return rc;
}

/* --- joining ---------------------------------------------------------------- */

/* The first line where a and b differ, quoted from each, into buf. */
static void first_difference(const char *a, const char *b, char *buf, size_t len)
{
    while (*a && *b) {
        size_t na = strcspn(a, "\n"), nb = strcspn(b, "\n");
        if (na != nb || memcmp(a, b, na) != 0) {
            snprintf(buf, len, "'%.*s' against '%.*s'", (int)(na < 120 ? na : 120), a,
                     (int)(nb < 120 ? nb : 120), b);
            return;
        }
        a += na + (a[na] == '\n');
        b += nb + (b[nb] == '\n');
    }
    snprintf(buf, len, "'%.120s' against '%.120s'", *a ? a : "(end)", *b ? b : "(end)");
}

/* Appends "what" to a list of at most 8 items in buf ("and more" after). */
static void list_add(char *buf, size_t len, int *count, const char *what)
{
    size_t used = strlen(buf);
    if (*count < 8)
        snprintf(buf + used, len - used, "%s%s", *count ? ", " : "", what);
    else if (*count == 8)
        snprintf(buf + used, len - used, ", ...");
    (*count)++;
}

int shard_join(ShardFile *files, int n, ShardFile *all, char *err, size_t errlen)
{
    memset(all, 0, sizeof *all);
    if (n < 1) {
        snprintf(err, errlen, "--merge wants at least one results file");
        return -1;
    }
    const ShardFile *f0 = &files[0];
    for (int i = 1; i < n; i++) {
        char diff[300];
        if (strcmp(files[i].ident, f0->ident) != 0) {
            first_difference(f0->ident, files[i].ident, diff, sizeof diff);
            snprintf(err, errlen, "%s and %s are not shards of one match: %s", f0->path,
                     files[i].path, diff);
            return -1;
        }
        if (files[i].n != f0->n) {
            snprintf(err, errlen, "%s is shard %d/%d, %s shard %d/%d: not one split", f0->path,
                     f0->k, f0->n, files[i].path, files[i].k, files[i].n);
            return -1;
        }
    }
    int games = f0->games;
    int *from = malloc(((size_t)games + 1) * sizeof *from);
    if (!from) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int g = 0; g <= games; g++)
        from[g] = -1;
    char list[600] = "";
    int count = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < files[i].ngames; j++) {
            int num = files[i].game[j].number;
            if (from[num] >= 0) {
                char what[300];
                snprintf(what, sizeof what, "pair %d (game %d) in %s and %s", (num - 1) / 2 + 1,
                         num, files[from[num]].path, files[i].path);
                list_add(list, sizeof list, &count, what);
            } else {
                from[num] = i;
            }
        }
    }
    if (count) {
        snprintf(err, errlen, "duplicated: %s", list);
        free(from);
        return -1;
    }
    for (int p = 0; p < (games + 1) / 2; p++) {
        int a = 2 * p + 1, b = a + 1 <= games ? a + 1 : a;
        if (from[a] < 0 || from[b] < 0) {
            char what[128];
            snprintf(what, sizeof what, "pair %d (shard %d/%d)", p + 1, p % f0->n + 1, f0->n);
            list_add(list, sizeof list, &count, what);
        }
    }
    if (count) {
        snprintf(err, errlen, "missing %d pair%s of %d: %s", count, count > 1 ? "s" : "",
                 (games + 1) / 2, list);
        free(from);
        return -1;
    }
    all->ident = strdup(f0->ident);
    all->path = strdup("merged");
    all->k = 1;
    all->n = 1;
    all->games = games;
    int rc = all->ident && all->path ? 0 : -1;
    for (int g = 1; g <= games && rc == 0; g++) {
        const ShardFile *f = &files[from[g]];
        for (int j = 0; j < f->ngames; j++)
            if (f->game[j].number == g)
                rc = shard_add(all, &f->game[j]);
    }
    free(from);
    if (rc != 0) {
        shard_free(all);
        snprintf(err, errlen, "out of memory");
    }
    return rc;
}

/* --- the report's settings back from the identity -------------------------- */

static int parse_tc(const char *s, TimeControl *tc)
{
    long long a, b;
    char kind[16];
    int n = sscanf(s, "%15s %lld %lld", kind, &a, &b);
    memset(tc, 0, sizeof *tc);
    if (n == 3 && !strcmp(kind, "clock")) {
        tc->type = TC_CLOCK;
        tc->time_ms = a;
        tc->inc_ms = b;
    } else if (n == 2 && !strcmp(kind, "movetime")) {
        tc->type = TC_MOVETIME;
        tc->movetime_ms = a;
    } else if (n == 2 && !strcmp(kind, "depth")) {
        tc->type = TC_DEPTH;
        tc->depth = (int)a;
    } else if (n == 2 && !strcmp(kind, "nodes")) {
        tc->type = TC_NODES;
        tc->nodes = (uint64_t)a;
    } else {
        return -1;
    }
    return 0;
}

int shard_config(const char *ident, MatchConfig *c, char *err, size_t errlen)
{
    char *copy = strdup(ident), *save = NULL;
    if (!copy) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int bad = 0;
    for (char *l = strtok_r(copy, "\n", &save); l && !bad; l = strtok_r(NULL, "\n", &save)) {
        char *v = strchr(l, ' ');
        if (!v)
            continue;
        *v++ = '\0';
        if (!strcmp(l, "variant")) {
            c->game = game_by_name(v);
            bad = !c->game;
        } else if (!strcmp(l, "engine1.name") || !strcmp(l, "engine2.name")) {
            match_str_copy(c->engines[l[6] - '1'].name, MATCH_NAME_MAX, v);
        } else if (!strcmp(l, "engine1.tc") || !strcmp(l, "engine2.tc")) {
            EngineSpec *s = &c->engines[l[6] - '1'];
            s->has_tc = strcmp(v, "none") != 0;
            bad = s->has_tc && parse_tc(v, &s->tc) != 0;
        } else if (!strcmp(l, "tc")) {
            bad = parse_tc(v, &c->tc) != 0;
        } else if (!strcmp(l, "games")) {
            c->games = atoi(v);
            bad = c->games < 1;
        } else if (!strcmp(l, "sprt")) {
            char model[16];
            c->sprt = strcmp(v, "none") != 0;
            if (c->sprt) {
                bad = sscanf(v, "%15s %lf %lf %lf %lf", model, &c->elo0, &c->elo1, &c->alpha,
                             &c->beta) != 5;
                c->sprt_model = strcmp(model, "trinomial") ? SPRT_PENTANOMIAL : SPRT_TRINOMIAL;
            }
        }
        if (bad)
            snprintf(err, errlen, "bad identity line '%.40s %.80s'", l, v);
    }
    free(copy);
    if (!bad && !c->game) {
        snprintf(err, errlen, "no variant line");
        bad = 1;
    }
    return bad ? -1 : 0;
}
