/* The run loop: scenario.json and model.json first, then fixed steps of the solver, a frame
 * recorded every `every` steps, a check for a diverged (non-finite or absurd) state after each
 * step, SIGINT/SIGTERM, the frames when rendering is on, and summary.json. The run holds its
 * directory's lock throughout, and the directory holds this run alone: summary.json says
 * "running" before anything else is written and the earlier run's files are gone
 * (io/rundir.h). However a run ends, the frames recorded so far are committed whole and the
 * summary says why. */
#define _POSIX_C_SOURCE 200809L
#include "run/run.h"

#include <stdio.h>
#include <stdlib.h>

#include "run/checks.h"
#include "run/events.h"
#include "analysis/metrics.h"
#include "core/clock.h"
#include "core/outfile.h"
#include "core/progress.h"
#include "core/stop.h"
#include "analysis/report_catenary.h"
#include "io/rundir.h"
#include "render/render.h"
#include "run/plausible.h"
#include "run/run_dir.h"
#include "run/settle.h"
#include "solver/solver.h"
#include "solver/state.h"
#include "run/summary.h"
#include "io/model_json.h"
#include "io/topology.h"
#include "io/traj.h"

/* Every trajectory format, in the order the writers are opened and closed. */
static const enum output_format all_formats[] = {FORMAT_CSV, FORMAT_JSON, FORMAT_NPY};
#define NFORMATS (sizeof all_formats / sizeof all_formats[0])

/* A run being set up, stepped and torn down. */
struct run {
    const struct scenario *sc;
    const struct model *m;  /* sc->model */
    const struct model *lm; /* the working copy events change between steps; it is stepped */
    struct events *ev;
    struct settle settle;
    long settled_step; /* -1 until the run settles */
    struct state *s;
    struct traj_writer *w[NFORMATS]; /* NULL for the formats not written */
    struct metrics_writer *metrics;  /* NULL unless metrics.csv is written */
    struct topology_log *topology;   /* topology.csv; NULL when nothing can change */
    struct checks *checks;           /* the scenario's checks, judged after every state */
    long diverged;                   /* first diverged point, or -1 */
    struct plausible start;          /* what the initial state says about the end */
    struct warnings warnings;        /* the end's plausibility warnings */
    struct stop_handlers stop;       /* SIGINT, SIGTERM: the handlers to restore at the end */
};

static int writers_open(struct run *run, const char *dir, struct catena_error *err)
{
    for (size_t i = 0; i < NFORMATS; i++) {
        if (!(run->sc->output.formats & all_formats[i]))
            continue;
        run->w[i] = traj_open(all_formats[i], dir, run->m, run->sc->provenance.name,
                              run->sc->output.every, err);
        if (!run->w[i])
            return err->code;
    }
    if (run->sc->output.metrics && !(run->metrics = metrics_open(dir, err)))
        return err->code;
    return CATENA_OK;
}

static int writers_record(struct run *run, struct catena_error *err)
{
    for (size_t i = 0; i < NFORMATS; i++)
        if (run->w[i] && traj_append(run->w[i], run->s->step, run->s->t, run->s->x, err))
            return err->code;
    if (run->metrics && metrics_record(run->metrics, run->lm, run->s, err))
        return err->code;
    return CATENA_OK;
}

/* Commits every file; after a failure the remaining ones are dropped, not committed. */
static int writers_close(struct run *run, struct catena_error *err)
{
    int rc = events_log_commit(run->ev, err);
    for (size_t i = 0; i < NFORMATS; i++) {
        if (!run->w[i])
            continue;
        if (rc == CATENA_OK)
            rc = traj_close(run->w[i], err);
        else
            traj_abort(run->w[i]);
        run->w[i] = NULL;
    }
    if (run->metrics && rc == CATENA_OK)
        rc = metrics_close(run->metrics, err);
    else
        metrics_abort(run->metrics);
    run->metrics = NULL;
    if (run->topology && rc == CATENA_OK)
        rc = topology_log_close(run->topology, err);
    else
        topology_log_abort(run->topology);
    run->topology = NULL;
    return rc;
}

static void writers_abort(struct run *run)
{
    for (size_t i = 0; i < NFORMATS; i++) {
        traj_abort(run->w[i]);
        run->w[i] = NULL;
    }
    metrics_abort(run->metrics);
    run->metrics = NULL;
    topology_log_abort(run->topology);
    run->topology = NULL;
}

