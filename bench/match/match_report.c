/*
 * match_report.c -- what the match runner writes: a PGN-like record of
 * every game (--pgnout), the progress line after each game, the SPRT
 * bookkeeping, and the final report (score, Elo, pentanomial pairs,
 * endings, forfeits).  Called with the match's lock held.
 */
#include "match_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats.h"

const char *const term_names[TERM_COUNT] = {
    "rules", "repetition",   "move rule", "max plies",
    "time",  "illegal move", "crash",     "start failure",
};

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

/*
 * One game record.  The tags open with PGN's seven-tag roster (Event, Site,
 * Date, Round, White, Black, Result) and Result is White's: 1-0 a win of the
 * [White] player, whatever side moved first (Morelli's first player is
 * Black).  The movetext numbers moves as PGN does: "N." before White's move,
 * "N..." before a Black move that opens the movetext, N counting up after
 * each Black move; a game that Black starts opens with "1...", from a FEN
 * with Black to move.
 */
static void write_pgn(Match *m, const GameRecord *rec)
{
    const MatchConfig *c = m->c;
    const Game *g = c->game;
    FILE *f = m->pgn;
    char buf[MATCH_MAX_OPTIONS * (MATCH_NAME_MAX + MATCH_VALUE_MAX + 2)];
    const char *n1 = c->engines[rec->p1].name, *n2 = c->engines[1 - rec->p1].name;
    int white = white_side(g);
    char num[32];
    pgn_tag(f, "Event", "morelli match");
    pgn_tag(f, "Site", "?");
    pgn_tag(f, "Date", m->date);
    snprintf(num, sizeof num, "%d", rec->round);
    pgn_tag(f, "Round", num);
    pgn_tag(f, "White", white == SIDE_P1 ? n1 : n2);
    pgn_tag(f, "Black", white == SIDE_P1 ? n2 : n1);
    pgn_tag(f, "Result", result_text(g, rec->result));
    snprintf(num, sizeof num, "%d", rec->number);
    pgn_tag(f, "Game", num);
    pgn_tag(f, "Variant", g->name);
    pgn_tag(f, "P1", n1);
    pgn_tag(f, "P2", n2);
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
    pgn_tag(f, "SetUp", "1");
    pgn_tag(f, "FEN", rec->start_fen);
    pgn_tag(f, "Termination", term_names[rec->term]);
    pgn_tag(f, "Reason", rec->reason);
    if (rec->disagree[0])
        pgn_tag(f, "Disagreement", rec->disagree);
    snprintf(num, sizeof num, "%d", rec->nplies);
    pgn_tag(f, "PlyCount", num);
    fputc('\n', f);
    int col = 0, moveno = 1;
    for (int i = 0; i < rec->nplies; i++) {
        const PlyInfo *pl = &rec->plies[i];
        char item[MOVE_STR_MAX + 96], comment[48] = "", number[24] = "";
        if (pl->has_score && pl->mate)
            snprintf(comment, sizeof comment, " {M%d/%d %" PRId64 "ms}", pl->score, pl->depth,
                     pl->ms);
        else if (pl->has_score)
            snprintf(comment, sizeof comment, " {%+.2f/%d %" PRId64 "ms}", pl->score / 100.0,
                     pl->depth, pl->ms);
        else
            snprintf(comment, sizeof comment, " {%" PRId64 "ms}", pl->ms);
        if (pl->side == white)
            snprintf(number, sizeof number, "%d. ", moveno);
        else if (i == 0 || rec->plies[i - 1].side != white)
            snprintf(number, sizeof number, "%d... ", moveno);
        snprintf(item, sizeof item, "%s%s%s", number, pl->text, comment);
        if (pl->side != white)
            moveno++;
        int n = (int)strlen(item);
        if (col > 0 && col + 1 + n > 79) {
            fputc('\n', f);
            col = 0;
        }
        fprintf(f, "%s%s", col ? " " : "", item);
        col += n + (col ? 1 : 0);
    }
    fprintf(f, "%s%s\n\n", col ? " " : "", result_text(g, rec->result));
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
    snprintf(buf, len, "%+.1f", fabs(x) < 0.05 ? 0.0 : x);
}

/*
 * The Elo of a sample as text: "Elo +12.3 [-20.1, +45.0]" (with " (95%)"
 * when pct), a bound alone when the other is out of reach ("Elo +381.7,
 * above +150.2"), or why there is none ("Elo: too few games (all 10
 * won)"): never an infinite Elo shown as a measurement.  unit names the
 * sample's units (games or pairs).
 */
