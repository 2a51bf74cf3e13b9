/* Newton's method on the mass-weighted projection onto the links of a tree, in O(N).
 * The projection minimises |x - x*|^2_M / 2 subject to C(x) + a l = 0 (a = compliance/h^2);
 * its KKT residuals are g = M (x - x*) - J^T l and c = C(x) + a l, and one Newton step solves
 *     [ K  -J^T ] [dx]   [-g]
 *     [-J   -a  ] [dl] = [ c ],   K = M + sum_i max(-l_i, 0) (I - n_i n_i^T) / len_i,
 * the second term being the geometric stiffness of the tensions (Tournier et al. 2015), which
 * the plain XPBD step leaves out. With it the iteration converges quadratically even when
 * links turn by more than their length per substep, and its fixed point is the exact closest
 * point: at rest, M g h^2 = -J^T l, the static equilibrium, whatever dt and link order.
 * When the links form a tree, so does the system's graph, and eliminating it from the leaves
 * to the root (Baraff 1996) factors it without fill. Each point is eliminated together with
 * the multipliers of its links to its children and to pinned points (its block): the point's
 * unknowns first (its stiffness block is positive definite: mass, tensions, and what its
 * subtree passes on), then the multipliers through their Schur complement
 * S = J K^-1 J^T + a, definite too. A link's multiplier is eliminated with its upper end, not
 * its lower one: then a straight run of links ending at a pin (a chain's start as a V, a
 * hanging chain near its pins) never makes a block singular, where grouping the link with
 * its lower end would put two parallel constraints on one point. No pivoting; one pass from
 * the leaves assembles and eliminates, one from the root substitutes back. A branching
 * point's block is solved densely (solver/direct/dense.c); the line search measures its
 * trial steps in solver/direct/trial.c. */
#include "solver/direct/tree.h"

#include <math.h>
#include <string.h>

#include "solver/direct/dense.h"
#include "solver/direct/geometry.h"
#include "solver/direct/internal.h"
#include "solver/direct/plane.h"
#include "solver/direct/plane2.h"

/* The inverse of the symmetric positive definite dim x dim matrix k (3 x 3 storage). */
KERNEL void sym_inverse(const double *k, double *inv, const int dim)
{
    if (dim == 2) {
        const double id = 1.0 / (k[0] * k[4] - k[1] * k[3]);
        inv[0] = k[4] * id;
        inv[1] = inv[3] = -k[1] * id;
        inv[4] = k[0] * id;
        return;
    }
    const double c00 = k[4] * k[8] - k[5] * k[7], c01 = k[5] * k[6] - k[3] * k[8];
    const double c02 = k[3] * k[7] - k[4] * k[6];
    const double id = 1.0 / (k[0] * c00 + k[1] * c01 + k[2] * c02);
    inv[0] = c00 * id;
    inv[1] = inv[3] = c01 * id;
    inv[2] = inv[6] = c02 * id;
    inv[4] = (k[0] * k[8] - k[2] * k[6]) * id;
    inv[5] = inv[7] = (k[2] * k[3] - k[0] * k[5]) * id;
    inv[8] = (k[0] * k[4] - k[1] * k[3]) * id;
}

/* What eliminating tree point k needs besides its accumulators: its multipliers' rows. */
struct block {
    int nb;                /* multipliers: pins, then children */
    double *jr, *ar, *rr;  /* rows (nb x 3), their compliance, their right-hand side */
    double *W, *S, *X, *F; /* K^-1 J^T (nb x 3), J K^-1 J^T + a, [beta | F] twice */
};

/* Point k's rows: a pin link's own (Jacobian, compliance, C + a l), a child's as the child
 * left it in trow/trr (its link's row with the child's subtree eliminated). */
