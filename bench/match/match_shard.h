/*
 * match_shard.h -- one match played in pieces: `--shard K/N --results FILE`
 * plays a fixed slice of the colour-swapped pairs and writes what it played
 * to a results file; `--merge FILE...` joins the files of all N shards into
 * the report the whole match would have printed.  docs/match.md describes
 * the file format and the recipes (GNU parallel, Slurm, Kubernetes).
 *
 * Pair p (0-based; games 2p+1 and 2p+2) belongs to shard (p mod N) + 1, so
 * the slices are disjoint, cover the match, and do not depend on how many
 * machines are fast.  A results file starts with the match's identity
 * (engines, their options and time controls, the game and its options, the
 * openings' contents, limits, seed, SPRT), carries one line per game and
 * ends with a count and a checksum; a file is written to a temporary name
 * and renamed, so a reader never sees half of one.
 */
#ifndef MORELLI_BENCH_MATCH_SHARD_H
#define MORELLI_BENCH_MATCH_SHARD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "match.h"

#define SHARD_VERSION 1
#define SHARD_MAGIC "morelli-match-results"
#define SHARD_MAX 100000

/* Parses "K/N" (1 <= K <= N <= SHARD_MAX). Returns 0, or -1 with a message. */
int shard_parse_spec(const char *text, int *k, int *n, char *err, size_t errlen);

/* `--shard auto/N`: K from $SHARD or $SLURM_ARRAY_TASK_ID (1-based) or
 * $JOB_COMPLETION_INDEX (0-based, a Kubernetes Indexed Job), the first
 * set, written "K/N" into out; any other text is copied as it is.
 * Returns 0, or -1 with a message (none set, not a number). */
int shard_auto_spec(const char *text, char *out, size_t outlen, char *err, size_t errlen);

/* Replaces "{K}" in the results path (of capacity len) by shard k.
 * Returns 0 (also when there is none), or -1 with a message ({K} without
 * a shard, twice, or a path too long). */
int shard_results_path(char *path, size_t len, int k, char *err, size_t errlen);

/* The files of `--merge ARG...`: each folder among args gives its
 * shard-*.txt files in shard order, any other argument itself.  *paths
 * (*npaths of them) is freed by shard_free_paths.  Returns 0, or -1 with a
 * message (a folder with no results files, one that cannot be read). */
int shard_expand(char *const *args, int nargs, char ***paths, int *npaths, char *err,
                 size_t errlen);
void shard_free_paths(char **paths, int n);

/* Non-zero when pair (0-based) is played by shard k of n (n == 0: no
 * sharding, every pair). */
int shard_owns(int k, int n, int pair);

/* One finished game as the results file keeps it. */
typedef struct ShardGame {
    int number;   /* 1-based, as in the whole match */
    int p1;       /* the engine (0 = first --engine) that played p1 */
    int result;   /* RESULT_P1_WIN, RESULT_P2_WIN, RESULT_DRAW */
    int term;     /* the runner's termination index (match_internal.h) */
    int forfeit;  /* engine that lost by fault, -1 none */
    int disagree; /* an engine's query answer differed */
    int nplies;
    char *moves; /* malloc'd: the moves, blank-separated */
} ShardGame;

/* A results file in memory. */
typedef struct ShardFile {
    char *path;  /* malloc'd copy */
    char *ident; /* the identity lines, each ending in '\n' (malloc'd) */
    int k, n;    /* shard k of n */
    int games;   /* games of the whole match */
    ShardGame *game;
    int ngames, cap;
} ShardFile;

/* The identity lines of match c (after its engines named themselves) with
 * the openings as played (nopenings 0: every game from startpos), into a
 * malloc'd string; NULL when out of memory.  term_names are written as
 * the words of the termination indices. */
char *shard_identity(const MatchConfig *c, char *const *openings, int nopenings);

/* Adds a copy of g (and of its moves) to f. Returns 0 or -1. */
int shard_add(ShardFile *f, const ShardGame *g);
void shard_free(ShardFile *f);

/*
 * Writes f (its ident, k, n and games, in the order of their numbers) to
 * path: first to path.tmp.PID, then renamed over path.  term_names[nterm]
 * spell the terminations.  Returns 0, or -1 with a message (and no file).
 */
int shard_write(const char *path, ShardFile *f, const char *const *term_names, int nterm, char *err,
                size_t errlen);

/*
 * Reads and checks one results file: its version, the checksum and the
 * count of the end line (a truncated or hand-edited file fails), that every
 * game belongs to its shard and appears once.  Returns 0, or -1 with a
 * message naming the file (f is then empty).
 */
int shard_read(const char *path, ShardFile *f, const char *const *term_names, int nterm, char *err,
               size_t errlen);

/*
 * Checks that files[0..n) are the shards of one match, each pair present
 * exactly once, and gathers their games into *all (numbers 1..games, in
 * order; all->ident etc. from files[0]).  Returns 0, or -1 with a message
 * naming the files, pairs and shards at fault.
 */
int shard_join(ShardFile *files, int n, ShardFile *all, char *err, size_t errlen);

/*
 * The settings of c that the report needs (engine names and time controls,
 * the game, the number of games, the SPRT), read back from identity lines.
 * c must hold the defaults first.  Returns 0, or -1 with a message.
 */
int shard_config(const char *ident, MatchConfig *c, char *err, size_t errlen);

#endif
