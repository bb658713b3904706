/*
 * eval_tune.c -- Texel-style tuning of the evaluation weights (Morelli's
 * morelli_weights[], the Morris eval_weight table) from self-play.
 * The core (data sets, sigmoid, K fit, coordinate descent) is in
 * engine/tune/; docs/tuning.md has the workflow and the measurements.
 *
 *   eval_tune gen --variant morelli --games N --seed S --out FILE
 *       [--depth D | --nodes N] [--sizes 13,11,9] [--random-plies R]
 *       [--label-depth D] [--maxplies P]
 *     Plays N self-play games (alpha-beta through search_go at the fixed
 *     depth, default 2, or node budget; Morelli from random setups,
 *     SetupSeed = S * 100000 + game, the board sizes in turn; Morris from the
 *     start) whose first R plies (default 6) are uniformly random, and
 *     writes the quiet positions met after them -- the game goes on, the
 *     move the search played is not noisy and its score is not a mate --
 *     one a line: "<result> <score> <fen>", result 1 / 0.5 / 0 for the
 *     first player, score a depth-D search's score from the first player's
 *     view with --label-depth D, else '-'.
 *
 *   eval_tune tune --variant morelli --in FILE [--lambda L] [--step S]
 *       [--passes P] [--holdout H] [--fix name,row.*,...] [--k K]
 *       [--set name=v,name=v]
 *     Fits K (unless given) for the current weights, then runs coordinate
 *     descent over the weights (integer steps S, S/2, ..., 1; default 8;
 *     at most P passes per step, default 20) minimising the mean squared
 *     error between sigmoid(K * eval) and the target (the result, blended
 *     as L * result + (1 - L) * sigmoid(K * score) when the data has
 *     scores; L defaults to 1).  Every H-th record (default 10; 0 = none)
 *     is held out and only measured.  Prints the errors before and after
 *     and the new table as C source.
 *
 *   eval_tune label --variant morris --in FILE --out FILE
 *       [--depth D | --nodes N] [--every K]
 *     Scores the positions of a data file (as gen writes it) again: each
 *     one gets a fresh search (hash cleared; the default options) at depth
 *     D or N nodes, and is written with its result and that score, from
 *     the first player's view; positions scored as a mate are left out.
 *     With --every K only every K-th record is scored (default 1: all), so
 *     that a part of a large file can be labelled in a given time.
 *
 *   eval_tune duel --variant morelli --set name=v,... [--fix name=v,...]
 *       [--games N] [--seed S] [--depth D | --nodes N] [--sizes 13]
 *     Self-play in one process: the weights changed by --set against the
 *     defaults (changed by --fix, if given), N openings (Morelli: random
 *     setups of the first --sizes size, SetupSeed = S * 100000 + k; Morris:
 *     --random-plies R random plies from the start, default 4),
 *     each played twice with colours swapped; prints +wins =draws -losses
 *     of the --set weights.
 *
 * Build: make tools (build/eval_tune and build/search_tune).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game.h"
#include "options.h"
#include "past.h"
#include "search/search.h"
#include "tune/tune.h"

#define MAX_GAME_PLIES 1000

static void die(const char *msg)
{
    fprintf(stderr, "eval_tune: %s\n", msg);
    exit(2);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

typedef struct Args {
    const char *variant, *in, *out, *sizes, *fix, *set;
    int games, every, depth, label_depth, random_plies, maxplies, step, passes, holdout;
    uint64_t seed, nodes;
    double lambda, k;
} Args;

static void parse(Args *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->variant = game_list[0]->name;
    a->sizes = "13";
    a->games = 100;
    a->every = 1;
    a->seed = 1;
    a->depth = 2;
    a->random_plies = -1;
    a->maxplies = MAX_GAME_PLIES;
    a->step = 8;
    a->passes = 20;
    a->holdout = 10;
    a->lambda = 1.0;
    for (int i = 2; i < argc; i += 2) {
        const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            die("an option lacks its value");
        if (!strcmp(k, "--variant"))
            a->variant = v;
        else if (!strcmp(k, "--in"))
            a->in = v;
        else if (!strcmp(k, "--out"))
            a->out = v;
        else if (!strcmp(k, "--sizes"))
            a->sizes = v;
        else if (!strcmp(k, "--fix"))
            a->fix = v;
        else if (!strcmp(k, "--set"))
            a->set = v;
        else if (!strcmp(k, "--games"))
            a->games = atoi(v);
        else if (!strcmp(k, "--every"))
            a->every = atoi(v);
        else if (!strcmp(k, "--seed"))
            a->seed = strtoull(v, NULL, 10);
        else if (!strcmp(k, "--depth"))
            a->depth = atoi(v);
        else if (!strcmp(k, "--nodes"))
            a->nodes = strtoull(v, NULL, 10);
        else if (!strcmp(k, "--label-depth"))
            a->label_depth = atoi(v);
        else if (!strcmp(k, "--random-plies"))
            a->random_plies = atoi(v);
        else if (!strcmp(k, "--maxplies"))
            a->maxplies = atoi(v);
        else if (!strcmp(k, "--step"))
            a->step = atoi(v);
        else if (!strcmp(k, "--passes"))
            a->passes = atoi(v);
        else if (!strcmp(k, "--holdout"))
            a->holdout = atoi(v);
        else if (!strcmp(k, "--lambda"))
            a->lambda = atof(v);
        else if (!strcmp(k, "--k"))
            a->k = atof(v);
        else
            die("unknown option (see the comment at the top of bench/eval_tune_main.c)");
    }
    if (a->maxplies < 1 || a->maxplies > MAX_GAME_PLIES)
        a->maxplies = MAX_GAME_PLIES;
}

/* ---- gen ------------------------------------------------------------------ */