KERNEL void block_rows(struct direct *d, const struct model *m, const vec3 *x, size_t k, double ih2,
                       struct block *bk, double *K, double *g, struct direct_measure *r,
                       const int dim)
{
    const uint32_t p = d->order[k];
    int b = 0;
    for (uint32_t s = d->tpin_first[k]; s < d->tpin_first[k + 1]; s++, b++) {
        const uint32_t l = d->tpin[s];
        const uint32_t o = m->links[l].a == p ? m->links[l].b : m->links[l].a;
        struct link_geo lg;
        link_geometry(d, m, l, p, x[p], x[o], d->lambda[l], ih2, &lg);
        for (int i = 0; i < dim; i++) {
            bk->jr[3 * b + i] = lg.j[i];
            g[i] -= lg.j[i] * lg.lam;
            for (int j = 0; j < dim; j++)
                K[i * 3 + j] += lg.geo * ((i == j) - lg.j[i] * lg.j[j]);
        }
        bk->ar[b] = d->alpha[l] * ih2;
        bk->rr[b] = lg.c;
        r->kkt += lg.c * lg.c;
        r->c1 += fabs(lg.c);
    }
    const size_t rs = dim == 2 ? 2 : 1; /* in the plane in blocks of two (plane.h) */
    for (uint32_t c = d->tchild_first[k]; c < d->tchild_first[k] + d->tnchild[k]; c++, b++) {
        const double *row = dim == 2 ? plane_rec(d->trow, PLANE_ROW, c) : d->trow + 4 * (size_t)c;
        for (int i = 0; i < dim; i++)
            bk->jr[3 * b + i] = row[(size_t)i * rs];
        bk->ar[b] = row[3 * rs];
        bk->rr[b] = dim == 2 ? row[2 * rs] : d->trr[c]; /* plane: in the row */
    }
}

/* Assembles tree point k (its mass, its links to its parent and to pins, and what its children
 * passed on, which it clears), eliminates it with its multipliers, stores the factors that
 * give them from e = (dx_q, dl of the link to the parent q): u = u0 + U e, l = l0 + L e, and
 * passes on to q its stiffness and residual shares and its parent link's row. Returns its
 * share of the residual |W g|^2 + |c|^2 (m^2). */
