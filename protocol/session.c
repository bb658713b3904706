/*
 * session.c -- the Session: its creation, the writer, the one-line core
 * session_input(), and the search job with the one seam to threads.
 *
 * Threads: the reader (whoever calls session_input) and at most one search
 * thread, which runs a job: a `go` (ending with bestmove) or a Morelli
 * `solve` (ending with its info string line, JOB_SOLVE).  The search thread works on its own copy of the position, the
 * options and the history keys, so the reader may go on answering `isready`,
 * `query`, `d` or even `position` while it runs.  Anything that touches the
 * Search itself (go, setoption, uginewgame, bench, perft, solve) waits until
 * a search with limits has finished, and is refused during `go infinite`.
 * Every output line goes through say(), which holds e->out_lock.
 *
 * job_start() is the only place a thread is created.  Built with
 * -DUGI_NO_THREADS (a WebAssembly build without threads) it runs the job in
 * the caller instead, and `go` returns after its bestmove line.
 */
#include "ugi_internal.h"

#include "notice.h"
#include "search/timeman.h"
#include "ugi_info.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "options.h"

/* ------------------------------------------------------------------------ */
/* Output                                                                    */

void say(Session *e, const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    char *line = small;
    if (len >= (int)sizeof small) {
        line = malloc((size_t)len + 1);
        if (!line)
            return;
        va_start(ap, fmt);
        vsnprintf(line, (size_t)len + 1, fmt, ap);
        va_end(ap);
    }
    pthread_mutex_lock(&e->out_lock);
    e->write(e->write_ctx, len < 0 ? "" : line);
    pthread_mutex_unlock(&e->out_lock);
    if (line != small)
        free(line);
}

void say_text(Session *e, const char *text)
{
    pthread_mutex_lock(&e->out_lock);
    while (*text) {
        const char *nl = strchr(text, '\n');
        size_t n = nl ? (size_t)(nl - text) : strlen(text);
        char *line = malloc(n + 1);
        if (line) {
            memcpy(line, text, n);
            line[n] = '\0';
            e->write(e->write_ctx, line);
            free(line);
        }
        text += n + (nl != NULL);
    }
    pthread_mutex_unlock(&e->out_lock);
}

void session_error(Session *e, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    e->errors++;
    say(e, "info string error: %s", msg);
}

int session_errors(const Session *e)
{
    return atomic_load(&e->errors);
}

/* The writer of session_new(): lines to a FILE, each flushed. */
static void write_file(void *ctx, const char *line)
{
    FILE *out = ctx;
    fputs(line, out);
    fputc('\n', out);
    fflush(out);
}

/* ------------------------------------------------------------------------ */
/* Small helpers of the protocol's files                                     */

const char *echo(const char *s, char *buf, size_t len)
{
    return option_echo(s, buf, len);
}

int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int parse_i64(const char *s, int64_t *v)
{
    if (!s || !*s)
        return -1;
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (errno || *end || end == s || isspace((unsigned char)*s))
        return -1;
    *v = (int64_t)x;
    return 0;
}

const char *result_word(int r)
{
    switch (r) {
    case RESULT_P1_WIN: return "p1win";
    case RESULT_P2_WIN: return "p2win";
    case RESULT_DRAW: return "draw";
    default: return "none";
    }
}

int full_result(const Game *g, const void *pos, const Past *h)
{
    return past_result(g, pos, h->keys, h->len);
}

Move *legal_moves(const Game *g, const void *pos, int *n)
{
    Move *moves = malloc((size_t)g->max_moves * sizeof *moves);
    *n = moves ? g->gen_moves(pos, moves) : 0;
    return moves;
}

/* ------------------------------------------------------------------------ */
/* The search job                                                            */

/* Room for a job's last line (bestmove, or solve's summary). */
#define JOB_LINE_MAX 256

/* Prints the job's bestmove unless it is out already (the watchdog's or the
 * worker's, whichever comes first), noting when. Call with out_lock held. */
static void answer_locked(Session *e, const char *line)
{
    if (!e->answered) {
        e->answered = 1;
        e->answer_ms = time_now_ms();
        if (!e->hush) /* a ponder search that ponderhit replaced */
            e->write(e->write_ctx, line);
    }
}

/* answer_locked() under out_lock. */
static void answer(Session *e, const char *line)
{
    pthread_mutex_lock(&e->out_lock);
    answer_locked(e, line);
    pthread_mutex_unlock(&e->out_lock);
}

