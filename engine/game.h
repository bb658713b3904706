/*
 * game.h -- the one interface every game implements.
 *
 * Searchers, the protocol front end, perft and bench know games only through
 * `struct game`.  Each game lives in its own folder under engine/, keeps
 * everything `static` and exports exactly one `const Game game_<name>`.
 * engine/games.c is the one list of games.
 *
 * The descriptor holds the rules core that every game implements, then
 * optional capability blocks (search hints, playouts, an exact solver,
 * pictures, tuning weights, match setup), each a pointer to a const struct
 * that is NULL when the game lacks it.  What the search does differently
 * for a game it reads from the game's declared SearchProfile, never from
 * which hooks are present.  docs/design.md has the overview.
 *
 * Positions are opaque byte blobs of `pos_size` bytes, owned by the caller
 * (so a search can keep a stack of them, or copy them).  A position is
 * self-contained: it may be copied with memcpy and holds everything the
 * rules need (side to move, pieces in hand, counters, the game's own
 * options that shape it, such as board size, ruleset or MoveRule) and its
 * Zobrist key.
 *
 * Moves are 32-bit values whose layout is private to each game.  The value
 * MOVE_NONE (0) is never a legal move; it prints as "0000".
 *
 * Results are absolute: p1 is the side that moves first (Black in Morelli,
 * White in the Morris games and in Fano).  Scores are relative to the side
 * to move, in centipawn-like units.
 */
#ifndef MORELLI_GAME_H
#define MORELLI_GAME_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef uint32_t Move;
typedef uint64_t Key;

#define MOVE_NONE ((Move)0)
/* Upper bound on a move's text, including the terminating NUL. */
#define MOVE_STR_MAX 64
/* Upper bound on a FEN's text, including the terminating NUL. */
#define FEN_MAX 512
/* Upper bound on pos_size and undo_size of any game, so callers can use
 * fixed buffers. Games check theirs with _Static_assert. */
#define POS_MAX_BYTES 512
#define UNDO_MAX_BYTES 512
/* Upper bound on GameSearch.note_size. */
#define EVAL_NOTE_MAX 128

enum {
    RESULT_NONE = 0,   /* game goes on */
    RESULT_P1_WIN = 1, /* first player (the one to move at the start) wins */
    RESULT_P2_WIN = 2,
    RESULT_DRAW = 3,
};

enum { SIDE_P1 = 0, SIDE_P2 = 1 };

/*
 * The option settings of every game: one blob per game of game_list (in its
 * order), each the game's own options struct of opts_size bytes (Morelli's
 * MorelliOptions, Morris's MorrisOptions; Fano has none), as positions are
 * opaque blobs of pos_size.  A session keeps one GameOptions, so settings
 * made for a game other than the one played are kept for that game.  Each
 * game declares its options (Game.options, see options.h), each naming the
 * offset of its value in the game's struct; a game reads its own blob
 * (game_opts) and nothing else, and generic code reads no option of a game
 * (it asks the game: Game.move_rule).  Every value is an int64_t and blobs
 * start zeroed, so two sets compare with game_options_equal() (or memcmp).
 */
#define GAME_OPTS_MAX_BYTES 64
#define GAME_LIST_MAX 4
typedef struct GameOptions {
    int64_t blob[GAME_LIST_MAX][GAME_OPTS_MAX_BYTES / sizeof(int64_t)];
} GameOptions;

/* Every game's declared defaults (engine/options.c). */
void game_options_default(GameOptions *o);

typedef struct Option Option; /* options.h */

typedef struct game Game;

/*
 * How alpha-beta shapes its tree for a game (GameSearch.profile): what the
 * game declares, so that the search asks for a behaviour by name and never
 * infers a game from the hooks it has.  A game without a search block gets
 * SEARCH_PROFILE_PLAIN.  See docs/search.md for the techniques.
 */