static void eliminate(struct direct *d, const struct model *m, const vec3 *x, size_t k, double ih2,
                      double *scratch, struct direct_measure *meas, const int dim)
{
    const uint32_t p = d->order[k];
    const int32_t q = d->tparent[k];
    const int nb = (int)(d->tpin_first[k + 1] - d->tpin_first[k] + d->tnchild[k]);
    const int ne = dim + 1; /* e = (dx_q, dl_parent) */
    const double mass = d->tmass[k];
    double ka[9] = {0}, ra[3] = {0}, ga[3] = {0}, K[9] = {0}, g[3] = {0}, r[3] = {0};
    const double xp[3] = {x[p].x, x[p].y, x[p].z};
    const double xs[3] = {d->xpred[p].x, d->xpred[p].y, d->xpred[p].z};
    meas->scale = fmax(meas->scale, fmax(fabs(xp[0]), fmax(fabs(xp[1]), fabs(xp[2]))));
    if (dim == 2) {
        plane_gather(d, k, ka, ra, ga);
    } else {
        double *acc[3] = {d->tkacc + 9 * k, d->tracc + 3 * k, d->tgacc + 3 * k};
        memcpy(ka, acc[0], sizeof ka);
        memcpy(ra, acc[1], sizeof ra);
        memcpy(ga, acc[2], sizeof ga);
        memset(acc[0], 0, sizeof ka);
        memset(acc[1], 0, sizeof ra);
        memset(acc[2], 0, sizeof ga);
    }
    for (int i = 0; i < dim; i++) {
        for (int j = 0; j < dim; j++)
            K[i * 3 + j] = ka[i * 3 + j] + (i == j ? mass : 0.0);
        g[i] = ga[i] + mass * (xp[i] - xs[i]);
        r[i] = ra[i];
    }
    struct block bk = {nb,
                       scratch,
                       scratch + 3 * nb,
                       scratch + 4 * nb,
                       scratch + 5 * nb,
                       scratch + 8 * nb,
                       scratch + 8 * nb + nb * nb,
                       scratch + 8 * nb + nb * nb + nb * (ne + 1)};
    block_rows(d, m, x, k, ih2, &bk, K, g, meas, dim);
    /* The link to the parent: its geometry, its tension's stiffness here, its coupling
     * B = [C | -j] to e (C = -geo P, the tension's stiffness between p and q). */
    double B[12] = {0}, jp[3] = {0, 0, 0};
    struct link_geo pl = {{0, 0, 0}, 0, 0, 0};
    if (q >= 0) {
        const uint32_t l = d->tplink[k];
        link_geometry(d, m, l, p, x[p], x[d->order[q]], d->lambda[l], ih2, &pl);
        for (int i = 0; i < dim; i++) {
            jp[i] = pl.j[i];
            g[i] -= pl.j[i] * pl.lam;
            for (int j = 0; j < dim; j++) {
                const double gp = pl.geo * ((i == j) - pl.j[i] * pl.j[j]);
                K[i * 3 + j] += gp;
                B[i * 4 + j] = -gp;
            }
            B[i * 4 + dim] = -pl.j[i];
        }
        meas->kkt += pl.c * pl.c;
        meas->c1 += fabs(pl.c);
    }
    double w2 = 0.0, e2 = 0.0;
    for (int i = 0; i < dim; i++) {
        w2 += g[i] * g[i];
        e2 += (xp[i] - xs[i]) * (xp[i] - xs[i]);
        r[i] -= g[i];
    }
    meas->kkt += w2 / (mass * mass);
    meas->f += 0.5 * mass * e2;

    double Ki[9];
    sym_inverse(K, Ki, dim);
    double v[3] = {0, 0, 0}, Z[12] = {0};
    for (int i = 0; i < dim; i++)
        for (int j = 0; j < dim; j++)
            v[i] += Ki[i * 3 + j] * r[j];
    if (q >= 0)
        for (int i = 0; i < dim; i++)
            for (int e = 0; e < ne; e++) {
                double z = 0.0;
                for (int t = 0; t < dim; t++)
                    z += Ki[i * 3 + t] * B[t * 4 + e];
                Z[i * 4 + e] = z;
            }
    /* W = K^-1 J^T, S = J W + a, right-hand sides [beta | F], F = W^T B (zero at a root). */
    const int nrhs = q >= 0 ? 1 + ne : 1;
    for (int b = 0; b < nb; b++) {
        double beta = -bk.rr[b];
        for (int i = 0; i < dim; i++) {
            double s = 0.0;
            for (int j = 0; j < dim; j++)
                s += Ki[i * 3 + j] * bk.jr[3 * b + j];
            bk.W[3 * b + i] = s;
            beta -= bk.jr[3 * b + i] * v[i];
        }
        bk.X[b * nrhs] = beta;
        for (int e = 0; e + 1 < nrhs; e++) {
            double f = 0.0;
            for (int i = 0; i < dim; i++)
                f += bk.W[3 * b + i] * B[i * 4 + e];
            bk.X[b * nrhs + 1 + e] = f;
        }
        for (int b2 = 0; b2 <= b; b2++) {
            double s = b == b2 ? bk.ar[b] : 0.0;
            for (int i = 0; i < dim; i++)
                s += bk.jr[3 * b + i] * bk.W[3 * b2 + i];
            bk.S[b * nb + b2] = bk.S[b2 * nb + b] = s;
        }
    }
    memcpy(bk.F, bk.X, (size_t)(nb * nrhs) * sizeof *bk.F);
    direct_dense_solve(bk.S, nb, bk.X, nrhs);

    /* Factors: l0 (nb), L (nb x ne), u0 (dim), U (dim x ne). */
    double *fac = d->tfac + d->tfac_first[k];
    double *l0 = fac, *L = l0 + nb, *u0 = L + nb * ne, *U = u0 + dim;
    for (int b = 0; b < nb; b++) {
        l0[b] = bk.X[b * nrhs];
        for (int e = 0; e + 1 < nrhs; e++)
            L[b * ne + e] = bk.X[b * nrhs + 1 + e];
    }
    for (int i = 0; i < dim; i++) {
        double s = v[i];
        for (int b = 0; b < nb; b++)
            s += bk.W[3 * b + i] * l0[b];
        u0[i] = s;
    }
    if (q < 0)
        return;
    for (int i = 0; i < dim; i++)
        for (int e = 0; e < ne; e++) {
            double s = -Z[i * 4 + e];
            for (int b = 0; b < nb; b++)
                s += bk.W[3 * b + i] * L[b * ne + e];
            U[i * ne + e] = s;
        }
    /* To the parent: D = F^T S^-1 F - B^T K^-1 B over e, and -B^T u0 on its right-hand side;
     * the stiffness part and the link's tension at q to kacc, the rest to the link's row. */
    double D[16];
    for (int e = 0; e < ne; e++)
        for (int f = 0; f <= e; f++) {
            double s = 0.0;
            for (int b = 0; b < nb; b++)
                s += bk.F[b * nrhs + 1 + e] * L[b * ne + f];
            for (int t = 0; t < dim; t++)
                s -= B[t * 4 + e] * Z[t * 4 + f];
            D[e * 4 + f] = D[f * 4 + e] = s;
        }
    double kup[9] = {0}, rup[3] = {0}, gup[3] = {0}; /* in the plane: to k's own slot */
    double *kq = dim == 2 ? kup : d->tkacc + 9 * (size_t)q;
    double *rq = dim == 2 ? rup : d->tracc + 3 * (size_t)q;
    double *gq = dim == 2 ? gup : d->tgacc + 3 * (size_t)q, bu = 0.0;
    const size_t rs = dim == 2 ? 2 : 1; /* in the plane in blocks of two (plane.h) */
    double *row = dim == 2 ? plane_rec(d->trow, PLANE_ROW, k) : d->trow + 4 * k;
    for (int i = 0; i < dim; i++) {
        double cu = 0.0;
        for (int t = 0; t < dim; t++)
            cu += B[t * 4 + i] * u0[t];
        rq[i] -= cu;
        gq[i] += jp[i] * pl.lam; /* the link's share of g at q: -J_q l = +J_p l */
        for (int j = 0; j < dim; j++)
            kq[i * 3 + j] += D[i * 4 + j] - B[i * 4 + j];
        row[(size_t)i * rs] = -jp[i] - D[i * 4 + dim];
        bu += jp[i] * u0[i];
    }
    row[3 * rs] = d->alpha[d->tplink[k]] * ih2 - D[dim * 4 + dim];
    d->trr[k] = pl.c + bu;
    if (dim == 2) {
        row[2 * rs] = d->trr[k];
        const double upv[7] = {kup[0], kup[1], kup[4], rup[0], rup[1], gup[0], gup[1]};
        double *out = plane_rec(d->tkacc, PLANE_UP, k);
        for (size_t j = 0; j < PLANE_UP; j++)
            out[2 * j] = upv[j];
    }
}