/* The search's reports, written as info lines; the first move of the last
 * pv is kept for the watchdog.  Nothing of a job is printed after its
 * bestmove. */
static void emit_info(void *ctx, const SearchInfo *in)
{
    Session *e = ctx;
    char line[UGI_INFO_MAX];
    ugi_info_text(e->job_game, e->job_pos, in, line, sizeof line);
    if (e->show_wdl)
        ugi_info_add_wdl(e->job_game, in, line, sizeof line);
    pthread_mutex_lock(&e->out_lock);
    if (!e->answered) {
        e->write(e->write_ctx, line);
        /* MultiPV: line 1's move is the one to play */
        const char *pv = in->multipv <= 1 ? strstr(line, " pv ") : NULL;
        if (pv) {
            pv += 4;
            size_t n = strcspn(pv, " ");
            if (n > 0 && n < sizeof e->pv_move) {
                memcpy(e->pv_move, pv, n);
                e->pv_move[n] = '\0';
                /* The second move: bestmove's ponder move. */
                const char *p2 = pv[n] == ' ' ? pv + n + 1 : "";
                size_t n2 = strcspn(p2, " ");
                n2 = n2 < sizeof e->pv_move2 ? n2 : 0;
                memcpy(e->pv_move2, p2, n2);
                e->pv_move2[n2] = '\0';
            }
        }
    }
    pthread_mutex_unlock(&e->out_lock);
}

/* Runs the job; its last line (go: bestmove, the move checked legal;
 * solve: the summary) into line, empty when there is none. */
static void run_job(Session *e, char *line, size_t len)
{
    if (e->job_kind == JOB_SOLVE) {
        solve_run(e, line, len);
        return;
    }
    SearchResult res;
    memset(&res, 0, sizeof res);
    Move best = search_go(e->search, e->job_game, e->job_pos, &e->job_opt, e->job_keys,
                          e->job_nkeys, &e->job_limits, &e->stop, emit_info, e, &res);
    go_job_end(e, &res);
    int n;
    Move *moves = legal_moves(e->job_game, e->job_pos, &n);
    int ok = 0;
    for (int i = 0; i < n && !ok; i++)
        ok = moves[i] == best;
    if (!ok && n > 0) {
        char text[MOVE_STR_MAX];
        snprintf(text, sizeof text, "%" PRIu32, best);
        session_error(e, "search returned no legal move (%s); playing the first legal move", text);
        best = moves[0];
    }
    char text[MOVE_STR_MAX];
    game_move_str(e->job_game, e->job_pos, n > 0 ? best : MOVE_NONE, text, sizeof text);
    free(moves);
    char ponder[MOVE_STR_MAX + 8];
    pthread_mutex_lock(&e->out_lock);
    ponder_suffix(e, text, ponder, sizeof ponder);
    pthread_mutex_unlock(&e->out_lock);
    snprintf(line, len, "bestmove %s%s", text, ponder);
}

/* The job in the caller: its bestmove line, its keys freed. */
static void job_run_here(Session *e)
{
    char line[JOB_LINE_MAX];
    run_job(e, line, sizeof line);
    if (line[0])
        answer(e, line);
    free(e->job_keys);
    e->job_keys = NULL;
}

#ifndef UGI_NO_THREADS
/*
 * Two threads live as long as the Session once the first search starts:
 * the worker, which runs each job, and the watchdog, which answers for a
 * search that is late.  Both sleep on condition variables between jobs: a
 * thread created for each go would queue behind every busy process of a
 * loaded machine before its first instruction (370 ms were seen), where a
 * sleeper that wakes is served at once.  For the same reason the watchdog,
 * asleep until the job's hard budget (counted from the reading of go) plus
 * UGI_WATCHDOG_MS, prints the best move so far (the last pv's first move,
 * else the move best by the evaluation, search_guess(), with a line that
 * says so) when the worker has not answered by then,
 * and stops the search.  Halfway to the hard budget it looks at the worker's
 * CPU time: a worker that got less than a third of the wall time since go
 * (starved, timeman.h) would be late, so the watchdog answers then.
 * Whichever answers first prints the one bestmove.
 */
#define UGI_WATCHDOG_MS 10

