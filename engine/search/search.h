/*
 * search.h -- the searchers (alpha-beta and MCTS) behind one entry point.
 *
 * A Search owns what persists between moves: the transposition table, the
 * MCTS node arena, history tables, helper threads.  search_go() runs in the
 * caller's thread (the protocol starts it in a thread of its own), watches
 * *stop, reports progress through an emit callback as data (SearchInfo),
 * and returns the best move (MOVE_NONE when there is no legal move).
 */
#ifndef MORELLI_SEARCH_H
#define MORELLI_SEARCH_H

#include <stdatomic.h>
#include <stdint.h>

#include "game.h"
#include "options.h"

typedef struct SearchLimits {
    int64_t time[2];  /* remaining ms per side (index SIDE_P1/P2), -1 = none */
    int64_t inc[2];   /* increment ms per side */
    int movestogo;    /* 0 = sudden death */
    int64_t movetime; /* ms, 0 = none */
    int depth;        /* 0 = none */
    uint64_t nodes;   /* 0 = none */
    int infinite;     /* search until stopped */
    int64_t start_ms; /* time_now_ms() when go was read (timeman.h); 0 = now */
    int64_t lag_ms;   /* learned: what the clocks were charged beyond the
                        * engine's own time, per move (timeman.h); 0 = none */
    /* go searchmoves: the root moves searched (the caller's array, legal
     * moves of the root), NULL for all of them. */
    const Move *searchmoves;
    int nsearchmoves;
    int mate;        /* go mate N: a forced win in N moves sought, 0 = none */
    int64_t late_ms; /* learned: how late the answers to fixed movetimes
                        * came out beyond their budget (timeman.h); 0 = none */
} SearchLimits;

/* The most moves go mate asks for. */
#define SEARCH_MATE_MAX 60

void search_limits_init(SearchLimits *l);

/* What a finished search reports (also for bench). */
typedef struct SearchResult {
    Move best;
    int score; /* side to move's view; see SCORE_MATE */
    int depth;
    uint64_t nodes; /* alpha-beta nodes, or MCTS playouts */
    int64_t time_ms;
    int proven; /* non-zero when score is the exact game value */
    /* go mate N: the moves of the forced win found (1..N), 0 when none
     * was found, -1 when none exists (proven, or a full-width search of
     * 2N - 1 plies saw none) */
    int mate;
} SearchResult;

/* Scores beyond +-SCORE_MATE_BOUND are proven: SCORE_MATE - plies. */
#define SCORE_MATE 30000
#define SCORE_MATE_BOUND 29000

/*
 * What a search tells while it runs and when it ends, handed to the caller
 * as data through its SearchEmit callback; the protocol writes the text
 * (protocol/ugi_info.c: `info depth ... pv ...`).
 */
enum {
    SEARCH_INFO_ITERATION, /* a search's progress: every field below */
    SEARCH_INFO_SOLVED,    /* the score just reported is the game's exact value */
    SEARCH_INFO_GAME_OVER, /* the root is over already: nothing was searched */
};
enum {
    SEARCH_SCORE_CP,   /* score in centipawns (the evaluation's scale) */
    SEARCH_SCORE_MATE, /* score in full moves to a proven win, negative to a loss */
};
typedef struct SearchInfo {
    int kind; /* SEARCH_INFO_* */
    int depth, seldepth;
    int score_kind;  /* SEARCH_SCORE_* */
    int score;       /* the side to move's view, in score_kind's unit */
    int lowerbound;  /* score is a lower bound (an iteration still running) */
    uint64_t nodes;  /* see docs/search.md, "Nodes" */
    uint64_t nps;    /* nodes per second of the search's clock, 0 before 1 ms */
    int64_t time_ms; /* since go was read */
    int hashfull;    /* per mille */
    const Move *pv;  /* from the root, each move legal where it is played */
    int npv;
    int multipv; /* the line's rank (1 = best) when MultiPV > 1, else 0 */
    int exact;   /* the score is the game's proven value (a solver's) */
} SearchInfo;

/* Called with each report, from the thread that runs search_go(). */
typedef void (*SearchEmit)(void *ctx, const SearchInfo *info);

typedef struct Search Search;

