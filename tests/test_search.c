/*
 * Searcher tests on two toy games defined here (so they do not wait for the
 * real games): take-away Nim (take 1..3 stones, who cannot move loses: a
 * pile that is a multiple of 4 is lost for the side to move) and
 * tic-tac-toe (a draw).  Both searchers must find the winning move, report
 * the proven value, honour the stop flag and node limits, and be
 * deterministic; the transposition table is tested on its own.
 * Expected figures live in tests/data/search_toys.txt.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>
#include <cmocka.h>

#include "game.h"
#include "history.h"
#include "search/search.h"
#include "search/search_internal.h"
#include "search/timeman.h"
#include "search/tt.h"
#include "testdata.h"

/* --- what both Nims share: a pile, take 1..3, FEN "<pile> <a|b>" ------ */

static void pile_to_fen(int pile, int stm, char *b, size_t n)
{
    snprintf(b, n, "%d %c", pile, stm == SIDE_P1 ? 'a' : 'b');
}
static int pile_gen(int pile, Move *m)
{
    int k = 0;
    for (int t = 1; t <= 3 && t <= pile; t++)
        m[k++] = (Move)t;
    return k;
}

/* --- Nim: pile in hand, take 1..3 ------------------------------------- */

typedef struct NimPos {
    int pile;
    int stm;
    Key key;
} NimPos;

static Key nim_key_of(int pile, int stm)
{
    uint64_t s = (uint64_t)pile * 2 + (uint64_t)stm + 1;
    return rng_next(&s);
}
static int nim_init(void *p, const GameOptions *o, char *err, size_t n)
{
    (void)o; (void)err; (void)n;
    NimPos *q = p;
    q->pile = 21;
    q->stm = SIDE_P1;
    q->key = nim_key_of(q->pile, q->stm);
    return 0;
}
static int nim_from_fen(void *p, const char *f, const GameOptions *o, char *err, size_t n)
{
    (void)o;
    int pile;
    char side;
    if (sscanf(f, "%d %c", &pile, &side) != 2 || pile < 0 || pile > 200 ||
        (side != 'a' && side != 'b')) {
        snprintf(err, n, "bad nim fen");
        return -1;
    }
    NimPos *q = p;
    q->pile = pile;
    q->stm = side == 'a' ? SIDE_P1 : SIDE_P2;
    q->key = nim_key_of(q->pile, q->stm);
    return 0;
}
static void nim_to_fen(const void *p, char *b, size_t n)
{
    const NimPos *q = p;
    pile_to_fen(q->pile, q->stm, b, n);
}
static int nim_gen(const void *p, Move *m) { return pile_gen(((const NimPos *)p)->pile, m); }
static void nim_make(void *p, Move m, void *u)
{
    (void)u;
    NimPos *q = p;
    q->pile -= (int)m;
    q->stm ^= 1;
    q->key = nim_key_of(q->pile, q->stm);
}
static void nim_unmake(void *p, Move m, const void *u)
{
    (void)u;
    NimPos *q = p;
    q->pile += (int)m;
    q->stm ^= 1;
    q->key = nim_key_of(q->pile, q->stm);
}
static int nim_stm(const void *p) { return ((const NimPos *)p)->stm; }
static int nim_result(const void *p)
{
    const NimPos *q = p;
    if (q->pile > 0)
        return RESULT_NONE;
    return q->stm == SIDE_P1 ? RESULT_P2_WIN : RESULT_P1_WIN;
}
static Key nim_key(const void *p) { return ((const NimPos *)p)->key; }
static int nim_eval(const void *p) { (void)p; return 0; }
/* No toy game has noisy moves. */
static int toy_noisy(const void *p, Move m) { (void)p; (void)m; return 0; }
static int nim_mstr(const void *p, Move m, char *b, size_t n)
{
    (void)p;
    return snprintf(b, n, "t%u", (unsigned)m);
}
static void nim_print(const void *p, FILE *o, int a) { (void)a; fprintf(o, "%d\n", ((const NimPos *)p)->pile); }

static const Game toy_nim = {
    .name = "nim", .pos_size = sizeof(NimPos), .undo_size = 1, .max_moves = 3,
    .init = nim_init, .from_fen = nim_from_fen, .to_fen = nim_to_fen, .gen_moves = nim_gen,
    .make = nim_make, .unmake = nim_unmake, .side_to_move = nim_stm, .result = nim_result,
    .key = nim_key, .key_from_scratch = nim_key, .evaluate = nim_eval,
    .move_is_noisy = toy_noisy, .move_to_str = nim_mstr, .print = nim_print,
};

/* --- Nim with extra turns: taking 2 lets the same side move again; who
 * takes the last stone wins.  Tests that no searcher assumes the sides
 * alternate (Morelli's placement phase does not). ---------------------- */

typedef struct NimxPos {
    int pile;
    int stm;
    int last; /* side that moved last */
    Key key;
} NimxPos;

