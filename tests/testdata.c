/*
 * testdata.c -- the data-file readers and shared checks of the game tests;
 * see testdata.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "options.h"
#include "perft.h"
#include "testdata.h"

int td_sanitized(void)
{
    const char *s = getenv("MORELLI_SANITIZE");
    return s && *s && strcmp(s, "0") != 0;
}

FILE *td_open(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "tests/data/%s", name);
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    return f;
}

int td_skip_line(const char *line)
{
    return line[0] == '#' || line[strspn(line, " \t\r\n")] == '\0';
}

char *td_next_line(FILE *f, char *buf, int size, int *lineno)
{
    while (fgets(buf, size, f)) {
        if (lineno)
            (*lineno)++;
        if (td_skip_line(buf))
            continue;
        buf[strcspn(buf, "\r\n")] = '\0';
        return buf;
    }
    return NULL;
}

char *td_trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

int td_split(char *line, char *f[TD_MAXF])
{
    int n = 0;
    char *s = line;
    for (;;) {
        char *bar = strchr(s, '|');
        if (bar)
            *bar = '\0';
        if (n < TD_MAXF)
            f[n++] = td_trim(s);
        if (!bar)
            break;
        s = bar + 1;
    }
    return n;
}

int td_next_record(FILE *f, char *line, int size, char *fields[TD_MAXF])
{
    return td_next_line(f, line, size, NULL) ? td_split(line, fields) : 0;
}

int td_rules_file(const char *name, void (*pos_line)(char **f, int nf),
                  void (*seq_line)(char **f, int nf))
{
    FILE *fp = td_open(name);
    char line[1024], *f[TD_MAXF];
    int nf, done = 0;
    while ((nf = td_next_record(fp, line, sizeof line, f)) > 0) {
        if (!strncmp(f[0], "pos ", 4))
            pos_line(f, nf);
        else if (!strncmp(f[0], "seq ", 4))
            seq_line(f, nf);
        else
            fail_msg("bad data line '%s'", f[0]);
        done++;
    }
    fclose(fp);
    return done;
}

int td_result_code(const char *word)
{
    if (!strcmp(word, "none"))
        return RESULT_NONE;
    if (!strcmp(word, "white"))
        return RESULT_P1_WIN;
    if (!strcmp(word, "black"))
        return RESULT_P2_WIN;
    if (!strcmp(word, "draw"))
        return RESULT_DRAW;
    fail_msg("bad result word '%s' in the data", word);
    return -1;
}

void td_check_move_lists(const Game *g, const void *pos, const char *what, const char *legal,
                         const char *illegal)
{
    for (int want = 0; want < 2; want++) {
        char list[256];
        snprintf(list, sizeof list, "%s", want ? legal : illegal);
        for (char *t = strtok(list, " "); t; t = strtok(NULL, " ")) {
            Move m = game_parse_move(g, pos, t);
            if ((m != MOVE_NONE) != want)
                fail_msg("%s: move %s should %sbe legal", what, t, want ? "" : "not ");
            if (m != MOVE_NONE) {
                char text[MOVE_STR_MAX];
                game_move_str(g, pos, m, text, sizeof text);
                assert_string_equal(text, t);
            }
        }
    }
}

void td_check_perft_counts(const Game *g, void *pos, const char *what, char *counts,
                           int generic_bulk)
{
    unsigned char copy[POS_MAX_BYTES];
    memcpy(copy, pos, g->pos_size);
    char *save;
    int d = 1;
    for (char *t = strtok_r(counts, " ", &save); t; t = strtok_r(NULL, " ", &save), d++) {
        uint64_t want = strtoull(t, NULL, 10);
        if (td_sanitized() && want > 2000000)
            break;
        uint64_t got = perft(g, pos, d, 1);
        if (got != want)
            fail_msg("perft %s depth %d: %llu, want %llu", what, d, (unsigned long long)got,
                     (unsigned long long)want);
        if (want < 300000) {
            /* The game's own perft agrees with the generic one, with
             * and without bulk counting. */
            assert_true(perft(g, pos, d, 0) == want);
            assert_true(perft_generic(g, pos, d, 0) == want);
            if (generic_bulk)
                assert_true(perft_generic(g, pos, d, 1) == want);
        }
        assert_memory_equal(pos, copy, g->pos_size);
    }
}

void td_check_fen_rejected(const Game *g, const char *fen, const GameOptions *o, int fill)
{
    unsigned char pos[POS_MAX_BYTES], copy[POS_MAX_BYTES];
    char err[256] = "";
    memset(pos, fill, sizeof pos);
    memcpy(copy, pos, sizeof pos);
    if (g->from_fen(pos, fen, o, err, sizeof err) != -1)
        fail_msg("FEN '%s' accepted", fen);
    assert_true(strlen(err) > 0);
    assert_memory_equal(pos, copy, sizeof pos);
}