Search *search_new(void);
void search_free(Search *s);
/* uginewgame: forget the table, the tree and all learnt history. */
void search_clear(Search *s);
/* Allocate (and touch) the memory the chosen searcher needs, so the first
 * go after isready/uginewgame does not pay for it on the clock. */
void search_prepare(Search *s);

/*
 * Options that belong to the searchers (Search, Hash, Threads and any of
 * their own), declared as the games declare theirs (options.h).  The
 * protocol lists them after the games' options.
 */
#define MULTIPV_MAX 256
extern const Option search_options[];
extern const int search_option_count;
/* Set by name (case-insensitive; the value is checked by option_parse()).
 * Returns 0, or -1 with a message in err and nothing changed. Must not be
 * called during search_go(). */
int search_setoption(Search *s, const char *name, const char *value, char *err, size_t errlen);
/* The MultiPV option: the lines a search reports. */
int search_multipv(const Search *s);
/* The MoveOverhead option (ms). */
int64_t search_move_overhead(const Search *s);
/* Every option back to its default. 0, or -1 with a message in err. */
int search_options_default(Search *s, char *err, size_t errlen);

/*
 * Search pos (prev[0..nprev) are the keys of the game's earlier positions,
 * for repetition draws) within limits, until *stop becomes non-zero.
 * emit may be NULL (bench).  Fills *res when res is non-NULL.  With
 * Threads above 1 it returns without waiting for its helper threads, which
 * end a moment later: every other call on s joins them first.
 */
Move search_go(Search *s, const Game *g, const void *pos, const GameOptions *opt, const Key *prev,
               int nprev, const SearchLimits *limits, atomic_int *stop, SearchEmit emit, void *ctx,
               SearchResult *res);


/*
 * The legal move of pos whose position evaluates best for the side to move
 * (a won game first, a lost one last; ties: the first generated): an
 * ordered best guess, for an answer due before any search iteration ended.
 * Reads only pos and the game (no Search: safe beside a running search).
 * MOVE_NONE when pos has no legal move.
 */
Move search_guess(const Game *g, const void *pos);

/*
 * The exact value of every legal move of pos, by the alpha-beta searcher's
 * ending solver (ab_solve.c), for games that bound the plies they can still
 * last (GameSearch.plies_left; Morelli) -- the `solve` command.  The budget is
 * limits->movetime (ms, counted from limits->start_ms) and limits->nodes,
 * 0 for none; *stop ends it early.  Whatever is proven when it ends is
 * reported; the proven values stay in the table for later searches.
 */
enum {
    SOLVE_UNKNOWN = 0, /* not proven */
    SOLVE_SIGN = 1,    /* win, draw or loss proven, not the distance */
    SOLVE_EXACT = 2,   /* the exact value */
};
typedef struct SolveMove {
    Move move;
    int state; /* SOLVE_* */
    /* For the side that plays the move, as GameSolver.solve gives values:
     * VALUE_WIN - n a win in n plies counting this move, -(VALUE_WIN - n)
     * a loss, VALUE_DRAW; with SOLVE_SIGN only the sign (1, 0, -1). */
    int value;
} SolveMove;
typedef struct SolveReport {
    SolveMove *moves; /* the caller's room for Game.max_moves */
    int n;            /* legal moves, in generation order */
    int state;        /* the root's value: SOLVE_* */
    int value;        /* as in SolveMove */
    Move best;        /* the best move proven (or the first move), MOVE_NONE if none */
    int ended;        /* SOLVE_END_* */
    uint64_t nodes;
    int64_t time_ms;
} SolveReport;
/* How a solve ended: everything proven, the time or node budget spent,
 * *stop, or lines longer than the solver can follow (MAX_PLY). */
enum { SOLVE_END_DONE, SOLVE_END_BUDGET, SOLVE_END_STOPPED, SOLVE_END_DEEP };

/* 0 with *out filled (partly when out->ended is not SOLVE_END_DONE), or -1
 * when out of memory or the game has no plies_left bound. */
int search_solve(Search *s, const Game *g, const void *pos, const GameOptions *opt, const Key *prev,
                 int nprev, const SearchLimits *limits, atomic_int *stop, SolveReport *out);

#endif
