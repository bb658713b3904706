/*
 * setup.c -- Morelli start positions (the adjacent, facing, random
 * opposite-pair, free and pairs setups) and FEN: reading with its checks
 * (board size from the rows, placement-phase consistency) and writing.
 */
#include "internal.h"

#include <ctype.h>
#include <string.h>

static int size_index(int n)
{
    return n == 9 ? 0 : n == 11 ? 1 : n == 13 ? 2 : -1;
}

static void pos_empty(MoPos *p, int n, const MorelliOptions *opt)
{
    memset(p, 0, sizeof *p);
    p->n = (uint8_t)n;
    p->sz = (uint8_t)size_index(n);
    p->ruleset = (uint8_t)(opt->ruleset == RULESET_CLASSIC);
    p->pairs = (uint8_t)(opt->setup == SETUP_PAIRS);
    p->ring = (uint8_t)(4 * (n - 1));
}

static void put(MoPos *p, int side, int file, int rank)
{
    bits_set(&p->stones[side], rank * p->n + file);
    p->count++;
}

int mo_init(void *pos, const GameOptions *settings, char *err, size_t errlen)
{
    morelli_tables_init();
    GameOptions def;
    const MorelliOptions *opt = game_opts_or_default(&game_morelli, settings, &def);
    int n = opt->board_size;
    if (size_index(n) < 0) {
        snprintf(err, errlen, "morelli: board size %d (expected 9, 11 or 13)", n);
        return -1;
    }
    if (opt->ruleset != RULESET_STANDARD && opt->ruleset != RULESET_CLASSIC) {
        snprintf(err, errlen, "morelli: unknown ruleset %d", (int)opt->ruleset);
        return -1;
    }
    if (opt->setup < SETUP_ADJACENT || opt->setup > SETUP_PAIRS) {
        snprintf(err, errlen, "morelli: unknown setup %d", (int)opt->setup);
        return -1;
    }
    MoPos p;
    pos_empty(&p, n, opt);
    int l = n - 1;
    switch (opt->setup) {
    case SETUP_ADJACENT:
        for (int i = 0; i < n; i++) {
            put(&p, SIDE_P1, 0, i);
            put(&p, SIDE_P2, l, i);
        }
        for (int i = 1; i < l; i++) {
            put(&p, SIDE_P1, i, 0);
            put(&p, SIDE_P2, i, l);
        }
        break;
    case SETUP_FACING:
        for (int i = 0; i < l; i++) {
            put(&p, SIDE_P1, i, 0);
            put(&p, SIDE_P1, i + 1, l);
            put(&p, SIDE_P2, 0, i + 1);
            put(&p, SIDE_P2, l, i);
        }
        break;
    case SETUP_RANDOM: {
        const MoTables *t = &morelli_tables[p.sz];
        uint64_t rng = opt->setup_seed ^ 0x52616E646F6D5365ull;
        for (int c = 0; c < n * n; c++) {
            if (t->band[c] != t->outer_band || t->opposite[c] < c)
                continue;
            int s = (int)(rng_next(&rng) >> 63);
            put(&p, s, c % n, c / n);
            put(&p, s ^ 1, t->opposite[c] % n, t->opposite[c] / n);
        }
        break;
    }
    default: /* free, pairs: an empty board, Black places first */ break;
    }
    p.stm = SIDE_P1;
    mo_derive(&p);
    memcpy(pos, &p, sizeof p);
    return 0;
}

