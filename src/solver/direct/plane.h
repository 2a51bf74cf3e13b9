/* The tree's closed-form kernels for points in the plane (model dims 2) with a parent and at
 * most one multiplier of their own, which are most points of chains and hair: eliminated
 * and substituted with about a third of the general kernels' work. Static inline, included
 * only by solver/direct/tree.c, so that they unroll into its loops. */
#ifndef CATENA_DIRECT_PLANE_H
#define CATENA_DIRECT_PLANE_H

#include <math.h>
#include <string.h>

#include "solver/direct/geometry.h"
#include "solver/direct/internal.h"
#include "solver/direct/tree.h"

/* In the plane each point keeps three records, in arrays of blocks of two points: point k is
 * lane (k + 1) % 2 of block (k + 1) / 2, a block being its two points' records field by field
 * (2 nf doubles), so that the pairs (k - 1, k) of plane2.h with k even read and write each
 * field of both with one aligned 16-byte access (the tree is rooted at k = 0 and searched
 * breadth first: the pairs are (1, 2), (3, 4), ...), and the others two at constant offsets:
 * - in tkacc, PLANE_UP fields: its shares for its parent (stiffness xx, xy, yy, right-hand
 *   side x, y, residual x, y), written whole, so that a point with one child reads them
 *   without the accumulators' clearing and read-modify-writes (a branching point sums its
 *   children's into its accumulators here);
 * - in trow, PLANE_ROW: its parent link's row for its parent's block (Jacobian x, y,
 *   right-hand side, compliance);
 * - in tplane, PLANE_FAC: the factors of a plane point (not eliminate()'s, which stay in
 *   tfac): u0 (2), geo K't (2), K'n (2) and t (2), with which its step is u0 + U e = u0 +
 *   geo K't (t.dx_q) + K'n dl, since K' - K'n n^T = K't t^T; then, when it has a multiplier
 *   of its own, l0, and L e as w (t.dx_q) + L_l dl (w = -geo W.t / S, L_l = -W.n / S).
 * Each array holds nf (npoints + 2) doubles. */
#define PLANE_UP 7
#define PLANE_ROW 4
#define PLANE_FAC 11

/* Point k's record in an array of nf fields: its field j is at [2 j]. */
static inline double *plane_rec(double *a, size_t nf, size_t k)
{
    return a + 2 * nf * ((k + 1) >> 1) + ((k + 1) & 1);
}

static inline void plane_gather(const struct direct *d, size_t k, double *ka, double *ra,
                                double *ga)
{
    for (uint32_t c = d->tchild_first[k]; c < d->tchild_first[k] + d->tnchild[k]; c++) {
        const double *up = plane_rec(d->tkacc, PLANE_UP, c);
        ka[0] += up[0];
        ka[1] += up[2];
        ka[3] += up[2];
        ka[4] += up[4];
        ra[0] += up[6];
        ra[1] += up[8];
        ga[0] += up[10];
        ga[1] += up[12];
    }
}

/* eliminate_one() in the plane, where the tension's stiffness of a link of direction n is
 * geo t t^T (t = n turned by 90 degrees): with the projected inverse K', D = -B^T K' B
 * reduces to D_uu = -geo^2 (t.K't) t t^T, D_ul = -geo (t.K'n) t, D_ll = -n.K'n, and what
 * the point hands its parent is a rank-one stiffness along t. With A = adj K, a = A j and
 * Q = ar det K + j.a, K' = (Q A - a a^T) / (det K Q) and W / S = a / Q: one division. */