/* The parent link of tree point k at x: its geometry from k's side, its tension's stiffness
 * added to K, its multiplier's share taken from g; B = [C | -j] couples k to e = (dx_q, dl)
 * (C = -geo P, the tension's stiffness between k and q). */
KERNEL void parent_link(const struct direct *d, const struct model *m, const vec3 *x, size_t k,
                        double ih2, double *K, double *g, double *B, struct link_geo *pl,
                        const int dim)
{
    const uint32_t l = (uint32_t)d->tplink[k];
    link_geometry(d, m, l, d->order[k], x[d->order[k]], x[d->order[d->tparent[k]]], d->lambda[l],
                  ih2, pl);
    UNROLL
    for (int i = 0; i < dim; i++) {
        g[i] -= pl->j[i] * pl->lam;
        UNROLL
        for (int j = 0; j < dim; j++) {
            const double gp = pl->geo * ((i == j) - pl->j[i] * pl->j[j]);
            K[i * 3 + j] += gp;
            B[i * 4 + j] = -gp;
        }
        B[i * 4 + dim] = -pl->j[i];
    }
}

/* What point k hands its parent q: D = F^T S^-1 F - B^T K^-1 B over e = (dx_q, dl) and
 * -B^T u0: the stiffness part and the link's tension at q to q's
 * accumulators, the rest to the link's row in q's block. */
