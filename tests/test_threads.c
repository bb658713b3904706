/*
 * The searchers' threads: a helper that cannot be started (the thread
 * starter replaced by one that fails, tests/data/threads.txt) leaves the
 * search running with the threads it has and one notice; MCTS with one
 * thread gives the same search twice, and with several a legal move after
 * at least the playouts asked for.  A search answers without waiting for
 * its helpers: one held at a stop check (the test's hook) does not keep it
 * from returning, and is joined before the next search, an option set or
 * the Search freed (tests/data/threads_hold.txt).
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "game.h"
#include "notice.h"
#include "search/search.h"
#include "search/search_internal.h"
#include "testdata.h"

/* --- a thread starter that fails -------------------------------------- */

static int allow; /* helpers still allowed to start */

static int failing_create(pthread_t *th, void *(*fn)(void *), void *arg)
{
    if (allow <= 0)
        return 11; /* EAGAIN */
    allow--;
    return pthread_create(th, NULL, fn, arg);
}

static char told[8][256];
static int ntold;

static void keep_notice(void *ctx, const char *text)
{
    (void)ctx;
    if (ntold < 8)
        snprintf(told[ntold], sizeof told[ntold], "%s", text);
    ntold++;
}

static Move search_limited(Search *s, const Game *g, const char *limit, SearchResult *r)
{
    unsigned char pos[POS_MAX_BYTES];
    char err[256];
    GameOptions opt;
    game_options_default(&opt);
    assert_int_equal(g->init(pos, &opt, err, sizeof err), 0);
    SearchLimits lim;
    search_limits_init(&lim);
    char kind[16];
    long long v;
    assert_int_equal(sscanf(limit, "%15s %lld", kind, &v), 2);
    if (strcmp(kind, "depth") == 0)
        lim.depth = (int)v;
    else
        lim.nodes = (uint64_t)v;
    Move m = search_go(s, g, pos, &opt, NULL, 0, &lim, NULL, NULL, NULL, r);
    assert_true(search_move_legal(g, pos, m));
    return m;
}

/* A search with the row's searcher (fd[1]) and Threads (fd[2]), Hash 4. */
static Search *search_of_row(char **fd)
{
    Search *s = search_new();
    char err[128];
    assert_int_equal(search_setoption(s, "Search", fd[1], err, sizeof err), 0);
    assert_int_equal(search_setoption(s, "Hash", "4", err, sizeof err), 0);
    assert_int_equal(search_setoption(s, "Threads", fd[2], err, sizeof err), 0);
    return s;
}

static void test_thread_shortfall(void **state)
{
    (void)state;
    FILE *f = td_open("threads.txt");
    char line[512], *fd[TD_MAXF];
    int n, rows = 0;
    SearchThreadCreate orig = search_thread_create;
    notice_set_sink(keep_notice, NULL);
    while ((n = td_next_record(f, line, sizeof line, fd)) > 0) {
        assert_int_equal(n, 6);
        const Game *g = game_by_name(fd[0]);
        assert_non_null(g);
        Search *s = search_of_row(fd);
        char err[128];
        search_thread_create = failing_create;
        for (int round = 0; round < 3; round++) {
            /* round 2: Threads set again, so the shortfall is told again */
            if (round == 2)
                assert_int_equal(search_setoption(s, "Threads", fd[2], err, sizeof err), 0);
            ntold = 0;
            allow = atoi(fd[3]);
            SearchResult r;
            search_limited(s, g, fd[4], &r);
            assert_true(r.nodes > 0);
            if (round == 1) {
                assert_int_equal(ntold, 0);
            } else {
                if (ntold != 1)
                    fail_msg("%s %s round %d: %d notices", fd[0], fd[1], round, ntold);
                assert_string_equal(told[0], fd[5]);
            }
        }
        search_thread_create = orig;
        search_free(s);
        rows++;
    }
    fclose(f);
    notice_clear_sink(NULL);
    assert_true(rows > 0);
}

static void test_mcts_threads(void **state)
{
    (void)state;
    const char *games[] = {"morelli", "morris", "fano"};
    for (int i = 0; i < 3; i++) {
        const Game *g = game_by_name(games[i]);
        assert_non_null(g);
        SearchResult r[3];
        Move m[3];
        for (int k = 0; k < 3; k++) {
            Search *s = search_new();
            char err[128];
            assert_int_equal(search_setoption(s, "Search", "mcts", err, sizeof err), 0);
            assert_int_equal(search_setoption(s, "Hash", "8", err, sizeof err), 0);
            assert_int_equal(search_setoption(s, "Threads", k < 2 ? "1" : "2", err, sizeof err), 0);
            m[k] = search_limited(s, g, "nodes 4000", &r[k]);
            search_free(s);
        }
        /* one thread: the same search twice */
        assert_int_equal(m[0], m[1]);
        assert_int_equal(r[0].score, r[1].score);
        assert_int_equal(r[0].depth, r[1].depth);
        assert_int_equal(r[0].nodes, r[1].nodes);
        /* two: every playout asked for, and maybe a few more */
        assert_true(r[2].nodes >= 4000 || r[2].proven);
    }
}