enum {
    LMR_TABLE, /* reductions from a table in log(depth) * log(move number) */
    LMR_STEPS, /* 1 ply, 2 from move lmr_later on, 3 from the 25th at depth 8+ */
};
typedef struct SearchProfile {
    /* Internal iterative reduction: a node the table has no move for is
     * searched a ply shallower from this depth on (its ordering is a
     * guess); 0 = off. */
    int iir_depth;
    /* Enhanced transposition cutoff at nodes of this depth or more that
     * an irreversible move led to (reversible_plies 0): the children's
     * table entries are looked up before any search; 0 = off. */
    int etc_depth;
    /* Late move reductions from move number lmr_late on (0 = the first),
     * for quiet moves at depth 3 or more; lmr_style says how much
     * (LMR_*), lmr_later is LMR_STEPS's second step. */
    int lmr_late;
    int lmr_later;
    int lmr_style;
    /* Non-zero: late move pruning, the quiet moves far down the order
     * skipped in the last 3 plies off the principal variation. */
    int lmp;
} SearchProfile;

#define SEARCH_PROFILE_PLAIN                                                                   \
    {                                                                                          \
        .iir_depth = 0, .etc_depth = 0, .lmr_late = 3, .lmr_later = 0, .lmr_style = LMR_TABLE, \
        .lmp = 1                                                                               \
    }

/*
 * Search hints (Game.search, optional): what lets alpha-beta do better than
 * generate, make and evaluate.  Each member may be NULL on its own.
 */
typedef struct GameSearch {
    SearchProfile profile;
    /* Exactly the moves of gen_moves for which move_is_noisy is true,
     * without enumerating the others; returns the count (room for
     * max_moves).  With gen_quiet and move_legal, a search generates by
     * stages; without: it filters gen_moves with move_is_noisy.  note is
     * NULL, or what evaluate_noted left for pos (below): a game may start
     * from it instead of finding again what the evaluation found. */
    int (*gen_noisy)(const void *pos, Move *moves, const void *note);
    /* Optional, with gen_noisy: the evaluation of pos (evaluate's value),
     * leaving in note (note_size bytes, at most EVAL_NOTE_MAX, 8-byte
     * aligned) what gen_noisy of the same position can reuse.  A search
     * evaluates most nodes just before it asks for their noisy moves (the
     * quiescence search's stand-pat, the pruning of the last plies), so it
     * keeps the note of its last evaluation and hands it back when it asks
     * gen_noisy for that same position.  Morelli notes the mover's capture
     * cells, or that it has no noisy move.  NULL: no note. */
    int (*evaluate_noted)(const void *pos, void *note);
    size_t note_size;
    /* The other moves of gen_moves (the quiet ones). */
    int (*gen_quiet)(const void *pos, Move *moves);
    /* Is m, any value, a legal move of pos?  Lets a search try a stored
     * move before it generates anything. */
    int (*move_legal)(const void *pos, Move m);
    /* Static ordering hints for the n legal moves mv of pos into hint[],
     * each 0 to 255, higher first (threats made or parried); alpha-beta's
     * picker orders the noisy and the quiet moves by them, then by
     * history.  NULL: history alone. */
    void (*move_order)(const void *pos, const Move *mv, int n, int *hint);
    /* Pruning in the last plies: alpha-beta asks it at the nodes of the
     * last few plies (depth plies left, eval the evaluation of pos, the
     * window alpha, beta) off the principal variation, and gets PRUNE_CUT
     * (return eval: it stays at or above beta even after the opponent's
     * next turn), PRUNE_QUIET (eval is so far below alpha that only the
     * noisy moves and the first are searched) or PRUNE_NONE.  The game
     * says where its evaluation does not see a threat. */
    int (*prune)(const void *pos, int depth, int eval, int alpha, int beta);
    /* Non-zero when the side to move's reply is forced (it must parry a
     * single threat and has nothing stronger, like a check in chess), or
     * when the node is one whose static evaluation is known to be
     * unreliable (Morris: the first position of the moving phase).
     * Alpha-beta extends such nodes by one ply (docs/search.md); Morris
     * sets it during the placement and at its end (docs/rules-morris.md). */
    int (*forced)(const void *pos);
    /* The key the position will have after the legal move m, without
     * making it, so that a search can fetch the child's table entry while
     * it makes the move.  NULL: the caller makes the move and asks key. */
    Key (*key_after)(const void *pos, Move m);
    /* An upper bound on the plies the game can still last from pos; the
     * alpha-beta search solves the position exactly when it is small (see
     * docs/search.md).  NULL: unknown. */
    int (*plies_left)(const void *pos);
} GameSearch;

