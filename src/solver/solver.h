/* One fixed step of the position-based solver: the only entry point that changes a state.
 * Stages (per substep): integrate or predict -> hold pins -> relax constraints -> max-length
 * pass -> velocities; then, once per step, breaks. Methods: Jakobsen's Verlet ("Advanced
 * Character Physics", 2001), PBD (Mueller et al. 2007), XPBD (Macklin et al. 2016). */
#ifndef CATENA_SOLVER_H
#define CATENA_SOLVER_H

#include "core/error.h"
#include "model/model.h"
#include "solver/cache.h"
#include "solver/state.h"

/* Advances s by one step of m->dt (m->substeps substeps). Allocates nothing. Afterwards
 * s->broke[0..s->nbroke) lists the links that broke in this step. */
void solver_step(const struct model *m, struct state *s);

/* The one entry point for every cache the solver keeps beside the state (solver/cache.h: the
 * batched kernel's gathered links, the max-length pass's paths, the direct projection's
 * bodies): to be called after changing, between steps, what `what` says (enum solver_change
 * bits: rest lengths, stiffness or inverse masses; a link's ends; which links live or which
 * points are free). Events do; breaks in solver_step do it themselves. Allocates nothing. */
void solver_topology_changed(const struct model *m, struct state *s, unsigned what);

/* Index of the first point whose position is non-finite or beyond SOLVER_ABSURD metres
 * (solver/state.h), or -1 when every position is usable. */
long solver_find_diverged(const struct state *s);

/* Under solver.global, whether one factorisation of each body with loops stays within
 * m->global_limit operations, estimated from the symbolic analysis before anything of the
 * factor's size is allocated (a dense body's factor can take gigabytes and minutes). CATENA_OK,
 * or CATENA_EINPUT with a message that names the costliest body and what it would take,
 * CATENA_EFAIL when out of memory. */
int solver_check(const struct model *m, struct catena_error *err);

/* Largest length/rest over live links (1 = exactly at rest; 0 when there are none). */
double solver_max_stretch(const struct model *m, const struct state *s);

#endif
