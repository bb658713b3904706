/*
 * search_tune.c -- sweep one search option against a fixed baseline.
 *
 * Plays, in one process and one thread, the searcher configured by the base
 * options with OPTION=value for each value given, against the searcher with
 * the base options alone, on openings of the chosen game (Morelli: random
 * setups, one per seed; Morris/Fano: a few random opening plies), each
 * opening twice with colours swapped, at a fixed node (or playout) budget or
 * time per move (--first N: the first opening's seed, default 1).  Prints
 * one line per value: wins, draws, losses and the
 * score of the tested setting.
 *
 * Build (not part of `make`): make tools
 * Example: MCTS exploration constant, 20 openings, 2000 playouts a move:
 *   build/search_tune --game morelli --size 9 --base Search=mcts \
 *      --option MCTSExplore --values 50,100,150 --openings 20 --nodes 2000
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "options.h"
#include "past.h"
#include "search/search.h"

#define MAX_GAME_PLIES 1000

static void die(const char *msg)
{
    fprintf(stderr, "search_tune: %s\n", msg);
    exit(2);
}

/* "Name=Value,Name=Value" onto s. */
static void apply(Search *s, const char *spec)
{
    char buf[512], err[256];
    snprintf(buf, sizeof buf, "%s", spec ? spec : "");
    for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
        char *eq = strchr(t, '=');
        if (!eq)
            die("options are Name=Value");
        *eq++ = 0;
        if (search_setoption(s, t, eq, err, sizeof err) != 0)
            die(err);
    }
}

/* One game; returns 2/1/0 for a win/draw/loss of engine a, which plays
 * the first player when a_first. */
static int play(const Game *g, const GameOptions *o, Search *a, Search *b, int a_first,
                uint64_t opening, int random_plies, int64_t ms, uint64_t nodes)
{
    unsigned char pos[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    char err[256];
    Key hist[MAX_GAME_PLIES];
    int nh = 0;
    Move *moves = malloc((size_t)g->max_moves * sizeof *moves);
    if (!moves || g->init(pos, o, err, sizeof err) != 0)
        die("cannot start a game");
    uint64_t rng = opening * 0x9E3779B97F4A7C15ull + 1;
    for (int i = 0; i < random_plies && g->result(pos) == RESULT_NONE; i++) {
        int n = g->gen_moves(pos, moves);
        hist[nh++] = g->key(pos);
        g->make(pos, moves[rng_below(&rng, (uint32_t)n)], undo);
    }
    search_clear(a);
    search_clear(b);
    while (nh < MAX_GAME_PLIES && past_result(g, pos, hist, nh) == RESULT_NONE) {
        int first = g->side_to_move(pos) == SIDE_P1;
        Search *s = first == a_first ? a : b;
        SearchLimits lim;
        search_limits_init(&lim);
        lim.movetime = ms;
        lim.nodes = nodes;
        Move m = search_go(s, g, pos, o, hist, nh, &lim, NULL, NULL, NULL, NULL);
        if (m == MOVE_NONE)
            die("no move returned in a running game");
        hist[nh++] = g->key(pos);
        g->make(pos, m, undo);
    }
    free(moves);
    int r = past_result(g, pos, hist, nh);
    if (r == RESULT_DRAW || r == RESULT_NONE)
        return 1;
    return (r == RESULT_P1_WIN) == (a_first != 0) ? 2 : 0;
}

int main(int argc, char **argv)
{
    const char *game = game_list[0]->name, *base = "", *option = NULL, *values = NULL;
    int size = 13, openings = 10, first = 1;
    int64_t ms = 0;
    uint64_t nodes = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *k = argv[i], *v = argv[i + 1];
        if (!strcmp(k, "--game"))
            game = v;
        else if (!strcmp(k, "--size"))
            size = atoi(v);
        else if (!strcmp(k, "--base"))
            base = v;
        else if (!strcmp(k, "--option"))
            option = v;
        else if (!strcmp(k, "--values"))
            values = v;
        else if (!strcmp(k, "--openings"))
            openings = atoi(v);
        else if (!strcmp(k, "--first"))
            first = atoi(v);
        else if (!strcmp(k, "--movetime"))
            ms = atoll(v);
        else if (!strcmp(k, "--nodes"))
            nodes = (uint64_t)atoll(v);
        else
            die("unknown argument (see the comment at the top of bench/search_tune_main.c)");
    }
    const Game *g = game_by_name(game);
    if (!g || !option || !values || openings < 1 || (ms <= 0 && nodes == 0))
        die("need --game, --option, --values, --openings >= 1, and --movetime or --nodes");
    GameOptions o;
    game_options_default(&o);
    game_option_put(&o, "BoardSize", size);
    /* Random setups where the game has them, else random plies. */
    int setups = game_random_setup(g, &o, 0);
    int random_plies = setups ? 0 : 4;

    char vbuf[512];
    snprintf(vbuf, sizeof vbuf, "%s", values);
    char *save = NULL;
    for (char *v = strtok_r(vbuf, ",", &save); v; v = strtok_r(NULL, ",", &save)) {
        Search *test = search_new(), *ref = search_new();
        if (!test || !ref)
            die("out of memory");
        apply(test, base);
        apply(ref, base);
        char one[256];
        snprintf(one, sizeof one, "%s=%s", option, v);
        apply(test, one);
        int w = 0, d = 0, l = 0;
        for (int k = 0; k < openings; k++) {
            uint64_t opening = (uint64_t)(first + k);
            if (setups)
                game_random_setup(g, &o, opening);
            for (int sw = 0; sw < 2; sw++) {
                int r = play(g, &o, test, ref, !sw, opening, random_plies, ms, nodes);
                w += r == 2;
                d += r == 1;
                l += r == 0;
            }
        }
        printf("%s=%s: +%d =%d -%d  score %.1f%%\n", option, v, w, d, l,
               100.0 * (w + 0.5 * d) / (w + d + l));
        fflush(stdout);
        search_free(test);
        search_free(ref);
    }
    return 0;
}
