/* solver.global_matrix "fixed": the direct projection of a component with loops by ADMM with
 * one constant matrix (Overby, Brown, Li and Narain, "ADMM ⊇ Projective Dynamics", IEEE TVCG
 * 23, 2017). Each link l gets a split variable z_l for its vector x_b - x_a and a scaled dual
 * u_l; an iteration is
 *   local:  z_l = the point of the link's set (|z| = rest for a rigid link) or energy
 *           (|z| - rest)^2 / (2 a), a = compliance / h^2, nearest x_b - x_a + u_l, weighted w_l;
 *   global: (M + sum_l w_l (e_a - e_b)(e_a - e_b)^T) x = M x* + sum_l w_l D_l^T (z_l - u_l),
 *           one scalar matrix for x, y and z, three back-substitutions;
 *   dual:   u_l += x_b - x_a - z_l, and the multiplier lambda_l = -w_l u_l . z_l / |z_l|.
 * At its fixed point x_b - x_a = z_l and w_l u_l is the link's force, so x is the exact
 * closest point the Newton step (solver/direct/newton.c) converges to: the weights change how
 * fast, never where. The matrix depends only on the masses, the links, h and the weights'
 * scale, so it is factored once per topology (direct_graph_analyse clears it), substep length
 * and scale (residual balancing, below, changes it by 2 at most once a substep); an iteration
 * is local work over the links and the solves. */
#define _POSIX_C_SOURCE 200809L /* core/stop.h: struct sigaction */
#include "solver/direct/fixed.h"

#include <math.h>

#include "core/stop.h"
#include "solver/direct/internal.h"
#include "solver/direct/ldl.h"

/* A rigid link's weight, and the most a compliant one gets, relative to the mean mass of its
 * free ends, before residual balancing scales it: larger holds the links faster and moves the
 * body slower. */
#define RIGID_WEIGHT 10.0
/* Residual balancing (Boyd et al. 2011, section 3.4.1), once a substep after its last
 * iteration: when the primal residual max |x_b - x_a - z| is BAL_MU times the dual one (the
 * last change of z, times w over the ends' mass), the weights are multiplied by BAL_TAU (or
 * divided, the other way round), within [BAL_MIN, BAL_MAX], and the matrix factored again at
 * the next iteration. One weight for every body and time step held some bodies at a tenth of
 * Gauss-Seidel's stretch and left others far more stretched than it (docs/internals.md). */
#define BAL_MU 10.0
#define BAL_TAU 2.0
#define BAL_MIN 1e-3
#define BAL_MAX 1e4

static double free_mass(const struct model *m, const struct direct *d, uint32_t p)
{
    return direct_in_system(d, p) ? 1.0 / m->inv_mass[p] : 0.0;
}

/* The weights, the links' records and component c's matrix, factored. -1 when a signal
 * asked the run to stop. */
static int factor(struct direct *d, const struct model *m, size_t c, double h)
{
    const double ih2 = 1.0 / (h * h);
    for (uint32_t k = d->gcomp_pfirst[c]; k < d->gcomp_pfirst[c + 1]; k++)
        d->kacc[9 * (size_t)d->gpoint[k]] = 1.0 / m->inv_mass[d->gpoint[k]];
    for (uint32_t j = d->gcomp_lfirst[c]; j < d->gcomp_lfirst[c + 1]; j++) {
        const uint32_t l = d->graph_link[j];
        const struct link *lk = &m->links[l];
        const double ma = free_mass(m, d, lk->a), mb = free_mass(m, d, lk->b);
        const double cap =
            d->gcomp_state[c].fixed_scale * RIGID_WEIGHT * (ma + mb) / ((ma > 0.0) + (mb > 0.0));
        const double a = d->alpha[l] * ih2;
        const double w = a > 0.0 && 1.0 / a < cap ? 1.0 / a : cap;
        d->lw[l] = w;
        if (ma > 0.0)
            d->kacc[9 * (size_t)lk->a] += w;
        if (mb > 0.0)
            d->kacc[9 * (size_t)lk->b] += w;
        struct fixed_link *f = &d->flink[j];
        f->a = lk->a;
        f->b = lk->b;
        f->link = l;
        f->free = (unsigned char)((ma > 0.0) | (mb > 0.0) << 1);
        f->rest = lk->rest;
        f->w = w;
        f->aw = a * w; /* 0 for a rigid link: its z is held at rest length */
        f->wm = w * ((ma > 0.0) + (mb > 0.0)) / (ma + mb);
    }
    return direct_ldl_factor(d, m, c);
}

/* The duals the multipliers imply, along the links' directions at x. */
static void start_duals(struct direct *d, size_t c, const vec3 *x)
{
    for (uint32_t j = d->gcomp_lfirst[c]; j < d->gcomp_lfirst[c + 1]; j++) {
        struct fixed_link *f = &d->flink[j];
        const vec3 v = v3_sub(x[f->b], x[f->a]);
        const double len = v3_len(v);
        const vec3 n = len > 0.0 ? v3_scale(v, 1.0 / len) : v3(1, 0, 0);
        f->u = v3_scale(n, -d->lambda[f->link] / f->w);
    }
}

/* Where the last solve left point p (in: whether it is an unknown), before anything else
 * moved it: its values are still in rhs until the local step assembles the next. */
static inline vec3 solved(const struct direct *d, const vec3 *x, uint32_t p, int in)
{
    if (!in)
        return x[p];
    const double *r = d->rhs + DIRECT_FIXED_STRIDE(d->dims) * (size_t)d->uidx[p];
    return v3(r[0], r[1], d->dims == 3 ? r[2] : x[p].z);
}

