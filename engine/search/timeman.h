/*
 * timeman.h -- how long a search may run.
 *
 * From the limits and the side to move, timeman_init() sets two budgets:
 *   soft: a searcher starts no new iteration (alpha-beta) or stops at a
 *         check point (MCTS) once this much time has passed;
 *   hard: the search is stopped wherever it is.
 * Both keep a safety margin off the clock so the engine never loses on
 * time: the margin covers the protocol's latency and the few milliseconds
 * the searchers need to notice the limit (they look at the clock every
 * TIME_CHECK_NODES nodes or a few playouts).
 */
#ifndef MORELLI_TIMEMAN_H
#define MORELLI_TIMEMAN_H

#include <stdint.h>

#include "search.h"

#define TIME_CHECK_NODES 256

typedef struct TimeManager {
    int64_t start_ms; /* monotonic clock at the start */
    int64_t soft_ms;  /* -1 = none */
    int64_t hard_ms;  /* -1 = none */
} TimeManager;

/* Monotonic milliseconds. */
int64_t time_now_ms(void);

/* Budgets for the side to move (SIDE_P1/SIDE_P2); infinite, depth- and
 * node-only searches get none. */
/* overhead_ms (the MoveOverhead option) is taken off every movetime and
 * clock before the budgets are set: the time the move takes to travel
 * between the GUI and the engine, which the engine cannot see. */
void timeman_init(TimeManager *tm, const SearchLimits *l, int side, int64_t overhead_ms);
int64_t timeman_elapsed(const TimeManager *tm);
/* Non-zero once the hard budget is spent. */
int timeman_hard_over(const TimeManager *tm);
/* Non-zero once the fraction num/den of the soft budget is spent. */
int timeman_soft_over(const TimeManager *tm, int num, int den);

#endif
