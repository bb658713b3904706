/*
 * Morelli against a reference: a deliberately plain generator written here
 * from RULES.md alone (a grid of characters, loops over cells and steps, no
 * bitboards, nothing shared with engine/morelli/), compared with the engine
 * on every position of random games of every board size, ruleset and setup.
 * For each legal move both sides give the move text and the FEN after it;
 * the two sets must be equal.  The game list comes from
 * tests/data/morelli_ref.txt.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "game.h"
#include "options.h"
#include "testdata.h"

static const Game *G = &game_morelli;

#define MAXN 13
#define ITEM_LEN (MOVE_STR_MAX + FEN_MAX + 2)

typedef struct Ref {
    int n;
    char cell[MAXN][MAXN]; /* [rank][file]: '.', 'b', 'w' */
    char throne;           /* '.', 'B', 'W' */
    char stm;              /* 'b', 'w' */
    int classic, pairs;
} Ref;

static int iabs(int x)
{
    return x < 0 ? -x : x;
}

static int band(const Ref *r, int f, int k)
{
    int h = (r->n - 1) / 2, a = iabs(f - h), b = iabs(k - h);
    return a > b ? a : b;
}

static void ref_from_fen(Ref *r, const char *fen, int classic, int pairs)
{
    int rows = 1;
    for (const char *s = fen; *s && *s != ' '; s++)
        rows += *s == '/';
    r->n = rows;
    r->throne = '.';
    r->classic = classic;
    r->pairs = pairs;
    char cells[MAXN * MAXN];
    r->stm = *td_fen_board(fen, rows, cells);
    for (int k = 0; k < rows; k++)
        for (int f = 0; f < rows; f++) {
            char c = cells[k * rows + f];
            if (c == 'B' || c == 'W') {
                r->throne = c;
                c = '.';
            }
            r->cell[k][f] = c;
        }
}

static void ref_to_fen(const Ref *r, char *out, size_t len)
{
    char cells[MAXN * MAXN];
    int h = (r->n - 1) / 2;
    for (int k = 0; k < r->n; k++)
        for (int f = 0; f < r->n; f++)
            cells[k * r->n + f] = r->cell[k][f];
    if (r->cell[h][h] == '.' && r->throne != '.')
        cells[h * r->n + h] = r->throne;
    size_t k = td_fen_rows(cells, r->n, out, len);
    snprintf(out + k, len - k, " %c", r->stm);
}

static int stones(const Ref *r)
{
    int c = 0;
    for (int k = 0; k < r->n; k++)
        for (int f = 0; f < r->n; f++)
            c += r->cell[k][f] != '.';
    return c;
}

/* Side to place after `placed` stones: Black 1, White 2, Black 2, ...
 * walked unit by unit (a unit is a stone, or a pair). */
static char placer(int placed, int pairs)
{
    int units = pairs ? placed / 2 : placed;
    char side = 'b';
    int left = 1;
    for (int i = 0; i < units; i++)
        if (--left == 0) {
            side = side == 'b' ? 'w' : 'b';
            left = 2;
        }
    return side;
}

/* Is every cell of the orbit of (f,k) a stone of colour c? */
static int orbit_full(const Ref *r, int f, int k, char c)
{
    int h = (r->n - 1) / 2, x = f - h, y = k - h;
    for (int q = 0; q < 4; q++) {
        if (r->cell[y + h][x + h] != c)
            return 0;
        int nx = -y, ny = x;
        x = nx;
        y = ny;
    }
    return 1;
}

static void add(char (*items)[ITEM_LEN], int *n, int max, const char *text, const Ref *after)
{
    char fen[FEN_MAX];
    ref_to_fen(after, fen, sizeof fen);
    assert_true(*n < max);
    snprintf(items[*n], ITEM_LEN, "%s|%s", text, fen);
    (*n)++;
}

