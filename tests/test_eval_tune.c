/*
 * The evaluation tuner's core (engine/tune/): the sigmoid, the error and
 * the K fit on a hand-made set (tests/data/eval_tune_k.txt), reading the
 * tuner's data format (tests/data/eval_tune_positions.txt), and the weight
 * tables: setting a weight changes evaluate() as the formula says.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "game.h"
#include "testdata.h"
#include "tune/tune.h"

#define NPOS 8 /* records of eval_tune_positions.txt */

static void load_k_set(int *eval, float *target, int *n)
{
    FILE *f = td_open("eval_tune_k.txt");
    char line[128];
    *n = 0;
    while (td_next_line(f, line, sizeof line, NULL)) {
        double t;
        assert_int_equal(sscanf(line, "%d %lf", &eval[*n], &t), 2);
        target[(*n)++] = (float)t;
    }
    fclose(f);
    assert_int_equal(*n, 9);
}

static void test_sigmoid(void **state)
{
    (void)state;
    assert_true(fabs(tune_sigmoid(0.01, 0) - 0.5) < 1e-12);
    assert_true(fabs(tune_sigmoid(log(3.0) / 100, 100) - 0.75) < 1e-12);
    assert_true(fabs(tune_sigmoid(0.02, -37) + tune_sigmoid(0.02, 37) - 1) < 1e-12);
    assert_true(tune_sigmoid(0.01, 1000) > 0.9999);
    assert_true(tune_sigmoid(0.01, -1000) < 0.0001);
}

static void test_error_and_k(void **state)
{
    (void)state;
    int eval[16], n;
    float target[16];
    load_k_set(eval, target, &n);
    const double kbest = log(3.0) / 100;
    /* K -> 0: every prediction 1/2, the error the mean of (t - 1/2)^2 */
    assert_true(fabs(tune_error(eval, target, n, 1e-12) - 8 * 0.25 / 9) < 1e-9);
    assert_true(fabs(tune_error(eval, target, n, kbest) - 1.0 / 6) < 1e-9);
    double k = tune_fit_k(eval, target, n);
    assert_true(fabs(k - kbest) < 1e-5 * kbest);
    assert_true(tune_error(eval, target, n, k) <= tune_error(eval, target, n, 0.9 * kbest));
    assert_true(tune_error(eval, target, n, k) <= tune_error(eval, target, n, 1.1 * kbest));
    /* a perfect predictor: the error falls as K grows, the fit runs to the
     * top of its range */
    int e2[2] = {50, -50};
    float t2[2] = {1, 0};
    assert_true(tune_fit_k(e2, t2, 2) > 0.5);
}

static int odd(int i)
{
    return i % 2 == 1;
}

static void test_load(void **state)
{
    (void)state;
    TuneSet s;
    tune_set_init(&s, &game_morelli);
    GameOptions o;
    game_options_default(&o);
    char err[256];
    FILE *f = td_open("eval_tune_positions.txt");
    assert_int_equal(tune_set_load(&s, f, &o, NULL, err, sizeof err), NPOS);
    fclose(f);
    assert_int_equal(s.n, NPOS);
    assert_true(s.result[0] == 0.0f && s.result[1] == 1.0f && s.result[4] == 0.5f);
    assert_int_equal(s.score[0], TUNE_NO_SCORE);
    assert_int_equal(s.score[2], 35);
    assert_int_equal(s.score[4], -120);
    /* the FEN read back */
    char fen[FEN_MAX];
    game_morelli.to_fen(s.pos + 3 * game_morelli.pos_size, fen, sizeof fen);
    assert_string_equal(fen, "13/wb11/6b4w1/5b1b1w1w1/2b1bbbbww3/4bbbww2w1/4bbBwww3/"
                             "3bbbbww4/4bb3w3/3bbwww3w1/2w8w1/2b4w2w1b/12w b");
    /* targets: the result alone, or blended with the score */
    float t[NPOS];
    tune_targets(&s, 0.25, 0.01, t);
    assert_true(fabs(t[0] - 0.0) < 1e-6);
    assert_true(fabs(t[2] - (0.25 * 1 + 0.75 * tune_sigmoid(0.01, 35))) < 1e-6);
    assert_true(fabs(t[4] - (0.25 * 0.5 + 0.75 * tune_sigmoid(0.01, -120))) < 1e-6);
    tune_set_free(&s);

    /* keep(): every other record */
    tune_set_init(&s, &game_morelli);
    f = td_open("eval_tune_positions.txt");
    assert_int_equal(tune_set_load(&s, f, &o, odd, err, sizeof err), NPOS / 2);
    fclose(f);
    assert_true(s.result[0] == 1.0f && s.score[0] == TUNE_NO_SCORE);
    tune_set_free(&s);

    /* malformed lines */
    static const char *bad[] = {
        "2 - 13/13/13/13/13/13/13/13/13/13/13/13/13 b\n",
        "1 x 13/13/13/13/13/13/13/13/13/13/13/13/13 b\n",
        "1 - 13/13/13/13/13/13/13/13/13/13/13/13/12 b\n",
        "1 5\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", bad[i]);
        FILE *m = fmemopen(buf, strlen(buf), "r");
        assert_non_null(m);
        tune_set_init(&s, &game_morelli);
        assert_int_equal(tune_set_load(&s, m, &o, NULL, err, sizeof err), -1);
        assert_non_null(strstr(err, "line 1"));
        fclose(m);
        tune_set_free(&s);
    }
}