int mo_from_fen(void *pos, const char *fen, const GameOptions *settings, char *err, size_t errlen)
{
    morelli_tables_init();
    GameOptions def;
    const MorelliOptions *opt = game_opts_or_default(&game_morelli, settings, &def);
    if (!fen) {
        snprintf(err, errlen, "fen: missing");
        return -1;
    }
    while (*fen == ' ' || *fen == '\t')
        fen++;
    /* the board part: count the rows to learn N */
    size_t blen = strcspn(fen, " \t\r\n");
    int rows = 1;
    for (size_t i = 0; i < blen; i++)
        rows += fen[i] == '/';
    if (blen == 0 || size_index(rows) < 0) {
        snprintf(err, errlen, "fen: %d rows (expected 9, 11 or 13)", blen ? rows : 0);
        return -1;
    }
    int n = rows;
    MoPos p;
    pos_empty(&p, n, opt);
    const MoTables *t = &morelli_tables[p.sz];
    const char *s = fen;
    for (int r = n - 1; r >= 0; r--) {
        int f = 0;
        while (*s && *s != '/' && *s != ' ' && *s != '\t' && *s != '\r' && *s != '\n') {
            if (isdigit((unsigned char)*s)) {
                if (*s == '0') {
                    snprintf(err, errlen, "fen: bad number in rank %d", r + 1);
                    return -1;
                }
                int k = 0;
                while (isdigit((unsigned char)*s) && k <= n)
                    k = k * 10 + (*s++ - '0');
                f += k;
                if (f > n)
                    break;
                continue;
            }
            int side = *s == 'b' || *s == 'B' ? SIDE_P1 : *s == 'w' || *s == 'W' ? SIDE_P2 : -1;
            if (side < 0) {
                snprintf(err, errlen, "fen: bad character '%c' in rank %d",
                         isprint((unsigned char)*s) ? *s : '?', r + 1);
                return -1;
            }
            if (f >= n) {
                f = n + 1;
                break;
            }
            int c = r * n + f;
            if (isupper((unsigned char)*s)) {
                if (c != t->centre) {
                    snprintf(err, errlen, "fen: a king off the Throne on %c%d", 'a' + f, r + 1);
                    return -1;
                }
                p.throne = (uint8_t)(side + 1);
            } else {
                if (c == t->centre) {
                    snprintf(err, errlen, "fen: a stone on the Throne");
                    return -1;
                }
                bits_set(&p.stones[side], c);
                p.count++;
            }
            f++;
            s++;
        }
        if (f != n) {
            snprintf(err, errlen, "fen: rank %d has %s than %d cells", r + 1,
                     f > n ? "more" : "fewer", n);
            return -1;
        }
        if (r > 0) {
            if (*s != '/') {
                snprintf(err, errlen, "fen: rank %d not followed by '/'", r + 1);
                return -1;
            }
            s++;
        }
    }
    if (*s != ' ' && *s != '\t') {
        snprintf(err, errlen, "fen: missing side to move");
        return -1;
    }
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s != 'b' && *s != 'w') {
        snprintf(err, errlen, "fen: bad side to move (expected b or w)");
        return -1;
    }
    p.stm = (uint8_t)(*s == 'w');
    s++;
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        s++;
    if (*s) {
        snprintf(err, errlen, "fen: trailing characters after the side to move");
        return -1;
    }
    if (p.count > p.ring) {
        snprintf(err, errlen, "fen: %d stones, more than the outer ring holds (%d)", p.count,
                 p.ring);
        return -1;
    }
    if (p.count < p.ring) {
        Bits all = bits_or(p.stones[0], p.stones[1]);
        Bits off = bits_andnot(all, t->ring_mask);
        if (bits_any(&off)) {
            int c = bits_lowest(&off);
            snprintf(err, errlen,
                     "fen: placement phase (%d of %d stones) with a stone off the outer ring "
                     "on %c%d",
                     p.count, p.ring, 'a' + c % n, c / n + 1);
            return -1;
        }
        if (p.throne) {
            snprintf(err, errlen, "fen: placement phase with a king on the Throne");
            return -1;
        }
        if (p.pairs) {
            int bad = 0;
            for (int side = 0; side < 2; side++) {
                Bits b = p.stones[side];
                while (bits_any(&b)) {
                    int c = bits_pop(&b);
                    bad |= !bits_test(&p.stones[side ^ 1], t->opposite[c]);
                }
            }
            if (bad) {
                snprintf(err, errlen,
                         "fen: pairs placement with a stone not facing an adverse one");
                return -1;
            }
        }
        if (p.stm != placement_side(p.count, p.pairs)) {
            snprintf(err, errlen, "fen: side to move does not follow the placement schedule");
            return -1;
        }
    }
    mo_derive(&p);
    memcpy(pos, &p, sizeof p);
    return 0;
}

void mo_to_fen(const void *pos, char *buf, size_t len)
{
    const MoPos *p = pos;
    const MoTables *t = mo_tables(p);
    char tmp[FEN_MAX];
    size_t k = 0;
    int n = p->n;
    for (int r = n - 1; r >= 0; r--) {
        int run = 0;
        for (int f = 0; f < n; f++) {
            int c = r * n + f;
            char ch = 0;
            if (bits_test(&p->stones[0], c))
                ch = 'b';
            else if (bits_test(&p->stones[1], c))
                ch = 'w';
            else if (c == t->centre && p->throne)
                ch = p->throne == 1 ? 'B' : 'W';
            if (!ch) {
                run++;
                continue;
            }
            if (run)
                k += (size_t)snprintf(tmp + k, sizeof tmp - k, "%d", run);
            run = 0;
            tmp[k++] = ch;
        }
        if (run)
            k += (size_t)snprintf(tmp + k, sizeof tmp - k, "%d", run);
        if (r > 0)
            tmp[k++] = '/';
    }
    tmp[k++] = ' ';
    tmp[k++] = p->stm == SIDE_P1 ? 'b' : 'w';
    tmp[k] = '\0';
    snprintf(buf, len, "%s", tmp);
}