static void elo_text(const EloEstimate *e, const char *unit, int pct, char *buf, size_t len)
{
    char a[16], lo[16], hi[16];
    const char *p = pct ? " (95%)" : "";
    if (!e->measured) {
        int n = (int)(e->units + 0.5);
        if (n == 1)
            snprintf(buf, len, "Elo: too few %s (only 1)", unit);
        else if (e->score >= 1 || e->score <= 0)
            snprintf(buf, len, "Elo: too few %s (all %d %s)", unit, n,
                     e->score >= 1 ? "won" : "lost");
        else if (!strcmp(unit, "games"))
            snprintf(buf, len, "Elo: too few %s (all %d drawn)", unit, n);
        else
            snprintf(buf, len, "Elo: too few %s (all %d scored %g of 2)", unit, n, 2 * e->score);
        return;
    }
    fmt_elo(e->elo, a, sizeof a);
    fmt_elo(e->elo_lo, lo, sizeof lo);
    fmt_elo(e->elo_hi, hi, sizeof hi);
    if (e->has_lo && e->has_hi)
        snprintf(buf, len, "Elo %s [%s, %s]%s", a, lo, hi, p);
    else if (e->has_lo)
        snprintf(buf, len, "Elo %s, above %s%s", a, lo, p);
    else if (e->has_hi)
        snprintf(buf, len, "Elo %s, below %s%s", a, hi, p);
    else
        snprintf(buf, len, "Elo %s, too few %s for an interval", a, unit);
}

/* "Elo +12.3 [-20.1, +45.0]" of the games so far. */
static void elo_line(const MatchSummary *s, char *buf, size_t len)
{
    EloEstimate e;
    if (stats_elo_trinomial(s->wins, s->draws, s->losses, &e) != 0) {
        snprintf(buf, len, "Elo -");
        return;
    }
    elo_text(&e, "games", 0, buf, len);
}

void game_done(Match *m, const GameRecord *rec)
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
    for (int i = 0; i < rec->nplies; i++) {
        const PlyInfo *pl = &rec->plies[i];
        if (pl->budget_ms < 0)
            continue;
        int64_t over = pl->ms - pl->budget_ms;
        if (s->timed_moves++ == 0 || over > s->max_over_ms)
            s->max_over_ms = over;
        s->late_moves += over > 0;
        if (pl->ms > s->max_move_ms)
            s->max_move_ms = pl->ms;
    }
    if (m->pgn)
        write_pgn(m, rec);
    if (c->sprt && c->sprt_model == SPRT_TRINOMIAL)
        update_sprt(m);
    if (c->quiet || c->demo)
        return;
    char elo[96], sprt[96] = "";
    elo_line(s, elo, sizeof elo);
    if (c->sprt)
        snprintf(sprt, sizeof sprt, "  LLR %.2f [%.2f, %.2f]", s->llr, s->llr_lower, s->llr_upper);
    int total = c->games;
    if (m->tty)
        fprintf(m->out, "\r\033[K");
    if (!m->tty || rec->forfeit >= 0 || rec->disagree[0]) {
        int w = white_side(c->game) == SIDE_P1 ? rec->p1 : 1 - rec->p1;
        fprintf(m->out, "game %d/%d: %s - %s %s (%s)%s%s\n", rec->number, total, c->engines[w].name,
                c->engines[1 - w].name, result_text(c->game, rec->result), rec->reason,
                rec->disagree[0] ? "; disagreement: " : "", rec->disagree);
    }
    fprintf(m->out, "%d/%d games  %s: +%d =%d -%d  %s%s%s", s->games, total, c->engines[0].name,
            s->wins, s->draws, s->losses, elo, sprt, m->tty ? "" : "\n");
    fflush(m->out);
}

void pair_done(Match *m, const GameRecord *a, const GameRecord *b)
{
    m->sum.penta[half_points(a) + half_points(b)]++;
    m->sum.pairs++;
    if (m->c->sprt && m->c->sprt_model == SPRT_PENTANOMIAL)
        update_sprt(m);
}

void report(Match *m)
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
        fprintf(out, "\n%s vs %s, %s, %s\n", c->engines[0].name, c->engines[1].name, c->game->name,
                buf);
    else
        fprintf(out, "\n%s (%s) vs %s (%s), %s\n", c->engines[0].name, buf, c->engines[1].name,
                buf2, c->game->name);
    EloEstimate e;
    fprintf(out, "games %d: %s +%d =%d -%d", s->games, c->engines[0].name, s->wins, s->draws,
            s->losses);
    if (stats_elo_trinomial(s->wins, s->draws, s->losses, &e) == 0) {
        elo_text(&e, "games", 1, buf, sizeof buf);
        fprintf(out, "  score %.3f  %s  LOS %.1f%%", e.score, buf,
                100 * stats_los(s->wins, s->losses));
    }
    fprintf(out, "\n");
    if (s->pairs > 0) {
        fprintf(out, "pairs %d: pentanomial [0, 1/2, 1, 3/2, 2] = [%d, %d, %d, %d, %d]", s->pairs,
                s->penta[0], s->penta[1], s->penta[2], s->penta[3], s->penta[4]);
        if (stats_elo_pentanomial(s->penta, &e) == 0) {
            elo_text(&e, "pairs", 1, buf, sizeof buf);
            fprintf(out, "  %s", buf);
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
    fprintf(out, " disagreements %d; forfeits %s %d, %s %d\n", s->disagreements, c->engines[0].name,
            s->forfeits[0], c->engines[1].name, s->forfeits[1]);
    if (s->timed_moves > 0)
        fprintf(out,
                "timing: %d moves, %d over their budget (clock left or movetime), longest "
                "overshoot %+" PRId64 " ms, longest move %" PRId64 " ms (grace %" PRId64 " ms)\n",
                s->timed_moves, s->late_moves, s->max_over_ms, s->max_move_ms, c->margin_ms);
    fflush(out);
}
