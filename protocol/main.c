/*
 * main.c -- the engine program: UGI on stdin/stdout, or the same commands
 * given as command-line words.
 *
 *   morelli                                   UGI conversation on stdin
 *   morelli perft 4                           run the words, then exit
 *   morelli --UCI_Variant=morris perft 5      options first, as --Name=Value
 *   morelli --BoardSize=9 position fen ... moves ... perft 3
 *   morelli --version                         the version, then exit
 *   morelli --help                            the usage, commands and options
 *
 * Words are cut into commands at every command name, except `moves` inside
 * `position` and `perft` right after `go`.  With only options, the
 * conversation on stdin follows; started by hand at a terminal, it first says
 * on stderr what it is (nothing new on a pipe, for GUIs and match runners).
 * The exit status is 1 when a command-line word failed.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "morris/morris_tb.h"
#include "ugi.h"

/* Reads one line of any length from in into *buf (grown as needed, at most
 * UGI_LINE_MAX + 1 bytes kept; *over set when more were dropped).
 * Returns the length kept, or -1 at end of input with nothing read. */
static long read_line(FILE *in, char **buf, size_t *cap, int *over)
{
    size_t len = 0;
    int c, any = 0;
    *over = 0;
    while ((c = getc(in)) != EOF) {
        any = 1;
        if (c == '\n')
            break;
        if (len > UGI_LINE_MAX) {
            *over = 1;
            continue;
        }
        if (len + 1 >= *cap) {
            size_t ncap = *cap ? *cap * 2 : 256;
            char *nb = realloc(*buf, ncap);
            if (!nb) {
                *over = 1;
                continue;
            }
            *buf = nb;
            *cap = ncap;
        }
        (*buf)[len++] = (char)c;
    }
    if (!any)
        return -1;
    return (long)len;
}

static int run_stdin(Session *e)
{
    char *buf = NULL;
    size_t cap = 0;
    int over;
    long len;
    if (isatty(STDIN_FILENO))
        fprintf(stderr,
                "morelli: a UGI game engine (Morelli, Nine Men's Morris, Fano330-R-Morris); "
                "type help for the commands, quit to leave\n");
    while ((len = read_line(stdin, &buf, &cap, &over)) >= 0) {
        if (over) {
            session_error(e, "line longer than %d bytes ignored", UGI_LINE_MAX);
            continue;
        }
        if (session_input(e, buf ? buf : "", (size_t)len) == UGI_QUIT)
            break;
    }
    free(buf);
    return 0;
}

/* --help's writer: only the option lines of `ugi`. */
static void write_option(void *ctx, const char *line)
{
    fprintf(ctx, "  %s\n", line);
}

/* --help: the usage, the commands (as `help` says them) and the options. */
static void print_help(Session *e)
{
    printf("morelli %s: a UGI/UCI game engine (Morelli, Nine Men's Morris, "
           "Fano330-R-Morris)\n"
           "Usage: morelli                                 the conversation on stdin\n"
           "       morelli [--Name=Value ...] [command words ...]\n"
           "                                 options, then the words as commands, then exit\n"
           "       morelli tables build|info|verify ...  endgame table files (docs/tables.md)\n"
           "       morelli --version | --help\n\n",
           morelli_version());
    fflush(stdout);
    session_command(e, "help");
    printf("\nOptions (--Name=Value on the command line, setoption in the conversation):\n");
    option_lines(write_option, stdout);
}

/* Runs the words as commands; returns the number that failed. */
static int run_words(Session *e, int argc, char **argv)
{
    int failed = 0;
    int i = 0;
    while (i < argc) {
        int j = i + 1;
        int in_position = strcmp(argv[i], "position") == 0;
        int is_go = strcmp(argv[i], "go") == 0;
        while (j < argc &&
               !(session_is_command(argv[j]) && !(in_position && strcmp(argv[j], "moves") == 0) &&
                 !(is_go && j == i + 1 && strcmp(argv[j], "perft") == 0)))
            j++;
        size_t len = 1;
        for (int k = i; k < j; k++)
            len += strlen(argv[k]) + 1;
        char *line = malloc(len);
        if (!line)
            return failed + 1;
        line[0] = '\0';
        for (int k = i; k < j; k++) {
            strcat(line, argv[k]);
            if (k + 1 < j)
                strcat(line, " ");
        }
        int rc = session_input(e, line, strlen(line));
        free(line);
        if (rc == UGI_QUIT)
            return failed;
        if (rc == UGI_ERROR)
            failed++;
        /* A search started from the command line runs to its end; an
         * infinite one (also a bare `go`, which has no limit) is stopped at
         * once. */
        if (is_go) {
            int infinite = j == i + 1;
            for (int k = i; k < j; k++)
                infinite |= strcmp(argv[k], "infinite") == 0 || strcmp(argv[k], "ponder") == 0;
            if (infinite)
                session_stop(e);
        }
        session_wait(e);
        i = j;
    }
    return failed;
}

/* The words of argv[first..argc), each argument also cut at blanks, so
 * "go depth 4" may be one quoted argument. */
static int split_words(int argc, char **argv, int first, char ***words, char **store)
{
    size_t len = 1;
    for (int i = first; i < argc; i++)
        len += strlen(argv[i]) + 1;
    char *buf = malloc(len);
    char **w = malloc(len * sizeof *w);
    if (!buf || !w) {
        free(buf);
        free(w);
        return -1;
    }
    buf[0] = '\0';
    for (int i = first; i < argc; i++) {
        strcat(buf, argv[i]);
        strcat(buf, " ");
    }
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save))
        w[n++] = t;
    *words = w;
    *store = buf;
    return n;
}

int main(int argc, char **argv)
{
    signal(SIGPIPE, SIG_IGN);
    if (argc >= 2 && strcmp(argv[1], "tables") == 0)
        return tb_command(argc - 2, argv + 2);
    if (argc > 1 && strcmp(argv[1], "play") == 0)
        return play_main(argc - 1, argv + 1);
    Session *e = session_new(stdout, NULL);
    if (!e) {
        fprintf(stderr, "morelli: cannot start the engine\n");
        return 1;
    }
    int failed = 0, i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        if (strcmp(argv[i], "--version") == 0) {
            printf("morelli %s\n%s\n", morelli_version(), morelli_build());
            session_free(e);
            return 0;
        }
        if (strcmp(argv[i], "--help") == 0) {
            print_help(e);
            session_free(e);
            return 0;
        }
        const char *arg = argv[i] + 2;
        const char *eq = strchr(arg, '=');
        if (!eq || eq == arg) {
            session_error(e, "command-line option '%s' is not --Name=Value", argv[i]);
            failed++;
            continue;
        }
        size_t len = strlen(arg) + 32;
        char *line = malloc(len);
        if (!line)
            break;
        snprintf(line, len, "setoption name %.*s value %s", (int)(eq - arg), arg, eq + 1);
        if (session_input(e, line, strlen(line)) != UGI_OK)
            failed++;
        free(line);
    }
    if (i < argc) {
        char **words, *store;
        int n = split_words(argc, argv, i, &words, &store);
        if (n < 0)
            failed++;
        else {
            failed += run_words(e, n, words);
            free(words);
            free(store);
        }
    } else if (!failed)
        run_stdin(e);
    session_free(e);
    return failed ? 1 : 0;
}
