/*
 * Morris family tests: the rules as positions (tests/data/morris_rules.txt),
 * FEN round trips and malformed FENs,
 * random games under every option set (unmake, incremental key, piece
 * counts, move texts, the staged generators, move_legal and the ordering
 * hints against gen_moves), blockades the search must play for or avoid
 * (tests/data/morris_blockade.txt), the positions GameSearch.forced marks for
 * an extension (tests/data/morris_forced.txt), and the endgame tables
 * (tests/data/morris_egtb.txt): for each option set, random positions whose
 * table value must agree with the values of their children (one step of
 * the game's own rules, independent of the builder's move loops) and with a
 * plain exhaustive depth-limited search; known positions with their values
 * and solve()'s shortest win; a build that runs out of memory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "notice.h"
#include "game.h"
#include "past.h"
#include "morris/morris.h"
#include "perft.h"
#include "search/search.h"
#include "testdata.h"

static const Game *G = &game_morris;

/* "pieces=12 diag=1 fly=0 rule=50" over the defaults. */
static void parse_options(const char *s, GameOptions *o)
{
    game_options_default(o);
    const char *p;
    if ((p = strstr(s, "pieces=")))
        morris_opts(o)->pieces = atoi(p + 7);
    if ((p = strstr(s, "diag=")))
        morris_opts(o)->diagonals = atoi(p + 5);
    if ((p = strstr(s, "fly=")))
        morris_opts(o)->flying = atoi(p + 4);
    if ((p = strstr(s, "rule=")))
        morris_opts(o)->move_rule = atoi(p + 5);
}

static void load(void *pos, const GameOptions *o, const char *fen)
{
    char err[256];
    int rc = G->from_fen(pos, fen, o, err, sizeof err);
    if (rc != 0)
        fail_msg("FEN '%s' rejected: %s", fen, err);
}

static void check_pos_line(char **f, int nf)
{
    assert_true(nf >= 7);
    GameOptions o;
    parse_options(f[1], &o);
    unsigned char pos[POS_MAX_BYTES];
    Move moves[960];
    load(pos, &o, f[2]);
    int res = G->result(pos);
    if (res != td_result_code(f[3]))
        fail_msg("%s: result %d, want %s", f[0], res, f[3]);
    int n = G->gen_moves(pos, moves);
    if (strcmp(f[4], "-") != 0 && n != atoi(f[4]))
        fail_msg("%s: %d legal moves, want %s", f[0], n, f[4]);
    td_check_move_lists(G, pos, f[0], f[5], f[6]);
}

