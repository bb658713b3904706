/*
 * ugi_info.c -- the searchers' reports as `info` lines (ugi_info.h).
 */
#include "ugi_info.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "search/wdl.h"

/* Room for the pv's text within a line. */
#define PV_TEXT_MAX 7168

/* The moves of pv as text, each in its own position, separated by spaces,
 * as many as fit in len bytes. */
static void pv_text(const Game *g, const void *root, const Move *pv, int n, char *buf, size_t len)
{
    unsigned char p[POS_MAX_BYTES], undo[UNDO_MAX_BYTES];
    char text[MOVE_STR_MAX];
    size_t at = 0;
    buf[0] = '\0';
    memcpy(p, root, g->pos_size);
    for (int i = 0; i < n; i++) {
        game_move_str(g, p, pv[i], text, sizeof text);
        size_t tl = strlen(text);
        if (at + tl + 2 > len)
            break;
        if (at)
            buf[at++] = ' ';
        memcpy(buf + at, text, tl + 1);
        at += tl;
        g->make(p, pv[i], undo);
    }
}

void ugi_info_text(const Game *g, const void *root, const SearchInfo *in, char *buf, size_t len)
{
    if (in->kind == SEARCH_INFO_GAME_OVER) {
        snprintf(buf, len, "info depth 0 score cp 0 nodes 0 nps 0 time 0 hashfull 0");
        return;
    }
    char sc[32];
    snprintf(sc, sizeof sc, "%s %d", in->score_kind == SEARCH_SCORE_MATE ? "mate" : "cp",
             in->score);
    if (in->kind == SEARCH_INFO_SOLVED) {
        snprintf(buf, len, "info string solved: %s", sc);
        return;
    }
    char pv[PV_TEXT_MAX], rank[24] = "";
    pv_text(g, root, in->pv, in->npv, pv, sizeof pv);
    /* MultiPV above 1: each line's rank (MultiPV 1 lines carry none) */
    if (in->multipv > 0)
        snprintf(rank, sizeof rank, " multipv %d", in->multipv);
    snprintf(buf, len,
             "info depth %d seldepth %d%s score %s%s nodes %" PRIu64 " nps %" PRIu64
             " time %" PRId64 " hashfull %d%s%s",
             in->depth, in->seldepth, rank, sc, in->lowerbound ? " lowerbound" : "", in->nodes,
             in->nps, in->time_ms, in->hashfull, pv[0] ? " pv " : "", pv);
}

/* --- UCI_ShowWDL ---------------------------------------------------------- */

void ugi_info_add_wdl(const Game *g, const SearchInfo *in, char *line, size_t len)
{
    if (in->kind == SEARCH_INFO_GAME_OVER)
        return;
    int w, d, l, mate = in->score_kind == SEARCH_SCORE_MATE;
    char add[40];
    if (in->kind == SEARCH_INFO_SOLVED) {
        /* The exact value: a mate, a proven draw, or a proven result. */
        w = mate || in->score > 0 ? (in->score > 0 ? 1000 : 0) : 0;
        l = in->score < 0 ? 1000 : 0;
        d = 1000 - w - l;
        snprintf(add, sizeof add, " wdl %d %d %d", w, d, l);
        size_t n = strlen(line);
        if (n + strlen(add) < len)
            memcpy(line + n, add, strlen(add) + 1);
        return;
    }
    if (in->exact && !mate) /* a solver's value: its sign is the result */
        wdl_of_score(g, in->score != 0, in->score == 0, in->score, &w, &d, &l);
    else
        wdl_of_score(g, mate, 0, in->score, &w, &d, &l);
    snprintf(add, sizeof add, " wdl %d %d %d", w, d, l);
    /* After "score cp N" / "score mate N". */
    char *at = strstr(line, " score ");
    if (!at)
        return;
    at += 7;
    at += strcspn(at, " ");
    if (*at)
        at += 1 + strcspn(at + 1, " ");
    size_t n = strlen(line), k = strlen(add);
    if (n + k >= len)
        return;
    memmove(at + k, at, (size_t)(line + n - at) + 1);
    memcpy(at, add, k);
}
