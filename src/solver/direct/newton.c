/* One Newton iteration of a component with loops (solver/direct/newton.h), the numeric side of
 * solver/direct/graph.c's system: each point's block and right-hand side assembled at the
 * iterate, H factored as L D L^T (solver/direct/ldl.c), solved, the multipliers' step taken
 * from the positions', and on the substep's last iteration only as far as
 * solver/direct/search.c's rule allows. Rigid links get a = 1e-7 (w_a + w_b) in this elimination
 * only, a penalty whose error the next iteration's residual corrects, so the fixed point is the
 * exact one; their multipliers' step is cleared of self-stress (redundant links). A factor is kept
 * across iterations and steps while the iteration still contracts, as a simplified Newton method:
 * the fixed point depends only on the residuals, never on the matrix; and renewed whenever the
 * contacts' rows (solver/direct/contact.c) change. */
#define _POSIX_C_SOURCE 200809L /* core/stop.h: struct sigaction */
#include "solver/direct/newton.h"

#include <math.h>
#include <string.h>

#include "core/stop.h"
#include "solver/direct/contact.h"
#include "solver/direct/graph.h"
#include "solver/direct/internal.h"
#include "solver/direct/ldl.h"
#include "solver/direct/search.h"
#include "solver/direct/tree.h"

/* Regularisation of rigid links, relative to w_a + w_b. It also sets which nearly redundant
 * links count as redundant: three nearly collinear links (a flat cloth's bend link and the two
 * structural links beside it) have a near self-stress whose J^T is ~ theta^2 of a link's, and
 * below a (theta ~ sqrt(RIGID_EPS)) drop_self_stress removes it; above, it is a real force of
 * c / theta^2. An xpbd 12 x 12 cloth of rigid shear and bend links falling on a sphere gained
 * energy at 1e-10 and 1e-9 (8.99 J to 25.1 J, 57.7 J), never at 1e-8 to 1e-6; a 20 x 20 one
 * still did at 1e-8 (24.8 J from 9.32 J) and 1e-7 (13.9 J), not at 1e-6. The fixed point is
 * the same; a larger a converges the links slower: that 12 x 12 cloth without the sphere ends
 * 10 iterations a step at strain 5.2e-8, 4.7e-7, 9.9e-7 for 1e-8, 1e-7, 1e-6. */
#define RIGID_EPS 1e-7
#define REFACTOR_RATIO 0.25 /* refactor when an iteration shrinks the residual less */

/* The penalty a link's multiplier is eliminated with: its compliance / h^2, or for a rigid
 * link RIGID_EPS (w_a + w_b) over its free ends. */
static double link_a(const struct direct *d, const struct model *m, uint32_t l, double ih2)
{
    const double a = d->alpha[l] * ih2;
    if (a > 0.0)
        return a;
    const struct link *lk = &m->links[l];
    return RIGID_EPS * (m->inv_mass[lk->a] + m->inv_mass[lk->b]);
}

/* Component c's links at x: direction, length, C + a l, tension stiffness and penalty; each
 * point's diagonal block of H in kacc and its right-hand side -g - J^T A^-1 c in rhs.
 * Returns the residual's size in metres, max(|W g|, |C + a l|). */
