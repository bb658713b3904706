/*
 * match_referee.c -- one game of the match.  The referee keeps the
 * position with our own game library, sends both engines the moves so far
 * and a go command for their clock or limit, checks every move with
 * game_parse_move(), and decides the end itself: the game's result(),
 * past_result() for repetition and MoveRule draws, the ply limit.  An
 * engine that crashes, overruns its time or plays an illegal move forfeits.
 * A game over by the rules is then checked against the engines' own
 * `query gameover` / `query result`.
 */
#include "match_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "past.h"

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


static const char *result_word(int result)
{
    switch (result) {
    case RESULT_P1_WIN: return "p1win";
    case RESULT_P2_WIN: return "p2win";
    case RESULT_DRAW: return "draw";
    default: return "none";
    }
}


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
        const char *note = n == 0 && g->pictures && g->pictures->end_note
                               ? g->pictures->end_note(pos, own)
                               : "";
        if (n == 0)
            snprintf(rec->reason, sizeof rec->reason, "%s to move has no legal move%s",
                     side_name(g, g->side_to_move(pos)), note);
        else if (own == RESULT_DRAW)
            snprintf(rec->reason, sizeof rec->reason, "drawn by the rules");
        else /* too few pieces, a line of three, ...: the game knows which */
            snprintf(rec->reason, sizeof rec->reason, "%s wins by the rules",
                     side_name(g, own == RESULT_P1_WIN ? SIDE_P1 : SIDE_P2));
        return;
    }
    int rp = g->reversible_plies ? g->reversible_plies(pos) : -1;
    int rule = game_move_rule(g, pos);
    if (rule > 0 && rp >= rule) {
        rec->term = TERM_MOVERULE;
        snprintf(rec->reason, sizeof rec->reason, "MoveRule: %d plies without removal", rule);
    } else {
        rec->term = TERM_REPETITION;
        snprintf(rec->reason, sizeof rec->reason, "repetition (position seen %d times)",
                 g->repetition_count);
    }
}

/* The go command for the mover, whose time control is tc; clock[] and
 * inc[] are both sides' (by SIDE_*) under a clock. */
static void go_command(const TimeControl *tc, const int64_t clock[2], const int64_t inc[2],
                       char *buf, size_t len)
{
    switch (tc->type) {
    case TC_CLOCK:
        snprintf(buf, len,
                 "go p1time %" PRId64 " p2time %" PRId64 " p1inc %" PRId64 " p2inc %" PRId64,
                 clock[0], clock[1], inc[0], inc[1]);
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
    const char *nd = after_word(line, "nodes");
    if (nd)
        info->nodes = strtoull(nd, NULL, 10);
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
        snprintf(rec->disagree + used, sizeof rec->disagree - used, "%s%s", used ? "; " : "", note);
    }
}

void play_game(Match *m, Worker *w, GameRecord *rec)
{
    const MatchConfig *c = m->c;
    const Game *g = c->game;
    unsigned char pos[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    char err[512], line[ENGINE_LINE_MAX], cmd[256];
    Past hist;
    Text poscmd = {0};
    past_init(&hist);
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
    if (c->demo && rec->result == RESULT_NONE)
        demo_start(m, rec, pos);

    const TimeControl *side_tc[2] = {match_engine_tc(c, rec->p1), match_engine_tc(c, 1 - rec->p1)};
    int64_t clock[2] = {side_tc[0]->time_ms, side_tc[1]->time_ms};
    int64_t inc[2] = {side_tc[0]->inc_ms, side_tc[1]->inc_ms};
    while (rec->result == RESULT_NONE) {
        int result = past_result(g, pos, hist.keys, hist.len);
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
        PlyInfo info = {0};
        info.side = side;
        info.budget_ms = tc->type == TC_CLOCK      ? clock[side]
                         : tc->type == TC_MOVETIME ? tc->movetime_ms
                                                   : -1;
        /* The engine's time runs from the moment go is written: the runner's
         * own work before (the position line) and after (the move carries
         * the kernel's stamp of its writing) is not charged to it. */
        int64_t t0 = 0, deadline = 0;
        int sent = engine_proc_send(&p->proc, poscmd.s) == 0 &&
                   engine_proc_send(&p->proc, cmd) == 0;
        if (sent) {
            t0 = engine_now_ms(); /* go is in the engine's pipe */
            deadline = t0 + (info.budget_ms >= 0 ? info.budget_ms + c->margin_ms : c->timeout_ms);
        }
        if (!sent) {
            player_drop(p);
            forfeit(rec, e, TERM_CRASH, "%s crashed%s", name, " (its input closed)");
            break;
        }
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
        info.ms = (r == 1 ? p->proc.line_ms : engine_now_ms()) - t0;
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
        if (past_push(&hist, g->key(pos)) != 0 || record_ply(rec, &info) != 0) {
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
    if (c->demo)
        demo_end(m, rec);
    past_free(&hist);
    free(poscmd.s);
}
