/*
 * morelli.c -- Richard Moxham's Morelli behind the game interface: the
 * move notation (reading and writing), perft, the board print and the
 * descriptor game_morelli.  The other parts: tables.c, setup.c (start
 * positions, FEN), gen.c (move generation), make.c (make/unmake), eval.c
 * (evaluation, playout policy).  Layouts in morelli.h; the rules as
 * implemented in docs/rules-morelli.md.
 */
#include "internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

/* ------------------------------------------------------------------------
 * Notation
 * --------------------------------------------------------------------- */

static int cell_str(const MoPos *p, int c, char *out)
{
    return sprintf(out, "%c%d", 'a' + c % p->n, c / p->n + 1);
}

static int mo_move_to_str(const void *pos, Move m, char *buf, size_t len)
{
    const MoPos *p = pos;
    const MoTables *t = mo_tables(p);
    char tmp[MOVE_STR_MAX];
    int k = 0;
    if (m & MO_PLACE) {
        k = cell_str(p, MO_TO(m), tmp);
    } else {
        int to = MO_TO(m);
        k = cell_str(p, MO_FROM(m), tmp);
        tmp[k++] = '-';
        k += cell_str(p, to, tmp + k);
        if (p->ruleset == RULESET_CLASSIC) {
            /* captured cells in index order = rank, then file */
            int cells[8], nc = 0;
            for (unsigned c = MO_CAPS(m); c; c &= c - 1)
                cells[nc++] = to + t->delta[__builtin_ctz(c)];
            for (int i = 1; i < nc; i++)
                for (int j = i; j > 0 && cells[j - 1] > cells[j]; j--) {
                    int x = cells[j];
                    cells[j] = cells[j - 1];
                    cells[j - 1] = x;
                }
            for (int i = 0; i < nc; i++) {
                tmp[k++] = 'x';
                k += cell_str(p, cells[i], tmp + k);
            }
            if (m & MO_ENTHRONE)
                tmp[k++] = '+';
        }
    }
    tmp[k] = '\0';
    snprintf(buf, len, "%s", tmp);
    return k;
}

/* A cell name at *s (case-insensitive); advances *s. -1 if none. */
static int parse_cell(const MoPos *p, const char **s)
{
    const char *q = *s;
    int f = tolower((unsigned char)*q) - 'a';
    if (f < 0 || f >= p->n)
        return -1;
    q++;
    if (!isdigit((unsigned char)*q) || *q == '0')
        return -1;
    int r = 0;
    while (isdigit((unsigned char)*q) && r <= p->n)
        r = r * 10 + (*q++ - '0');
    if (r < 1 || r > p->n)
        return -1;
    *s = q;
    return (r - 1) * p->n + f;
}

static Move mo_move_from_str(const void *pos, const char *str)
{
    const MoPos *p = pos;
    const MoTables *t = mo_tables(p);
    if (!str)
        return MOVE_NONE;
    const char *s = str;
    while (*s == ' ' || *s == '\t')
        s++;
    int a = parse_cell(p, &s);
    if (a < 0)
        return MOVE_NONE;
    Move want;
    int has_suffix = 0;
    if (*s == '-' || isalpha((unsigned char)*s)) {
        if (*s == '-')
            s++;
        int b = parse_cell(p, &s);
        if (b < 0)
            return MOVE_NONE;
        unsigned caps = 0;
        Move en = 0;
        while (*s == 'x' || *s == 'X') {
            s++;
            int c = parse_cell(p, &s);
            if (c < 0)
                return MOVE_NONE;
            int d;
            for (d = 0; d < MO_DIRS; d++)
                if (t->cap[b][d] == c)
                    break;
            if (d == MO_DIRS || (caps & (1u << d)))
                return MOVE_NONE;
            caps |= 1u << d;
            has_suffix = 1;
        }
        if (*s == '+') {
            en = MO_ENTHRONE;
            s++;
            has_suffix = 1;
        }
        want = MO_MAKE(a, b, caps) | en;
    } else {
        want = MO_PLACE | (Move)a;
    }
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        s++;
    if (*s)
        return MOVE_NONE;
    Move *moves = malloc(sizeof(Move) * MORELLI_MAX_MOVES);
    if (!moves)
        return MOVE_NONE;
    int n = morelli_gen(p, moves);
    Move found = MOVE_NONE;
    const int loose = p->ruleset == RULESET_STANDARD && !(want & MO_PLACE) && !has_suffix;
    for (int i = 0; i < n; i++) {
        Move m = moves[i];
        if (loose ? (m & 0xFFFFu) == (want & 0xFFFFu) : m == want) {
            found = m;
            break;
        }
    }
    free(moves);
    return found;
}

