/*
 * match.c -- the match runner's scheduler (see match.h; the other files of
 * the runner are listed in match_internal.h).
 *
 * Work is handed out by colour-swapped pairs: a worker thread takes the next
 * pair index k, plays game 2k with the first engine as p1 and game 2k+1 with
 * the second engine as p1, both from opening k (cycling through the file).
 * Each worker owns one process of each engine and keeps it between games;
 * an engine that crashed, was killed for overrunning its time or did not
 * answer is started afresh before the next game.  Results, the game record
 * file and the progress line are shared under one mutex.
 */
#include "match_internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "stats.h"

volatile sig_atomic_t match_interrupted;

static void *worker_main(void *arg)
{
    Worker *w = arg;
    Match *m = w->m;
    const MatchConfig *c = m->c;
    GameRecord recs[2];
    memset(recs, 0, sizeof recs);
    for (;;) {
        pthread_mutex_lock(&m->lock);
        int k = (m->stop || match_interrupted || m->next_pair >= m->pairs_total) ? -1
                                                                            : m->next_pair++;
        pthread_mutex_unlock(&m->lock);
        if (k < 0)
            break;
        int played = 0;
        for (int i = 0; i < 2 && 2 * k + i < c->games; i++) {
            GameRecord *rec = &recs[i];
            rec->number = 2 * k + i + 1;
            rec->round = k + 1;
            rec->p1 = i;
            rec->opening = m->nopenings ? m->openings[k % m->nopenings] : "startpos";
            play_game(m, w, rec);
            pthread_mutex_lock(&m->lock);
            game_done(m, rec);
            pthread_mutex_unlock(&m->lock);
            played++;
        }
        if (played == 2) {
            pthread_mutex_lock(&m->lock);
            pair_done(m, &recs[0], &recs[1]);
            pthread_mutex_unlock(&m->lock);
        }
    }
    free(recs[0].plies);
    free(recs[1].plies);
    return NULL;
}

/* Engines named after their command take the name they give themselves. */
static void names_from_engines(MatchConfig *c, const Player players[2])
{
    for (int e = 0; e < 2; e++)
        if (c->engines[e].name_auto && players[e].id_name[0])
            match_str_copy(c->engines[e].name, sizeof c->engines[e].name, players[e].id_name);
    match_unique_names(c);
}

int match_run(const MatchConfig *cfg, FILE *out, MatchSummary *sum, char *err, size_t errlen)
{
    Match m;
    memset(&m, 0, sizeof m);
    /* A copy: the engines' names may change once they introduce themselves. */
    MatchConfig *c = malloc(sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    *c = *cfg;
    m.c = c;
    m.out = out;
    m.tty = isatty(fileno(out));
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(m.date, sizeof m.date, "%Y.%m.%d", &tm);
    if (c->games <= 0) {
        snprintf(err, errlen, "no games to play");
        free(c);
        return -1;
    }
    if (c->openings[0]) {
        m.nopenings = match_read_openings(c->openings, c->game, &c->game_opt, &m.openings, err,
                                          errlen);
        if (m.nopenings <= 0) {
            if (m.nopenings == 0)
                snprintf(err, errlen, "%s: no openings in the file", c->openings);
            match_free_openings(m.openings, 0);
            free(c);
            return -1;
        }
        if (c->shuffle) { /* Fisher-Yates, reproducible from the seed */
            uint64_t rng = c->seed;
            for (int i = m.nopenings - 1; i > 0; i--) {
                int j = (int)rng_below(&rng, (uint32_t)i + 1);
                char *t = m.openings[i];
                m.openings[i] = m.openings[j];
                m.openings[j] = t;
            }
        }
    } else {
        /* The start position must be valid for the options. */
        unsigned char pos[POS_MAX_BYTES];
        char why[256];
        if (c->game->init(pos, &c->game_opt, why, sizeof why) != 0) {
            snprintf(err, errlen, "%s: %s", c->game->name, why);
            free(c);
            return -1;
        }
    }
    if (c->pgnout[0]) {
        m.pgn = fopen(c->pgnout, "a");
        if (!m.pgn) {
            snprintf(err, errlen, "%s: cannot open for writing", c->pgnout);
            match_free_openings(m.openings, m.nopenings);
            free(c);
            return -1;
        }
    }
    m.pairs_total = (c->games + 1) / 2;
    int nworkers = c->concurrency < 1 ? 1 : c->concurrency;
    if (nworkers > m.pairs_total)
        nworkers = m.pairs_total;
    Worker *workers = calloc((size_t)nworkers, sizeof *workers);
    int rc = workers ? 0 : -1;
    if (!workers)
        snprintf(err, errlen, "out of memory");
    /* Start every engine before the first game, so a wrong command or
     * option stops the match at once with its reason. */
    for (int i = 0; i < nworkers && rc == 0; i++) {
        workers[i].m = &m;
        for (int e = 0; e < 2 && rc == 0; e++) {
            player_init(&workers[i].players[e]);
            if (player_start(c, &workers[i].players[e], e, err, errlen) != 0)
                rc = -1;
        }
    }
    if (rc == 0)
        names_from_engines(c, workers[0].players);
    if (rc == 0 && c->sprt)
        stats_sprt_bounds(c->alpha, c->beta, &m.sum.llr_lower, &m.sum.llr_upper);
    int started = 0;
    if (rc == 0) {
        pthread_mutex_init(&m.lock, NULL);
        for (; started < nworkers; started++)
            if (pthread_create(&workers[started].thread, NULL, worker_main, &workers[started]) != 0)
                break;
        if (started == 0)
            worker_main(&workers[0]); /* no thread at all: play here */
        for (int i = 0; i < started; i++)
            pthread_join(workers[i].thread, NULL);
        pthread_mutex_destroy(&m.lock);
        report(&m);
    }
    for (int i = 0; workers && i < nworkers; i++)
        for (int e = 0; e < 2; e++)
            engine_proc_quit(&workers[i].players[e].proc, 1000);
    free(workers);
    if (m.pgn)
        fclose(m.pgn);
    match_free_openings(m.openings, m.nopenings);
    free(c);
    if (sum)
        *sum = m.sum;
    return rc;
}