KERNEL void hand_up(struct direct *d, size_t k, const double *B, const double *D, const double *u0,
                    const struct link_geo *pl, double ih2, const int dim)
{
    const size_t q = (size_t)d->tparent[k];
    double *kq = d->tkacc + 9 * q, *rq = d->tracc + 3 * q, *gq = d->tgacc + 3 * q;
    double *row = d->trow + 4 * k, bu = 0.0;
    UNROLL
    for (int i = 0; i < dim; i++) {
        double cu = 0.0;
        UNROLL
        for (int t = 0; t < dim; t++)
            cu += B[t * 4 + i] * u0[t];
        rq[i] -= cu;
        gq[i] += pl->j[i] * pl->lam; /* the link's share of g at q: -J_q l = +J_p l */
        UNROLL
        for (int j = 0; j < dim; j++)
            kq[i * 3 + j] += D[i * 4 + j] - B[i * 4 + j];
        row[i] = -pl->j[i] - D[i * 4 + dim];
        bu += pl->j[i] * u0[i];
    }
    row[3] = d->alpha[d->tplink[k]] * ih2 - D[dim * 4 + dim];
    d->trr[k] = pl->c + bu;
}

/* eliminate() for the common point: a parent and at most one multiplier of its own (a chain's
 * inside, a leaf), in closed form. With W = K^-1 j and S = j W + a for its own row j, the
 * projected inverse K' = K^-1 - W W^T / S gives everything: u0 = K' r - W rr / S,
 * l0 = -(rr + W.r) / S, L = W^T B / S, U = -K' B and D = -B^T K' B. */
KERNEL void eliminate_one(struct direct *d, const struct model *m, const vec3 *x, size_t k,
                          double ih2, struct direct_measure *r, const int dim)
{
    const uint32_t p = d->order[k];
    const int ne = dim + 1;
    const int npin = (int)(d->tpin_first[k + 1] - d->tpin_first[k]);
    const int nb = npin + (int)d->tnchild[k];
    const double mass = d->tmass[k];
    double *ka = d->tkacc + 9 * k, *ra = d->tracc + 3 * k, *ga = d->tgacc + 3 * k;
    double K[9], g[3], rv[3];
    const double xp[3] = {x[p].x, x[p].y, x[p].z};
    const double xs[3] = {d->xpred[p].x, d->xpred[p].y, d->xpred[p].z};
    UNROLL
    for (int i = 0; i < dim; i++) {
        const double a = fabs(xp[i]);
        r->scale = a > r->scale ? a : r->scale;
        UNROLL
        for (int j = 0; j < dim; j++) {
            K[i * 3 + j] = ka[i * 3 + j] + (i == j ? mass : 0.0);
            ka[i * 3 + j] = 0.0;
        }
        g[i] = ga[i] + mass * (xp[i] - xs[i]);
        rv[i] = ra[i];
        ga[i] = ra[i] = 0.0;
    }
    double jr[3] = {0, 0, 0}, ar = 0.0, rr = 0.0;
    if (npin) {
        const uint32_t l = d->tpin[d->tpin_first[k]];
        const uint32_t o = m->links[l].a == p ? m->links[l].b : m->links[l].a;
        struct link_geo lg;
        link_geometry(d, m, l, p, x[p], x[o], d->lambda[l], ih2, &lg);
        UNROLL
        for (int i = 0; i < dim; i++) {
            jr[i] = lg.j[i];
            g[i] -= lg.j[i] * lg.lam;
            UNROLL
            for (int j = 0; j < dim; j++)
                K[i * 3 + j] += lg.geo * ((i == j) - lg.j[i] * lg.j[j]);
        }
        ar = d->alpha[l] * ih2;
        rr = lg.c;
        r->kkt += lg.c * lg.c;
        r->c1 += fabs(lg.c);
    } else if (nb) {
        const size_t c = d->tchild_first[k];
        UNROLL
        for (int i = 0; i < dim; i++)
            jr[i] = d->trow[4 * c + (size_t)i];
        ar = d->trow[4 * c + 3];
        rr = d->trr[c];
    }
    double B[12], Kp[9], W[3] = {0, 0, 0}, T[12], D[16], u0[3];
    struct link_geo pl;
    parent_link(d, m, x, k, ih2, K, g, B, &pl, dim);
    r->kkt += pl.c * pl.c;
    r->c1 += fabs(pl.c);
    double w2 = 0.0, e2 = 0.0;
    UNROLL
    for (int i = 0; i < dim; i++) {
        w2 += g[i] * g[i];
        e2 += (xp[i] - xs[i]) * (xp[i] - xs[i]);
        rv[i] -= g[i];
    }
    r->kkt += w2 / (mass * mass);
    r->f += 0.5 * mass * e2;
    sym_inverse(K, Kp, dim);
    double *l0 = d->tfac + d->tfac_first[k], *L = l0 + nb, *U = L + nb * ne + dim;
    double is = 0.0;
    if (nb) {
        double Sd = ar, wr = 0.0;
        UNROLL
        for (int i = 0; i < dim; i++) {
            double s = 0.0;
            UNROLL
            for (int j = 0; j < dim; j++)
                s += Kp[i * 3 + j] * jr[j];
            W[i] = s;
            Sd += jr[i] * s;
            wr += s * rv[i];
        }
        is = 1.0 / Sd;
        UNROLL
        for (int i = 0; i < dim; i++)
            UNROLL
        for (int j = 0; j < dim; j++)
            Kp[i * 3 + j] -= W[i] * W[j] * is;
        l0[0] = -(rr + wr) * is;
        UNROLL
        for (int e = 0; e < ne; e++) {
            double f = 0.0;
            UNROLL
            for (int i = 0; i < dim; i++)
                f += W[i] * B[i * 4 + e];
            L[e] = f * is;
        }
    }
    UNROLL
    for (int i = 0; i < dim; i++) {
        double s = -W[i] * rr * is;
        UNROLL
        for (int j = 0; j < dim; j++)
            s += Kp[i * 3 + j] * rv[j];
        u0[i] = s;
        L[nb * ne + i] = s;
        UNROLL
        for (int e = 0; e < ne; e++) {
            double t = 0.0;
            UNROLL
            for (int j = 0; j < dim; j++)
                t += Kp[i * 3 + j] * B[j * 4 + e];
            T[i * 4 + e] = t;
            U[i * ne + e] = -t;
        }
    }
    UNROLL
    for (int e = 0; e < ne; e++)
        UNROLL
    for (int f = 0; f <= e; f++) {
        double t = 0.0;
        UNROLL
        for (int i = 0; i < dim; i++)
            t -= B[i * 4 + e] * T[i * 4 + f];
        D[e * 4 + f] = D[f * 4 + e] = t;
    }
    hand_up(d, k, B, D, u0, &pl, ih2, dim);
}

