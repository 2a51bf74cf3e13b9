/* Newton's method on the mass-weighted projection onto the links of a tree, in O(N).
 * The projection minimises |x - x*|^2_M / 2 subject to C(x) + a l = 0 (a = compliance/h^2);
 * its KKT residuals are g = M (x - x*) - J^T l and c = C(x) + a l, and one Newton step solves
 *     [ K  -J^T ] [dx]   [-g]
 *     [-J   -a  ] [dl] = [ c ],   K = M + sum_i max(-l_i, 0) (I - n_i n_i^T) / len_i,
 * the second term being the geometric stiffness of the tensions (Tournier et al. 2015), which
 * the plain XPBD step leaves out. With it the iteration converges quadratically even when
 * links turn by more than their length per substep, and its fixed point is the exact closest
 * point: at rest, M g h^2 = -J^T l, the static equilibrium, whatever dt and link order.
 * When the links form a tree the system's graph is one too once each point is grouped with
 * the link to its parent (and its links to pinned points): Baraff's (1996) elimination from
 * the leaves to the root then factors it without fill, each step a small dense solve. */
#include "solver/direct/tree.h"

#include <math.h>
#include <string.h>

#include "solver/direct/internal.h"
#include "solver/direct/newton.h"

/* Solves a x = b for nrhs right-hand sides in place (a: n x n, b: n x nrhs, row-major) by
 * Gaussian elimination with partial pivoting. The multiplier rows of rigid links have a
 * zero diagonal, so pivoting is needed; a pivot below 1e-13 of the block's scale (redundant
 * links at one point, e.g. three pins in 2D) is raised to it, which damps the redundant
 * direction like a Levenberg-Marquardt term instead of dividing by zero. */
static void dense_solve(double *a, int n, double *b, int nrhs)
{
    double scale = 0.0;
    for (int i = 0; i < n * n; i++)
        if (fabs(a[i]) > scale)
            scale = fabs(a[i]);
    const double tiny = 1e-13 * (scale > 0.0 ? scale : 1.0);
    for (int k = 0; k < n; k++) {
        int piv = k;
        for (int i = k + 1; i < n; i++)
            if (fabs(a[i * n + k]) > fabs(a[piv * n + k]))
                piv = i;
        if (piv != k) {
            for (int j = 0; j < n; j++) {
                const double t = a[k * n + j];
                a[k * n + j] = a[piv * n + j];
                a[piv * n + j] = t;
            }
            for (int j = 0; j < nrhs; j++) {
                const double t = b[k * nrhs + j];
                b[k * nrhs + j] = b[piv * nrhs + j];
                b[piv * nrhs + j] = t;
            }
        }
        if (fabs(a[k * n + k]) < tiny)
            a[k * n + k] = a[k * n + k] < 0.0 ? -tiny : tiny;
        for (int i = k + 1; i < n; i++) {
            const double f = a[i * n + k] / a[k * n + k];
            if (f == 0.0)
                continue;
            for (int j = k; j < n; j++)
                a[i * n + j] -= f * a[k * n + j];
            for (int j = 0; j < nrhs; j++)
                b[i * nrhs + j] -= f * b[k * nrhs + j];
        }
    }
    for (int k = n; k-- > 0;)
        for (int j = 0; j < nrhs; j++) {
            double v = b[k * nrhs + j];
            for (int i = k + 1; i < n; i++)
                v -= a[k * n + i] * b[i * nrhs + j];
            b[k * nrhs + j] = v / a[k * n + k];
        }
}

static void to_array(vec3 v, double out[3])
{
    out[0] = v.x;
    out[1] = v.y;
    out[2] = v.z;
}

/* Link of column j >= dims of point p's block: its parent link first, then its pin links. */
static uint32_t block_link(const struct direct *d, uint32_t p, int j)
{
    const int has_parent = d->parent_link[p] >= 0;
    if (has_parent && j == d->dims)
        return (uint32_t)d->parent_link[p];
    return d->pin_link[d->adj_first[p] + (uint32_t)(j - d->dims - has_parent)];
}

/* Factors point p's block D_p (its Schur complement over its subtree already in kacc[p])
 * against [B_p | r_p], B_p coupling it to its parent q, stores Y = D^-1 B and z = D^-1 r, and
 * passes the Schur complement -B^T Y, -B^T z on to q. */
