/* A run's physics checks (the scenario's "checks", scenario/check.h), judged while it steps:
 * after every state, step 0 included, from the metrics of that state (analysis/metrics.h:
 * the largest stretch, the largest speed of the free points, kinetic plus potential energy)
 * and the links the step broke; at the end, what only the final state can say. Nothing is
 * allocated while stepping.
 *
 * Glossary
 *   outcome  a check's result with what was measured, where, and a one-line message
 *   window   the steps a check looks at (scenario/check.h) */
#ifndef CATENA_RUN_CHECKS_H
#define CATENA_RUN_CHECKS_H

#include <stddef.h>

#include "model/model.h"
#include "scenario/scenario.h"
#include "solver/state.h"

enum check_result {
    CHECK_PASSED,
    CHECK_FAILED,
    CHECK_UNDECIDED, /* not judged: the run stopped (diverged, interrupted) before it could
                        be, or ended before the check's time (a run made shorter) */
};

/* How a run ended, as the checks see it. */
enum checks_end {
    CHECKS_END_COMPLETE, /* every step was taken */
    CHECKS_END_SETTLED,  /* it stopped early because it settled (time.until_settled): a check
                            due later is judged on the final state, which would not change */
    CHECKS_END_CUT,      /* it diverged or was interrupted: what was not seen is undecided */
};

struct check_outcome {
    const struct check *check; /* the scenario's; valid while the scenario is */
    enum check_result result;
    long step;         /* where value was measured: the first step that broke the limit (failed),
                          the worst one (passed), the one judged (inside, at the end); -1: none */
    double value;      /* the measured value at step: stretch, m/s, J of gain; inside: 0 in the
                          box, else the distance to it, m; no_break: the broken link's stretch */
    long largest_step; /* checks of a window (max_stretch, settled, energy): the step of ... */
    double largest;    /* ... the largest value the window saw; -1 and 0 for the others */
    char message[640]; /* one line saying what was found, numbers with units */
};

struct checks;

/* The checks of sc, ready for step 0; NULL when out of memory. A scenario without checks
 * gets one that judges nothing. */
struct checks *checks_create(const struct scenario *sc);

/* NULL is a no-op. */
void checks_destroy(struct checks *c);

/* After each state of the run (step 0 once its events are applied, then after every step
 * that did not diverge): m is the live model events leave, s the state. */
void checks_step(struct checks *c, const struct model *m, const struct state *s);

/* Judges what is left once the run has ended at state s, and returns the outcomes, one per
 * check in the scenario's order, in an array the caller frees (NULL when there are no
 * checks, or when out of memory: *n is 0 then). */
struct check_outcome *checks_finish(struct checks *c, const struct model *m, const struct state *s,
                                    enum checks_end end, size_t *n);

/* "passed", "failed", "undecided". */
const char *checks_result_name(enum check_result r);

#endif