typedef struct Rec {
    unsigned char pos[POS_MAX_BYTES];
    int score;
} Rec;

static int run_gen(const Args *a, const Game *g)
{
    if (!a->out)
        die("gen needs --out FILE");
    FILE *out = fopen(a->out, "w");
    if (!out)
        die("cannot write --out");
    int sizes[8], nsizes = 0;
    char sbuf[64];
    snprintf(sbuf, sizeof sbuf, "%s", a->sizes);
    for (char *t = strtok(sbuf, ","); t && nsizes < 8; t = strtok(NULL, ","))
        sizes[nsizes++] = atoi(t);
    if (nsizes == 0)
        die("--sizes is empty");
    int random_plies = a->random_plies >= 0 ? a->random_plies : 6;
    Search *s = search_new(), *lab = search_new();
    Move *moves = malloc((size_t)g->max_moves * sizeof *moves);
    Key *hist = malloc(MAX_GAME_PLIES * sizeof *hist);
    Rec *recs = malloc(MAX_GAME_PLIES * sizeof *recs);
    if (!s || !lab || !moves || !hist || !recs)
        die("out of memory");
    fprintf(out,
            "# eval_tune gen --variant %s --games %d --seed %llu --depth %d --nodes %llu "
            "--sizes %s --random-plies %d --label-depth %d\n",
            g->name, a->games, (unsigned long long)a->seed, a->depth, (unsigned long long)a->nodes,
            game_has_setups(g) ? a->sizes : "-", random_plies, a->label_depth);
    int total = 0, w1 = 0, w2 = 0, dr = 0;
    long plies = 0;
    double t0 = now_s();
    for (int gi = 0; gi < a->games; gi++) {
        GameOptions o;
        game_options_default(&o);
        char err[256];
        unsigned char pos[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
        /* A random setup where the game has them (Morelli, with --sizes). */
        if (game_random_setup(g, &o, a->seed * 100000 + (uint64_t)gi))
            game_option_put(&o, "BoardSize", sizes[gi % nsizes]);
        if (g->init(pos, &o, err, sizeof err) != 0)
            die(err);
        uint64_t rng = (a->seed * 1000003u + (uint64_t)gi) * 0x9E3779B97F4A7C15ull + 7;
        search_clear(s);
        search_clear(lab);
        int nh = 0, nrec = 0;
        while (nh < a->maxplies && past_result(g, pos, hist, nh) == RESULT_NONE) {
            Move m;
            if (nh < random_plies) {
                int n = g->gen_moves(pos, moves);
                m = moves[rng_below(&rng, (uint32_t)n)];
            } else {
                SearchLimits lim;
                search_limits_init(&lim);
                lim.depth = a->nodes ? 0 : a->depth;
                lim.nodes = a->nodes;
                SearchResult res;
                m = search_go(s, g, pos, &o, hist, nh, &lim, NULL, NULL, NULL, &res);
                if (m == MOVE_NONE)
                    die("no move returned in a running game");
                int quiet = !g->move_is_noisy(pos, m) && res.score < SCORE_MATE_BOUND &&
                            res.score > -SCORE_MATE_BOUND;
                if (quiet) {
                    Rec *r = &recs[nrec];
                    memcpy(r->pos, pos, g->pos_size);
                    r->score = TUNE_NO_SCORE;
                    if (a->label_depth > 0) {
                        SearchLimits ll;
                        search_limits_init(&ll);
                        ll.depth = a->label_depth;
                        SearchResult lr;
                        search_go(lab, g, pos, &o, hist, nh, &ll, NULL, NULL, NULL, &lr);
                        if (lr.score >= SCORE_MATE_BOUND || lr.score <= -SCORE_MATE_BOUND)
                            quiet = 0;
                        r->score = g->side_to_move(pos) == SIDE_P1 ? lr.score : -lr.score;
                    }
                    nrec += quiet;
                }
            }
            hist[nh++] = g->key(pos);
            g->make(pos, m, undo);
        }
        int res = past_result(g, pos, hist, nh);
        double r1 = res == RESULT_P1_WIN ? 1.0 : res == RESULT_P2_WIN ? 0.0 : 0.5;
        w1 += res == RESULT_P1_WIN;
        w2 += res == RESULT_P2_WIN;
        dr += res != RESULT_P1_WIN && res != RESULT_P2_WIN;
        plies += nh;
        for (int i = 0; i < nrec; i++) {
            char fen[FEN_MAX];
            g->to_fen(recs[i].pos, fen, sizeof fen);
            if (recs[i].score == TUNE_NO_SCORE)
                fprintf(out, "%g - %s\n", r1, fen);
            else
                fprintf(out, "%g %d %s\n", r1, recs[i].score, fen);
        }
        total += nrec;
        fflush(out);
        if ((gi + 1) % 10 == 0 || gi + 1 == a->games)
            fprintf(stderr,
                    "games %d  positions %d  P1 %d P2 %d draws %d  plies/game %.1f  %.0fs\n",
                    gi + 1, total, w1, w2, dr, (double)plies / (gi + 1), now_s() - t0);
    }
    fclose(out);
    free(recs);
    free(hist);
    free(moves);
    search_free(s);
    search_free(lab);
    return 0;
}

/* ---- label ---------------------------------------------------------------- */

/* The records of a data file whose index keep() accepts (NULL: all). */
static void load(TuneSet *s, const char *path, int (*keep)(int));

static int run_label(const Args *a, const Game *g)
{
    if (!a->in || !a->out)
        die("label needs --in FILE and --out FILE");
    TuneSet set;
    tune_set_init(&set, g);
    load(&set, a->in, NULL);
    GameOptions o;
    game_options_default(&o);
    char err[256];
    FILE *out = fopen(a->out, "w");
    if (!out)
        die("cannot write --out");
    int every = a->every > 0 ? a->every : 1;
    Search *s = search_new();
    if (!s || search_setoption(s, "Hash", "16", err, sizeof err) != 0)
        die("out of memory");
    fprintf(out, "# eval_tune label --variant %s --in %s --depth %d --nodes %llu --every %d\n",
            g->name, a->in, a->nodes ? 0 : a->depth, (unsigned long long)a->nodes, every);
    int done = 0, kept = 0;
    double t0 = now_s();
    for (int i = 0; i < set.n; i += every) {
        const unsigned char *pos = set.pos + (size_t)i * g->pos_size;
        SearchLimits lim;
        search_limits_init(&lim);
        lim.depth = a->nodes ? 0 : a->depth;
        lim.nodes = a->nodes;
        SearchResult res;
        search_clear(s);
        Move m = search_go(s, g, pos, &o, NULL, 0, &lim, NULL, NULL, NULL, &res);
        if (m != MOVE_NONE && res.score < SCORE_MATE_BOUND && res.score > -SCORE_MATE_BOUND) {
            char fen[FEN_MAX];
            g->to_fen(pos, fen, sizeof fen);
            fprintf(out, "%g %d %s\n", set.result[i],
                    g->side_to_move(pos) == SIDE_P1 ? res.score : -res.score, fen);
            kept++;
            fflush(out); /* a stopped run keeps what it scored */
        }
        if (++done % 1000 == 0) {
            fprintf(stderr, "scored %d  kept %d  %.0fs\n", done, kept, now_s() - t0);
        }
    }
    fprintf(stderr, "scored %d  kept %d  %.0fs\n", done, kept, now_s() - t0);
    fclose(out);
    search_free(s);
    tune_set_free(&set);
    return 0;
}

/* ---- duel ----------------------------------------------------------------- */

/* "name=v,name=v" onto the table (die on an unknown name). */
static void set_weights(const TuneTable *t, const char *spec);

/* One game between the weight tables wa (engine a) and wb, each with its own
 * Search; the live table is switched before every search.  Returns 2/1/0
 * for a win/draw/loss of a, which moves first when a_first. */
static int duel_game(const Game *g, const GameOptions *o, const TuneTable *t, const int *wa,
                     const int *wb, Search *sa, Search *sb, int a_first, const Args *a,
                     uint64_t opening)
{
    unsigned char pos[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    char err[256];
    static Key hist[MAX_GAME_PLIES];
    int nh = 0;
    if (g->init(pos, o, err, sizeof err) != 0)
        die(err);
    /* Morris and Fano: random opening plies (Morelli: the random setup) */
    int random_plies = a->random_plies >= 0 ? a->random_plies : game_has_setups(g) ? 0 : 4;
    uint64_t rng = opening * 0x9E3779B97F4A7C15ull + 1;
    Move *moves = malloc((size_t)g->max_moves * sizeof *moves);
    if (!moves)
        die("out of memory");
    for (int i = 0; i < random_plies && past_result(g, pos, hist, nh) == RESULT_NONE; i++) {
        int n = g->gen_moves(pos, moves);
        hist[nh++] = g->key(pos);
        g->make(pos, moves[rng_below(&rng, (uint32_t)n)], undo);
    }
    free(moves);
    search_clear(sa);
    search_clear(sb);
    while (nh < a->maxplies && past_result(g, pos, hist, nh) == RESULT_NONE) {
        int first = g->side_to_move(pos) == SIDE_P1;
        int is_a = first == (a_first != 0);
        memcpy(t->w, is_a ? wa : wb, (size_t)t->n * sizeof *t->w);
        SearchLimits lim;
        search_limits_init(&lim);
        lim.depth = a->nodes ? 0 : a->depth;
        lim.nodes = a->nodes;
        Move m = search_go(is_a ? sa : sb, g, pos, o, hist, nh, &lim, NULL, NULL, NULL, NULL);
        if (m == MOVE_NONE)
            die("no move returned in a running game");
        hist[nh++] = g->key(pos);
        g->make(pos, m, undo);
    }
    int r = past_result(g, pos, hist, nh);
    if (r != RESULT_P1_WIN && r != RESULT_P2_WIN)
        return 1;
    return (r == RESULT_P1_WIN) == (a_first != 0) ? 2 : 0;
}

static int run_duel(const Args *a, const Game *g)
{
    TuneTable t;
    if (tune_table(g, &t) != 0)
        die("this game has no weight table");
    int *def = malloc((size_t)t.n * sizeof *def), *wa = malloc((size_t)t.n * sizeof *wa),
        *wb = malloc((size_t)t.n * sizeof *wb);
    if (!def || !wa || !wb)
        die("out of memory");
    memcpy(def, t.w, (size_t)t.n * sizeof *def);
    if (a->set)
        set_weights(&t, a->set);
    memcpy(wa, t.w, (size_t)t.n * sizeof *wa);
    memcpy(t.w, def, (size_t)t.n * sizeof *def);
    if (a->fix) /* the baseline's changes */
        set_weights(&t, a->fix);
    memcpy(wb, t.w, (size_t)t.n * sizeof *wb);
    int size = atoi(a->sizes);
    Search *sa = search_new(), *sb = search_new();
    if (!sa || !sb)
        die("out of memory");
    int w = 0, d = 0, l = 0;
    for (int k = 0; k < a->games; k++) {
        GameOptions o;
        game_options_default(&o);
        if (game_random_setup(g, &o, a->seed * 100000 + (uint64_t)k))
            game_option_put(&o, "BoardSize", size);
        for (int sw = 0; sw < 2; sw++) {
            int r = duel_game(g, &o, &t, wa, wb, sa, sb, !sw, a, a->seed * 100000 + (uint64_t)k);
            w += r == 2;
            d += r == 1;
            l += r == 0;
        }
        if ((k + 1) % 10 == 0 || k + 1 == a->games) {
            fprintf(stderr, "openings %d: +%d =%d -%d\n", k + 1, w, d, l);
        }
    }
    memcpy(t.w, def, (size_t)t.n * sizeof *def);
    printf("tested vs baseline: +%d =%d -%d  score %.1f%% (%d games)\n", w, d, l,
           100.0 * (w + 0.5 * d) / (w + d + l), w + d + l);
    search_free(sa);
    search_free(sb);
    free(def);
    free(wa);
    free(wb);
    return 0;
}

/* ---- tune ----------------------------------------------------------------- */

static int g_holdout;
static int keep_train(int i)
{
    return g_holdout <= 0 || i % g_holdout != g_holdout - 1;
}
static int keep_test(int i)
{
    return g_holdout > 0 && i % g_holdout == g_holdout - 1;
}

static int find_weight(const TuneTable *t, const char *name)
{
    for (int i = 0; i < t->n; i++)
        if (!strcmp(t->names[i], name))
            return i;
    return -1;
}

/* A copy of a comma-separated list for strtok (any length). */
static char *list_copy(const char *spec)
{
    char *buf = strdup(spec);
    if (!buf)
        die("out of memory");
    return buf;
}

static void unknown_weight(const char *opt, const char *name)
{
    fprintf(stderr, "eval_tune: %s: unknown weight '%s'\n", opt, name);
    exit(2);
}

static void set_weights(const TuneTable *t, const char *spec)
{
    char *buf = list_copy(spec);
    for (char *p = strtok(buf, ","); p; p = strtok(NULL, ",")) {
        char *eq = strchr(p, '=');
        if (!eq)
            die("weights are given as name=value,...");
        *eq = 0;
        int i = find_weight(t, p);
        if (i < 0)
            unknown_weight("--set", p);
        t->w[i] = atoi(eq + 1);
    }
    free(buf);
}

/* Marks the weights of a --fix list: names, or a row as "moving.*". */
static void fix_weights(const TuneTable *t, const char *spec, int *fixed)
{
    char *buf = list_copy(spec);
    for (char *p = strtok(buf, ","); p; p = strtok(NULL, ",")) {
        size_t len = strlen(p);
        if (len >= 2 && !strcmp(p + len - 2, ".*")) {
            int any = 0;
            for (int i = 0; i < t->n; i++)
                if (!strncmp(t->names[i], p, len - 1)) {
                    fixed[i] = 1;
                    any = 1;
                }
            if (!any)
                unknown_weight("--fix", p);
            continue;
        }
        int i = find_weight(t, p);
        if (i < 0)
            unknown_weight("--fix", p);
        fixed[i] = 1;
    }
    free(buf);
}

static void load(TuneSet *s, const char *path, int (*keep)(int))
{
    FILE *f = fopen(path, "r");
    if (!f)
        die("cannot read --in");
    GameOptions o;
    game_options_default(&o);
    char err[256];
    if (tune_set_load(s, f, &o, keep, err, sizeof err) < 0)
        die(err);
    fclose(f);
}

static int run_tune(const Args *a, const Game *g)
{
    if (!a->in)
        die("tune needs --in FILE");
    TuneTable t;
    if (tune_table(g, &t) != 0)
        die("this game has no weight table");
    int *fixed = calloc((size_t)t.n, sizeof *fixed);
    int *orig = malloc((size_t)t.n * sizeof *orig);
    if (!fixed || !orig)
        die("out of memory");
    if (a->set)
        set_weights(&t, a->set);
    if (a->fix)
        fix_weights(&t, a->fix, fixed);
    memcpy(orig, t.w, (size_t)t.n * sizeof *orig);
    g_holdout = a->holdout;
    TuneSet train, test;
    tune_set_init(&train, g);
    tune_set_init(&test, g);
    load(&train, a->in, keep_train);
    load(&test, a->in, keep_test);
    if (train.n == 0)
        die("no positions in --in");
    int nmax = train.n > test.n ? train.n : test.n;
    int *eval = malloc((size_t)nmax * sizeof *eval);
    float *ttrain = malloc((size_t)train.n * sizeof *ttrain);
    float *ttest = malloc((size_t)(test.n ? test.n : 1) * sizeof *ttest);
    if (!eval || !ttrain || !ttest)
        die("out of memory");

    /* K: fitted on the training results with the current weights */
    tune_targets(&train, 1.0, 0, ttrain);
    tune_evals(&train, eval);
    double k = a->k > 0 ? a->k : tune_fit_k(eval, ttrain, train.n);
    tune_targets(&train, a->lambda, k, ttrain);
    tune_targets(&test, a->lambda, k, ttest);
    double t0 = now_s();
    double tr0 = tune_set_error(&train, ttrain, k, eval);
    double te0 = test.n ? tune_set_error(&test, ttest, k, eval) : 0;
    printf("positions: %d train, %d held out\n", train.n, test.n);
    printf("K = %.6g%s, lambda %.2f\n", k, a->k > 0 ? " (given)" : " (fitted)", a->lambda);
    printf("error before: train %.6f  held out %.6f\n", tr0, te0);
    fflush(stdout);
    double tr1 = tune_descend(&train, &t, fixed, ttrain, k, a->step, a->passes, stderr);
    double te1 = test.n ? tune_set_error(&test, ttest, k, eval) : 0;
    printf("error after:  train %.6f  held out %.6f  (%.0fs)\n", tr1, te1, now_s() - t0);
    /* K refitted for the new weights, for information */
    tune_targets(&train, 1.0, 0, ttrain);
    tune_evals(&train, eval);
    double k2 = tune_fit_k(eval, ttrain, train.n);
    printf("K refitted for the new weights: %.6g (error %.6f against the results)\n", k2,
           tune_error(eval, ttrain, train.n, k2));
    printf("changes:");
    for (int i = 0; i < t.n; i++)
        if (t.w[i] != orig[i])
            printf(" %s %d->%d", t.names[i], orig[i], t.w[i]);
    printf("\nas --set:");
    for (int i = 0; i < t.n; i++)
        printf("%s%s=%d", i ? "," : " ", t.names[i], t.w[i]);
    printf("\n\n");
    tune_print_table(g, &t, stdout);
    free(eval);
    free(ttrain);
    free(ttest);
    free(fixed);
    free(orig);
    tune_set_free(&train);
    tune_set_free(&test);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || (strcmp(argv[1], "gen") && strcmp(argv[1], "tune") && strcmp(argv[1], "duel") &&
                     strcmp(argv[1], "label")))
        die("usage: eval_tune gen|tune|duel|label --variant V ... (see bench/eval_tune_main.c)");
    Args a;
    parse(&a, argc, argv);
    const Game *g = game_by_name(a.variant);
    if (!g)
        die("unknown --variant");
    if (!strcmp(argv[1], "gen"))
        return run_gen(&a, g);
    if (!strcmp(argv[1], "duel"))
        return run_duel(&a, g);
    if (!strcmp(argv[1], "label"))
        return run_label(&a, g);
    return run_tune(&a, g);
}
