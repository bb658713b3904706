/*
 * morelli_endings.c -- writes tests/data/morelli_endings.txt: Morelli
 * positions 8 to 20 plies before the end of games played by the light
 * playout policy, where the side to move has a forced win by few of its
 * moves, with every winning move, as the plain solver of
 * tests/morelli_grid.c finds them.  Not part of `make test`; build and run
 * it from the top of the repository with
 *   make build/test/morelli && sh tests/gen/morelli_endings.sh
 * (arguments: positions a size, seed, one size or 0 for all)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "search/search.h"
#include "morelli/morelli_options.h"
#include "morelli_grid.h"

#define BUDGET 1000000L

static const Game *G = &game_morelli;

/* The engine's proven value of fen for the side to move: 1 win, 0 draw,
 * -1 loss, 2 unknown.  Only a filter: what is written comes from the plain
 * solver. */
static int engine_value(Search *se, const char *fen)
{
    unsigned char pos[POS_MAX_BYTES];
    char err[256];
    if (G->from_fen(pos, fen, NULL, err, sizeof err) != 0)
        return 2;
    if (G->result(pos) != RESULT_NONE) {
        int r = G->result(pos), me = G->side_to_move(pos);
        return r == RESULT_DRAW ? 0 : (r == RESULT_P1_WIN) == (me == SIDE_P1) ? 1 : -1;
    }
    SearchLimits lim;
    search_limits_init(&lim);
    lim.nodes = 400000;
    SearchResult res;
    search_go(se, G, pos, NULL, NULL, 0, &lim, NULL, NULL, NULL, &res);
    if (!res.proven)
        return 2;
    return res.score > 0 ? 1 : res.score < 0 ? -1 : 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* One game from a random setup of size n; the FENs of its positions in
 * fens[], the count. */
static int play(int n, uint64_t *rng, char (*fens)[FEN_MAX], int max)
{
    GameOptions opt;
    game_options_default(&opt);
    morelli_opts(&opt)->board_size = n;
    morelli_opts(&opt)->setup = SETUP_RANDOM;
    morelli_opts(&opt)->setup_seed = rng_next(rng);
    unsigned char pos[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    char err[128];
    if (G->init(pos, &opt, err, sizeof err) != 0)
        return 0;
    int k = 0;
    while (k < max) {
        G->to_fen(pos, fens[k++], FEN_MAX);
        if (G->result(pos) != RESULT_NONE)
            break;
        G->make(pos, G->playout->step(pos, rng), undo);
    }
    return k;
}

int main(int argc, char **argv)
{
    int want = argc > 1 ? atoi(argv[1]) : 20;
    uint64_t rng = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    int only = argc > 3 ? atoi(argv[3]) : 0; /* one board size, 0 = all */
    static char fens[400][FEN_MAX];
    static MgMove moves[MG_MAXMOVES];
    static char wins[MG_MAXMOVES][16];
    if (!only)
        printf("# Morelli endings (tests/gen/morelli_endings.c): positions 8 to 20 plies\n"
               "# before the end of a playout-policy game where the side to move wins,\n"
               "# by at most 3 of its moves.  The engine must find a winning move.\n"
               "# size | FEN | plies the game went on | moves | every winning move\n");
    char err[256];
    Search *se = search_new();
    search_setoption(se, "Threads", "1", err, sizeof err);
    search_setoption(se, "Hash", "32", err, sizeof err);
    const int sizes[3] = {13, 11, 9};
    for (int si = 0; si < 3; si++) {
        if (only && sizes[si] != only)
            continue;
        int found = 0;
        for (int tries = 0; found < want && tries < 20000; tries++) {
            int len = play(sizes[si], &rng, fens, 400);
            if (len < 30)
                continue;
            int back = 8 + (int)rng_below(&rng, 13); /* 8..20 plies before the end */
            const char *fen = fens[len - 1 - back];
            MgPos p;
            if (mg_from_fen(&p, fen) != 0)
                continue;
            int n = mg_moves(&p, moves, MG_MAXMOVES);
            if (n < 6)
                continue;
            /* the engine first, as a quick filter: a win by at most 3 moves */
            if (engine_value(se, fen) != 1)
                continue;
            {
                unsigned char pos[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
                char err[256], cf[FEN_MAX];
                static Move gm[2048];
                G->from_fen(pos, fen, NULL, err, sizeof err);
                int gn = G->gen_moves(pos, gm), ew = 0;
                for (int i = 0; i < gn && ew <= 3; i++) {
                    G->make(pos, gm[i], undo);
                    G->to_fen(pos, cf, sizeof cf);
                    G->unmake(pos, gm[i], undo);
                    int cv = engine_value(se, cf);
                    ew += cv == -1 || cv == 2;
                }
                if (ew > 3)
                    continue;
            }
            int v = mg_solve(&p, BUDGET, 1);
            if (v != 1)
                continue;
            int nw = 0, unknown = 0;
            for (int i = 0; i < n && !unknown; i++) {
                int c = mg_solve(&moves[i].after, BUDGET, 1);
                unknown = c == MG_UNKNOWN;
                if (c == -1)
                    snprintf(wins[nw++], sizeof wins[0], "%s", moves[i].text);
            }
            if (unknown || nw == 0 || nw > 3)
                continue;
            qsort(wins, (size_t)nw, sizeof wins[0], cmp_str);
            printf("%d | %s | %d | %d |", sizes[si], fen, back, n);
            for (int i = 0; i < nw; i++)
                printf(" %s", wins[i]);
            printf("\n");
            fflush(stdout);
            found++;
        }
    }
    return 0;
}
