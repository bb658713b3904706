/*
 * The WDL model (engine/search/wdl.c): the three chances always sum to
 * 1000, the win chance never falls and the loss chance never rises as the
 * score grows, proven scores are exact, and a few values worked by hand
 * from the fitted table (tests/data/wdl.txt).  The protocol's `wdl` words
 * are tested by tests/data/protocol_wdl.txt.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "game.h"
#include "search/wdl.h"
#include "testdata.h"

static void test_table(void **state)
{
    (void)state;
    FILE *f = td_open("wdl.txt");
    char line[512], *fl[TD_MAXF];
    int nf, rows = 0;
    while ((nf = td_next_record(f, line, sizeof line, fl)) > 0) {
        const Game *g = game_by_name(fl[1]); /* NULL: a game without a fit */
        int w, d, l, ew, ed, el;
        if (strcmp(fl[0], "cp") == 0 && nf == 4) {
            assert_int_equal(sscanf(fl[3], "%d %d %d", &ew, &ed, &el), 3);
            wdl_of_score(g, 0, 0, atoi(fl[2]), &w, &d, &l);
            if (w != ew || d != ed || l != el)
                fail_msg("%s cp %s: %d %d %d, want %s", fl[1], fl[2], w, d, l, fl[3]);
        } else if (strcmp(fl[0], "exact") == 0 && nf == 5) {
            assert_int_equal(sscanf(fl[4], "%d %d %d", &ew, &ed, &el), 3);
            int kind = atoi(fl[2]);
            wdl_of_score(g, kind == 1, kind == 2, atoi(fl[3]), &w, &d, &l);
            if (w != ew || d != ed || l != el)
                fail_msg("%s exact %s: %d %d %d, want %s", fl[1], fl[3], w, d, l, fl[4]);
        } else if (strcmp(fl[0], "sweep") == 0 && nf == 5) {
            int pw = -1, pl = 1001;
            for (int s = atoi(fl[2]); s <= atoi(fl[3]); s += atoi(fl[4])) {
                int nw, nd, nl;
                wdl_of_score(g, 0, 0, s, &w, &d, &l);
                wdl_of_score(g, 0, 0, -s, &nw, &nd, &nl);
                if (w + d + l != 1000 || w < 0 || d < 0 || l < 0)
                    fail_msg("%s %d: %d %d %d", fl[1], s, w, d, l);
                if (w < pw || l > pl)
                    fail_msg("%s %d: %d %d %d not monotonic", fl[1], s, w, d, l);
                if (nw != l || nl != w)
                    fail_msg("%s %d: %d %d %d, at %d: %d %d %d", fl[1], s, w, d, l, -s, nw, nd, nl);
                pw = w;
                pl = l;
            }
        } else {
            fail_msg("bad record '%s' (%d fields)", fl[0], nf);
        }
        rows++;
    }
    fclose(f);
    assert_true(rows >= 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
