/* The Newton steps of the direct projection, taken as far as they lower a merit function
 * (solver/direct/search.c). */
#ifndef CATENA_DIRECT_SEARCH_H
#define CATENA_DIRECT_SEARCH_H

#include <stddef.h>

#include "model/model.h"

struct direct;

#define DIRECT_ARMIJO 1e-4  /* a merit must fall by this fraction of what the step promises */
#define DIRECT_BACKTRACKS 8 /* halvings of the step before taking the best one tried */
#define PENALTY 1.5         /* the exact penalty's mu over the largest multiplier (> 1: exact) */

/* Whether a trial step is good enough (solver/direct/search.c). */
struct direct_merit {
    int exact;    /* 1: the exact penalty f + mu |c|_1, 0: the KKT residual */
    double start; /* the merit where the step starts */
    double slope; /* its slope along the step (< 0) */
    double mu;    /* the penalty's weight, N s^2 */
    double floor; /* a KKT residual this small is the solution, m^2 */
};

/* One Newton iteration on tree component comp (move 0: only the multipliers, in full); moved:
 * something else moved its points since its last iteration. Skipped when the last one ended
 * within rounding of the solution. Returns the KKT residual where it started (m^2). */
double direct_search_tree(struct direct *d, const struct model *m, vec3 *x, size_t comp, double h,
                          int move, int moved, double *scratch);

#endif
