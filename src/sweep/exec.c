/* Running a sweep on this machine: each run is a child process executing the catena program
 * itself (`catena run BASE --set ... -o DIR/runs/NAME -q`), at most N at a time. The parent
 * sleeps in sigsuspend (pselect, when it has a progress line to redraw) with SIGCHLD, SIGINT
 * and SIGTERM blocked otherwise, so a child's end or a stop request is never missed between a
 * check and the wait. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "sweep/sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/outfile.h"
#include "core/path.h"
#include "core/readfile.h"
#include "sweep/internal.h"

/* Where each run's standard output and error go, in its run directory. */
#define RUN_LOG "catena.log"

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

/* Signal state while a sweep runs, restored at the end. */
struct sigs {
    struct sigaction old[NHANDLED];
    sigset_t old_mask; /* the caller's mask; children start with it, sigsuspend waits with it */
};

static void sigs_catch(struct sigs *s)
{
    sigset_t block;
    sigemptyset(&block);
    for (size_t i = 0; i < NHANDLED; i++)
        sigaddset(&block, handled[i]);
    sigprocmask(SIG_BLOCK, &block, &s->old_mask);
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
    }
    /* sigsuspend with the caller's mask must let them through. */
    for (size_t i = 0; i < NHANDLED; i++)
        sigdelset(&s->old_mask, handled[i]);
}

static void sigs_restore(struct sigs *s, const sigset_t *caller_mask)
{
    for (size_t i = 0; i < NHANDLED; i++)
        sigaction(handled[i], &s->old[i], NULL);
    sigprocmask(SIG_SETMASK, caller_mask, NULL);
}

int sweep_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

char *sweep_find_program(const char *argv0)
{
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n > 0) {
        buf[n] = '\0';
        return strdup(buf);
    }
    if (!argv0 || !*argv0)
        return NULL;
    if (strchr(argv0, '/'))
        return realpath(argv0, NULL);
    const char *path = getenv("PATH");
    for (const char *d = path ? path : ""; *d;) {
        const size_t len = strcspn(d, ":");
        snprintf(buf, sizeof buf, "%.*s/%s", (int)len, len ? d : ".", argv0);
        if (access(buf, X_OK) == 0)
            return realpath(buf, NULL);
        d += len + (d[len] == ':');
    }
    return NULL;
}

char *sweep_program_path(const char *program)
{
    if (!strchr(program, '/') || program[0] == '/')
        return strdup(program);
    char *abs = realpath(program, NULL);
    if (abs)
        return abs;
    /* Not here (yet): the path it names from here is still the one meant. */
    while (program[0] == '.' && program[1] == '/')
        program += 2;
    char *cwd = getcwd(NULL, 0);
    abs = cwd ? path_join(cwd, program) : NULL;
    free(cwd);
    return abs;
}

/* The last non-empty line of a run's log, without catena's "catena: " prefix. */
static void last_log_line(const char *run_dir, char *out, size_t size)
{
    char *path = path_join(run_dir, RUN_LOG), *text = NULL;
    size_t len = 0;
    int e;
    out[0] = '\0';
    if (path && (text = readfile(path, &len, &e))) {
        while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
            text[--len] = '\0';
        char *line = strrchr(text, '\n');
        line = line ? line + 1 : text;
        if (strncmp(line, "catena: ", 8) == 0)
            line += 8;
        snprintf(out, size, "%s", line);
    }
    free(text);
    free(path);
}

/* A run being executed. */
struct child {
    pid_t pid;
    size_t run;
    char *dir; /* DIR/runs/NAME */
};