static double assemble(struct direct *d, const struct model *m, size_t c, const vec3 *x, double ih2,
                       int *contacts_changed)
{
    const int dim = d->dims;
    double size = 0.0;
    for (uint32_t k = d->gcomp_pfirst[c]; k < d->gcomp_pfirst[c + 1]; k++) {
        const uint32_t p = d->gpoint[k];
        const double mass = 1.0 / m->inv_mass[p];
        double *kb = d->kacc + 9 * (size_t)p, *g = d->racc + 3 * (size_t)p;
        memset(kb, 0, 9 * sizeof *kb);
        const vec3 e = v3_sub(x[p], d->xpred[p]);
        g[0] = mass * e.x;
        g[1] = mass * e.y;
        g[2] = mass * e.z;
        for (int i = 0; i < dim; i++)
            kb[4 * i] = mass;
    }
    for (uint32_t k = d->gcomp_pfirst[c]; k < d->gcomp_pfirst[c + 1]; k++) {
        const uint32_t p = d->gpoint[k];
        for (uint32_t s = d->adj_first[p]; s < d->adj_first[p + 1]; s++) {
            const uint32_t l = d->adj_link[s];
            const struct link *lk = &m->links[l];
            /* each link once: from its end a, or from b when a is pinned */
            if (d->owner[l] != OWNER_GRAPH || (lk->a != p && direct_in_system(d, lk->a)))
                continue;
            const vec3 v = v3_sub(x[lk->b], x[lk->a]);
            const double len = v3_len(v);
            d->n[l] = len > 0.0 ? v3_scale(v, 1.0 / len) : v3(1, 0, 0);
            d->len[l] = len;
            const double lam = d->lambda[l];
            d->lc[l] = len - lk->rest + d->alpha[l] * ih2 * lam;
            d->lgeo[l] = lam < 0.0 && len > 0.0 ? -lam / len : 0.0;
            d->la[l] = link_a(d, m, l, ih2);
            size = fmax(size, fabs(d->lc[l]));
            const double nn[3] = {d->n[l].x, d->n[l].y, d->n[l].z};
            const uint32_t ends[2] = {lk->a, lk->b};
            for (int e = 0; e < 2; e++) {
                const uint32_t q = ends[e];
                if (!direct_in_system(d, q))
                    continue;
                const double sgn = e ? 1.0 : -1.0; /* J at b is +n, at a -n */
                double *kb = d->kacc + 9 * (size_t)q, *g = d->racc + 3 * (size_t)q;
                for (int i = 0; i < dim; i++) {
                    g[i] -= sgn * nn[i] * lam;
                    for (int j = 0; j < dim; j++)
                        kb[i * 3 + j] +=
                            d->lgeo[l] * ((i == j) - nn[i] * nn[j]) + nn[i] * nn[j] / d->la[l];
                }
            }
        }
    }
    size = fmax(size, direct_contact_assemble(d, m, c, x, contacts_changed));
    for (uint32_t k = d->gcomp_pfirst[c]; k < d->gcomp_pfirst[c + 1]; k++) {
        const uint32_t p = d->gpoint[k];
        const double *g = d->racc + 3 * (size_t)p;
        for (int i = 0; i < dim; i++)
            size = fmax(size, fabs(g[i]) * m->inv_mass[p]);
    }
    return size;
}

/* The right-hand side -g - J_f^T A_f^-1 c, J_f and A_f those the factor was made with: the
 * positions' part of the KKT system with the factor's matrix, whose multipliers' part the
 * step then takes from the same J_f (a factor kept over iterations is a simplified Newton
 * method of the whole KKT system, never a mix of two). */
static void right_side(struct direct *d, const struct model *m, size_t c, const vec3 *x)
{
    const int dim = d->dims;
    for (uint32_t k = d->gcomp_pfirst[c]; k < d->gcomp_pfirst[c + 1]; k++) {
        const uint32_t p = d->gpoint[k];
        for (int i = 0; i < dim; i++)
            d->rhs[d->uidx[p] + (uint32_t)i] = -d->racc[3 * (size_t)p + (size_t)i];
    }
    FOR_GRAPH_LINKS(d, m, c, l, {
        const double s = d->lc[l] / d->laf[l];
        for (int i = 0; i < dim; i++) {
            const double f = v3_comp(d->nf[l], i) * s;
            if (direct_in_system(d, lk_->b))
                d->rhs[d->uidx[lk_->b] + (uint32_t)i] -= f;
            if (direct_in_system(d, lk_->a))
                d->rhs[d->uidx[lk_->a] + (uint32_t)i] += f;
        }
    })
    direct_contact_rhs(d, m, x, c);
}