static Key nimx_key_of(const NimxPos *q)
{
    uint64_t s = 5000 + (uint64_t)q->pile * 4 + (uint64_t)q->stm * 2 + (uint64_t)(q->pile == 0 ? q->last : 0);
    return rng_next(&s);
}
static int nimx_from_fen(void *p, const char *f, const GameOptions *o, char *err, size_t n)
{
    (void)o;
    NimxPos q = {0, 0, 1, 0};
    char side;
    if (sscanf(f, "%d %c", &q.pile, &side) != 2 || q.pile < 1 || q.pile > 200) {
        snprintf(err, n, "bad nimx fen");
        return -1;
    }
    q.stm = side == 'a' ? SIDE_P1 : SIDE_P2;
    q.last = q.stm ^ 1;
    q.key = nimx_key_of(&q);
    memcpy(p, &q, sizeof q);
    return 0;
}
static int nimx_init(void *p, const GameOptions *o, char *err, size_t n)
{
    return nimx_from_fen(p, "17 a", o, err, n);
}
static void nimx_to_fen(const void *p, char *b, size_t n)
{
    const NimxPos *q = p;
    pile_to_fen(q->pile, q->stm, b, n);
}
static int nimx_gen(const void *p, Move *m) { return pile_gen(((const NimxPos *)p)->pile, m); }
static void nimx_make(void *p, Move m, void *u)
{
    NimxPos *q = p;
    memcpy(u, q, sizeof *q);
    q->pile -= (int)m;
    q->last = q->stm;
    if (m != 2)
        q->stm ^= 1;
    q->key = nimx_key_of(q);
}
static void nimx_unmake(void *p, Move m, const void *u)
{
    (void)m;
    memcpy(p, u, sizeof(NimxPos));
}
static int nimx_stm(const void *p) { return ((const NimxPos *)p)->stm; }
static int nimx_result(const void *p)
{
    const NimxPos *q = p;
    if (q->pile > 0)
        return RESULT_NONE;
    return q->last == SIDE_P1 ? RESULT_P1_WIN : RESULT_P2_WIN;
}
static Key nimx_key(const void *p) { return ((const NimxPos *)p)->key; }

static const Game toy_nimx = {
    .name = "nimx", .pos_size = sizeof(NimxPos), .undo_size = sizeof(NimxPos), .max_moves = 3,
    .init = nimx_init, .from_fen = nimx_from_fen, .to_fen = nimx_to_fen, .gen_moves = nimx_gen,
    .make = nimx_make, .unmake = nimx_unmake, .side_to_move = nimx_stm, .result = nimx_result,
    .key = nimx_key, .key_from_scratch = nimx_key, .evaluate = nim_eval,
    .move_is_noisy = toy_noisy, .move_to_str = nim_mstr, .print = nim_print,
};

/* --- tic-tac-toe ------------------------------------------------------ */

typedef struct TttPos {
    uint8_t cell[9]; /* 0 empty, 1 p1, 2 p2 */
    uint8_t stm;
    Key key;
} TttPos;

static Key ttt_z(int cell, int who)
{
    uint64_t s = 1000 + (uint64_t)cell * 3 + (uint64_t)who;
    return rng_next(&s);
}
static Key ttt_scratch(const void *p)
{
    const TttPos *q = p;
    Key k = q->stm ? ttt_z(9, 0) : 0;
    for (int i = 0; i < 9; i++)
        if (q->cell[i])
            k ^= ttt_z(i, q->cell[i]);
    return k;
}
static int ttt_init(void *p, const GameOptions *o, char *err, size_t n)
{
    (void)o; (void)err; (void)n;
    memset(p, 0, sizeof(TttPos));
    return 0;
}
static int ttt_from_fen(void *p, const char *f, const GameOptions *o, char *err, size_t n)
{
    (void)o;
    TttPos q;
    memset(&q, 0, sizeof q);
    if (strlen(f) != 11 || f[9] != ' ' || (f[10] != 'x' && f[10] != 'o')) {
        snprintf(err, n, "bad ttt fen");
        return -1;
    }
    for (int i = 0; i < 9; i++)
        q.cell[i] = f[i] == 'x' ? 1 : f[i] == 'o' ? 2 : 0;
    q.stm = f[10] == 'x' ? SIDE_P1 : SIDE_P2;
    q.key = ttt_scratch(&q);
    memcpy(p, &q, sizeof q);
    return 0;
}
static void ttt_to_fen(const void *p, char *b, size_t n)
{
    const TttPos *q = p;
    char s[12];
    for (int i = 0; i < 9; i++)
        s[i] = ".xo"[q->cell[i]];
    s[9] = ' ';
    s[10] = q->stm ? 'o' : 'x';
    s[11] = 0;
    snprintf(b, n, "%s", s);
}
static int ttt_line(const TttPos *q)
{
    static const int L[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};
    for (int i = 0; i < 8; i++)
        if (q->cell[L[i][0]] && q->cell[L[i][0]] == q->cell[L[i][1]] &&
            q->cell[L[i][1]] == q->cell[L[i][2]])
            return q->cell[L[i][0]];
    return 0;
}
static int ttt_result(const void *p)
{
    const TttPos *q = p;
    int w = ttt_line(q);
    if (w)
        return w == 1 ? RESULT_P1_WIN : RESULT_P2_WIN;
    for (int i = 0; i < 9; i++)
        if (!q->cell[i])
            return RESULT_NONE;
    return RESULT_DRAW;
}
static int ttt_gen(const void *p, Move *m)
{
    const TttPos *q = p;
    int k = 0;
    for (int i = 0; i < 9; i++)
        if (!q->cell[i])
            m[k++] = (Move)(i + 1);
    return k;
}
static void ttt_make(void *p, Move m, void *u)
{
    (void)u;
    TttPos *q = p;
    q->cell[m - 1] = (uint8_t)(q->stm + 1);
    q->key ^= ttt_z((int)m - 1, q->stm + 1) ^ ttt_z(9, 0);
    q->stm ^= 1;
}
static void ttt_unmake(void *p, Move m, const void *u)
{
    (void)u;
    TttPos *q = p;
    q->stm ^= 1;
    q->cell[m - 1] = 0;
    q->key ^= ttt_z((int)m - 1, q->stm + 1) ^ ttt_z(9, 0);
}
static int ttt_stm(const void *p) { return ((const TttPos *)p)->stm; }
static Key ttt_key(const void *p) { return ((const TttPos *)p)->key; }
static int ttt_eval(const void *p)
{
    const TttPos *q = p;
    int v = q->cell[4] == 1 ? 10 : q->cell[4] == 2 ? -10 : 0;
    return q->stm == SIDE_P1 ? v : -v;
}
static int ttt_mstr(const void *p, Move m, char *b, size_t n)
{
    (void)p;
    return snprintf(b, n, "c%u", (unsigned)m);
}
static void ttt_print(const void *p, FILE *o, int a)
{
    (void)a;
    char f[16];
    ttt_to_fen(p, f, sizeof f);
    fprintf(o, "%s\n", f);
}