/* Every legal move of r as "text|fen after". */
static int ref_moves(const Ref *r, char (*items)[ITEM_LEN], int max)
{
    static const int dx[8] = {1, 1, 0, -1, -1, -1, 0, 1};
    static const int dy[8] = {0, 1, 1, 1, 0, -1, -1, -1};
    const int n = r->n, h = (n - 1) / 2, ring = 4 * (n - 1);
    const char me = r->stm, op = me == 'b' ? 'w' : 'b';
    const char king = me == 'b' ? 'B' : 'W';
    int count = 0;
    int placed = stones(r);
    char text[MOVE_STR_MAX];
    if (placed < ring) {
        for (int k = 0; k < n; k++)
            for (int f = 0; f < n; f++) {
                if (band(r, f, k) != h || r->cell[k][f] != '.')
                    continue;
                Ref a = *r;
                a.cell[k][f] = me;
                if (r->pairs)
                    a.cell[n - 1 - k][n - 1 - f] = op;
                int now = placed + (r->pairs ? 2 : 1);
                a.stm = now < ring ? placer(now, r->pairs) : 'b';
                snprintf(text, sizeof text, "%c%d", 'a' + f, k + 1);
                add(items, &count, max, text, &a);
            }
        return count;
    }
    for (int k = 0; k < n; k++)
        for (int f = 0; f < n; f++) {
            if (r->cell[k][f] != me)
                continue;
            for (int d = 0; d < 8; d++)
                for (int step = 1;; step++) {
                    int tf = f + step * dx[d], tk = k + step * dy[d];
                    if (tf < 0 || tf >= n || tk < 0 || tk >= n)
                        break;
                    if (tf == h && tk == h) {
                        if (r->throne != '.')
                            break;
                        continue; /* pass over the empty Throne */
                    }
                    if (r->cell[tk][tf] != '.')
                        break;
                    if (band(r, tf, tk) >= band(r, f, k))
                        continue;
                    /* land, then find the captures on that board */
                    Ref a = *r;
                    a.cell[k][f] = '.';
                    a.cell[tk][tf] = me;
                    a.stm = op;
                    int cf[8], ck[8], nc = 0;
                    for (int e = 0; e < 8; e++) {
                        int sf = tf + dx[e], sk = tk + dy[e];
                        int pf = tf + 2 * dx[e], pk = tk + 2 * dy[e];
                        if (pf < 0 || pf >= n || pk < 0 || pk >= n)
                            continue;
                        if (a.cell[sk][sf] == op && a.cell[pk][pf] == me) {
                            cf[nc] = sf;
                            ck[nc] = sk;
                            nc++;
                        }
                    }
                    /* canonical order: rank, then file */
                    for (int i = 1; i < nc; i++)
                        for (int j = i; j > 0 && (ck[j - 1] > ck[j] ||
                                                  (ck[j - 1] == ck[j] && cf[j - 1] > cf[j]));
                             j--) {
                            int t1 = cf[j], t2 = ck[j];
                            cf[j] = cf[j - 1];
                            ck[j] = ck[j - 1];
                            cf[j - 1] = t1;
                            ck[j - 1] = t2;
                        }
                    unsigned all = (1u << nc) - 1;
                    for (unsigned sub = 0; sub <= all; sub++) {
                        if (!r->classic && sub != all)
                            continue;
                        Ref b = a;
                        int len = snprintf(text, sizeof text, "%c%d-%c%d", 'a' + f, k + 1, 'a' + tf,
                                           tk + 1);
                        for (int i = 0; i < nc; i++)
                            if (sub & (1u << i)) {
                                b.cell[ck[i]][cf[i]] = me;
                                if (r->classic)
                                    len += snprintf(text + len, sizeof text - (size_t)len, "x%c%d",
                                                    'a' + cf[i], ck[i] + 1);
                            }
                        int frame = orbit_full(&b, tf, tk, me);
                        for (int i = 0; i < nc; i++)
                            if (sub & (1u << i))
                                frame |= orbit_full(&b, cf[i], ck[i], me);
                        if (frame && r->throne != king) {
                            Ref c = b;
                            c.throne = king;
                            char t2[MOVE_STR_MAX + 2];
                            snprintf(t2, sizeof t2, "%s%s", text, r->classic ? "+" : "");
                            add(items, &count, max, t2, &c);
                            if (!r->classic)
                                continue;
                        }
                        add(items, &count, max, text, &b);
                    }
                }
        }
    return count;
}

/* The king on the Throne in a FEN, or '.'. */
static char king_of(const char *fen)
{
    const char *k = strpbrk(fen, "BW");
    return k ? *k : '.';
}