/*
 * Light playouts (Game.playout, optional), for MCTS: three ways of playing a
 * random game out by the game's light policy, the fastest one the game has
 * being used.  Each member may be NULL on its own; without the block, a
 * playout picks uniformly among gen_moves.
 */
typedef struct GamePlayout {
    /* A move for a playout, chosen from the n legal moves; rng is the
     * caller's state. */
    Move (*move)(const void *pos, const Move *moves, int n, uint64_t *rng);
    /* One legal move chosen without a move list; MOVE_NONE only when
     * there is no legal move. */
    Move (*step)(const void *pos, uint64_t *rng);
    /* Plays pos out, at most cap plies; returns the result, RESULT_NONE
     * when the cap came first.  The last position is left in pos: whole
     * when RESULT_NONE (to evaluate it), else its pieces and side to move
     * only (to_fen reads it; its key and what make keeps may be stale).
     * Only for games without repetitions and move rules. */
    int (*run)(void *pos, uint64_t *rng, int cap);
} GamePlayout;

/*
 * Exact solving (Game.solver, optional): the game's own solution of some or
 * all positions (Fano: the whole game; Morris: the endgame tables).
 */
typedef struct GameSolver {
    /* Builds, or starts building, what solve needs for positions of pos's
     * game and options once pos is near them; cheap when there is nothing
     * to do.  The engine calls it at isready and uginewgame and before
     * each search or solve of a root position (the first use when isready
     * was not sent); solve itself never starts anything.  Fano builds its
     * tables here (a fraction of a second, once); Morris starts the
     * endgame tables' build in a background thread of the lowest priority
     * when pos is in the moving phase with at most 6 pieces a side. */
    void (*prepare)(const void *pos);
    /* The exact value of pos for the side to move and a best move.
     * Returns 1 and fills *value (+N: win in N plies, -N: loss in N
     * plies, 0 draw; VALUE_* below) and *best (MOVE_NONE if the game is
     * over), or 0 if unknown (not solved, or the tables not built yet). */
    int (*solve)(const void *pos, int *value, Move *best);
    /* Optional: solve for a search with a clock, which may answer more
     * positions than solve (Morris: more pieces in hand) by a longer
     * search that gives up (returns 0) as soon as give_up(ctx, share)
     * returns non-zero; it asks every few thousand nodes, with share the
     * percent (1..100) of the caller's time it asks for this position.
     * NULL: solve only. */
    int (*solve_until)(const void *pos, int (*give_up)(void *ctx, int share), void *ctx, int *value,
                       Move *best);
} GameSolver;

/*
 * Pictures and words (Game.pictures, optional) for the match runner's demo
 * and reports; without them the demo shows print() and reports say nothing
 * more.  Each member may be NULL.
 */
typedef struct GamePictures {
    /* The game's own picture for the demo, drawn from FENs (to_fen) so the
     * last move can be marked.  fen is the position shown, prev the one
     * before it and move the text of the move between them (both only for
     * PICTURE_NOTE and _MOVE); ansi != 0 allows colour; tally is one side's
     * GAME_TALLY counters of what its moves did, zero at the start.  part
     * (PICTURE_* below) says what to write to out. */
    void (*picture)(int part, const char *prev, const char *fen, const char *move, int *tally,
                    int ansi, FILE *out);
    /* A note on how the rules ended the game at pos, where the side to
     * move has no legal move and result is the game's result(), appended
     * to the runner's reason ("; the Throne is empty"). */
    const char *(*end_note)(const void *pos, int result);
} GamePictures;

/*
 * Tuning weights (Game.tuning, optional), for the tuner (engine/tune).
 */
