/*
 * search_toys.c -- the toy games of the searcher tests and the helpers
 * those tests share; see search_toys.h.
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
#include "search/search.h"
#include "search_toys.h"
#include "ugi_info.h"

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
    (void)o;
    (void)err;
    (void)n;
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
static int nim_gen(const void *p, Move *m)
{
    return pile_gen(((const NimPos *)p)->pile, m);
}
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
static int nim_stm(const void *p)
{
    return ((const NimPos *)p)->stm;
}
static int nim_result(const void *p)
{
    const NimPos *q = p;
    if (q->pile > 0)
        return RESULT_NONE;
    return q->stm == SIDE_P1 ? RESULT_P2_WIN : RESULT_P1_WIN;
}
static Key nim_key(const void *p)
{
    return ((const NimPos *)p)->key;
}
static int nim_eval(const void *p)
{
    (void)p;
    return 0;
}
/* No toy game has noisy moves. */
static int toy_noisy(const void *p, Move m)
{
    (void)p;
    (void)m;
    return 0;
}
static int nim_mstr(const void *p, Move m, char *b, size_t n)
{
    (void)p;
    return snprintf(b, n, "t%u", (unsigned)m);
}
static void nim_print(const void *p, FILE *o, int a)
{
    (void)a;
    fprintf(o, "%d\n", ((const NimPos *)p)->pile);
}

const Game toy_nim = {
    .name = "nim",
    .pos_size = sizeof(NimPos),
    .undo_size = 1,
    .max_moves = 3,
    .init = nim_init,
    .from_fen = nim_from_fen,
    .to_fen = nim_to_fen,
    .gen_moves = nim_gen,
    .make = nim_make,
    .unmake = nim_unmake,
    .side_to_move = nim_stm,
    .result = nim_result,
    .key = nim_key,
    .key_from_scratch = nim_key,
    .evaluate = nim_eval,
    .move_is_noisy = toy_noisy,
    .move_to_str = nim_mstr,
    .print = nim_print,
};

/* --- Nim with extra turns (NimxPos in search_toys.h) ------------------ */


static Key nimx_key_of(const NimxPos *q)
{
    uint64_t s = 5000 + (uint64_t)q->pile * 4 + (uint64_t)q->stm * 2 +
                 (uint64_t)(q->pile == 0 ? q->last : 0);
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
static int nimx_gen(const void *p, Move *m)
{
    return pile_gen(((const NimxPos *)p)->pile, m);
}
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
static int nimx_stm(const void *p)
{
    return ((const NimxPos *)p)->stm;
}
static int nimx_result(const void *p)
{
    const NimxPos *q = p;
    if (q->pile > 0)
        return RESULT_NONE;
    return q->last == SIDE_P1 ? RESULT_P1_WIN : RESULT_P2_WIN;
}
static Key nimx_key(const void *p)
{
    return ((const NimxPos *)p)->key;
}

const Game toy_nimx = {
    .name = "nimx",
    .pos_size = sizeof(NimxPos),
    .undo_size = sizeof(NimxPos),
    .max_moves = 3,
    .init = nimx_init,
    .from_fen = nimx_from_fen,
    .to_fen = nimx_to_fen,
    .gen_moves = nimx_gen,
    .make = nimx_make,
    .unmake = nimx_unmake,
    .side_to_move = nimx_stm,
    .result = nimx_result,
    .key = nimx_key,
    .key_from_scratch = nimx_key,
    .evaluate = nim_eval,
    .move_is_noisy = toy_noisy,
    .move_to_str = nim_mstr,
    .print = nim_print,
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
    (void)o;
    (void)err;
    (void)n;
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
static int ttt_stm(const void *p)
{
    return ((const TttPos *)p)->stm;
}
static Key ttt_key(const void *p)
{
    return ((const TttPos *)p)->key;
}
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

const Game toy_ttt = {
    .name = "ttt",
    .pos_size = sizeof(TttPos),
    .undo_size = 1,
    .max_moves = 9,
    .init = ttt_init,
    .from_fen = ttt_from_fen,
    .to_fen = ttt_to_fen,
    .gen_moves = ttt_gen,
    .make = ttt_make,
    .unmake = ttt_unmake,
    .side_to_move = ttt_stm,
    .result = ttt_result,
    .key = ttt_key,
    .key_from_scratch = ttt_scratch,
    .evaluate = ttt_eval,
    .move_is_noisy = toy_noisy,
    .move_to_str = ttt_mstr,
    .print = ttt_print,
};

/* --- helpers ---------------------------------------------------------- */

const Game *toy_by_name(const char *name)
{
    if (strcmp(name, "nim") == 0)
        return &toy_nim;
    if (strcmp(name, "ttt") == 0)
        return &toy_ttt;
    return game_by_name(name);
}

void ts_collect(void *ctx, const SearchInfo *info)
{
    TsLines *l = ctx;
    if (l->n < 64)
        ugi_info_text(l->g, l->pos, info, l->buf[l->n++], sizeof l->buf[0]);
}

Search *ts_new_search(const char *algo, const char *hash)
{
    Search *s = search_new();
    char err[128];
    assert_non_null(s);
    assert_int_equal(search_setoption(s, "Hash", hash, err, sizeof err), 0);
    assert_int_equal(search_setoption(s, "Search", algo, err, sizeof err), 0);
    return s;
}