static int find(const TuneTable *t, const char *name)
{
    for (int i = 0; i < t->n; i++)
        if (!strcmp(t->names[i], name))
            return i;
    fail_msg("no weight %s", name);
    return -1;
}

/* own stones minus the opponent's (kings are not stones) for the side to
 * move of a Morelli FEN */
static int stone_diff(const char *fen)
{
    int b = 0, w = 0;
    const char *sp = strchr(fen, ' ');
    for (const char *p = fen; p < sp; p++) {
        b += *p == 'b';
        w += *p == 'w';
    }
    return sp[1] == 'b' ? b - w : w - b;
}

static void test_weights_morelli(void **state)
{
    (void)state;
    const Game *g = &game_morelli;
    TuneTable t;
    assert_int_equal(tune_table(g, &t), 0);
    assert_int_equal(t.n, 13);
    int saved[64];
    memcpy(saved, t.w, sizeof(int) * (size_t)t.n);
    TuneSet s;
    tune_set_init(&s, g);
    GameOptions o;
    game_options_default(&o);
    char err[256];
    FILE *f = td_open("eval_tune_positions.txt");
    assert_int_equal(tune_set_load(&s, f, &o, NULL, err, sizeof err), NPOS);
    fclose(f);
    int before[NPOS], after[NPOS], p1[NPOS];
    for (int i = 0; i < NPOS; i++)
        before[i] = g->evaluate(s.pos + (size_t)i * g->pos_size);
    /* P1's view */
    tune_evals(&s, p1);
    for (int i = 0; i < NPOS; i++) {
        const void *p = s.pos + (size_t)i * g->pos_size;
        assert_int_equal(p1[i], g->side_to_move(p) == SIDE_P1 ? before[i] : -before[i]);
    }
    /* the tempo bonus: +7 on every position */
    int tempo = find(&t, "tempo"), stone = find(&t, "stone");
    t.w[tempo] += 7;
    for (int i = 0; i < NPOS; i++)
        assert_int_equal(g->evaluate(s.pos + (size_t)i * g->pos_size), before[i] + 7);
    t.w[tempo] -= 7;
    /* a stone: +3 per stone of difference */
    t.w[stone] += 3;
    int some = 0;
    for (int i = 0; i < NPOS; i++) {
        const void *p = s.pos + (size_t)i * g->pos_size;
        char fen[FEN_MAX];
        g->to_fen(p, fen, sizeof fen);
        after[i] = g->evaluate(p);
        assert_int_equal(after[i], before[i] + 3 * stone_diff(fen));
        some |= stone_diff(fen) != 0;
    }
    assert_true(some);
    t.w[stone] -= 3;
    /* all zero: evaluate() is 0 everywhere; restored: as before */
    for (int i = 0; i < t.n; i++)
        t.w[i] = 0;
    for (int i = 0; i < NPOS; i++)
        assert_int_equal(g->evaluate(s.pos + (size_t)i * g->pos_size), 0);
    memcpy(t.w, saved, sizeof(int) * (size_t)t.n);
    for (int i = 0; i < NPOS; i++)
        assert_int_equal(g->evaluate(s.pos + (size_t)i * g->pos_size), before[i]);

    /* the descent never makes the error worse and leaves the table at its
     * best point; then the defaults go back */
    float target[NPOS];
    int eval[NPOS];
    tune_targets(&s, 1.0, 0, target);
    double k = 0.01;
    double e0 = tune_set_error(&s, target, k, eval);
    int fixed[64] = {0};
    fixed[stone] = 1;
    double e1 = tune_descend(&s, &t, fixed, target, k, 4, 3, NULL);
    assert_true(e1 <= e0);
    assert_true(fabs(tune_set_error(&s, target, k, eval) - e1) < 1e-12);
    assert_int_equal(t.w[stone], saved[stone]);
    memcpy(t.w, saved, sizeof(int) * (size_t)t.n);
    tune_set_free(&s);
}

static void test_weights_morris(void **state)
{
    (void)state;
    const Game *g = &game_morris;
    TuneTable t;
    assert_int_equal(tune_table(g, &t), 0);
    assert_int_equal(t.n % 3, 0); /* three rows: placement, moving, flying */
    assert_int_equal(find(&t, "moving.pieces"), t.n / 3);
    assert_int_equal(tune_table(&game_fano, &t), -1);
    assert_int_equal(tune_table(g, &t), 0);
    int saved[64];
    memcpy(saved, t.w, sizeof(int) * (size_t)t.n);
    /* a placement position: White has placed two pieces, Black one */
    unsigned char pos[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    Move moves[512];
    GameOptions o;
    game_options_default(&o);
    char err[256];
    assert_int_equal(g->init(pos, &o, err, sizeof err), 0);
    for (int i = 0; i < 3; i++) {
        assert_true(g->gen_moves(pos, moves) > 0);
        g->make(pos, moves[0], undo);
    }
    int v = g->evaluate(pos);
    for (int i = 0; i < t.n; i++)
        t.w[i] = 0;
    assert_int_equal(g->evaluate(pos), 0);
    memcpy(t.w, saved, sizeof(int) * (size_t)t.n);
    assert_int_equal(g->evaluate(pos), v);
    /* the moving row does not count during placement */
    t.w[find(&t, "moving.mobility")] += 50;
    assert_int_equal(g->evaluate(pos), v);
    memcpy(t.w, saved, sizeof(int) * (size_t)t.n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sigmoid),        cmocka_unit_test(test_error_and_k),
        cmocka_unit_test(test_load),           cmocka_unit_test(test_weights_morelli),
        cmocka_unit_test(test_weights_morris),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
