/* eliminate_plane() and substitute_plane() for two chain points at once (TREE_CHILD, neither
 * the other's parent), their arithmetic in pairs of doubles: the tree is rooted at its
 * centre and searched breadth first, so neighbours in the order are mostly the same depth on
 * its two halves, independent. Each lane does the single kernel's operations in its order,
 * and the measures are summed point by point as there: the same bits, about half the
 * arithmetic instructions. Lane 0 is the lower index: when the two share a block of records
 * (plane.h), and so do their children, each field is read and written for both at once.
 * Static inline, included only by solver/direct/tree.c. */
#ifndef CATENA_DIRECT_PLANE2_H
#define CATENA_DIRECT_PLANE2_H

#include <string.h>

#include "solver/direct/plane.h"

/* Whether points k and k - 1 (k > k0) can be eliminated together. */
static inline int plane2_pairs(const struct direct *d, size_t k)
{
    return d->tkind[k] == TREE_CHILD && d->tkind[k - 1] == TREE_CHILD &&
           d->tparent[k] != (int32_t)(k - 1);
}

/* The pair at a of a field stored by point (plane.h), and stored back. */
static inline v2d load2(const double *a)
{
    v2d v;
    memcpy(&v, a, sizeof v);
    return v;
}

static inline void store2(double *a, v2d v)
{
    memcpy(a, &v, sizeof v);
}

/* The largest of a and b lane by lane, b where a is not larger (a NaN never wins). */
static inline v2d max2(v2d a, v2d b)
{
    const v2di gt = (v2di)(a > b);
    return (v2d)((gt & (v2di)a) | (~gt & (v2di)b));
}

/* The positions' part of the measures, for the points at (px, py): the largest |coordinate|,
 * as eliminate_plane() takes it point by point (a largest element, in any order). */
KERNEL void plane2_scale(v2d px, v2d py, struct direct_measure *r)
{
    const v2di abs = {INT64_MAX, INT64_MAX};
    const v2d big = max2((v2d)((v2di)px & abs), (v2d)((v2di)py & abs));
    r->scale = big[1] > r->scale ? big[1] : r->scale;
    r->scale = big[0] > r->scale ? big[0] : r->scale;
}

/* The parent links' geometry of points k - 1 (lane 0) and k (lane 1). */
KERNEL void plane2_links(const struct direct *d, const struct model *m, const vec3 *x, size_t k,
                         v2d px, v2d py, double ih2, struct link_pair *lp)
{
    const uint32_t qa = d->order[d->tparent[k - 1]], qb = d->order[d->tparent[k]];
    const uint32_t la = (uint32_t)d->tplink[k - 1], lb = (uint32_t)d->tplink[k];
    link_plane2(d, m, la, lb, d->order[k - 1], d->order[k], px - V2(x[qa].x, x[qb].x),
                py - V2(x[qa].y, x[qb].y), V2(d->lambda[la], d->lambda[lb]), ih2, lp);
}

/* Field j of records a (lane 0) and b (lane 1): one access when they share a block. */
#define LD(a, b, j) (aligned ? load2((a) + 2 * (j)) : V2((a)[2 * (j)], (b)[2 * (j)]))
#define ST(a, b, j, v)                                                                             \
    do {                                                                                           \
        const v2d v_ = (v);                                                                        \
        if (aligned)                                                                               \
            store2((a) + 2 * (j), v_);                                                             \
        else {                                                                                     \
            (a)[2 * (j)] = v_[0];                                                                  \
            (b)[2 * (j)] = v_[1];                                                                  \
        }                                                                                          \
    } while (0)

/* Whether the pair (k - 1, k) and its children's records share blocks (plane.h). */
static inline int plane2_aligned(const struct direct *d, size_t k)
{
    const size_t ca = d->tchild_first[k - 1];
    return k % 2 == 0 && ca % 2 == 1 && d->tchild_first[k] == ca + 1;
}

