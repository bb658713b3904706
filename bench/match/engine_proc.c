/* Engine processes on pipes and sockets: see engine_proc.h. */
#include "engine_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int64_t engine_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void engine_proc_init(EngineProc *e)
{
    e->pid = 0;
    e->to_fd = e->from_fd = -1;
    e->len = 0;
    e->eof = 0;
    e->read_ms = e->line_ms = 0;
    e->drained = 0;
    e->stamped = 0;
    e->spill = NULL;
    e->spill_len = e->spill_off = 0;
}

/* The engine's output end: a socket whose records the kernel stamps with the
 * time the engine wrote them (SO_TIMESTAMPNS), else a pipe.  0 or -1. */
static int output_channel(int fds[2], int *stamped)
{
    *stamped = 0;
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds) == 0) {
        int on = 1;
        if (setsockopt(fds[0], SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on) == 0) {
            /* Room for the largest write an engine's stdio makes in one go. */
            int room = 1 << 20;
            setsockopt(fds[1], SOL_SOCKET, SO_SNDBUF, &room, sizeof room);
            *stamped = 1;
            return 0;
        }
        close(fds[0]);
        close(fds[1]);
    }
    return pipe2(fds, O_CLOEXEC);
}

/*
 * A command of plain words (letters, digits, `_/.,:=+@%-`, blanks between)
 * runs with no shell, so an image that holds only the programs can still
 * start its engines; anything else (quotes, `$`, redirections, `~`) runs as
 * `exec CMD` under /bin/sh.  Both start the same program with the same
 * arguments.  The plain command's words and program path are made here,
 * before the fork (the child may only exec).  Returns 1 with words[] filled
 * (malloc'd, in one block), 0 for the shell.
 */
#define PLAIN_WORDS 64
static int plain_command(const char *cmd, char ***words_out, char **path_out)
{
    for (const char *p = cmd; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_/.,:=+@%- ",
                    *p))
            return 0;
    size_t n = strlen(cmd);
    char **words = malloc((PLAIN_WORDS + 1) * sizeof *words + n + 1 + 4096);
    if (!words)
        return 0;
    char *text = (char *)(words + PLAIN_WORDS + 1), *path = text + n + 1;
    memcpy(text, cmd, n + 1);
    int k = 0;
    for (char *w = text; *w;) { /* the words, cut at the blanks */
        if (*w == ' ') {
            *w++ = '\0';
            continue;
        }
        if (k == PLAIN_WORDS) {
            free(words);
            return 0;
        }
        words[k++] = w;
        w += strcspn(w, " ");
    }
    words[k] = NULL;
    if (k == 0) {
        free(words);
        return 0;
    }
    if (strchr(words[0], '/')) {
        snprintf(path, 4096, "%s", words[0]);
    } else { /* the program's path as a shell finds it */
        const char *dirs = getenv("PATH");
        int found = 0;
        for (const char *d = dirs && *dirs ? dirs : "/usr/local/bin:/usr/bin:/bin"; !found && *d;) {
            size_t len = strcspn(d, ":");
            if (snprintf(path, 4096, "%.*s%s%s", (int)len, len ? d : ".", "/", words[0]) < 4096 &&
                access(path, X_OK) == 0)
                found = 1;
            d += len + (d[len] == ':');
        }
        if (!found) {
            free(words);
            return 0; /* the shell says "not found" */
        }
    }
    *words_out = words;
    *path_out = path;
    return 1;
}