static const Game toy_ttt = {
    .name = "ttt", .pos_size = sizeof(TttPos), .undo_size = 1, .max_moves = 9,
    .init = ttt_init, .from_fen = ttt_from_fen, .to_fen = ttt_to_fen, .gen_moves = ttt_gen,
    .make = ttt_make, .unmake = ttt_unmake, .side_to_move = ttt_stm, .result = ttt_result,
    .key = ttt_key, .key_from_scratch = ttt_scratch, .evaluate = ttt_eval,
    .move_is_noisy = toy_noisy, .move_to_str = ttt_mstr, .print = ttt_print,
};

/* --- helpers ---------------------------------------------------------- */

static const Game *toy_by_name(const char *name)
{
    if (strcmp(name, "nim") == 0)
        return &toy_nim;
    if (strcmp(name, "ttt") == 0)
        return &toy_ttt;
    return game_by_name(name);
}

typedef struct Lines {
    char buf[64][1024];
    int n;
} Lines;

static void collect(void *ctx, const char *line)
{
    Lines *l = ctx;
    if (l->n < 64)
        snprintf(l->buf[l->n++], sizeof l->buf[0], "%s", line);
}

static Search *new_search(const char *algo, const char *hash)
{
    Search *s = search_new();
    char err[128];
    assert_non_null(s);
    assert_int_equal(search_setoption(s, "Hash", hash, err, sizeof err), 0);
    assert_int_equal(search_setoption(s, "Search", algo, err, sizeof err), 0);
    return s;
}

/* The score token of the last info line with a score, e.g. "mate 3". */
static void last_score(const Lines *l, char *out, size_t len)
{
    out[0] = 0;
    for (int i = 0; i < l->n; i++) {
        const char *p = strstr(l->buf[i], " score ");
        if (p) {
            char kind[8];
            int v;
            if (sscanf(p, " score %7s %d", kind, &v) == 2)
                snprintf(out, len, "%s %d", kind, v);
        }
    }
}

/* "ruleset=classic,pieces=12,..." onto opt. */
static void apply_options(GameOptions *opt, char *s)
{
    for (char *tok = s ? strtok(s, ",") : NULL; tok; tok = strtok(NULL, ",")) {
        char *eq = strchr(tok, '=');
        assert_non_null(eq);
        *eq++ = 0;
        long v = strtol(eq, NULL, 10);
        if (strcmp(tok, "ruleset") == 0)
            opt->ruleset = strcmp(eq, "classic") == 0 ? RULESET_CLASSIC : RULESET_STANDARD;
        else if (strcmp(tok, "pieces") == 0)
            opt->pieces = (int)v;
        else if (strcmp(tok, "diagonals") == 0)
            opt->diagonals = (int)v;
        else if (strcmp(tok, "flying") == 0)
            opt->flying = (int)v;
        else if (strcmp(tok, "moverule") == 0)
            opt->move_rule = (int)v;
        else
            fail_msg("unknown option %s", tok);
    }
}

/* Non-zero when word is one of the space-separated words of list. */
static int word_in(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; *p;) {
        while (*p == ' ')
            p++;
        size_t k = strcspn(p, " ");
        if (k == n && strncmp(p, word, n) == 0)
            return 1;
        p += k;
    }
    return 0;
}

/*
 * tests/data/search_toys.txt: one case a line,
 *   <game>[,option=value...] | <fen> | <searcher> | <limit> | <moves> | <score>
 * where the searcher may carry options (mcts,MCTSExplore=100), limit is
 * "depth N", "nodes N" or "movetime N", moves lists the
 * acceptable best moves ('*' = any legal one), and score is the last info
 * line's "cp N" / "mate N" ('*' = any).  A seventh field "heavy" skips the
 * case under the sanitizers (MORELLI_SANITIZE set).
 */
