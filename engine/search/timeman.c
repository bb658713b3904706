#include "timeman.h"

#include <time.h>

/* Wall ms between two looks at the thread's CPU time (a system call). */
#define CPU_LOOK_MS 5

int64_t time_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t thread_cpu_us(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return -1;
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int64_t clamp(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Kept off a movetime besides MoveOverhead: the searchers' reaction time
 * (a look at the clock every 256 nodes or every playout) and the writing of
 * the answer. */
static int64_t margin_for(int64_t avail)
{
    return clamp(avail / 50, 1, TIME_MARGIN_MAX_MS);
}

/* A fixed movetime's budget: the margin, the overhead and what was learned
 * of the answers' lateness (at most half of it) off. */
static int64_t movetime_budget(const SearchLimits *l, int64_t overhead_ms)
{
    int64_t mt = clamp(l->movetime, 1, TIME_MAX_MS);
    int64_t late = clamp(l->late_ms, 0, mt / 2);
    return clamp(mt - margin_for(mt) - late - clamp(overhead_ms, 0, TIME_MAX_MS), 1, TIME_MAX_MS);
}

/* The smaller of two budgets, -1 meaning none. */
static int64_t tighter(int64_t a, int64_t b)
{
    return a < 0 ? b : b < 0 ? a : a < b ? a : b;
}

int timeman_clock_missing(const SearchLimits *l, int side)
{
    int any = l->time[0] >= 0 || l->time[1] >= 0;
    return any && (side < 0 || side > 1 || l->time[side] < 0);
}

int timeman_bounded(const SearchLimits *l)
{
    if (l->infinite)
        return 0;
    return l->depth > 0 || l->nodes > 0 || l->movetime > 0 || l->time[0] >= 0 || l->time[1] >= 0;
}

int timeman_starved(int64_t wall_ms, int64_t cpu_ms)
{
    return wall_ms >= TIME_STARVE_MIN_MS && cpu_ms * 3 < wall_ms;
}

void timeman_budget(const SearchLimits *l, int side, int64_t overhead_ms, int64_t *soft,
                    int64_t *hard)
{
    *soft = *hard = -1;
    if (l->infinite)
        return;
    int64_t lag = clamp(overhead_ms, 0, TIME_MAX_MS);
    if (l->movetime > 0)
        *soft = *hard = movetime_budget(l, lag);
    if (timeman_clock_missing(l, side)) {
        /* Somebody's clock, not ours: answer soon rather than never. */
        int64_t least = TIME_MAX_MS;
        for (int s = 0; s < 2; s++)
            if (l->time[s] >= 0 && l->time[s] < least)
                least = l->time[s];
        int64_t t = clamp(least / 20, 1, TIME_NO_CLOCK_MS);
        *soft = tighter(*soft, t);
        *hard = tighter(*hard, t);
        return;
    }
    if (side < 0 || side > 1 || l->time[side] < 0)
        return;
    int64_t left = clamp(l->time[side], 0, TIME_MAX_MS);
    int64_t inc = clamp(l->inc[side], 0, TIME_MAX_MS);
    /* A lag learned from the clocks counts like MoveOverhead, and is paid
     * from the increment before anything of it is planned. */
    int64_t learned = clamp(l->lag_ms, 0, TIME_MAX_MS);
    if (learned > lag)
        lag = learned;
    int64_t spend_inc = inc > learned ? inc - learned : 0;
    /* Never planned: the last moves of a game far past the horizon, and
     * the lag of every move, are paid from it.  It is held, not halved with
     * the clock: once the clock is down to it, moves are made on the
     * increment alone, and the reserve is left for what a busy machine
     * adds (a stall of a few hundred ms must not lose on time). */
    int64_t reserve = clamp(50 + 5 * lag + clamp(5 * inc, 0, 100), 0, left);
    int64_t usable = clamp(left - reserve - lag, 1, TIME_MAX_MS);
    int mtg = l->movestogo > 0 ? l->movestogo : 40; /* 0: sudden death */
    if (mtg > 50)
        mtg = 50;
    int64_t s = usable / mtg + spend_inc * 3 / 4;
    int64_t h = s * 4;
    /* Never more than a fifth of what is usable (90% with one move to go):
     * an iteration that overruns the soft budget stops there, and the clock
     * decays geometrically instead of running out. */
    int64_t cap = l->movestogo == 1 ? usable * 9 / 10 : usable / 5 + spend_inc / 2;
    h = clamp(h, 1, clamp(cap, 1, usable));
    s = clamp(s, 1, h);
    *soft = tighter(*soft, s);
    *hard = tighter(*hard, h);
}

int64_t timeman_lag_update(int64_t lag, int64_t left_before, int64_t inc, int64_t left_now,
                           int64_t own_ms)
{
    int64_t charged = clamp(left_before, 0, TIME_MAX_MS) + clamp(inc, 0, TIME_MAX_MS) -
                      clamp(left_now, 0, TIME_MAX_MS);
    int64_t sample = clamp(charged - clamp(own_ms, 0, TIME_MAX_MS), 0, 500);
    return (3 * clamp(lag, 0, 500) + sample + 2) / 4;
}

int timeman_fixed(const SearchLimits *l, int side, int64_t overhead_ms)
{
    if (l->infinite || l->movetime <= 0)
        return 0;
    int64_t own = movetime_budget(l, overhead_ms);
    int64_t soft, hard;
    timeman_budget(l, side, overhead_ms, &soft, &hard);
    return soft == own && hard == own;
}

int64_t timeman_late_update(int64_t late, int64_t planned, int64_t own_ms)
{
    int64_t sample = clamp(own_ms - planned, 0, TIME_LATE_MAX_MS);
    late = clamp(late, 0, TIME_LATE_MAX_MS);
    /* Up half the way at once, down an eighth: the late answers, not the
     * mean, lose games. */
    return sample > late ? late + (sample - late + 1) / 2 : late - (late - sample) / 8;
}

void timeman_init(TimeManager *tm, const SearchLimits *l, int side, int64_t overhead_ms)
{
    int64_t now = time_now_ms();
    tm->start_ms = l->start_ms > 0 && l->start_ms <= now ? l->start_ms : now;
    tm->fixed = timeman_fixed(l, side, overhead_ms);
    /* What the scheduler made us wait before the search could start, it
     * will likely make the answer wait on its way out: kept off too (under
     * a clock; a fixed movetime is the GUI's own deadline, used whole). */
    tm->late_ms = tm->fixed ? 0 : now - tm->start_ms;
    tm->cpu0_us = thread_cpu_us();
    tm->next_look = TIME_STARVE_MIN_MS;
    tm->starved = 0;
    tm->scale = 100;
    tm->changes = 0;
    tm->last_best = MOVE_NONE;
    tm->last_score = 0;
    tm->iterations = 0;
    timeman_budget(l, side, overhead_ms, &tm->soft_ms, &tm->hard_ms);
}

int64_t timeman_elapsed(const TimeManager *tm)
{
    return time_now_ms() - tm->start_ms;
}

/* Wall ms since go, with a look at the CPU time now and then.  Starvation
 * is judged again at every look, over the whole time since go: a thread the
 * scheduler held back for a moment and then served catches up and gets its
 * whole budget back. */
static int64_t look(TimeManager *tm)
{
    int64_t wall = timeman_elapsed(tm);
    if (wall >= tm->next_look && tm->cpu0_us >= 0 && !tm->fixed) {
        tm->next_look = wall + CPU_LOOK_MS;
        int64_t cpu = thread_cpu_us();
        if (cpu >= 0)
            tm->starved = timeman_starved(wall, (cpu - tm->cpu0_us) / 1000);
    }
    return wall;
}

int timeman_hard_over(TimeManager *tm)
{
    if (tm->hard_ms < 0)
        return 0;
    int64_t wall = look(tm) + tm->late_ms;
    return wall >= (tm->starved ? tm->hard_ms / 2 : tm->hard_ms);
}

int timeman_soft_over(TimeManager *tm, int num, int den)
{
    if (tm->soft_ms < 0)
        return 0;
    int64_t wall = look(tm) + tm->late_ms;
    int64_t soft = tm->starved ? tm->soft_ms / 2 : tm->soft_ms;
    return wall * den >= soft * num;
}

int timeman_stop_iterating(TimeManager *tm, int num, int den)
{
    if (tm->soft_ms >= tm->hard_ms)
        return 0;
    return timeman_soft_over(tm, num * tm->scale, den * 100);
}

int timeman_scale(int changes, int iterations, int fall)
{
    /* The first iterations are too shallow to judge the move by. */
    if (iterations < TIME_JUDGE_ITERATIONS)
        return 100;
    int scale = TIME_SCALE_STABLE + changes * 7 / 10;
    if (fall >= 50)
        scale += 50;
    else if (fall >= 20)
        scale += 25;
    return (int)clamp(scale, TIME_SCALE_STABLE, TIME_SCALE_MAX);
}

void timeman_iteration(TimeManager *tm, Move best, int score)
{
    int changed = tm->iterations > 0 && best != tm->last_best;
    /* A fall between scores of the evaluation (a proven score ends the
     * search anyway). */
    int evals = score > -SCORE_MATE_BOUND && score < SCORE_MATE_BOUND &&
                tm->last_score > -SCORE_MATE_BOUND && tm->last_score < SCORE_MATE_BOUND;
    int fall = tm->iterations > 0 && evals ? tm->last_score - score : 0;
    /* Each change of the best move weighs 100, halved at every iteration
     * after it: a move that changed at the last iteration counts fully,
     * one that changed five iterations ago hardly. */
    tm->changes = tm->changes / 2 + (changed ? 100 : 0);
    tm->scale = timeman_scale(tm->changes, tm->iterations, fall);
    tm->iterations++;
    tm->last_best = best;
    tm->last_score = score;
}
