/*
 * match_internal.h -- what the match runner's files share (not its API,
 * which is match.h).  The files, each depending only on those listed
 * after it:
 *
 *   match_cli.c       the command line and match_main()
 *   match.c           the scheduler: workers take colour-swapped pairs
 *   match_referee.c   one game: moves checked, clocks kept, the end decided
 *   match_demo.c      --demo's board after every move
 *   match_report.c    game records (PGN), progress lines, the final report
 *   match_player.c    one engine process: handshake, options, reading lines
 *   match_openings.c  openings files: read, and made at random
 *   match_config.c    MatchConfig defaults and small helpers
 */
#ifndef MORELLI_BENCH_MATCH_INTERNAL_H
#define MORELLI_BENCH_MATCH_INTERNAL_H

#include <pthread.h>

#include "engine_proc.h"
#include "match.h"
#include "match_shard.h"

/* How a game ended; the report counts each kind. */
enum {
    TERM_RULES,      /* the game's own result() */
    TERM_REPETITION, /* past_result(): repetition */
    TERM_MOVERULE,   /* past_result(): MoveRule */
    TERM_MAXPLIES,   /* adjudicated draw */
    TERM_TIME,       /* out of time, or no reply at all */
    TERM_ILLEGAL,    /* illegal or unreadable move */
    TERM_CRASH,      /* the engine's output closed */
    TERM_START,      /* could not be (re)started or made ready */
    TERM_COUNT
};
/* The TERM_* in words, as the report and the game records write them. */
extern const char *const term_names[TERM_COUNT];

typedef struct Player {
    EngineProc proc;
    int ready;                    /* handshake done, options sent */
    int has_variant;              /* listed UCI_Variant among its options */
    char id_name[MATCH_NAME_MAX]; /* what it calls itself (`id name`) */
} Player;

typedef struct PlyInfo {
    char text[MOVE_STR_MAX];
    int has_score, mate, score, depth;
    int64_t ms;        /* go written to bestmove read */
    int64_t budget_ms; /* the clock left or the movetime; -1 none */
    uint64_t nodes;    /* of the last info line with nodes (MCTS: playouts) */
    int side;          /* SIDE_* of the mover */
} PlyInfo;

typedef struct GameRecord {
    int number;          /* 1-based */
    int round;           /* pair number, 1-based */
    int p1;              /* engine index playing p1 */
    const char *opening; /* the opening line */
    char start_fen[FEN_MAX];
    PlyInfo *plies;
    int nplies, cap;
    int result; /* RESULT_* (never RESULT_NONE once over) */
    int term;   /* TERM_* */
    char reason[256];
    char disagree[256]; /* "" = both engines agreed */
    int forfeit;        /* engine index that forfeited, -1 none */
} GameRecord;

typedef struct Match {
    const MatchConfig *c;
    FILE *out;
    char **openings;
    int nopenings;
    int pairs_total;
    pthread_mutex_t lock;
    int next_pair;
    int stop;
    MatchSummary sum;
    int terms[TERM_COUNT];
    FILE *pgn;
    int tty;
    char date[16];
    ShardFile results;  /* --results: the games played, for the file */
    int results_failed; /* out of memory while keeping them */
} Match;

typedef struct Worker {
    Match *m;
    Player players[2];
    pthread_t thread;
} Worker;


/* --- match_config.c: text helpers --- */

/* Non-zero when s starts with word followed by a blank or its end. */
int starts_with(const char *s, const char *word);
/* The word after the first occurrence of key as a word in line, or NULL. */
const char *after_word(const char *line, const char *key);
/* "Black" or "White": what side of game g is called. */
const char *side_name(const Game *g, int side);
/* The side of game g that PGN calls White: the one named "White", else p1
 * (Morelli: p2, since Black moves first there). */
int white_side(const Game *g);
/* A RESULT_* as PGN writes it: 1-0 when White (white_side) won, 0-1 when
 * Black did, 1/2-1/2, or *. */
const char *result_text(const Game *g, int result);

/* --- match_player.c --- */

void player_init(Player *p);
/* Kills the process; the player must be started again. */
void player_drop(Player *p);
/* Reads lines until one starting with word; 1 found, 0 deadline, -1 EOF.
 * An "info string error" line seen on the way is copied to note. */
int wait_for(Player *p, const char *word, int64_t deadline, char *note, size_t notelen);
/* Starts engine e of the match: ugi/ugiok, the options, isready/readyok.
 * Returns 0, or -1 with the reason in err (the process is gone then). */
int player_start(const MatchConfig *c, Player *p, int e, char *err, size_t errlen);

/* --- match_referee.c --- */

/* Plays one game between the worker's engines; rec->number, round, p1 and
 * opening are set by the caller, the rest of rec is filled. */
void play_game(Match *m, Worker *w, GameRecord *rec);

/* --- match_demo.c --- */

/* The header line and the start position. */
void demo_start(Match *m, const GameRecord *rec, const void *pos);
/* One ply: the move, the engine's report, the board. */
void demo_ply(Match *m, const void *pos, int side, int e, const PlyInfo *info, int ply);
/* The result line. */
void demo_end(Match *m, const GameRecord *rec);

/* --- match_report.c (with the lock held) --- */

/* Counts a finished game, writes its record, prints the progress line. */
void game_done(Match *m, const GameRecord *rec);
/* Counts a finished pair (pentanomial). */
void pair_done(Match *m, const GameRecord *a, const GameRecord *b);
/* The final report. */
void report(Match *m);

#endif