/* ------------------------------------------------------------------------
 * The interface
 * --------------------------------------------------------------------- */

static int mo_gen_moves(const void *pos, Move *moves)
{
    return morelli_gen(pos, moves);
}

static void mo_make_v(void *pos, Move m, void *undo)
{
    mo_make(pos, m, undo);
}

static void mo_unmake_v(void *pos, Move m, const void *undo)
{
    mo_unmake(pos, m, undo);
}

static int mo_side_to_move(const void *pos)
{
    return ((const MoPos *)pos)->stm;
}

static int mo_result(const void *pos)
{
    const MoPos *p = pos;
    if (mo_has_move(p))
        return RESULT_NONE;
    return p->throne == 1 ? RESULT_P1_WIN : p->throne == 2 ? RESULT_P2_WIN : RESULT_DRAW;
}

static Key mo_key(const void *pos)
{
    return ((const MoPos *)pos)->key;
}

static Key mo_key_after_v(const void *pos, Move m)
{
    return mo_key_after(pos, m);
}

static Key mo_key_from_scratch(const void *pos)
{
    return mo_key_scratch(pos);
}

static int mo_move_is_noisy(const void *pos, Move m)
{
    (void)pos;
    return (m & MO_PLACE) ? 0 : (MO_CAPS(m) != 0 || (m & MO_ENTHRONE) != 0);
}

static int mo_gen_noisy(const void *pos, Move *moves, const void *note)
{
    return morelli_gen_noisy(pos, moves, note);
}

static int mo_gen_quiet(const void *pos, Move *moves)
{
    return morelli_gen_quiet(pos, moves);
}

static int mo_move_legal(const void *pos, Move m)
{
    return morelli_move_legal(pos, m);
}

/* Every move brings a stone at least one band nearer the Throne (captures
 * only turn stones over, no stone leaves the board), so the band steps the
 * stones can still make bound the plies left: the sum of their bands now
 * (make keeps it, MoCounts.bsum) less the least sum they can end with.
 * Past the placements the board holds the ring's worth of stones, and
 * band b has 8b cells, so that least sum fills the bands from band 1
 * outwards (MoTables.least_bsum; a stone already on band k can always end
 * on any band <= k, and the stones nearer the Throne take the inner cells
 * first).  On a full board this is the game's longest play after
 * placement: 176, 112, 64 plies on 13x13, 11x11, 9x9.  The placement
 * phase adds stones: no bound. */
static int mo_plies_left(const void *pos)
{
    const MoPos *p = pos;
    if (mo_placing(p))
        return 1 << 20;
    return p->c.bsum[0] + p->c.bsum[1] - mo_tables(p)->least_bsum;
}

/* Alpha-beta's shallow pruning (GameSearch.prune) one and two plies above the
 * horizon, 100 a ply: a cut when the evaluation stays that far above beta,
 * only the noisy moves when it is that far below alpha.  Never where the
 * band steps left bound the game to 8 plies or fewer: a quiet move can win
 * there. */
static int mo_prune(const void *pos, int depth, int eval, int alpha, int beta)
{
    if (depth > 2 || mo_plies_left(pos) <= 8)
        return PRUNE_NONE;
    int margin = 100 * depth;
    if (eval - margin >= beta)
        return PRUNE_CUT;
    if (eval + margin <= alpha)
        return PRUNE_QUIET;
    return PRUNE_NONE;
}

