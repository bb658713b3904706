/*
 * The match runner's referee and scheduler (see match.h).
 *
 * Work is handed out by colour-swapped pairs: a worker thread takes the next
 * pair index k, plays game 2k with the first engine as p1 and game 2k+1 with
 * the second engine as p1, both from opening k (cycling through the file).
 * Each worker owns one process of each engine and keeps it between games;
 * an engine that crashed, was killed for overrunning its time or did not
 * answer is started afresh before the next game.  Results, the game record
 * file and the progress line are shared under one mutex.
 */
#include "match.h"

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "engine_proc.h"
#include "history.h"
#include "stats.h"

volatile sig_atomic_t match_interrupted;

/* How a game ended; the report counts each kind. */
enum {
    TERM_RULES,      /* the game's own result() */
    TERM_REPETITION, /* history_result(): repetition */
    TERM_MOVERULE,   /* history_result(): MoveRule */
    TERM_MAXPLIES,   /* adjudicated draw */
    TERM_TIME,       /* out of time, or no reply at all */
    TERM_ILLEGAL,    /* illegal or unreadable move */
    TERM_CRASH,      /* the engine's output closed */
    TERM_START,      /* could not be (re)started or made ready */
    TERM_COUNT
};
static const char *const term_names[TERM_COUNT] = {
    "rules", "repetition", "move rule", "max plies", "time", "illegal move", "crash", "start failure",
};

typedef struct Player {
    EngineProc proc;
    int ready;        /* handshake done, options sent */
    int has_variant;  /* listed UCI_Variant among its options */
    char id_name[MATCH_NAME_MAX]; /* what it calls itself (`id name`) */
} Player;

typedef struct PlyInfo {
    char text[MOVE_STR_MAX];
    int has_score, mate, score, depth;
    int64_t ms;
} PlyInfo;

typedef struct GameRecord {
    int number;           /* 1-based */
    int round;            /* pair number, 1-based */
    int p1;               /* engine index playing p1 */
    const char *opening;  /* the opening line */
    char start_fen[FEN_MAX];
    PlyInfo *plies;
    int nplies, cap;
    int result;           /* RESULT_* (never RESULT_NONE once over) */
    int term;             /* TERM_* */
    char reason[256];
    char disagree[256];   /* "" = both engines agreed */
    int forfeit;          /* engine index that forfeited, -1 none */
} GameRecord;

typedef struct Match {
    const MatchConfig *c;
    FILE *out;
    char **openings;
    int nopenings;
    int pairs_total;
    pthread_mutex_t lock;
    int next_pair;
    int stop;
    MatchSummary sum;
    int terms[TERM_COUNT];
    FILE *pgn;
    int tty;
    char date[16];
} Match;

typedef struct Worker {
    Match *m;
    Player players[2];
    pthread_t thread;
} Worker;

/* --- small text helpers ---------------------------------------------------- */

/* A growable string. */
typedef struct Text {
    char *s;
    size_t len, cap;
} Text;

static int text_add(Text *t, const char *s)
{
    size_t n = strlen(s);
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 256;
        while (t->len + n + 1 > cap)
            cap *= 2;
        char *p = realloc(t->s, cap);
        if (!p)
            return -1;
        t->s = p;
        t->cap = cap;
    }
    memcpy(t->s + t->len, s, n + 1);
    t->len += n;
    return 0;
}