/* Tree point k, by the kernel that fits it. The closed-form kernels add to r, kept in
 * registers by the loop; eliminate() to rg, whose address escapes. */
KERNEL void eliminate_point(struct direct *d, const struct model *m, const vec3 *x, size_t k,
                            double ih2, double *scratch, struct direct_measure *r,
                            struct direct_measure *rg, const int dim, const int exact)
{
    if (d->tkind[k] != TREE_GENERAL) {
        if (dim == 2)
            eliminate_plane(d, m, x, k, ih2, r, exact);
        else
            eliminate_one(d, m, x, k, ih2, r, dim);
    } else
        eliminate(d, m, x, k, ih2, scratch, rg, dim);
}

struct direct_measure direct_tree_eliminate(struct direct *d, const struct model *m, const vec3 *x,
                                            size_t k0, size_t k1, double ih2, double *scratch)
{
    struct direct_measure r = {0, 0, 0, 0}, rg = {0, 0, 0, 0};
    if (d->dims == 2 && d->last)
        for (size_t k = k1; k-- > k0;)
            if (k > k0 && plane2_pairs(d, k) && plane2_aligned(d, k))
                eliminate_plane2(d, m, x, k--, ih2, &r, 1, 1);
            else if (k > k0 && plane2_pairs(d, k))
                eliminate_plane2(d, m, x, k--, ih2, &r, 1, 0);
            else
                eliminate_point(d, m, x, k, ih2, scratch, &r, &rg, 2, 1);
    else if (d->dims == 2)
        for (size_t k = k1; k-- > k0;)
            if (k > k0 && plane2_pairs(d, k) && plane2_aligned(d, k))
                eliminate_plane2(d, m, x, k--, ih2, &r, 0, 1);
            else if (k > k0 && plane2_pairs(d, k))
                eliminate_plane2(d, m, x, k--, ih2, &r, 0, 0);
            else
                eliminate_point(d, m, x, k, ih2, scratch, &r, &rg, 2, 0);
    else
        for (size_t k = k1; k-- > k0;)
            eliminate_point(d, m, x, k, ih2, scratch, &r, &r, 3, 1); /* as before: one sum */
    r.kkt += rg.kkt;
    r.f += rg.f;
    r.c1 += rg.c1;
    r.scale = fmax(r.scale, rg.scale);
    return r;
}

