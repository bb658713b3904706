/*
 * search.c -- the front of the searchers: options, the Search object, the
 * solved-game shortcut, the random player and the dispatch to alpha-beta
 * (ab.c) or MCTS (mcts.c).  Calls go one way: search.c -> ab.c, mcts.c ->
 * score.c (what they share); nothing below calls back up.
 */
#include "search.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "notice.h"
#include "past.h"
#include "search_internal.h"
#include "skill.h"

#define HASH_DEFAULT_MB 64

static const char *const algo_names[] = {"alphabeta", "mcts", "random", NULL};
static const char *const policy_names[] = {"full", "plain", NULL};

/* The values follow ALGO_* and MCTS_POLICY_*. */
const Option search_options[] = {
    {"Search", OPTION_COMBO, ALGO_ALPHABETA, 0, 0, algo_names, NULL, 0},
    {"Hash", OPTION_SPIN, HASH_DEFAULT_MB, 1, 65536, NULL, NULL, 0},
    {"Threads", OPTION_SPIN, 1, 1, 64, NULL, NULL, 0},
    {"MCTSPolicy", OPTION_COMBO, MCTS_POLICY_FULL, 0, 0, policy_names, NULL, 0},
    {"MCTSExplore", OPTION_SPIN, 50, 1, 1000, NULL, NULL, 0},
    {"MCTSPlayoutCap", OPTION_SPIN, 200, 10, 10000, NULL, NULL, 0},
    {"MoveOverhead", OPTION_SPIN, 10, 0, 5000, NULL, NULL, 0},
    {"MultiPV", OPTION_SPIN, 1, 1, MULTIPV_MAX, NULL, NULL, 0},
    {"Skill Level", OPTION_SPIN, SKILL_MAX, 0, SKILL_MAX, NULL, NULL, 0},
    {"UCI_LimitStrength", OPTION_CHECK, 0, 0, 1, NULL, NULL, 0},
    {"UCI_Elo", OPTION_SPIN, SKILL_ELO_MAX, SKILL_ELO_MIN, SKILL_ELO_MAX, NULL, NULL, 0},
    {"SkillSeed", OPTION_SPIN, 0, 0, 2147483647, NULL, NULL, 0},
};
const int search_option_count = (int)(sizeof search_options / sizeof search_options[0]);

static int thread_create(pthread_t *th, void *(*fn)(void *), void *arg)
{
    return pthread_create(th, NULL, fn, arg);
}

SearchThreadCreate search_thread_create = thread_create;
SearchHelperHook search_helper_hook = NULL;

struct SearchShare {
    SearchCtx c;
    SearchLimits limits;
    GameOptions opt;
    unsigned char root[POS_MAX_BYTES];
    Move *moves; /* searchmoves */
    int cap;     /* room in moves */
};

SearchCtx *search_share(SearchCtx *c)
{
    Search *s = c->s;
    if (!s->share && !(s->share = calloc(1, sizeof *s->share)))
        return NULL;
    SearchShare *h = s->share;
    int n = c->root_only ? c->nroot_only : 0;
    if (n > h->cap) {
        Move *m = realloc(h->moves, (size_t)n * sizeof *m);
        if (!m)
            return NULL;
        h->moves = m;
        h->cap = n;
    }
    h->c = *c;
    h->limits = *c->limits;
    h->c.limits = &h->limits;
    h->opt = *c->opt;
    h->c.opt = &h->opt;
    memcpy(h->root, c->root, c->g->pos_size);
    h->c.root = h->root;
    if (n > 0) {
        memcpy(h->moves, c->root_only, (size_t)n * sizeof *h->moves);
        h->c.root_only = h->moves;
    }
    h->limits.searchmoves = n > 0 ? h->moves : NULL;
    h->limits.nsearchmoves = n;
    /* read by the threads' setup only, on the caller's thread */
    h->c.prev = NULL;
    h->c.stop = NULL;
    h->c.emit = NULL;
    h->c.ectx = NULL;
    return &h->c;
}

void search_wait(Search *s)
{
    if (s->ab_pool)
        ab_join(s->ab_pool);
    if (s->mcts)
        mcts_join(s->mcts);
    atomic_store(&s->halt, 0);
}

void search_threads_short(Search *s, int started, int wanted)
{
    if (started >= wanted || s->threads_told == wanted)
        return;
    s->threads_told = wanted;
    notice("Threads: %d of %d search threads could be started; searching with %d", started, wanted,
           started);
}

void search_limits_init(SearchLimits *l)
{
    /* no clock (-1) for either side, every other limit off */
    *l = (SearchLimits){.time = {-1, -1}};
}

