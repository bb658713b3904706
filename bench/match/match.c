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

#include "match_load.h"
#include "match_shard.h"
#include "stats.h"

volatile sig_atomic_t match_interrupted;

/* A finished game into the results file's list (lock held). */
static void keep_result(Match *m, const GameRecord *rec)
{
    if (!m->c->results[0] || m->results_failed)
        return;
    size_t len = 1;
    for (int i = 0; i < rec->nplies; i++)
        len += strlen(rec->plies[i].text) + 1;
    char *moves = malloc(len), *at = moves;
    if (!moves) {
        m->results_failed = 1;
        return;
    }
    *at = '\0';
    for (int i = 0; i < rec->nplies; i++)
        at += sprintf(at, "%s%s", i ? " " : "", rec->plies[i].text);
    ShardGame g = {.number = rec->number,
                   .p1 = rec->p1,
                   .result = rec->result,
                   .term = rec->term,
                   .forfeit = rec->forfeit,
                   .disagree = rec->disagree[0] != 0,
                   .nplies = rec->nplies,
                   .moves = moves};
    if (shard_add(&m->results, &g) != 0)
        m->results_failed = 1;
    free(moves);
}

static void *worker_main(void *arg)
{
    Worker *w = arg;
    Match *m = w->m;
    const MatchConfig *c = m->c;
    GameRecord recs[2];
    memset(recs, 0, sizeof recs);
    for (;;) {
        pthread_mutex_lock(&m->lock);
        /* A shard plays only its own pairs; with a results file every one
         * of them (the SPRT is judged on the merged totals). */
        while (m->next_pair < m->pairs_total && !shard_owns(c->shard_k, c->shard_n, m->next_pair))
            m->next_pair++;
        int stop = m->stop && !c->results[0];
        int k = (stop || match_interrupted || m->next_pair >= m->pairs_total) ? -1 : m->next_pair++;
        pthread_mutex_unlock(&m->lock);
        if (k < 0)
            break;
        for (int i = 0; i < 2 && 2 * k + i < c->games; i++) {
            GameRecord *rec = &recs[i];
            rec->number = 2 * k + i + 1;
            rec->round = k + 1;
            rec->p1 = i;
            rec->opening = m->nopenings ? m->openings[k % m->nopenings] : "startpos";
            play_game(m, w, rec);
            pthread_mutex_lock(&m->lock);
            /* A pair counts before its second game's progress line, so the
             * LLR that line shows is the one of every pair complete. */
            if (i == 1)
                pair_done(m, &recs[0], &recs[1]);
            game_done(m, rec);
            keep_result(m, rec);
            pthread_mutex_unlock(&m->lock);
        }
    }
    free(recs[0].plies);
    free(recs[1].plies);
    return NULL;
}

/* The results file of the match or shard (after the report). */
static int write_results(Match *m, char *err, size_t errlen)
{
    const MatchConfig *c = m->c;
    m->results.ident = shard_identity(c, m->openings, m->nopenings);
    m->results.k = c->shard_n ? c->shard_k : 1;
    m->results.n = c->shard_n ? c->shard_n : 1;
    m->results.games = c->games;
    if (!m->results.ident || m->results_failed) {
        snprintf(err, errlen, "%s: out of memory", c->results);
        return -1;
    }
    return shard_write(c->results, &m->results, term_names, TERM_COUNT, err, errlen);
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
    int own_pairs = 0;
    for (int k = 0; k < m.pairs_total; k++)
        own_pairs += shard_owns(c->shard_k, c->shard_n, k);
    int nworkers = c->concurrency < 1 ? 1 : c->concurrency;
    if (nworkers > own_pairs)
        nworkers = own_pairs > 0 ? own_pairs : 1;
    /* The busy processes first: no thread runs yet when they are forked. */
    Load load = {0};
    if (c->load > 0 && load_start(&load, c->load, err, errlen) != 0) {
        if (m.pgn)
            fclose(m.pgn);
        match_free_openings(m.openings, m.nopenings);
        free(c);
        return -1;
    }
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
        load_stop(&load);
        report(&m);
        if (c->results[0])
            rc = write_results(&m, err, errlen);
    }
    load_stop(&load);
    shard_free(&m.results);
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

/* --- --merge -------------------------------------------------------------------- */

int match_merge(const MatchConfig *cfg, FILE *out, MatchSummary *sum, char *err, size_t errlen)
{
    char **paths;
    int n;
    if (shard_expand(cfg->merge, cfg->nmerge, &paths, &n, err, errlen) != 0)
        return -1;
    ShardFile *files = calloc((size_t)(n > 0 ? n : 1), sizeof *files), all;
    MatchConfig *c = malloc(sizeof *c);
    int rc = files && c ? 0 : -1, nread = 0;
    if (rc != 0)
        snprintf(err, errlen, "out of memory");
    for (; rc == 0 && nread < n; nread++)
        rc = shard_read(paths[nread], &files[nread], term_names, TERM_COUNT, err, errlen);
    shard_free_paths(paths, n);
    if (rc == 0)
        rc = shard_join(files, nread, &all, err, errlen);
    for (int i = 0; i < nread; i++)
        shard_free(&files[i]);
    free(files);
    if (rc != 0) {
        free(c);
        return -1;
    }
    match_config_default(c);
    if (shard_config(all.ident, c, err, errlen) != 0) {
        shard_free(&all);
        free(c);
        return -1;
    }
    c->quiet = 1; /* no progress lines: the games are long over */
    Match m;
    memset(&m, 0, sizeof m);
    m.c = c;
    m.out = out;
    if (c->sprt)
        stats_sprt_bounds(c->alpha, c->beta, &m.sum.llr_lower, &m.sum.llr_upper);
    /* The games in their order, pairs as they complete: the report of the
     * whole match. */
    GameRecord rec[2];
    memset(rec, 0, sizeof rec);
    for (int i = 0; i < all.ngames; i++) {
        const ShardGame *g = &all.game[i];
        GameRecord *r = &rec[(g->number - 1) % 2];
        r->number = g->number;
        r->round = (g->number - 1) / 2 + 1;
        r->p1 = g->p1;
        r->result = g->result;
        r->term = g->term;
        r->forfeit = g->forfeit;
        snprintf(r->disagree, sizeof r->disagree, "%s", g->disagree ? "yes" : "");
        if (g->number % 2 == 0)
            pair_done(&m, &rec[0], &rec[1]);
        game_done(&m, r);
    }
    report(&m);
    if (cfg->results[0]) /* the whole match as one shard, 1/1 */
        rc = shard_write(cfg->results, &all, term_names, TERM_COUNT, err, errlen);
    shard_free(&all);
    free(c);
    if (sum)
        *sum = m.sum;
    return rc;
}
