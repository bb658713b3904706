/*
 * Morelli perft's make (mo_make_perft, engine/morelli/make.c): the
 * search's make without the landing counts (MoCounts.mob), the band sums
 * (MoCounts.bsum), the colour bytes (MoPos.white) and the key.  Checks that
 *  - after it every other part of the position equals the position read
 *    afresh from its FEN (mo_derive's values), over random games of every
 *    board size, ruleset and setup played with perft's make alone (so that
 *    the parts it leaves out are stale for many plies), and that the parts
 *    left out keep the values they had and unmake restores every byte;
 *  - nothing perft reads is among those parts: perft with and without
 *    bulk counting from positions whose landing counts, band sums, colour
 *    bytes and key are overwritten with nonsense gives the reference counts of
 *    tests/data/perft.txt and those of perft_generic (the search's make)
 *    on tests/data/morelli_fens.txt.
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
#include "morelli/internal.h"
#include "options.h"
#include "perft.h"
#include "testdata.h"

static const Game *G = &game_morelli;

/* The parts perft's make leaves out, copied from src to dst. */
static void copy_left_out(MoPos *dst, const MoPos *src)
{
    memcpy(dst->c.mob, src->c.mob, sizeof dst->c.mob);
    memcpy(dst->c.bsum, src->c.bsum, sizeof dst->c.bsum);
    memcpy(dst->white, src->white, sizeof dst->white);
    dst->key = src->key;
}

/* made's parts that perft's make keeps equal fresh's (everything but the
 * parts it leaves out, which are taken from fresh). */
static void assert_kept_equal(const MoPos *made, const MoPos *fresh)
{
    MoPos x = *made;
    copy_left_out(&x, fresh);
    if (memcmp(&x, fresh, sizeof x) != 0) {
        char fen[FEN_MAX];
        G->to_fen(fresh, fen, sizeof fen);
        print_error("perft's make differs from the position read afresh: %s\n", fen);
    }
    assert_memory_equal(&x, fresh, sizeof x);
}

/* Every move of p (made by perft's make or not) checked: the kept parts
 * against the FEN read back, the parts left out as they were, unmake
 * restoring p byte for byte.  Returns the number of moves. */
static int check_moves(MoPos *p, const GameOptions *opt, Move *moves)
{
    char fen[FEN_MAX], err[256];
    int n = morelli_gen(p, moves);
    for (int i = 0; i < n; i++) {
        MoPos before = *p, fresh;
        MoUndo u;
        mo_make_perft(p, moves[i], &u);
        G->to_fen(p, fen, sizeof fen);
        assert_int_equal(G->from_fen(&fresh, fen, opt, err, sizeof err), 0);
        assert_kept_equal(p, &fresh);
        /* the parts left out as they were */
        MoPos left = before;
        copy_left_out(&left, p);
        assert_memory_equal(&left, &before, sizeof left);
        mo_unmake_perft(p, &u);
        assert_memory_equal(p, &before, sizeof before);
    }
    return n;
}

/* Random games played with perft's make alone, every move of every
 * position checked. */
static void test_kept_parts(void **state)
{
    (void)state;
    Move *moves = malloc(sizeof(Move) * MORELLI_MAX_MOVES);
    assert_non_null(moves);
    uint64_t seed = 4242;
    long checked = 0, stale = 0;
    char err[256];
    for (int size = 9; size <= 13; size += 2)
        for (int rs = 0; rs < 2; rs++)
            for (int st = 0; st < 5; st++) {
                GameOptions opt;
                game_options_default(&opt);
                morelli_opts(&opt)->board_size = size;
                morelli_opts(&opt)->ruleset = rs;
                morelli_opts(&opt)->setup = st;
                morelli_opts(&opt)->setup_seed = (int64_t)seed;
                MoPos p;
                assert_int_equal(G->init(&p, &opt, err, sizeof err), 0);
                /* under the sanitizers every third position of a game */
                for (int ply = 0; ply < 400; ply++) {
                    int n = td_sanitized() && ply % 3 ? morelli_gen(&p, moves)
                                                      : check_moves(&p, &opt, moves);
                    if (n == 0)
                        break;
                    checked += n;
                    MoUndo u;
                    mo_make_perft(&p, moves[rng_below(&seed, (uint32_t)n)], &u);
                    MoPos fresh;
                    char fen[FEN_MAX];
                    G->to_fen(&p, fen, sizeof fen);
                    assert_int_equal(G->from_fen(&fresh, fen, &opt, err, sizeof err), 0);
                    assert_kept_equal(&p, &fresh);
                    stale += memcmp(p.c.mob, fresh.c.mob, sizeof p.c.mob) != 0 &&
                             memcmp(p.c.bsum, fresh.c.bsum, sizeof p.c.bsum) != 0 &&
                             p.key != fresh.key;
                }
                /* the game ended: no move, as the end test says afresh */
                MoPos fresh;
                char fen[FEN_MAX];
                G->to_fen(&p, fen, sizeof fen);
                assert_int_equal(G->from_fen(&fresh, fen, &opt, err, sizeof err), 0);
                assert_true(G->result(&fresh) != RESULT_NONE);
            }
    /* the parts left out were left behind (the check means something) */
    assert_true(stale > 100);
    assert_true(checked > 1000);
    free(moves);
}

