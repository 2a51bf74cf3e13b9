/* Plausibility: a run can end finite and "ok" and still be plainly wrong, and then says so
 * as warnings (core/warnings.h), without changing its exit status:
 *   max-stretch   a rigid link (compliance 0 under xpbd, stiffness 1 otherwise) ends more
 *                 than PLAUSIBLE_MAX_STRETCH times its rest length: the iterations did not
 *                 converge (a cloth stretched 81 %), and the picture lies;
 *   energy-grew   kinetic plus potential energy ends higher than it started by more than
 *                 PLAUSIBLE_ENERGY_GROWTH of the energy at stake (the kinetic energy at the
 *                 start plus the weight times the height the points span), in a run where
 *                 nothing adds energy: no events, no moving pins, no wind, no inflating
 *                 pressure, and every link, weld and angle limit satisfied at the start (a
 *                 start away from them gives energy when the solver first projects it, which
 *                 is the set-up's doing, not the solver's).
 * The thresholds are for runs that are wrong beyond doubt: a well-converged chain ends 0.1 %
 * long, a damped run loses energy, and an undamped Verlet run keeps it within a fraction of
 * a percent; the shipped scenarios raise none. */
#ifndef CATENA_PLAUSIBLE_H
#define CATENA_PLAUSIBLE_H

#include "core/warnings.h"
#include "model/model.h"
#include "solver/state.h"

/* A rigid link ending longer than this times its rest length is warned about. */
#define PLAUSIBLE_MAX_STRETCH 1.25

/* Energy growth beyond this fraction of the energy at stake is warned about. */
#define PLAUSIBLE_ENERGY_GROWTH 0.1

/* Links within this fraction of their rest length (welds within it of the mean rest length,
 * angles within this many radians of their limits) count as satisfied at the start. */
#define PLAUSIBLE_REST_TOLERANCE 0.01

/* What the start of a run says about its end. */
struct plausible {
    int closed;     /* 1: nothing adds energy and the links start at rest */
    double energy;  /* kinetic + potential at the start, J */
    double kinetic; /* J */
    double lo, hi;  /* the free points' heights (along -gravity) at the start, m */
};

/* Notes what the start of a run of m (the scenario's model) in state s says. */
void plausible_begin(struct plausible *p, const struct model *m, const struct state *s);

/* Adds the warnings that the end of the run (lm: the run's model as events left it; s: the
 * final state) calls for. 0, or -1 when out of memory. */
int plausible_end(const struct plausible *p, const struct model *lm, const struct state *s,
                  struct warnings *w);

#endif