static void check_seq_line(char **f, int nf)
{
    assert_true(nf >= 6);
    GameOptions o;
    parse_options(f[1], &o);
    unsigned char pos[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    load(pos, &o, f[2]);
    Past h;
    past_init(&h);
    char list[512];
    snprintf(list, sizeof list, "%s", f[3]);
    for (char *t = strtok(list, " "); t; t = strtok(NULL, " ")) {
        assert_int_equal(past_result(G, pos, h.keys, h.len), RESULT_NONE);
        Move m = game_parse_move(G, pos, t);
        if (m == MOVE_NONE)
            fail_msg("%s: move %s is not legal", f[0], t);
        assert_int_equal(past_push(&h, G->key(pos)), 0);
        G->make(pos, m, undo);
    }
    int res = past_result(G, pos, h.keys, h.len);
    if (res != td_result_code(f[4]))
        fail_msg("%s: result %d, want %s", f[0], res, f[4]);
    assert_int_equal(G->reversible_plies(pos), atoi(f[5]));
    past_free(&h);
}

static void test_rules(void **state)
{
    (void)state;
    assert_true(td_rules_file("morris_rules.txt", check_pos_line, check_seq_line) >= 20);
}

static void test_fen_round_trip(void **state)
{
    (void)state;
    FILE *fp = td_open("morris_fens.txt");
    char line[1024];
    int done = 0;
    char *f[TD_MAXF];
    int nf;
    while ((nf = td_next_record(fp, line, sizeof line, f)) > 0) {
        assert_int_equal(nf, 2);
        GameOptions o;
        parse_options(f[0], &o);
        unsigned char pos[POS_MAX_BYTES];
        char out[FEN_MAX];
        load(pos, &o, f[1]);
        G->to_fen(pos, out, sizeof out);
        assert_string_equal(out, f[1]);
        assert_true(G->key(pos) == G->key_from_scratch(pos));
        done++;
    }
    fclose(fp);
    assert_true(done >= 4);

    /* Without the ply count the FEN means 0 plies. */
    GameOptions o;
    game_options_default(&o);
    unsigned char pos[POS_MAX_BYTES];
    char out[FEN_MAX], err[256];
    assert_int_equal(G->from_fen(pos, "3/3/3/6/3/3/3 w 9 9", &o, err, sizeof err), 0);
    G->to_fen(pos, out, sizeof out);
    assert_string_equal(out, "3/3/3/6/3/3/3 w 9 9 0");
    /* The start position and its FEN are the same position. */
    unsigned char start[POS_MAX_BYTES];
    assert_int_equal(G->init(start, &o, err, sizeof err), 0);
    assert_memory_equal(start, pos, G->pos_size);
}

static void test_bad_fens(void **state)
{
    (void)state;
    FILE *fp = td_open("morris_badfens.txt");
    char line[1024];
    int done = 0;
    char *f[TD_MAXF];
    int nf;
    while ((nf = td_next_record(fp, line, sizeof line, f)) > 0) {
        assert_true(nf >= 1);
        GameOptions o;
        parse_options(f[0], &o);
        td_check_fen_rejected(G, nf >= 2 ? f[1] : "", &o, 0x5A);
        done++;
    }
    fclose(fp);
    assert_true(done >= 20);
}

/* Pieces of a side on the board, from the FEN's board field. */
static void fen_counts(const char *fen, int on_board[2], int hand[2])
{
    on_board[0] = on_board[1] = 0;
    const char *c = fen;
    for (; *c && *c != ' '; c++) {
        on_board[0] += *c == 'W';
        on_board[1] += *c == 'B';
    }
    char side;
    int rev;
    assert_int_equal(sscanf(c, " %c %d %d %d", &side, &hand[0], &hand[1], &rev), 4);
}

static int cmp_move(const void *a, const void *b)
{
    Move x = *(const Move *)a, y = *(const Move *)b;
    return x < y ? -1 : x > y;
}

/* The search's generators against gen_moves (sorted, n of them): gen_noisy
 * gives exactly the removing turns, gen_quiet exactly the others;
 * move_legal accepts every move and refuses every value one bit away that
 * is not a move; the ordering hints are in 0..255. */
static void check_generators(const void *pos, Move *all, int n, uint64_t *rng)
{
    Move part[960];
    int hint[960];
    qsort(all, (size_t)n, sizeof *all, cmp_move);
    int nn = G->search->gen_noisy(pos, part, NULL);
    int nq = G->search->gen_quiet(pos, part + nn);
    assert_int_equal(nn + nq, n);
    for (int i = 0; i < nn + nq; i++)
        assert_int_equal(G->move_is_noisy(pos, part[i]) != 0, i < nn);
    qsort(part, (size_t)n, sizeof *part, cmp_move);
    assert_memory_equal(part, all, (size_t)n * sizeof *all);
    G->search->move_order(pos, all, n, hint);
    for (int i = 0; i < n; i++) {
        assert_in_range(hint[i], 0, 255);
        assert_true(G->search->move_legal(pos, all[i]));
        Move m = all[i] ^ ((Move)1 << rng_below(rng, 32));
        int listed = bsearch(&m, all, (size_t)n, sizeof m, cmp_move) != NULL;
        assert_int_equal(G->search->move_legal(pos, m) != 0, listed);
    }
    Move r = (Move)rng_next(rng) & 0x7FFFu;
    assert_int_equal(G->search->move_legal(pos, r) != 0,
                     bsearch(&r, all, (size_t)n, sizeof r, cmp_move) != NULL);
}

static void random_games(const GameOptions *o, int games, uint64_t seed)
{
    unsigned char pos[POS_MAX_BYTES], copy[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    Move moves[960];
    char err[256], fen[FEN_MAX], text[MOVE_STR_MAX];
    int ends[4] = {0, 0, 0, 0};
    for (int gi = 0; gi < games; gi++) {
        assert_int_equal(G->init(pos, o, err, sizeof err), 0);
        int total_before = 2 * morris_opts_c(o)->pieces, ply = 0;
        for (; ply < 300 && G->result(pos) == RESULT_NONE; ply++) {
            int n = G->gen_moves(pos, moves);
            assert_in_range(n, 1, G->max_moves);
            int nb[2], h[2];
            G->to_fen(pos, fen, sizeof fen);
            fen_counts(fen, nb, h);
            assert_true(nb[0] + h[0] <= morris_opts_c(o)->pieces &&
                        nb[1] + h[1] <= morris_opts_c(o)->pieces);
            assert_true(nb[0] + h[0] + nb[1] + h[1] <= total_before);
            total_before = nb[0] + h[0] + nb[1] + h[1];
            check_generators(pos, moves, n, &seed);
            Move m = moves[rng_below(&seed, (uint32_t)n)];
            game_move_str(G, pos, m, text, sizeof text);
            assert_true(game_parse_move(G, pos, text) == m);
            assert_int_equal(G->move_is_noisy(pos, m) != 0, strchr(text, 'x') != NULL);
            (void)G->evaluate(pos);
            memcpy(copy, pos, G->pos_size);
            int rev = G->reversible_plies(pos);
            G->make(pos, m, undo);
            assert_true(G->key(pos) == G->key_from_scratch(pos));
            assert_int_equal(G->side_to_move(pos), 1 - G->side_to_move(copy));
            /* Plies since the last removal: reset by removals and placements. */
            int placement = strchr(text, '-') == NULL;
            assert_int_equal(G->reversible_plies(pos),
                             (strchr(text, 'x') || placement) ? 0 : rev + 1);
            G->unmake(pos, m, undo);
            assert_memory_equal(pos, copy, G->pos_size);
            G->make(pos, m, undo);
        }
        ends[G->result(pos)]++;
    }
    /* Random games do end by the rules, not only by the ply cap. */
    assert_true(ends[RESULT_P1_WIN] + ends[RESULT_P2_WIN] + ends[RESULT_DRAW] > 0);
}

static void test_random_games(void **state)
{
    (void)state;
    int games = td_sanitized() ? 10 : 60;
    GameOptions o;
    for (int v = 0; v < 8; v++) {
        game_options_default(&o);
        morris_opts(&o)->pieces = (v & 1) ? 12 : 9;
        morris_opts(&o)->diagonals = (v >> 1) & 1;
        morris_opts(&o)->flying = !((v >> 2) & 1);
        random_games(&o, games, 777 + (uint64_t)v);
    }
}

static void test_bad_options_and_moves(void **state)
{
    (void)state;
    GameOptions o;
    game_options_default(&o);
    morris_opts(&o)->pieces = 11;
    unsigned char pos[POS_MAX_BYTES];
    char err[256] = "";
    assert_int_equal(G->init(pos, &o, err, sizeof err), -1);
    assert_true(strlen(err) > 0);
    game_options_default(&o);
    assert_int_equal(G->init(pos, &o, err, sizeof err), 0);
    const char *bad[] = {"",      "d",        "z9",       "d2d2", "d2xx", "d2-d3",
                         "d2xa1", "a1a1a1a1", "d2-d3xg7", "h1",   "a2",   "d2 "};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_true(game_parse_move(G, pos, bad[i]) == MOVE_NONE);
    assert_true(game_parse_move(G, pos, "D2") != MOVE_NONE);
    assert_int_equal(G->repetition_count, 3);
    assert_non_null(G->move_rule);
    assert_int_equal(G->move_rule(pos), 100);
}

static void test_print(void **state)
{
    (void)state;
    GameOptions o;
    game_options_default(&o);
    morris_opts(&o)->diagonals = 1;
    unsigned char pos[POS_MAX_BYTES];
    char err[256];
    assert_int_equal(G->from_fen(pos, "W1B/BWB/1W1/WB2WB/1B1/W1W/B1W w 0 0 0", &o, err, sizeof err),
                     0);
    char *buf = td_print(G, pos, 0);
    /* Rank 7: a7 White, d7 empty, g7 Black; the diagonals are drawn. */
    assert_non_null(strstr(buf, "7 W-----------.-----------B"));
    assert_non_null(strstr(buf, "\\"));
    assert_non_null(strstr(buf, "a   b   c   d   e   f   g"));
    assert_null(strstr(buf, "Fen")); /* the protocol's d prints the FEN once */
    free(buf);
}

static void test_eval_policy_key(void **state)
{
    (void)state;
    GameOptions o;
    game_options_default(&o);
    unsigned char a[POS_MAX_BYTES], b[POS_MAX_BYTES];
    /* White a piece up (and a mill): good for White, bad for Black. */
    load(a, &o, "3/B1B/W2/5W/3/BB1/WWW w 0 0 0");
    load(b, &o, "3/B1B/W2/5W/3/BB1/WWW b 0 0 0");
    assert_true(G->evaluate(a) > 0);
    assert_true(G->evaluate(b) < 0);
    /* The key tells the side to move and the pieces in hand apart. */
    assert_true(G->key(a) != G->key(b));
    load(a, &o, "3/3/3/6/3/3/3 w 9 9 0");
    load(b, &o, "3/3/3/6/3/3/3 w 9 8 0");
    assert_true(G->key(a) != G->key(b));
    /* The plies counter is not part of the key (repetition compares
     * positions, not counters). */
    load(b, &o, "3/3/3/6/3/3/3 w 9 9 7");
    assert_true(G->key(a) == G->key(b));
    /* Playouts take a removal when there is one. */
    load(a, &o, "BBB/B2/3/6/3/3/WW1 w 5 5 0");
    Move moves[960];
    int n = G->gen_moves(a, moves);
    uint64_t rng = 1;
    for (int i = 0; i < 50; i++) {
        Move m = G->playout->move(a, moves, n, &rng);
        assert_true(G->move_is_noisy(a, m));
    }
    load(a, &o, "3/3/3/6/3/3/3 w 9 9 0");
    n = G->gen_moves(a, moves);
    for (int i = 0; i < n; i++)
        assert_false(G->move_is_noisy(a, moves[i]));
}

/* tests/data/morris_blockade.txt: the search plays for a blockade and
 * steers clear of one. */
static void test_blockades(void **state)
{
    (void)state;
    FILE *fp = td_open("morris_blockade.txt");
    char line[512], *f[TD_MAXF];
    int nf, n = 0;
    while ((nf = td_next_record(fp, line, sizeof line, f)) > 0) {
        assert_true(nf >= 5);
        GameOptions o;
        parse_options(f[0], &o);
        unsigned char pos[POS_MAX_BYTES];
        load(pos, &o, f[1]);
        Search *s = search_new();
        assert_non_null(s);
        SearchLimits lim;
        search_limits_init(&lim);
        if (strncmp(f[2], "nodes ", 6) == 0)
            lim.nodes = (uint64_t)atoll(f[2] + 6); /* a node budget */
        else
            lim.depth = atoi(f[2]);
        SearchResult r;
        Move m = search_go(s, G, pos, &o, NULL, 0, &lim, NULL, NULL, NULL, &r);
        search_free(s);
        char text[MOVE_STR_MAX], need[MOVE_STR_MAX + 2], list[256];
        G->move_to_str(pos, m, text, sizeof text);
        snprintf(need, sizeof need, " %s ", text);
        snprintf(list, sizeof list, " %s ", f[3]);
        if (f[3][0] == '!') { /* the moves the search must not choose */
            snprintf(list, sizeof list, " %s ", f[3] + 1);
            if (strstr(list, need))
                fail_msg("%s: played %s, one of the losing %s", f[1], text, f[3] + 1);
        } else if (strcmp(f[3], "*") != 0 && !strstr(list, need)) {
            fail_msg("%s: played %s, want one of %s", f[1], text, f[3]);
        }
        char sc[32];
        if (r.score >= SCORE_MATE_BOUND)
            snprintf(sc, sizeof sc, "mate %d", (SCORE_MATE - r.score + 1) / 2);
        else if (r.score <= -SCORE_MATE_BOUND)
            snprintf(sc, sizeof sc, "mate -%d", (SCORE_MATE + r.score) / 2);
        else
            snprintf(sc, sizeof sc, "cp %d", r.score);
        if ((f[4][0] == '<' && r.score >= atoi(f[4] + 1)) ||
            (f[4][0] == '>' && r.score <= atoi(f[4] + 1)) ||
            (strchr("-<>", f[4][0]) == NULL && strcmp(sc, f[4]) != 0))
            fail_msg("%s: score %s, want %s", f[1], sc, f[4]);
        if (strncmp(sc, "mate -", 6) == 0)
            fail_msg("%s: the search sees itself lost (%s)", f[1], sc);
        if (nf >= 6) { /* the static evaluation: =N, <N or >N */
            int ev = G->evaluate(pos), want = atoi(f[5] + 1);
            if (f[5][0] == '='   ? ev != want
                : f[5][0] == '<' ? ev >= want
                : f[5][0] == '>' ? ev <= want
                                 : 1)
                fail_msg("%s: evaluation %d, want %s", f[1], ev, f[5]);
        }
        n++;
    }
    fclose(fp);
    assert_true(n >= 12);
}

/* tests/data/morris_forced.txt: the nodes GameSearch.forced asks alpha-beta to
 * extend, after each move of a sequence and back after each unmake. */
static void test_forced(void **state)
{
    (void)state;
    assert_non_null(G->search->forced);
    FILE *fp = td_open("morris_forced.txt");
    char line[512], *f[TD_MAXF];
    int nf, n = 0;
    while ((nf = td_next_record(fp, line, sizeof line, f)) > 0) {
        assert_true(nf >= 6);
        GameOptions o;
        parse_options(f[1], &o);
        enum { MAXM = 32 };
        unsigned char pos[POS_MAX_BYTES], undo[MAXM][UNDO_MAX_BYTES];
        Move played[MAXM];
        int seen[MAXM + 1], k = 0;
        load(pos, &o, f[2]);
        char fen0[256], fen1[256];
        G->to_fen(pos, fen0, sizeof fen0);
        seen[0] = G->search->forced(pos) != 0;
        if (seen[0] != atoi(f[3]))
            fail_msg("%s: forced %d at the FEN, want %s", f[0], seen[0], f[3]);
        const char *want = f[5]; /* one 0/1 a move */
        int nwant = (int)strlen(want);
        char list[256];
        snprintf(list, sizeof list, "%s", f[4]);
        for (char *t = strtok(list, " "); t; t = strtok(NULL, " ")) {
            assert_true(k < MAXM);
            Move m = game_parse_move(G, pos, t);
            if (m == MOVE_NONE)
                fail_msg("%s: move %s is not legal", f[0], t);
            G->make(pos, m, undo[k]);
            played[k++] = m;
            seen[k] = G->search->forced(pos) != 0;
            if (k > nwant || seen[k] != want[k - 1] - '0')
                fail_msg("%s: forced %d after %s, want %c", f[0], seen[k], t,
                         k > nwant ? '?' : want[k - 1]);
        }
        if (nwant != k)
            fail_msg("%s: %d moves, %d values", f[0], k, nwant);
        while (k > 0) {
            k--;
            G->unmake(pos, played[k], undo[k]);
            if ((G->search->forced(pos) != 0) != seen[k])
                fail_msg("%s: forced %d after unmaking move %d, want %d", f[0],
                         G->search->forced(pos) != 0, k + 1, seen[k]);
        }
        G->to_fen(pos, fen1, sizeof fen1);
        assert_string_equal(fen0, fen1);
        n++;
    }
    fclose(fp);
    assert_true(n >= 5);
}

/* ---- endgame tables (tests/data/morris_egtb.txt) ----------------------- */

/* Points of the FEN's ranks, 7 down to 1 (first index, length). */
static const int rank_first[7] = {0, 3, 6, 9, 15, 18, 21};
static const int rank_len[7] = {3, 3, 3, 6, 3, 3, 3};

/* A FEN of the moving phase from cells[24] ('W', 'B', '.'). */
static void fen_of(const char *cells, int black, char *out, size_t len)
{
    size_t n = 0;
    for (int r = 6; r >= 0; r--) {
        int run = 0;
        for (int i = 0; i < rank_len[r]; i++) {
            char c = cells[rank_first[r] + i];
            if (c == '.') {
                run++;
                continue;
            }
            if (run)
                out[n++] = (char)('0' + run);
            run = 0;
            out[n++] = c;
        }
        if (run)
            out[n++] = (char)('0' + run);
        if (r)
            out[n++] = '/';
    }
    snprintf(out + n, len - n, " %c 0 0 0", black ? 'b' : 'w');
}

/* The value of a child for the side that moved into it. */
static int from_child(int cv)
{
    return cv > 0 ? -(cv - 1) : cv < 0 ? -(cv + 1) : 0;
}

/* Plain negamax to depth plies over the game interface: VALUE_WIN - n for
 * a win within the depth, its negation for a loss, 0 otherwise. */
static int plain(void *pos, int depth)
{
    int r = G->result(pos);
    if (r != RESULT_NONE)
        return r == RESULT_DRAW ? 0 : -VALUE_WIN; /* the mover has lost */
    if (depth == 0)
        return 0;
    Move mv[960];
    unsigned char undo[UNDO_MAX_BYTES];
    int n = G->gen_moves(pos, mv), best = -VALUE_WIN - 1;
    for (int i = 0; i < n; i++) {
        G->make(pos, mv[i], undo);
        int v = from_child(plain(pos, depth - 1));
        G->unmake(pos, mv[i], undo);
        if (v > best)
            best = v;
    }
    return best;
}

/* The table's value of pos checked against its children (the rules'
 * results and the table's values one ply on). */
static void check_bellman(void *pos, int value, const char *fen)
{
    Move mv[960];
    unsigned char undo[UNDO_MAX_BYTES];
    int n = G->gen_moves(pos, mv), best = -VALUE_WIN - 1;
    for (int i = 0; i < n; i++) {
        G->make(pos, mv[i], undo);
        int cv;
        if (G->result(pos) != RESULT_NONE)
            cv = -VALUE_WIN;
        else if (!morris_egtb_probe(pos, &cv))
            fail_msg("%s: a child outside the tables", fen);
        G->unmake(pos, mv[i], undo);
        int v = from_child(cv);
        if (v > best)
            best = v;
    }
    if (n == 0)
        best = -VALUE_WIN;
    if (best != value)
        fail_msg("%s: table %d, children say %d", fen, value, best);
}

static void check_set(char **f, int nf)
{
    assert_true(nf >= 4);
    GameOptions o;
    parse_options(f[0], &o);
    int maxp = atoi(f[1]), samples = atoi(f[2]), depth = atoi(f[3]);
    if (td_sanitized()) {
        if (morris_opts(&o)->flying || morris_opts(&o)->diagonals)
            return; /* builds take minutes there: one set, 3 pieces a side */
        maxp = 3;
        samples /= 10;
    }
    long npos = 0;
    double ms = 0;
    assert_int_equal(
        morris_egtb_build(morris_opts(&o)->diagonals, morris_opts(&o)->flying, maxp, &npos, &ms),
        0);
    assert_true(npos > 0);
    uint64_t rng = 0x5EED0000u +
                   (uint64_t)(morris_opts(&o)->diagonals * 2 + morris_opts(&o)->flying);
    int decided = 0, searched = 0;
    for (int s = 0; s < samples; s++) {
        char cells[25], fen[FEN_MAX];
        memset(cells, '.', 24);
        cells[24] = 0;
        /* Each side 3..maxp, but 5 only against 3 (the tables' shape). */
        int nw, nb;
        do {
            nw = 3 + (int)rng_below(&rng, (uint32_t)(maxp - 2));
            nb = 3 + (int)rng_below(&rng, (uint32_t)(maxp - 2));
        } while ((nw > 4 || nb > 4) && (nw > 3 && nb > 3));
        for (int k = 0; k < nw + nb;) {
            int q = (int)rng_below(&rng, 24);
            if (cells[q] == '.') {
                cells[q] = k < nw ? 'W' : 'B';
                k++;
            }
        }
        fen_of(cells, (int)rng_below(&rng, 2), fen, sizeof fen);
        unsigned char pos[POS_MAX_BYTES];
        load(pos, &o, fen);
        int v;
        if (!morris_egtb_probe(pos, &v))
            fail_msg("%s: not in the tables", fen);
        if (G->result(pos) != RESULT_NONE) {
            assert_int_equal(v, -VALUE_WIN); /* no legal move: lost now */
            continue;
        }
        check_bellman(pos, v, fen);
        int sv;
        Move best;
        assert_int_equal(G->solver->solve(pos, &sv, &best), 1);
        assert_int_equal(sv, v);
        decided += v != 0;
        /* The plain search sees exactly the values within its depth. */
        int pv = plain(pos, depth);
        int plies = v > 0 ? VALUE_WIN - v : v < 0 ? VALUE_WIN + v : 1 << 20;
        int want = plies <= depth ? v : 0;
        if (pv != want)
            fail_msg("%s: table %d, plain search to %d plies %d", fen, v, depth, pv);
        searched++;
    }
    assert_true(searched > 0);
    assert_true(decided > 0);
}

static void check_value(char **f, int nf)
{
    assert_true(nf >= 3);
    GameOptions o;
    parse_options(f[0], &o);
    unsigned char pos[POS_MAX_BYTES];
    load(pos, &o, f[1]);
    int v;
    Move best;
    if (!G->solver->solve(pos, &v, &best))
        fail_msg("%s: no value", f[1]);
    char want[64], got[64];
    snprintf(want, sizeof want, "%s", f[2]);
    if (v == 0)
        snprintf(got, sizeof got, "draw");
    else
        snprintf(got, sizeof got, "%s %d", v > 0 ? "win" : "loss",
                 v > 0 ? VALUE_WIN - v : VALUE_WIN + v);
    if (strcmp(want, got) != 0)
        fail_msg("%s: %s, want %s", f[1], got, want);
    if (nf >= 4 && strcmp(f[3], "-") != 0) {
        char text[MOVE_STR_MAX];
        G->move_to_str(pos, best, text, sizeof text);
        if (!strstr(f[3], text))
            fail_msg("%s: best %s, want one of %s", f[1], text, f[3]);
    }
}

static void test_tables(void **state)
{
    (void)state;
    FILE *fp = td_open("morris_egtb.txt");
    char line[512], *f[TD_MAXF];
    int nf, sets = 0, values = 0;
    while ((nf = td_next_record(fp, line, sizeof line, f)) > 0) {
        if (strncmp(f[0], "set", 3) == 0) {
            check_set(f, nf);
            sets++;
        } else if (strncmp(f[0], "value", 5) == 0) {
            if (!td_sanitized())
                check_value(f, nf);
            values++;
        }
    }
    fclose(fp);
    assert_true(sets >= 4);
    assert_true(values > 0);
}

/* The notices delivered while a test runs (notice.h). */
static void keep_notice(void *ctx, const char *text)
{
    snprintf((char *)ctx, 512, "%s", text);
}

/* Out of memory: no tables, no value, the evaluation as without them, and
 * the notice of tests/data/morris_egtb.txt's nomemory record. */
static void test_no_memory(void **state)
{
    (void)state;
    char want[512] = "", got[512] = "";
    FILE *fp = td_open("morris_egtb.txt");
    char line[512], *f[TD_MAXF];
    int nf;
    while ((nf = td_next_record(fp, line, sizeof line, f)) > 0)
        if (nf >= 2 && strcmp(f[0], "nomemory") == 0)
            snprintf(want, sizeof want, "%s", f[1]);
    fclose(fp);
    assert_true(want[0] != '\0');
    notice_set_sink(keep_notice, got);
    GameOptions o;
    game_options_default(&o);
    morris_opts(&o)->diagonals = 1;
    morris_opts(&o)->flying = 0;
    unsigned char pos[POS_MAX_BYTES];
    load(pos, &o, "W2/3/3/WW1B2/3/B2/1B1 w 0 0 0");
    int ev = G->evaluate(pos);
    size_t old = morris_egtb_set_limit(1000);
    assert_int_equal(morris_egtb_build(1, 0, 3, NULL, NULL), -1);
    int v;
    Move best;
    assert_int_equal(morris_egtb_probe(pos, &v), 0);
    assert_int_equal(G->solver->solve(pos, &v, &best), 0);
    assert_int_equal(G->evaluate(pos), ev);
    morris_egtb_set_limit(old);
    notice_clear_sink(got);
    assert_string_equal(got, want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_fen_round_trip),
        cmocka_unit_test(test_bad_fens),
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_bad_options_and_moves),
        cmocka_unit_test(test_print),
        cmocka_unit_test(test_eval_policy_key),
        cmocka_unit_test(test_blockades),
        cmocka_unit_test(test_forced),
        cmocka_unit_test(test_no_memory),
        cmocka_unit_test(test_tables),
    };
    return cmocka_run_group_tests_name("morris", tests, NULL, NULL);
}