static void run_case_file(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[1024];
    int cases = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *field[7];
        int k = 0;
        for (char *tok = strtok(line, "|\n"); tok && k < 7; tok = strtok(NULL, "|\n")) {
            while (*tok == ' ')
                tok++;
            char *e = tok + strlen(tok);
            while (e > tok && e[-1] == ' ')
                *--e = 0;
            field[k++] = tok;
        }
        assert_true(k == 6 || k == 7);
        if (k == 7 && strcmp(field[6], "heavy") == 0 && td_sanitized())
            continue;
        GameOptions opt;
        game_options_default(&opt);
        char *optstr = strchr(field[0], ',');
        if (optstr)
            *optstr++ = 0;
        const Game *g = toy_by_name(field[0]);
        assert_non_null(g);
        apply_options(&opt, optstr);
        unsigned char pos[POS_MAX_BYTES];
        char err[256];
        if (g->from_fen(pos, field[1], &opt, err, sizeof err) != 0)
            fail_msg("%s: %s: %s", field[0], field[1], err);
        /* searcher[,Option=Value...] */
        char *sopts = strchr(field[2], ',');
        if (sopts)
            *sopts++ = 0;
        Search *s = new_search(field[2], "16");
        for (char *o = sopts ? strtok(sopts, ",") : NULL; o; o = strtok(NULL, ",")) {
            char *eq = strchr(o, '=');
            assert_non_null(eq);
            *eq++ = 0;
            if (search_setoption(s, o, eq, err, sizeof err) != 0)
                fail_msg("%s", err);
        }
        SearchLimits lim;
        search_limits_init(&lim);
        char kind[16];
        long long v;
        assert_int_equal(sscanf(field[3], "%15s %lld", kind, &v), 2);
        if (strcmp(kind, "depth") == 0)
            lim.depth = (int)v;
        else if (strcmp(kind, "nodes") == 0)
            lim.nodes = (uint64_t)v;
        else
            lim.movetime = v;
        atomic_int stop;
        atomic_init(&stop, 0);
        Lines *out = calloc(1, sizeof *out);
        assert_non_null(out);
        Move m = search_go(s, g, pos, &opt, NULL, 0, &lim, &stop, collect, out, NULL);
        char text[MOVE_STR_MAX], sc[32];
        game_move_str(g, pos, m, text, sizeof text);
        last_score(out, sc, sizeof sc);
        if (strcmp(field[4], "*") != 0 && !word_in(field[4], text))
            fail_msg("%s %s (%s): move %s, expected %s", field[0], field[1], field[2], text,
                     field[4]);
        if (strcmp(field[5], "*") != 0 && strcmp(field[5], sc) != 0)
            fail_msg("%s %s (%s): score %s, expected %s", field[0], field[1], field[2], sc,
                     field[5]);
        free(out);
        search_free(s);
        cases++;
    }
    fclose(f);
    assert_true(cases > 0);
}

static void test_toy_cases(void **state)
{
    (void)state;
    run_case_file("tests/data/search_toys.txt");
}

static void test_game_positions(void **state)
{
    (void)state;
    run_case_file("tests/data/search_positions.txt");
}

/* --- transposition table ---------------------------------------------- */

static void test_tt_store_probe(void **state)
{
    (void)state;
    TT t = {0};
    assert_int_equal(tt_resize(&t, 1), 0);
    TTHit h;
    Key k = 0x123456789abcdef0ull;
    assert_int_equal(tt_probe(&t, k, 0, &h), 0);
    tt_store(&t, k, 0, 77, -123, 5, TT_EXACT, 0);
    assert_int_equal(tt_probe(&t, k, 0, &h), 1);
    assert_int_equal(h.move, 77);
    assert_int_equal(h.score, -123);
    assert_int_equal(h.depth, 5);
    assert_int_equal(h.bound, TT_EXACT);
    assert_int_equal(h.proven, 0);
    assert_int_equal(tt_probe(&t, k ^ 1, 0, &h), 0);

    /* A win 3 plies below a node at ply 4 (root score SCORE_MATE - 7) is
     * read back at ply 2 as SCORE_MATE - 5. */
    Key km = 0x0fedcba987654321ull;
    tt_store(&t, km, 4, 9, SCORE_MATE - 7, 3, TT_LOWER, 1);
    assert_int_equal(tt_probe(&t, km, 2, &h), 1);
    assert_int_equal(h.score, SCORE_MATE - 5);
    assert_int_equal(h.proven, 1);
    assert_int_equal(h.bound, TT_LOWER);
    tt_store(&t, km, 4, 9, -(SCORE_MATE - 7), 3, TT_UPPER, 1);
    assert_int_equal(tt_probe(&t, km, 6, &h), 1);
    assert_int_equal(h.score, -(SCORE_MATE - 9));

    /* Same key, no move: the old move stays. */
    tt_store(&t, k, 0, MOVE_NONE, 50, 6, TT_EXACT, 0);
    assert_int_equal(tt_probe(&t, k, 0, &h), 1);
    assert_int_equal(h.move, 77);
    assert_int_equal(h.depth, 6);

    /* Replacement: fill one bucket with TT_BUCKET keys of different depth,
     * then a fifth key evicts the shallowest. */
    tt_clear(&t);
    Key keys[TT_BUCKET + 1];
    int found = 0;
    size_t want = tt_index(1, t.nbuckets);
    for (uint64_t x = 2; found < TT_BUCKET + 1; x++) {
        uint64_t s = x;
        Key c = rng_next(&s);
        if (tt_index(c, t.nbuckets) == want)
            keys[found++] = c;
    }
    for (int i = 0; i < TT_BUCKET; i++)
        tt_store(&t, keys[i], 0, (Move)(i + 1), i, 10 + i, TT_EXACT, 0);
    tt_store(&t, keys[TT_BUCKET], 0, 99, 0, 1, TT_EXACT, 0);
    assert_int_equal(tt_probe(&t, keys[0], 0, &h), 0); /* depth 10 went */
    for (int i = 1; i <= TT_BUCKET; i++)
        assert_int_equal(tt_probe(&t, keys[i], 0, &h), 1);
    /* An old deep entry loses to a new shallow one once it has aged. */
    for (int a = 0; a < 3; a++)
        tt_new_search(&t);
    Key fresh[1] = {0};
    for (uint64_t x = 1ull << 40; !fresh[0]; x++) {
        uint64_t s = x;
        Key c = rng_next(&s);
        if (tt_index(c, t.nbuckets) == want && c != keys[0])
            fresh[0] = c;
    }
    tt_store(&t, fresh[0], 0, 5, 0, 1, TT_EXACT, 0);
    assert_int_equal(tt_probe(&t, fresh[0], 0, &h), 1);
    assert_int_equal(tt_probe(&t, keys[TT_BUCKET], 0, &h), 0); /* the aged depth-1 went */
    assert_in_range(tt_hashfull(&t), 0, 1000);
    tt_free(&t);
}

