/* One Newton step of the direct projection on a component with loops, by sparse L D L^T of
 * the system solver/direct/graph.h analysed (solver/direct/newton.c). */
#ifndef CATENA_DIRECT_NEWTON_H
#define CATENA_DIRECT_NEWTON_H

#include <stddef.h>

#include "model/model.h"

struct direct;

/* Starts a substep: the factors kept from the last one are tried first. */
void direct_newton_begin(struct direct *d);

/* One Newton step on graph component c (after a cold start, first the multipliers' estimate
 * at the substep's start). Does nothing once a signal asked the run to stop. */
void direct_newton_component(struct direct *d, const struct model *m, size_t c, vec3 *x, double h,
                             int cold);

#endif
