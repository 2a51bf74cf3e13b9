/* How far each Newton step of the direct projection goes (solver/direct/search.h). Two
 * merit functions, as in SQP methods (Nocedal and Wright 2006, ch. 15, 18): before the last
 * iteration of a substep, the KKT residual |W g|^2 + |c|^2, which Newton's method drives to
 * zero and whose slope along the step is -2 x itself, so that backtracking keeps the
 * iteration converging; on the last one, whose positions become velocities, the projection's
 * own exact penalty f + mu |c|_1 (f = |x - x*|^2_M / 2, mu above every multiplier), so that a
 * step is kept only as far as it brings the links closer without moving the points further
 * from their prediction than the links' forces can account for. A step that lands within
 * rounding of the solution is always kept. */
#include "solver/direct/search.h"

#include <math.h>

#include "solver/direct/internal.h"
#include "solver/direct/tree.h"
#include "solver/direct/trial.h"

#define ROUNDOFF 4e-15 /* relative rounding of a residual computed from positions */

static double merit_value(const struct direct_merit *mt, const struct direct_measure *r)
{
    return mt->exact ? r->f + mt->mu * r->c1 : r->kkt;
}

/* The step's length and the measures where it lands; x is where a full step (taken) landed. */
static double backtrack(struct direct *d, const struct model *m, const vec3 *x, size_t k0,
                        size_t k1, double ih2, const struct direct_merit *mt,
                        struct direct_measure *at)
{
    double alpha = 1.0, best = 1.0, best_value = INFINITY;
    for (int t = 0; t <= DIRECT_BACKTRACKS; t++, alpha *= 0.5) {
        const struct direct_measure r = direct_trial_measure(d, m, x, k0, k1, alpha - 1.0, ih2);
        const double v = merit_value(mt, &r);
        if (v <= mt->start + DIRECT_ARMIJO * alpha * mt->slope || r.kkt <= mt->floor) {
            *at = r;
            return alpha;
        }
        if (v < best_value || t == 0) {
            best_value = v;
            best = alpha;
            *at = r;
        }
    }
    return best;
}

/* Settles the step the last iteration took and left unchecked, now that r (at where it
 * landed) is known: kept when the KKT residual fell enough, else shortened. Returns 1 when
 * x changed (r is then stale). */
static int settle(struct direct *d, const struct model *m, vec3 *x, size_t comp, double ih2,
                  const struct direct_measure *r)
{
    const size_t k0 = d->tcomp_first[comp], k1 = d->tcomp_first[comp + 1];
    const struct direct_merit mt = {0, d->tcomp_kkt0[comp], -2.0 * d->tcomp_kkt0[comp], 0.0,
                                    d->tcomp_floor[comp]};
    d->tcomp_pending[comp] = 0;
    if (r->kkt <= mt.start + DIRECT_ARMIJO * mt.slope || r->kkt <= mt.floor)
        return 0;
    struct direct_measure at;
    const double alpha = backtrack(d, m, x, k0, k1, ih2, &mt, &at);
    direct_trial_apply(d, x, k0, k1, alpha - 1.0);
    return 1;
}

double direct_search_tree(struct direct *d, const struct model *m, vec3 *x, size_t comp, double h,
                          int move, int moved, double *scratch)
{
    const double ih2 = 1.0 / (h * h);
    const size_t k0 = d->tcomp_first[comp], k1 = d->tcomp_first[comp + 1];
    if (moved) {
        d->tcomp_pending[comp] = 0; /* others moved its points too: the step cannot be judged */
        d->tcomp_kkt[comp] = INFINITY;
    }
    if (move && !d->tcomp_pending[comp] && d->tcomp_kkt[comp] <= d->tcomp_floor[comp])
        return d->tcomp_kkt[comp]; /* the last step ended at the solution, and nothing moved */
    struct direct_measure r0 = direct_tree_eliminate(d, m, x, k0, k1, ih2, scratch);
    if (move && d->tcomp_pending[comp] && settle(d, m, x, comp, ih2, &r0))
        r0 = direct_tree_eliminate(d, m, x, k0, k1, ih2, scratch);
    /* Round-off in positions of this size: a residual below it needs no step. */
    const double floor = (double)(2 * (k1 - k0)) * (ROUNDOFF * r0.scale) * (ROUNDOFF * r0.scale);
    d->tcomp_floor[comp] = floor;
    d->tcomp_kkt[comp] = r0.kkt;
    if (r0.kkt <= floor)
        return r0.kkt;
    double slope = 0.0, mu = 0.0;
    direct_tree_substitute(d, x, k0, k1, move, &slope, &mu);
    d->tcomp_kkt[comp] = INFINITY; /* unknown until measured */
    if (!move) {
        return r0.kkt;
    } else if (!d->last) {
        d->tcomp_pending[comp] = 1; /* the next iteration's elimination will judge it */
        d->tcomp_kkt0[comp] = r0.kkt;
        return r0.kkt;
    }
    const struct direct_merit mt = {1, r0.f + PENALTY * mu * r0.c1, slope - PENALTY * mu * r0.c1,
                                    PENALTY * mu, floor};
    struct direct_measure at;
    const double alpha = backtrack(d, m, x, k0, k1, ih2, &mt, &at);
    if (alpha != 1.0)
        direct_trial_apply(d, x, k0, k1, alpha - 1.0);
    d->tcomp_kkt[comp] = at.kkt;
    return r0.kkt;
}
