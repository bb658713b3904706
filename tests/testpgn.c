/* The match runner's PGN records for the tests: see testpgn.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "testpgn.h"

int pgn_read(FILE *f, PgnRecord *g)
{
    char line[4096];
    memset(g, 0, sizeof *g);
    g->plycount = -1;
    int in_moves = 0;
    size_t used = 0;
    while (fgets(line, sizeof line, f)) {
        if (!in_moves && line[0] == '[') {
            char key[32], val[1024] = "";
            if (sscanf(line, "[%31s \"%1023[^\"]\"]", key, val) < 1)
                fail_msg("bad tag line: %s", line);
            if (g->ntags < PGN_FIRST_TAGS)
                snprintf(g->first_tags[g->ntags], sizeof g->first_tags[0], "%s", key);
            g->ntags++;
            struct {
                const char *key;
                char *dst;
                size_t len;
            } want[] = {
                {"White", g->white, sizeof g->white},
                {"Black", g->black, sizeof g->black},
                {"Result", g->result, sizeof g->result},
                {"Termination", g->term, sizeof g->term},
                {"Reason", g->reason, sizeof g->reason},
                {"FEN", g->fen, sizeof g->fen},
                {"Variant", g->variant, sizeof g->variant},
            };
            for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
                if (!strcmp(key, want[i].key))
                    snprintf(want[i].dst, want[i].len, "%s", val);
            if (!strcmp(key, "PlyCount"))
                g->plycount = atoi(val);
            continue;
        }
        if (line[0] == '\n') {
            if (in_moves)
                return 1;
            if (g->ntags)
                in_moves = 1;
            continue;
        }
        size_t n = strlen(line);
        assert_true(used + n < sizeof g->movetext);
        memcpy(g->movetext + used, line, n + 1);
        used += n;
    }
    return g->ntags > 0;
}

int pgn_moves(const PgnRecord *g, char (*moves)[MOVE_STR_MAX], int max)
{
    char *text = strdup(g->movetext), *save = NULL;
    assert_non_null(text);
    int n = 0, in_comment = 0;
    for (char *t = strtok_r(text, " \n", &save); t; t = strtok_r(NULL, " \n", &save)) {
        if (in_comment || t[0] == '{') {
            in_comment = !strchr(t, '}');
            continue;
        }
        size_t len = strlen(t);
        if (!strcmp(t, g->result) || (len && t[len - 1] == '.'))
            continue;
        assert_true(n < max);
        snprintf(moves[n++], MOVE_STR_MAX, "%s", t);
    }
    free(text);
    return n;
}