static void *worker_main(void *arg)
{
    Session *e = arg;
    pthread_mutex_lock(&e->job_lock);
    for (;;) {
        while (!e->job_pending && !e->quitting)
            pthread_cond_wait(&e->job_cond, &e->job_lock);
        if (e->quitting && !e->job_pending)
            break;
        e->job_pending = 0;
        pthread_mutex_unlock(&e->job_lock);
        char line[JOB_LINE_MAX];
        run_job(e, line, sizeof line);
        pthread_mutex_lock(&e->job_lock);
        /* Done before the bestmove line leaves: whoever reads it may send
         * go at once, and must find the searcher free (search_join waits
         * for job_over, a moment later). */
        e->answer_by = e->check_at = -1;
        atomic_store(&e->done, 1);
        pthread_mutex_unlock(&e->job_lock);
        if (line[0])
            answer(e, line);
        pthread_mutex_lock(&e->job_lock);
        e->job_over = 1;
        pthread_cond_broadcast(&e->done_cond);
    }
    pthread_mutex_unlock(&e->job_lock);
    return NULL;
}

/* The worker thread's CPU time (ms), 0 when it cannot be read. */
static int64_t worker_cpu_ms(Session *e)
{
    clockid_t id;
    struct timespec ts;
    if (pthread_getcpuclockid(e->worker, &id) != 0 || clock_gettime(id, &ts) != 0)
        return 0;
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The ordered best guess for the job's position as text: the move best by
 * the evaluation one ply ahead (search_guess). */
static void guess_move(Session *e, char *text, size_t len)
{
    game_move_str(e->job_game, e->job_pos, search_guess(e->job_game, e->job_pos), text, len);
}

static void *watchdog_main(void *arg)
{
    Session *e = arg;
    pthread_mutex_lock(&e->job_lock);
    while (!e->quitting) {
        if (e->answer_by < 0) {
            pthread_cond_wait(&e->dog_cond, &e->job_lock);
            continue;
        }
        int64_t due = e->check_at >= 0 ? e->check_at : e->answer_by;
        int64_t now = time_now_ms();
        if (now < due) {
            struct timespec ts = {(time_t)(due / 1000), (long)(due % 1000) * 1000000};
            pthread_cond_timedwait(&e->dog_cond, &e->job_lock, &ts);
            continue;
        }
        if (e->check_at >= 0) {
            /* Halfway: a worker starved of CPU (timeman.h) would not answer
             * in time, nor soon after: answer now. */
            e->check_at = -1;
            if (!timeman_starved(now - e->job_limits.start_ms, worker_cpu_ms(e) - e->cpu0_ms))
                continue;
        }
        /* Late: answer for the search, then let it stop. */
        e->answer_by = e->check_at = -1;
        char line[2 * MOVE_STR_MAX + 24], text[MOVE_STR_MAX] = "", ponder[MOVE_STR_MAX + 8];
        pthread_mutex_lock(&e->out_lock);
        int searched = e->pv_move[0] != '\0';
        pthread_mutex_unlock(&e->out_lock);
        if (!searched)
            guess_move(e, text, sizeof text);
        pthread_mutex_lock(&e->out_lock);
        /* A pv that arrived meanwhile wins over the guess. */
        if (!e->pv_move[0] && !e->answered)
            e->write(e->write_ctx, "info string go: late, no iteration ended: the move best by "
                                   "the evaluation");
        snprintf(line, sizeof line, "bestmove %s%s", e->pv_move[0] ? e->pv_move : text,
                 e->pv_move[0] ? ponder_suffix(e, e->pv_move, ponder, sizeof ponder) : "");
        answer_locked(e, line);
        pthread_mutex_unlock(&e->out_lock);
        atomic_store(&e->stop, 1);
    }
    pthread_mutex_unlock(&e->job_lock);
    return NULL;
}

/* A fixed movetime (timeman_fixed) is the GUI's own deadline: the
 * watchdog answers by its last millisecond at the latest, and no earlier
 * for a starved worker (the search then answers at its budget with what it
 * found; the watchdog only when the worker cannot). */
static void watchdog_fixed(Session *e, int stm)
{
    if (e->job_kind != JOB_GO || e->answer_by < 0 ||
        !timeman_fixed(&e->job_limits, stm, search_move_overhead(e->search)))
        return;
    int64_t mt = e->job_limits.movetime < TIME_MAX_MS ? e->job_limits.movetime : TIME_MAX_MS;
    int64_t last = e->job_limits.start_ms + mt - 1;
    if (e->answer_by > last)
        e->answer_by = last;
    e->check_at = -1;
}

/* Starts the worker and the watchdog once. 0 or -1. */
static int threads_start(Session *e)
{
    if (e->threads_live)
        return 0;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC); /* time_now_ms()'s clock */
    pthread_mutex_init(&e->job_lock, NULL);
    pthread_cond_init(&e->job_cond, NULL);
    pthread_cond_init(&e->done_cond, NULL);
    pthread_cond_init(&e->dog_cond, &ca);
    pthread_condattr_destroy(&ca);
    e->quitting = 0;
    e->answer_by = e->check_at = -1;
    if (pthread_create(&e->worker, NULL, worker_main, e) != 0)
        goto fail;
    if (pthread_create(&e->watchdog, NULL, watchdog_main, e) != 0) {
        pthread_mutex_lock(&e->job_lock);
        e->quitting = 1;
        pthread_cond_broadcast(&e->job_cond);
        pthread_mutex_unlock(&e->job_lock);
        pthread_join(e->worker, NULL);
        goto fail;
    }
    e->threads_live = 1;
    return 0;
fail:
    pthread_cond_destroy(&e->dog_cond);
    pthread_cond_destroy(&e->done_cond);
    pthread_cond_destroy(&e->job_cond);
    pthread_mutex_destroy(&e->job_lock);
    return -1;
}

