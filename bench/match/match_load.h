/*
 * match_load.h -- a busy machine on demand: N processes that spin on the
 * CPU for as long as the match runs (`build/match --load N`), so timing
 * under load can be reproduced (docs/match.md, "A busy machine").
 *
 * Each is a child of the runner that does nothing but loop; it is killed
 * when load_stop() is called, and by the kernel when the runner dies
 * (PR_SET_PDEATHSIG), so no loop outlives the match.
 */
#ifndef MORELLI_BENCH_MATCH_LOAD_H
#define MORELLI_BENCH_MATCH_LOAD_H

#include <stddef.h>
#include <sys/types.h>

#define LOAD_MAX 256

typedef struct Load {
    int n;
    pid_t pid[LOAD_MAX];
} Load;

/* Starts n (0..LOAD_MAX) busy processes. Returns 0, or -1 with a message in
 * err and none left running. */
int load_start(Load *l, int n, char *err, size_t errlen);
/* Kills and reaps them. Safe to repeat. */
void load_stop(Load *l);

#endif
