/*
 * timeman.h -- how long a search may run.
 *
 * From the limits and the side to move, timeman_init() sets two budgets:
 *   soft: a searcher starts no new iteration (alpha-beta) or stops at a
 *         check point (MCTS) once this much time has passed;
 *   hard: the search is stopped wherever it is.
 * Both count from the instant `go` was read (SearchLimits.start_ms, taken
 * by the protocol's reader), not from the start of the search thread, which
 * a busy machine may delay by hundreds of milliseconds.  Both keep time off
 * the clock: MoveOverhead for the way to the GUI and back, a margin for the
 * searchers' reaction, and under a clock a reserve that is never planned,
 * so a game far longer than the time manager's horizon of 40 moves still
 * has time left for its last moves.  docs/search.md gives the formulas.
 *
 * A search thread that has had less than a third of the wall time since
 * go as CPU time (the machine is overloaded) is starved: its nodes per
 * second collapse, and what it is not given now it may not be given when
 * it has to answer either.  While it is starved, both budgets count half.
 * And the time from the reading of go to the start of the search (the wait
 * for a CPU) counts twice: the answer will likely wait as long on its way
 * out.  Neither rule applies to a fixed movetime, the GUI's own deadline.
 */
#ifndef MORELLI_TIMEMAN_H
#define MORELLI_TIMEMAN_H

#include <stdint.h>

#include "search.h"

/* Alpha-beta's main thread looks at the clock every this many nodes. */
#define TIME_CHECK_NODES 256
/* Clock values (and movetime, increments, MoveOverhead) beyond this count
 * as this: 30 days. */
#define TIME_MAX_MS (30LL * 24 * 3600 * 1000)
/* A `go` with clocks but none for the side to move: at most this long (and
 * at most a twentieth of the smallest clock given). */
#define TIME_NO_CLOCK_MS 100
/* Kept off a movetime besides MoveOverhead: at most this (T/50 below). */
#define TIME_MARGIN_MAX_MS 5
/* The share (percent) of the soft budget an iterative search plans when
 * its best move has been stable, and the most it plans when the move keeps
 * changing and the score falls (timeman_scale()). */
#define TIME_SCALE_STABLE 65
#define TIME_SCALE_MAX 250
/* A sample of the lateness of fixed movetimes counts at most this. */
#define TIME_LATE_MAX_MS 500
/* Iterations completed before stability is judged. */
#define TIME_JUDGE_ITERATIONS 4
/* Starvation is judged only after this much wall time since `go`. */
#define TIME_STARVE_MIN_MS 20

typedef struct TimeManager {
    int64_t start_ms;  /* monotonic clock when go was read */
    int64_t soft_ms;   /* -1 = none */
    int64_t hard_ms;   /* -1 = none */
    int64_t cpu0_us;   /* the searching thread's CPU time at timeman_init() */
    int64_t next_look; /* wall ms (since start) of the next look at the CPU time */
    int starved;       /* at the last look: the budgets count half */
    int64_t late_ms;   /* from go read to timeman_init(): counted twice */
    int fixed;         /* the budget is a fixed movetime (timeman_fixed()) */
    int scale;         /* percent of the soft budget planned (timeman_scale()) */
    int changes;       /* recent changes of the best move, decaying */
    int iterations;    /* iterations told through timeman_iteration() */
    Move last_best;
    int last_score;
} TimeManager;

/* Monotonic milliseconds (CLOCK_MONOTONIC): the time base of start_ms. */
int64_t time_now_ms(void);

/*
 * The budgets (ms from the reading of go; -1 = none) for the side to move
 * (SIDE_P1/SIDE_P2) under limits l, with overhead_ms (the MoveOverhead
 * option) taken off every movetime and clock.  Infinite, depth- and
 * node-only searches get none.  Pure: no clock is read.
 */
void timeman_budget(const SearchLimits *l, int side, int64_t overhead_ms, int64_t *soft,
                    int64_t *hard);
/*
 * The lag learned from the clocks: the side to move had left_before ms and
 * inc at its last go, answered own_ms after reading it, and now has
 * left_now.  What the clock lost beyond own_ms (the way to the GUI and
 * back, a busy machine that ran the engine late) is one sample; the lag is
 * a running mean of them (each sample weighs a quarter, at most 500 ms).
 * Under clocks the budgets keep it off like MoveOverhead (the larger of the
 * two counts) and spend only the increment beyond it.  Pure.
 */
int64_t timeman_lag_update(int64_t lag, int64_t left_before, int64_t inc, int64_t left_now,
                           int64_t own_ms);
/* The lateness learned from fixed movetimes: a search planned planned ms
 * (its hard budget) and its bestmove went out own_ms after go was read.
 * What it took beyond the plan (a busy machine that ran the answer late;
 * 0..TIME_LATE_MAX_MS) is one sample: the lateness moves half the way up
 * to a larger sample, an eighth of the way down to a smaller one.
 * The next fixed movetime plans that much less (at most half of it).  Pure. */
int64_t timeman_late_update(int64_t late, int64_t planned, int64_t own_ms);
/* Non-zero when l gives clocks, but none for side. */
int timeman_clock_missing(const SearchLimits *l, int side);
/* Non-zero when a search under l ends by itself (a time budget, a depth or
 * a node limit); zero for `go infinite` and a `go` without any limit. */
int timeman_bounded(const SearchLimits *l);
/* Non-zero when the budget under l is a fixed movetime (tighter than any
 * clock): it is the GUI's own deadline, used whole, quiet or loaded, so
 * neither starvation nor a late start shortens it. */
int timeman_fixed(const SearchLimits *l, int side, int64_t overhead_ms);
/* The percent of the soft budget an iterative search under a clock plans,
 * after iterations completed iterations: TIME_SCALE_STABLE when the best
 * move stayed, more with changes (the decaying count of timeman_iteration,
 * 100 a change) and when the score fell by fall centipawns or more since
 * the last iteration (20: +25, 50: +50); at most TIME_SCALE_MAX.  Pure. */
int timeman_scale(int changes, int iterations, int fall);
/* Non-zero when a thread that got cpu_ms of CPU time in the wall_ms since
 * go was read counts as starved. */
int timeman_starved(int64_t wall_ms, int64_t cpu_ms);

/* The budgets of timeman_budget(), counting from l->start_ms (from now when
 * it is 0).  Call it in the thread that searches (its CPU time is watched). */
void timeman_init(TimeManager *tm, const SearchLimits *l, int side, int64_t overhead_ms);
/* Wall ms since go was read. */
int64_t timeman_elapsed(const TimeManager *tm);
/* Non-zero once the hard budget is spent. */
int timeman_hard_over(TimeManager *tm);
/* Non-zero once the fraction num/den of the soft budget is spent. */
int timeman_soft_over(TimeManager *tm, int num, int den);
/* Whether an iterative search should start no new iteration: past num/den
 * of the soft budget, but only when the soft budget is below the hard one
 * (a clock), scaled by the stability of the best move (timeman_iteration).
 * A fixed movetime (soft == hard) is used whole: the iteration cut by the
 * hard limit still gives its best move so far. */
int timeman_stop_iterating(TimeManager *tm, int num, int den);
/* An iterative search completed an iteration with this best move and
 * score (the side to move's view): sets the scale of the soft budget that
 * timeman_stop_iterating() uses (timeman_scale()). */
void timeman_iteration(TimeManager *tm, Move best, int score);

#endif
