/* Running a sweep on this machine: each run is a child process executing the catena program
 * itself (`catena run BASE --set ... -o DIR/runs/NAME -q`), at most N at a time, through the
 * process pool of core/procpool.h (which passes SIGINT and SIGTERM on to the runs). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "sweep/sweep.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/outfile.h"
#include "core/path.h"
#include "core/procpool.h"
#include "core/readfile.h"
#include "sweep/internal.h"

/* Where each run's standard output and error go, in its run directory. */
#define RUN_LOG "catena.log"

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

/* The largest log read for its last line: a run's log holds its messages, a few lines. */
#define RUN_LOG_MAX (16u << 20)

/* The last non-empty line of a run's log, without catena's "catena: " prefix; nothing from a
 * log that is not a regular file (a symlink, a FIFO). */

static void last_log_line(const char *run_dir, char *out, size_t size)
{
    char *path = path_join(run_dir, RUN_LOG), *text = NULL;
    size_t len = 0;
    int e;
    out[0] = '\0';
    if (path && (text = readfile_regular(path, RUN_LOG_MAX, &len, &e))) {
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

/* What the pool's callbacks share. */
struct exec {
    const struct sweep_plan *p;
    const struct sweep_exec_options *o;
    struct sweep_outcome *out;
    char **dirs; /* [nruns] DIR/runs/NAME of each run started, until it ends */
};

/* Starts run i, unless an earlier result is reused; its output goes to its run's log. */
static int prepare(void *ctx, size_t i, struct procpool_job *job, struct catena_error *err)
{
    struct exec *x = ctx;
    if (x->out[i].reused)
        return 1;
    job->argv = sweep_run_argv(x->p, x->o->dir, x->o->program, i, &x->dirs[i]);
    job->log = x->dirs[i] ? path_join(x->dirs[i], RUN_LOG) : NULL;
    if (!job->argv || !job->log)
        return error_set(err, CATENA_EFAIL, "%s: out of memory", x->o->dir);
    return outfile_mkdirs(x->dirs[i], err);
}

static void release(void *ctx, size_t i, struct procpool_job *job)
{
    (void)ctx;
    (void)i;
    free(job->argv);
    free(job->log);
}

/* Judges run i, which ended with code (-1: it could not start, for the reason why). */
static void done(void *ctx, size_t i, int code, const struct catena_error *why)
{
    struct exec *x = ctx;
    struct sweep_outcome *out = &x->out[i];
    if (code < 0) {
        *out = (struct sweep_outcome){.status = SWEEP_FAILED};
        snprintf(out->why, sizeof out->why, "%.500s", why ? why->msg : "not started");
    } else if (code == 0) {
        sweep_check_run(x->p, x->o->dir, i, out);
        if (out->status != SWEEP_OK) {
            char was[sizeof out->why];
            memcpy(was, out->why, sizeof was);
            snprintf(out->why, sizeof out->why, "exited 0, but %.480s", was);
            out->status = SWEEP_FAILED;
        }
    } else {
        *out = (struct sweep_outcome){.status = SWEEP_FAILED};
        last_log_line(x->dirs[i], out->why, sizeof out->why);
        if (!out->why[0])
            snprintf(out->why, sizeof out->why, "see %s/%s", x->dirs[i], RUN_LOG);
    }
    out->exit_code = code;
    free(x->dirs[i]);
    x->dirs[i] = NULL;
    if (x->o->done)
        x->o->done(x->o->ctx, x->p, i, out);
}

/* The pool's tick, passed on to the sweep's. */
static void tick(void *ctx)
{
    const struct exec *x = ctx;
    x->o->tick(x->o->ctx);
}

int sweep_exec(const struct sweep_plan *p, const struct sweep_exec_options *o,
               struct sweep_outcome *out, int *stop_signal, struct catena_error *err)
{
    char *runs = path_join(o->dir, "runs");
    struct exec x = {.p = p, .o = o, .out = out, .dirs = calloc(p->nruns + 1, sizeof(char *))};
    int rc = CATENA_OK;
    *stop_signal = 0;
    if (!runs || !x.dirs) {
        rc = error_set(err, CATENA_EFAIL, "%s: out of memory", o->dir);
        goto done;
    }
    if ((rc = outfile_mkdirs(runs, err)) || (rc = sweep_plan_write(p, o->dir, err)))
        goto done;
    for (size_t i = 0; i < p->nruns; i++) {
        sweep_check_run(p, o->dir, i, &out[i]);
        out[i].reused = out[i].status == SWEEP_OK;
    }
    const struct procpool_options po = {.n = p->nruns,
                                        .slots = o->jobs,
                                        .prepare = prepare,
                                        .release = release,
                                        .done = done,
                                        .tick = o->tick ? tick : NULL,
                                        .tick_s = SWEEP_TICK,
                                        .ctx = &x};
    const size_t next = procpool_run(&po, stop_signal);
    for (size_t i = next; i < p->nruns; i++) {
        if (out[i].reused)
            continue;
        out[i] = (struct sweep_outcome){.status = SWEEP_MISSING, .exit_code = -1};
        snprintf(out[i].why, sizeof out[i].why, "not started: the sweep was %s",
                 *stop_signal ? "interrupted" : "stopped by a run that could not start");
    }
done:
    if (x.dirs)
        for (size_t i = 0; i < p->nruns; i++)
            free(x.dirs[i]);
    free(x.dirs);
    free(runs);
    return rc;
}