void match_str_copy(char *dst, size_t len, const char *src)
{
    size_t n = strlen(src);
    if (n >= len)
        n = len - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

static int starts_with(const char *s, const char *word)
{
    size_t n = strlen(word);
    return strncmp(s, word, n) == 0 && (s[n] == '\0' || s[n] == ' ' || s[n] == '\t');
}

/* The word after the first occurrence of key as a word in line, or NULL. */
static const char *after_word(const char *line, const char *key)
{
    size_t n = strlen(key);
    for (const char *p = line; (p = strstr(p, key)) != NULL; p += n) {
        int start = p == line || p[-1] == ' ' || p[-1] == '\t';
        if (start && (p[n] == ' ' || p[n] == '\t')) {
            p += n;
            while (*p == ' ' || *p == '\t')
                p++;
            return p;
        }
    }
    return NULL;
}

static const char *side_name(const Game *g, int side)
{
    int morelli = strcmp(g->name, "morelli") == 0;
    if (side == SIDE_P1)
        return morelli ? "Black" : "White";
    return morelli ? "White" : "Black";
}

static const char *result_text(int result)
{
    switch (result) {
    case RESULT_P1_WIN: return "1-0";
    case RESULT_P2_WIN: return "0-1";
    case RESULT_DRAW: return "1/2-1/2";
    default: return "*";
    }
}

static const char *result_word(int result)
{
    switch (result) {
    case RESULT_P1_WIN: return "p1win";
    case RESULT_P2_WIN: return "p2win";
    case RESULT_DRAW: return "draw";
    default: return "none";
    }
}

/* --- engines --------------------------------------------------------------- */

static void player_init(Player *p)
{
    engine_proc_init(&p->proc);
    p->ready = 0;
    p->has_variant = 0;
}

static void player_drop(Player *p)
{
    engine_proc_kill(&p->proc);
    p->ready = 0;
}

/* Reads lines until one starting with word; 1 found, 0 deadline, -1 EOF.
 * An "info string error" line seen on the way is copied to note. */
static int wait_for(Player *p, const char *word, int64_t deadline, char *note, size_t notelen)
{
    char line[ENGINE_LINE_MAX];
    for (;;) {
        int r = engine_proc_readline(&p->proc, line, sizeof line, deadline);
        if (r <= 0)
            return r;
        if (starts_with(line, word))
            return 1;
        if (note && !note[0] && strncmp(line, "info string error", 17) == 0)
            match_str_copy(note, notelen, line + 12);
    }
}

static int send_option(Player *p, const char *name, const char *value)
{
    char line[MATCH_NAME_MAX + MATCH_VALUE_MAX + 40];
    snprintf(line, sizeof line, "setoption name %s value %s", name, value);
    return engine_proc_send(&p->proc, line);
}

/* Starts engine e of the match: ugi/ugiok, the options, isready/readyok.
 * Returns 0, or -1 with the reason in err (the process is gone then). */
static int player_start(const MatchConfig *c, Player *p, int e, char *err, size_t errlen)
{
    const EngineSpec *spec = &c->engines[e];
    player_drop(p);
    if (engine_proc_start(&p->proc, spec->cmd, err, errlen) != 0)
        return -1;
    int64_t deadline = engine_now_ms() + c->start_timeout_ms;
    if (engine_proc_send(&p->proc, "ugi") != 0) {
        snprintf(err, errlen, "%s: cannot write to `%s`", spec->name, spec->cmd);
        player_drop(p);
        return -1;
    }
    char line[ENGINE_LINE_MAX];
    p->has_variant = 0;
    for (;;) {
        int r = engine_proc_readline(&p->proc, line, sizeof line, deadline);
        if (r <= 0) {
            snprintf(err, errlen, "%s: %s before ugiok (command `%s`)", spec->name,
                     r == 0 ? "no answer" : "exited", spec->cmd);
            player_drop(p);
            return -1;
        }
        if (starts_with(line, "ugiok") || starts_with(line, "uciok"))
            break;
        if (starts_with(line, "id")) {
            const char *n = after_word(line, "name");
            if (n && *n)
                match_str_copy(p->id_name, sizeof p->id_name, n);
        }
        if (starts_with(line, "option")) {
            const char *n = after_word(line, "name");
            if (n && strncasecmp(n, "UCI_Variant", 11) == 0 && (n[11] == ' ' || !n[11]))
                p->has_variant = 1;
        }
    }
    int bad = 0;
    if (p->has_variant)
        bad |= send_option(p, "UCI_Variant", c->game->name);
    for (int i = 0; i < c->neach; i++)
        bad |= send_option(p, c->each[i].name, c->each[i].value);
    for (int i = 0; i < spec->noptions; i++)
        bad |= send_option(p, spec->options[i].name, spec->options[i].value);
    bad |= engine_proc_send(&p->proc, "isready");
    char note[256] = "";
    int r = bad ? -1
                : wait_for(p, "readyok", engine_now_ms() + c->start_timeout_ms, note, sizeof note);
    if (r <= 0) {
        snprintf(err, errlen, "%s: %s after its options", spec->name,
                 r == 0 ? "no readyok" : "exited");
        player_drop(p);
        return -1;
    }
    if (note[0]) {
        snprintf(err, errlen, "%s rejected an option: %s", spec->name, note);
        player_drop(p);
        return -1;
    }
    p->ready = 1;
    return 0;
}

/* --- one game ---------------------------------------------------------------- */

static int record_ply(GameRecord *rec, const PlyInfo *info)
{
    if (rec->nplies == rec->cap) {
        int cap = rec->cap ? rec->cap * 2 : 128;
        PlyInfo *p = realloc(rec->plies, (size_t)cap * sizeof *p);
        if (!p)
            return -1;
        rec->plies = p;
        rec->cap = cap;
    }
    rec->plies[rec->nplies++] = *info;
    return 0;
}

static void forfeit(GameRecord *rec, int e, int term, const char *fmt, const char *name,
                    const char *detail)
{
    rec->forfeit = e;
    rec->term = term;
    rec->result = e == rec->p1 ? RESULT_P2_WIN : RESULT_P1_WIN;
    char text[2048];
    snprintf(text, sizeof text, fmt, name, detail);
    match_str_copy(rec->reason, sizeof rec->reason, text);
}

/* Why the rules ended the game at pos. */
static void natural_reason(const MatchConfig *c, const void *pos, int result, GameRecord *rec)
{
    const Game *g = c->game;
    int own = g->result(pos);
    rec->result = result;
    if (own != RESULT_NONE) {
        rec->term = TERM_RULES;
        Move moves[g->max_moves > 0 ? g->max_moves : 1];
        int n = g->gen_moves(pos, moves);
        const char *throne = "";
        if (n == 0 && g == &game_morelli) /* the Throne decides Morelli */
            throne = own == RESULT_DRAW    ? "; the Throne is empty"
                     : own == RESULT_P1_WIN ? "; the Black king holds the Throne"
                                            : "; the White king holds the Throne";
        if (n == 0)
            snprintf(rec->reason, sizeof rec->reason, "%s to move has no legal move%s",
                     side_name(g, g->side_to_move(pos)), throne);
        else if (own == RESULT_DRAW)
            snprintf(rec->reason, sizeof rec->reason, "drawn by the rules");
        else /* too few pieces, a line of three, ...: the game knows which */
            snprintf(rec->reason, sizeof rec->reason, "%s wins by the rules",
                     side_name(g, own == RESULT_P1_WIN ? SIDE_P1 : SIDE_P2));
        return;
    }
    int rp = g->reversible_plies ? g->reversible_plies(pos) : -1;
    if (g->uses_move_rule && c->game_opt.move_rule > 0 && rp >= c->game_opt.move_rule) {
        rec->term = TERM_MOVERULE;
        snprintf(rec->reason, sizeof rec->reason, "MoveRule: %d plies without removal",
                 c->game_opt.move_rule);
    } else {
        rec->term = TERM_REPETITION;
        snprintf(rec->reason, sizeof rec->reason, "repetition (position seen %d times)",
                 g->repetition_count);
    }
}

void match_unique_names(MatchConfig *c)
{
    if (strcmp(c->engines[0].name, c->engines[1].name) == 0)
        for (int e = 0; e < 2; e++) {
            size_t l = strlen(c->engines[e].name);
            if (l > MATCH_NAME_MAX - 4)
                l = MATCH_NAME_MAX - 4;
            c->engines[e].name[l] = '#';
            c->engines[e].name[l + 1] = (char)('1' + e);
            c->engines[e].name[l + 2] = '\0';
        }
}

const TimeControl *match_engine_tc(const MatchConfig *c, int e)
{
    return c->engines[e].has_tc ? &c->engines[e].tc : &c->tc;
}

/* The go command for the mover, whose time control is tc; clock[] and
 * inc[] are both sides' (by SIDE_*) under a clock. */
static void go_command(const TimeControl *tc, const int64_t clock[2], const int64_t inc[2],
                       char *buf, size_t len)
{
    switch (tc->type) {
    case TC_CLOCK:
        snprintf(buf, len, "go p1time %" PRId64 " p2time %" PRId64 " p1inc %" PRId64
                 " p2inc %" PRId64, clock[0], clock[1], inc[0], inc[1]);
        break;
    case TC_MOVETIME: snprintf(buf, len, "go movetime %" PRId64, tc->movetime_ms); break;
    case TC_DEPTH: snprintf(buf, len, "go depth %d", tc->depth); break;
    default: snprintf(buf, len, "go nodes %" PRIu64, tc->nodes); break;
    }
}

/* Picks score and depth out of an info line. */
static void parse_info(const char *line, PlyInfo *info)
{
    const char *s = after_word(line, "score");
    if (s) {
        if (strncmp(s, "cp ", 3) == 0) {
            info->has_score = 1;
            info->mate = 0;
            info->score = atoi(s + 3);
        } else if (strncmp(s, "mate ", 5) == 0) {
            info->has_score = 1;
            info->mate = 1;
            info->score = atoi(s + 5);
        }
    }
    const char *d = after_word(line, "depth");
    if (d)
        info->depth = atoi(d);
}

/* Asks engine e whether the game is over and how; notes a difference. */
static void query_engine(Match *m, Player *p, int e, const char *poscmd, int result,
                         GameRecord *rec)
{
    const MatchConfig *c = m->c;
    char line[ENGINE_LINE_MAX];
    char gameover[32] = "", answer[32] = "";
    /* An engine without `query` must not cost much time a game. */
    int64_t deadline = engine_now_ms() + (c->start_timeout_ms < 3000 ? c->start_timeout_ms : 3000);
    if (!p->ready || engine_proc_send(&p->proc, poscmd) != 0 ||
        engine_proc_send(&p->proc, "query gameover") != 0)
        return;
    for (int step = 0; step < 2; step++) {
        int r;
        while ((r = engine_proc_readline(&p->proc, line, sizeof line, deadline)) == 1 &&
               !starts_with(line, "response"))
            ;
        if (r != 1)
            break;
        const char *word = line + 8;
        while (*word == ' ' || *word == '\t')
            word++;
        snprintf(step ? answer : gameover, 32, "%.*s", (int)strcspn(word, " \t"), word);
        if (step == 0 && engine_proc_send(&p->proc, "query result") != 0)
            break;
    }
    char note[128] = "";
    if (strcmp(gameover, "true") != 0)
        snprintf(note, sizeof note, "%s: gameover %s", c->engines[e].name,
                 gameover[0] ? gameover : "(no answer)");
    else if (strcmp(answer, result_word(result)) != 0)
        snprintf(note, sizeof note, "%s: result %s", c->engines[e].name,
                 answer[0] ? answer : "(no answer)");
    if (note[0]) {
        size_t used = strlen(rec->disagree);
        snprintf(rec->disagree + used, sizeof rec->disagree - used, "%s%s", used ? "; " : "",
                 note);
    }
}

/* Prints one ply of the demo: the move, the engine's report, the board. */
static void demo_ply(Match *m, const void *pos, int side, int e, const PlyInfo *info, int ply)
{
    const MatchConfig *c = m->c;
    FILE *out = m->out;
    fprintf(out, "\n%3d. %s (%s): %s", ply, side_name(c->game, side), c->engines[e].name,
            info->text);
    if (info->has_score) {
        if (info->mate)
            fprintf(out, "   score mate %d", info->score);
        else
            fprintf(out, "   score cp %+d", info->score);
    }
    if (info->depth)
        fprintf(out, "  depth %d", info->depth);
    fprintf(out, "  %" PRId64 " ms\n", info->ms);
    c->game->print(pos, out, m->tty);
    fflush(out);
}

/*
 * Plays one game between the workers' engines; rec->p1 and rec->opening are
 * set by the caller.  Fills the rest of rec.
 */
static void play_game(Match *m, Worker *w, GameRecord *rec)
{
    const MatchConfig *c = m->c;
    const Game *g = c->game;
    unsigned char pos[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    char err[512], line[ENGINE_LINE_MAX], cmd[256];
    History hist;
    Text poscmd = {0};
    history_init(&hist);
    rec->result = RESULT_NONE;
    rec->forfeit = -1;
    rec->nplies = 0;
    rec->reason[0] = rec->disagree[0] = '\0';

    /* The start position (validated when the openings were read). */
    if (strcmp(rec->opening, "startpos") == 0)
        g->init(pos, &c->game_opt, err, sizeof err);
    else
        g->from_fen(pos, rec->opening, &c->game_opt, err, sizeof err);
    g->to_fen(pos, rec->start_fen, sizeof rec->start_fen);
    if (strcmp(rec->opening, "startpos") == 0) {
        text_add(&poscmd, "position startpos");
    } else {
        text_add(&poscmd, "position fen ");
        text_add(&poscmd, rec->opening);
    }
    size_t bare = poscmd.len; /* without " moves ..." */

    /* Both engines alive and ready for a new game. */
    for (int e = 0; e < 2 && rec->result == RESULT_NONE; e++) {
        Player *p = &w->players[e];
        if (!p->ready && player_start(c, p, e, err, sizeof err) != 0) {
            forfeit(rec, e, TERM_START, "%s could not be restarted: %s", c->engines[e].name, err);
            break;
        }
        int r = -1;
        if (engine_proc_send(&p->proc, "uginewgame") == 0 &&
            engine_proc_send(&p->proc, "isready") == 0)
            r = wait_for(p, "readyok", engine_now_ms() + c->start_timeout_ms, NULL, 0);
        if (r != 1) {
            player_drop(p);
            forfeit(rec, e, r == 0 ? TERM_TIME : TERM_CRASH, "%s %s", c->engines[e].name,
                    r == 0 ? "gave no readyok for a new game" : "died before the game");
        }
    }
    if (c->demo && rec->result == RESULT_NONE) {
        fprintf(m->out, "%s (%s) vs %s (%s), %s from %s\n", c->engines[rec->p1].name,
                side_name(g, SIDE_P1), c->engines[1 - rec->p1].name, side_name(g, SIDE_P2),
                g->name, rec->start_fen);
        g->print(pos, m->out, m->tty);
        fflush(m->out);
    }

    const TimeControl *side_tc[2] = {match_engine_tc(c, rec->p1), match_engine_tc(c, 1 - rec->p1)};
    int64_t clock[2] = {side_tc[0]->time_ms, side_tc[1]->time_ms};
    int64_t inc[2] = {side_tc[0]->inc_ms, side_tc[1]->inc_ms};
    while (rec->result == RESULT_NONE) {
        int result = history_result(g, pos, &c->game_opt, hist.keys, hist.len);
        if (result != RESULT_NONE) {
            natural_reason(c, pos, result, rec);
            break;
        }
        if (rec->nplies >= c->max_plies) {
            rec->result = RESULT_DRAW;
            rec->term = TERM_MAXPLIES;
            snprintf(rec->reason, sizeof rec->reason, "adjudicated draw after %d plies",
                     c->max_plies);
            break;
        }
        int side = g->side_to_move(pos);
        int e = side == SIDE_P1 ? rec->p1 : 1 - rec->p1;
        Player *p = &w->players[e];
        const char *name = c->engines[e].name;
        const TimeControl *tc = side_tc[side];
        go_command(tc, clock, inc, cmd, sizeof cmd);
        int64_t t0 = engine_now_ms(), deadline;
        if (tc->type == TC_CLOCK)
            deadline = t0 + clock[side] + c->margin_ms;
        else if (tc->type == TC_MOVETIME)
            deadline = t0 + tc->movetime_ms + c->margin_ms;
        else
            deadline = t0 + c->timeout_ms;
        if (engine_proc_send(&p->proc, poscmd.s) != 0 || engine_proc_send(&p->proc, cmd) != 0) {
            player_drop(p);
            forfeit(rec, e, TERM_CRASH, "%s crashed%s", name, " (its input closed)");
            break;
        }
        PlyInfo info = {0};
        int r;
        const char *best = NULL;
        while ((r = engine_proc_readline(&p->proc, line, sizeof line, deadline)) == 1) {
            if (starts_with(line, "bestmove")) {
                best = line + 8;
                while (*best == ' ' || *best == '\t')
                    best++;
                break;
            }
            if (starts_with(line, "info"))
                parse_info(line, &info);
        }
        info.ms = engine_now_ms() - t0;
        if (r == 0) {
            player_drop(p); /* hung past its time: kill it, restart next game */
            char detail[64];
            snprintf(detail, sizeof detail, "%" PRId64 " ms", deadline - t0);
            forfeit(rec, e, TERM_TIME, "%s lost on time (no move within %s)", name, detail);
            break;
        }
        if (r < 0) {
            player_drop(p);
            forfeit(rec, e, TERM_CRASH, "%s crashed%s", name, " (its output closed)");
            break;
        }
        if (tc->type == TC_CLOCK) {
            int64_t left = clock[side] - info.ms;
            clock[side] = (left > 0 ? left : 0) + inc[side];
        }
        char movetext[MOVE_STR_MAX];
        size_t mlen = strcspn(best, " \t");
        snprintf(movetext, sizeof movetext, "%.*s", (int)(mlen < 60 ? mlen : 60), best);
        Move mv = game_parse_move(g, pos, movetext);
        if (mv == MOVE_NONE) {
            char quoted[MOVE_STR_MAX + 4];
            snprintf(quoted, sizeof quoted, "'%s'", movetext);
            forfeit(rec, e, TERM_ILLEGAL, "%s played an illegal move %s", name, quoted);
            break;
        }
        game_move_str(g, pos, mv, info.text, sizeof info.text);
        if (history_push(&hist, g->key(pos)) != 0 || record_ply(rec, &info) != 0) {
            rec->result = RESULT_DRAW;
            rec->term = TERM_MAXPLIES;
            snprintf(rec->reason, sizeof rec->reason, "out of memory: adjudicated draw");
            break;
        }
        g->make(pos, mv, undo);
        text_add(&poscmd, poscmd.len == bare ? " moves " : " ");
        text_add(&poscmd, info.text);
        if (c->demo)
            demo_ply(m, pos, side, e, &info, rec->nplies);
    }

    /* A game over by the rules: both engines must say so too. */
    if (rec->term == TERM_RULES || rec->term == TERM_REPETITION || rec->term == TERM_MOVERULE) {
        for (int e = 0; e < 2; e++)
            query_engine(m, &w->players[e], e, poscmd.s, rec->result, rec);
    }
    if (c->demo) {
        const char *who = rec->result == RESULT_DRAW ? "nobody"
                          : rec->result == RESULT_P1_WIN ? c->engines[rec->p1].name
                                                         : c->engines[1 - rec->p1].name;
        fprintf(m->out, "\nResult: %s (%s wins) after %d plies: %s%s%s\n",
                result_text(rec->result), who, rec->nplies, rec->reason,
                rec->disagree[0] ? "; disagreement: " : "", rec->disagree);
        fflush(m->out);
    }
    history_free(&hist);
    free(poscmd.s);
}

/* --- records and the report ---------------------------------------------------- */

static void option_list(const MatchOption *o, int n, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", i ? " " : "", o[i].name,
                                 o[i].value);
}

static void tc_text(const TimeControl *tc, char *buf, size_t len)
{
    switch (tc->type) {
    case TC_CLOCK: snprintf(buf, len, "%" PRId64 "+%" PRId64 " ms", tc->time_ms, tc->inc_ms); break;
    case TC_MOVETIME: snprintf(buf, len, "movetime %" PRId64 " ms", tc->movetime_ms); break;
    case TC_DEPTH: snprintf(buf, len, "depth %d", tc->depth); break;
    default: snprintf(buf, len, "nodes %" PRIu64, tc->nodes); break;
    }
}

/* [Key "value"], with '"' and '\\' escaped and control bytes dropped. */
static void pgn_tag(FILE *f, const char *key, const char *value)
{
    fprintf(f, "[%s \"", key);
    for (const unsigned char *v = (const unsigned char *)value; *v; v++) {
        if (*v == '"' || *v == '\\')
            fputc('\\', f);
        if (*v >= 0x20 && *v != 0x7f)
            fputc(*v, f);
    }
    fputs("\"]\n", f);
}

static void write_pgn(Match *m, const GameRecord *rec)
{
    const MatchConfig *c = m->c;
    FILE *f = m->pgn;
    char buf[MATCH_MAX_OPTIONS * (MATCH_NAME_MAX + MATCH_VALUE_MAX + 2)];
    const char *n1 = c->engines[rec->p1].name, *n2 = c->engines[1 - rec->p1].name;
    char num[32];
    pgn_tag(f, "Event", "morelli match");
    pgn_tag(f, "Site", "?");
    pgn_tag(f, "Date", m->date);
    snprintf(num, sizeof num, "%d", rec->round);
    pgn_tag(f, "Round", num);
    snprintf(num, sizeof num, "%d", rec->number);
    pgn_tag(f, "Game", num);
    pgn_tag(f, "Variant", c->game->name);
    pgn_tag(f, "P1", n1);
    pgn_tag(f, "P2", n2);
    pgn_tag(f, side_name(c->game, SIDE_P1), n1);
    pgn_tag(f, side_name(c->game, SIDE_P2), n2);
    option_list(c->each, c->neach, buf, sizeof buf);
    if (buf[0])
        pgn_tag(f, "Options", buf);
    const EngineSpec *s1 = &c->engines[rec->p1], *s2 = &c->engines[1 - rec->p1];
    option_list(s1->options, s1->noptions, buf, sizeof buf);
    if (buf[0])
        pgn_tag(f, "P1Options", buf);
    option_list(s2->options, s2->noptions, buf, sizeof buf);
    if (buf[0])
        pgn_tag(f, "P2Options", buf);
    if (!c->engines[0].has_tc && !c->engines[1].has_tc) {
        tc_text(&c->tc, buf, sizeof buf);
        pgn_tag(f, "TimeControl", buf);
    } else {
        tc_text(match_engine_tc(c, rec->p1), buf, sizeof buf);
        pgn_tag(f, "P1TimeControl", buf);
        tc_text(match_engine_tc(c, 1 - rec->p1), buf, sizeof buf);
        pgn_tag(f, "P2TimeControl", buf);
    }
    pgn_tag(f, "Opening", rec->opening);
    pgn_tag(f, "FEN", rec->start_fen);
    pgn_tag(f, "Result", result_text(rec->result));
    pgn_tag(f, "Termination", term_names[rec->term]);
    pgn_tag(f, "Reason", rec->reason);
    if (rec->disagree[0])
        pgn_tag(f, "Disagreement", rec->disagree);
    snprintf(num, sizeof num, "%d", rec->nplies);
    pgn_tag(f, "PlyCount", num);
    fputc('\n', f);
    int col = 0;
    for (int i = 0; i < rec->nplies; i++) {
        const PlyInfo *pl = &rec->plies[i];
        char item[MOVE_STR_MAX + 64], comment[48] = "";
        if (pl->has_score && pl->mate)
            snprintf(comment, sizeof comment, " {M%d/%d %" PRId64 "ms}", pl->score, pl->depth, pl->ms);
        else if (pl->has_score)
            snprintf(comment, sizeof comment, " {%+.2f/%d %" PRId64 "ms}", pl->score / 100.0,
                     pl->depth, pl->ms);
        else
            snprintf(comment, sizeof comment, " {%" PRId64 "ms}", pl->ms);
        if (i % 2 == 0)
            snprintf(item, sizeof item, "%d. %s%s", i / 2 + 1, pl->text, comment);
        else
            snprintf(item, sizeof item, "%s%s", pl->text, comment);
        int n = (int)strlen(item);
        if (col > 0 && col + 1 + n > 79) {
            fputc('\n', f);
            col = 0;
        }
        fprintf(f, "%s%s", col ? " " : "", item);
        col += n + (col ? 1 : 0);
    }
    fprintf(f, "%s%s\n\n", col ? " " : "", result_text(rec->result));
    fflush(f);
}

/* The first engine's half-points in a game (0, 1, 2). */
static int half_points(const GameRecord *rec)
{
    if (rec->result == RESULT_DRAW)
        return 1;
    int p1_won = rec->result == RESULT_P1_WIN;
    return (p1_won == (rec->p1 == 0)) ? 2 : 0;
}

static void update_sprt(Match *m)
{
    const MatchConfig *c = m->c;
    MatchSummary *s = &m->sum;
    if (!c->sprt)
        return;
    stats_sprt_bounds(c->alpha, c->beta, &s->llr_lower, &s->llr_upper);
    if (c->sprt_model == SPRT_PENTANOMIAL)
        s->llr = stats_llr_pentanomial(s->penta, c->elo0, c->elo1);
    else
        s->llr = stats_llr_trinomial(s->wins, s->draws, s->losses, c->elo0, c->elo1);
    s->sprt_decision = stats_sprt_decision(s->llr, s->llr_lower, s->llr_upper);
    if (s->sprt_decision)
        m->stop = 1;
}

static void fmt_elo(double x, char *buf, size_t len)
{
    if (isinf(x))
        snprintf(buf, len, "%sinf", x > 0 ? "+" : "-");
    else
        snprintf(buf, len, "%+.1f", fabs(x) < 0.05 ? 0.0 : x);
}

/* "Elo +12.3 [-20.1, +45.0]" of the games so far. */
static void elo_line(const MatchSummary *s, char *buf, size_t len)
{
    EloEstimate e;
    if (stats_elo_trinomial(s->wins, s->draws, s->losses, &e) != 0) {
        snprintf(buf, len, "Elo -");
        return;
    }
    char a[16], lo[16], hi[16];
    fmt_elo(e.elo, a, sizeof a);
    fmt_elo(e.elo_lo, lo, sizeof lo);
    fmt_elo(e.elo_hi, hi, sizeof hi);
    snprintf(buf, len, "Elo %s [%s, %s]", a, lo, hi);
}

/* Called with the lock held when a game is over. */
static void game_done(Match *m, const GameRecord *rec)
{
    const MatchConfig *c = m->c;
    MatchSummary *s = &m->sum;
    int hp = half_points(rec);
    s->games++;
    if (hp == 2)
        s->wins++;
    else if (hp == 1)
        s->draws++;
    else
        s->losses++;
    if (rec->disagree[0])
        s->disagreements++;
    if (rec->forfeit >= 0)
        s->forfeits[rec->forfeit]++;
    m->terms[rec->term]++;
    if (m->pgn)
        write_pgn(m, rec);
    if (c->sprt && c->sprt_model == SPRT_TRINOMIAL)
        update_sprt(m);
    if (c->quiet || c->demo)
        return;
    char elo[96], sprt[96] = "";
    elo_line(s, elo, sizeof elo);
    if (c->sprt)
        snprintf(sprt, sizeof sprt, "  LLR %.2f [%.2f, %.2f]", s->llr, s->llr_lower,
                 s->llr_upper);
    int total = c->games;
    if (m->tty)
        fprintf(m->out, "\r\033[K");
    if (!m->tty || rec->forfeit >= 0 || rec->disagree[0]) {
        fprintf(m->out, "game %d/%d: %s - %s %s (%s)%s%s\n", rec->number, total,
                c->engines[rec->p1].name, c->engines[1 - rec->p1].name,
                result_text(rec->result), rec->reason, rec->disagree[0] ? "; disagreement: " : "",
                rec->disagree);
    }
    fprintf(m->out, "%d/%d games  %s: +%d =%d -%d  %s%s%s", s->games, total,
            c->engines[0].name, s->wins, s->draws, s->losses, elo, sprt, m->tty ? "" : "\n");
    fflush(m->out);
}

static void pair_done(Match *m, const GameRecord *a, const GameRecord *b)
{
    m->sum.penta[half_points(a) + half_points(b)]++;
    m->sum.pairs++;
    if (m->c->sprt && m->c->sprt_model == SPRT_PENTANOMIAL)
        update_sprt(m);
}

static void report(Match *m)
{
    const MatchConfig *c = m->c;
    const MatchSummary *s = &m->sum;
    FILE *out = m->out;
    char buf[128];
    if (c->demo)
        return; /* the game's own result line says it all */
    if (m->tty && !c->quiet)
        fprintf(out, "\n");
    char buf2[128];
    tc_text(match_engine_tc(c, 0), buf, sizeof buf);
    tc_text(match_engine_tc(c, 1), buf2, sizeof buf2);
    if (strcmp(buf, buf2) == 0)
        fprintf(out, "\n%s vs %s, %s, %s\n", c->engines[0].name, c->engines[1].name,
                c->game->name, buf);
    else
        fprintf(out, "\n%s (%s) vs %s (%s), %s\n", c->engines[0].name, buf, c->engines[1].name,
                buf2, c->game->name);
    EloEstimate e;
    fprintf(out, "games %d: %s +%d =%d -%d", s->games, c->engines[0].name, s->wins, s->draws,
            s->losses);
    if (stats_elo_trinomial(s->wins, s->draws, s->losses, &e) == 0) {
        char a[16], lo[16], hi[16];
        fmt_elo(e.elo, a, sizeof a);
        fmt_elo(e.elo_lo, lo, sizeof lo);
        fmt_elo(e.elo_hi, hi, sizeof hi);
        fprintf(out, "  score %.3f  Elo %s [%s, %s] (95%%)  LOS %.1f%%", e.score, a, lo, hi,
                100 * stats_los(s->wins, s->losses));
    }
    fprintf(out, "\n");
    if (s->pairs > 0) {
        fprintf(out, "pairs %d: pentanomial [0, 1/2, 1, 3/2, 2] = [%d, %d, %d, %d, %d]", s->pairs,
                s->penta[0], s->penta[1], s->penta[2], s->penta[3], s->penta[4]);
        if (stats_elo_pentanomial(s->penta, &e) == 0) {
            char a[16], lo[16], hi[16];
            fmt_elo(e.elo, a, sizeof a);
            fmt_elo(e.elo_lo, lo, sizeof lo);
            fmt_elo(e.elo_hi, hi, sizeof hi);
            fprintf(out, "  Elo %s [%s, %s] (95%%)", a, lo, hi);
        }
        fprintf(out, "\n");
    }
    if (c->sprt) {
        const char *verdict = s->sprt_decision > 0   ? "H1 accepted"
                              : s->sprt_decision < 0 ? "H0 accepted"
                                                     : "no decision";
        fprintf(out, "SPRT elo0=%g elo1=%g alpha=%g beta=%g (%s): LLR %.3f [%.3f, %.3f]: %s\n",
                c->elo0, c->elo1, c->alpha, c->beta,
                c->sprt_model == SPRT_PENTANOMIAL ? "pentanomial" : "trinomial", s->llr,
                s->llr_lower, s->llr_upper, verdict);
    }
    if (match_interrupted)
        fprintf(out, "interrupted: %d of %d games played\n", s->games, c->games);
    fprintf(out, "endings:");
    for (int t = 0; t < TERM_COUNT; t++)
        if (m->terms[t])
            fprintf(out, " %s %d,", term_names[t], m->terms[t]);
    fprintf(out, " disagreements %d; forfeits %s %d, %s %d\n", s->disagreements,
            c->engines[0].name, s->forfeits[0], c->engines[1].name, s->forfeits[1]);
    fflush(out);
}

/* --- workers --------------------------------------------------------------------- */

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