/* Between steps: the events due, then what they (and the step) changed in links and pins,
 * then the checks on the state the next step starts from. */
static void boundary(struct run *run)
{
    events_boundary(run->ev, run->s);
    if (run->topology)
        topology_log_step(run->topology, run->lm, run->s->alive, run->s->step);
    checks_step(run->checks, run->lm, run->s);
}

/* Whether the run has settled (time.until_settled) with nothing left to happen. */
static int settled(struct run *run)
{
    /* A quiet spell counts only once nothing is scheduled any more: an event may well set a
     * resting body moving again. */
    if (events_pending(run->ev)) {
        run->settle.quiet_from = -1;
        return 0;
    }
    if (!settle_update(&run->settle, run->lm, run->s))
        return 0;
    run->settled_step = run->settle.quiet_from;
    return 1;
}

/* Steps until the last step, a divergence, settling or a stop signal, recording frames on
 * the way. Events apply at each step boundary, before the frame is recorded. The initial
 * state is checked too, so a diverged state is never recorded. */
static int run_steps(struct run *run, const struct run_options *o, struct catena_error *err)
{
    const struct model *m = run->m;
    struct state *s = run->s;
    struct progress pg;
    if (o->progress)
        progress_start(&pg, stderr, m->steps, clock_monotonic_s());
    run->diverged = solver_find_diverged(s);
    if (run->diverged < 0)
        boundary(run);
    int rc = run->diverged < 0 ? writers_record(run, err) : CATENA_OK;
    while (rc == CATENA_OK && run->diverged < 0 && s->step < m->steps && !stop_requested() &&
           run->settled_step < 0) {
        solver_step(run->lm, s);
        if (stop_requested())
            break; /* a step a signal cut short (a factorisation gave up) is not recorded */
        run->diverged = solver_find_diverged(s);
        if (run->diverged < 0) {
            boundary(run);
            settled(run);
        }
        /* The last frame of a settled run is recorded whatever `every` says. */
        if (run->diverged < 0 && (s->step % run->sc->output.every == 0 || run->settled_step >= 0))
            rc = writers_record(run, err);
        if (o->progress)
            progress_update(&pg, s->step, clock_monotonic_s());
    }
    if (o->progress)
        progress_end(&pg);
    return rc;
}

static void fill_result(const struct run *run, struct run_result *r)
{
    const struct state *s = run->s;
    r->steps_done = s->step;
    r->max_stretch = solver_max_stretch(run->lm, s);
    r->settled_step = run->settled_step;
    for (int k = 0; k < LOG_KINDS; k++)
        r->events[k] = events_count(run->ev, (enum event_log_kind)k);
    r->live_links = 0;
    for (size_t i = 0; i < s->nlinks; i++)
        r->live_links += s->alive[i];
    r->diverged_point = run->diverged;
    metrics_compute(run->lm, s, &r->final);
    if (run->diverged >= 0) {
        r->status = RUN_DIVERGED;
    } else if (stop_requested() && s->step < run->m->steps) {
        r->status = RUN_INTERRUPTED;
        r->signal = stop_requested();
    }
    const enum checks_end end = r->status != RUN_OK       ? CHECKS_END_CUT
                                : s->step < run->m->steps ? CHECKS_END_SETTLED
                                                          : CHECKS_END_COMPLETE;
    r->checks = checks_finish(run->checks, run->lm, s, end, &r->nchecks);
    for (size_t i = 0; i < r->nchecks; i++)
        r->checks_failed += r->checks[i].result == CHECK_FAILED;
}

static const char *source_name(const struct scenario *sc)
{
    const struct scenario_provenance *p = &sc->provenance;
    return p->source ? p->source : p->name ? p->name : "model";
}

/* The message for a run that stopped early (diverged or interrupted); CATENA_OK otherwise. */
static int stopped_error(const struct run *run, const struct run_result *r,
                         struct catena_error *err)
{
    const struct model *m = run->m;
    if (r->status == RUN_INTERRUPTED)
        return error_set(err, CATENA_EFAIL, "%s: interrupted by %s at step %ld of %ld",
                         source_name(run->sc), stop_signal_name(r->signal), r->steps_done,
                         m->steps);
    if (r->status != RUN_DIVERGED)
        return CATENA_OK;
    char buf[64], pos[160];
    const char *label = model_point_label(m, (size_t)run->diverged, buf, sizeof buf);
    const vec3 x = run->s->x[run->diverged];
    if (m->dims == 3)
        snprintf(pos, sizeof pos, "(%g, %g, %g)", x.x, x.y, x.z);
    else
        snprintf(pos, sizeof pos, "(%g, %g)", x.x, x.y);
    if (v3_isfinite(x))
        return error_set(err, CATENA_EFAIL,
                         "%s: diverged at step %ld: point %s is at %s, beyond %g m",
                         source_name(run->sc), r->steps_done, label, pos, SOLVER_ABSURD);
    return error_set(err, CATENA_EFAIL,
                     "%s: diverged at step %ld: point %s has a non-finite position %s",
                     source_name(run->sc), r->steps_done, label, pos);
}

