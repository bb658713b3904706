/*
 * match.h -- the match runner: games between two UGI engines, refereed by
 * our own game library.
 *
 * The runner starts both engines (engine_proc.h), plays every opening twice
 * with the colours swapped, checks every move with game_parse_move(),
 * decides the end itself (the game's result() and past_result() for
 * repetition and MoveRule draws), and asks the engines `query gameover` /
 * `query result` afterwards to catch a disagreement.  An engine that
 * crashes, overruns its time or plays an illegal move loses that game; it is
 * restarted for the next one and the match goes on.  docs/match.md is the
 * user's manual.
 */
#ifndef MORELLI_BENCH_MATCH_H
#define MORELLI_BENCH_MATCH_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "game.h"

#define MATCH_MAX_OPTIONS 32
#define MATCH_NAME_MAX 64
#define MATCH_VALUE_MAX 256
#define MATCH_CMD_MAX 1024
#define MATCH_PATH_MAX 1024

typedef struct MatchOption {
    char name[MATCH_NAME_MAX];
    char value[MATCH_VALUE_MAX];
} MatchOption;

enum { TC_CLOCK, TC_MOVETIME, TC_DEPTH, TC_NODES };

typedef struct TimeControl {
    int type;
    int64_t time_ms, inc_ms; /* TC_CLOCK */
    int64_t movetime_ms;     /* TC_MOVETIME */
    int depth;               /* TC_DEPTH */
    uint64_t nodes;          /* TC_NODES */
} TimeControl;

typedef struct EngineSpec {
    char name[MATCH_NAME_MAX];
    char cmd[MATCH_CMD_MAX];
    MatchOption options[MATCH_MAX_OPTIONS]; /* sent after --each's */
    int noptions;
    int name_auto; /* no name= given: it takes its `id name` */
    int has_tc;    /* its own time control (time odds), of the match's kind */
    TimeControl tc;
} EngineSpec;

enum { SPRT_PENTANOMIAL, SPRT_TRINOMIAL };

typedef struct MatchConfig {
    EngineSpec engines[2];
    MatchOption each[MATCH_MAX_OPTIONS]; /* sent to both engines */
    int neach;
    const Game *game;     /* from --variant */
    GameOptions game_opt; /* the game options among the engine options */
    TimeControl tc;
    int games;                     /* games to play (pairs = games / 2, rounded up) */
    int concurrency;               /* games at once */
    char openings[MATCH_PATH_MAX]; /* "" = every game from startpos */
    int shuffle;                   /* play the openings in an order drawn from seed */
    char pgnout[MATCH_PATH_MAX];   /* "" = no game records */
    uint64_t seed;                 /* --make-openings, --shuffle */
    int sprt;                      /* SPRT requested */
    double elo0, elo1, alpha, beta;
    int sprt_model;           /* SPRT_* */
    int64_t margin_ms;        /* grace beyond the clock or movetime */
    int64_t timeout_ms;       /* longest wait for a move without a clock */
    int64_t start_timeout_ms; /* longest wait for ugiok, readyok, query answers */
    int max_plies;            /* draw by adjudication after so many plies */
    int demo;                 /* draw the board after every move */
    int demo_delay_ms;        /* --delay: pause after each board (-1: 300 on a terminal, else 0) */
    int quiet;                /* no per-game lines, no progress */
    int make_openings;        /* > 0: write that many openings and stop */
    int opening_plies;        /* random plies of a made opening, -1 = game's default */
    int help;
    int load;                     /* busy processes beside the match (--load) */
    int shard_k, shard_n;         /* --shard K/N; 0/0 = the whole match */
    char results[MATCH_PATH_MAX]; /* --results FILE: "" = none */
    char **merge;                 /* --merge FILE...: points into argv */
    int nmerge;
} MatchConfig;

/* Two engines of the same name become "<name>#1" and "<name>#2" (the name
 * cut short to make room when it is long). */
void match_unique_names(MatchConfig *c);

/* The time control engine e plays with: its own, or the match's. */
const TimeControl *match_engine_tc(const MatchConfig *c, int e);

/* Defaults: see docs/match.md. */
void match_config_default(MatchConfig *c);

/*
 * Parses the command line (argv[1..argc)) into c (which must hold the
 * defaults first).  argv0_dir is the directory of the runner's binary, for
 * --demo's default engine command.  Returns 0, or -1 with a message in err.
 */
int match_parse_args(MatchConfig *c, int argc, char **argv, const char *argv0_dir, char *err,
                     size_t errlen);

/* Copies src into dst[len], cut if need be (len > 0). */
void match_str_copy(char *dst, size_t len, const char *src);

/* The usage text. */
void match_usage(FILE *out);

/*
 * Reads an openings file: one `startpos` or FEN per line, blank lines and
 * lines starting with '#' skipped (the cutegames format).  Every line is
 * checked against the game.  Returns the count and a malloc'd array of
 * malloc'd strings in *lines, or -1 with a message in err.
 */
int match_read_openings(const char *path, const Game *g, const GameOptions *opt, char ***lines,
                        char *err, size_t errlen);
void match_free_openings(char **lines, int n);

/* Writes n distinct random openings (see docs/match.md). Returns 0 or -1. */
int match_make_openings(const MatchConfig *c, FILE *out, char *err, size_t errlen);

/* What a match ended with, from the first engine's point of view. */
typedef struct MatchSummary {
    int games; /* games finished */
    int wins, draws, losses;
    int penta[5]; /* complete pairs by the first engine's half-points */
    int pairs;
    int disagreements; /* games where an engine's query answer differed */
    int forfeits[2];   /* games lost by time, crash or illegal move, per engine */
    int sprt_decision; /* +1 H1, -1 H0, 0 none */
    double llr, llr_lower, llr_upper;
    /* Under a clock or movetime, each move's time as the runner measured it
     * (go written to bestmove read) against its budget (the clock left, or
     * the movetime). */
    int timed_moves, late_moves; /* moves, and those over their budget */
    int64_t max_over_ms;         /* the longest overshoot (<= 0: none was over) */
    int64_t max_move_ms;         /* the longest move */
} MatchSummary;

/*
 * Plays the match described by c, printing progress and the final report on
 * out.  Returns 0 when the match ran (whatever the results), -1 with a
 * message in err when it could not (engine does not start, bad openings).
 */
int match_run(const MatchConfig *c, FILE *out, MatchSummary *sum, char *err, size_t errlen);

/*
 * --merge: reads the results files c->merge[0..nmerge) (bench/match/match_shard.h),
 * checks they are all the shards of one match, and prints the report that
 * match would have printed (W/D/L, Elo, pentanomial pairs, SPRT); with
 * c->results, also writes the joined file.  Returns 0, or -1 with a message.
 */
int match_merge(const MatchConfig *c, FILE *out, MatchSummary *sum, char *err, size_t errlen);

/* Set (by match_main's SIGINT handler) to start no new game: the games
 * under way finish and the report follows. */
extern volatile sig_atomic_t match_interrupted;

/* The runner's whole command line: parse, run, report. Returns the exit
 * status.  The first Ctrl-C stops the match after the games under way, the
 * second one at once. */
int match_main(int argc, char **argv);

#endif
