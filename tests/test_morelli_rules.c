/*
 * Morelli rule cases read from tests/data/morelli_rules.txt: the examples of
 * the rule texts (Figs 2-5), frames, the Throne, kings, eviction, game end,
 * classic capture choices.  Each case is a FEN followed by checks:
 *   dests <from> <to>...        the exact landing cells of the stone on from
 *   legal / illegal <move>      the move text is / is not a legal move
 *   play <move> <fen after>     make gives that FEN; unmake restores the bytes
 *   landing <from-to> <text>... the exact set of legal texts with that from-to
 *   noisy / quiet <move>        move_is_noisy
 *   count <n>, result none|p1|p2|draw
 * A case may set "ruleset classic" or "setup free|pairs" before its fen.
 *   eval > <n> / eval < <n>     the static evaluation (side to move's view)
 *   playout <percent>           the playout policy picks an enthroning move
 *                               at least that often (fixed seed, 200 picks)
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
#include "testdata.h"

static const Game *G = &game_morelli;

typedef struct Case {
    char title[256];
    GameOptions opt;
    unsigned char pos[POS_MAX_BYTES];
    int have_pos;
    int line;
} Case;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Splits s on blanks into words (in place); returns the count. */
static int split(char *s, char **w, int max)
{
    int n = 0;
    for (char *t = strtok(s, " \t\r\n"); t && n < max; t = strtok(NULL, " \t\r\n"))
        w[n++] = t;
    return n;
}

/* Sorted word lists equal? Prints both on mismatch. */
static int same_set(const Case *c, const char *what, char **want, int nw, char **have, int nh)
{
    qsort(want, (size_t)nw, sizeof *want, cmp_str);
    qsort(have, (size_t)nh, sizeof *have, cmp_str);
    int ok = nw == nh;
    for (int i = 0; ok && i < nw; i++)
        ok = strcmp(want[i], have[i]) == 0;
    if (!ok) {
        print_error("line %d, case '%s': %s differ\n  expected:", c->line, c->title, what);
        for (int i = 0; i < nw; i++)
            print_error(" %s", want[i]);
        print_error("\n  engine:  ");
        for (int i = 0; i < nh; i++)
            print_error(" %s", have[i]);
        print_error("\n");
    }
    return ok;
}

/* The king on the Throne in a FEN ('B', 'W') or '.'. */
static char throne_char(const char *fen)
{
    for (; *fen && *fen != ' '; fen++)
        if (*fen == 'B' || *fen == 'W')
            return *fen;
    return '.';
}