typedef struct GameTuning {
    /* The evaluation's live weight table: *w, one name each in *names,
     * returns the count; writing w[i] changes evaluate() at once. */
    int (*weights)(int **w, const char *const **names);
    /* Writes such a table as the game's C source (NULL: none). */
    void (*print_weights)(const int *w, const char *const *names, int n, FILE *out);
} GameTuning;

/*
 * Match setup (Game.setup, optional): how the match runner and the tools
 * make openings.  Without the block: none but the start position.
 */
typedef struct GameSetup {
    /* Makes the game's own blob of o a random start drawn from seed when
     * the game has random setups under those options; returns 1 if it
     * did, 0 if not (o unchanged).  NULL: no random setups. */
    int (*random_setup)(GameOptions *o, uint64_t seed);
    /* Random plies that make an opening from a start position that is
     * not a random setup (match --make-openings). */
    int opening_plies;
} GameSetup;

/*
 * The descriptor: the rules core that every game implements, then the
 * optional capability blocks (NULL = the game lacks it).
 */
struct game {
    /* Name as UCI_Variant spells it: "morelli", "morris", "fano". */
    const char *name;
    /* Bytes of a position and of an undo record (both <= *_MAX_BYTES). */
    size_t pos_size;
    size_t undo_size;
    /* A true upper bound on the number of legal moves of any position of
     * this game under any options: the size of a caller's move array. */
    int max_moves;
    /* What reports and game records call the sides, p1 first ("Black",
     * "White" in Morelli). */
    const char *side_names[2];
    /* The game's options (options.h): option_count of them, each with the
     * offset of its value in the game's own options struct, of opts_size
     * bytes (<= GAME_OPTS_MAX_BYTES; 0 when it has none). */
    const Option *options;
    int option_count;
    size_t opts_size;

    /* Start position for the settings opt (NULL: the defaults), of which
     * the game reads its own blob (game_opts) and keeps in the position
     * what its rules need. Returns 0, or -1 and a message in err. */
    int (*init)(void *pos, const GameOptions *opt, char *err, size_t errlen);
    /* Position from a FEN; the game's options give what the FEN does not
     * say (board size is implied by the FEN, ruleset comes from opt).
     * On error returns -1 with a message in err and leaves pos untouched. */
    int (*from_fen)(void *pos, const char *fen, const GameOptions *opt, char *err, size_t errlen);
    void (*to_fen)(const void *pos, char *buf, size_t len);

    /* Legal moves into moves[] (room for max_moves); returns the count.
     * A finished game (result != RESULT_NONE) may still return moves: callers
     * ask result() first. */
    int (*gen_moves)(const void *pos, Move *moves);
    /* Play a legal move; undo receives what unmake needs. */
    void (*make)(void *pos, Move m, void *undo);
    void (*unmake)(void *pos, Move m, const void *undo);

    /* SIDE_P1 or SIDE_P2. */
    int (*side_to_move)(const void *pos);
    /* The result the rules give this position by themselves (no legal move,
     * a line formed, too few pieces, board full). Repetition and MoveRule
     * draws need the history: see past.h. */
    int (*result)(const void *pos);
    /* Draw by repetition: a position (key) seen this many times in the game
     * history is a draw; 0 = the game has no repetition rule (Morelli can
     * never repeat). Fano: 2 (first repetition); Morris: 3. */
    int repetition_count;
    /* Plies since the last irreversible change (Morris removal counter),
     * or -1 if the game never repeats.  Bounds the repetition scan and
     * drives the move-rule draw. May be NULL (= -1). */
    int (*reversible_plies)(const void *pos);
    /* The game's move rule under pos's options: a position whose
     * reversible_plies reach this many plies is a draw (Morris: MoveRule);
     * 0 = off.  May be NULL (= no move rule). */
    int (*move_rule)(const void *pos);
    /* Zobrist key kept incrementally, and the same computed from scratch
     * (tests compare them). */
    Key (*key)(const void *pos);
    Key (*key_from_scratch)(const void *pos);

    /* Static evaluation from the side to move's view. */
    int (*evaluate)(const void *pos);
    /* Non-zero for a capture, enthronement, mill: what ordering tries first. */
    int (*move_is_noisy)(const void *pos, Move m);

