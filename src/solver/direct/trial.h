/* The trial steps of a tree component's line search (solver/direct/trial.c): the measures at
 * a fraction of the Newton step direct_tree_substitute took, and moving there. A component is
 * the tree indices [k0, k1) of direct->order. */
#ifndef CATENA_DIRECT_TRIAL_H
#define CATENA_DIRECT_TRIAL_H

#include <stddef.h>

#include "model/model.h"
#include "solver/direct/tree.h"

struct direct;

/* The measures at x + alpha dx, l + alpha dl (scale: 0). */
struct direct_measure direct_trial_measure(struct direct *d, const struct model *m, const vec3 *x,
                                           size_t k0, size_t k1, double alpha, double ih2);

/* x += alpha dx, l += alpha dl: a shorter step than the one taken (alpha - 1), or none (-1). */
void direct_trial_apply(struct direct *d, vec3 *x, size_t k0, size_t k1, double alpha);

#endif
