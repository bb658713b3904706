/*
 * ponder.c -- what the protocol does about time beyond the go words:
 * pondering (`go ponder`, `ponderhit`, the Ponder option), the lateness of
 * fixed movetimes learned from the answers, and the early preparation of a
 * game's solver when the game is chosen.
 */
#include "ugi_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "options.h"
#include "search/timeman.h"

#ifndef UGI_NO_THREADS
/* The start positions the early preparations read, one a game, started
 * once a process: the tables are the process's. */
static unsigned char early_pos[16][POS_MAX_BYTES];
static atomic_int early_started[16];

static void *warm_early_main(void *arg)
{
    const Game *g = arg;
    for (int i = 0; i < game_count && i < 16; i++)
        if (game_list[i] == g)
            g->solver->prepare(early_pos[i]);
    return NULL;
}
#endif

/* The game just chosen prepares its solver at once, in a thread of its own
 * (Fano's tables take about half a second of CPU): a GUI that sends go
 * without isready finds them built, or its search waits for the build
 * (GameSolver.prepare blocks until the tables are there) and never searches
 * beside it; past the budget the watchdog answers.  isready still prepares,
 * and so waits for the build to end. */
void warm_up_early(Session *e)
{
#ifndef UGI_NO_THREADS
    const Game *g = e->game;
    if (!g->solver || !g->solver->prepare || e->caps.sync_search)
        return;
    for (int i = 0; i < game_count && i < 16; i++) {
        if (game_list[i] != g || atomic_exchange(&early_started[i], 1))
            continue;
        char why[128];
        pthread_t th;
        pthread_attr_t at;
        if (g->init(early_pos[i], &e->opt, why, sizeof why) != 0)
            return;
        pthread_attr_init(&at);
        pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
        if (pthread_create(&th, &at, warm_early_main, (void *)g) != 0)
            atomic_store(&early_started[i], 0);
        pthread_attr_destroy(&at);
    }
#else
    (void)e;
#endif
}

/* The lateness of fixed movetimes (timeman_late_update): the answer to the
 * last one, when it ran to its deadline, is a sample; the lateness learned
 * is the machine's and survives uginewgame. */
void learn_late(Session *e, SearchLimits *lim, int stm)
{
    if (e->last_fixed.valid) {
        pthread_mutex_lock(&e->out_lock);
        int64_t own = e->answer_ms - e->last_fixed.go_ms;
        pthread_mutex_unlock(&e->out_lock);
        if (own >= e->last_fixed.planned)
            e->late_ms = timeman_late_update(e->late_ms, e->last_fixed.planned, own);
    }
    lim->late_ms = e->late_ms;
    int64_t overhead = search_move_overhead(e->search), soft;
    e->last_fixed.valid = timeman_fixed(lim, stm, overhead);
    if (e->last_fixed.valid) {
        timeman_budget(lim, stm, overhead, &soft, &e->last_fixed.planned);
        e->last_fixed.go_ms = e->line_ms;
    }
}

/* ------------------------------------------------------------------------ */
/* Pondering                                                                 */

int go_take_ponder(char **tok, int *n)
{
    int found = 0, k = 1;
    for (int i = 1; i < *n; i++) {
        if (strcasecmp(tok[i], "ponder") == 0)
            found = 1;
        else
            tok[k++] = tok[i];
    }
    *n = k;
    return found;
}

void ponder_begin(Session *e, SearchLimits *lim)
{
    e->ponder_limits = *lim;
    int64_t start = lim->start_ms;
    search_limits_init(lim);
    lim->infinite = 1;
    lim->start_ms = start;
    e->pondering = 1;
    /* The time a ponder search takes is not the engine's own: no sample of
     * the clocks' lag or of the movetimes' lateness comes from it. */
    e->last_clock.valid = 0;
    e->last_fixed.valid = 0;
}

int cmd_ponderhit(Session *e, char **tok, int n)
{
    (void)tok;
    if (n != 1) {
        session_error(e, "usage: ponderhit");
        return UGI_ERROR;
    }
    if (!e->pondering || !search_busy(e) || atomic_load(&e->stop)) {
        session_error(e, "ponderhit: no ponder search is running");
        return UGI_ERROR;
    }
    /* The ponder search ends unheard; the same position is searched again
     * under the go's limits, counted from now, with the table it filled. */
    pthread_mutex_lock(&e->out_lock);
    e->hush = 1;
    pthread_mutex_unlock(&e->out_lock);
    session_stop(e);
    pthread_mutex_lock(&e->out_lock);
    e->hush = 0;
    pthread_mutex_unlock(&e->out_lock);
    e->pondering = 0;
    SearchLimits lim = e->ponder_limits;
    lim.start_ms = e->line_ms;
    if (job_copy(e, JOB_GO) != 0) {
        session_error(e, "ponderhit: out of memory");
        return UGI_ERROR;
    }
    e->job_limits = lim;
    e->job_unbounded = !timeman_bounded(&lim);
    int started = job_start(e);
    if (started != 0) {
        session_error(e, "ponderhit: %s",
                      started == -2 ? "no search thread here" : "cannot start the search thread");
        return UGI_ERROR;
    }
    return UGI_OK;
}

const char *ponder_suffix(Session *e, const char *move, char *buf, size_t len)
{
    buf[0] = '\0';
    if (e->ponder_opt && e->pv_move2[0] && strcmp(move, e->pv_move) == 0)
        snprintf(buf, len, " ponder %s", e->pv_move2);
    return buf;
}

int session_option_set(Session *e, const char *name, const char *value)
{
    int64_t v = 0;
    char err[128];
    const Option *o = option_find(session_options, session_option_count, name);
    if (!o || option_parse(o, value, 0, &v, err, sizeof err) != 0) {
        session_error(e, "%s", o ? err : "unknown option");
        return UGI_ERROR;
    }
    if (strcasecmp(o->name, "Ponder") == 0)
        e->ponder_opt = (int)v;
    else
        e->show_wdl = (int)v;
    return UGI_OK;
}
