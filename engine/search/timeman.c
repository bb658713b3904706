#include "timeman.h"

#include <time.h>

int64_t time_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Kept off every clock: the protocol's latency and our reaction time. */
static int64_t margin_for(int64_t avail)
{
    int64_t m = avail / 10;
    if (m > 50)
        m = 50;
    if (m < 1)
        m = 1;
    return m;
}

void timeman_init(TimeManager *tm, const SearchLimits *l, int side, int64_t overhead_ms)
{
    tm->start_ms = time_now_ms();
    tm->soft_ms = tm->hard_ms = -1;
    if (l->infinite)
        return;
    if (l->movetime > 0) {
        int64_t t = l->movetime - margin_for(l->movetime) - overhead_ms;
        if (t < 1)
            t = 1;
        tm->soft_ms = tm->hard_ms = t;
    }
    if (side < 0 || side > 1 || l->time[side] < 0)
        return;
    int64_t left = l->time[side];
    int64_t inc = l->inc[side] > 0 ? l->inc[side] : 0;
    int64_t usable = left - margin_for(left) - overhead_ms;
    if (usable < 1)
        usable = 1;
    int mtg = l->movestogo > 0 ? l->movestogo : 40;
    if (mtg > 50)
        mtg = 50;
    int64_t soft = usable / mtg + inc * 3 / 4;
    int64_t hard = soft * 4;
    /* Never more than a fifth of what is left (90% with one move to go),
     * never more than what is usable: an iteration that overruns the soft
     * budget stops there, and the clock decays geometrically instead of
     * running out. */
    int64_t cap = l->movestogo == 1 ? usable * 9 / 10 : usable / 5 + inc / 2;
    if (cap > usable)
        cap = usable;
    if (hard > cap)
        hard = cap;
    if (soft > hard)
        soft = hard;
    if (soft < 1)
        soft = 1;
    if (hard < 1)
        hard = 1;
    if (tm->hard_ms < 0 || hard < tm->hard_ms)
        tm->hard_ms = hard;
    if (tm->soft_ms < 0 || soft < tm->soft_ms)
        tm->soft_ms = soft;
}

int64_t timeman_elapsed(const TimeManager *tm) { return time_now_ms() - tm->start_ms; }

int timeman_hard_over(const TimeManager *tm)
{
    return tm->hard_ms >= 0 && timeman_elapsed(tm) >= tm->hard_ms;
}

int timeman_soft_over(const TimeManager *tm, int num, int den)
{
    return tm->soft_ms >= 0 && timeman_elapsed(tm) * den >= tm->soft_ms * num;
}
