/*
 * notice.c -- where the engine's notices go (notice.h).
 */
#include "notice.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

static pthread_mutex_t sink_lock = PTHREAD_MUTEX_INITIALIZER;
static NoticeSink sink_fn;
static void *sink_ctx;

void notice_set_sink(NoticeSink sink, void *ctx)
{
    pthread_mutex_lock(&sink_lock);
    sink_fn = sink;
    sink_ctx = ctx;
    pthread_mutex_unlock(&sink_lock);
}

void notice_clear_sink(void *ctx)
{
    pthread_mutex_lock(&sink_lock);
    if (sink_ctx == ctx) {
        sink_fn = NULL;
        sink_ctx = NULL;
    }
    pthread_mutex_unlock(&sink_lock);
}

void notice(const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    /* held while the sink runs: notice_clear_sink waits for it */
    pthread_mutex_lock(&sink_lock);
    if (sink_fn)
        sink_fn(sink_ctx, text);
    else
        fprintf(stderr, "%s\n", text);
    pthread_mutex_unlock(&sink_lock);
}
