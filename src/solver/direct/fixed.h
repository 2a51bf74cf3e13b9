/* The fixed-matrix iteration of the direct projection on a component with loops
 * (solver.global_matrix "fixed", solver/direct/fixed.c). */
#ifndef CATENA_DIRECT_FIXED_H
#define CATENA_DIRECT_FIXED_H

#include <stddef.h>

#include "model/model.h"

struct direct;

/* One iteration on graph component c, moving x (h: the substep, s). The first of a substep
 * starts from the multipliers the last one left. Does nothing once a signal asked the run to
 * stop. */
void direct_fixed_component(struct direct *d, const struct model *m, size_t c, vec3 *x, double h);

#endif