Search *search_new(void)
{
    Search *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->algo = ALGO_ALPHABETA;
    s->hash_mb = HASH_DEFAULT_MB;
    s->threads = 1;
    s->mcts_policy = MCTS_POLICY_FULL;
    s->mcts_explore = 50;
    s->mcts_playout_cap = 200;
    s->move_overhead = 10;
    s->multipv = 1;
    s->skill = SKILL_MAX;
    s->elo = SKILL_ELO_MAX;
    s->ab_qs_plies = 2;
    s->ab_lmr = 1;
    atomic_init(&s->halt, 0);
    s->rng = 0x6d6f72656c6c69ull; /* "morelli" */
    return s;
}

void search_free(Search *s)
{
    if (!s)
        return;
    search_wait(s);
    tt_free(&s->tt);
    mcts_free(s->mcts);
    ab_pool_free(s->ab_pool);
    if (s->share)
        free(s->share->moves);
    free(s->share);
    free(s);
}

void search_clear(Search *s)
{
    if (!s)
        return;
    search_wait(s);
    tt_clear(&s->tt);
    s->solve_failed = 0;
    if (s->mcts)
        mcts_clear(s->mcts);
}

int search_setoption(Search *s, const char *name, const char *value, char *err, size_t errlen)
{
    const Option *o = option_find(search_options, search_option_count, name);
    if (!o) {
        snprintf(err, errlen, "unknown option %s", name ? name : "(null)");
        return -1;
    }
    int64_t v = 0;
    if (option_parse(o, value, 0, &v, err, errlen) != 0)
        return -1;
    search_wait(s);
    if (strcasecmp(o->name, "Search") == 0) {
        s->algo = (int)v;
    } else if (strcasecmp(o->name, "Hash") == 0) {
        if (s->tt.buckets && tt_resize(&s->tt, v) != 0) {
            snprintf(err, errlen, "cannot allocate %lld MB for the hash table", (long long)v);
            return -1;
        }
        s->hash_mb = v;
        /* The MCTS tree is rebuilt at its new size when next used. */
        if (s->mcts) {
            mcts_free(s->mcts);
            s->mcts = NULL;
        }
    } else if (strcasecmp(o->name, "Threads") == 0) {
        s->threads = (int)v;
        s->threads_told = 0;
    } else if (strcasecmp(o->name, "MCTSPolicy") == 0) {
        s->mcts_policy = (int)v;
    } else if (strcasecmp(o->name, "MCTSExplore") == 0) {
        s->mcts_explore = (int)v;
    } else if (strcasecmp(o->name, "MCTSPlayoutCap") == 0) {
        s->mcts_playout_cap = (int)v;
    } else if (strcasecmp(o->name, "MoveOverhead") == 0) {
        s->move_overhead = v;
    } else if (strcasecmp(o->name, "MultiPV") == 0) {
        s->multipv = (int)v;
    } else if (strcasecmp(o->name, "Skill Level") == 0) {
        s->skill = (int)v;
    } else if (strcasecmp(o->name, "UCI_LimitStrength") == 0) {
        s->limit_strength = (int)v;
    } else if (strcasecmp(o->name, "UCI_Elo") == 0) {
        s->elo = (int)v;
    } else if (strcasecmp(o->name, "SkillSeed") == 0) {
        s->skill_seed = (uint64_t)v;
    }
    return 0;
}

int search_multipv(const Search *s)
{
    return s->multipv;
}

int64_t search_move_overhead(const Search *s)
{
    return s->move_overhead;
}

int search_options_default(Search *s, char *err, size_t errlen)
{
    for (int i = 0; i < search_option_count; i++) {
        char text[64];
        option_value_str(&search_options[i], search_options[i].def, text, sizeof text);
        if (search_setoption(s, search_options[i].name, text, err, errlen) != 0)
            return -1;
    }
    return 0;
}

void search_prepare(Search *s)
{
    if (!s)
        return;
    search_wait(s);
    if (s->algo == ALGO_ALPHABETA && !s->tt.buckets && tt_resize(&s->tt, s->hash_mb) == 0)
        tt_clear(&s->tt); /* touch every page now, not during the first search */
    if (s->algo == ALGO_MCTS)
        mcts_prepare(s);
}

/* --- the solved-game shortcut ------------------------------------------ */

/* A search with a clock spends on the game's longer solver
 * (GameSolver.solve_until) the share of its soft budget the solver asks
 * for (at most 90 percent); the normal search has the rest when it gives
 * up. */
#define SOLVE_SHARE_MAX 90

static int solve_give_up(void *ctx, int share)
{
    SearchCtx *c = ctx;
    share = share < 1 ? 1 : share > SOLVE_SHARE_MAX ? SOLVE_SHARE_MAX : share;
    return atomic_load(c->stop) || timeman_soft_over(&c->tm, share, 100);
}