/* Ends both threads (after the job under way). */
static void threads_stop(Session *e)
{
    if (!e->threads_live)
        return;
    pthread_mutex_lock(&e->job_lock);
    e->quitting = 1;
    pthread_cond_broadcast(&e->job_cond);
    pthread_cond_broadcast(&e->dog_cond);
    pthread_mutex_unlock(&e->job_lock);
    pthread_join(e->worker, NULL);
    pthread_join(e->watchdog, NULL);
    pthread_cond_destroy(&e->dog_cond);
    pthread_cond_destroy(&e->done_cond);
    pthread_cond_destroy(&e->job_cond);
    pthread_mutex_destroy(&e->job_lock);
    e->threads_live = 0;
}
#endif

int job_start(Session *e)
{
    atomic_store(&e->stop, 0);
    atomic_store(&e->done, 0);
    pthread_mutex_lock(&e->out_lock);
    e->answered = 0;
    e->pv_move[0] = '\0';
    e->pv_move2[0] = '\0';
    pthread_mutex_unlock(&e->out_lock);
    if (e->caps.sync_search) {
        if (e->job_kind == JOB_SOLVE) {
            e->job_limits.movetime = 0;
            e->job_limits.nodes = 200;
            job_run_here(e);
            return 0;
        }
        e->job_limits.infinite = 0;
        e->job_limits.movetime = 0;
        e->job_limits.time[0] = e->job_limits.time[1] = -1;
        e->job_limits.depth = 1;
        e->job_limits.nodes = 200;
        job_run_here(e);
        return 0;
    }
#ifdef UGI_NO_THREADS
    /* Nothing could send stop while it runs: refuse a job without an end. */
    if (e->job_unbounded) {
        free(e->job_keys);
        e->job_keys = NULL;
        return -2;
    }
    job_run_here(e);
    return 0;
#else
    if (threads_start(e) != 0) {
        free(e->job_keys);
        e->job_keys = NULL;
        return -1;
    }
    /* The watchdog answers for a late go; a solve has no bestmove. */
    int64_t soft, hard = -1;
    int stm = e->job_game->side_to_move(e->job_pos);
    if (e->job_kind == JOB_GO)
        timeman_budget(&e->job_limits, stm, search_move_overhead(e->search), &soft, &hard);
    pthread_mutex_lock(&e->job_lock);
    e->job_pending = 1;
    e->job_over = 0;
    e->answer_by = hard >= 0 ? e->job_limits.start_ms + hard + UGI_WATCHDOG_MS : -1;
    e->check_at = hard >= 2 * TIME_STARVE_MIN_MS ? e->job_limits.start_ms + hard / 2 : -1;
    watchdog_fixed(e, stm);
    e->cpu0_ms = worker_cpu_ms(e);
    pthread_cond_signal(&e->job_cond);
    pthread_cond_signal(&e->dog_cond);
    pthread_mutex_unlock(&e->job_lock);
    e->thread_live = 1;
    return 0;
#endif
}