/* The multipliers of point k's block and its step from e = (dx_q, dl of the parent link);
 * adds its part of the objective's slope along the step, m (x - x*).dx, to *slope and raises
 * *mu to its largest |l + dl|, then takes the full step (x only when move). */
KERNEL void substitute(struct direct *d, vec3 *x, size_t k, int move, double *slope, double *mu,
                       const int dim)
{
    const int32_t q = d->tparent[k];
    const uint32_t p = d->order[k];
    const int npin = (int)(d->tpin_first[k + 1] - d->tpin_first[k]);
    const int nb = npin + (int)d->tnchild[k], ne = dim + 1;
    const double *fac = d->tfac + d->tfac_first[k];
    const double *l0 = fac, *L = l0 + nb, *u0 = L + nb * ne, *U = u0 + dim;
    double e[4] = {0, 0, 0, 0}, u[3] = {0, 0, 0};
    if (q >= 0) {
        e[0] = d->tdx[q].x;
        e[1] = d->tdx[q].y;
        e[2] = d->tdx[q].z;
        e[dim] = d->dlam[d->tplink[k]];
        const uint32_t l = (uint32_t)d->tplink[k];
        const double lam = d->lambda[l] + e[dim];
        *mu = fabs(lam) > *mu ? fabs(lam) : *mu;
        d->lambda[l] = lam;
    }
    UNROLL
    for (int i = 0; i < dim; i++) {
        double s = u0[i];
        if (q >= 0)
            UNROLL
        for (int j = 0; j < ne; j++)
            s += U[i * ne + j] * e[j];
        u[i] = s;
    }
    const vec3 du = v3(u[0], u[1], u[2]);
    d->tdx[k] = du;
    *slope += d->tmass[k] * v3_dot(v3_sub(x[p], d->xpred[p]), du);
    if (move)
        x[p] = v3_add(x[p], du);
    for (int b = 0; b < nb; b++) {
        double s = l0[b];
        if (q >= 0)
            UNROLL
        for (int j = 0; j < ne; j++)
            s += L[b * ne + j] * e[j];
        const uint32_t l = b < npin
                               ? d->tpin[d->tpin_first[k] + (uint32_t)b]
                               : (uint32_t)d->tplink[d->tchild_first[k] + (uint32_t)(b - npin)];
        d->dlam[l] = s;
        if (b < npin) {
            const double lam = d->lambda[l] + s;
            *mu = fabs(lam) > *mu ? fabs(lam) : *mu;
            d->lambda[l] = lam;
        }
    }
}

void direct_tree_substitute(struct direct *d, vec3 *x, size_t k0, size_t k1, int move,
                            double *slope, double *mu)
{
    double s = 0.0, big = 0.0;
    if (d->dims == 2 && move && d->last)
        for (size_t k = k0; k < k1; k++)
            if (k + 1 < k1 && plane2_pairs_up(d, k))
                substitute_plane2(d, x, k++, move, &s, &big, 1);
            else if (d->tkind[k] != TREE_GENERAL)
                substitute_plane(d, x, k, move, &s, &big, 1);
            else
                substitute(d, x, k, move, &s, &big, 2);
    else if (d->dims == 2)
        for (size_t k = k0; k < k1; k++)
            if (k + 1 < k1 && plane2_pairs_up(d, k))
                substitute_plane2(d, x, k++, move, &s, &big, 0);
            else if (d->tkind[k] != TREE_GENERAL)
                substitute_plane(d, x, k, move, &s, &big, 0);
            else
                substitute(d, x, k, move, &s, &big, 2);
    else
        for (size_t k = k0; k < k1; k++)
            substitute(d, x, k, move, &s, &big, 3);
    *slope = s;
    *mu = big;
}
