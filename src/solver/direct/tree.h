/* The direct projection's Newton step on components without loops, in O(N)
 * (solver/direct/tree.c); its trial steps are solver/direct/trial.h. A component is the tree
 * indices [k0, k1) of direct->order. */
#ifndef CATENA_DIRECT_TREE_H
#define CATENA_DIRECT_TREE_H

#include <stddef.h>

#include "model/model.h"

struct direct;

/* What a component's iterate is worth. */
struct direct_measure {
    double kkt;   /* |W g|^2 + |c|^2, m^2: the KKT residual Newton's method drives to 0 */
    double f;     /* |x - x*|^2_M / 2, kg m^2: the projection's objective */
    double c1;    /* |c|_1, m: the links' violation */
    double scale; /* the largest coordinate, m: what rounding in the residual is relative to */
};

/* Assembles and factors the component's Newton system at x, with its right-hand side.
 * scratch holds one block's dense work (direct->max_block). Returns the measures at x (in
 * the plane, f and c1 only on the substep's last iteration, direct->last: only its search
 * uses them). */
struct direct_measure direct_tree_eliminate(struct direct *d, const struct model *m, const vec3 *x,
                                            size_t k0, size_t k1, double ih2, double *scratch);

/* The Newton step (tdx, dlam) from the factors, taken in full (x only when move). *slope: the
 * objective's slope along it, sum m (x - x*).dx, where it started; *mu: the largest |l|
 * where it ends (N s^2); in the plane both only when move on the last iteration. */
void direct_tree_substitute(struct direct *d, vec3 *x, size_t k0, size_t k1, int move,
                            double *slope, double *mu);

#endif
