/*
 * ugi.c -- the UGI/UCI command dispatcher.
 *
 * Each command is a handler in the table `commands[]`.  A handler gets the
 * line's tokens, parses everything into local variables, and only then
 * touches the Engine, so a bad line leaves the engine exactly as it was and
 * prints exactly one error line.
 *
 * Threads: the reader (whoever calls engine_input) and at most one search
 * thread.  The search thread works on its own copy of the position, the
 * options and the history keys, so the reader may go on answering `isready`,
 * `query`, `d` or even `position` while it runs.  Anything that touches the
 * Search itself (go, setoption, uginewgame, bench, perft, solve) waits until
 * a search with limits has finished, and is refused during `go infinite`.
 * Every output line goes through say(), which holds e->out_lock.
 */
#include "ugi.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "game.h"
#include "history.h"
#include "perft.h"
#include "search/search.h"

#define ENGINE_NAME "morelli"
#define ENGINE_AUTHOR "the morelli team"
/* Perft deeper than this is surely a typo. */
#define PERFT_MAX_DEPTH 64

struct Engine {
    /* The game being played. */
    const Game *game;
    GameOptions opt;
    unsigned char pos[POS_MAX_BYTES];
    History hist; /* keys of the positions before pos, oldest first */

    Search *search;
    EngineCaps caps;

    /* The search thread and the copy of everything it reads. */
    pthread_t thread;
    int thread_live;      /* a thread was started and not yet joined */
    atomic_int stop;      /* set to stop the search */
    atomic_int done;      /* set by the thread after printing bestmove */
    const Game *job_game;
    GameOptions job_opt;
    unsigned char job_pos[POS_MAX_BYTES];
    Key *job_keys;
    int job_nkeys;
    SearchLimits job_limits;
    int job_unbounded; /* infinite, or no limit that ends it by itself */

    const Game *warm_game; /* the game whose solver tables are built */

    /* The writer. */
    FILE *out;
    pthread_mutex_t out_lock;
    atomic_int errors;
};

/* ------------------------------------------------------------------------ */
/* Output                                                                    */

static void say(Engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(Engine *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&e->out_lock);
    vfprintf(e->out, fmt, ap);
    fputc('\n', e->out);
    fflush(e->out);
    pthread_mutex_unlock(&e->out_lock);
    va_end(ap);
}

void engine_error(Engine *e, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    e->errors++;
    say(e, "info string error: %s", msg);
}

int engine_errors(const Engine *e) { return atomic_load(&e->errors); }

/* A token as it may be echoed in an error: printable ASCII, at most 40
 * characters. */