/* Starts run i; in the child, output goes to the run's log and stdin reads nothing. */
static int start(const struct sweep_plan *p, const struct sweep_exec_options *o, size_t i,
                 const sigset_t *mask, struct child *c, struct catena_error *err)
{
    char **argv = sweep_run_argv(p, o->dir, o->program, i, &c->dir);
    char *log = c->dir ? path_join(c->dir, RUN_LOG) : NULL;
    int rc = CATENA_OK;
    if (!argv || !log) {
        rc = error_set(err, CATENA_EFAIL, "%s: out of memory", o->dir);
        goto done;
    }
    if ((rc = outfile_mkdirs(c->dir, err)))
        goto done;
    c->run = i;
    c->pid = fork();
    if (c->pid < 0) {
        rc =
            error_set(err, CATENA_EFAIL, "%s: cannot start a process: %s", c->dir, strerror(errno));
        goto done;
    }
    if (c->pid == 0) {
        int out = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        int in = open("/dev/null", O_RDONLY);
        if (out < 0 || in < 0 || dup2(in, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0 ||
            dup2(out, STDERR_FILENO) < 0)
            _exit(127);
        sigprocmask(SIG_SETMASK, mask, NULL);
        execvp(o->program, argv); /* a bare name (--catena catena) is looked up in PATH */
        dprintf(STDERR_FILENO, "catena: cannot run %s: %s\n", o->program, strerror(errno));
        _exit(127);
    }
done:
    free(argv);
    free(log);
    return rc;
}

/* Judges a run that ended with wait status ws. */
static void finish(const struct sweep_plan *p, const struct sweep_exec_options *o,
                   const struct child *c, int ws, struct sweep_outcome *out)
{
    const int code = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
    if (code == 0) {
        sweep_check_run(p, o->dir, c->run, out);
        if (out->status != SWEEP_OK) {
            char why[sizeof out->why];
            memcpy(why, out->why, sizeof why);
            snprintf(out->why, sizeof out->why, "exited 0, but %.480s", why);
            out->status = SWEEP_FAILED;
        }
    } else {
        *out = (struct sweep_outcome){.status = SWEEP_FAILED};
        last_log_line(c->dir, out->why, sizeof out->why);
        if (!out->why[0])
            snprintf(out->why, sizeof out->why, "see %s/%s", c->dir, RUN_LOG);
    }
    out->exit_code = code;
    if (o->done)
        o->done(o->ctx, p, c->run, out);
}

/* Reaps every child that has ended; returns how many. */
static size_t reap(const struct sweep_plan *p, const struct sweep_exec_options *o,
                   struct child *kids, size_t *nkids, struct sweep_outcome *out)
{
    size_t ended = 0;
    int ws;
    pid_t pid;
    while (*nkids > 0 && (pid = waitpid(-1, &ws, WNOHANG)) > 0) {
        for (size_t k = 0; k < *nkids; k++) {
            if (kids[k].pid != pid)
                continue;
            finish(p, o, &kids[k], ws, &out[kids[k].run]);
            free(kids[k].dir);
            kids[k] = kids[--*nkids];
            ended++;
            break;
        }
    }
    return ended;
}

/* Sleeps with the caller's signal mask until a signal (a child's end, a stop request) or, when
 * someone draws progress, the next tick. */
static void wait_a_while(const struct sweep_exec_options *o, const sigset_t *mask)
{
    if (!o->tick) {
        sigsuspend(mask);
        return;
    }
    const struct timespec t = {0, (long)(SWEEP_TICK * 1e9)};
    pselect(0, NULL, NULL, NULL, &t, mask);
    o->tick(o->ctx);
}

int sweep_exec(const struct sweep_plan *p, const struct sweep_exec_options *o,
               struct sweep_outcome *out, int *stop_signal, struct catena_error *err)
{
    char *runs = path_join(o->dir, "runs");
    struct child *kids = calloc((size_t)o->jobs, sizeof *kids);
    size_t nkids = 0, next = 0;
    int rc = CATENA_OK, forwarded = 0, broken = 0;
    *stop_signal = 0;
    if (!runs || !kids) {
        rc = error_set(err, CATENA_EFAIL, "%s: out of memory", o->dir);
        goto done;
    }
    if ((rc = outfile_mkdirs(runs, err)) || (rc = sweep_plan_write(p, o->dir, err)))
        goto done;
    for (size_t i = 0; i < p->nruns; i++) {
        sweep_check_run(p, o->dir, i, &out[i]);
        out[i].reused = out[i].status == SWEEP_OK;
    }
    struct sigs sigs;
    sigset_t caller_mask;
    sigprocmask(SIG_SETMASK, NULL, &caller_mask);
    sigs_catch(&sigs);
    for (;;) {
        reap(p, o, kids, &nkids, out);
        if (stop_signal_got && !forwarded) {
            /* A ^C reaches the whole process group anyway; a kill aimed at this process
             * alone has to be passed on. */
            for (size_t k = 0; k < nkids; k++)
                kill(kids[k].pid, stop_signal_got);
            forwarded = 1;
        }
        while (!stop_signal_got && !broken && nkids < (size_t)o->jobs && next < p->nruns) {
            if (out[next].reused) {
                next++;
                continue;
            }
            /* A run that cannot be started (no process, no directory) fails, and as the
             * next one would most likely fail the same way, none is started after it. */
            if (start(p, o, next, &caller_mask, &kids[nkids], err) == CATENA_OK) {
                nkids++;
            } else {
                free(kids[nkids].dir);
                out[next] = (struct sweep_outcome){.status = SWEEP_FAILED, .exit_code = -1};
                snprintf(out[next].why, sizeof out[next].why, "%.500s", err->msg);
                if (o->done)
                    o->done(o->ctx, p, next, &out[next]);
                broken = 1;
            }
            next++;
        }
        if (nkids == 0 && (stop_signal_got || broken || next >= p->nruns))
            break;
        wait_a_while(o, &sigs.old_mask);
    }
    *stop_signal = stop_signal_got;
    for (size_t i = next; i < p->nruns; i++) {
        if (out[i].reused)
            continue;
        out[i] = (struct sweep_outcome){.status = SWEEP_MISSING, .exit_code = -1};
        snprintf(out[i].why, sizeof out[i].why, "not started: the sweep was %s",
                 *stop_signal ? "interrupted" : "stopped by a run that could not start");
    }
    sigs_restore(&sigs, &caller_mask);
done:
    free(kids);
    free(runs);
    return rc;
}
