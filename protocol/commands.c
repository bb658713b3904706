/*
 * commands.c -- the UGI commands: one handler each, found through the
 * table commands[].  A handler gets the line's tokens, parses everything
 * into local variables, and only then touches the Session, so a bad line
 * leaves the engine exactly as it was and prints exactly one error line.
 * (setoption's values are checked in options.c, bench is in bench.c.)
 */
#include "ugi_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "options.h"
#include "perft.h"
#include "search/timeman.h"
#include "search/units.h"

#define ENGINE_NAME "morelli"
#define ENGINE_AUTHOR "the morelli team"
/* Perft deeper than this is surely a typo. */
#define PERFT_MAX_DEPTH 64
/* solve's budget: by default, and the largest accepted. */
#define SOLVE_MOVETIME_DEFAULT 10000
#define SOLVE_MOVETIME_MAX 86400000 /* a day */
#define SOLVE_NODES_MAX 1000000000000000LL

/* ------------------------------------------------------------------------ */
/* Positions                                                                 */

int build_position(const Game *g, const GameOptions *o, char **tok, int n, Built *b, char *err,
                   size_t errlen)
{
    char tmp[64];
    int i = 0;
    if (n < 1) {
        snprintf(err, errlen, "position needs startpos or fen");
        return -1;
    }
    if (strcasecmp(tok[0], "startpos") == 0) {
        if (g->init(b->pos, o, err, errlen) != 0)
            return -1;
        i = 1;
    } else if (strcasecmp(tok[0], "fen") == 0) {
        char fen[FEN_MAX];
        size_t len = 0;
        for (i = 1; i < n && strcasecmp(tok[i], "moves") != 0; i++) {
            size_t tl = strlen(tok[i]);
            if (len + tl + 2 > sizeof fen) {
                snprintf(err, errlen, "FEN longer than %d characters", FEN_MAX - 1);
                return -1;
            }
            if (len)
                fen[len++] = ' ';
            memcpy(fen + len, tok[i], tl);
            len += tl;
        }
        fen[len] = '\0';
        if (len == 0) {
            snprintf(err, errlen, "position fen needs a FEN");
            return -1;
        }
        char why[256] = "";
        if (g->from_fen(b->pos, fen, o, why, sizeof why) != 0) {
            snprintf(err, errlen, "bad %s FEN: %s", g->name, why[0] ? why : "unreadable");
            return -1;
        }
    } else {
        snprintf(err, errlen, "position needs startpos or fen, not '%s'",
                 echo(tok[0], tmp, sizeof tmp));
        return -1;
    }
    if (i < n) {
        if (strcasecmp(tok[i], "moves") != 0) {
            snprintf(err, errlen, "unexpected '%s' after startpos", echo(tok[i], tmp, sizeof tmp));
            return -1;
        }
        i++;
    }
    unsigned char undo[UNDO_MAX_BYTES];
    for (int k = 1; i < n; i++, k++) {
        if (full_result(g, b->pos, &b->hist) != RESULT_NONE) {
            snprintf(err, errlen, "move %d '%s' comes after the end of the game", k,
                     echo(tok[i], tmp, sizeof tmp));
            return -1;
        }
        Move m = game_parse_move(g, b->pos, tok[i]);
        if (m == MOVE_NONE) {
            snprintf(err, errlen, "move %d '%s' is not a legal %s move", k,
                     echo(tok[i], tmp, sizeof tmp), g->name);
            return -1;
        }
        if (past_push(&b->hist, g->key(b->pos)) != 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        g->make(b->pos, m, undo);
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Commands                                                                  */

static int cmd_ugi_common(Session *e, const char *ok)
{
    say(e, "id name " ENGINE_NAME " %s", morelli_version());
    say(e, "id author " ENGINE_AUTHOR);
    list_options(e);
    say(e, "%s", ok);
    return UGI_OK;
}

static int cmd_ugi(Session *e, char **tok, int n)
{
    (void)tok;
    (void)n;
    return cmd_ugi_common(e, "ugiok");
}

static int cmd_uci(Session *e, char **tok, int n)
{
    (void)tok;
    (void)n;
    return cmd_ugi_common(e, "uciok");
}

/* A game with a solver prepares it (GameSolver.prepare: Fano builds its
 * tables, which can take longer than a fast move; Morris starts its endgame
 * tables' build in the background when the position is near them) while
 * the clock is not running (uginewgame, or isready with no search), once
 * per game.  The searches and `solve` prepare again before the first use. */
static void warm_up(Session *e)
{
    const Game *g = e->game;
    if (!g->solver || e->warm_game == g || search_busy(e))
        return;
    if (g->result(e->pos) != RESULT_NONE)
        return; /* prepared at the next isready with a game under way */
    if (g->solver->prepare)
        g->solver->prepare(e->pos);
    e->warm_game = g;
}

/* GameSolver.solve of pos, prepared first (its first use). */
static int game_solve(const Game *g, const void *pos, int *value, Move *best)
{
    if (g->solver->prepare)
        g->solver->prepare(pos);
    return g->solver->solve(pos, value, best);
}

static int cmd_isready(Session *e, char **tok, int n)
{
    (void)tok;
    (void)n;
    if (!e->caps.sync_search) {
        warm_up(e);
        if (!search_busy(e))
            search_prepare(e->search);
    }
    say(e, "readyok");
    return UGI_OK;
}

static int cmd_newgame(Session *e, char **tok, int n)
{
    (void)tok;
    (void)n;
    if (refuse_if_busy(e, "uginewgame"))
        return UGI_ERROR;
    search_clear(e->search);
    e->last_clock.valid = 0;
    if (!e->caps.sync_search) {
        warm_up(e);
        search_prepare(e->search);
    }
    return UGI_OK;
}

/* Joins tokens tok[from..to) with single spaces into buf; -1 if too long. */
static int join_tokens(char **tok, int from, int to, char *buf, size_t len)
{
    size_t j = 0;
    buf[0] = '\0';
    for (int i = from; i < to; i++) {
        size_t tl = strlen(tok[i]);
        if (j + tl + 2 > len)
            return -1;
        if (j)
            buf[j++] = ' ';
        memcpy(buf + j, tok[i], tl);
        j += tl;
        buf[j] = '\0';
    }
    return 0;
}

static int cmd_setoption(Session *e, char **tok, int n)
{
    char name[256], value[1024], err[256];
    int iname = -1, ivalue = -1;
    for (int i = 1; i < n; i++) {
        if (iname < 0 && strcasecmp(tok[i], "name") == 0)
            iname = i;
        else if (iname >= 0 && ivalue < 0 && strcasecmp(tok[i], "value") == 0)
            ivalue = i;
    }
    if (iname != 1 || iname + 1 >= (ivalue < 0 ? n : ivalue)) {
        session_error(e, "usage: setoption name <name> [value <value>]");
        return UGI_ERROR;
    }
    if (join_tokens(tok, iname + 1, ivalue < 0 ? n : ivalue, name, sizeof name) != 0 ||
        (ivalue >= 0 && join_tokens(tok, ivalue + 1, n, value, sizeof value) != 0)) {
        session_error(e, "setoption: name or value too long");
        return UGI_ERROR;
    }
    if (refuse_if_busy(e, "setoption"))
        return UGI_ERROR;

    GameSetting gs = {e->game, e->opt};
    /* First a dry run (no Search) so a bad value changes nothing. */
    int kind = apply_option(&gs, NULL, &e->caps, name, ivalue >= 0 ? value : NULL, err, sizeof err);
    if (kind < 0) {
        session_error(e, "%s", err);
        return UGI_ERROR;
    }
    if (kind == 3)
        return session_option_set(e, name, ivalue >= 0 ? value : NULL);
    if (kind == 2) {
        if (apply_option(&gs, e->search, &e->caps, name, ivalue >= 0 ? value : NULL, err,
                         sizeof err) < 0) {
            session_error(e, "%s", err);
            return UGI_ERROR;
        }
        return UGI_OK;
    }
    /* A game option: the game's start position under the new options. */
    unsigned char pos[POS_MAX_BYTES];
    char why[256] = "";
    if (gs.game->init(pos, &gs.opt, why, sizeof why) != 0) {
        session_error(e, "%s: %s", gs.game->name, why[0] ? why : "cannot set up these options");
        return UGI_ERROR;
    }
    e->game = gs.game;
    e->opt = gs.opt;
    memcpy(e->pos, pos, gs.game->pos_size);
    past_clear(&e->hist);
    warm_up_early(e);
    return UGI_OK;
}

static int cmd_position(Session *e, char **tok, int n)
{
    Built b;
    char err[512];
    past_init(&b.hist);
    if (build_position(e->game, &e->opt, tok + 1, n - 1, &b, err, sizeof err) != 0) {
        past_free(&b.hist);
        session_error(e, "%s", err);
        return UGI_ERROR;
    }
    memcpy(e->pos, b.pos, e->game->pos_size);
    past_free(&e->hist);
    e->hist = b.hist;
    return UGI_OK;
}

static void perft_line(void *ctx, const char *line)
{
    say((Session *)ctx, "%s", line);
}

static int do_perft(Session *e, const char *arg, const char *cmd)
{
    int64_t depth;
    char tmp[64];
    int cap = e->caps.max_perft > 0 ? e->caps.max_perft : PERFT_MAX_DEPTH;
    if (!arg || parse_i64(arg, &depth) != 0 || depth < 0 || depth > cap) {
        session_error(e, "%s needs a depth in 0..%d%s%s", cmd, cap, arg ? ", not " : "",
                      arg ? echo(arg, tmp, sizeof tmp) : "");
        return UGI_ERROR;
    }
    if (refuse_if_busy(e, cmd))
        return UGI_ERROR;
    unsigned char pos[POS_MAX_BYTES];
    memcpy(pos, e->pos, e->game->pos_size);
    perft_divide(e->game, pos, (int)depth, 1, perft_line, e);
    return UGI_OK;
}

static int cmd_perft(Session *e, char **tok, int n)
{
    if (n > 2) {
        session_error(e, "usage: perft <depth>");
        return UGI_ERROR;
    }
    return do_perft(e, n > 1 ? tok[1] : NULL, "perft");
}

/* The job's copy of the game, its options, the position and the history
 * keys, for a job of kind JOB_*: 0, or -1 when out of memory. */
int job_copy(Session *e, int kind)
{
    Key *keys = NULL;
    if (e->hist.len > 0) {
        keys = malloc((size_t)e->hist.len * sizeof *keys);
        if (!keys)
            return -1;
        memcpy(keys, e->hist.keys, (size_t)e->hist.len * sizeof *keys);
    }
    e->job_kind = kind;
    e->job_game = e->game;
    e->job_opt = e->opt;
    memcpy(e->job_pos, e->pos, e->game->pos_size);
    e->job_keys = keys;
    e->job_nkeys = e->hist.len;
    return 0;
}

/* The lag of the clocks (timeman_lag_update): a go with a clock for the side
 * to move two plies after the last one's, in the same game, is a sample;
 * any other go starts afresh (the learned lag stays: it is the machine's). */
static void learn_lag(Session *e, SearchLimits *lim, int stm)
{
    int has = stm >= 0 && stm <= 1 && lim->time[stm] >= 0;
    if (has && e->last_clock.valid && e->last_clock.side == stm &&
        e->hist.len == e->last_clock.nkeys + 2) {
        pthread_mutex_lock(&e->out_lock);
        int64_t answered = e->answer_ms;
        pthread_mutex_unlock(&e->out_lock);
        if (answered >= e->last_clock.go_ms)
            e->lag_ms = timeman_lag_update(e->lag_ms, e->last_clock.left, e->last_clock.inc,
                                           lim->time[stm], answered - e->last_clock.go_ms);
    }
    e->last_clock.valid = has;
    if (has) {
        e->last_clock.side = stm;
        e->last_clock.nkeys = e->hist.len;
        e->last_clock.left = lim->time[stm];
        e->last_clock.inc = lim->inc[stm];
        e->last_clock.go_ms = e->line_ms;
        lim->lag_ms = e->lag_ms;
    }
}

static int cmd_go(Session *e, char **tok, int n)
{
    if (n >= 2 && strcasecmp(tok[1], "perft") == 0) {
        if (n > 3) {
            session_error(e, "usage: go perft <depth>");
            return UGI_ERROR;
        }
        return do_perft(e, n > 2 ? tok[2] : NULL, "go perft");
    }
    SearchLimits lim;
    char why[256];
    int ponder = go_take_ponder(tok, &n);
    int problems = go_parse(tok, n, &lim, why, sizeof why);
    if (refuse_if_busy(e, "go"))
        return UGI_ERROR;
    problems += go_searchmoves(e, tok, n, &lim, why, sizeof why);
    /* What could not be used is said, and the search runs without it. */
    int rc = UGI_OK;
    if (problems > 0) {
        session_error(e, "go: %s", why);
        rc = UGI_ERROR;
    }

    /* A finished game or no legal move: nothing to search. */
    int nm;
    Move *moves = legal_moves(e->game, e->pos, &nm);
    free(moves);
    if (nm <= 0 || full_result(e->game, e->pos, &e->hist) != RESULT_NONE) {
        say(e, "bestmove 0000");
        return rc;
    }

    if (job_copy(e, JOB_GO) != 0) {
        session_error(e, "go: out of memory");
        return UGI_ERROR;
    }
    lim.start_ms = e->line_ms;
    int stm = e->game->side_to_move(e->pos);
    learn_lag(e, &lim, stm);
    learn_late(e, &lim, stm);
    e->pondering = 0;
    if (ponder)
        ponder_begin(e, &lim);
    e->job_limits = lim;
    e->job_unbounded = !timeman_bounded(&lim);
    if (timeman_clock_missing(&lim, stm)) {
        int64_t soft, hard;
        timeman_budget(&lim, stm, search_move_overhead(e->search), &soft, &hard);
        say(e,
            "info string go: no clock for %s (the side to move): searching at most %" PRId64 " ms",
            stm == SIDE_P1 ? "p1" : "p2", hard);
    }
    go_debug_start(e, &lim);
    int started = job_start(e);
    if (started != 0) {
        session_error(e, "go: %s",
                      started == -2 ? "no search thread here; give depth, nodes, "
                                      "movetime or a clock"
                                    : "cannot start the search thread");
        return UGI_ERROR;
    }
    return rc;
}

static int cmd_stop(Session *e, char **tok, int n)
{
    (void)tok;
    (void)n;
    atomic_store(&e->stop, 1);
    return UGI_OK;
}

static int cmd_quit(Session *e, char **tok, int n)
{
    (void)tok;
    (void)n;
    session_stop(e);
    return UGI_QUIT;
}

static int cmd_query(Session *e, char **tok, int n)
{
    if (n != 2) {
        session_error(e, "usage: query p1turn|gameover|result");
        return UGI_ERROR;
    }
    int r = full_result(e->game, e->pos, &e->hist);
    if (strcasecmp(tok[1], "p1turn") == 0)
        say(e, "response %s", e->game->side_to_move(e->pos) == SIDE_P1 ? "true" : "false");
    else if (strcasecmp(tok[1], "gameover") == 0)
        say(e, "response %s", r != RESULT_NONE ? "true" : "false");
    else if (strcasecmp(tok[1], "result") == 0)
        say(e, "response %s", result_word(r));
    else {
        char tmp[64];
        session_error(e, "query: unknown question '%s'", echo(tok[1], tmp, sizeof tmp));
        return UGI_ERROR;
    }
    return UGI_OK;
}

static int cmd_d(Session *e, char **tok, int n)
{
    (void)tok;
    if (n > 1) {
        session_error(e, "usage: d");
        return UGI_ERROR;
    }
    char fen[FEN_MAX];
    e->game->to_fen(e->pos, fen, sizeof fen);
    int r = full_result(e->game, e->pos, &e->hist);
    /* The game prints to a FILE: collect it, then send it as lines. */
    char *text = NULL, opts[256];
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f) {
        session_error(e, "d: out of memory");
        return UGI_ERROR;
    }
    e->game->print(e->pos, f, e->color);
    game_options_describe(e->game, &e->opt, opts, sizeof opts);
    fprintf(f, "Variant: %s\n", e->game->name);
    fprintf(f, "Options: %s\n", opts[0] ? opts : "none");
    fprintf(f, "History: %d earlier positions\n", e->hist.len);
    fprintf(f, "Fen: %s\n", fen);
    fprintf(f, "Key: %016" PRIX64 "\n", (uint64_t)e->game->key(e->pos));
    fprintf(f, "Side to move: %s\n", e->game->side_to_move(e->pos) == SIDE_P1 ? "p1" : "p2");
    if (r != RESULT_NONE)
        fprintf(f, "Result: %s\n", result_word(r));
    if (fclose(f) != 0 || !text) {
        free(text);
        session_error(e, "d: out of memory");
        return UGI_ERROR;
    }
    say_text(e, text);
    free(text);
    return UGI_OK;
}

static int cmd_moves(Session *e, char **tok, int n)
{
    (void)tok;
    if (n > 1) {
        session_error(e, "usage: moves");
        return UGI_ERROR;
    }
    int nm = 0;
    Move *moves = NULL;
    if (full_result(e->game, e->pos, &e->hist) == RESULT_NONE)
        moves = legal_moves(e->game, e->pos, &nm);
    size_t cap = (size_t)(nm > 0 ? nm : 1) * MOVE_STR_MAX + 1, len = 0;
    char *line = malloc(cap);
    if (!line) {
        free(moves);
        session_error(e, "moves: out of memory");
        return UGI_ERROR;
    }
    line[0] = '\0';
    for (int i = 0; i < nm; i++) {
        char text[MOVE_STR_MAX];
        game_move_str(e->game, e->pos, moves[i], text, sizeof text);
        len += (size_t)snprintf(line + len, cap - len, "%s%s", i ? " " : "", text);
    }
    say(e, "%s", line);
    free(line);
    free(moves);
    return UGI_OK;
}

/* Value text of a solve() value. */
static void value_text(int v, char *buf, size_t len)
{
    if (v != 0 && units_value_plies(v) >= VALUE_FAR_PLIES)
        snprintf(buf, len, "%s, distance unknown", v > 0 ? "win" : "loss");
    else if (v > 0)
        snprintf(buf, len, "win in %d plies", units_value_plies(v));
    else if (v < 0)
        snprintf(buf, len, "loss in %d plies", units_value_plies(v));
    else
        snprintf(buf, len, "draw");
}

/* Value text of a search_solve() value in state SOLVE_*. */
static void solved_text(int state, int v, char *buf, size_t len)
{
    if (state == SOLVE_EXACT)
        value_text(v, buf, len);
    else if (state == SOLVE_SIGN)
        snprintf(buf, len, "%s, distance unknown", v > 0 ? "win" : v < 0 ? "loss" : "draw");
    else
        snprintf(buf, len, "unknown");
}

/* The game's own solver (Fano, Morris's tables): at once, in the caller. */
static int solve_by_game(Session *e)
{
    const Game *g = e->game;
    int value;
    Move best;
    unsigned char pos[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    memcpy(pos, e->pos, g->pos_size);
    if (!game_solve(g, pos, &value, &best)) {
        session_error(e, "solve: the value of this position is unknown");
        return UGI_ERROR;
    }
    char text[MOVE_STR_MAX], vt[64];
    value_text(value, vt, sizeof vt);
    game_move_str(g, pos, best, text, sizeof text);
    say(e, "Value: %s", vt);
    say(e, "Best: %s", text);
    int nm;
    Move *moves = legal_moves(g, pos, &nm);
    int me = g->side_to_move(pos);
    for (int i = 0; i < nm; i++) {
        game_move_str(g, pos, moves[i], text, sizeof text);
        g->make(pos, moves[i], undo);
        int cv;
        Move cb;
        int child_r = g->result(pos);
        int known = 1;
        if (child_r != RESULT_NONE) {
            cv = units_value_back(units_result_value(child_r, me), 0);
        } else if (g->solver->solve(pos, &cv, &cb)) { /* prepared above */
            cv = units_value_back(cv, g->side_to_move(pos) != me);
        } else {
            known = 0;
            cv = 0;
        }
        g->unmake(pos, moves[i], undo);
        if (known)
            value_text(cv, vt, sizeof vt);
        else
            snprintf(vt, sizeof vt, "unknown");
        say(e, "%s: %s", text, vt);
    }
    free(moves);
    return UGI_OK;
}

void solve_run(Session *e, char *line, size_t len)
{
    const Game *g = e->job_game;
    SolveReport r;
    memset(&r, 0, sizeof r);
    r.moves = malloc((size_t)g->max_moves * sizeof *r.moves);
    char *text = NULL;
    size_t size = 0;
    FILE *f = NULL;
    line[0] = '\0';
    if (!r.moves ||
        search_solve(e->search, g, e->job_pos, &e->job_opt, e->job_keys, e->job_nkeys,
                     &e->job_limits, &e->stop, &r) != 0 ||
        !(f = open_memstream(&text, &size))) {
        free(r.moves);
        session_error(e, "solve: out of memory");
        return;
    }
    char mt[MOVE_STR_MAX], vt[64];
    int unknown = 0, sign = 0;
    solved_text(r.state, r.value, vt, sizeof vt);
    game_move_str(g, e->job_pos, r.best, mt, sizeof mt);
    fprintf(f, "Value: %s\nBest: %s\n", vt, mt);
    for (int i = 0; i < r.n; i++) {
        const SolveMove *m = &r.moves[i];
        unknown += m->state == SOLVE_UNKNOWN;
        sign += m->state == SOLVE_SIGN;
        game_move_str(g, e->job_pos, m->move, mt, sizeof mt);
        solved_text(m->state, m->value, vt, sizeof vt);
        fprintf(f, "%s: %s\n", mt, vt);
    }
    free(r.moves);
    if (fclose(f) != 0 || !text) {
        free(text);
        session_error(e, "solve: out of memory");
        return;
    }
    say_text(e, text);
    free(text);
    if (r.ended == SOLVE_END_DONE) {
        snprintf(line, len,
                 "info string solve: exact values of %d moves, %" PRIu64 " nodes, %" PRId64 " ms",
                 r.n, r.nodes, r.time_ms);
        return;
    }
    char why[96];
    const SearchLimits *l = &e->job_limits;
    if (r.ended == SOLVE_END_STOPPED)
        snprintf(why, sizeof why, "stopped");
    else if (r.ended == SOLVE_END_DEEP)
        snprintf(why, sizeof why, "lines too long for the solver");
    else if (l->movetime > 0 && l->nodes > 0)
        snprintf(why, sizeof why, "not solvable in %" PRId64 " ms and %" PRIu64 " nodes",
                 l->movetime, l->nodes);
    else if (l->nodes > 0)
        snprintf(why, sizeof why, "not solvable in %" PRIu64 " nodes", l->nodes);
    else
        snprintf(why, sizeof why, "not solvable in %" PRId64 " ms", l->movetime);
    snprintf(line, len,
             "info string solve: %s: %d of %d moves unknown, %d without their "
             "distance; %" PRIu64 " nodes, %" PRId64 " ms",
             why, unknown, r.n, sign, r.nodes, r.time_ms);
}

static int cmd_solve(Session *e, char **tok, int n)
{
    const Game *g = e->game;
    char tmp[64];
    int64_t movetime = 0, nodes = 0;
    for (int i = 1; i < n; i += 2) {
        int is_time = strcasecmp(tok[i], "movetime") == 0;
        if (!is_time && strcasecmp(tok[i], "nodes") != 0) {
            session_error(e,
                          "solve: unknown parameter '%s' (usage: solve [movetime <ms>] "
                          "[nodes <n>])",
                          echo(tok[i], tmp, sizeof tmp));
            return UGI_ERROR;
        }
        int64_t v, max = is_time ? SOLVE_MOVETIME_MAX : SOLVE_NODES_MAX;
        if (i + 1 >= n || parse_i64(tok[i + 1], &v) != 0 || v < 1 || v > max) {
            session_error(e, "solve: %s needs an integer in 1..%" PRId64 "%s%s", tok[i], max,
                          i + 1 < n ? ", not " : "",
                          i + 1 < n ? echo(tok[i + 1], tmp, sizeof tmp) : "");
            return UGI_ERROR;
        }
        *(is_time ? &movetime : &nodes) = v;
    }
    if (!g->solver && !(g->search && g->search->plies_left)) {
        session_error(e, "solve: %s has no solver", g->name);
        return UGI_ERROR;
    }
    if (refuse_if_busy(e, "solve"))
        return UGI_ERROR;
    int r = full_result(g, e->pos, &e->hist);
    if (r != RESULT_NONE) {
        say(e, "Result: %s", result_word(r));
        return UGI_OK;
    }
    if (g->solver)
        return solve_by_game(e);
    /* Solved by search, on the search thread: stop, isready and quit are
     * answered meanwhile. */
    if (job_copy(e, JOB_SOLVE) != 0) {
        session_error(e, "solve: out of memory");
        return UGI_ERROR;
    }
    SearchLimits lim;
    search_limits_init(&lim);
    lim.movetime = movetime || nodes ? movetime : SOLVE_MOVETIME_DEFAULT;
    lim.nodes = (uint64_t)nodes;
    lim.start_ms = e->line_ms;
    e->job_limits = lim;
    e->job_unbounded = 0;
    if (job_start(e) != 0) {
        session_error(e, "solve: cannot start the search thread");
        return UGI_ERROR;
    }
    return UGI_OK;
}

static int cmd_help(Session *e, char **tok, int n)
{
    (void)tok;
    (void)n;
    static const char *const lines[] = {
        "morelli speaks UGI (and UCI). Commands:",
        "  ugi | uci                      identify, list options, ugiok/uciok",
        "  isready                        readyok",
        "  setoption name <N> value <V>   set an option (names case-insensitive)",
        "  uginewgame | ucinewgame        forget search memory",
        "  position startpos|fen <fen> [moves <m>...]",
        "  go [p1time p2time p1inc p2inc wtime btime winc binc movestogo",
        "     movetime depth nodes <n>] [infinite] [ponder]   search, then bestmove",
        "  ponderhit                      the ponder move was played: search on the clock",
        "  go perft <n> | perft <n>       leaf counts per move",
        "  stop | quit                    stop the search / leave",
        "  query p1turn|gameover|result   response ...",
        "  d                              show the position",
        "  moves                          legal moves",
        "  bench [depth]                  fixed search of the bench positions",
        "  solve [movetime <ms>] [nodes <n>]",
        "                                 exact value of every move (Fano, Morris",
        "                                 tables, Morelli endings; 10 s by default)",
        "  debug on|off                   extra info string lines",
        "  help                           this text",
        "Command line: morelli [--Name=Value ...] [command words ...]",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        say(e, "%s", lines[i]);
    return UGI_OK;
}

typedef struct Command {
    const char *name;
    Handler run;
} Command;

static const Command commands[] = {
    {"ugi", cmd_ugi},
    {"uci", cmd_uci},
    {"isready", cmd_isready},
    {"setoption", cmd_setoption},
    {"uginewgame", cmd_newgame},
    {"ucinewgame", cmd_newgame},
    {"position", cmd_position},
    {"go", cmd_go},
    {"stop", cmd_stop},
    {"ponderhit", cmd_ponderhit},
    {"quit", cmd_quit},
    {"query", cmd_query},
    {"d", cmd_d},
    {"moves", cmd_moves},
    {"perft", cmd_perft},
    {"bench", cmd_bench},
    {"solve", cmd_solve},
    {"help", cmd_help},
    {"debug", cmd_debug},
};
#define COMMAND_COUNT ((int)(sizeof commands / sizeof commands[0]))

Handler command_handler(const char *word)
{
    for (int i = 0; i < COMMAND_COUNT; i++)
        if (strcmp(word, commands[i].name) == 0)
            return commands[i].run;
    return NULL;
}