/* Perft makes its moves with mo_make_perft (make.c): the search's make
 * without the landing counts and colour bytes, which nothing here reads
 * (the move generator and the bulk count read the stones, the line masks,
 * the orbit bytes and the frame counts, which it keeps). */
static uint64_t perft_rec(MoPos *p, int depth, int bulk)
{
    if (bulk && depth == 1 && p->ruleset == RULESET_STANDARD)
        return (uint64_t)morelli_count(p);
    Move moves[MORELLI_MAX_MOVES];
    int n = morelli_gen(p, moves);
    if (bulk && depth == 1)
        return (uint64_t)n;
    uint64_t total = 0;
    MoUndo u;
    for (int i = 0; i < n; i++) {
        mo_make_perft(p, moves[i], &u);
        total += perft_rec(p, depth - 1, bulk);
        mo_unmake_perft(p, &u);
    }
    return total;
}

/* Making every leaf: the last ply's moves are made and unmade one by one
 * (mo_perft_leaves). */
static uint64_t perft_full(MoPos *p, int depth)
{
    Move moves[MORELLI_MAX_MOVES];
    int n = morelli_gen(p, moves);
    if (depth == 1)
        return mo_perft_leaves(p, moves, n);
    uint64_t total = 0;
    MoUndo u;
    for (int i = 0; i < n; i++) {
        mo_make_perft(p, moves[i], &u);
        total += perft_full(p, depth - 1);
        mo_unmake_perft(p, &u);
    }
    return total;
}

static uint64_t mo_perft(void *pos, int depth, int bulk)
{
    if (depth <= 0)
        return 1;
    return bulk ? perft_rec(pos, depth, 1) : perft_full(pos, depth);
}

/* Band colours, outermost (Red) first, as ANSI 256-colour backgrounds. */
static const int band_colour[7] = {129, 54, 27, 34, 226, 208, 196};
static const char band_letter[7] = {'v', 'i', 'u', 'g', 'y', 'o', 'r'};

static void mo_print(const void *pos, FILE *out, int ansi)
{
    const MoPos *p = pos;
    const MoTables *t = mo_tables(p);
    int n = p->n;
    for (int r = n - 1; r >= 0; r--) {
        fprintf(out, "%3d ", r + 1);
        for (int f = 0; f < n; f++) {
            int c = r * n + f, b = t->band[c];
            char ch = band_letter[b];
            int stone = 0;
            if (bits_test(&p->stones[0], c))
                ch = 'b', stone = 1;
            else if (bits_test(&p->stones[1], c))
                ch = 'w', stone = 2;
            else if (c == t->centre && p->throne)
                ch = p->throne == 1 ? 'B' : 'W', stone = p->throne;
            if (ansi) {
                const char *fg = stone == 1 ? "\033[1;30m" : stone == 2 ? "\033[1;97m" : "";
                fprintf(out, "\033[48;5;%dm%s %c \033[0m", band_colour[b], fg, stone ? ch : ' ');
            } else {
                fprintf(out, " %c", ch);
            }
        }
        fputc('\n', out);
    }
    fprintf(out, "    ");
    for (int f = 0; f < n; f++)
        fprintf(out, ansi ? " %c " : " %c", 'a' + f);
    fputc('\n', out);
    if (!ansi)
        fprintf(out, "bands: r o y g u i v (red .. violet Throne); b/w stones, B/W king\n");
    fprintf(out, "%s to move%s; Throne: %s\n", p->stm == SIDE_P1 ? "Black" : "White",
            mo_placing(p) ? (p->pairs ? " (placing pairs)" : " (placing)") : "",
            p->throne == 1   ? "Black king"
            : p->throne == 2 ? "White king"
                             : "empty");
}


