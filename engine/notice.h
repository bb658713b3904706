/*
 * notice.h -- lines the engine has for its user outside any reply, such as
 * a background table build that ran out of memory.
 *
 * The engine says what happened; the front end says where it goes: the
 * protocol installs a sink that writes each notice as an `info string`
 * line under its output lock, so that a notice from a background thread
 * never splits a reply.  Without a sink a notice goes to stderr.  The sink
 * is one for the process (the tables it reports on are too).
 */
#ifndef MORELLI_NOTICE_H
#define MORELLI_NOTICE_H

/* Receives one notice, a line without its newline. */
typedef void (*NoticeSink)(void *ctx, const char *text);

/* Notices go to sink(ctx, text) from now on (sink NULL: to stderr). */
void notice_set_sink(NoticeSink sink, void *ctx);
/* Back to stderr if the sink installed is ctx's; returns once no notice
 * is being delivered to ctx, so that ctx may then be freed. */
void notice_clear_sink(void *ctx);
/* Formats a notice and delivers it. */
void notice(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
