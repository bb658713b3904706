/*
 * The generators the searches use in Morelli, checked against the full
 * generator on every position of random games of every size, ruleset and
 * setup (tests/data/morelli_gen.txt):
 *   - gen_noisy gives exactly the moves of gen_moves that move_is_noisy
 *     calls noisy, gen_quiet exactly the others (as sets); gen_noisy
 *     handed the note of the position's own evaluation (evaluate_noted,
 *     which evaluates as evaluate does) and, every other position, the
 *     note of the position before it (which it must not take for this
 *     one), and without a note, the same count;
 *   - move_legal accepts every generated move and refuses every other
 *     value tried (bit flips of legal moves, random values);
 *   - playout_step plays a generated move;
 *   - the position make leaves is byte for byte the one its FEN reads
 *     back to (the state make keeps up to date for the evaluation, the
 *     landing counts and band sums, equals the one computed from scratch),
 *     and evaluates the same;
 *   - a whole playout (playout, which keeps its own data through the
 *     playout) plays the same moves as playout_step from the same draws,
 *     each of them a generated move, and ends where the game ends (or at
 *     its cap).
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

static int cmp_move(const void *a, const void *b)
{
    Move x = *(const Move *)a, y = *(const Move *)b;
    return x < y ? -1 : x > y;
}

static int in_list(const Move *sorted, int n, Move m)
{
    return bsearch(&m, sorted, (size_t)n, sizeof m, cmp_move) != NULL;
}

typedef struct Counts {
    long positions, moves, noisy, probes, playouts, playout_plies;
} Counts;

/* G->playout from pos with cap plies against playout_step + make from the
 * same draws: the same end position (byte for byte when the cap came
 * first) and draws, every move generated, the result the game's. */