int engine_proc_start(EngineProc *e, const char *cmd, char *err, size_t errlen)
{
    int in[2], out[2];
    signal(SIGPIPE, SIG_IGN);
    engine_proc_init(e);
    if (!cmd || !*cmd) {
        snprintf(err, errlen, "empty engine command");
        return -1;
    }
    /* O_CLOEXEC: engines started at the same time by other threads must not
     * inherit each other's pipes (or one's EOF would never come). */
    if (pipe2(in, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    int stamped;
    if (output_channel(out, &stamped) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        close(in[0]);
        close(in[1]);
        return -1;
    }
    size_t n = strlen(cmd) + 6;
    char *shell = malloc(n);
    if (!shell) {
        snprintf(err, errlen, "out of memory");
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        return -1;
    }
    snprintf(shell, n, "exec %s", cmd);
    char **words = NULL, *path = NULL;
    int plain = plain_command(cmd, &words, &path);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        free(shell);
        free(words);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        return -1;
    }
    if (pid == 0) {
        /* Only async-signal-safe calls from here to exec. */
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigaction(SIGPIPE, &dfl, NULL); /* an ignored signal stays ignored across exec */
        setpgid(0, 0);
        dup2(in[0], 0);
        dup2(out[1], 1);
        if (plain)
            execv(path, words);
        else
            execl("/bin/sh", "sh", "-c", shell, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid); /* also from here, so a kill right away finds the group */
    free(shell);
    free(words);
    close(in[0]);
    close(out[1]);
    e->pid = pid;
    e->to_fd = in[1];
    e->from_fd = out[0];
    e->stamped = stamped;
    return 0;
}

int engine_proc_running(const EngineProc *e)
{
    return e->pid > 0 && !e->eof;
}

int engine_proc_send(EngineProc *e, const char *line)
{
    if (e->pid <= 0 || e->to_fd < 0)
        return -1;
    size_t n = strlen(line);
    char *msg = malloc(n + 1);
    if (!msg)
        return -1;
    memcpy(msg, line, n);
    msg[n] = '\n';
    size_t done = 0;
    int rc = 0;
    while (done < n + 1) {
        ssize_t w = write(e->to_fd, msg + done, n + 1 - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            rc = -1;
            break;
        }
        done += (size_t)w;
    }
    free(msg);
    return rc;
}

/* Moves the first line of buf (ending at nl) to line. */
static void take_line(EngineProc *e, size_t nl, size_t skip, char *line, size_t len)
{
    size_t copy = nl < len - 1 ? nl : len - 1;
    memcpy(line, e->buf, copy);
    line[copy] = '\0';
    if (copy > 0 && line[copy - 1] == '\r')
        line[copy - 1] = '\0';
    memmove(e->buf, e->buf + nl + skip, e->len - nl - skip);
    e->len -= nl + skip;
    e->line_ms = e->read_ms;
}

/* The monotonic time of a kernel stamp (CLOCK_REALTIME), never later than
 * now nor earlier than a minute before it (a step of the wall clock cannot
 * move a line far). */
static int64_t stamp_ms(const struct timespec *ts)
{
    struct timespec real;
    int64_t now = engine_now_ms();
    if (clock_gettime(CLOCK_REALTIME, &real) != 0)
        return now;
    int64_t ago = ((int64_t)real.tv_sec - ts->tv_sec) * 1000 +
                  ((int64_t)real.tv_nsec - ts->tv_nsec) / 1000000;
    return now - (ago < 0 ? 0 : ago > 60000 ? 60000 : ago);
}

/* Moves what the spill holds (the rest of a record larger than buf's room)
 * into buf; the spill is freed once empty. */
static void unspill(EngineProc *e)
{
    size_t room = sizeof e->buf - e->len, n = e->spill_len - e->spill_off;
    if (n > room)
        n = room;
    memcpy(e->buf + e->len, e->spill + e->spill_off, n);
    e->len += n;
    e->spill_off += n;
    if (e->spill_off == e->spill_len) {
        free(e->spill);
        e->spill = NULL;
        e->spill_len = e->spill_off = 0;
    }
}

/* One record of the socket into buf (the part that does not fit into the
 * spill), read_ms from its kernel stamp.  0, or -1 at its end. */
static int take_record(EngineProc *e)
{
    char probe;
    ssize_t size = recv(e->from_fd, &probe, 1, MSG_PEEK | MSG_TRUNC | MSG_DONTWAIT);
    if (size < 0)
        return errno == EINTR || errno == EAGAIN ? 0 : -1;
    size_t room = sizeof e->buf - e->len;
    char *into = e->buf + e->len;
    if ((size_t)size > room && !(into = e->spill = malloc((size_t)size)))
        return -1;
    char control[CMSG_SPACE(sizeof(struct timespec))];
    struct iovec iov = {into, (size_t)size > room ? (size_t)size : room};
    struct msghdr msg = {.msg_iov = &iov,
                         .msg_iovlen = 1,
                         .msg_control = control,
                         .msg_controllen = sizeof control};
    ssize_t got = recvmsg(e->from_fd, &msg, MSG_DONTWAIT);
    if (got < 0) {
        free(e->spill);
        e->spill = NULL;
        return errno == EINTR || errno == EAGAIN ? 0 : -1;
    }
    if (got == 0) {
        free(e->spill);
        e->spill = NULL;
        /* An empty record, or the end: only a hang-up tells them apart. */
        struct pollfd p = {.fd = e->from_fd, .events = POLLRDHUP};
        return poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP)) ? -1 : 0;
    }
    e->read_ms = engine_now_ms();
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_TIMESTAMPNS) {
            struct timespec ts;
            memcpy(&ts, CMSG_DATA(c), sizeof ts);
            e->read_ms = stamp_ms(&ts);
        }
    if (e->spill) {
        e->spill_len = (size_t)got;
        unspill(e);
    } else {
        e->len += (size_t)got;
    }
    return 0;
}