static int cmp_item(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

static void test_against_reference(void **state)
{
    (void)state;
    enum { MAXI = 20000 };
    static char mine[MAXI][ITEM_LEN], ref[MAXI][ITEM_LEN];
    unsigned char pos[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    Move *moves = malloc(sizeof(Move) * (size_t)G->max_moves);
    assert_non_null(moves);
    char err[256], fen[FEN_MAX], line[256], text[MOVE_STR_MAX];
    FILE *f = td_open("morelli_ref.txt");
    long positions = 0, total_moves = 0, noisy = 0, enthroning = 0;
    int configs = 0;
    while (td_next_line(f, line, sizeof line, NULL)) {
        int games;
        unsigned long long seed;
        GameOptions opt;
        assert_int_equal(td_morelli_row(line, &opt, &games, &seed), 0);
        if (td_sanitized() && games > 1)
            games = 1;
        uint64_t rng = seed;
        for (int g = 0; g < games; g++) {
            morelli_opts(&opt)->setup_seed = rng_next(&rng);
            assert_int_equal(G->init(pos, &opt, err, sizeof err), 0);
            for (;;) {
                G->to_fen(pos, fen, sizeof fen);
                Ref r;
                ref_from_fen(&r, fen, morelli_opts(&opt)->ruleset == RULESET_CLASSIC,
                             morelli_opts(&opt)->setup == SETUP_PAIRS);
                int nr = ref_moves(&r, ref, MAXI);
                int n = G->gen_moves(pos, moves);
                assert_true(n <= MAXI);
                for (int i = 0; i < n; i++) {
                    char after[FEN_MAX];
                    G->move_to_str(pos, moves[i], text, sizeof text);
                    noisy += G->move_is_noisy(pos, moves[i]) != 0;
                    G->make(pos, moves[i], undo);
                    G->to_fen(pos, after, sizeof after);
                    G->unmake(pos, moves[i], undo);
                    enthroning += king_of(after) != king_of(fen);
                    snprintf(mine[i], ITEM_LEN, "%s|%s", text, after);
                }
                qsort(mine, (size_t)n, ITEM_LEN, cmp_item);
                qsort(ref, (size_t)nr, ITEM_LEN, cmp_item);
                int same = n == nr;
                for (int i = 0; same && i < n; i++)
                    same = strcmp(mine[i], ref[i]) == 0;
                if (!same) {
                    print_error("%d %s %s: position %s\n  engine %d moves, reference %d\n",
                                (int)morelli_opts(&opt)->board_size,
                                td_ruleset_names[morelli_opts(&opt)->ruleset],
                                td_setup_names[morelli_opts(&opt)->setup], fen, n, nr);
                    for (int i = 0, j = 0; i < n || j < nr;) {
                        int c = i >= n ? 1 : j >= nr ? -1 : strcmp(mine[i], ref[j]);
                        if (c < 0)
                            print_error("  only engine:    %s\n", mine[i++]);
                        else if (c > 0)
                            print_error("  only reference: %s\n", ref[j++]);
                        else
                            i++, j++;
                    }
                }
                assert_true(same);
                positions++;
                total_moves += n;
                if (n == 0)
                    break;
                G->make(pos, moves[rng_below(&rng, (uint32_t)n)], undo);
            }
        }
        configs++;
    }
    fclose(f);
    free(moves);
    assert_true(configs >= 10);
    assert_true(positions > 500);
    assert_true(total_moves > positions);
    print_message("%ld positions, %ld moves (%ld noisy, %ld enthroning)\n", positions, total_moves,
                  noisy, enthroning);
    /* the games reach captures and frames, not only quiet moves */
    assert_true(noisy > 1000);
    assert_true(enthroning > 100);
}

/* Leaves of the reference's own tree (a finished game is not expanded). */
static uint64_t ref_perft(const Ref *r, int depth)
{
    if (depth == 0)
        return 1;
    char(*items)[ITEM_LEN] = malloc(sizeof(char[ITEM_LEN]) * 2000);
    assert_non_null(items);
    int n = ref_moves(r, items, 2000);
    uint64_t total = 0;
    if (depth == 1) {
        total = (uint64_t)n;
    } else {
        for (int i = 0; i < n; i++) {
            Ref a;
            ref_from_fen(&a, strchr(items[i], '|') + 1, r->classic, r->pairs);
            total += ref_perft(&a, depth - 1);
        }
    }
    free(items);
    return total;
}

/* The reference alone reproduces the reference perft of RULES.md (the
 * small rows), so it is a witness of its own, not a copy of the engine. */
static void test_reference_perft(void **state)
{
    (void)state;
    FILE *f = td_open("perft.txt");
    char line[1024], err[256], fen[FEN_MAX];
    char *fld[TD_MAXF];
    unsigned char pos[POS_MAX_BYTES];
    int nf, rows = 0;
    while ((nf = td_next_record(f, line, sizeof line, fld)) > 0) {
        if (nf != 4 || strcmp(fld[0], "morelli") != 0 || strcmp(fld[2], "startpos") != 0)
            continue;
        GameOptions opt;
        char *cs;
        td_options(fld[1], &opt);
        /* the start position from the engine, as a FEN only */
        assert_int_equal(G->init(pos, &opt, err, sizeof err), 0);
        G->to_fen(pos, fen, sizeof fen);
        Ref r;
        ref_from_fen(&r, fen, morelli_opts(&opt)->ruleset == RULESET_CLASSIC,
                     morelli_opts(&opt)->setup == SETUP_PAIRS);
        int depth = 1;
        for (char *c = strtok_r(fld[3], " ", &cs); c; c = strtok_r(NULL, " ", &cs), depth++) {
            unsigned long long want = strtoull(c, NULL, 10);
            if (want > (td_sanitized() ? 40000ull : 250000ull))
                break;
            uint64_t got = ref_perft(&r, depth);
            if (got != want)
                print_error("reference: %s depth %d\n", fen, depth);
            assert_int_equal(got, want);
            rows++;
        }
    }
    fclose(f);
    assert_true(rows >= 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_perft),
        cmocka_unit_test(test_against_reference),
    };
    return cmocka_run_group_tests_name("morelli_ref", tests, NULL, NULL);
}
