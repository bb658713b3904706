/*
 * The UGI front end tested from outside: every tests/data/protocol_*.txt is
 * one scripted conversation with the real engine binary (MORELLI_BIN),
 * started with fork/exec and pipes.  Every read has a timeout, so a hung
 * engine fails its test instead of hanging the suite.
 *
 * Script directives (one a line; '#' lines and blank lines are skipped):
 *   args <words>       first line only: command-line words for the engine
 *   > <text>           send text and a newline; $PLAYED in it becomes the moves
 *                      of every bestmove seen so far (a game played as a GUI does)
 *   >> <text>          send text with C escapes (\xHH \r \n \t \0 \\), no newline added
 *   long <n> <c>       send n bytes c and a newline
 *   < <text>           the next reply line is exactly text
 *   ~ <regex>          the next reply line matches the POSIX extended regex (whole line)
 *   find <text>        reply lines are skipped up to one that is exactly text
 *   findre <regex>     reply lines are skipped up to one that matches regex
 *   moves              the next reply line is a move list: remembered
 *   bestmove [ms]      the next reply line is "bestmove <m>" (two tokens) within ms,
 *                      m one of the remembered moves (0000 when there were none);
 *                      m joins $PLAYED
 *   silent <ms>        no reply line (search progress aside) within ms
 *   starve <n> <go>    send the go line n times, each after the last one's
 *                      bestmove, and count how each move was backed: the pv
 *                      of a completed iteration (an info line with a pv that
 *                      is no lowerbound), a lowerbound pv (the watchdog
 *                      answered during the first iteration), or the watchdog's
 *                      guess (its info string); any other move fails
 *   close              close the engine's stdin (EOF)
 *   exit <status> [ms] the engine ends with this exit status (other lines skipped,
 *                      but no error line)
 * While waiting for <, ~, moves and bestmove, search progress lines ("info ..."
 * other than "info string error: ...") are skipped unless the expectation
 * itself starts with "info".
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <regex.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "testproc.h"

#define DEFAULT_TIMEOUT_MS 10000

typedef struct Proc {
    pid_t pid;
    int in, out; /* our ends: write to in, read from out */
    char buf[1 << 16];
    size_t len;
    int eof;
} Proc;