/* --- behaviour -------------------------------------------------------- */

static void test_stop_flag(void **state)
{
    (void)state;
    const char *algos[] = {"alphabeta", "mcts"};
    for (int a = 0; a < 2; a++) {
        Search *s = new_search(algos[a], "4");
        unsigned char pos[POS_MAX_BYTES];
        char err[64];
        GameOptions opt;
        game_options_default(&opt);
        assert_int_equal(toy_ttt.init(pos, &opt, err, sizeof err), 0);
        SearchLimits lim;
        search_limits_init(&lim); /* no limit at all: only stop ends it */
        atomic_int stop;
        atomic_init(&stop, 1);
        SearchResult r;
        Move m = search_go(s, &toy_ttt, pos, &opt, NULL, 0, &lim, &stop, NULL, NULL, &r);
        assert_true(m >= 1 && m <= 9);
        search_free(s);
    }
}

static void test_node_limit_and_determinism(void **state)
{
    (void)state;
    GameOptions opt;
    game_options_default(&opt);
    unsigned char pos[POS_MAX_BYTES];
    char err[64];
    assert_int_equal(toy_nim.from_fen(pos, "150 a", &opt, err, sizeof err), 0);
    SearchResult r1, r2;
    SearchLimits lim;
    search_limits_init(&lim);
    lim.depth = 12;
    Search *s = new_search("alphabeta", "4");
    search_go(s, &toy_nim, pos, &opt, NULL, 0, &lim, NULL, NULL, NULL, &r1);
    search_clear(s);
    search_go(s, &toy_nim, pos, &opt, NULL, 0, &lim, NULL, NULL, NULL, &r2);
    assert_true(r1.nodes > 0);
    assert_true(r1.nodes == r2.nodes);
    assert_int_equal(r1.best, r2.best);
    assert_int_equal(r1.depth, 12);

    search_limits_init(&lim);
    lim.nodes = 50;
    search_clear(s);
    search_go(s, &toy_nim, pos, &opt, NULL, 0, &lim, NULL, NULL, NULL, &r1);
    assert_true(r1.best >= 1 && r1.best <= 3);
    assert_true(r1.nodes <= 50);
    search_free(s);

    s = new_search("mcts", "4");
    search_go(s, &toy_nim, pos, &opt, NULL, 0, &lim, NULL, NULL, NULL, &r1);
    assert_true(r1.best >= 1 && r1.best <= 3);
    assert_true(r1.nodes == 50);
    search_free(s);
}

/* Legal moves from both searchers on random positions of every game under
 * several options, with the game's history passed along. */
