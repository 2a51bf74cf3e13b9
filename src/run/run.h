/* A whole run: state, stepping loop, recording, progress line, divergence check and
 * summary.json. Used by `catena run` and by the tests. */
#ifndef CATENA_RUN_H
#define CATENA_RUN_H

#include "core/error.h"
#include "run/events.h"
#include "analysis/metrics.h"
#include "model/model.h"
#include "scenario/scenario.h"

enum run_status {
    RUN_OK,
    RUN_DIVERGED,
    RUN_INTERRUPTED,
};

struct run_options {
    const char *out_dir; /* created if missing */
    int progress;        /* 1: a one-line progress display on stderr */
    int plot;            /* 1: reports also draw their PNG (catenary.png) */
};

struct run_result {
    enum run_status status;
    long steps_done;     /* steps taken; when diverged, the step whose result was not
                            finite (0: the initial state was not) */
    double wall_s;       /* wall-clock seconds of the stepping loop */
    double max_stretch;  /* final largest length/rest over live links */
    size_t live_links;   /* links not broken at the end */
    long diverged_point; /* -1 unless status is RUN_DIVERGED */
    int signal;          /* the signal that stopped it when RUN_INTERRUPTED, else 0 */

    /* time.until_settled: first step of the quiet spell that ended the run, or -1 */
    long settled_step;
    long events[LOG_KINDS]; /* rows of events.csv by kind */
    struct metrics final;   /* metrics of the last state (analysis/metrics.h) */
};

/* Runs the scenario into o->out_dir, writing what its output asks for. Returns CATENA_OK,
 * CATENA_EFAIL (diverged, or an output could not be written; err says which) or
 * CATENA_EINPUT. r is filled in every case. */
int run_simulation(const struct scenario *sc, const struct run_options *o, struct run_result *r,
                   struct catena_error *err);

/* "ok", "diverged", "interrupted". */
const char *run_status_name(enum run_status status);

#endif
