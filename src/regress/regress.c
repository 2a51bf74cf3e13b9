/* Running a suite (see regress/regress.h): the cases' runs go through a process pool
 * (core/procpool.h), and each case is judged as soon as its run and all the runs before it in
 * the suite have ended, so that the report comes in suite order whatever the number of runs
 * at a time; with --update the goldens are settled once every run has ended, and only if
 * every one of them ran to its end with its checks passed. */
#define _POSIX_C_SOURCE 200809L
#include "regress/regress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/outfile.h"
#include "core/path.h"
#include "core/procpool.h"
#include "core/stop.h"
#include "io/junit.h"

/* The pool's context: the options, the result, and how far the judging has come. */
struct pool {
    const struct regress_options *o;
    struct regress_result *r;
    double *started; /* [n] when each run started */
    char *ended;     /* [n] 1 once its run has ended */
    size_t judged;   /* cases judged so far, in suite order */
};

static void tell(const struct regress_options *o, const struct regress_case *c)
{
    if (o->judged)
        o->judged(o->ctx, c);
}

/* The folder of a path ("OUT/a/b.log" -> "OUT/a"), malloc'd. */
static char *parent_of(const char *path)
{
    char *p = strdup(path);
    char *slash = p ? strrchr(p, '/') : NULL;
    if (slash)
        *slash = '\0';
    return p;
}

/* Runs job i: `PROGRAM run SCENARIO -o OUT/NAME -q`, its output to OUT/NAME.log. */
static int prepare(void *ctx, size_t i, struct procpool_job *job, struct catena_error *err)
{
    struct pool *p = ctx;
    struct regress_case *c = &p->r->cases[i];
    char *folder = NULL;
    const size_t n = strlen(c->name) + sizeof ".log";
    char *log = malloc(n);
    if (log)
        snprintf(log, n, "%s.log", c->name);
    c->run = path_join(p->o->out, c->name);
    c->log = log ? path_join(p->o->out, log) : NULL;
    free(log);
    job->argv = calloc(7, sizeof *job->argv);
    if (!c->run || !c->log || !job->argv || !(folder = parent_of(c->log)))
        return error_set(err, CATENA_EFAIL, "%s: out of memory", c->name);
    const int rc = outfile_mkdirs(folder, err);
    free(folder);
    if (rc != CATENA_OK)
        return rc;
    char **a = job->argv;
    a[0] = (char *)p->o->program;
    a[1] = "run";
    a[2] = c->scenario;
    a[3] = "-o";
    a[4] = c->run;
    a[5] = "-q";
    job->log = c->log;
    p->started[i] = clock_monotonic_s();
    return 0;
}

static void release(void *ctx, size_t i, struct procpool_job *job)
{
    (void)ctx;
    (void)i;
    free(job->argv);
}

/* Judges, in suite order, every case whose run has ended after all those before it. */
static void judge_ready(struct pool *p)
{
    while (p->judged < p->r->n && p->ended[p->judged]) {
        struct regress_case *c = &p->r->cases[p->judged++];
        regress_judge(p->o, c);
        if (!p->o->update)
            tell(p->o, c);
    }
}

static void done(void *ctx, size_t i, int code, const struct catena_error *why)
{
    struct pool *p = ctx;
    struct regress_case *c = &p->r->cases[i];
    c->exit_code = code;
    c->seconds = code >= 0 ? clock_monotonic_s() - p->started[i] : 0.0;
    if (why) /* it could not start: the message takes the place of its output */
        snprintf(c->message, sizeof c->message, "%.1000s", why->msg);
    p->ended[i] = 1;
    judge_ready(p);
}

/* With --update, once every case has ended: the goldens, if every case ran. */
static int settle_goldens(const struct regress_options *o, struct regress_result *r,
                          struct catena_error *err)
{
    size_t failed = 0;
    for (size_t i = 0; i < r->n; i++)
        failed += r->cases[i].exit_code != 0;
    int rc = CATENA_OK;
    /* a stop signal lets the golden being written be finished, and no other one begun */
    struct stop_handlers h;
    stop_catch(&h);
    for (size_t i = 0; i < r->n && !stop_requested(); i++) {
        struct regress_case *c = &r->cases[i];
        if (!failed && rc == CATENA_OK)
            rc = regress_bless(o, c, err);
        tell(o, c);
    }
    if ((r->stop_signal = stop_requested()))
        rc = 128 + r->stop_signal;
    stop_restore(&h);
    if (failed && rc == CATENA_OK)
        rc = error_set(err, CATENA_EFAIL,
                       "%zu of %zu scenarios did not run to their end with their checks passed; "
                       "no golden was written",
                       failed, r->n);
    return rc;
}

