/* The Newton steps of the direct projection, taken as far as they lower a merit function
 * (solver/direct/search.c). */
#ifndef CATENA_DIRECT_SEARCH_H
#define CATENA_DIRECT_SEARCH_H

#include <stddef.h>

#include "model/model.h"

struct direct;

/* One Newton iteration on tree component comp (move 0: only the multipliers, in full); moved:
 * something else moved its points since its last iteration. Skipped when the last one ended
 * within rounding of the solution. Returns the KKT residual where it started (m^2). */
double direct_search_tree(struct direct *d, const struct model *m, vec3 *x, size_t comp, double h,
                          int move, int moved, double *scratch);

#endif