static void eliminate(struct direct *d, const struct model *m, uint32_t p, double ih2)
{
    const int dim = d->dims, has_parent = d->parent_link[p] >= 0;
    const int nb = dim + has_parent + (int)d->npins[p], nrhs = has_parent ? dim + 1 : 1;
    double *a = d->scratch, *b = d->scratch + nb * nb;
    const double *k = d->kacc + 9 * (size_t)p;
    memset(a, 0, (size_t)(nb * nb) * sizeof *a);
    memset(b, 0, (size_t)(nb * nrhs) * sizeof *b);
    for (int i = 0; i < dim; i++) {
        for (int j = 0; j < dim; j++)
            a[i * nb + j] = k[i * 3 + j];
        b[i * nrhs + nrhs - 1] = d->racc[3 * (size_t)p + (size_t)i];
    }
    for (int j = dim; j < nb; j++) {
        const uint32_t l = block_link(d, p, j);
        double jp[3];
        to_array(direct_newton_jac(d, m, l, p), jp);
        const double al = d->alpha[l] * ih2;
        for (int i = 0; i < dim; i++)
            a[i * nb + j] = a[j * nb + i] = -jp[i];
        a[j * nb + j] = -al;
        b[j * nrhs + nrhs - 1] = d->len[l] - m->links[l].rest + al * d->lambda[l];
    }
    /* B_p: -G of the parent link on the point rows, -J at the parent on its multiplier row. */
    if (!has_parent) {
        dense_solve(a, nb, b, nrhs);
        memcpy(d->block + d->block_first[p], b, (size_t)nb * sizeof *b);
        return;
    }
    const uint32_t q = (uint32_t)d->parent[p], lp = (uint32_t)d->parent_link[p];
    double jq[3], n[3], bx[9]; /* bx: the point rows of B, -G of the parent link */
    to_array(direct_newton_jac(d, m, lp, q), jq);
    to_array(d->n[lp], n);
    const double c = direct_newton_geo(d, lp);
    for (int i = 0; i < dim; i++) {
        for (int j = 0; j < dim; j++)
            b[i * nrhs + j] = bx[i * 3 + j] = -c * ((i == j) - n[i] * n[j]);
        b[dim * nrhs + i] = -jq[i];
    }
    dense_solve(a, nb, b, nrhs);
    memcpy(d->block + d->block_first[p], b, (size_t)(nb * nrhs) * sizeof *b);
    /* kacc[q] -= B^T Y and racc[q] -= B^T z, B^T's columns being the rows of B above. */
    double *kq = d->kacc + 9 * (size_t)q, *rq = d->racc + 3 * (size_t)q;
    for (int r = 0; r < dim; r++) {
        for (int s = 0; s <= dim; s++) {
            double v = -jq[r] * b[dim * nrhs + s];
            for (int i = 0; i < dim; i++)
                v += bx[i * 3 + r] * b[i * nrhs + s];
            if (s < dim)
                kq[r * 3 + s] -= v;
            else
                rq[r] -= v;
        }
    }
}

/* u_p = z_p - Y_p dx_q: point p's step and its links' multiplier steps. */
static void back_substitute(struct direct *d, uint32_t p)
{
    const int dim = d->dims, has_parent = d->parent_link[p] >= 0;
    const int nb = dim + has_parent + (int)d->npins[p], nrhs = has_parent ? dim + 1 : 1;
    const double *y = d->block + d->block_first[p];
    double dq[3] = {0, 0, 0}, u[3] = {0, 0, 0};
    if (has_parent)
        to_array(d->dx[d->parent[p]], dq);
    for (int i = 0; i < nb; i++) {
        double v = y[i * nrhs + nrhs - 1];
        for (int j = 0; j < nrhs - 1; j++)
            v -= y[i * nrhs + j] * dq[j];
        if (i < dim)
            u[i] = v;
        else
            d->dlam[block_link(d, p, i)] = v;
    }
    d->dx[p] = v3(u[0], u[1], u[2]);
}

void direct_tree_iterate(struct direct *d, const struct model *m, vec3 *x, double h, int move)
{
    const double ih2 = 1.0 / (h * h);
    for (size_t k = 0; k < d->ntree; k++)
        direct_newton_assemble(d, m, x, d->order[k], OWNER_TREE);
    for (size_t k = d->ntree; k-- > 0;) /* leaves first: children follow parents in order[] */
        eliminate(d, m, d->order[k], ih2);
    for (size_t k = 0; k < d->ntree; k++)
        back_substitute(d, d->order[k]);
    direct_newton_apply(d, x, d->order, d->ntree, OWNER_TREE, move);
}
