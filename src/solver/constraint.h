/* What every constraint family shares: one scalar solve for the three methods. A constraint
 * C(x) = 0 with gradients grad_i C moves each point by w_i grad_i C dlambda, where
 *   pbd, verlet (Mueller et al. 2007):  dlambda = -k C / sum_i w_i |grad_i C|^2
 *   xpbd (Macklin et al. 2016):         dlambda = (-C - at lambda) / (sum_i w_i |grad_i C|^2 + at),
 *                                        at = alpha / h^2, lambda += dlambda,
 * so the families differ only in C and its gradients. */
#ifndef CATENA_CONSTRAINT_H
#define CATENA_CONSTRAINT_H

#include "model/model.h"

/* Fixed for one substep. */
struct constraint_ctx {
    enum solver_method method;
    double inv_h2; /* 1 / h^2 of the substep, s^-2 */
    /* [npoints] the inverse masses the families project with: m->inv_mass, or in the
     * contact phase (solver.shock_iterations) a copy with the contact points at 0 */
    const double *w;
};

static inline struct constraint_ctx constraint_ctx_make(const struct model *m)
{
    const double h = m->dt / m->substeps;
    return (struct constraint_ctx){.method = m->method, .inv_h2 = 1.0 / (h * h), .w = m->inv_mass};
}

/* dlambda / scale for a constraint whose caller holds unnormalised gradients g_i = scale
 * grad_i C (a distance constraint keeps d = x_b - x_a and scale = |d|): point i then moves
 * by w_i g_i times the result. wgrad2 = sum_i w_i |grad_i C|^2 > 0. With stiffness the
 * result is -(k C) / (wgrad2 scale), rounded exactly as the Verlet solver always has;
 * with compliance, lambda accumulates the multiplier of this substep. */
static inline double constraint_step(const struct constraint_ctx *cx, double c, double wgrad2,
                                     double scale, double stiffness, double compliance,
                                     double *lambda)
{
    if (cx->method != METHOD_XPBD)
        return -(stiffness * c) / (wgrad2 * scale);
    const double at = compliance * cx->inv_h2;
    const double dl = (-c - at * *lambda) / (wgrad2 + at);
    *lambda += dl;
    return dl / scale;
}

#endif
