/* What the two Newton steps of the direct projection share (tree.c on trees, graph.c on
 * bodies with loops): the links' Jacobian rows and geometric stiffness, a point's block of
 * K and its residual, and taking the step. Both solve the same KKT system (see tree.c). */
#ifndef CATENA_DIRECT_NEWTON_H
#define CATENA_DIRECT_NEWTON_H

#include <stddef.h>
#include <stdint.h>

#include "solver/direct/internal.h"

/* The row of link l's Jacobian at point p: +n at its end b, -n at its end a. */
static inline vec3 direct_newton_jac(const struct direct *d, const struct model *m, uint32_t l,
                                     uint32_t p)
{
    return m->links[l].b == p ? d->n[l] : v3_scale(d->n[l], -1.0);
}

/* Geometric stiffness coefficient of link l: its tension over its length. A compressed link
 * would make K indefinite; leaving its term out only slows convergence, not the fixed point. */
static inline double direct_newton_geo(const struct direct *d, uint32_t l)
{
    return d->lambda[l] < 0.0 && d->len[l] > 0.0 ? -d->lambda[l] / d->len[l] : 0.0;
}

/* kacc[p] = m_p I + the geometric stiffness of p's links owned by `owner`, racc[p] = -g_p, the
 * KKT residual M (x - x*) - J^T l at p. */
void direct_newton_assemble(struct direct *d, const struct model *m, const vec3 *x, uint32_t p,
                            unsigned char owner);

/* Takes the Newton step in d->dx and d->dlam for the given points and the links of that
 * owner (move 0: only the multipliers). */
void direct_newton_apply(struct direct *d, vec3 *x, const uint32_t *points, size_t npoints,
                         unsigned char owner, int move);

#endif
