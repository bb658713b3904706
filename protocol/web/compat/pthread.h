/*
 * compat/pthread.h -- the few POSIX thread calls the engine makes, for the
 * WebAssembly build only (make web), where wasi-libc has no threads.
 *
 * One thread runs everything: a once-function runs on its first call, a
 * mutex is never contended, and starting a thread fails with EAGAIN: the
 * alpha-beta helpers then search with the main thread alone, Morris builds
 * no endgame tables in the background (it reads the files the page gives
 * it), and the protocol, built with -DUGI_NO_THREADS, runs `go` inside the
 * call.
 */
#ifndef MORELLI_WEB_PTHREAD_H
#define MORELLI_WEB_PTHREAD_H

#include <errno.h>

typedef int pthread_once_t;
typedef int pthread_mutex_t;
typedef int pthread_mutexattr_t;
typedef int pthread_attr_t;
typedef unsigned long pthread_t;

#define PTHREAD_ONCE_INIT 0
#define PTHREAD_MUTEX_INITIALIZER 0
#define PTHREAD_CREATE_JOINABLE 0
#define PTHREAD_CREATE_DETACHED 1

static inline int pthread_once(pthread_once_t *once, void (*fn)(void))
{
    if (!*once) {
        *once = 1;
        fn();
    }
    return 0;
}

static inline int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a)
{
    (void)a;
    *m = 0;
    return 0;
}
static inline int pthread_mutex_destroy(pthread_mutex_t *m)
{
    (void)m;
    return 0;
}
static inline int pthread_mutex_lock(pthread_mutex_t *m)
{
    (void)m;
    return 0;
}
static inline int pthread_mutex_unlock(pthread_mutex_t *m)
{
    (void)m;
    return 0;
}

static inline int pthread_attr_init(pthread_attr_t *a)
{
    *a = 0;
    return 0;
}
static inline int pthread_attr_setdetachstate(pthread_attr_t *a, int state)
{
    *a = state;
    return 0;
}
static inline int pthread_attr_destroy(pthread_attr_t *a)
{
    (void)a;
    return 0;
}

static inline int pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *),
                                 void *arg)
{
    (void)t;
    (void)a;
    (void)fn;
    (void)arg;
    return EAGAIN;
}
static inline int pthread_join(pthread_t t, void **ret)
{
    (void)t;
    if (ret)
        *ret = 0;
    return 0;
}

#endif
