/*
 * libFuzzer harness for the UGI front end: the input is cut into lines at
 * '\n' and each line goes to session_input() of a fresh Session, exactly as
 * main.c passes stdin lines.  Searches run in the caller's thread at depth
 * 1, perft stops at depth 1, bench is refused, Hash and Threads are capped:
 * every input ends in milliseconds and the same input always does the same.
 * Output goes to /dev/null; what is checked is that nothing crashes, leaks
 * or trips a sanitizer.  Build and run: see docs/protocol.md ("Fuzzing").
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "ugi.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A solver builds its tables on its first call (seconds under the
 * sanitizers): once here, so no single input pays for it. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    GameOptions o;
    game_options_default(&o);
    for (int i = 0; i < game_count; i++) {
        const Game *g = game_list[i];
        unsigned char pos[POS_MAX_BYTES];
        char err[256];
        int value;
        Move best;
        if (g->solver && g->init(pos, &o, err, sizeof err) == 0)
            (void)g->solver->solve(pos, &value, &best);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *devnull;
    if (!devnull)
        devnull = fopen("/dev/null", "w");
    if (!devnull)
        abort();
    SessionCaps caps = {.sync_search = 1,
                        .max_perft = 1,
                        .allow_bench = 0,
                        .max_hash_mb = 1,
                        .max_threads = 1};
    Session *e = session_new(devnull, &caps);
    if (!e)
        abort();
    session_command(e, "setoption name Hash value 1");
    size_t start = 0;
    for (size_t i = 0; i <= size; i++) {
        if (i == size || data[i] == '\n') {
            if (session_input(e, (const char *)data + start, i - start) == UGI_QUIT)
                break;
            start = i + 1;
        }
    }
    session_free(e);
    return 0;
}