    /* Text of a legal move of pos (lower case); returns its length. */
    int (*move_to_str)(const void *pos, Move m, char *buf, size_t len);
    /* The legal move of pos written s (case-insensitive, '-' optional), or
     * MOVE_NONE. May be NULL: game_parse_move() then compares texts. */
    Move (*move_from_str)(const void *pos, const char *s);

    /* A picture of the position (`d`); ansi != 0 allows colour escape codes. */
    void (*print)(const void *pos, FILE *out, int ansi);

    /* Optional (NULL = use the generic one): leaf count at depth, with bulk
     * counting of the last ply when bulk != 0. */
    uint64_t (*perft)(void *pos, int depth, int bulk);

    /* The capability blocks (NULL: the game lacks it; see each above). */
    const GameSearch *search;
    const GamePlayout *playout;
    const GameSolver *solver;
    const GamePictures *pictures;
    const GameTuning *tuning;
    const GameSetup *setup;
};

/* The parts of GamePictures.picture: the board's size after the game's name in the
 * heading (" 13x13"); the start position with the legend; what the move
 * did, appended to its line (", captures e4"), added to tally; the position
 * with the move marked; tally in words, appended to the side's summary
 * line; the last position in the game's summary. */
enum { PICTURE_TITLE, PICTURE_START, PICTURE_NOTE, PICTURE_MOVE, PICTURE_TALLY, PICTURE_END };
#define GAME_TALLY 4

/* GameSearch.prune's answers. */
enum { PRUNE_NONE, PRUNE_CUT, PRUNE_QUIET };

/* Exact values returned by solve(): a win in n plies is VALUE_WIN - n.  A
 * win or loss VALUE_FAR_PLIES plies away or farther is one whose distance
 * the solver does not know (table files of win/draw/loss only): it is
 * farther than every distance it knows. */
#define VALUE_WIN 1000000
#define VALUE_FAR_PLIES 65000
#define VALUE_DRAW 0

/* Generic helpers built on the interface (engine/game.c). */

/* The legal move written s, or MOVE_NONE. Accepts upper case and the form
 * without '-'. */
Move game_parse_move(const Game *g, const void *pos, const char *s);
/* Text of m, "0000" for MOVE_NONE. */
void game_move_str(const Game *g, const void *pos, Move m, char *buf, size_t len);
/* s in the form move texts are compared in (lower case, without '-') into
 * out (len bytes, len > 0).  Returns its length, or -1 when it does not
 * fit (out then holds what fitted). */
int game_move_text_normalise(const char *s, char *out, size_t len);
/* GameSetup.random_setup of g into o, or 0 (o unchanged) when g has no
 * random setups. */
int game_random_setup(const Game *g, GameOptions *o, uint64_t seed);
/* Non-zero when g has random setups (under some options). */
int game_has_setups(const Game *g);
/* GameSetup.opening_plies of g, 0 without the block. */
int game_opening_plies(const Game *g);
/* g's own blob of the settings opt (its options struct), or NULL when opt
 * is NULL; game_opts_mut the same to write. */
const void *game_opts(const Game *g, const GameOptions *opt);
void *game_opts_mut(const Game *g, GameOptions *opt);
/* g's own blob of opt, or of the default settings (written into *def)
 * when opt is NULL. */
const void *game_opts_or_default(const Game *g, const GameOptions *opt, GameOptions *def);
/* Game.move_rule of pos, 0 when the game has none. */
int game_move_rule(const Game *g, const void *pos);

/* The games (engine/games.c). */
extern const Game game_morelli;
extern const Game game_morris;
extern const Game game_fano;
extern const Game *const game_list[];
extern const int game_count;
/* Case-insensitive lookup by name; NULL if unknown. */
const Game *game_by_name(const char *name);

/* Small deterministic PRNG (splitmix64/xorshift) for Zobrist keys, random
 * setups, playouts and tests. */
static inline uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
/* Uniform in [0, n), n > 0. */
static inline uint32_t rng_below(uint64_t *s, uint32_t n)
{
    return (uint32_t)(((rng_next(s) >> 32) * (uint64_t)n) >> 32);
}

#endif
