/*
 * ugi_internal.h -- what the protocol's files share, not part of its API.
 *
 *   session.c    the Session: creation, the output writer, the one-line core
 *                session_input(), the search job and the seam to its thread
 *   options.c    the protocol's game options and the searchers' options:
 *                check, apply, list
 *   commands.c   the command handlers and their table
 *   go.c         the words of go read into SearchLimits
 *   version.c    the version from the build (ugi.h)
 *   bench.c      the `bench` command
 *   ugi_info.c   the searchers' reports as `info` lines (ugi_info.h)
 *
 * Everything here is used by the reader's thread only, but say(),
 * session_error() and the atomics, which the search thread uses as well.
 */
#ifndef MORELLI_UGI_INTERNAL_H
#define MORELLI_UGI_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "game.h"
#include "past.h"
#include "search/search.h"
#include "ugi.h"

struct Session {
    /* The game being played. */
    const Game *game;
    GameOptions opt;
    unsigned char pos[POS_MAX_BYTES];
    Past hist; /* keys of the positions before pos, oldest first */

    Search *search;
    SessionCaps caps;

    /* The search job and the copy of everything it reads. */
    int thread_live; /* a job was started and not yet joined */
    atomic_int stop; /* set to stop the search */
    atomic_int done; /* set by the job before printing bestmove */
#ifndef UGI_NO_THREADS
    /* session.c's worker and watchdog (started by the first job) */
    int threads_live;
    pthread_t worker, watchdog;
    pthread_mutex_t job_lock; /* guards the fields below to answer_by */
    pthread_cond_t job_cond, done_cond, dog_cond;
    int job_pending;   /* a job waits for the worker */
    int job_over;      /* the worker printed the job's bestmove */
    int quitting;      /* the threads are to end */
    int64_t answer_by; /* time_now_ms() by which bestmove must be out, -1 none */
    int64_t check_at;  /* time_now_ms() to look whether the worker starves, -1 none */
    int64_t cpu0_ms;   /* the worker's CPU time when the job started */
#endif
    int64_t line_ms; /* time_now_ms() when the line being run was read */
    /* The clocks of the last go (timeman_lag_update): whose they were, how
     * many positions came before, what was left, the increment, when go was
     * read; and the lag learned so far. */
    struct {
        int valid, side, nkeys;
        int64_t left, inc, go_ms;
    } last_clock;
    int64_t lag_ms;
    /* The last go with a fixed movetime (timeman_late_update): when it was
     * read and its hard budget; and the lateness learned so far. */
    struct {
        int valid;
        int64_t go_ms, planned;
    } last_fixed;
    int64_t late_ms;
    int64_t answer_ms; /* under out_lock: time_now_ms() when the bestmove went out */
    /* Under out_lock: the job's bestmove is out; the last pv's first move. */
    int answered;
    char pv_move[MOVE_STR_MAX];
    int job_kind; /* JOB_GO or JOB_SOLVE */
    const Game *job_game;
    GameOptions job_opt;
    unsigned char job_pos[POS_MAX_BYTES];
    Key *job_keys;
    int job_nkeys;
    SearchLimits job_limits;
    Move *root_moves;  /* go searchmoves' moves (go.c): job_limits.searchmoves */
    atomic_int debug;  /* debug on: extra info string lines (options.c) */
    int job_unbounded; /* infinite, or no limit that ends it by itself */

    const Game *warm_game; /* the game whose solver tables are built */

    /* ponder.c: the options Ponder and UCI_ShowWDL; a ponder search runs
     * (go ponder) with these limits for after ponderhit; under out_lock,
     * hush: the running job's bestmove is not printed (ponderhit replaced
     * it), and the second move of the last pv (bestmove's ponder move). */
    int ponder_opt, show_wdl;
    int pondering;
    SearchLimits ponder_limits;
    int hush;
    char pv_move2[MOVE_STR_MAX];

    /* The writer: every reply line goes to write(), under out_lock. */
    SessionWrite write;
    void *write_ctx;
    int color; /* d may use ANSI colours */
    pthread_mutex_t out_lock;
    atomic_int errors;
};

/* What the search thread runs: a go (bestmove at the end) or a solve. */
enum { JOB_GO, JOB_SOLVE };

/* --- session.c ------------------------------------------------------------ */