static const char *echo(const char *s, char *buf, size_t len)
{
    size_t j = 0, i = 0;
    for (; s[i] && j + 4 < len && i < 40; i++)
        buf[j++] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
    if (s[i] && j + 4 < len) {
        memcpy(buf + j, "...", 3);
        j += 3;
    }
    buf[j] = '\0';
    return buf;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ------------------------------------------------------------------------ */
/* Small parsers                                                             */

/* A whole decimal integer (optional sign) into *v; 0 or -1. */
static int parse_i64(const char *s, int64_t *v)
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

static int parse_bool(const char *s, int *v)
{
    if (strcasecmp(s, "true") == 0)
        *v = 1;
    else if (strcasecmp(s, "false") == 0)
        *v = 0;
    else
        return -1;
    return 0;
}

static const char *result_word(int r)
{
    switch (r) {
    case RESULT_P1_WIN: return "p1win";
    case RESULT_P2_WIN: return "p2win";
    case RESULT_DRAW: return "draw";
    default: return "none";
    }
}

/* ------------------------------------------------------------------------ */
/* Positions                                                                 */

/* A position with its history: what `position` builds before committing. */
typedef struct Built {
    unsigned char pos[POS_MAX_BYTES];
    History hist;
} Built;

static int full_result(const Game *g, const void *pos, const GameOptions *o,
                       const History *h)
{
    return history_result(g, pos, o, h->keys, h->len);
}

/*
 * Builds the position described by tok[0..n) ("startpos [moves ...]" or
 * "fen <fen ...> [moves ...]") for game g under options o into *b (whose
 * hist must be initialised and empty). Returns 0, or -1 with err filled.
 */
static int build_position(const Game *g, const GameOptions *o, char **tok, int n,
                          Built *b, char *err, size_t errlen)
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
        if (full_result(g, b->pos, o, &b->hist) != RESULT_NONE) {
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
        if (history_push(&b->hist, g->key(b->pos)) != 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        g->make(b->pos, m, undo);
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Options                                                                   */

/* What setoption changes for the game options: the game and its options. */
typedef struct GameSetting {
    const Game *game;
    GameOptions opt;
} GameSetting;

typedef struct ProtoOption {
    const char *name;
    const char *type; /* spin, check, combo */
    const char *def;
    int64_t min, max;
    const char *vars[8]; /* combo values; empty for UCI_Variant = the games */
    /* Applies an already type-checked value. 0, or -1 with err. */
    int (*set)(GameSetting *s, const char *value, int64_t num, char *err, size_t errlen);
} ProtoOption;

static int set_variant(GameSetting *s, const char *v, int64_t num, char *err, size_t n)
{
    (void)num;
    const Game *g = game_by_name(v);
    if (!g) {
        snprintf(err, n, "unknown variant");
        return -1;
    }
    s->game = g;
    return 0;
}

static int set_ruleset(GameSetting *s, const char *v, int64_t num, char *err, size_t n)
{
    (void)num; (void)err; (void)n;
    s->opt.ruleset = strcasecmp(v, "classic") == 0 ? RULESET_CLASSIC : RULESET_STANDARD;
    return 0;
}

static int set_setup(GameSetting *s, const char *v, int64_t num, char *err, size_t n)
{
    static const char *const names[] = {"adjacent", "facing", "random", "free", "pairs"};
    (void)num;
    for (int i = 0; i < 5; i++)
        if (strcasecmp(v, names[i]) == 0) {
            s->opt.setup = i; /* SETUP_* follow this order */
            return 0;
        }
    snprintf(err, n, "unknown setup");
    return -1;
}

static int set_seed(GameSetting *s, const char *v, int64_t num, char *err, size_t n)
{
    (void)v; (void)err; (void)n;
    s->opt.setup_seed = (uint64_t)num;
    return 0;
}

static int set_board_size(GameSetting *s, const char *v, int64_t num, char *err, size_t n)
{
    (void)v;
    if (num != 9 && num != 11 && num != 13) {
        snprintf(err, n, "BoardSize must be 9, 11 or 13");
        return -1;
    }
    s->opt.board_size = (int)num;
    return 0;
}

static int set_pieces(GameSetting *s, const char *v, int64_t num, char *err, size_t n)
{
    (void)v;
    if (num != 9 && num != 12) {
        snprintf(err, n, "Pieces must be 9 or 12");
        return -1;
    }
    s->opt.pieces = (int)num;
    return 0;
}

static int set_diagonals(GameSetting *s, const char *v, int64_t num, char *err, size_t n)
{
    (void)v; (void)err; (void)n;
    s->opt.diagonals = (int)num;
    return 0;
}

static int set_flying(GameSetting *s, const char *v, int64_t num, char *err, size_t n)
{
    (void)v; (void)err; (void)n;
    s->opt.flying = (int)num;
    return 0;
}

static int set_move_rule(GameSetting *s, const char *v, int64_t num, char *err, size_t n)
{
    (void)v; (void)err; (void)n;
    s->opt.move_rule = (int)num;
    return 0;
}

static const ProtoOption proto_options[] = {
    {"UCI_Variant", "combo", "morelli", 0, 0, {NULL}, set_variant},
    {"Ruleset", "combo", "standard", 0, 0, {"standard", "classic", NULL}, set_ruleset},
    {"Setup", "combo", "adjacent", 0, 0,
     {"adjacent", "facing", "random", "free", "pairs", NULL}, set_setup},
    {"SetupSeed", "spin", "0", 0, 2147483647, {NULL}, set_seed},
    {"BoardSize", "spin", "13", 9, 13, {NULL}, set_board_size},
    {"Pieces", "spin", "9", 9, 12, {NULL}, set_pieces},
    {"Diagonals", "check", "false", 0, 0, {NULL}, set_diagonals},
    {"Flying", "check", "true", 0, 0, {NULL}, set_flying},
    {"MoveRule", "spin", "100", 0, 100000, {NULL}, set_move_rule},
};
#define PROTO_OPTION_COUNT ((int)(sizeof proto_options / sizeof proto_options[0]))

/* The combo values of an option: its vars, or the games for UCI_Variant. */
static int combo_values(const ProtoOption *po, const char **vals, int max)
{
    int n = 0;
    if (!po->vars[0]) {
        for (int i = 0; i < game_count && n < max; i++)
            vals[n++] = game_list[i]->name;
    } else {
        for (int i = 0; po->vars[i] && n < max; i++)
            vals[n++] = po->vars[i];
    }
    return n;
}

/* Type check of value against a type/range/combo list; *num gets the number
 * (spin) or the truth value (check). 0 or -1 with err. */
static int check_value(const char *name, const char *type, int64_t min, int64_t max,
                       const char *const *vals, int nvals, const char *value, int64_t *num,
                       char *err, size_t n)
{
    char tmp[64];
    *num = 0;
    if (strcmp(type, "spin") == 0) {
        if (parse_i64(value, num) != 0) {
            snprintf(err, n, "%s needs an integer, not '%s'", name, echo(value, tmp, sizeof tmp));
            return -1;
        }
        if (*num < min || *num > max) {
            snprintf(err, n, "%s must be in %" PRId64 "..%" PRId64 ", not %" PRId64, name, min,
                     max, *num);
            return -1;
        }
    } else if (strcmp(type, "check") == 0) {
        int b;
        if (parse_bool(value, &b) != 0) {
            snprintf(err, n, "%s needs true or false, not '%s'", name,
                     echo(value, tmp, sizeof tmp));
            return -1;
        }
        *num = b;
    } else if (strcmp(type, "combo") == 0) {
        for (int i = 0; i < nvals; i++)
            if (strcasecmp(value, vals[i]) == 0)
                return 0;
        snprintf(err, n, "%s has no value '%s'", name, echo(value, tmp, sizeof tmp));
        return -1;
    } else if (strcmp(type, "button") != 0 && strcmp(type, "string") != 0) {
        snprintf(err, n, "%s has an unknown type", name);
        return -1;
    }
    return 0;
}

static void list_option(Engine *e, const char *name, const char *type, const char *def,
                        int64_t min, int64_t max, const char *const *vals, int nvals)
{
    char line[512];
    int len = snprintf(line, sizeof line, "option name %s type %s", name, type);
    if (strcmp(type, "button") != 0)
        len += snprintf(line + len, sizeof line - (size_t)len, " default %s",
                        def && *def ? def : "<empty>");
    if (strcmp(type, "spin") == 0)
        len += snprintf(line + len, sizeof line - (size_t)len, " min %" PRId64 " max %" PRId64,
                        min, max);
    for (int i = 0; i < nvals && len < (int)sizeof line; i++)
        len += snprintf(line + len, sizeof line - (size_t)len, " var %s", vals[i]);
    say(e, "%s", line);
}

/*
 * Applies "Name=Value" to a game setting (protocol options) or, for the
 * searchers' options, to search s (only when s != NULL, else only checked).
 * Returns 1 for a game option, 2 for a search option, -1 on error.
 */
static int apply_option(GameSetting *gs, Search *s, const EngineCaps *caps, const char *name,
                        const char *value, char *err, size_t errlen)
{
    char tmp[64];
    int64_t num;
    for (int i = 0; i < PROTO_OPTION_COUNT; i++) {
        const ProtoOption *po = &proto_options[i];
        if (strcasecmp(name, po->name) != 0)
            continue;
        const char *vals[16];
        int nvals = strcmp(po->type, "combo") == 0 ? combo_values(po, vals, 16) : 0;
        if (!value) {
            snprintf(err, errlen, "%s needs a value", po->name);
            return -1;
        }
        if (check_value(po->name, po->type, po->min, po->max, vals, nvals, value, &num, err,
                        errlen) != 0)
            return -1;
        return po->set(gs, value, num, err, errlen) == 0 ? 1 : -1;
    }
    for (int i = 0; i < search_option_count; i++) {
        const SearchOption *so = &search_options[i];
        if (strcasecmp(name, so->name) != 0)
            continue;
        int nvals = 0;
        while (nvals < 8 && so->vars[nvals])
            nvals++;
        int button = strcmp(so->type, "button") == 0;
        if (!value && !button) {
            snprintf(err, errlen, "%s needs a value", so->name);
            return -1;
        }
        int64_t max = so->max;
        if (caps && caps->max_hash_mb > 0 && strcasecmp(so->name, "Hash") == 0)
            max = caps->max_hash_mb < max ? caps->max_hash_mb : max;
        if (caps && caps->max_threads > 0 && strcasecmp(so->name, "Threads") == 0)
            max = caps->max_threads < max ? caps->max_threads : max;
        if (check_value(so->name, so->type, so->min, max, so->vars, nvals,
                        value ? value : "", &num, err, errlen) != 0)
            return -1;
        if (s && search_setoption(s, so->name, value ? value : "", err, errlen) != 0)
            return -1;
        return 2;
    }
    snprintf(err, errlen, "unknown option '%s'", echo(name, tmp, sizeof tmp));
    return -1;
}

/* ------------------------------------------------------------------------ */
/* The search thread                                                         */

static void emit_line(void *ctx, const char *line)
{
    say((Engine *)ctx, "%s", line);
}

/* The legal move list of pos into moves (malloc'd), count in *n. */
static Move *legal_moves(const Game *g, const void *pos, int *n)
{
    Move *moves = malloc((size_t)g->max_moves * sizeof *moves);
    *n = moves ? g->gen_moves(pos, moves) : 0;
    return moves;
}

/* Runs the job and checks the move is legal; the bestmove line into line. */
static void run_job(Engine *e, char *line, size_t len)
{
    SearchResult res;
    memset(&res, 0, sizeof res);
    Move best = search_go(e->search, e->job_game, e->job_pos, &e->job_opt, e->job_keys,
                          e->job_nkeys, &e->job_limits, &e->stop, emit_line, e, &res);
    int n;
    Move *moves = legal_moves(e->job_game, e->job_pos, &n);
    int ok = 0;
    for (int i = 0; i < n && !ok; i++)
        ok = moves[i] == best;
    if (!ok && n > 0) {
        char text[MOVE_STR_MAX];
        snprintf(text, sizeof text, "%" PRIu32, best);
        engine_error(e, "search returned no legal move (%s); playing the first legal move",
                     text);
        best = moves[0];
    }
    char text[MOVE_STR_MAX];
    game_move_str(e->job_game, e->job_pos, n > 0 ? best : MOVE_NONE, text, sizeof text);
    free(moves);
    snprintf(line, len, "bestmove %s", text);
}

static void *search_thread(void *arg)
{
    Engine *e = arg;
    char line[MOVE_STR_MAX + 16];
    run_job(e, line, sizeof line);
    /* Done before the bestmove line leaves: whoever reads it may send go at
     * once, and must find the searcher free (search_busy joins us). */
    atomic_store(&e->done, 1);
    say(e, "%s", line);
    return NULL;
}

static void search_join(Engine *e)
{
    if (e->thread_live) {
        pthread_join(e->thread, NULL);
        e->thread_live = 0;
    }
    free(e->job_keys);
    e->job_keys = NULL;
    e->job_nkeys = 0;
}

/* Non-zero while a search runs; joins a finished one. */
static int search_busy(Engine *e)
{
    if (e->thread_live && atomic_load(&e->done))
        search_join(e);
    return e->thread_live;
}

void engine_wait(Engine *e) { search_join(e); }

void engine_stop(Engine *e)
{
    atomic_store(&e->stop, 1);
    search_join(e);
}

/* ------------------------------------------------------------------------ */
/* Commands                                                                  */

typedef int (*Handler)(Engine *e, char **tok, int n);

/* Commands that use the Search wait for a search with limits (or one told
 * to stop) to finish, as Stockfish does, so piped scripts run in order;
 * during `go infinite` or a `go` without limits they are refused. */
static int refuse_if_busy(Engine *e, const char *cmd)
{
    if (!search_busy(e))
        return 0;
    /* After stop the search ends within milliseconds: wait for it too. */
    if (!e->job_unbounded || atomic_load(&e->stop)) {
        search_join(e);
        return 0;
    }
    engine_error(e, "%s: an infinite search is running; send stop first", cmd);
    return 1;
}

static int cmd_ugi_common(Engine *e, const char *ok)
{
    say(e, "id name " ENGINE_NAME);
    say(e, "id author " ENGINE_AUTHOR);
    for (int i = 0; i < PROTO_OPTION_COUNT; i++) {
        const ProtoOption *po = &proto_options[i];
        const char *vals[16];
        int nvals = strcmp(po->type, "combo") == 0 ? combo_values(po, vals, 16) : 0;
        list_option(e, po->name, po->type, po->def, po->min, po->max, vals, nvals);
    }
    for (int i = 0; i < search_option_count; i++) {
        const SearchOption *so = &search_options[i];
        int nvals = 0;
        while (nvals < 8 && so->vars[nvals])
            nvals++;
        list_option(e, so->name, so->type, so->def, so->min, so->max, so->vars, nvals);
    }
    say(e, "%s", ok);
    return UGI_OK;
}

static int cmd_ugi(Engine *e, char **tok, int n)
{
    (void)tok; (void)n;
    return cmd_ugi_common(e, "ugiok");
}

static int cmd_uci(Engine *e, char **tok, int n)
{
    (void)tok; (void)n;
    return cmd_ugi_common(e, "uciok");
}

/* A game with a solver (Fano) builds its tables on the first solve() call,
 * which can take longer than a fast move: do it while the clock is not
 * running (uginewgame, or isready with no search), once per game. */
static void warm_up(Engine *e)
{
    const Game *g = e->game;
    if (!g->solve || e->warm_game == g || search_busy(e))
        return;
    if (g->result(e->pos) == RESULT_NONE) {
        unsigned char pos[POS_MAX_BYTES];
        int value;
        Move best;
        memcpy(pos, e->pos, g->pos_size);
        (void)g->solve(pos, &value, &best);
    }
    e->warm_game = g;
}

static int cmd_isready(Engine *e, char **tok, int n)
{
    (void)tok; (void)n;
    if (!e->caps.sync_search) {
        warm_up(e);
        if (!search_busy(e))
            search_prepare(e->search);
    }
    say(e, "readyok");
    return UGI_OK;
}

static int cmd_newgame(Engine *e, char **tok, int n)
{
    (void)tok; (void)n;
    if (refuse_if_busy(e, "uginewgame"))
        return UGI_ERROR;
    search_clear(e->search);
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

static int cmd_setoption(Engine *e, char **tok, int n)
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
        engine_error(e, "usage: setoption name <name> [value <value>]");
        return UGI_ERROR;
    }
    if (join_tokens(tok, iname + 1, ivalue < 0 ? n : ivalue, name, sizeof name) != 0 ||
        (ivalue >= 0 && join_tokens(tok, ivalue + 1, n, value, sizeof value) != 0)) {
        engine_error(e, "setoption: name or value too long");
        return UGI_ERROR;
    }
    if (refuse_if_busy(e, "setoption"))
        return UGI_ERROR;

    GameSetting gs = {e->game, e->opt};
    /* First a dry run (no Search) so a bad value changes nothing. */
    int kind = apply_option(&gs, NULL, &e->caps, name, ivalue >= 0 ? value : NULL, err, sizeof err);
    if (kind < 0) {
        engine_error(e, "%s", err);
        return UGI_ERROR;
    }
    if (kind == 2) {
        if (apply_option(&gs, e->search, &e->caps, name, ivalue >= 0 ? value : NULL, err, sizeof err) < 0) {
            engine_error(e, "%s", err);
            return UGI_ERROR;
        }
        return UGI_OK;
    }
    /* A game option: the game's start position under the new options. */
    unsigned char pos[POS_MAX_BYTES];
    char why[256] = "";
    if (gs.game->init(pos, &gs.opt, why, sizeof why) != 0) {
        engine_error(e, "%s: %s", gs.game->name, why[0] ? why : "cannot set up these options");
        return UGI_ERROR;
    }
    e->game = gs.game;
    e->opt = gs.opt;
    memcpy(e->pos, pos, gs.game->pos_size);
    history_clear(&e->hist);
    return UGI_OK;
}

static int cmd_position(Engine *e, char **tok, int n)
{
    Built b;
    char err[512];
    history_init(&b.hist);
    if (build_position(e->game, &e->opt, tok + 1, n - 1, &b, err, sizeof err) != 0) {
        history_free(&b.hist);
        engine_error(e, "%s", err);
        return UGI_ERROR;
    }
    memcpy(e->pos, b.pos, e->game->pos_size);
    history_free(&e->hist);
    e->hist = b.hist;
    return UGI_OK;
}

static int do_perft(Engine *e, const char *arg, const char *cmd)
{
    int64_t depth;
    char tmp[64];
    int cap = e->caps.max_perft > 0 ? e->caps.max_perft : PERFT_MAX_DEPTH;
    if (!arg || parse_i64(arg, &depth) != 0 || depth < 0 || depth > cap) {
        engine_error(e, "%s needs a depth in 0..%d%s%s", cmd, cap, arg ? ", not " : "",
                     arg ? echo(arg, tmp, sizeof tmp) : "");
        return UGI_ERROR;
    }
    if (refuse_if_busy(e, cmd))
        return UGI_ERROR;
    unsigned char pos[POS_MAX_BYTES];
    memcpy(pos, e->pos, e->game->pos_size);
    pthread_mutex_lock(&e->out_lock);
    perft_divide(e->game, pos, (int)depth, 1, e->out);
    fflush(e->out);
    pthread_mutex_unlock(&e->out_lock);
    return UGI_OK;
}

static int cmd_perft(Engine *e, char **tok, int n)
{
    if (n > 2) {
        engine_error(e, "usage: perft <depth>");
        return UGI_ERROR;
    }
    return do_perft(e, n > 1 ? tok[1] : NULL, "perft");
}

static int cmd_go(Engine *e, char **tok, int n)
{
    char tmp[64];
    if (n >= 2 && strcasecmp(tok[1], "perft") == 0) {
        if (n > 3) {
            engine_error(e, "usage: go perft <depth>");
            return UGI_ERROR;
        }
        return do_perft(e, n > 2 ? tok[2] : NULL, "go perft");
    }
    SearchLimits lim;
    search_limits_init(&lim);
    for (int i = 1; i < n; i++) {
        const char *k = tok[i];
        if (strcasecmp(k, "infinite") == 0) {
            lim.infinite = 1;
            continue;
        }
        static const char *const keys[] = {"p1time", "p2time", "p1inc", "p2inc", "wtime",
                                           "btime", "winc", "binc", "movestogo", "movetime",
                                           "depth", "nodes"};
        int which = -1;
        for (int j = 0; j < 12; j++)
            if (strcasecmp(k, keys[j]) == 0)
                which = j;
        if (which < 0) {
            engine_error(e, "go: unknown parameter '%s'", echo(k, tmp, sizeof tmp));
            return UGI_ERROR;
        }
        int64_t v;
        if (i + 1 >= n || parse_i64(tok[i + 1], &v) != 0) {
            engine_error(e, "go: %s needs an integer", keys[which]);
            return UGI_ERROR;
        }
        i++;
        /* Clocks may run below zero in some GUIs: count that as no time. */
        if (which < 8) {
            if (v < 0)
                v = 0;
        } else if (v < 0 || (which == 10 && v > 1000) || (which == 8 && v > 100000)) {
            engine_error(e, "go: %s out of range: %" PRId64, keys[which], v);
            return UGI_ERROR;
        }
        switch (which) {
        case 0: case 4: lim.time[SIDE_P1] = v; break;
        case 1: case 5: lim.time[SIDE_P2] = v; break;
        case 2: case 6: lim.inc[SIDE_P1] = v; break;
        case 3: case 7: lim.inc[SIDE_P2] = v; break;
        case 8: lim.movestogo = (int)v; break;
        case 9: lim.movetime = v; break;
        case 10: lim.depth = (int)v; break;
        default: lim.nodes = (uint64_t)v; break;
        }
    }
    if (refuse_if_busy(e, "go"))
        return UGI_ERROR;

    /* A finished game or no legal move: nothing to search. */
    int nm;
    Move *moves = legal_moves(e->game, e->pos, &nm);
    free(moves);
    if (nm <= 0 || full_result(e->game, e->pos, &e->opt, &e->hist) != RESULT_NONE) {
        say(e, "bestmove 0000");
        return UGI_OK;
    }

    Key *keys = NULL;
    if (e->hist.len > 0) {
        keys = malloc((size_t)e->hist.len * sizeof *keys);
        if (!keys) {
            engine_error(e, "go: out of memory");
            return UGI_ERROR;
        }
        memcpy(keys, e->hist.keys, (size_t)e->hist.len * sizeof *keys);
    }
    e->job_game = e->game;
    e->job_opt = e->opt;
    memcpy(e->job_pos, e->pos, e->game->pos_size);
    e->job_keys = keys;
    e->job_nkeys = e->hist.len;
    e->job_limits = lim;
    int stm = e->game->side_to_move(e->pos);
    e->job_unbounded = lim.infinite || !(lim.depth > 0 || lim.nodes > 0 || lim.movetime > 0 ||
                                         lim.time[stm] >= 0);
    atomic_store(&e->stop, 0);
    atomic_store(&e->done, 0);
    if (e->caps.sync_search) {
        e->job_limits.infinite = 0;
        e->job_limits.movetime = 0;
        e->job_limits.time[0] = e->job_limits.time[1] = -1;
        e->job_limits.depth = 1;
        e->job_limits.nodes = 200;
        char line[MOVE_STR_MAX + 16];
        run_job(e, line, sizeof line);
        say(e, "%s", line);
        free(e->job_keys);
        e->job_keys = NULL;
        return UGI_OK;
    }
    if (pthread_create(&e->thread, NULL, search_thread, e) != 0) {
        free(e->job_keys);
        e->job_keys = NULL;
        engine_error(e, "go: cannot start the search thread");
        return UGI_ERROR;
    }
    e->thread_live = 1;
    return UGI_OK;
}

static int cmd_stop(Engine *e, char **tok, int n)
{
    (void)tok; (void)n;
    atomic_store(&e->stop, 1);
    return UGI_OK;
}

static int cmd_quit(Engine *e, char **tok, int n)
{
    (void)tok; (void)n;
    engine_stop(e);
    return UGI_QUIT;
}

static int cmd_query(Engine *e, char **tok, int n)
{
    if (n != 2) {
        engine_error(e, "usage: query p1turn|gameover|result");
        return UGI_ERROR;
    }
    int r = full_result(e->game, e->pos, &e->opt, &e->hist);
    if (strcasecmp(tok[1], "p1turn") == 0)
        say(e, "response %s", e->game->side_to_move(e->pos) == SIDE_P1 ? "true" : "false");
    else if (strcasecmp(tok[1], "gameover") == 0)
        say(e, "response %s", r != RESULT_NONE ? "true" : "false");
    else if (strcasecmp(tok[1], "result") == 0)
        say(e, "response %s", result_word(r));
    else {
        char tmp[64];
        engine_error(e, "query: unknown question '%s'", echo(tok[1], tmp, sizeof tmp));
        return UGI_ERROR;
    }
    return UGI_OK;
}

static int cmd_d(Engine *e, char **tok, int n)
{
    (void)tok;
    if (n > 1) {
        engine_error(e, "usage: d");
        return UGI_ERROR;
    }
    char fen[FEN_MAX];
    e->game->to_fen(e->pos, fen, sizeof fen);
    int r = full_result(e->game, e->pos, &e->opt, &e->hist);
    pthread_mutex_lock(&e->out_lock);
    int fd = fileno(e->out);
    e->game->print(e->pos, e->out, fd >= 0 && isatty(fd));
    static const char *const setups[] = {"adjacent", "facing", "random", "free", "pairs"};
    const GameOptions *o = &e->opt;
    fprintf(e->out, "Variant: %s\n", e->game->name);
    fprintf(e->out,
            "Options: Ruleset=%s Setup=%s SetupSeed=%" PRIu64 " BoardSize=%d Pieces=%d "
            "Diagonals=%s Flying=%s MoveRule=%d\n",
            o->ruleset == RULESET_CLASSIC ? "classic" : "standard",
            o->setup >= 0 && o->setup < 5 ? setups[o->setup] : "?", o->setup_seed,
            o->board_size, o->pieces, o->diagonals ? "true" : "false",
            o->flying ? "true" : "false", o->move_rule);
    fprintf(e->out, "History: %d earlier positions\n", e->hist.len);
    fprintf(e->out, "Fen: %s\n", fen);
    fprintf(e->out, "Key: %016" PRIX64 "\n", (uint64_t)e->game->key(e->pos));
    fprintf(e->out, "Side to move: %s\n", e->game->side_to_move(e->pos) == SIDE_P1 ? "p1" : "p2");
    if (r != RESULT_NONE)
        fprintf(e->out, "Result: %s\n", result_word(r));
    fflush(e->out);
    pthread_mutex_unlock(&e->out_lock);
    return UGI_OK;
}

static int cmd_moves(Engine *e, char **tok, int n)
{
    (void)tok;
    if (n > 1) {
        engine_error(e, "usage: moves");
        return UGI_ERROR;
    }
    int nm = 0;
    Move *moves = NULL;
    if (full_result(e->game, e->pos, &e->opt, &e->hist) == RESULT_NONE)
        moves = legal_moves(e->game, e->pos, &nm);
    size_t cap = (size_t)(nm > 0 ? nm : 1) * MOVE_STR_MAX + 1, len = 0;
    char *line = malloc(cap);
    if (!line) {
        free(moves);
        engine_error(e, "moves: out of memory");
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
    if (v > 0)
        snprintf(buf, len, "win in %d plies", VALUE_WIN - v);
    else if (v < 0)
        snprintf(buf, len, "loss in %d plies", VALUE_WIN + v);
    else
        snprintf(buf, len, "draw");
}

static int cmd_solve(Engine *e, char **tok, int n)
{
    (void)tok;
    const Game *g = e->game;
    if (n > 1) {
        engine_error(e, "usage: solve");
        return UGI_ERROR;
    }
    if (!g->solve) {
        engine_error(e, "solve: %s has no solver", g->name);
        return UGI_ERROR;
    }
    if (refuse_if_busy(e, "solve"))
        return UGI_ERROR;
    int r = full_result(g, e->pos, &e->opt, &e->hist);
    if (r != RESULT_NONE) {
        say(e, "Result: %s", result_word(r));
        return UGI_OK;
    }
    int value;
    Move best;
    unsigned char pos[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    memcpy(pos, e->pos, g->pos_size);
    if (!g->solve(pos, &value, &best)) {
        engine_error(e, "solve: the value of this position is unknown");
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
            int mine = me == SIDE_P1 ? RESULT_P1_WIN : RESULT_P2_WIN;
            cv = child_r == RESULT_DRAW ? 0 : child_r == mine ? VALUE_WIN - 1 : -(VALUE_WIN - 1);
        } else if (g->solve(pos, &cv, &cb)) {
            int same = g->side_to_move(pos) == me;
            if (cv > 0)
                cv = same ? cv - 1 : -(cv - 1);
            else if (cv < 0)
                cv = same ? cv + 1 : -(cv + 1);
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

static int cmd_bench(Engine *e, char **tok, int n);

static int cmd_help(Engine *e, char **tok, int n)
{
    (void)tok; (void)n;
    static const char *const lines[] = {
        "morelli speaks UGI (and UCI). Commands:",
        "  ugi | uci                      identify, list options, ugiok/uciok",
        "  isready                        readyok",
        "  setoption name <N> value <V>   set an option (names case-insensitive)",
        "  uginewgame | ucinewgame        forget search memory",
        "  position startpos|fen <fen> [moves <m>...]",
        "  go [p1time p2time p1inc p2inc wtime btime winc binc movestogo",
        "     movetime depth nodes <n>] [infinite]   search, then bestmove",
        "  go perft <n> | perft <n>       leaf counts per move",
        "  stop | quit                    stop the search / leave",
        "  query p1turn|gameover|result   response ...",
        "  d                              show the position",
        "  moves                          legal moves",
        "  bench [depth]                  fixed search of the bench positions",
        "  solve                          exact values (games with a solver)",
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
    {"quit", cmd_quit},
    {"query", cmd_query},
    {"d", cmd_d},
    {"moves", cmd_moves},
    {"perft", cmd_perft},
    {"bench", cmd_bench},
    {"solve", cmd_solve},
    {"help", cmd_help},
};
#define COMMAND_COUNT ((int)(sizeof commands / sizeof commands[0]))

/* ------------------------------------------------------------------------ */
/* Bench                                                                     */

/*
 * bench/positions.txt, one position a line:
 *   <variant> [Name=Value ...] [depth=N] [nodes=N] startpos|fen <fen> [moves ...]
 * '#' starts a comment line.  Name=Value are game or search options applied
 * over the defaults; depth= and nodes= are the search limits.
 */
static int cmd_bench(Engine *e, char **tok, int n)
{
    char tmp[64];
    int64_t depth_override = 0;
    if (n > 2 || (n == 2 && (parse_i64(tok[1], &depth_override) != 0 || depth_override < 1 ||
                             depth_override > 64))) {
        engine_error(e, "usage: bench [depth 1..64]%s%s", n == 2 ? ", not " : "",
                     n == 2 ? echo(tok[1], tmp, sizeof tmp) : "");
        return UGI_ERROR;
    }
    if (!e->caps.allow_bench) {
        engine_error(e, "bench: disabled here");
        return UGI_ERROR;
    }
    if (refuse_if_busy(e, "bench"))
        return UGI_ERROR;
    char *text = strdup(bench_positions_text());
    char **words = text ? malloc((strlen(text) / 2 + 2) * sizeof *words) : NULL;
    Search *s = search_new();
    if (!text || !words || !s) {
        free(text);
        free(words);
        if (s)
            search_free(s);
        engine_error(e, "bench: out of memory");
        return UGI_ERROR;
    }
    uint64_t total_nodes = 0;
    int64_t t0 = now_ms();
    int index = 0, failed = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        int nw = 0;
        char *ws = NULL;
        for (char *w = strtok_r(line, " \t\r", &ws); w; w = strtok_r(NULL, " \t\r", &ws))
            words[nw++] = w;
        if (nw == 0 || words[0][0] == '#')
            continue;
        index++;
        char err[512] = "";
        GameSetting gs;
        gs.game = game_by_name(words[0]);
        game_options_default(&gs.opt);
        SearchLimits lim;
        search_limits_init(&lim);
        int i = 1, bad = !gs.game;
        if (bad)
            snprintf(err, sizeof err, "unknown game");
        /* Defaults first, then the line's options: each position stands alone. */
        for (int k = 0; k < search_option_count && !bad; k++)
            if (strcmp(search_options[k].type, "button") != 0)
                bad = search_setoption(s, search_options[k].name, search_options[k].def, err,
                                       sizeof err) != 0;
        if (!bad) /* one thread, so the node count is the same every run */
            search_setoption(s, "Threads", "1", err, sizeof err);
        err[0] = '\0';
        for (; i < nw && !bad; i++) {
            char *eq = strchr(words[i], '=');
            if (!eq)
                break;
            *eq = '\0';
            int64_t v;
            if (strcasecmp(words[i], "depth") == 0 || strcasecmp(words[i], "nodes") == 0) {
                bad = parse_i64(eq + 1, &v) != 0 || v < 0;
                if (bad)
                    snprintf(err, sizeof err, "bad %s", words[i]);
                else if (strcasecmp(words[i], "depth") == 0)
                    lim.depth = (int)v;
                else
                    lim.nodes = (uint64_t)v;
            } else {
                bad = apply_option(&gs, s, NULL, words[i], eq + 1, err, sizeof err) < 0;
            }
        }
        Built b;
        history_init(&b.hist);
        if (!bad)
            bad = build_position(gs.game, &gs.opt, words + i, nw - i, &b, err, sizeof err) != 0;
        if (bad) {
            engine_error(e, "bench position %d: %s", index, err);
            history_free(&b.hist);
            failed = 1;
            continue;
        }
        if (depth_override)
            lim.depth = (int)depth_override;
        search_clear(s);
        SearchResult res;
        memset(&res, 0, sizeof res);
        atomic_int stop = 0;
        Move best = MOVE_NONE;
        if (full_result(gs.game, b.pos, &gs.opt, &b.hist) == RESULT_NONE)
            best = search_go(s, gs.game, b.pos, &gs.opt, b.hist.keys, b.hist.len, &lim, &stop,
                             NULL, NULL, &res);
        char mv[MOVE_STR_MAX];
        game_move_str(gs.game, b.pos, best, mv, sizeof mv);
        say(e, "info string bench %d %s depth %d nodes %" PRIu64 " bestmove %s", index,
            gs.game->name, res.depth, res.nodes, mv);
        total_nodes += res.nodes;
        history_free(&b.hist);
    }
    int64_t ms = now_ms() - t0;
    search_free(s);
    free(words);
    free(text);
    say(e, "%s", "");
    say(e, "===========================");
    say(e, "Total time (ms) : %" PRId64, ms);
    say(e, "Nodes searched  : %" PRIu64, total_nodes);
    say(e, "Nodes/second    : %" PRIu64, (uint64_t)(total_nodes * 1000 / (uint64_t)(ms > 0 ? ms : 1)));
    return failed ? UGI_ERROR : UGI_OK;
}

/* ------------------------------------------------------------------------ */
/* Engine                                                                    */

Engine *engine_new(FILE *out, const EngineCaps *caps)
{
    Engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->out = out;
    pthread_mutex_init(&e->out_lock, NULL);
    if (caps)
        e->caps = *caps;
    else
        e->caps = (EngineCaps){0, 0, 1, 0, 0};
    e->game = game_list[0];
    game_options_default(&e->opt);
    history_init(&e->hist);
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
    return e;
}

void engine_free(Engine *e)
{
    if (!e)
        return;
    engine_stop(e);
    search_free(e->search);
    history_free(&e->hist);
    pthread_mutex_destroy(&e->out_lock);
    free(e);
}

int engine_command(Engine *e, const char *line) { return engine_input(e, line, strlen(line)); }

int engine_input(Engine *e, const char *line, size_t len)
{
    if (len > 0 && line[len - 1] == '\r')
        len--;
    if (len > UGI_LINE_MAX) {
        engine_error(e, "line longer than %d bytes", UGI_LINE_MAX);
        return UGI_ERROR;
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        if ((c < 0x20 && c != '\t') || c == 0x7f) {
            engine_error(e, "line holds a control byte 0x%02x at column %zu", c, i + 1);
            return UGI_ERROR;
        }
    }
    char *copy = malloc(len + 1);
    char **tok = malloc((len / 2 + 2) * sizeof *tok);
    if (!copy || !tok) {
        free(copy);
        free(tok);
        engine_error(e, "out of memory");
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
        const Command *c = NULL;
        for (int i = 0; i < COMMAND_COUNT && !c; i++)
            if (strcmp(tok[0], commands[i].name) == 0)
                c = &commands[i];
        if (c) {
            int errors = atomic_load(&e->errors);
            rc = c->run(e, tok, n);
            if (rc == UGI_OK && atomic_load(&e->errors) != errors)
                rc = UGI_ERROR;
        } else {
            char tmp[64];
            engine_error(e, "unknown command '%s' (try help)", echo(tok[0], tmp, sizeof tmp));
            rc = UGI_ERROR;
        }
    }
    free(tok);
    free(copy);
    return rc;
}