static void check_playout(const void *pos, Move *list, uint64_t *rng, int cap, Counts *k)
{
    unsigned char a[POS_MAX_BYTES], b[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    memcpy(a, pos, G->pos_size);
    memcpy(b, pos, G->pos_size);
    uint64_t ra = rng_next(rng), rb = ra;
    int res = G->playout->run(a, &ra, cap);
    for (int ply = 0; ply < cap; ply++) {
        Move m = G->playout->step(b, &rb);
        if (m == MOVE_NONE)
            break;
        int n = G->gen_moves(b, list);
        int found = 0;
        for (int i = 0; i < n && !found; i++)
            found = list[i] == m;
        assert_true(found);
        G->make(b, m, undo);
        k->playout_plies++;
    }
    /* the same end position; whole (key, evaluation data) when capped */
    char fa[FEN_MAX], fb[FEN_MAX];
    G->to_fen(a, fa, sizeof fa);
    G->to_fen(b, fb, sizeof fb);
    assert_string_equal(fa, fb);
    assert_true(ra == rb);
    if (res == RESULT_NONE) {
        assert_memory_equal(a, b, G->pos_size);
        assert_true(G->key(a) == G->key_from_scratch(a));
    } else {
        assert_int_equal(res, G->result(b));
    }
    k->playouts++;
}

static void check_position(const void *pos, const void *note, Move *all, Move *noisy, uint64_t *rng,
                           Counts *k)
{
    int n = G->gen_moves(pos, all);
    int bare = G->search->gen_noisy(pos, noisy, NULL);
    int nn = G->search->gen_noisy(pos, noisy, note);
    assert_int_equal(nn, bare);
    assert_true(nn >= 0 && nn <= n);
    qsort(all, (size_t)n, sizeof *all, cmp_move);
    qsort(noisy, (size_t)nn, sizeof *noisy, cmp_move);
    int j = 0;
    for (int i = 0; i < n; i++) {
        if (!G->move_is_noisy(pos, all[i]))
            continue;
        if (j >= nn || noisy[j] != all[i]) {
            char fen[FEN_MAX], text[MOVE_STR_MAX];
            G->to_fen(pos, fen, sizeof fen);
            G->move_to_str(pos, all[i], text, sizeof text);
            print_error("noisy move %s missing or out of place in %s\n", text, fen);
        }
        assert_true(j < nn && noisy[j] == all[i]);
        j++;
    }
    assert_int_equal(j, nn); /* nothing more than the noisy moves */
    /* gen_quiet: the rest, exactly */
    int nq = G->search->gen_quiet(pos, noisy);
    assert_int_equal(nq, n - nn);
    qsort(noisy, (size_t)nq, sizeof *noisy, cmp_move);
    for (int i = 0, q = 0; i < n; i++)
        if (!G->move_is_noisy(pos, all[i]))
            assert_true(q < nq && noisy[q++] == all[i]);
    for (int i = 0; i < n; i++) {
        assert_true(G->search->move_legal(pos, all[i]));
        /* one bit flipped: legal only if that move is in the list too */
        Move m = all[i] ^ ((Move)1 << rng_below(rng, 32));
        assert_int_equal(G->search->move_legal(pos, m) != 0, in_list(all, n, m));
        k->probes++;
    }
    for (int i = 0; i < 8; i++) {
        Move m = (Move)rng_next(rng);
        if (i & 1)
            m &= 0x0100FFFFu; /* plausible cells, maybe the enthrone bit */
        assert_int_equal(G->search->move_legal(pos, m) != 0, in_list(all, n, m));
        k->probes++;
    }
    if (n > 0)
        for (int i = 0; i < 4; i++)
            assert_true(in_list(all, n, G->playout->step(pos, rng)));
    else
        assert_int_equal(G->playout->step(pos, rng), MOVE_NONE);
    /* a whole playout from one position in 16, capped or not */
    if ((k->positions & 15) == 0)
        check_playout(pos, noisy, rng, rng_below(rng, 2) ? 1000 : 1 + (int)rng_below(rng, 40), k);
    k->positions++;
    k->moves += n;
    k->noisy += nn;
}

/* The position pos read back from its FEN: the same bytes. */
static void check_derived(const void *pos, const GameOptions *opt)
{
    unsigned char back[POS_MAX_BYTES];
    char fen[FEN_MAX], err[256];
    G->to_fen(pos, fen, sizeof fen);
    assert_int_equal(G->from_fen(back, fen, opt, err, sizeof err), 0);
    if (memcmp(back, pos, G->pos_size) != 0)
        print_error("made position differs from its FEN read back: %s\n", fen);
    assert_memory_equal(back, pos, G->pos_size);
    assert_int_equal(G->evaluate(back), G->evaluate(pos));
}

static void test_generators_agree(void **state)
{
    (void)state;
    assert_non_null(G->search->gen_noisy);
    assert_non_null(G->search->gen_quiet);
    assert_non_null(G->search->evaluate_noted);
    assert_true(G->search->note_size <= EVAL_NOTE_MAX);
    assert_non_null(G->search->move_legal);
    assert_non_null(G->playout->step);
    assert_non_null(G->playout->run);
    unsigned char pos[POS_MAX_BYTES], prev[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    uint64_t note[EVAL_NOTE_MAX / 8];
    Move *all = malloc(sizeof(Move) * (size_t)G->max_moves);
    Move *noisy = malloc(sizeof(Move) * (size_t)G->max_moves);
    Move *pick = malloc(sizeof(Move) * (size_t)G->max_moves);
    assert_true(all && noisy && pick);
    char line[256], err[256];
    FILE *f = td_open("morelli_gen.txt");
    Counts k = {0, 0, 0, 0, 0, 0};
    int rows = 0;
    while (td_next_line(f, line, sizeof line, NULL)) {
        GameOptions opt;
        int games;
        unsigned long long seed;
        assert_int_equal(td_morelli_row(line, &opt, &games, &seed), 0);
        if (td_sanitized() && games > 1)
            games = 1;
        uint64_t rng = seed;
        for (int gi = 0; gi < games; gi++) {
            morelli_opts(&opt)->setup_seed = rng_next(&rng);
            assert_int_equal(G->init(pos, &opt, err, sizeof err), 0);
            int have_prev = 0;
            for (;;) {
                /* the note of this position's evaluation or, every other
                 * position, of the one before it */
                const void *of = have_prev && (k.positions & 1) ? prev : pos;
                assert_int_equal(G->search->evaluate_noted(of, note), G->evaluate(of));
                check_position(pos, note, all, noisy, &rng, &k);
                /* on to a random move; noisy ones half of the time, so
                 * the games reach captures and frames */
                int n = G->gen_moves(pos, pick);
                if (n == 0)
                    break;
                int nn = G->search->gen_noisy(pos, noisy, NULL);
                Move m = nn > 0 && (rng_next(&rng) & 1) ? noisy[rng_below(&rng, (uint32_t)nn)]
                                                        : pick[rng_below(&rng, (uint32_t)n)];
                memcpy(prev, pos, G->pos_size);
                have_prev = 1;
                G->make(pos, m, undo);
                check_derived(pos, &opt);
            }
        }
        rows++;
    }
    fclose(f);
    free(all);
    free(noisy);
    free(pick);
    print_message("%d rows: %ld positions, %ld moves (%ld noisy), %ld illegal-value probes, "
                  "%ld playouts (%ld plies)\n",
                  rows, k.positions, k.moves, k.noisy, k.probes, k.playouts, k.playout_plies);
    assert_true(rows >= 30);
    assert_true(k.positions > 1000);
    assert_true(k.noisy > 1000);
    assert_true(k.playouts > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generators_agree),
    };
    return cmocka_run_group_tests_name("morelli_gen", tests, NULL, NULL);
}