/* Plays the game's own solution when it has one for pos and the history
 * does not spoil it (a winning line must not walk into a repetition). */
static Move try_solve(SearchCtx *c, SearchResult *res)
{
    const Game *g = c->g;
    int v = 0;
    Move best = MOVE_NONE;
    /* several lines are the searchers' to report */
    if (!g->solver || c->multipv > 1)
        return MOVE_NONE;
    /* the solver's first use when isready was not sent */
    if (g->solver->prepare)
        g->solver->prepare(c->root);
    int known = g->solver->solve_until && c->tm.soft_ms >= 0
                    ? g->solver->solve_until(c->root, solve_give_up, c, &v, &best)
                    : g->solver->solve(c->root, &v, &best);
    if (!known || !search_move_legal(g, c->root, best) || !search_root_allowed(c, best))
        return MOVE_NONE;
    if (c->uses_history && v != VALUE_DRAW) {
        unsigned char p[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
        Key *keys = malloc(((size_t)c->nprev + 1) * sizeof *keys);
        if (!keys)
            return MOVE_NONE;
        if (c->nprev)
            memcpy(keys, c->prev, (size_t)c->nprev * sizeof *keys);
        keys[c->nprev] = g->key(c->root);
        memcpy(p, c->root, g->pos_size);
        g->make(p, best, undo);
        int d = past_draw(g, p, keys, c->nprev + 1);
        free(keys);
        if (d == RESULT_DRAW)
            return MOVE_NONE;
    }
    int score = units_value_score(v);
    search_info(c, &(SearchProgress){.depth = 1,
                                     .seldepth = 1,
                                     .score = score,
                                     .nodes = 1,
                                     .pv = &best,
                                     .npv = 1,
                                     .exact = 1});
    if (res) {
        res->best = best;
        res->score = score;
        res->depth = 1;
        res->nodes = 1;
        res->time_ms = timeman_elapsed(&c->tm);
        res->proven = 1;
    }
    return best;
}

/*
 * Search=random: a uniform random legal move, the reference opponent that
 * plays like no searcher at all.  Reproducible: a fixed-seed stream mixed
 * with the root key, so the same game replays the same moves.
 */
static Move random_go(SearchCtx *c, SearchResult *res)
{
    const Game *g = c->g;
    Move *moves = malloc((size_t)g->max_moves * sizeof *moves);
    if (!moves)
        return MOVE_NONE;
    int n = g->gen_moves(c->root, moves), k = 0;
    for (int i = 0; i < n; i++) /* go searchmoves: only those */
        if (search_root_allowed(c, moves[i]))
            moves[k++] = moves[i];
    n = k;
    uint64_t r = c->s->rng ^ g->key(c->root);
    Move best = n > 0 ? moves[rng_below(&r, (uint32_t)n)] : MOVE_NONE;
    c->s->rng = r;
    free(moves);
    search_info(c, &(SearchProgress){.nodes = (uint64_t)n, .pv = &best, .npv = best != MOVE_NONE});
    if (res) {
        res->best = best;
        res->nodes = (uint64_t)n;
        res->time_ms = timeman_elapsed(&c->tm);
    }
    return best;
}

/* go mate N: what the search found (SearchResult.mate). */
static void mate_verdict(const SearchCtx *c, SearchResult *res)
{
    int n = c->limits->mate, sc = res->score;
    res->mate = 0;
    if (sc >= SCORE_MATE_BOUND && units_mate_moves(sc) <= n)
        res->mate = units_mate_moves(sc);
    else if (res->proven || (res->depth >= 2 * n - 1 && c->exact))
        res->mate = -1;
}

/* An infinite search keeps the caller waiting until it says stop. */
static void wait_for_stop(SearchCtx *c)
{
    if (!c->limits->infinite || !c->stop)
        return;
    while (!atomic_load(c->stop)) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
}

int search_root_allowed(const SearchCtx *c, Move m)
{
    if (!c->root_only)
        return 1;
    for (int i = 0; i < c->nroot_only; i++)
        if (c->root_only[i] == m)
            return 1;
    return 0;
}

/* The root moves searched (go searchmoves: those of them that are legal;
 * none left, all) and the lines reported: MultiPV, at most that many. */
static void root_setup(SearchCtx *c)
{
    const SearchLimits *l = c->limits;
    const Game *g = c->g;
    c->root_only = NULL;
    c->nroot_only = 0;
    c->multipv = 1;
    int want = c->s->multipv;
    if (c->skill < SKILL_MAX && want < SKILL_LINES)
        want = SKILL_LINES; /* the lines a level chooses among */
    if (!l->searchmoves && want <= 1)
        return;
    Move *moves = malloc((size_t)g->max_moves * sizeof *moves);
    if (!moves)
        return;
    int n = g->gen_moves(c->root, moves), k = n;
    if (l->searchmoves && l->nsearchmoves > 0) {
        c->root_only = l->searchmoves;
        c->nroot_only = l->nsearchmoves;
        k = 0;
        for (int i = 0; i < n; i++)
            k += search_root_allowed(c, moves[i]);
        if (k == 0) {
            c->root_only = NULL;
            c->nroot_only = 0;
            k = n;
        }
    }
    free(moves);
    c->multipv = want < k ? want : k > 0 ? k : 1;
}

/* The level a search plays at: full strength for go mate and the random
 * player. */
static int search_skill(const Search *s, const SearchLimits *l)
{
    if (l->mate || s->algo == ALGO_RANDOM)
        return SKILL_MAX;
    return skill_level(s->skill, s->limit_strength, s->elo);
}

/* The context of one search of pos under limits (both kept by the caller). */
static void ctx_init(SearchCtx *c, Search *s, const Game *g, const void *pos,
                     const GameOptions *opt, const Key *prev, int nprev, const SearchLimits *limits,
                     atomic_int *stop)
{
    *c = (SearchCtx){
        .s = s,
        .g = g,
        .root = pos,
        .opt = opt,
        .prev = prev,
        .nprev = prev ? nprev : 0,
        .limits = limits,
        .stop = stop,
    };
    c->root_side = g->side_to_move(pos);
    c->uses_history = g->repetition_count > 0 || game_move_rule(g, pos) > 0;
    c->exact = limits->mate > 0;
    c->skill = search_skill(s, limits);
    root_setup(c);
    timeman_init(&c->tm, limits, c->root_side, s->move_overhead);
    atomic_store(&s->halt, 0);
}

Move search_go(Search *s, const Game *g, const void *pos, const GameOptions *opt, const Key *prev,
               int nprev, const SearchLimits *limits, atomic_int *stop, SearchEmit emit, void *ctx,
               SearchResult *res)
{
    SearchLimits none;
    if (!limits) {
        search_limits_init(&none);
        limits = &none;
    }
    GameOptions defopt;
    if (!opt) {
        game_options_default(&defopt);
        opt = &defopt;
    }
    /* Below full strength: the level's caps, and alpha-beta's lines. */
    SearchLimits capped;
    int level = search_skill(s, limits);
    if (level < SKILL_MAX) {
        capped = *limits;
        skill_limits(level, &capped);
        limits = &capped;
    }
    search_wait(s);
    SearchCtx c;
    ctx_init(&c, s, g, pos, opt, prev, nprev, limits, stop);
    c.emit = emit;
    c.ectx = ctx;
    if (res)
        memset(res, 0, sizeof *res);

    Move best = MOVE_NONE;
    if (past_result(g, pos, c.prev, c.nprev) != RESULT_NONE) {
        if (emit)
            emit(ctx, &(SearchInfo){.kind = SEARCH_INFO_GAME_OVER});
        wait_for_stop(&c);
        return MOVE_NONE;
    }
    SearchResult mine = {0};
    if (limits->mate && !res)
        res = &mine;
    /* the random player is no searcher: it never asks the solver */
    if (s->algo != ALGO_RANDOM || limits->mate)
        best = try_solve(&c, res);
    /* go mate: alpha-beta, whose depth bounds what it proves */
    int algo = limits->mate || level < SKILL_MAX ? ALGO_ALPHABETA : s->algo;
    if (best == MOVE_NONE)
        best = algo == ALGO_MCTS     ? mcts_go(&c, res)
               : algo == ALGO_RANDOM ? random_go(&c, res)
                                     : ab_go(&c, res);
    if (limits->mate)
        mate_verdict(&c, res);
    wait_for_stop(&c);
    /* halt stays set while helpers of this search still run (search_wait) */
    return best;
}

int search_solve(Search *s, const Game *g, const void *pos, const GameOptions *opt, const Key *prev,
                 int nprev, const SearchLimits *limits, atomic_int *stop, SolveReport *out)
{
    if (!g->search || !g->search->plies_left)
        return -1;
    /* The solver keeps its own budget: the search's clock only counts. */
    SearchLimits none;
    search_limits_init(&none);
    none.start_ms = limits ? limits->start_ms : 0;
    GameOptions defopt;
    if (!opt) {
        game_options_default(&defopt);
        opt = &defopt;
    }
    search_wait(s);
    SearchCtx c;
    ctx_init(&c, s, g, pos, opt, prev, nprev, &none, stop);
    int rc = ab_solve_go(&c, limits ? limits->movetime : 0, limits ? limits->nodes : 0, out);
    atomic_store(&s->halt, 0);
    return rc;
}