int regress_run(const struct regress_options *o, struct regress_result *r, struct catena_error *err)
{
    const double start = clock_monotonic_s();
    struct pool p = {.o = o, .r = r};
    p.started = calloc(r->n ? r->n : 1, sizeof *p.started);
    p.ended = calloc(r->n ? r->n : 1, 1);
    int rc = CATENA_OK;
    if (!p.started || !p.ended) {
        rc = error_set(err, CATENA_EFAIL, "out of memory");
        goto done;
    }
    const struct procpool_options po = {.n = r->n,
                                        .slots = o->jobs,
                                        .prepare = prepare,
                                        .release = release,
                                        .done = done,
                                        .ctx = &p};
    procpool_run(&po, &r->stop_signal);
    if (r->stop_signal) {
        rc = 128 + r->stop_signal;
        goto done;
    }
    /* the cases never started (one could not start) are judged too */
    for (size_t i = 0; i < r->n; i++)
        p.ended[i] = 1;
    judge_ready(&p);
    if (o->update && (rc = settle_goldens(o, r, err)) > 128)
        goto done;
    for (size_t i = 0; i < r->n; i++)
        r->count[r->cases[i].verdict]++, r->blessed[r->cases[i].blessing]++;
    if (rc == CATENA_OK && r->count[REGRESS_PASSED] < r->n)
        rc = error_set(err, CATENA_EFAIL, "%zu of %zu scenarios failed",
                       r->n - r->count[REGRESS_PASSED], r->n);
    /* a golden whose scenario is gone tests nothing: a failure, until it is removed (which
     * --update leaves to the user) */
    if (rc == CATENA_OK && !o->update && r->norphans > 0)
        rc = error_set(err, CATENA_EFAIL, "%zu golden%s without a scenario", r->norphans,
                       r->norphans == 1 ? "" : "s");
done:
    r->seconds = clock_monotonic_s() - start;
    free(p.started);
    free(p.ended);
    return rc;
}

int regress_write_junit(const char *path, const struct regress_options *o,
                        const struct regress_result *r, struct catena_error *err)
{
    struct junit_case *cases = calloc(r->n + r->norphans + 1, sizeof *cases);
    char **why = calloc(r->norphans + 1, sizeof *why);
    if (!cases || !why) {
        free(cases);
        free(why);
        return error_set(err, CATENA_EFAIL, "%s: out of memory", path);
    }
    for (size_t i = 0; i < r->n; i++) {
        const struct regress_case *c = &r->cases[i];
        cases[i] = (struct junit_case){
            .name = c->name,
            .classname = o->suite,
            .time = c->seconds,
            .outcome = c->verdict == REGRESS_PASSED   ? JUNIT_PASSED
                       : c->verdict == REGRESS_FAILED ? JUNIT_FAILED
                                                      : JUNIT_ERROR,
            .type = c->kind,
            .message = c->message,
            .text = c->report,
            .output = c->verdict == REGRESS_PASSED ? NULL : c->output,
        };
    }
    for (size_t i = 0; i < r->norphans; i++) {
        why[i] = regress_orphan_message(o->suite, r->orphans[i]);
        cases[r->n + i] = (struct junit_case){.name = r->orphans[i],
                                              .classname = o->suite,
                                              .time = 0,
                                              .outcome = JUNIT_FAILED,
                                              .type = "golden",
                                              .message = why[i] ? why[i] : r->orphans[i]};
    }
    const struct junit_suite s = {o->suite, r->seconds, cases, r->n + r->norphans};
    const int rc = junit_write(path, &s, err);
    for (size_t i = 0; i < r->norphans; i++)
        free(why[i]);
    free(why);
    free(cases);
    return rc;
}

void regress_free(struct regress_result *r)
{
    for (size_t i = 0; i < r->n; i++) {
        struct regress_case *c = &r->cases[i];
        free(c->name);
        free(c->scenario);
        free(c->golden);
        free(c->run);
        free(c->log);
        free(c->report);
        free(c->output);
    }
    free(r->cases);
    for (size_t i = 0; i < r->norphans; i++)
        free(r->orphans[i]);
    free(r->orphans);
    *r = (struct regress_result){0};
}

char *regress_orphan_message(const char *suite, const char *name)
{
    const char *fmt = "%s/golden/%s has no scenario %s/%s.json: remove it, or bring the "
                      "scenario back";
    const int n = snprintf(NULL, 0, fmt, suite, name, suite, name);
    char *s = n > 0 ? malloc((size_t)n + 1) : NULL;
    if (s)
        snprintf(s, (size_t)n + 1, fmt, suite, name, suite, name);
    return s;
}