/* p with nonsense in the parts perft's make leaves out (two kinds: no
 * landings, no band steps left and white everywhere, or many landings and
 * band steps and no white). */
static void spoil(MoPos *p, int kind)
{
    p->c.mob[0] = p->c.mob[1] = kind ? 30000 : 0;
    p->c.bsum[0] = p->c.bsum[1] = kind ? 30000 : 0;
    memset(p->white, kind ? 0 : 0xFF, sizeof p->white);
    p->key = kind ? ~(Key)0 : 0;
}

/* perft of the spoiled p at depth d, with and without bulk counting, both
 * equal to want; p spoiled as before afterwards. */
static void check_spoiled(const MoPos *p, int d, uint64_t want, int full, const char *what)
{
    for (int kind = 0; kind < 2; kind++) {
        MoPos q = *p, copy;
        spoil(&q, kind);
        copy = q;
        uint64_t b = perft(G, &q, d, 1);
        if (b != want)
            print_error("%s depth %d bulk: %llu, want %llu\n", what, d, (unsigned long long)b,
                        (unsigned long long)want);
        assert_true(b == want);
        if (full) {
            uint64_t f = perft(G, &q, d, 0);
            if (f != want)
                print_error("%s depth %d: %llu, want %llu\n", what, d, (unsigned long long)f,
                            (unsigned long long)want);
            assert_true(f == want);
        }
        assert_memory_equal(&q, &copy, sizeof q);
    }
}

/* The Morelli rows of tests/data/perft.txt from spoiled positions. */
static void test_reference_counts(void **state)
{
    (void)state;
    FILE *fp = td_open("perft.txt");
    char line[1024], err[256];
    char *f[TD_MAXF];
    int nf, rows = 0;
    const uint64_t full_max = td_sanitized() ? 300000 : 6000000;
    const uint64_t bulk_max = td_sanitized() ? 2000000 : 100000000;
    while ((nf = td_next_record(fp, line, sizeof line, f)) > 0) {
        if (strcmp(f[0], "morelli") != 0)
            continue;
        assert_int_equal(nf, 4);
        GameOptions opt;
        char what[256], *save;
        snprintf(what, sizeof what, "%s", f[1]);
        td_options(f[1], &opt);
        MoPos p;
        assert_string_equal(f[2], "startpos");
        assert_int_equal(G->init(&p, &opt, err, sizeof err), 0);
        int d = 0;
        for (char *c = strtok_r(f[3], " ", &save); c; c = strtok_r(NULL, " ", &save)) {
            uint64_t want = strtoull(c, NULL, 10);
            d++;
            if (want <= bulk_max)
                check_spoiled(&p, d, want, want <= full_max, what);
        }
        rows++;
    }
    fclose(fp);
    assert_true(rows >= 9);
}

/* tests/data/morelli_fens.txt: spoiled positions against perft_generic of
 * the intact ones (the search's make), depths 1 and 2. */
static void test_fens(void **state)
{
    (void)state;
    FILE *fp = td_open("morelli_fens.txt");
    char line[1024], err[256];
    int n = 0;
    GameOptions opt;
    const char *fen;
    while ((fen = td_morelli_fen_record(fp, line, sizeof line, &opt)) != NULL) {
        MoPos p;
        assert_int_equal(G->from_fen(&p, fen, &opt, err, sizeof err), 0);
        for (int d = 1; d <= (td_sanitized() ? 1 : 2); d++)
            check_spoiled(&p, d, perft_generic(G, &p, d, 0), 1, fen);
        n++;
    }
    fclose(fp);
    assert_true(n >= 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kept_parts),
        cmocka_unit_test(test_reference_counts),
        cmocka_unit_test(test_fens),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