static void search_join(Session *e)
{
#ifndef UGI_NO_THREADS
    if (e->thread_live) {
        pthread_mutex_lock(&e->job_lock);
        while (!e->job_over)
            pthread_cond_wait(&e->done_cond, &e->job_lock);
        pthread_mutex_unlock(&e->job_lock);
        e->thread_live = 0;
    }
#endif
    free(e->job_keys);
    e->job_keys = NULL;
    e->job_nkeys = 0;
}

int search_busy(Session *e)
{
    if (e->thread_live && atomic_load(&e->done))
        search_join(e);
    return e->thread_live;
}

void session_wait(Session *e)
{
    search_join(e);
}

void session_stop(Session *e)
{
    atomic_store(&e->stop, 1);
    search_join(e);
}

/* As Stockfish does, so piped scripts run in order. */
int refuse_if_busy(Session *e, const char *cmd)
{
    if (!search_busy(e))
        return 0;
    /* After stop the search ends within milliseconds: wait for it too. */
    if (!e->job_unbounded || atomic_load(&e->stop)) {
        search_join(e);
        return 0;
    }
    session_error(e, "%s: an infinite search is running; send stop first", cmd);
    return 1;
}

/* ------------------------------------------------------------------------ */
/* The Session                                                                */

/* The engine's notices (notice.h) as info string lines of the session. */
static void session_notice(void *ctx, const char *text)
{
    say((Session *)ctx, "info string %s", text);
}

Session *session_open(SessionWrite write, void *ctx, int color, const SessionCaps *caps)
{
    Session *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->write = write;
    e->write_ctx = ctx;
    e->color = color;
    pthread_mutex_init(&e->out_lock, NULL);
    if (caps)
        e->caps = *caps;
    else
        e->caps = (SessionCaps){0, 0, 1, 0, 0};
    e->game = game_list[0];
    game_options_default(&e->opt);
    past_init(&e->hist);
    e->search = search_new();
    char err[256];
    if (!e->search || e->game->init(e->pos, &e->opt, err, sizeof err) != 0) {
        if (e->search)
            search_free(e->search);
        pthread_mutex_destroy(&e->out_lock);
        free(e);
        return NULL;
    }
    atomic_init(&e->stop, 0);
    atomic_init(&e->done, 0);
    notice_set_sink(session_notice, e);
    return e;
}

Session *session_new(FILE *out, const SessionCaps *caps)
{
    int fd = fileno(out);
    return session_open(write_file, out, fd >= 0 && isatty(fd), caps);
}

void session_free(Session *e)
{
    if (!e)
        return;
    notice_clear_sink(e);
    session_stop(e);
#ifndef UGI_NO_THREADS
    threads_stop(e);
#endif
    search_free(e->search);
    past_free(&e->hist);
    free(e->root_moves);
    pthread_mutex_destroy(&e->out_lock);
    free(e);
}

int session_command(Session *e, const char *line)
{
    return session_input(e, line, strlen(line));
}

int session_is_command(const char *word)
{
    return command_handler(word) != NULL;
}

int session_input(Session *e, const char *line, size_t len)
{
    /* The instant the line was read: a go's clock starts here. */
    e->line_ms = time_now_ms();
    if (len > 0 && line[len - 1] == '\r')
        len--;
    if (len > UGI_LINE_MAX) {
        session_error(e, "line longer than %d bytes", UGI_LINE_MAX);
        return UGI_ERROR;
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        if ((c < 0x20 && c != '\t') || c == 0x7f) {
            session_error(e, "line holds a control byte 0x%02x at column %zu", c, i + 1);
            return UGI_ERROR;
        }
    }
    char *copy = malloc(len + 1);
    char **tok = malloc((len / 2 + 2) * sizeof *tok);
    if (!copy || !tok) {
        free(copy);
        free(tok);
        session_error(e, "out of memory");
        return UGI_ERROR;
    }
    memcpy(copy, line, len);
    copy[len] = '\0';
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(copy, " \t", &save); t; t = strtok_r(NULL, " \t", &save))
        tok[n++] = t;
    int rc = UGI_OK;
    if (n > 0) {
        Handler run = command_handler(tok[0]);
        if (run) {
            int errors = atomic_load(&e->errors);
            rc = run(e, tok, n);
            if (rc == UGI_OK && atomic_load(&e->errors) != errors)
                rc = UGI_ERROR;
        } else {
            char tmp[64];
            session_error(e, "unknown command '%s' (try help)", echo(tok[0], tmp, sizeof tmp));
            rc = UGI_ERROR;
        }
    }
    free(tok);
    free(copy);
    return rc;
}