static int timeout_scale(void)
{
    return getenv("MORELLI_SANITIZE") ? 3 : 1;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static const char *engine_path(void)
{
    const char *p = getenv("MORELLI_BIN");
    return p && *p ? p : "build/test/morelli";
}

static int proc_start(Proc *p, char *args)
{
    int to[2], from[2];
    if (pipe(to) || pipe(from))
        return -1;
    char *argv[64];
    int argc = 0;
    argv[argc++] = (char *)engine_path();
    for (char *t = args ? strtok(args, " ") : NULL; t && argc < 63; t = strtok(NULL, " "))
        argv[argc++] = t;
    argv[argc] = NULL;
    p->pid = fork();
    if (p->pid < 0)
        return -1;
    if (p->pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[0]);
        close(to[1]);
        close(from[0]);
        close(from[1]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    p->in = to[1];
    p->out = from[0];
    p->len = 0;
    p->eof = 0;
    return 0;
}

static void proc_close_input(Proc *p)
{
    if (p->in >= 0)
        close(p->in);
    p->in = -1;
}

static void proc_kill(Proc *p)
{
    proc_close_input(p);
    if (p->pid > 0) {
        kill(p->pid, SIGKILL);
        waitpid(p->pid, NULL, 0);
        p->pid = 0;
    }
    if (p->out >= 0)
        close(p->out);
    p->out = -1;
}

static int proc_send(Proc *p, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t w = write(p->in, data, len);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        data += w;
        len -= (size_t)w;
    }
    return 0;
}

/* Next line (without '\n') into line; 1 read, 0 timeout, -1 EOF. */
static int proc_line(Proc *p, char *line, size_t cap, int timeout_ms)
{
    int64_t deadline = now_ms() + timeout_ms;
    for (;;) {
        char *nl = memchr(p->buf, '\n', p->len);
        if (nl) {
            size_t l = (size_t)(nl - p->buf);
            size_t c = l < cap - 1 ? l : cap - 1;
            memcpy(line, p->buf, c);
            line[c] = '\0';
            memmove(p->buf, nl + 1, p->len - l - 1);
            p->len -= l + 1;
            return 1;
        }
        if (p->eof || p->len == sizeof p->buf)
            return -1;
        int64_t left = deadline - now_ms();
        if (left <= 0)
            return 0;
        struct pollfd pfd = {p->out, POLLIN, 0};
        int r = poll(&pfd, 1, (int)left);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return 0;
        ssize_t n = read(p->out, p->buf + p->len, sizeof p->buf - p->len);
        if (n <= 0)
            p->eof = 1;
        else
            p->len += (size_t)n;
    }
}

static int is_progress(const char *line)
{
    return strncmp(line, "info ", 5) == 0 && strncmp(line, "info string error", 17) != 0;
}

/* Next line that counts for an expectation; see the header comment. */
static int next_reply(Proc *p, char *line, size_t cap, int timeout_ms, int keep_info)
{
    int64_t deadline = now_ms() + timeout_ms;
    for (;;) {
        int64_t left = deadline - now_ms();
        int r = proc_line(p, line, cap, left > 0 ? (int)left : 0);
        if (r != 1 || keep_info || !is_progress(line))
            return r;
    }
}

static int regex_whole(const char *re, const char *text)
{
    char anchored[1024];
    snprintf(anchored, sizeof anchored, "^(%s)$", re);
    regex_t rx;
    if (regcomp(&rx, anchored, REG_EXTENDED | REG_NOSUB) != 0)
        return -1;
    int ok = regexec(&rx, text, 0, NULL, 0) == 0;
    regfree(&rx);
    return ok;
}

/* What backed one bestmove of `starve` (see the header comment). */
enum { BACK_NONE, BACK_GUESS, BACK_PARTIAL, BACK_DONE, BACK_KINDS };

/* Reads up to the next bestmove into mv (mvlen bytes): 1 and how it was
 * backed in *back, or 0 with no bestmove in time. */
static int starved_move(Proc *p, char *mv, size_t mvlen, int timeout_ms, int *back)
{
    static char line[1 << 16];
    char done[256] = "", partial[256] = "";
    int guess = 0;
    int64_t deadline = now_ms() + timeout_ms;
    for (;;) {
        int64_t left = deadline - now_ms();
        if (proc_line(p, line, sizeof line, left > 0 ? (int)left : 0) != 1)
            return 0;
        if (strncmp(line, "bestmove ", 9) == 0) {
            snprintf(mv, mvlen, "%.*s", (int)(mvlen - 1), line + 9);
            *back = strcmp(mv, done) == 0      ? BACK_DONE
                    : strcmp(mv, partial) == 0 ? BACK_PARTIAL
                    : guess                    ? BACK_GUESS
                                               : BACK_NONE;
            return 1;
        }
        if (strncmp(line, "info string go: late, no iteration ended", 40) == 0)
            guess = 1;
        const char *pv = strstr(line, " pv ");
        if (strncmp(line, "info ", 5) != 0 || strncmp(line, "info string", 11) == 0 || !pv)
            continue;
        char *to = strstr(line, " lowerbound ") ? partial : done;
        snprintf(to, 256, "%.*s", (int)strcspn(pv + 4, " "), pv + 4);
    }
}

#define SCRIPT_FAIL(...)                      \
    do {                                      \
        print_error("%s:%d: ", file, lineno); \
        print_error(__VA_ARGS__);             \
        print_error("\n");                    \
        proc_kill(&p);                        \
        fclose(f);                            \
        free(moves);                          \
        fail();                               \
    } while (0)

static void run_script(void **state)
{
    const char *file = *state;
    FILE *f = fopen(file, "r");
    assert_non_null(f);
    static Proc p;
    p.pid = 0;
    p.in = p.out = -1;
    int started = 0, lineno = 0;
    int tscale = timeout_scale();
    char *moves = NULL;
    static char text[1 << 16], reply[1 << 16], played[1 << 14];
    played[0] = '\0';
    char *arg, *sp;
    while (tp_next_directive(f, text, sizeof text, &lineno, &arg)) {
        size_t wl = strcspn(text, " ");
        char word[32];
        snprintf(word, sizeof word, "%.*s", (int)(wl < 31 ? wl : 31), text);
        if (!started) {
            started = 1;
            if (proc_start(&p, strcmp(word, "args") == 0 ? arg : NULL) != 0)
                SCRIPT_FAIL("cannot start %s", engine_path());
            if (strcmp(word, "args") == 0)
                continue;
        }
        if (strcmp(word, ">") == 0) {
            char *var = strstr(arg, "$PLAYED");
            char sent[sizeof text + sizeof played];
            if (var)
                snprintf(sent, sizeof sent, "%.*s%s%s\n", (int)(var - arg), arg, played,
                         var + strlen("$PLAYED"));
            else
                snprintf(sent, sizeof sent, "%s\n", arg);
            if (proc_send(&p, sent, strlen(sent)) != 0)
                SCRIPT_FAIL("engine closed its input");
        } else if (strcmp(word, ">>") == 0) {
            char raw[sizeof text];
            size_t l = tp_unescape(arg, raw);
            if (proc_send(&p, raw, l) != 0)
                SCRIPT_FAIL("engine closed its input");
        } else if (strcmp(word, "long") == 0) {
            long n = strtol(arg, &sp, 10);
            char c = sp && sp[0] == ' ' && sp[1] ? sp[1] : 'a';
            char *big = malloc((size_t)n + 1);
            assert_non_null(big);
            memset(big, c, (size_t)n);
            big[n] = '\n';
            int bad = proc_send(&p, big, (size_t)n + 1);
            free(big);
            if (bad)
                SCRIPT_FAIL("engine closed its input");
        } else if (strcmp(word, "<") == 0 || strcmp(word, "~") == 0) {
            int keep = strncmp(arg, "info", 4) == 0;
            int r = next_reply(&p, reply, sizeof reply, DEFAULT_TIMEOUT_MS * tscale, keep);
            if (r != 1)
                SCRIPT_FAIL("expected '%s', got %s", arg, r == 0 ? "nothing (timeout)" : "EOF");
            if (word[0] == '<' && strcmp(reply, arg) != 0)
                SCRIPT_FAIL("expected '%s', got '%s'", arg, reply);
            if (word[0] == '~' && regex_whole(arg, reply) != 1)
                SCRIPT_FAIL("expected /%s/, got '%s'", arg, reply);
        } else if (strcmp(word, "find") == 0) {
            int r;
            while ((r = proc_line(&p, reply, sizeof reply, DEFAULT_TIMEOUT_MS * tscale)) == 1 &&
                   strcmp(reply, arg) != 0)
                ;
            if (r != 1)
                SCRIPT_FAIL("never saw '%s'", arg);
        } else if (strcmp(word, "findre") == 0) {
            int r;
            while ((r = proc_line(&p, reply, sizeof reply, DEFAULT_TIMEOUT_MS * tscale)) == 1 &&
                   regex_whole(arg, reply) != 1)
                ;
            if (r != 1)
                SCRIPT_FAIL("never saw /%s/", arg);
        } else if (strcmp(word, "moves") == 0) {
            if (next_reply(&p, reply, sizeof reply, DEFAULT_TIMEOUT_MS * tscale, 0) != 1)
                SCRIPT_FAIL("no move list");
            free(moves);
            size_t l = strlen(reply);
            moves = malloc(l + 3);
            assert_non_null(moves);
            snprintf(moves, l + 3, " %s ", reply);
        } else if (strcmp(word, "bestmove") == 0) {
            int ms = *arg ? atoi(arg) : DEFAULT_TIMEOUT_MS;
            int r = next_reply(&p, reply, sizeof reply, ms * tscale, 0);
            if (r != 1)
                SCRIPT_FAIL("no bestmove within %d ms (%s)", ms * tscale,
                            r == 0 ? "timeout" : "EOF");
            char mv[256], extra[256];
            int nt = sscanf(reply, "bestmove %255s %255s", mv, extra);
            if (strncmp(reply, "bestmove ", 9) != 0 || nt != 1)
                SCRIPT_FAIL("expected 'bestmove <move>', got '%s'", reply);
            char needle[260];
            snprintf(needle, sizeof needle, " %s ", mv);
            int empty = moves && strspn(moves, " ") == strlen(moves);
            if (!moves)
                SCRIPT_FAIL("bestmove check without a move list");
            if (empty ? strcmp(mv, "0000") != 0 : strstr(moves, needle) == NULL)
                SCRIPT_FAIL("bestmove %s is not legal (legal:%s)", mv, moves);
            size_t pl = strlen(played);
            if (pl + strlen(mv) + 2 < sizeof played)
                snprintf(played + pl, sizeof played - pl, "%s%s", pl ? " " : "", mv);
        } else if (strcmp(word, "starve") == 0) {
            long n = strtol(arg, &sp, 10);
            if (n <= 0)
                SCRIPT_FAIL("starve needs a count of searches, not '%s'", arg);
            const char *cmd = *sp == ' ' ? sp + 1 : "go";
            char go[256], mv[256];
            snprintf(go, sizeof go, "%s\n", cmd);
            int count[BACK_KINDS] = {0};
            for (long i = 0; i < n; i++) {
                int back = BACK_NONE;
                if (proc_send(&p, go, strlen(go)) != 0)
                    SCRIPT_FAIL("engine closed its input");
                if (!starved_move(&p, mv, sizeof mv, DEFAULT_TIMEOUT_MS * tscale, &back))
                    SCRIPT_FAIL("no bestmove for '%s' (%ld of %ld)", cmd, i + 1, n);
                char needle[260];
                snprintf(needle, sizeof needle, " %s ", mv);
                if (!moves || !strstr(moves, needle))
                    SCRIPT_FAIL("bestmove %s is not legal", mv);
                if (back == BACK_NONE)
                    SCRIPT_FAIL("bestmove %s of '%s' has no iteration, pv or guess behind it", mv,
                                cmd);
                count[back]++;
            }
            print_message("%s:%d: %s: %d completed iterations, %d lowerbound pv, %d guesses\n",
                          file, lineno, cmd, count[BACK_DONE], count[BACK_PARTIAL],
                          count[BACK_GUESS]);
        } else if (strcmp(word, "silent") == 0) {
            int r = next_reply(&p, reply, sizeof reply, atoi(arg), 0);
            if (r == 1)
                SCRIPT_FAIL("expected silence, got '%s'", reply);
        } else if (strcmp(word, "close") == 0) {
            proc_close_input(&p);
        } else if (strcmp(word, "exit") == 0) {
            int want = atoi(arg);
            char *ms_s = strchr(arg, ' ');
            int ms = (ms_s ? atoi(ms_s + 1) : DEFAULT_TIMEOUT_MS) * tscale;
            int r;
            while ((r = proc_line(&p, reply, sizeof reply, ms)) == 1 &&
                   strncmp(reply, "info string error", 17) != 0)
                ;
            if (r == 1)
                SCRIPT_FAIL("expected the engine to end without error, got '%s'", reply);
            if (r == 0)
                SCRIPT_FAIL("the engine did not end within %d ms", ms);
            int status = 0;
            int64_t deadline = now_ms() + ms;
            pid_t w;
            while ((w = waitpid(p.pid, &status, WNOHANG)) == 0 && now_ms() < deadline) {
                struct timespec ts = {0, 2000000};
                nanosleep(&ts, NULL);
            }
            if (w != p.pid)
                SCRIPT_FAIL("the engine closed its output but did not exit");
            p.pid = 0;
            if (!WIFEXITED(status) || WEXITSTATUS(status) != want)
                SCRIPT_FAIL("exit status %d (signal %d), expected %d",
                            WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                            WIFSIGNALED(status) ? WTERMSIG(status) : 0, want);
        } else {
            SCRIPT_FAIL("unknown directive '%s'", word);
        }
    }
    proc_kill(&p);
    fclose(f);
    free(moves);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const char *dir = "tests/data";
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "test_protocol: cannot open %s\n", dir);
        return 1;
    }
    char *names[256];
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) && n < 256) {
        size_t l = strlen(de->d_name);
        if (strncmp(de->d_name, "protocol_", 9) == 0 && l > 4 &&
            strcmp(de->d_name + l - 4, ".txt") == 0) {
            char *path = malloc(strlen(dir) + l + 2);
            sprintf(path, "%s/%s", dir, de->d_name);
            names[n++] = path;
        }
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, by_name);
    struct CMUnitTest *tests = calloc((size_t)(n ? n : 1), sizeof *tests);
    for (int i = 0; i < n; i++) {
        tests[i].name = names[i] + strlen(dir) + 1;
        tests[i].test_func = run_script;
        tests[i].initial_state = names[i];
    }
    int rc = _cmocka_run_group_tests("protocol", tests, (size_t)n, NULL, NULL);
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(tests);
    return rc;
}