static inline __attribute__((always_inline)) void
eliminate_plane(struct direct *d, const struct model *m, const vec3 *x, size_t k, double ih2,
                struct direct_measure *r, const int exact)
{
    const uint32_t p = d->order[k];
    const size_t q = (size_t)d->tparent[k];
    const int kind = d->tkind[k], nb = kind != TREE_NONE;
    const double mass = d->tmass[k], im = m->inv_mass[p];
    const double ex = x[p].x - d->xpred[p].x, ey = x[p].y - d->xpred[p].y;
    const double ax = fabs(x[p].x), ay = fabs(x[p].y);
    r->scale = ax > r->scale ? ax : r->scale;
    r->scale = ay > r->scale ? ay : r->scale;
    double k00 = mass, k01 = 0.0, k11 = mass, gx = mass * ex, gy = mass * ey, rx = 0.0, ry = 0.0;
    if (kind == TREE_CHILD) {
        const double *up = plane_rec(d->tkacc, PLANE_UP, d->tchild_first[k]);
        k00 += up[0];
        k01 = up[2];
        k11 += up[4];
        rx = up[6];
        ry = up[8];
        gx += up[10];
        gy += up[12];
    }
    double jx = 0.0, jy = 0.0, ar = 0.0, rr = 0.0;
    if (kind == TREE_PIN) {
        const uint32_t l = d->tblink[k];
        const uint32_t o = m->links[l].a == p ? m->links[l].b : m->links[l].a;
        struct link_geo lg;
        link_plane(d, m, l, p, x[p], x[o], d->lambda[l], ih2, &lg);
        jx = lg.j[0];
        jy = lg.j[1];
        gx -= jx * lg.lam;
        gy -= jy * lg.lam;
        k00 += lg.geo * jy * jy;
        k01 -= lg.geo * jx * jy;
        k11 += lg.geo * jx * jx;
        ar = d->alpha[l] * ih2;
        rr = lg.c;
        r->kkt += lg.c * lg.c;
        if (exact)
            r->c1 += fabs(lg.c);
    } else if (kind == TREE_CHILD) {
        const double *row = plane_rec(d->trow, PLANE_ROW, d->tchild_first[k]);
        jx = row[0];
        jy = row[2];
        rr = row[4];
        ar = row[6];
    }
    const uint32_t lp = (uint32_t)d->tplink[k];
    struct link_geo pl;
    link_plane(d, m, lp, p, x[p], x[d->order[q]], d->lambda[lp], ih2, &pl);
    const double nx = pl.j[0], ny = pl.j[1], tx = -ny, ty = nx, geo = pl.geo;
    gx -= nx * pl.lam;
    gy -= ny * pl.lam;
    k00 += geo * tx * tx;
    k01 += geo * tx * ty;
    k11 += geo * ty * ty;
    r->kkt += pl.c * pl.c + (gx * gx + gy * gy) * (im * im);
    if (exact) { /* the exact penalty's parts: only the last iteration's search needs them */
        r->c1 += fabs(pl.c);
        r->f += 0.5 * mass * (ex * ex + ey * ey);
    }
    rx -= gx;
    ry -= gy;
    const double det = k00 * k11 - k01 * k01;
    double p00, p01, p11, ux, uy;                   /* K', then u0 */
    double *f = plane_rec(d->tplane, PLANE_FAC, k); /* the factors, as above */
    if (nb) {
        const double ax_ = k11 * jx - k01 * jy, ay_ = k00 * jy - k01 * jx; /* a = adj(K) j */
        const double qs = ar * det + jx * ax_ + jy * ay_;
        const double inv = 1.0 / (det * qs), iq = det * inv, wsx = ax_ * iq, wsy = ay_ * iq;
        p00 = (qs * k11 - ax_ * ax_) * inv;
        p01 = (-qs * k01 - ax_ * ay_) * inv;
        p11 = (qs * k00 - ay_ * ay_) * inv;
        f[16] = -(rr * det * iq + wsx * rx + wsy * ry);
        f[18] = -geo * (wsx * tx + wsy * ty);
        f[20] = -(wsx * nx + wsy * ny);
        ux = p00 * rx + p01 * ry - wsx * rr;
        uy = p01 * rx + p11 * ry - wsy * rr;
    } else {
        const double id = 1.0 / det;
        p00 = k11 * id;
        p01 = -k01 * id;
        p11 = k00 * id;
        ux = p00 * rx + p01 * ry;
        uy = p01 * rx + p11 * ry;
    }
    const double knx = p00 * nx + p01 * ny, kny = p01 * nx + p11 * ny; /* K'n */
    const double ktx = p00 * tx + p01 * ty, kty = p01 * tx + p11 * ty; /* K't */
    f[0] = ux;
    f[2] = uy;
    f[4] = geo * ktx;
    f[6] = geo * kty;
    f[8] = knx;
    f[10] = kny;
    f[12] = tx;
    f[14] = ty;
    const double tkt = tx * ktx + ty * kty, tkn = tx * knx + ty * kny, tu = tx * ux + ty * uy;
    const double tau = geo - geo * geo * tkt;
    double *up = plane_rec(d->tkacc, PLANE_UP, k);
    up[0] = tau * tx * tx;
    up[2] = tau * tx * ty;
    up[4] = tau * ty * ty;
    up[6] = geo * tu * tx;
    up[8] = geo * tu * ty;
    up[10] = nx * pl.lam;
    up[12] = ny * pl.lam;
    double *row = plane_rec(d->trow, PLANE_ROW, k);
    row[0] = -nx + geo * tkn * tx;
    row[2] = -ny + geo * tkn * ty;
    row[4] = pl.c + nx * ux + ny * uy; /* the right-hand side, kept in the plane's row */
    row[6] = d->alpha[lp] * ih2 + nx * knx + ny * kny;
}

/* substitute() for what eliminate_plane() factored: with te = t.dx_q, the point's step
 * u0 + geo K't te + K'n dl and its multiplier's l0 + w te + L dl. */
static inline __attribute__((always_inline)) void substitute_plane(struct direct *d, vec3 *x,
                                                                   size_t k, int move,
                                                                   double *slope, double *mu,
                                                                   const int exact)
{
    const size_t q = (size_t)d->tparent[k];
    const uint32_t p = d->order[k], lp = (uint32_t)d->tplink[k];
    const int kind = d->tkind[k];
    const double *f = plane_rec(d->tplane, PLANE_FAC, k);
    const double el = d->dlam[lp], te = f[12] * d->tdx[q].x + f[14] * d->tdx[q].y;
    const double lam = d->lambda[lp] + el;
    d->lambda[lp] = lam;
    const double ux = f[0] + f[4] * te + f[8] * el, uy = f[2] + f[6] * te + f[10] * el;
    d->tdx[k] = v3(ux, uy, 0.0);
    if (exact) { /* what only the last iteration's search needs */
        *mu = fabs(lam) > *mu ? fabs(lam) : *mu;
        *slope += d->tmass[k] * ((x[p].x - d->xpred[p].x) * ux + (x[p].y - d->xpred[p].y) * uy);
    }
    if (move) {
        x[p].x += ux;
        x[p].y += uy;
    }
    if (kind != TREE_NONE) {
        const uint32_t l = d->tblink[k];
        const double s = f[16] + f[18] * te + f[20] * el;
        d->dlam[l] = s;
        if (kind == TREE_PIN) { /* a child's link is its own point's parent link, summed there */
            const double lp2 = d->lambda[l] + s;
            *mu = exact && fabs(lp2) > *mu ? fabs(lp2) : *mu;
            d->lambda[l] = lp2;
        }
    }
}

#endif
