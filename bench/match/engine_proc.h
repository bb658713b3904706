/*
 * engine_proc.h -- one engine process seen through its pipes.
 *
 * The command runs under /bin/sh (`exec <cmd>`, so shell quoting and
 * arguments work) in a process group of its own, with its stdin on a pipe,
 * its stdout on a socket (a pipe where sockets fail) and its stderr shared
 * with ours.  The socket is a local SOCK_SEQPACKET pair whose records the
 * kernel stamps with the moment the engine wrote them (SO_TIMESTAMPNS):
 * a line's time is when the engine wrote it, however late the runner gets
 * round to reading it.  Killing sends SIGKILL to the
 * whole group, so a script engine's children die with it.  Reads take a
 * deadline on the monotonic clock, so a silent engine never blocks the
 * runner.  Writes to a dead engine fail (EPIPE) instead of raising SIGPIPE:
 * engine_proc_start() sets SIGPIPE to be ignored.
 */
#ifndef MORELLI_BENCH_ENGINE_PROC_H
#define MORELLI_BENCH_ENGINE_PROC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define ENGINE_LINE_MAX 8192

typedef struct EngineProc {
    pid_t pid;       /* 0 when no process */
    int to_fd;       /* its stdin */
    int from_fd;     /* its stdout */
    size_t len;      /* bytes waiting in buf */
    int eof;         /* its stdout closed */
    int64_t read_ms; /* when the bytes of the last read() were written by the
                      * engine (its kernel stamp), else right after that read() */
    int64_t line_ms; /* when the line last returned arrived (its read_ms) */
    int drained;     /* past the deadline, the pipe was read once more */
    int stamped;     /* stdout is a socket with kernel stamps */
    char *spill;     /* the rest of a record larger than buf's room */
    size_t spill_len, spill_off;
    char buf[ENGINE_LINE_MAX];
} EngineProc;

/* Milliseconds on the monotonic clock. */
int64_t engine_now_ms(void);

void engine_proc_init(EngineProc *e);
/* Starts cmd. Returns 0, or -1 with a message in err (nothing started). */
int engine_proc_start(EngineProc *e, const char *cmd, char *err, size_t errlen);
/* Non-zero while a process is attached and its stdout is open. */
int engine_proc_running(const EngineProc *e);
/* Writes one line (a newline is added). Returns 0, or -1 if the engine is
 * gone. */
int engine_proc_send(EngineProc *e, const char *line);
/*
 * Next line of the engine's output, without its newline, into line (longer
 * lines are cut to len - 1 bytes), its arrival time in e->line_ms (the
 * kernel's stamp of the write that completed it, or with a pipe the moment
 * right after the read() that did, so a caller busy elsewhere is not charged
 * to the engine).  Waits until deadline (engine_now_ms() time;
 * < 0 = forever).  Once the deadline has passed it reads the pipe once more
 * without waiting (a caller that woke late must not miss what came in
 * time), returns what that completed, then 0 even if more is coming, so a
 * flood of output cannot keep a caller past it.  Returns 1 with a line, 0
 * at the deadline, -1 when the engine closed its output (crashed or quit).
 */
int engine_proc_readline(EngineProc *e, char *line, size_t len, int64_t deadline);
/* SIGKILL to its process group, reap it, close the pipes. Safe to repeat. */
void engine_proc_kill(EngineProc *e);
/* "quit", then up to grace_ms for it to exit, then engine_proc_kill(). */
void engine_proc_quit(EngineProc *e, int grace_ms);

#endif
