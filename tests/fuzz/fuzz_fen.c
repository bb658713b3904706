/*
 * libFuzzer harness for the FEN parsers of every game in the registry.
 * The first input byte picks the game and the options (board size, ruleset,
 * setup, pieces, diagonals, flying); the rest, cut at the first NUL, is the
 * FEN.  When from_fen() accepts it, the position must survive: to_fen() and
 * from_fen() again give the same text and key, the incremental key equals the
 * one from scratch, and every legal move can be written, read back, made and
 * unmade to the same bytes.  A rejected FEN must leave the position untouched.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "morelli/morelli_options.h"
#include "morris/morris.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what, const Game *g, const char *fen)
{
    if (!ok) {
        fprintf(stderr, "fuzz_fen: %s: %s on '%s'\n", g->name, what, fen);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4 * FEN_MAX)
        return 0;
    uint8_t sel = data[0];
    const Game *g = game_list[sel % game_count];
    GameOptions o;
    game_options_default(&o);
    static const int sizes[] = {13, 11, 9, 9};
    morelli_opts(&o)->board_size = sizes[(sel >> 2) & 3];
    morelli_opts(&o)->ruleset = (sel >> 4) & 1 ? RULESET_CLASSIC : RULESET_STANDARD;
    morelli_opts(&o)->setup = (sel >> 5) & 1 ? SETUP_FREE : SETUP_ADJACENT;
    morris_opts(&o)->pieces = (sel >> 6) & 1 ? 12 : 9;
    morris_opts(&o)->diagonals = (sel >> 6) & 1;
    morris_opts(&o)->flying = !((sel >> 7) & 1);

    char fen[4 * FEN_MAX + 1];
    size_t n = size - 1;
    memcpy(fen, data + 1, n);
    fen[n] = '\0';

    unsigned char pos[POS_MAX_BYTES], back[POS_MAX_BYTES], copy[POS_MAX_BYTES];
    unsigned char undo[UNDO_MAX_BYTES];
    char err[256], out[FEN_MAX], out2[FEN_MAX], text[MOVE_STR_MAX];
    memset(pos, 0xA5, sizeof pos);
    memcpy(copy, pos, sizeof pos);
    if (g->from_fen(pos, fen, &o, err, sizeof err) != 0) {
        check(memcmp(pos, copy, sizeof pos) == 0, "rejected FEN changed the position", g, fen);
        return 0;
    }
    check(g->key(pos) == g->key_from_scratch(pos), "key differs from scratch", g, fen);
    g->to_fen(pos, out, sizeof out);
    check(g->from_fen(back, out, &o, err, sizeof err) == 0, "own FEN rejected", g, fen);
    g->to_fen(back, out2, sizeof out2);
    check(strcmp(out, out2) == 0, "FEN round trip differs", g, fen);
    check(g->key(back) == g->key(pos), "key differs after round trip", g, fen);
    (void)g->result(pos);
    (void)g->evaluate(pos);
    Move *moves = malloc((size_t)g->max_moves * sizeof *moves);
    if (!moves)
        return 0;
    int nm = g->gen_moves(pos, moves);
    check(nm >= 0 && nm <= g->max_moves, "move count out of range", g, fen);
    for (int i = 0; i < nm; i++) {
        check(moves[i] != MOVE_NONE, "MOVE_NONE generated", g, fen);
        game_move_str(g, pos, moves[i], text, sizeof text);
        check(game_parse_move(g, pos, text) == moves[i], "move text round trip", g, fen);
        (void)g->move_is_noisy(pos, moves[i]);
        memcpy(copy, pos, g->pos_size);
        g->make(pos, moves[i], undo);
        check(g->key(pos) == g->key_from_scratch(pos), "key after make", g, fen);
        (void)g->result(pos);
        g->unmake(pos, moves[i], undo);
        check(memcmp(pos, copy, g->pos_size) == 0, "unmake differs", g, fen);
    }
    free(moves);
    return 0;
}