KERNEL void eliminate_plane2(struct direct *d, const struct model *m, const vec3 *x, size_t k,
                             double ih2, struct direct_measure *r, const int exact,
                             const int aligned)
{
    const size_t k0 = k - 1;
    const uint32_t pa = d->order[k0], pb = d->order[k];
    const double *ua = plane_rec(d->tkacc, PLANE_UP, d->tchild_first[k0]);
    const double *ub = plane_rec(d->tkacc, PLANE_UP, d->tchild_first[k]);
    const double *ra = plane_rec(d->trow, PLANE_ROW, d->tchild_first[k0]);
    const double *rb = plane_rec(d->trow, PLANE_ROW, d->tchild_first[k]);
    const v2d px = V2(x[pa].x, x[pb].x), py = V2(x[pa].y, x[pb].y);
    plane2_scale(px, py, r);
    struct link_pair lp;
    plane2_links(d, m, x, k, px, py, ih2, &lp);
    const v2d nx = lp.nx, ny = lp.ny, geo = lp.geo, c = lp.c, lam = lp.lam;
    const v2d mass = load2(d->tmass + k0), im = V2(m->inv_mass[pa], m->inv_mass[pb]);
    const v2d ex = px - V2(d->xpred[pa].x, d->xpred[pb].x);
    const v2d ey = py - V2(d->xpred[pa].y, d->xpred[pb].y);
    v2d k00 = mass + LD(ua, ub, 0), k01 = LD(ua, ub, 1), k11 = mass + LD(ua, ub, 2);
    v2d rx = LD(ua, ub, 3), ry = LD(ua, ub, 4), gx = mass * ex, gy = mass * ey;
    gx += LD(ua, ub, 5);
    gy += LD(ua, ub, 6);
    const v2d jx = LD(ra, rb, 0), jy = LD(ra, rb, 1), rr = LD(ra, rb, 2), ar = LD(ra, rb, 3);
    const v2d tx = -ny, ty = nx;
    gx -= nx * lam;
    gy -= ny * lam;
    k00 += geo * tx * tx;
    k01 += geo * tx * ty;
    k11 += geo * ty * ty;
    const v2d kkt = c * c + (gx * gx + gy * gy) * (im * im);
    r->kkt += kkt[1];
    r->kkt += kkt[0];
    if (exact) {
        const v2d f = 0.5 * mass * (ex * ex + ey * ey);
        r->c1 += fabs(c[1]);
        r->f += f[1];
        r->c1 += fabs(c[0]);
        r->f += f[0];
    }
    rx -= gx;
    ry -= gy;
    const v2d det = k00 * k11 - k01 * k01;
    const v2d ax_ = k11 * jx - k01 * jy, ay_ = k00 * jy - k01 * jx;
    const v2d qs = ar * det + jx * ax_ + jy * ay_;
    const v2d inv = 1.0 / (det * qs), iq = det * inv, wsx = ax_ * iq, wsy = ay_ * iq;
    const v2d p00 = (qs * k11 - ax_ * ax_) * inv, p01 = (-qs * k01 - ax_ * ay_) * inv,
              p11 = (qs * k00 - ay_ * ay_) * inv;
    double *fa = plane_rec(d->tplane, PLANE_FAC, k0), *fb = plane_rec(d->tplane, PLANE_FAC, k);
    ST(fa, fb, 8, -(rr * det * iq + wsx * rx + wsy * ry));
    ST(fa, fb, 9, -geo * (wsx * tx + wsy * ty));
    ST(fa, fb, 10, -(wsx * nx + wsy * ny));
    const v2d ux = p00 * rx + p01 * ry - wsx * rr, uy = p01 * rx + p11 * ry - wsy * rr;
    const v2d knx = p00 * nx + p01 * ny, kny = p01 * nx + p11 * ny;
    const v2d ktx = p00 * tx + p01 * ty, kty = p01 * tx + p11 * ty;
    ST(fa, fb, 0, ux);
    ST(fa, fb, 1, uy);
    ST(fa, fb, 2, geo * ktx);
    ST(fa, fb, 3, geo * kty);
    ST(fa, fb, 4, knx);
    ST(fa, fb, 5, kny);
    ST(fa, fb, 6, tx);
    ST(fa, fb, 7, ty);
    const v2d tkt = tx * ktx + ty * kty, tkn = tx * knx + ty * kny, tu = tx * ux + ty * uy;
    const v2d tau = geo - geo * geo * tkt;
    double *upa = plane_rec(d->tkacc, PLANE_UP, k0), *upb = plane_rec(d->tkacc, PLANE_UP, k);
    ST(upa, upb, 0, tau * tx * tx);
    ST(upa, upb, 1, tau * tx * ty);
    ST(upa, upb, 2, tau * ty * ty);
    ST(upa, upb, 3, geo * tu * tx);
    ST(upa, upb, 4, geo * tu * ty);
    ST(upa, upb, 5, nx * lam);
    ST(upa, upb, 6, ny * lam);
    double *rowa = plane_rec(d->trow, PLANE_ROW, k0), *rowb = plane_rec(d->trow, PLANE_ROW, k);
    ST(rowa, rowb, 0, -nx + geo * tkn * tx);
    ST(rowa, rowb, 1, -ny + geo * tkn * ty);
    ST(rowa, rowb, 2, c + nx * ux + ny * uy);
    ST(rowa, rowb, 3, lp.aih + nx * knx + ny * kny);
}