static void random_positions(const Game *g, const GameOptions *opt, int trials, uint64_t seed)
{
    unsigned char pos[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    char err[256];
    Move *moves = malloc((size_t)g->max_moves * sizeof *moves);
    Key hist[512];
    assert_non_null(moves);
    if (g->init(pos, opt, err, sizeof err) != 0 || g->result(pos) != RESULT_NONE) {
        free(moves); /* a game not written yet */
        return;
    }
    Search *ab = new_search("alphabeta", "2"), *mc = new_search("mcts", "2");
    assert_int_equal(search_setoption(ab, "Threads", (seed & 1) ? "2" : "1", err, sizeof err), 0);
    for (int t = 0; t < trials; t++) {
        assert_int_equal(g->init(pos, opt, err, sizeof err), 0);
        int plies = (int)rng_below(&seed, 120), nh = 0;
        for (int i = 0; i < plies && g->result(pos) == RESULT_NONE && nh < 500; i++) {
            int n = g->gen_moves(pos, moves);
            hist[nh++] = g->key(pos);
            g->make(pos, moves[rng_below(&seed, (uint32_t)n)], undo);
        }
        for (int a = 0; a < 2; a++) {
            SearchLimits lim;
            search_limits_init(&lim);
            if (t & 1)
                lim.depth = a ? 1 : 2;
            else
                lim.nodes = a ? 100 : 2000;
            SearchResult r;
            Move m = search_go(a ? mc : ab, g, pos, opt, hist, nh, &lim, NULL, NULL, NULL, &r);
            int over = history_result(g, pos, opt, hist, nh) != RESULT_NONE;
            int n = over ? 0 : g->gen_moves(pos, moves), legal = 0;
            for (int i = 0; i < n; i++)
                legal |= moves[i] == m;
            if (over)
                assert_true(m == MOVE_NONE);
            else if (!legal) {
                char fen[FEN_MAX];
                g->to_fen(pos, fen, sizeof fen);
                fail_msg("%s %s: illegal move %u from %s", g->name, fen, (unsigned)m,
                         a ? "mcts" : "alphabeta");
            }
        }
    }
    search_free(ab);
    search_free(mc);
    free(moves);
}

static void test_random_positions(void **state)
{
    (void)state;
    int trials = td_sanitized() ? 2 : 6;
    for (int i = 0; i < game_count; i++) {
        GameOptions opt;
        game_options_default(&opt);
        random_positions(game_list[i], &opt, trials, 100 + (uint64_t)i);
        if (game_list[i] == &game_morelli) {
            opt.board_size = 9;
            opt.ruleset = RULESET_CLASSIC;
            opt.setup = SETUP_FREE;
            random_positions(game_list[i], &opt, trials, 201);
            opt.board_size = 11;
            opt.ruleset = RULESET_STANDARD;
            opt.setup = SETUP_RANDOM;
            opt.setup_seed = 5;
            random_positions(game_list[i], &opt, trials, 302);
        } else if (game_list[i] == &game_morris) {
            opt.pieces = 12;
            opt.diagonals = 1;
            opt.move_rule = 10;
            random_positions(game_list[i], &opt, trials, 403);
        }
    }
}

/* Fano: alpha-beta without the solver must find the solver's exact value
 * for the positions the solver calls won or lost within a few plies, and
 * search_go() with the solver must play and report it. */
static void test_fano_solver_agrees(void **state)
{
    (void)state;
    const Game *fano = game_by_name("fano");
    assert_non_null(fano);
    GameOptions opt;
    game_options_default(&opt);
    unsigned char pos[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    char err[256];
    if (!fano->solve || fano->init(pos, &opt, err, sizeof err) != 0)
        return; /* not written yet */
    Game nosolve = *fano;
    nosolve.solve = NULL;
    Move moves[64];
    uint64_t seed = 4242;
    int checked = 0, want = td_sanitized() ? 3 : 12;
    for (int trial = 0; trial < 2000 && checked < want; trial++) {
        assert_int_equal(fano->init(pos, &opt, err, sizeof err), 0);
        int plies = 2 + (int)rng_below(&seed, 8);
        for (int i = 0; i < plies && fano->result(pos) == RESULT_NONE; i++) {
            int n = fano->gen_moves(pos, moves);
            fano->make(pos, moves[rng_below(&seed, (uint32_t)n)], undo);
        }
        int v;
        Move best;
        if (fano->result(pos) != RESULT_NONE || !fano->solve(pos, &v, &best) || v == 0)
            continue;
        int a = v < 0 ? -v : v;
        int n_plies = a > VALUE_WIN / 2 ? VALUE_WIN - a : a;
        if (n_plies > 7)
            continue;
        int expect = v > 0 ? SCORE_MATE - n_plies : -(SCORE_MATE - n_plies);
        SearchLimits lim;
        search_limits_init(&lim);
        lim.depth = n_plies + 1;
        SearchResult r;
        Search *s = new_search("alphabeta", "2");
        search_go(s, &nosolve, pos, &opt, NULL, 0, &lim, NULL, NULL, NULL, &r);
        assert_int_equal(r.score, expect);
        search_clear(s);
        search_go(s, fano, pos, &opt, NULL, 0, &lim, NULL, NULL, NULL, &r);
        assert_int_equal(r.score, expect);
        assert_true(r.best == best);
        search_free(s);
        checked++;
    }
    assert_int_equal(checked, want);
}

/* SearchResult.proven: set for a solved draw and a mate, not for a value at
 * the horizon. */
static void test_proven_flag(void **state)
{
    (void)state;
    GameOptions opt;
    game_options_default(&opt);
    unsigned char pos[POS_MAX_BYTES];
    char err[64];
    SearchLimits lim;
    SearchResult r;
    const char *algos[] = {"alphabeta", "mcts"};
    for (int a = 0; a < 2; a++) {
        Search *s = new_search(algos[a], "8");
        /* Proofs need breadth: the exploration constant of the proving
         * cases (tests/data) rather than the playing default. */
        assert_int_equal(search_setoption(s, "MCTSExplore", "100", err, sizeof err), 0);
        search_limits_init(&lim);
        lim.depth = 20;
        lim.nodes = 300000;
        assert_int_equal(toy_ttt.init(pos, &opt, err, sizeof err), 0);
        search_go(s, &toy_ttt, pos, &opt, NULL, 0, &lim, NULL, NULL, NULL, &r);
        assert_int_equal(r.score, 0);
        assert_int_equal(r.proven, 1);
        assert_int_equal(toy_nim.from_fen(pos, "22 b", &opt, err, sizeof err), 0);
        search_clear(s);
        search_go(s, &toy_nim, pos, &opt, NULL, 0, &lim, NULL, NULL, NULL, &r);
        assert_int_equal(r.score, SCORE_MATE - 11);
        assert_int_equal(r.best, 2);
        assert_int_equal(r.proven, 1);
        search_free(s);
    }
    Search *s = new_search("alphabeta", "8");
    search_limits_init(&lim);
    lim.depth = 6;
    assert_int_equal(toy_nim.from_fen(pos, "150 a", &opt, err, sizeof err), 0);
    search_go(s, &toy_nim, pos, &opt, NULL, 0, &lim, NULL, NULL, NULL, &r);
    assert_int_equal(r.proven, 0);
    assert_int_equal(r.depth, 6);
    search_free(s);
}

typedef struct StopLater {
    atomic_int *stop;
    int ms;
} StopLater;

static void *stop_later(void *arg)
{
    StopLater *sl = arg;
    struct timespec ts = {sl->ms / 1000, (long)(sl->ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
    atomic_store(sl->stop, 1);
    return NULL;
}

/* go infinite returns only after stop, even on a position solved at once
 * (tic-tac-toe), and then with a legal move. */
static void test_infinite_until_stop(void **state)
{
    (void)state;
    const char *algos[] = {"alphabeta", "mcts"};
    for (int a = 0; a < 2; a++) {
        Search *s = new_search(algos[a], "4");
        unsigned char pos[POS_MAX_BYTES];
        char err[64];
        GameOptions opt;
        game_options_default(&opt);
        assert_int_equal(toy_ttt.init(pos, &opt, err, sizeof err), 0);
        SearchLimits lim;
        search_limits_init(&lim);
        lim.infinite = 1;
        atomic_int stop;
        atomic_init(&stop, 0);
        StopLater sl = {&stop, 30};
        pthread_t th;
        assert_int_equal(pthread_create(&th, NULL, stop_later, &sl), 0);
        Move m = search_go(s, &toy_ttt, pos, &opt, NULL, 0, &lim, &stop, NULL, NULL, NULL);
        assert_int_equal(atomic_load(&stop), 1);
        pthread_join(th, NULL);
        assert_true(m >= 1 && m <= 9);
        search_free(s);
    }
}

/* Every info line has the fields in order, and its PV is a line of legal
 * moves (each parsed in the position the previous ones lead to). */
static void test_info_lines(void **state)
{
    (void)state;
    const char *algos[] = {"alphabeta", "mcts"};
    const Game *g = game_by_name("morris");
    GameOptions opt;
    game_options_default(&opt);
    unsigned char pos[POS_MAX_BYTES], p[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    char err[128];
    if (!g || g->init(pos, &opt, err, sizeof err) != 0 || g->result(pos) != RESULT_NONE)
        return;
    for (int a = 0; a < 2; a++) {
        Search *s = new_search(algos[a], "4");
        SearchLimits lim;
        search_limits_init(&lim);
        if (a)
            lim.nodes = 3000;
        else
            lim.depth = 5;
        Lines *out = calloc(1, sizeof *out);
        assert_non_null(out);
        Move best = search_go(s, g, pos, &opt, NULL, 0, &lim, NULL, collect, out, NULL);
        assert_true(out->n >= 1);
        int pv_lines = 0;
        for (int i = 0; i < out->n; i++) {
            const char *l = out->buf[i];
            if (strncmp(l, "info string", 11) == 0)
                continue;
            int d, sd, sv;
            char kind[8];
            unsigned long long nodes, nps;
            long long ms;
            int hf, used = 0;
            int k = sscanf(l, "info depth %d seldepth %d score %7s %d nodes %llu nps %llu time %lld hashfull %d%n",
                           &d, &sd, kind, &sv, &nodes, &nps, &ms, &hf, &used);
            if (k != 8)
                fail_msg("bad info line: %s", l);
            assert_true(strcmp(kind, "cp") == 0 || strcmp(kind, "mate") == 0);
            assert_in_range(hf, 0, 1000);
            const char *pv = l + used;
            if (strncmp(pv, " pv ", 4) != 0)
                continue;
            pv_lines++;
            memcpy(p, pos, g->pos_size);
            char buf[1024];
            snprintf(buf, sizeof buf, "%s", pv + 4);
            int first = 1;
            for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
                Move m = game_parse_move(g, p, tok);
                if (m == MOVE_NONE)
                    fail_msg("pv move %s not legal in: %s", tok, l);
                if (first && i == out->n - 1)
                    assert_true(m == best);
                first = 0;
                g->make(p, m, undo);
            }
        }
        assert_true(pv_lines >= 1);
        free(out);
        search_free(s);
    }
}

/* Both searchers against a table of the extra-turn Nim's values. */
static void test_same_side_twice(void **state)
{
    (void)state;
    enum { N = 24 };
    int win[N + 1]; /* the side to move wins with pile p */
    win[0] = 0;
    for (int p = 1; p <= N; p++) {
        win[p] = 0;
        for (int m = 1; m <= 3 && m <= p; m++)
            if (p == m || (m == 2 ? win[p - m] : !win[p - m]))
                win[p] = 1;
    }
    GameOptions opt;
    game_options_default(&opt);
    unsigned char pos[POS_MAX_BYTES], child[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    char err[64], fen[16];
    const char *algos[] = {"alphabeta", "mcts"};
    for (int a = 0; a < 2; a++) {
        Search *s = new_search(algos[a], "4");
        for (int p = 1; p <= N; p++) {
            snprintf(fen, sizeof fen, "%d %c", p, p % 2 ? 'a' : 'b');
            assert_int_equal(toy_nimx.from_fen(pos, fen, &opt, err, sizeof err), 0);
            SearchLimits lim;
            search_limits_init(&lim);
            lim.depth = 40;
            lim.nodes = 200000;
            SearchResult r;
            search_clear(s);
            search_go(s, &toy_nimx, pos, &opt, NULL, 0, &lim, NULL, NULL, NULL, &r);
            if (win[p]) {
                if (r.score < SCORE_MATE_BOUND)
                    fail_msg("%s: pile %d is won, score %d", algos[a], p, r.score);
                memcpy(child, pos, sizeof(NimxPos));
                toy_nimx.make(child, r.best, undo);
                const NimxPos *c = (const NimxPos *)child;
                int ok = c->pile == 0 || (r.best == 2 ? win[c->pile] : !win[c->pile]);
                if (!ok)
                    fail_msg("%s: pile %d, move %u does not win", algos[a], p, (unsigned)r.best);
            } else if (r.score > -SCORE_MATE_BOUND) {
                fail_msg("%s: pile %d is lost, score %d", algos[a], p, r.score);
            }
        }
        search_free(s);
    }
}

/* The node count of a fixed-depth search is the build's signature: the
 * same twice over (one thread, the table cleared in between), on the real
 * games. */
static void test_real_game_determinism(void **state)
{
    (void)state;
    for (int i = 0; i < game_count; i++) {
        const Game *g = game_list[i];
        GameOptions opt;
        game_options_default(&opt);
        opt.board_size = 9;
        unsigned char pos[POS_MAX_BYTES];
        char err[128];
        if (g->init(pos, &opt, err, sizeof err) != 0 || g->result(pos) != RESULT_NONE)
            continue;
        Game plain = *g; /* search, not the solver */
        plain.solve = NULL;
        SearchLimits lim;
        search_limits_init(&lim);
        lim.depth = g == &game_morelli ? 3 : 6;
        SearchResult r1, r2;
        Search *s = new_search("alphabeta", "4");
        search_go(s, &plain, pos, &opt, NULL, 0, &lim, NULL, NULL, NULL, &r1);
        search_clear(s);
        search_go(s, &plain, pos, &opt, NULL, 0, &lim, NULL, NULL, NULL, &r2);
        assert_true(r1.nodes > 0);
        assert_true(r1.nodes == r2.nodes);
        assert_true(r1.best == r2.best);
        assert_int_equal(r1.score, r2.score);
        search_free(s);
    }
}

static void test_options(void **state)
{
    (void)state;
    Search *s = search_new();
    char err[128];
    assert_int_equal(search_setoption(s, "hash", "2", err, sizeof err), 0);
    assert_int_equal(search_setoption(s, "Hash", "0", err, sizeof err), -1);
    assert_int_equal(search_setoption(s, "Hash", "12x", err, sizeof err), -1);
    assert_int_equal(search_setoption(s, "Threads", "65", err, sizeof err), -1);
    assert_int_equal(search_setoption(s, "Search", "minimax", err, sizeof err), -1);
    assert_int_equal(search_setoption(s, "search", "MCTS", err, sizeof err), 0);
    assert_int_equal(search_setoption(s, "MCTSPolicy", "plain", err, sizeof err), 0);
    assert_int_equal(search_setoption(s, "Nope", "1", err, sizeof err), -1);
    assert_non_null(strstr(err, "Nope"));
    search_free(s);
}

/* Search=random: a legal move of every position of a random game, the same
 * sequence again from a fresh Search, and more than one distinct move. */
static void test_random_player(void **state)
{
    (void)state;
    for (int gi = 0; gi < game_count; gi++) {
        const Game *g = game_list[gi];
        GameOptions opt;
        game_options_default(&opt);
        Move first[2][64];
        int plies[2] = {0, 0};
        for (int run = 0; run < 2; run++) {
            Search *s = search_new();
            char err[128];
            assert_int_equal(search_setoption(s, "Search", "random", err, sizeof err), 0);
            unsigned char pos[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
            assert_int_equal(g->init(pos, &opt, err, sizeof err), 0);
            SearchLimits lim;
            search_limits_init(&lim);
            lim.depth = 1;
            while (plies[run] < 64 && g->result(pos) == RESULT_NONE) {
                Move m = search_go(s, g, pos, &opt, NULL, 0, &lim, NULL, NULL, NULL, NULL);
                assert_true(search_move_legal(g, pos, m));
                first[run][plies[run]++] = m;
                g->make(pos, m, undo);
            }
            search_free(s);
        }
        assert_int_equal(plies[0], plies[1]);
        assert_memory_equal(first[0], first[1], (size_t)plies[0] * sizeof(Move));
        int distinct = 0;
        for (int i = 1; i < plies[0]; i++)
            distinct |= first[0][i] != first[0][0];
        assert_true(distinct);
    }
}

/* MoveOverhead comes off the movetime and the clock; budgets never reach
 * past what is left. */
static void test_move_overhead(void **state)
{
    (void)state;
    SearchLimits l;
    TimeManager a, b;
    search_limits_init(&l);
    l.movetime = 100;
    timeman_init(&a, &l, SIDE_P1, 0);
    timeman_init(&b, &l, SIDE_P1, 30);
    assert_true(a.hard_ms > 0 && a.hard_ms <= 100);
    assert_int_equal(a.hard_ms - b.hard_ms, 30);
    search_limits_init(&l);
    l.time[SIDE_P2] = 1000;
    l.inc[SIDE_P2] = 10;
    timeman_init(&a, &l, SIDE_P2, 0);
    timeman_init(&b, &l, SIDE_P2, 200);
    assert_true(b.hard_ms < a.hard_ms && b.soft_ms <= a.soft_ms);
    assert_true(a.hard_ms < 1000 && b.hard_ms <= 800);
    Search *s = search_new();
    char err[128];
    assert_int_equal(search_setoption(s, "MoveOverhead", "50", err, sizeof err), 0);
    assert_int_equal(search_setoption(s, "MoveOverhead", "-1", err, sizeof err), -1);
    search_prepare(s);
    search_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tt_store_probe),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_random_player),
        cmocka_unit_test(test_move_overhead),
        cmocka_unit_test(test_toy_cases),
        cmocka_unit_test(test_game_positions),
        cmocka_unit_test(test_stop_flag),
        cmocka_unit_test(test_node_limit_and_determinism),
        cmocka_unit_test(test_random_positions),
        cmocka_unit_test(test_real_game_determinism),
        cmocka_unit_test(test_fano_solver_agrees),
        cmocka_unit_test(test_proven_flag),
        cmocka_unit_test(test_same_side_twice),
        cmocka_unit_test(test_infinite_until_stop),
        cmocka_unit_test(test_info_lines),
    };
    return cmocka_run_group_tests_name("search", tests, NULL, NULL);
}
