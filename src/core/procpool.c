/* Child processes at most N at a time (see core/procpool.h): fork, the log as standard output
 * and error, /dev/null as standard input, exec; SIGCHLD ends the parent's sigsuspend (or
 * pselect) and waitpid reaps. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "core/procpool.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t stop_signal_got;

static void on_stop(int sig)
{
    stop_signal_got = sig;
}

/* SIGCHLD only has to end sigsuspend; waitpid does the rest. */
static void on_child(int sig)
{
    (void)sig;
}

static const int handled[] = {SIGCHLD, SIGINT, SIGTERM};
#define NHANDLED (sizeof handled / sizeof handled[0])

/* Signal state while the pool runs, restored at the end. */
struct sigs {
    struct sigaction old[NHANDLED];
    sigset_t caller_mask; /* children start with it */
    sigset_t wait_mask;   /* the caller's, letting the handled signals through: sigsuspend's */
};

static void sigs_catch(struct sigs *s)
{
    sigset_t block;
    sigemptyset(&block);
    for (size_t i = 0; i < NHANDLED; i++)
        sigaddset(&block, handled[i]);
    sigprocmask(SIG_BLOCK, &block, &s->caller_mask);
    s->wait_mask = s->caller_mask;
    stop_signal_got = 0;
    for (size_t i = 0; i < NHANDLED; i++) {
        struct sigaction sa = {0};
        sa.sa_handler = handled[i] == SIGCHLD ? on_child : on_stop;
        sigemptyset(&sa.sa_mask);
        sigaction(handled[i], NULL, &s->old[i]);
        /* A stop signal ignored on entry stays ignored, here and in the children (as for a
         * shell's background job). */
        if (handled[i] == SIGCHLD || s->old[i].sa_handler != SIG_IGN)
            sigaction(handled[i], &sa, NULL);
        sigdelset(&s->wait_mask, handled[i]);
    }
}

static void sigs_restore(const struct sigs *s)
{
    for (size_t i = 0; i < NHANDLED; i++)
        sigaction(handled[i], &s->old[i], NULL);
    sigprocmask(SIG_SETMASK, &s->caller_mask, NULL);
}

int procpool_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* A running job. */
struct child {
    pid_t pid;
    size_t job;
};

/* Starts job i into *c: 0, 1 when prepare skipped it, or an error code with err set. */
static int start(const struct procpool_options *o, size_t i, const sigset_t *mask, struct child *c,
                 struct catena_error *err)
{
    struct procpool_job job = {0};
    int rc = o->prepare(o->ctx, i, &job, err);
    if (rc == 0) {
        c->job = i;
        c->pid = fork();
        if (c->pid < 0)
            rc = error_set(err, CATENA_EFAIL, "%s: cannot start a process: %s", job.log,
                           strerror(errno));
    }
    if (rc == 0 && c->pid == 0) {
        /* never through a symlink planted in a shared directory, nor blocked on a FIFO */
        int out = open(job.log, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK, 0666);
        int in = open("/dev/null", O_RDONLY);
        if (out < 0) {
            dprintf(STDERR_FILENO, "catena: %s: cannot open: %s\n", job.log, strerror(errno));
            _exit(127);
        }
        if (in < 0 || dup2(in, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0 ||
            dup2(out, STDERR_FILENO) < 0)
            _exit(127);
        sigprocmask(SIG_SETMASK, mask, NULL);
        execvp(job.argv[0], job.argv);
        dprintf(STDERR_FILENO, "catena: cannot run %s: %s\n", job.argv[0], strerror(errno));
        _exit(127);
    }
    if (o->release)
        o->release(o->ctx, i, &job);
    return rc;
}

/* Reaps every child that has ended, telling done. */
static void reap(const struct procpool_options *o, struct child *kids, size_t *nkids)
{
    int ws;
    pid_t pid;
    while (*nkids > 0 && (pid = waitpid(-1, &ws, WNOHANG)) > 0) {
        for (size_t k = 0; k < *nkids; k++) {
            if (kids[k].pid != pid)
                continue;
            const int code = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
            const size_t job = kids[k].job;
            kids[k] = kids[--*nkids];
            o->done(o->ctx, job, code, NULL);
            break;
        }
    }
}

/* Sleeps with mask until a signal (a child's end, a stop request) or the next tick. */
static void wait_a_while(const struct procpool_options *o, const sigset_t *mask)
{
    if (!o->tick) {
        sigsuspend(mask);
        return;
    }
    const double s = o->tick_s > 0 ? o->tick_s : 0.25;
    const struct timespec t = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    pselect(0, NULL, NULL, NULL, &t, mask);
    o->tick(o->ctx);
}

size_t procpool_run(const struct procpool_options *o, int *stop_signal)
{
    const size_t slots = o->slots > 0 ? (size_t)o->slots : 1;
    struct child *kids = calloc(slots, sizeof *kids);
    size_t nkids = 0, next = 0;
    int forwarded = 0, broken = 0;
    struct catena_error err;
    *stop_signal = 0;
    if (!kids) {
        if (o->n > 0)
            o->done(o->ctx, 0, -1, &(struct catena_error){CATENA_EFAIL, "out of memory"});
        return 0;
    }
    struct sigs sigs;
    sigs_catch(&sigs);
    for (;;) {
        reap(o, kids, &nkids);
        if (stop_signal_got && !forwarded) {
            for (size_t k = 0; k < nkids; k++)
                kill(kids[k].pid, stop_signal_got);
            forwarded = 1;
        }
        while (!stop_signal_got && !broken && nkids < slots && next < o->n) {
            const int rc = start(o, next, &sigs.caller_mask, &kids[nkids], &err);
            if (rc == 0) {
                nkids++;
            } else if (rc != 1) {
                /* the next job would most likely fail the same way: none starts after it */
                o->done(o->ctx, next, -1, &err);
                broken = 1;
            }
            next++;
        }
        if (nkids == 0 && (stop_signal_got || broken || next >= o->n))
            break;
        wait_a_while(o, &sigs.wait_mask);
    }
    *stop_signal = stop_signal_got;
    sigs_restore(&sigs);
    free(kids);
    return next;
}
