/* Fast projection (Goldenthal et al. 2007, "Efficient simulation of inextensible cloth") for
 * components with loops: one step solves (J W J^T + a) dl = -C - a l over all their links at
 * once and moves x += W J^T dl (a = compliance/h^2, XPBD). The system is solved by conjugate
 * gradients, matrix-free (J W J^T p costs two passes over the links), with the diagonal
 * w_a + w_b + a as a Jacobi preconditioner. The products touch links and points in a fixed
 * order, so results are bit for bit reproducible. */
#include <math.h>

#include "direct_internal.h"

/* Relative residual at which one step's linear solve stops, and a cap on its iterations:
 * an inexact Newton step with residual eta shrinks the constraint error by about eta, so
 * 1e-3 is plenty for the 10 outer iterations a step runs. */
#define CG_TOLERANCE 1e-3
#define CG_MAX_ITERATIONS 2000

/* u = W J^T v over the graph links' points. */
static void spread(struct direct *d, const struct model *m, const double *v)
{
    for (size_t k = 0; k < d->ngraph; k++) {
        const struct link *l = &m->links[d->graph_link[k]];
        d->cg_u[l->a] = d->cg_u[l->b] = v3(0, 0, 0);
    }
    for (size_t k = 0; k < d->ngraph; k++) {
        const uint32_t i = d->graph_link[k];
        const struct link *l = &m->links[i];
        const vec3 f = v3_scale(d->n[i], v[k]);
        d->cg_u[l->a] = v3_sub(d->cg_u[l->a], v3_scale(f, m->inv_mass[l->a]));
        d->cg_u[l->b] = v3_add(d->cg_u[l->b], v3_scale(f, m->inv_mass[l->b]));
    }
}

/* out = (J W J^T + a) v. */
static void apply(struct direct *d, const struct model *m, const double *v, double *out,
                  double ih2)
{
    spread(d, m, v);
    for (size_t k = 0; k < d->ngraph; k++) {
        const uint32_t i = d->graph_link[k];
        const struct link *l = &m->links[i];
        out[k] = v3_dot(d->n[i], v3_sub(d->cg_u[l->b], d->cg_u[l->a])) + d->alpha[i] * ih2 * v[k];
    }
}

static double dot(const double *a, const double *b, size_t n)
{
    double s = 0.0;
    for (size_t k = 0; k < n; k++)
        s += a[k] * b[k];
    return s;
}

static double diagonal(const struct direct *d, const struct model *m, size_t k, double ih2)
{
    const uint32_t i = d->graph_link[k];
    const struct link *l = &m->links[i];
    return m->inv_mass[l->a] + m->inv_mass[l->b] + d->alpha[i] * ih2;
}

/* Preconditioned conjugate gradients from dl = 0 on the right-hand side already in cg_r. */
static void solve(struct direct *d, const struct model *m, double ih2)
{
    const size_t n = d->ngraph;
    double *r = d->cg_r, *z = d->cg_z, *p = d->cg_p, *q = d->cg_q, *x = d->cg_dl;
    const double stop = CG_TOLERANCE * CG_TOLERANCE * dot(r, r, n);
    for (size_t k = 0; k < n; k++) {
        x[k] = 0.0;
        p[k] = z[k] = r[k] / diagonal(d, m, k, ih2);
    }
    double rz = dot(r, z, n);
    for (int it = 0; it < CG_MAX_ITERATIONS && dot(r, r, n) > stop && rz > 0.0; it++) {
        apply(d, m, p, q, ih2);
        const double pq = dot(p, q, n);
        if (!(pq > 0.0))
            break; /* a singular direction (redundant links): stop with what converged */
        const double step = rz / pq;
        for (size_t k = 0; k < n; k++) {
            x[k] += step * p[k];
            r[k] -= step * q[k];
            z[k] = r[k] / diagonal(d, m, k, ih2);
        }
        const double rz_next = dot(r, z, n);
        const double beta = rz_next / rz;
        rz = rz_next;
        for (size_t k = 0; k < n; k++)
            p[k] = z[k] + beta * p[k];
        d->stats.cg_iterations++;
    }
}

void direct_cg_iterate(struct direct *d, const struct model *m, vec3 *x, double h)
{
    if (d->ngraph == 0)
        return;
    const double ih2 = 1.0 / (h * h);
    for (size_t k = 0; k < d->ngraph; k++) {
        const uint32_t i = d->graph_link[k];
        d->cg_r[k] = -(d->len[i] - m->links[i].rest) - d->alpha[i] * ih2 * d->lambda[i];
    }
    solve(d, m, ih2);
    spread(d, m, d->cg_dl);
    for (size_t k = 0; k < d->ngraph; k++) {
        const uint32_t i = d->graph_link[k];
        d->lambda[i] += d->cg_dl[k];
        const struct link *l = &m->links[i];
        /* Each point once: what was added is zeroed so a second link at it adds nothing.
         * Pinned points are not written at all, so they hold bit for bit. */
        if (m->inv_mass[l->a] > 0.0)
            x[l->a] = v3_add(x[l->a], d->cg_u[l->a]);
        if (m->inv_mass[l->b] > 0.0)
            x[l->b] = v3_add(x[l->b], d->cg_u[l->b]);
        d->cg_u[l->a] = d->cg_u[l->b] = v3(0, 0, 0);
    }
}