/* The message for a run whose checks failed, naming them; CATENA_OK when none did. */
static int checks_error(const struct run *run, const struct run_result *r, struct catena_error *err)
{
    if (run->sc->checks.n > 0 && !r->checks)
        return error_set(err, CATENA_EFAIL, "%s: out of memory", source_name(run->sc));
    if (r->checks_failed == 0)
        return CATENA_OK;
    char names[1024] = "";
    size_t len = 0;
    for (size_t i = 0; i < r->nchecks && len < sizeof names; i++)
        if (r->checks[i].result == CHECK_FAILED)
            len += (size_t)snprintf(names + len, sizeof names - len, "%s\"%s\"", len ? ", " : "",
                                    r->checks[i].check->name);
    return error_set(err, CATENA_EFAIL, "%s: %zu of %zu check%s failed: %s", source_name(run->sc),
                     r->checks_failed, r->nchecks, r->nchecks == 1 ? "" : "s", names);
}

/* scenario.json: the effective scenario, so that the run directory alone rebuilds it
 * (`catena catenary RUN_DIR`). Scenarios built in code have no text and write none. */
static int write_scenario(const char *dir, const struct scenario *sc, struct catena_error *err)
{
    if (!sc->provenance.json)
        return CATENA_OK;
    struct outfile f;
    const int rc = outfile_open(&f, dir, "scenario.json", err);
    if (rc != CATENA_OK)
        return rc;
    fputs(sc->provenance.json, f.fp);
    fputc('\n', f.fp);
    return outfile_commit(&f, err);
}

/* The reports output.reports asks for, on the final state of a run that completed. */
static int write_reports(const struct run *run, const struct run_options *o,
                         const struct run_result *r, struct catena_error *err)
{
    /* The working copy: the rest lengths, masses and pins that events left. */
    const struct model *m = run->lm;
    if (!(run->sc->output.reports & REPORT_CATENARY) || r->status != RUN_OK)
        return CATENA_OK;
    const char *dir = o->out_dir;
    const struct report_catenary_options ro = {
        .label = dir, .scenario = run->sc->provenance.name, .first = -1, .last = -1};
    struct report_catenary *rep;
    int rc = report_catenary_build(m, run->s->x, run->s->step, run->s->t, &ro, &rep, err);
    if (rc == CATENA_OK)
        rc = report_catenary_write(dir, rep, dir, err);
    if (rc == CATENA_OK && o->plot)
        rc = report_catenary_plot(rep, dir, "catenary.png", err);
    report_catenary_destroy(rep);
    return rc;
}

/* The frames output.render asks for, drawn from the files written so far (summary.json still
 * says "running"); a signal while drawing makes the run interrupted. */
static int draw_frames(struct run_dir *d, const struct scenario *sc, const struct run_options *o,
                       struct run_result *r, struct catena_error *err)
{
    if (!o->render || !sc->output.render)
        return CATENA_OK;
    rundir_pause(&d->w); /* the frames are render.json's, not the run's */
    struct rundir *src = rundir_written(&d->w);
    if (!src)
        return error_set(err, CATENA_EFAIL, "%s: out of memory", o->out_dir);
    struct render_result res;
    const int rc =
        render_run_from(sc, sc->output.render, src, o->out_dir, NULL, o->progress, &res, err);
    rundir_close(src);
    if (res.signal) {
        r->status = RUN_INTERRUPTED;
        r->signal = res.signal;
    }
    return rc;
}

