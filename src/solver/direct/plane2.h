/* eliminate_plane() for two chain points at once (TREE_CHILD, neither the other's parent),
 * their arithmetic in pairs of doubles: the tree is rooted at its centre and searched
 * breadth first, so neighbours in the order are mostly the same depth on its two halves,
 * independent. Each lane does eliminate_plane()'s operations in its order, and the measures
 * are summed point by point as there: the same bits, about half the arithmetic
 * instructions. Static inline, included only by solver/direct/tree.c. */
#ifndef CATENA_DIRECT_PLANE2_H
#define CATENA_DIRECT_PLANE2_H

#include "solver/direct/plane.h"

typedef double v2d __attribute__((vector_size(16)));

/* Whether points k and k - 1 (k > k0) can be eliminated together. */
static inline int plane2_pairs(const struct direct *d, size_t k)
{
    return d->tkind[k] == TREE_CHILD && d->tkind[k - 1] == TREE_CHILD &&
           d->tparent[k] != (int32_t)(k - 1);
}

#define V2(e0, e1) ((v2d){(e0), (e1)})
#define ST(a, b, j, v)                                                                             \
    do {                                                                                           \
        const v2d v_ = (v);                                                                        \
        (a)[j] = v_[0];                                                                            \
        (b)[j] = v_[1];                                                                            \
    } while (0)

/* The position's part of the measures and the parent link's geometry of point k. */
static inline __attribute__((always_inline)) void
plane2_link(const struct direct *d, const struct model *m, const vec3 *x, size_t k, double ih2,
            struct direct_measure *r, struct link_geo *pl)
{
    const uint32_t p = d->order[k], lp = (uint32_t)d->tplink[k];
    const double ax = fabs(x[p].x), ay = fabs(x[p].y);
    r->scale = ax > r->scale ? ax : r->scale;
    r->scale = ay > r->scale ? ay : r->scale;
    link_plane(d, m, lp, p, x[p], x[d->order[d->tparent[k]]], d->lambda[lp], ih2, pl);
}

KERNEL void eliminate_plane2(struct direct *d, const struct model *m, const vec3 *x, size_t k,
                             double ih2, struct direct_measure *r, const int exact)
{
    const size_t k1 = k - 1;
    const uint32_t pa = d->order[k], pb = d->order[k1];
    const double *ua = d->tkacc + PLANE_UP * (size_t)d->tchild_first[k];
    const double *ub = d->tkacc + PLANE_UP * (size_t)d->tchild_first[k1];
    const double *ra = d->trow + 4 * (size_t)d->tchild_first[k];
    const double *rb = d->trow + 4 * (size_t)d->tchild_first[k1];
    struct link_geo la, lb;
    plane2_link(d, m, x, k, ih2, r, &la);
    plane2_link(d, m, x, k1, ih2, r, &lb);
    const v2d mass = V2(d->tmass[k], d->tmass[k1]), im = V2(m->inv_mass[pa], m->inv_mass[pb]);
    const v2d ex = V2(x[pa].x - d->xpred[pa].x, x[pb].x - d->xpred[pb].x);
    const v2d ey = V2(x[pa].y - d->xpred[pa].y, x[pb].y - d->xpred[pb].y);
    v2d k00 = mass + V2(ua[0], ub[0]), k01 = V2(ua[1], ub[1]), k11 = mass + V2(ua[2], ub[2]);
    v2d rx = V2(ua[3], ub[3]), ry = V2(ua[4], ub[4]), gx = mass * ex, gy = mass * ey;
    gx += V2(ua[5], ub[5]);
    gy += V2(ua[6], ub[6]);
    const v2d jx = V2(ra[0], rb[0]), jy = V2(ra[1], rb[1]), rr = V2(ra[2], rb[2]);
    const v2d ar = V2(ra[3], rb[3]);
    const v2d nx = V2(la.j[0], lb.j[0]), ny = V2(la.j[1], lb.j[1]), tx = -ny, ty = nx;
    const v2d geo = V2(la.geo, lb.geo), c = V2(la.c, lb.c), lam = V2(la.lam, lb.lam);
    gx -= nx * lam;
    gy -= ny * lam;
    k00 += geo * tx * tx;
    k01 += geo * tx * ty;
    k11 += geo * ty * ty;
    const v2d kkt = c * c + (gx * gx + gy * gy) * (im * im);
    r->kkt += kkt[0];
    r->kkt += kkt[1];
    if (exact) {
        const v2d f = 0.5 * mass * (ex * ex + ey * ey);
        r->c1 += fabs(c[0]);
        r->f += f[0];
        r->c1 += fabs(c[1]);
        r->f += f[1];
    }
    rx -= gx;
    ry -= gy;
    const v2d det = k00 * k11 - k01 * k01;
    const v2d ax_ = k11 * jx - k01 * jy, ay_ = k00 * jy - k01 * jx;
    const v2d qs = ar * det + jx * ax_ + jy * ay_;
    const v2d inv = 1.0 / (det * qs), iq = det * inv, wsx = ax_ * iq, wsy = ay_ * iq;
    const v2d p00 = (qs * k11 - ax_ * ax_) * inv, p01 = (-qs * k01 - ax_ * ay_) * inv,
              p11 = (qs * k00 - ay_ * ay_) * inv;
    double *fa = d->tfac + d->tfac_first[k], *fb = d->tfac + d->tfac_first[k1];
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
    double *upa = d->tkacc + PLANE_UP * k, *upb = d->tkacc + PLANE_UP * k1;
    ST(upa, upb, 0, tau * tx * tx);
    ST(upa, upb, 1, tau * tx * ty);
    ST(upa, upb, 2, tau * ty * ty);
    ST(upa, upb, 3, geo * tu * tx);
    ST(upa, upb, 4, geo * tu * ty);
    ST(upa, upb, 5, nx * lam);
    ST(upa, upb, 6, ny * lam);
    double *rowa = d->trow + 4 * k, *rowb = d->trow + 4 * k1;
    const uint32_t lpa = (uint32_t)d->tplink[k], lpb = (uint32_t)d->tplink[k1];
    ST(rowa, rowb, 0, -nx + geo * tkn * tx);
    ST(rowa, rowb, 1, -ny + geo * tkn * ty);
    ST(rowa, rowb, 2, c + nx * ux + ny * uy);
    ST(rowa, rowb, 3, V2(d->alpha[lpa] * ih2, d->alpha[lpb] * ih2) + nx * knx + ny * kny);
}

#undef V2
#undef ST

#endif