/* One read() of what the pipe holds (one record of a socket); wait_ms as
 * poll() takes it. Returns 0, or -1 when nothing came within wait_ms. */
static int fill(EngineProc *e, int wait_ms)
{
    if (e->spill) {
        unspill(e);
        return 0;
    }
    struct pollfd p = {.fd = e->from_fd, .events = POLLIN};
    int r = poll(&p, 1, wait_ms);
    if (r < 0 && errno == EINTR)
        return 0;
    if (r < 0) {
        e->eof = 1;
        return 0;
    }
    if (r == 0)
        return -1;
    if (e->stamped) {
        /* All the records waiting, as a read() of a pipe takes all its
         * bytes (up to buf's room). */
        for (;;) {
            if (take_record(e) != 0) {
                e->eof = 1;
                break;
            }
            struct pollfd more = {.fd = e->from_fd, .events = POLLIN};
            if (e->spill || e->len == sizeof e->buf || poll(&more, 1, 0) <= 0)
                break;
        }
        return 0;
    }
    ssize_t got = read(e->from_fd, e->buf + e->len, sizeof e->buf - e->len);
    if (got < 0 && errno == EINTR)
        return 0;
    if (got <= 0) {
        e->eof = 1;
    } else {
        e->len += (size_t)got;
        e->read_ms = engine_now_ms();
    }
    return 0;
}

int engine_proc_readline(EngineProc *e, char *line, size_t len, int64_t deadline)
{
    if (len == 0)
        return -1;
    line[0] = '\0';
    for (;;) {
        /* An engine that floods lines must not outlast its deadline: past
         * it, one last look at the pipe without waiting, then no more. */
        int past = deadline >= 0 && engine_now_ms() >= deadline;
        if (!past)
            e->drained = 0;
        if (past && !memchr(e->buf, '\n', e->len)) {
            if (e->drained || e->eof || e->from_fd < 0 || e->len == sizeof e->buf)
                return 0;
            e->drained = 1;
            fill(e, 0);
            continue;
        }
        char *nl = memchr(e->buf, '\n', e->len);
        if (nl) {
            take_line(e, (size_t)(nl - e->buf), 1, line, len);
            return 1;
        }
        if (e->len == sizeof e->buf) { /* an endless line: cut it */
            take_line(e, e->len, 0, line, len);
            return 1;
        }
        if (e->eof || e->from_fd < 0) {
            if (e->len > 0) { /* the last line had no newline */
                take_line(e, e->len, 0, line, len);
                return 1;
            }
            return -1;
        }
        int wait = -1;
        if (deadline >= 0) {
            int64_t left = deadline - engine_now_ms();
            if (left <= 0)
                continue; /* the deadline check above decides */
            wait = left > 1000000 ? 1000000 : (int)left;
        }
        fill(e, wait); /* at the deadline, the check above decides */
    }
}

void engine_proc_kill(EngineProc *e)
{
    if (e->pid > 0) {
        kill(-e->pid, SIGKILL);
        kill(e->pid, SIGKILL);
        while (waitpid(e->pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    if (e->to_fd >= 0)
        close(e->to_fd);
    if (e->from_fd >= 0)
        close(e->from_fd);
    free(e->spill);
    engine_proc_init(e);
}

void engine_proc_quit(EngineProc *e, int grace_ms)
{
    if (e->pid <= 0)
        return;
    engine_proc_send(e, "quit");
    int64_t end = engine_now_ms() + grace_ms;
    for (;;) {
        pid_t r = waitpid(e->pid, NULL, WNOHANG);
        if (r == e->pid) {
            /* Exited by itself: only its group's leftovers remain to kill. */
            kill(-e->pid, SIGKILL);
            e->pid = 0;
            break;
        }
        if (r < 0 && errno != EINTR) {
            e->pid = 0;
            break;
        }
        if (engine_now_ms() >= end)
            break;
        struct timespec ts = {0, 5 * 1000000};
        nanosleep(&ts, NULL);
    }
    engine_proc_kill(e);
}
