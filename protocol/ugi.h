/*
 * ugi.h -- the UGI/UCI front end, as a library.
 *
 * A Session holds everything one conversation needs: the game and its
 * options, the current position and the keys of the positions before it
 * (for repetition and MoveRule draws), the searcher and the thread that runs
 * it, and the one writer that both threads print through.
 *
 * The core is one function: session_input() takes one raw line (any bytes,
 * any length, with or without its CR) and either carries the command out
 * completely or prints exactly one "info string error: ..." line and changes
 * nothing.  Commands are read into temporaries first and committed only when
 * everything parsed.  Every reply line goes to the writer given to
 * session_open() (session_new() is the writer to a FILE).
 *
 * protocol/main.c is the program around it: stdin lines and command-line
 * words; tests/fuzz/ feeds it arbitrary bytes.  The files behind it are
 * listed in protocol/ugi_internal.h.
 */
#ifndef MORELLI_UGI_H
#define MORELLI_UGI_H

#include <stddef.h>
#include <stdio.h>

typedef struct Session Session;

/* Longest input line accepted; longer ones are discarded with an error. */
#define UGI_LINE_MAX (1 << 20)

/* What session_input() returns. */
enum { UGI_OK = 0, UGI_ERROR = 1, UGI_QUIT = 2 };

/* Limits for fuzzing: no search thread (go searches depth 1 in the caller),
 * perft depth capped, bench refused. */
typedef struct SessionCaps {
    int sync_search; /* search in the caller's thread, depth <= 1 */
    int max_perft;   /* largest perft depth accepted */
    int allow_bench;
    int max_hash_mb; /* largest Hash accepted, 0 = the option's own max */
    int max_threads; /* largest Threads accepted, 0 = the option's own max */
} SessionCaps;

/* Receives each reply line, without its '\n'.  Called under the engine's
 * output lock, from the reader's thread or the search thread. */
typedef void (*SessionWrite)(void *ctx, const char *line);

/* A new engine writing its lines to write(ctx, line); color != 0 lets `d`
 * use ANSI colours. NULL when memory runs out. caps may be NULL (no
 * limits). */
Session *session_open(SessionWrite write, void *ctx, int color, const SessionCaps *caps);
/* A new engine writing to out (not closed by session_free), each line
 * flushed; `d` uses colours when out is a terminal. */
Session *session_new(FILE *out, const SessionCaps *caps);
/* Stops and joins any search, frees everything. */
void session_free(Session *e);

/* One input line of len bytes (no '\n'; a trailing '\r' is dropped). */
int session_input(Session *e, const char *line, size_t len);
/* The same for a NUL-terminated command. */
int session_command(Session *e, const char *line);

/* Waits until a running search has printed its bestmove. */
void session_wait(Session *e);
/* Asks a running search to stop and waits for its bestmove. */
void session_stop(Session *e);
/* Error lines printed so far. */
int session_errors(const Session *e);

/* Non-zero when word is a command name (for main.c's command-line words). */
int session_is_command(const char *word);

/* Prints "info string error: <msg>" through the writer (for main.c). */
void session_error(Session *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The engine's version, set by the build (protocol/version.c). */
const char *morelli_version(void);
/* "built for ARCH by COMPILER VERSION": the second line of --version. */
const char *morelli_build(void);
/* `morelli play ...`: a game at the terminal (protocol/play.c); argv[0] is
 * "play".  The exit status. */
int play_main(int argc, char **argv);

/* The bench positions embedded from bench/positions.txt (NUL-terminated). */
const char *bench_positions_text(void);

/* Each `option name ...` line the engine lists at `ugi` (every game's
 * options, then the searchers'), handed to out(ctx, line). */
void option_lines(void (*out)(void *ctx, const char *line), void *ctx);

#endif