/* With no legal move the Throne decides: who holds it, in words. */
static const char *mo_end_note(const void *pos, int result)
{
    (void)pos;
    return result == RESULT_DRAW     ? "; the Throne is empty"
           : result == RESULT_P1_WIN ? "; the Black king holds the Throne"
                                     : "; the White king holds the Throne";
}

/* A random setup from seed, unless the setup is a placement one (free,
 * pairs: those start empty). */
static int mo_random_setup(GameOptions *settings, uint64_t seed)
{
    MorelliOptions *o = morelli_opts(settings);
    if (o->setup == SETUP_FREE || o->setup == SETUP_PAIRS)
        return 0;
    o->setup = SETUP_RANDOM;
    o->setup_seed = (int64_t)seed;
    return 1;
}

/* Morelli's options; the combos' values follow RULESET_* and SETUP_*. */
static const char *const ruleset_names[] = {"standard", "classic", NULL};
static const char *const setup_names[] = {"adjacent", "facing", "random", "free", "pairs", NULL};
static const int64_t board_sizes[] = {9, 11, 13, OPTION_ONLY_END};
static const Option mo_options[] = {
    {"Ruleset", OPTION_COMBO, RULESET_STANDARD, 0, 0, ruleset_names, NULL,
     offsetof(MorelliOptions, ruleset)},
    {"Setup", OPTION_COMBO, SETUP_ADJACENT, 0, 0, setup_names, NULL,
     offsetof(MorelliOptions, setup)},
    {"SetupSeed", OPTION_SPIN, 0, 0, 2147483647, NULL, NULL, offsetof(MorelliOptions, setup_seed)},
    {"BoardSize", OPTION_SPIN, 13, 9, 13, NULL, board_sizes, offsetof(MorelliOptions, board_size)},
};

static const GameSearch mo_search = {
    .profile = SEARCH_PROFILE_PLAIN,
    .gen_noisy = mo_gen_noisy,
    .evaluate_noted = morelli_evaluate_noted,
    .note_size = sizeof(MoNoisyNote),
    .gen_quiet = mo_gen_quiet,
    .move_legal = mo_move_legal,
    .prune = mo_prune,
    .key_after = mo_key_after_v,
    .plies_left = mo_plies_left,
};

static const GamePlayout mo_playout = {
    .move = morelli_playout_move,
    .step = morelli_playout_step,
    .run = morelli_playout,
};

static const GamePictures mo_pictures = {
    .picture = morelli_picture,
    .end_note = mo_end_note,
};

static const GameTuning mo_tuning = {
    .weights = morelli_weight_table,
    .print_weights = morelli_print_weights,
};

static const GameSetup mo_setup = {
    .random_setup = mo_random_setup,
    .opening_plies = 4,
};

const Game game_morelli = {
    .name = "morelli",
    .pos_size = sizeof(MoPos),
    .undo_size = sizeof(MoUndo),
    .max_moves = MORELLI_MAX_MOVES,
    .side_names = {"Black", "White"},
    .options = mo_options,
    .option_count = (int)(sizeof mo_options / sizeof mo_options[0]),
    .opts_size = sizeof(MorelliOptions),
    .init = mo_init,
    .from_fen = mo_from_fen,
    .to_fen = mo_to_fen,
    .gen_moves = mo_gen_moves,
    .make = mo_make_v,
    .unmake = mo_unmake_v,
    .side_to_move = mo_side_to_move,
    .result = mo_result,
    .repetition_count = 0,
    .reversible_plies = NULL,
    .key = mo_key,
    .key_from_scratch = mo_key_from_scratch,
    .evaluate = morelli_evaluate,
    .move_is_noisy = mo_move_is_noisy,
    .move_to_str = mo_move_to_str,
    .move_from_str = mo_move_from_str,
    .print = mo_print,
    .perft = mo_perft,
    .search = &mo_search,
    .playout = &mo_playout,
    .solver = NULL,
    .pictures = &mo_pictures,
    .tuning = &mo_tuning,
    .setup = &mo_setup,
};
