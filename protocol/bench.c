/*
 * bench.c -- the `bench` command: a fixed search of the positions of
 * bench/positions.txt (embedded by bench_data.c), one line per position and
 * the total nodes, the search's signature.  It uses a Search of its own with
 * one thread, so the node count is the same every run.
 *
 * bench/positions.txt, one position a line:
 *   <variant> [Name=Value ...] [depth=N] [nodes=N] startpos|fen <fen> [moves ...]
 * '#' starts a comment line.  Name=Value are game or search options applied
 * over the defaults; depth= and nodes= are the search limits.
 */
#include "ugi_internal.h"

#include "morris/morris_tb.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int cmd_bench(Session *e, char **tok, int n)
{
    char tmp[64];
    int64_t depth_override = 0;
    if (n > 2 || (n == 2 && (parse_i64(tok[1], &depth_override) != 0 || depth_override < 1 ||
                             depth_override > 64))) {
        session_error(e, "usage: bench [depth 1..64]%s%s", n == 2 ? ", not " : "",
                      n == 2 ? echo(tok[1], tmp, sizeof tmp) : "");
        return UGI_ERROR;
    }
    if (!e->caps.allow_bench) {
        session_error(e, "bench: disabled here");
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
        session_error(e, "bench: out of memory");
        return UGI_ERROR;
    }
    uint64_t total_nodes = 0;
    tb_suspend(1); /* the same nodes whatever table files lie on disk */
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
        if (!bad)
            bad = search_options_default(s, err, sizeof err) != 0;
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
        past_init(&b.hist);
        if (!bad)
            bad = build_position(gs.game, &gs.opt, words + i, nw - i, &b, err, sizeof err) != 0;
        if (bad) {
            session_error(e, "bench position %d: %s", index, err);
            past_free(&b.hist);
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
        if (full_result(gs.game, b.pos, &b.hist) == RESULT_NONE)
            best = search_go(s, gs.game, b.pos, &gs.opt, b.hist.keys, b.hist.len, &lim, &stop, NULL,
                             NULL, &res);
        char mv[MOVE_STR_MAX];
        game_move_str(gs.game, b.pos, best, mv, sizeof mv);
        say(e, "info string bench %d %s depth %d nodes %" PRIu64 " bestmove %s", index,
            gs.game->name, res.depth, res.nodes, mv);
        total_nodes += res.nodes;
        past_free(&b.hist);
    }
    int64_t ms = now_ms() - t0;
    tb_suspend(0);
    search_free(s);
    free(words);
    free(text);
    say(e, "%s", "");
    say(e, "===========================");
    say(e, "Total time (ms) : %" PRId64, ms);
    say(e, "Nodes searched  : %" PRIu64, total_nodes);
    say(e, "Nodes/second    : %" PRIu64,
        (uint64_t)(total_nodes * 1000 / (uint64_t)(ms > 0 ? ms : 1)));
    return failed ? UGI_ERROR : UGI_OK;
}