/* Opens the outputs, steps, and closes them: the run proper. */
static int run_outputs(struct run *run, const struct run_options *o, struct run_result *r,
                       struct catena_error *err)
{
    const char *dir = o->out_dir;
    int rc = write_scenario(dir, run->sc, err);
    if (rc == CATENA_OK)
        rc = model_json_write(dir, run->m, err);
    if (rc == CATENA_OK)
        rc = writers_open(run, dir, err);
    if (rc == CATENA_OK)
        rc = events_log_open(run->ev, dir, err);
    if (rc == CATENA_OK && !(run->topology = topology_log_open(dir, run->m, err)))
        rc = err->code;
    if (rc == CATENA_OK) {
        const double start = clock_monotonic_s();
        rc = run_steps(run, o, err);
        r->wall_s = clock_monotonic_s() - start;
    }
    fill_result(run, r);
    if (rc == CATENA_OK && r->status == RUN_OK &&
        plausible_end(&run->start, run->lm, run->s, &run->warnings))
        rc = error_set(err, CATENA_EFAIL, "%s: out of memory", source_name(run->sc));
    if (rc == CATENA_OK)
        rc = writers_close(run, err);
    else
        writers_abort(run);
    if (rc == CATENA_OK)
        rc = write_reports(run, o, r, err);
    return rc;
}

/* Runs in the locked directory d: outputs, frames, summary.json, and the message for a run
 * that stopped early. The first error is the one reported. */
static int run_in_dir(struct run *run, struct run_dir *d, const struct run_options *o,
                      struct run_result *r, struct catena_error *err)
{
    struct catena_error later;
    int rc = run_outputs(run, o, r, err);
    int drawn = CATENA_OK;
    if (rc == CATENA_OK && r->status != RUN_INTERRUPTED)
        drawn = draw_frames(d, run->sc, o, r, &later);
    if (rc != CATENA_OK)
        r->status = RUN_FAILED; /* a file is missing: readers must not take the directory */
    if (outfile_error_lost(err))
        return rc; /* the directory is being removed: a summary now would keep it alive */
    const int summed =
        summary_write(&d->w, run->sc, r, &run->warnings, rc != CATENA_OK ? err->msg : NULL,
                      rc != CATENA_OK ? &later : err);
    if (rc != CATENA_OK || summed != CATENA_OK)
        return rc != CATENA_OK ? rc : summed;
    if (drawn != CATENA_OK) {
        *err = later;
        return drawn;
    }
    if ((rc = stopped_error(run, r, err)) != CATENA_OK)
        return rc;
    return checks_error(run, r, err);
}

int run_simulation(const struct scenario *sc, const struct run_options *o, struct run_result *r,
                   struct catena_error *err)
{
    const struct model *m = sc->model;
    *r = (struct run_result){.status = RUN_OK, .diverged_point = -1, .settled_step = -1};
    error_clear(err);
    if (sc->output.every < 1)
        return error_set(err, CATENA_EINPUT, "%s: output.every: must be at least 1 (got %ld)",
                         source_name(sc), sc->output.every);
    struct run run = {
        .sc = sc, .m = m, .diverged = -1, .settle = {.quiet_from = -1}, .settled_step = -1};
    /* Caught before anything is written, so a signal never leaves a temporary file behind,
     * and before the solver's set-up, which for a large body under solver.global takes
     * seconds: a signal then stops the run before its first step. */
    stop_catch(&run.stop);
    run.ev = events_create(m);
    run.lm = run.ev ? events_model(run.ev) : NULL;
    if (run.lm && solver_check(run.lm, err) != CATENA_OK) {
        events_destroy(run.ev);
        stop_restore(&run.stop);
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        return error_set(err, err->code, "%s: %s", source_name(sc), msg);
    }
    run.s = run.lm ? state_create(run.lm) : NULL;
    run.checks = run.s ? checks_create(sc) : NULL;
    if (!run.checks) {
        state_destroy(run.s);
        events_destroy(run.ev);
        stop_restore(&run.stop);
        return error_set(err, CATENA_EFAIL, "%s: out of memory", source_name(sc));
    }
    plausible_begin(&run.start, m, run.s);
    struct run_dir d;
    int rc = run_dir_open(&d, sc, o->out_dir, err);
    if (rc == CATENA_OK) {
        rc = run_in_dir(&run, &d, o, r, err);
        run_dir_close(&d);
    }
    stop_restore(&run.stop);
    checks_destroy(run.checks);
    if (o->warnings) { /* handed over, the caller's to print and clear */
        *o->warnings = run.warnings;
        run.warnings = (struct warnings){0};
    }
    warnings_clear(&run.warnings);
    state_destroy(run.s);
    events_destroy(run.ev);
    return rc;
}
