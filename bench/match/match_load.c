/* Busy processes for --load: see match_load.h. */
#include "match_load.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static void spin(void)
{
    volatile unsigned long x = 0;
    for (;;)
        x++;
}

int load_start(Load *l, int n, char *err, size_t errlen)
{
    l->n = 0;
    if (n < 0 || n > LOAD_MAX) {
        snprintf(err, errlen, "--load wants 0 to %d busy processes, not %d", LOAD_MAX, n);
        return -1;
    }
    pid_t parent = getpid();
    for (int i = 0; i < n; i++) {
        pid_t pid = fork();
        if (pid < 0) {
            snprintf(err, errlen, "--load: fork: %s", strerror(errno));
            load_stop(l);
            return -1;
        }
        if (pid == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (getppid() != parent) /* the runner died before the line above */
                _exit(0);
            spin();
        }
        l->pid[l->n++] = pid;
    }
    return 0;
}

void load_stop(Load *l)
{
    for (int i = 0; i < l->n; i++)
        kill(l->pid[i], SIGKILL);
    for (int i = 0; i < l->n; i++)
        while (waitpid(l->pid[i], NULL, 0) < 0 && errno == EINTR)
            ;
    l->n = 0;
}