void td_play_checked(const Game *g, void *pos, Move m)
{
    unsigned char copy[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    char text[MOVE_STR_MAX];
    assert_true(m != MOVE_NONE);
    game_move_str(g, pos, m, text, sizeof text);
    assert_true(game_parse_move(g, pos, text) == m);
    memcpy(copy, pos, g->pos_size);
    Key after = g->search && g->search->key_after ? g->search->key_after(pos, m) : 0;
    g->make(pos, m, undo);
    assert_true(g->key(pos) == g->key_from_scratch(pos));
    if (g->search && g->search->key_after)
        assert_true(g->key(pos) == after);
    g->unmake(pos, m, undo);
    assert_memory_equal(pos, copy, g->pos_size);
    g->make(pos, m, undo);
}

/* ---- Morelli records ------------------------------------------------------- */

const char *const td_ruleset_names[2] = {"standard", "classic"};
const char *const td_setup_names[5] = {"adjacent", "facing", "random", "free", "pairs"};

/* Ruleset and setup by name into opt (through the options' one parser);
 * 0, or -2 if a name is unknown. */
static int set_names(GameOptions *opt, const char *ruleset, const char *setup)
{
    char err[256];
    if (game_option_set(opt, "Ruleset", ruleset, err, sizeof err) != 1 ||
        game_option_set(opt, "Setup", setup, err, sizeof err) != 1)
        return -2;
    return 0;
}

int td_morelli_row(const char *line, GameOptions *opt, int *a, unsigned long long *b)
{
    int size;
    char r[32], st[32];
    if (sscanf(line, "%d %31s %31s %d %llu", &size, r, st, a, b) != 5)
        return -1;
    game_options_default(opt);
    morelli_opts(opt)->board_size = size;
    return set_names(opt, r, st);
}

int td_morelli_opts(const char *s, GameOptions *opt)
{
    char r[32], st[32];
    game_options_default(opt);
    if (sscanf(s, "%31s %31s", r, st) != 2)
        return -1;
    return set_names(opt, r, st) < 0 ? -1 : 0;
}

void td_options(char *s, GameOptions *opt)
{
    char err[256], *save;
    game_options_default(opt);
    if (strcmp(s, "-") == 0)
        return;
    for (char *kv = strtok_r(s, " ", &save); kv; kv = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq)
            fail_msg("option '%s' without '='", kv);
        *eq = '\0';
        if (game_option_set(opt, kv, eq + 1, err, sizeof err) != 1)
            fail_msg("option %s: %s", kv, err);
    }
}

const char *td_morelli_fen_record(FILE *f, char *line, int size, GameOptions *opt)
{
    if (!td_next_line(f, line, size, NULL))
        return NULL;
    char *bar = strchr(line, '|');
    if (!bar)
        fail_msg("no '|' in the record '%s'", line);
    *bar = '\0';
    if (td_morelli_opts(line, opt) != 0)
        fail_msg("bad options '%s'", line);
    return td_trim(bar + 1);
}

const char *td_fen_board(const char *fen, int size, char *cells)
{
    const char *s = fen;
    for (int r = size - 1; r >= 0; r--) {
        int c = 0;
        while (*s && *s != '/' && *s != ' ') {
            if (*s >= '0' && *s <= '9') {
                char *e;
                long k = strtol(s, &e, 10);
                s = e;
                while (k-- > 0)
                    cells[r * size + c++] = '.';
            } else {
                cells[r * size + c++] = *s++;
            }
        }
        if (*s)
            s++;
    }
    return s;
}

size_t td_fen_rows(const char *cells, int size, char *out, size_t len)
{
    size_t k = 0;
    for (int r = size - 1; r >= 0; r--) {
        int run = 0;
        for (int c = 0; c < size; c++) {
            char x = cells[r * size + c];
            if (x == '.') {
                run++;
                continue;
            }
            if (run)
                k += (size_t)snprintf(out + k, len - k, "%d", run);
            run = 0;
            out[k++] = x;
        }
        if (run)
            k += (size_t)snprintf(out + k, len - k, "%d", run);
        if (r)
            out[k++] = '/';
    }
    out[k] = '\0';
    return k;
}

char *td_print(const Game *g, const void *pos, int ansi)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    assert_non_null(mem);
    g->print(pos, mem, ansi);
    fclose(mem);
    assert_non_null(buf);
    return buf;
}