/* One reply line (no '\n') through the writer. */
void say(Session *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Text of several lines (each ended by '\n'; a last one may lack it) as
 * consecutive reply lines, none of the search thread's between them. */
void say_text(Session *e, const char *text);

/* A token as it may be echoed in an error: printable ASCII, at most 40
 * characters (and "..." when cut). */
const char *echo(const char *s, char *buf, size_t len);
/* A whole decimal integer (optional sign) into *v; 0 or -1. */
int parse_i64(const char *s, int64_t *v);
/* p1win, p2win, draw or none. */
const char *result_word(int r);
int64_t now_ms(void);

/* The legal move list of pos into moves (malloc'd), count in *n. */
Move *legal_moves(const Game *g, const void *pos, int *n);
/* The game's result counting repetitions and the MoveRule. */
int full_result(const Game *g, const void *pos, const Past *h);

/* Starts the job set up in e->job_* (the bestmove line follows when it
 * ends). 0, or -1 when no thread could be started, or -2 when built without
 * threads and the job would not end by itself (infinite, or no limit). */
int job_start(Session *e);
/* Non-zero while a search runs; joins a finished one. */
int search_busy(Session *e);
/* Commands that use the Search wait for a search with limits to finish;
 * during an unbounded one they print an error and return 1. */
int refuse_if_busy(Session *e, const char *cmd);

/* --- commands.c ------------------------------------------------------------ */

/* The position, options and history into e->job_* for a job of kind. 0, or
 * -1 when out of memory. */
int job_copy(Session *e, int kind);

/* --- ponder.c ------------------------------------------------------------- */

/* Starts preparing the solver of the game just chosen, in the background. */
void warm_up_early(Session *e);
/* The lateness of fixed movetimes: learnt from the last answer, put in lim. */
void learn_late(Session *e, SearchLimits *lim, int stm);
/* Takes the word ponder out of go's words tok[1..*n); non-zero when there. */
int go_take_ponder(char **tok, int *n);
/* A go ponder: keeps *lim for ponderhit and makes it a search without end. */
void ponder_begin(Session *e, SearchLimits *lim);
/* ponderhit: the ponder search becomes a normal one under its limits,
 * counted from now.  UGI_OK or UGI_ERROR. */
int cmd_ponderhit(Session *e, char **tok, int n);
/* Sets a session option (checked by apply_option(), which returned 3). */
int session_option_set(Session *e, const char *name, const char *value);
/* The session's own options: Ponder, UCI_ShowWDL. */
extern const Option session_options[];
extern const int session_option_count;
/* " ponder <m>" for a bestmove of move when the Ponder option is on and
 * the last pv began with move and has a second move, else "".  Call with
 * out_lock held. */
const char *ponder_suffix(Session *e, const char *move, char *buf, size_t len);

/* --- options.c ------------------------------------------------------------ */

/* What setoption changes for the game options: the game and its options. */
typedef struct GameSetting {
    const Game *game;
    GameOptions opt;
} GameSetting;

/*
 * Applies "Name=Value" to a game setting (protocol options) or, for the
 * searchers' options, to search s (only when s != NULL, else only checked).
 * value NULL: none given. Returns 1 for a game option, 2 for a search
 * option, 3 for a session option (ponder.c; only checked here), -1 on
 * error (err filled).
 */
int apply_option(GameSetting *gs, Search *s, const SessionCaps *caps, const char *name,
                 const char *value, char *err, size_t errlen);
/* The `option name ...` lines of every option. */
void list_options(Session *e);
/* debug on|off. */
int cmd_debug(Session *e, char **tok, int n);

/* --- commands.c ----------------------------------------------------------- */

typedef int (*Handler)(Session *e, char **tok, int n);

/* The handler of a command word, or NULL. */
Handler command_handler(const char *word);

/* A position with its history: what `position` builds before committing. */
typedef struct Built {
    unsigned char pos[POS_MAX_BYTES];
    Past hist;
} Built;

/* Builds "startpos [moves ...]" or "fen <fen ...> [moves ...]" (tok[0..n))
 * for game g under options o into *b, whose hist is initialised and empty.
 * 0, or -1 with err filled. */
int build_position(const Game *g, const GameOptions *o, char **tok, int n, Built *b, char *err,
                   size_t errlen);

/* The solve job (run by the search thread): the value lines, then its
 * last line (info string solve: ...) into line, empty after an error. */
void solve_run(Session *e, char *line, size_t len);

/* --- go.c ---------------------------------------------------------------- */

/* Reads go's words tok[1..n) into *lim.  Words that cannot be used are left
 * out, each problem said in why (for one error line); returns how many. */
int go_parse(char **tok, int n, SearchLimits *lim, char *why, size_t len);
/* The moves after searchmoves, legal moves of e's position, into lim (e's
 * buffer; none: lim's searchmoves NULL); what is no legal move is said in
 * why.  Only when no search runs.  Returns the problems found. */
int go_searchmoves(Session *e, char **tok, int n, SearchLimits *lim, char *why, size_t len);
/* debug on: what the time manager decided for the go about to start.
 * go_job_end: what go mate found, and (debug on) how the search ended. */
void go_debug_start(Session *e, const SearchLimits *lim);
void go_job_end(Session *e, const SearchResult *res);

/* --- bench.c -------------------------------------------------------------- */

int cmd_bench(Session *e, char **tok, int n);

#endif