/* The measures of component c at x + alpha dx, l + alpha dl (racc is their g's scratch). */
static struct direct_measure graph_measure(struct direct *d, const struct model *m, size_t c,
                                           const vec3 *x, double alpha, double ih2)
{
    struct direct_measure r = {0, 0, 0, 0};
    for (uint32_t k = d->gcomp_pfirst[c]; k < d->gcomp_pfirst[c + 1]; k++) {
        const uint32_t p = d->gpoint[k];
        const double mass = 1.0 / m->inv_mass[p];
        double *g = d->racc + 3 * (size_t)p;
        for (int i = 0; i < 3; i++) {
            const double e =
                v3_comp(x[p], i) + alpha * direct_step_of(d, p, i) - v3_comp(d->xpred[p], i);
            g[i] = mass * e;
            r.f += 0.5 * mass * e * e;
        }
    }
    FOR_GRAPH_LINKS(d, m, c, l, {
        vec3 xa = x[lk_->a], xb = x[lk_->b];
        xa = v3_add(xa, v3_scale(direct_step(d, lk_->a), alpha));
        xb = v3_add(xb, v3_scale(direct_step(d, lk_->b), alpha));
        const vec3 v = v3_sub(xb, xa);
        const double len = v3_len(v), lam = d->lambda[l] + alpha * d->dlam[l];
        const vec3 n = len > 0.0 ? v3_scale(v, 1.0 / len) : v3(1, 0, 0);
        const double cl = len - lk_->rest + d->alpha[l] * ih2 * lam;
        r.kkt += cl * cl;
        r.c1 += fabs(cl);
        for (int i = 0; i < 3; i++) {
            if (direct_in_system(d, lk_->b))
                d->racc[3 * (size_t)lk_->b + (size_t)i] -= v3_comp(n, i) * lam;
            if (direct_in_system(d, lk_->a))
                d->racc[3 * (size_t)lk_->a + (size_t)i] += v3_comp(n, i) * lam;
        }
    })
    direct_contact_measure(d, m, c, x, alpha, &r.kkt, &r.c1);
    for (uint32_t k = d->gcomp_pfirst[c]; k < d->gcomp_pfirst[c + 1]; k++) {
        const uint32_t p = d->gpoint[k];
        const double *g = d->racc + 3 * (size_t)p, w = m->inv_mass[p];
        r.kkt += (g[0] * g[0] + g[1] * g[1] + g[2] * g[2]) * w * w;
    }
    return r;
}

/* Rigid links in a loop can be redundant (a ragdoll's braced torso, a truss): J^T then has a
 * null space, the self-stresses, and dl = -(c + J dx) / a takes c's part outside J's range
 * over a, a self-stress that no residual drives back (up to 1e9 N s^2 on ragdoll-ground
 * with a = 1e-10 (w_a + w_b)). J^T of it vanishes only where it was made: once the links turn it is
 * a force of that size, the next iterations fight it, and the figure gained 172 % energy. So the
 * rigid links' step is replaced by the one with the same forces and no self-stress,
 * A^-1 J H^-1 J^T dl (H^-1 inverts J^T A^-1 J up to the masses and nearly redundant links), one
 * more solve; a converged step (dl = 0) stays 0, so the fixed point is the same. The points' step
 * waits in dx meanwhile. */
static void drop_self_stress(struct direct *d, const struct model *m, size_t c)
{
    int rigid = 0;
    FOR_GRAPH_LINKS(d, m, c, l, { rigid |= d->alpha[l] == 0.0; })
    if (!rigid)
        return;
    const int dim = d->dims;
    for (uint32_t k = d->gcomp_pfirst[c]; k < d->gcomp_pfirst[c + 1]; k++) {
        const uint32_t p = d->gpoint[k];
        d->dx[p] = direct_step(d, p);
        for (int i = 0; i < dim; i++)
            d->rhs[d->uidx[p] + (uint32_t)i] = 0.0;
    }
    FOR_GRAPH_LINKS(d, m, c, l, {
        for (int i = 0; i < dim && d->alpha[l] == 0.0; i++) {
            const double f = v3_comp(d->nf[l], i) * d->dlam[l];
            if (direct_in_system(d, lk_->b))
                d->rhs[d->uidx[lk_->b] + (uint32_t)i] += f;
            if (direct_in_system(d, lk_->a))
                d->rhs[d->uidx[lk_->a] + (uint32_t)i] -= f;
        }
    })
    direct_ldl_solve(d, c, d->rhs);
    FOR_GRAPH_LINKS(d, m, c, l, {
        if (d->alpha[l] != 0.0)
            continue;
        double jy = 0.0;
        for (int i = 0; i < dim; i++)
            jy += v3_comp(d->nf[l], i) *
                  (direct_step_of(d, lk_->b, i) - direct_step_of(d, lk_->a, i));
        d->dlam[l] = jy / d->laf[l];
    })
    for (uint32_t k = d->gcomp_pfirst[c]; k < d->gcomp_pfirst[c + 1]; k++) {
        const uint32_t p = d->gpoint[k];
        for (int i = 0; i < dim; i++)
            d->rhs[d->uidx[p] + (uint32_t)i] = v3_comp(d->dx[p], i);
    }
}

/* How far to take component c's step (solver/direct/search.c's rule). */
static double graph_search(struct direct *d, const struct model *m, size_t c, const vec3 *x,
                           double ih2, const struct direct_merit *mt)
{
    double alpha = 1.0, best = 1.0, best_value = INFINITY;
    for (int t = 0; t <= DIRECT_BACKTRACKS; t++, alpha *= 0.5) {
        const struct direct_measure r = graph_measure(d, m, c, x, alpha, ih2);
        const double v = mt->exact ? r.f + mt->mu * r.c1 : r.kkt;
        if (v <= mt->start + DIRECT_ARMIJO * alpha * mt->slope)
            return alpha;
        if (v < best_value) {
            best_value = v;
            best = alpha;
        }
    }
    return best;
}