/* Whether points k and k + 1 can be substituted together (substitute_plane2). */
static inline int plane2_pairs_up(const struct direct *d, size_t k)
{
    return d->tkind[k] == TREE_CHILD && d->tkind[k + 1] == TREE_CHILD &&
           d->tparent[k + 1] != (int32_t)k;
}

/* substitute_plane() for points k (lane 0) and k + 1 (lane 1), both TREE_CHILD and neither
 * the other's parent, lane by lane; the slope summed point by point as there. */
KERNEL void substitute_plane2(struct direct *d, vec3 *x, size_t k, int move, double *slope,
                              double *mu, const int exact)
{
    const size_t qa = (size_t)d->tparent[k], qb = (size_t)d->tparent[k + 1];
    const uint32_t pa = d->order[k], pb = d->order[k + 1];
    const uint32_t la = (uint32_t)d->tplink[k], lb = (uint32_t)d->tplink[k + 1];
    const int aligned = k % 2 == 1;
    const double *fa = plane_rec(d->tplane, PLANE_FAC, k);
    const double *fb = plane_rec(d->tplane, PLANE_FAC, k + 1);
    const v2d el = V2(d->dlam[la], d->dlam[lb]);
    const v2d te = LD(fa, fb, 6) * V2(d->tdx[qa].x, d->tdx[qb].x) +
                   LD(fa, fb, 7) * V2(d->tdx[qa].y, d->tdx[qb].y);
    const v2d lam = V2(d->lambda[la], d->lambda[lb]) + el;
    d->lambda[la] = lam[0];
    d->lambda[lb] = lam[1];
    const v2d ux = LD(fa, fb, 0) + LD(fa, fb, 2) * te + LD(fa, fb, 4) * el;
    const v2d uy = LD(fa, fb, 1) + LD(fa, fb, 3) * te + LD(fa, fb, 5) * el;
    d->tdx[k] = v3(ux[0], uy[0], 0.0);
    d->tdx[k + 1] = v3(ux[1], uy[1], 0.0);
    if (exact) {
        const v2d ex = V2(x[pa].x, x[pb].x) - V2(d->xpred[pa].x, d->xpred[pb].x);
        const v2d ey = V2(x[pa].y, x[pb].y) - V2(d->xpred[pa].y, d->xpred[pb].y);
        const v2d sl = load2(d->tmass + k) * (ex * ux + ey * uy);
        *mu = fabs(lam[0]) > *mu ? fabs(lam[0]) : *mu;
        *mu = fabs(lam[1]) > *mu ? fabs(lam[1]) : *mu;
        *slope += sl[0];
        *slope += sl[1];
    }
    if (move) {
        x[pa].x += ux[0];
        x[pa].y += uy[0];
        x[pb].x += ux[1];
        x[pb].y += uy[1];
    }
    const v2d s = LD(fa, fb, 8) + LD(fa, fb, 9) * te + LD(fa, fb, 10) * el;
    d->dlam[d->tblink[k]] = s[0];
    d->dlam[d->tblink[k + 1]] = s[1];
}

#undef LD
#undef ST

#endif
