/*
 * libFuzzer harness for the UGI front end: the input is cut into lines at
 * '\n' and each line goes to engine_input() of a fresh Engine, exactly as
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

#include "ugi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *devnull;
    if (!devnull)
        devnull = fopen("/dev/null", "w");
    if (!devnull)
        abort();
    EngineCaps caps = {.sync_search = 1, .max_perft = 1, .allow_bench = 0,
                       .max_hash_mb = 1, .max_threads = 1};
    Engine *e = engine_new(devnull, &caps);
    if (!e)
        abort();
    engine_command(e, "setoption name Hash value 1");
    size_t start = 0;
    for (size_t i = 0; i <= size; i++) {
        if (i == size || data[i] == '\n') {
            if (engine_input(e, (const char *)data + start, i - start) == UGI_QUIT)
                break;
            start = i + 1;
        }
    }
    engine_free(e);
    return 0;
}