/* --- a helper held at a stop check ------------------------------------ */

static pthread_mutex_t hold_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hold_cond = PTHREAD_COND_INITIALIZER;
static int hold_at;         /* helper 1's check to hold at (0: none) */
static int hold_calls;      /* its checks so far */
static int held;            /* 1 while held, 2 once released */
static Search *hold_search; /* whose halt says the search stopped */

static void hold_hook(int id)
{
    if (id != 1)
        return;
    pthread_mutex_lock(&hold_lock);
    hold_calls++;
    if (hold_at > 0 && (hold_calls >= hold_at || atomic_load(&hold_search->halt))) {
        hold_at = 0;
        held = 1;
        pthread_cond_broadcast(&hold_cond);
        while (held == 1)
            pthread_cond_wait(&hold_cond, &hold_lock);
    }
    pthread_mutex_unlock(&hold_lock);
}

/* A thread starter that counts the helpers that ended. */
static atomic_int helpers_ended;
typedef struct Start {
    void *(*fn)(void *);
    void *arg;
} Start;

static void *counted_main(void *p)
{
    Start st = *(Start *)p;
    free(p);
    void *rv = st.fn(st.arg);
    atomic_fetch_add(&helpers_ended, 1);
    return rv;
}

static int counted_create(pthread_t *th, void *(*fn)(void *), void *arg)
{
    Start *st = malloc(sizeof *st);
    if (!st)
        return 12; /* ENOMEM */
    *st = (Start){fn, arg};
    int rc = pthread_create(th, NULL, counted_main, st);
    if (rc != 0)
        free(st);
    return rc;
}

/* Waits until helper 1 is held, then lets it go. */
static void hold_release(void)
{
    pthread_mutex_lock(&hold_lock);
    while (held == 0)
        pthread_cond_wait(&hold_cond, &hold_lock);
    assert_int_equal(held, 1);
    held = 2;
    pthread_cond_broadcast(&hold_cond);
    pthread_mutex_unlock(&hold_lock);
}

static void test_helper_held(void **state)
{
    (void)state;
    FILE *f = td_open("threads_hold.txt");
    char line[512], *fd[TD_MAXF];
    int n, rows = 0;
    SearchThreadCreate orig = search_thread_create;
    while ((n = td_next_record(f, line, sizeof line, fd)) > 0) {
        assert_int_equal(n, 6);
        const Game *g = game_by_name(fd[0]);
        assert_non_null(g);
        Search *s = search_of_row(fd);
        char err[128];
        hold_search = s;
        hold_at = atoi(fd[4]);
        hold_calls = 0;
        held = 0;
        assert_true(hold_at > 0);
        int helpers = atoi(fd[2]) - 1;
        atomic_store(&helpers_ended, 0);
        search_thread_create = counted_create;
        search_helper_hook = hold_hook;
        SearchResult r;
        /* a legal move, with helper 1 held (or not at its check yet): it
         * has not ended */
        search_limited(s, g, fd[3], &r);
        assert_true(r.nodes > 0);
        assert_true(atomic_load(&helpers_ended) < helpers);
        hold_release();
        /* each of these joins the helpers first */
        const char *after = fd[5];
        if (strcmp(after, "free") == 0) {
            search_free(s);
            assert_int_equal(atomic_load(&helpers_ended), helpers);
        } else {
            if (strcmp(after, "hash") == 0)
                assert_int_equal(search_setoption(s, "Hash", "8", err, sizeof err), 0);
            else if (strcmp(after, "clear") == 0)
                search_clear(s);
            else
                assert_string_equal(after, "search");
            if (strcmp(after, "search") != 0)
                assert_int_equal(atomic_load(&helpers_ended), helpers);
            SearchResult r2;
            search_limited(s, g, fd[3], &r2);
            assert_true(r2.nodes > 0);
            search_free(s);
            assert_int_equal(atomic_load(&helpers_ended), 2 * helpers);
        }
        /* every helper joined: the hooks may go */
        search_helper_hook = NULL;
        search_thread_create = orig;
        rows++;
    }
    fclose(f);
    assert_true(rows > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_thread_shortfall),
        cmocka_unit_test(test_mcts_threads),
        cmocka_unit_test(test_helper_held),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