static int check_line(Case *c, char *line)
{
    char *w[64];
    char err[256], fen[FEN_MAX];
    Move moves[G->max_moves];
    static char texts[1024][MOVE_STR_MAX];
    char *have[1024];
    int nw = split(line, w, 64);
    if (nw == 0)
        return 1;
    if (!c->have_pos) {
        print_error("line %d: '%s' before any fen\n", c->line, w[0]);
        return 0;
    }
    void *pos = c->pos;
    if (strcmp(w[0], "dests") == 0 || strcmp(w[0], "landing") == 0) {
        int dests = w[0][0] == 'd';
        int n = G->gen_moves(pos, moves), nh = 0;
        size_t plen = strlen(w[1]);
        for (int i = 0; i < n && nh < 1024; i++) {
            G->move_to_str(pos, moves[i], texts[nh], MOVE_STR_MAX);
            char *t = texts[nh];
            if (strncmp(t, w[1], plen) != 0)
                continue;
            if (dests) {
                if (t[plen] != '-')
                    continue;
                /* the landing cell: after '-', up to a suffix */
                char *to = t + plen + 1;
                to[strcspn(to, "x+")] = '\0';
                have[nh++] = to;
            } else if (t[plen] == '\0' || t[plen] == 'x' || t[plen] == '+') {
                have[nh++] = t;
            }
        }
        return same_set(c, w[0], w + 2, nw - 2, have, nh);
    }
    if (strcmp(w[0], "legal") == 0 || strcmp(w[0], "illegal") == 0) {
        Move m = game_parse_move(G, pos, w[1]);
        int want = w[0][0] == 'l';
        if ((m != MOVE_NONE) != want) {
            print_error("line %d, case '%s': %s should be %s\n", c->line, c->title, w[1], w[0]);
            return 0;
        }
        return 1;
    }
    if (strcmp(w[0], "play") == 0) {
        if (nw < 4) {
            print_error("line %d: play needs a move and a fen\n", c->line);
            return 0;
        }
        Move m = game_parse_move(G, pos, w[1]);
        if (m == MOVE_NONE) {
            print_error("line %d, case '%s': %s not legal\n", c->line, c->title, w[1]);
            return 0;
        }
        char want[FEN_MAX];
        snprintf(want, sizeof want, "%s %s", w[2], w[3]);
        unsigned char copy[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
        memcpy(copy, pos, G->pos_size);
        G->make(pos, m, undo);
        G->to_fen(pos, fen, sizeof fen);
        int ok = strcmp(fen, want) == 0 && G->key(pos) == G->key_from_scratch(pos);
        if (!ok)
            print_error("line %d, case '%s': after %s\n  expected %s\n  engine   %s\n", c->line,
                        c->title, w[1], want, fen);
        /* the FEN after must load to the same key */
        unsigned char back[POS_MAX_BYTES];
        if (ok && (G->from_fen(back, want, &c->opt, err, sizeof err) != 0 ||
                   G->key(back) != G->key(pos))) {
            print_error("line %d: fen after %s does not reload to the same key\n", c->line, w[1]);
            ok = 0;
        }
        G->unmake(pos, m, undo);
        if (memcmp(pos, copy, G->pos_size) != 0) {
            print_error("line %d, case '%s': unmake %s did not restore\n", c->line, c->title, w[1]);
            ok = 0;
        }
        return ok;
    }
    if (strcmp(w[0], "noisy") == 0 || strcmp(w[0], "quiet") == 0) {
        Move m = game_parse_move(G, pos, w[1]);
        int want = w[0][0] == 'n';
        if (m == MOVE_NONE || (G->move_is_noisy(pos, m) != 0) != want) {
            print_error("line %d, case '%s': %s should be %s\n", c->line, c->title, w[1], w[0]);
            return 0;
        }
        return 1;
    }
    if (strcmp(w[0], "count") == 0) {
        int n = G->gen_moves(pos, moves);
        if (n != atoi(w[1])) {
            print_error("line %d, case '%s': %d moves, expected %s\n", c->line, c->title, n, w[1]);
            return 0;
        }
        return 1;
    }
    if (strcmp(w[0], "result") == 0) {
        static const char *names[] = {"none", "p1", "p2", "draw"};
        int r = G->result(pos);
        if (strcmp(names[r], w[1]) != 0) {
            print_error("line %d, case '%s': result %s, expected %s\n", c->line, c->title, names[r],
                        w[1]);
            return 0;
        }
        return 1;
    }
    if (strcmp(w[0], "eval") == 0 && nw == 3) {
        int v = G->evaluate(pos), lim = atoi(w[2]);
        int ok = w[1][0] == '>' ? v > lim : v < lim;
        if (!ok)
            print_error("line %d, case '%s': eval %d, expected %s %d\n", c->line, c->title, v, w[1],
                        lim);
        return ok;
    }
    if (strcmp(w[0], "playout") == 0) {
        int n = G->gen_moves(pos, moves), hits = 0;
        uint64_t rng = 99;
        unsigned char undo[UNDO_MAX_BYTES];
        G->to_fen(pos, fen, sizeof fen);
        char before = throne_char(fen);
        for (int i = 0; i < 200; i++) {
            Move m = G->playout->move(pos, moves, n, &rng);
            G->make(pos, m, undo);
            G->to_fen(pos, fen, sizeof fen);
            hits += throne_char(fen) != before;
            G->unmake(pos, m, undo);
        }
        if (hits * 100 < atoi(w[1]) * 200) {
            print_error("line %d, case '%s': %d of 200 playout picks enthrone\n", c->line, c->title,
                        hits);
            return 0;
        }
        return 1;
    }
    print_error("line %d: unknown check '%s'\n", c->line, w[0]);
    return 0;
}

static void test_rule_cases(void **state)
{
    (void)state;
    FILE *f = td_open("morelli_rules.txt");
    char line[2048], err[256];
    Case c;
    memset(&c, 0, sizeof c);
    int failures = 0, cases = 0, checks = 0;
    while (td_next_line(f, line, sizeof line, &c.line)) {
        if (strncmp(line, "case ", 5) == 0) {
            snprintf(c.title, sizeof c.title, "%.200s", line + 5);
            game_options_default(&c.opt);
            c.have_pos = 0;
            cases++;
        } else if (strncmp(line, "setup ", 6) == 0) {
            morelli_opts(&c.opt)->setup = strcmp(line + 6, "pairs") == 0 ? SETUP_PAIRS : SETUP_FREE;
        } else if (strncmp(line, "ruleset ", 8) == 0) {
            morelli_opts(&c.opt)->ruleset = strcmp(line + 8, "classic") == 0 ? RULESET_CLASSIC
                                                                             : RULESET_STANDARD;
        } else if (strncmp(line, "fen ", 4) == 0) {
            if (G->from_fen(c.pos, line + 4, &c.opt, err, sizeof err) != 0) {
                print_error("line %d, case '%s': fen rejected: %s\n", c.line, c.title, err);
                failures++;
                continue;
            }
            c.have_pos = 1;
        } else {
            checks++;
            failures += !check_line(&c, line);
        }
    }
    fclose(f);
    assert_true(cases >= 20);
    assert_true(checks >= 40);
    assert_int_equal(failures, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule_cases),
    };
    return cmocka_run_group_tests_name("morelli_rules", tests, NULL, NULL);
}