/* One Newton step on graph component c. */
static void iterate_component(struct direct *d, const struct model *m, size_t c, vec3 *x,
                              double ih2, int move)
{
    struct graph_comp *gc = &d->gcomp_state[c];
    int contacts_changed = 0;
    const double size = assemble(d, m, c, x, ih2, &contacts_changed);
    if (size <= gc->converged && !contacts_changed)
        return; /* at round-off already: a step would only stir it */
    /* A factor that no longer contracts is renewed, unless what the Gauss-Seidel pass moved
     * since the last iteration accounts for the residual: no factor would help then. A
     * substep's only iteration has no later one to see whether a kept factor contracts, so
     * it renews it (kept over steps at one iteration a step, the cloths diverged). */
    const int only = d->last && gc->last_residual == INFINITY;
    if (!gc->factored || only || contacts_changed ||
        (size > gc->refactor_floor && size > REFACTOR_RATIO * gc->last_residual &&
         d->gs_moved < size)) {
        FOR_GRAPH_LINKS(d, m, c, l, {
            d->nf[l] = d->n[l];
            d->laf[l] = d->la[l];
        })
        direct_contact_factored(d, c);
        gc->factored = direct_ldl_factor(d, m, c) == 0;
        if (!gc->factored)
            return; /* a signal: the run stops after this step */
    }
    gc->last_residual = size;
    right_side(d, m, c, x);
    direct_ldl_solve(d, c, d->rhs);
    const int dim = d->dims;
    /* dl = -(c + J_f dx) / a_f, link by link, from the points' steps */
    double fslope = 0.0, mu = 0.0;
    FOR_GRAPH_LINKS(d, m, c, l, {
        double jdx = 0.0;
        for (int i = 0; i < dim; i++)
            jdx += v3_comp(d->nf[l], i) *
                   (direct_step_of(d, lk_->b, i) - direct_step_of(d, lk_->a, i));
        d->dlam[l] = -(d->lc[l] + jdx) / d->laf[l];
    })
    drop_self_stress(d, m, c);
    FOR_GRAPH_LINKS(d, m, c, l, { mu = fmax(mu, fabs(d->lambda[l] + d->dlam[l])); })
    direct_contact_step(d, m, x, c);
    double alpha = 1.0;
    if (move && d->last) {
        const struct direct_measure r0 = graph_measure(d, m, c, x, 0.0, ih2);
        for (uint32_t k = d->gcomp_pfirst[c]; k < d->gcomp_pfirst[c + 1]; k++) {
            const uint32_t p = d->gpoint[k];
            for (int i = 0; i < dim; i++)
                fslope += (v3_comp(x[p], i) - v3_comp(d->xpred[p], i)) * direct_step_of(d, p, i) /
                          m->inv_mass[p];
        }
        struct direct_merit mt = {d->last, r0.kkt, -2.0 * r0.kkt, PENALTY * mu, 0.0};
        if (mt.exact) {
            mt.start = r0.f + mt.mu * r0.c1;
            mt.slope = fslope - mt.mu * r0.c1;
        }
        alpha = graph_search(d, m, c, x, ih2, &mt);
    }
    for (uint32_t k = d->gcomp_pfirst[c]; k < d->gcomp_pfirst[c + 1] && move; k++) {
        const uint32_t p = d->gpoint[k];
        x[p] = v3_add(x[p], v3_scale(direct_step(d, p), alpha));
    }
    FOR_GRAPH_LINKS(d, m, c, l, { d->lambda[l] += alpha * d->dlam[l]; })
    direct_contact_update(d, c, alpha);
}

void direct_newton_component(struct direct *d, const struct model *m, size_t c, vec3 *x, double h,
                             int cold)
{
    const double ih2 = 1.0 / (h * h);
    if (cold && !stop_requested())
        iterate_component(d, m, c, d->xstart, ih2, 0);
    if (!stop_requested())
        iterate_component(d, m, c, x, ih2, 1); /* a signal: the run stops after this step */
}

void direct_newton_begin(struct direct *d)
{
    for (size_t c = 0; c < d->ngcomp; c++)
        d->gcomp_state[c].last_residual = INFINITY; /* a factor kept from the last substep is
                                                       tried first */
}