/* The local step over c's links, their forces w (z - u) gathered by point into racc (a
 * pinned end's position moves to its free end's share), and the global step's right-hand
 * side rhs[dims u + i] = m x* + those forces. With dual, it first takes the last solve's dual
 * step on each link (fused: one pass over the links an iteration, not two). On the substep's
 * last iteration, returns the dual residual (the largest change of a link's z, times w over
 * its ends' mass), else 0. */
static double local_step(struct direct *d, const struct model *m, size_t c, const vec3 *x, int dual)
{
    double sd = 0.0;
    for (uint32_t k = d->gcomp_pfirst[c]; k < d->gcomp_pfirst[c + 1]; k++) {
        double *g = d->racc + 3 * (size_t)d->gpoint[k];
        g[0] = g[1] = g[2] = 0.0;
    }
    for (uint32_t j = d->gcomp_lfirst[c]; j < d->gcomp_lfirst[c + 1]; j++) {
        struct fixed_link *f = &d->flink[j];
        const vec3 xa = x[f->a], xb = x[f->b];
        if (dual) {
            const vec3 sa = solved(d, x, f->a, f->free & 1), sb = solved(d, x, f->b, f->free & 2);
            f->u = v3_add(f->u, v3_sub(v3_sub(sb, sa), f->z));
        }
        const vec3 v = v3_add(v3_sub(xb, xa), f->u);
        const double s0 = v3_len(v);
        const double s = (f->rest + f->aw * s0) / (1.0 + f->aw);
        const vec3 zold = f->z;
        f->z = s0 > 0.0 ? v3_scale(v, s / s0) : v3(s, 0, 0);
        if (d->last) {
            const double dz = v3_len(v3_sub(f->z, zold)) * f->wm;
            sd = dz > sd ? dz : sd;
        }
        const vec3 t = v3_scale(v3_sub(f->z, f->u), f->w);
        if (f->free & 2) {
            const vec3 fb = f->free & 1 ? t : v3_add(t, v3_scale(xa, f->w));
            double *g = d->racc + 3 * (size_t)f->b;
            g[0] += fb.x, g[1] += fb.y, g[2] += fb.z;
        }
        if (f->free & 1) {
            const vec3 fa = f->free & 2 ? t : v3_sub(t, v3_scale(xb, f->w));
            double *g = d->racc + 3 * (size_t)f->a;
            g[0] -= fa.x, g[1] -= fa.y, g[2] -= fa.z;
        }
    }
    const size_t dim = (size_t)d->dims, stride = DIRECT_FIXED_STRIDE(d->dims);
    for (uint32_t k = d->gcomp_pfirst[c]; k < d->gcomp_pfirst[c + 1]; k++) {
        const uint32_t p = d->gpoint[k];
        const double mass = 1.0 / m->inv_mass[p], *g = d->racc + 3 * (size_t)p;
        double *r = d->rhs + stride * d->uidx[p];
        for (size_t i = 0; i < dim; i++)
            r[i] = mass * v3_comp(d->xpred[p], (int)i) + g[i];
        if (stride > dim)
            r[dim] = 0.0;
    }
    return sd;
}

/* The dual step of the substep's last iteration: the multipliers it implies, and residual
 * balancing from the primal residual and sd, the dual one. */
static void last_dual_step(struct direct *d, size_t c, const vec3 *x, struct graph_comp *gc,
                           double sd)
{
    double r = 0.0;
    for (uint32_t j = d->gcomp_lfirst[c]; j < d->gcomp_lfirst[c + 1]; j++) {
        struct fixed_link *f = &d->flink[j];
        const vec3 res = v3_sub(v3_sub(x[f->b], x[f->a]), f->z);
        const double rl = v3_len(res);
        r = rl > r ? rl : r;
        f->u = v3_add(f->u, res);
        const double zl = v3_len(f->z);
        d->lambda[f->link] = zl > 0.0 ? -f->w * v3_dot(f->u, f->z) / zl : 0.0;
    }
    double by = 1.0;
    if (r > BAL_MU * sd && gc->fixed_scale < BAL_MAX)
        by = BAL_TAU;
    else if (sd > BAL_MU * r && gc->fixed_scale > BAL_MIN)
        by = 1.0 / BAL_TAU;
    if (by == 1.0)
        return;
    gc->fixed_scale *= by;
    gc->factored = 0;
    for (uint32_t j = d->gcomp_lfirst[c]; j < d->gcomp_lfirst[c + 1]; j++)
        d->flink[j].u = v3_scale(d->flink[j].u, 1.0 / by);
}

void direct_fixed_component(struct direct *d, const struct model *m, size_t c, vec3 *x, double h)
{
    struct graph_comp *gc = &d->gcomp_state[c];
    if (stop_requested())
        return;
    if (gc->fixed_scale == 0.0)
        gc->fixed_scale = 1.0;
    if (!gc->factored || gc->fixed_h != h) {
        gc->factored = factor(d, m, c, h) == 0;
        gc->fixed_h = h;
        if (!gc->factored)
            return; /* a signal: the run stops after this step */
    }
    if (gc->fresh)
        start_duals(d, c, x);
    const double sd = local_step(d, m, c, x, gc->dual_pending && !gc->fresh);
    gc->fresh = 0;
    gc->dual_pending = 0;
    direct_ldl_solve_many(d, c, d->rhs, d->dims);
    for (uint32_t k = d->gcomp_pfirst[c]; k < d->gcomp_pfirst[c + 1]; k++) {
        const uint32_t p = d->gpoint[k];
        const double *r = d->rhs + DIRECT_FIXED_STRIDE(d->dims) * (size_t)d->uidx[p];
        x[p] = v3(r[0], r[1], d->dims == 3 ? r[2] : x[p].z);
    }
    if (d->last)
        last_dual_step(d, c, x, gc, sd);
    else
        gc->dual_pending = 1; /* the next local step takes it */
}
