/* How a run ended: its status, steps, final metrics, event counts and the outcome of its
 * checks (run_simulation fills it; summary.json reports it). */
#ifndef CATENA_RUN_RESULT_H
#define CATENA_RUN_RESULT_H

#include <stddef.h>

#include "analysis/metrics.h"
#include "run/checks.h"
#include "run/events.h"

enum run_status {
    RUN_OK,
    RUN_DIVERGED,
    RUN_INTERRUPTED,
    RUN_FAILED, /* an output could not be written */
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

    /* The scenario's checks (run/checks.h), in its order; owned (run_result_free) */
    struct check_outcome *checks;
    size_t nchecks;
    size_t checks_failed; /* how many of them failed */
};

/* "ok", "diverged", "interrupted", "failed". */
const char *run_status_name(enum run_status status);

/* Frees what r owns (the check outcomes); r stays readable otherwise. */
void run_result_free(struct run_result *r);

#endif
