/* A tree component's trial steps (solver/direct/trial.h): one pass from the leaves evaluates
 * the KKT residual, the objective and the violation at x + alpha dx, l + alpha dl without
 * moving anything, each point's residual g collecting its children's link forces on the way
 * up, as the elimination does; the line search (solver/direct/search.c) asks for a few. */
#include "solver/direct/trial.h"

#include <math.h>

#include "solver/direct/geometry.h"
#include "solver/direct/internal.h"

/* Point k's g at x + alpha dx, l + alpha dl, with its children's shares from gtrial; adds its
 * parent link's share to the parent's, and its parts of the measures to *r. */
KERNEL void trial_point(struct direct *d, const struct model *m, const vec3 *x, size_t k,
                        double alpha, double ih2, struct direct_measure *r)
{
    const uint32_t p = d->order[k];
    const int32_t q = d->tparent[k];
    const double mass = d->tmass[k];
    const vec3 xp = v3_add(x[p], v3_scale(d->tdx[k], alpha));
    double *gt = d->tgtrial + 3 * k;
    vec3 g = v3_add(v3(gt[0], gt[1], gt[2]), v3_scale(v3_sub(xp, d->xpred[p]), mass));
    gt[0] = gt[1] = gt[2] = 0.0;
    for (uint32_t s = d->tpin_first[k]; s < d->tpin_first[k + 1]; s++) {
        const uint32_t l = d->tpin[s];
        const uint32_t o = m->links[l].a == p ? m->links[l].b : m->links[l].a;
        struct link_geo lg;
        link_geometry(d, m, l, p, xp, x[o], d->lambda[l] + alpha * d->dlam[l], ih2, &lg);
        g = v3_sub(g, v3_scale(v3(lg.j[0], lg.j[1], lg.j[2]), lg.lam));
        r->kkt += lg.c * lg.c;
        r->c1 += fabs(lg.c);
    }
    if (q >= 0) {
        const uint32_t l = d->tplink[k];
        const vec3 xq = v3_add(x[d->order[q]], v3_scale(d->tdx[q], alpha));
        struct link_geo lg;
        link_geometry(d, m, l, p, xp, xq, d->lambda[l] + alpha * d->dlam[l], ih2, &lg);
        const vec3 jl = v3_scale(v3(lg.j[0], lg.j[1], lg.j[2]), lg.lam);
        g = v3_sub(g, jl);
        double *gq = d->tgtrial + 3 * (size_t)q;
        gq[0] += jl.x;
        gq[1] += jl.y;
        gq[2] += jl.z;
        r->kkt += lg.c * lg.c;
        r->c1 += fabs(lg.c);
    }
    const vec3 e = v3_sub(xp, d->xpred[p]);
    r->kkt += v3_dot(g, g) / (mass * mass);
    r->f += 0.5 * mass * v3_dot(e, e);
}

/* trial_point() in the plane (model dims 2): the same measures, without z and with one
 * division a link. */
KERNEL void trial_plane(struct direct *d, const struct model *m, const vec3 *x, size_t k,
                        double alpha, double ih2, struct direct_measure *r)
{
    const uint32_t p = d->order[k];
    const int32_t q = d->tparent[k];
    const double mass = d->tmass[k], im = m->inv_mass[p];
    const vec3 xp = v3(x[p].x + alpha * d->tdx[k].x, x[p].y + alpha * d->tdx[k].y, 0.0);
    const double ex = xp.x - d->xpred[p].x, ey = xp.y - d->xpred[p].y;
    double *gt = d->tgtrial + 3 * k, gx = gt[0] + mass * ex, gy = gt[1] + mass * ey;
    gt[0] = gt[1] = 0.0;
    for (uint32_t s = d->tpin_first[k]; s < d->tpin_first[k + 1]; s++) {
        const uint32_t l = d->tpin[s];
        const uint32_t o = m->links[l].a == p ? m->links[l].b : m->links[l].a;
        struct link_geo lg;
        link_plane(d, m, l, p, xp, x[o], d->lambda[l] + alpha * d->dlam[l], ih2, &lg);
        gx -= lg.j[0] * lg.lam;
        gy -= lg.j[1] * lg.lam;
        r->kkt += lg.c * lg.c;
        r->c1 += fabs(lg.c);
    }
    if (q >= 0) {
        const uint32_t l = d->tplink[k];
        const vec3 xq =
            v3(x[d->order[q]].x + alpha * d->tdx[q].x, x[d->order[q]].y + alpha * d->tdx[q].y, 0.0);
        struct link_geo lg;
        link_plane(d, m, l, p, xp, xq, d->lambda[l] + alpha * d->dlam[l], ih2, &lg);
        const double jx = lg.j[0] * lg.lam, jy = lg.j[1] * lg.lam;
        gx -= jx;
        gy -= jy;
        double *gq = d->tgtrial + 3 * (size_t)q;
        gq[0] += jx;
        gq[1] += jy;
        r->kkt += lg.c * lg.c;
        r->c1 += fabs(lg.c);
    }
    r->kkt += (gx * gx + gy * gy) * (im * im);
    r->f += 0.5 * mass * (ex * ex + ey * ey);
}

/* Whether points k - 1 and k (k above the component's first) can be measured together: each
 * with a parent and no pin, neither the other's parent. */
static inline int trial_pairs(const struct direct *d, size_t k)
{
    return d->tpin_first[k - 1] == d->tpin_first[k + 1] && d->tparent[k - 1] >= 0 &&
           d->tparent[k] >= 0 && d->tparent[k] != (int32_t)(k - 1);
}

/* trial_plane() for points k - 1 (lane 0) and k (lane 1), as trial_pairs() allows, lane by
 * lane; what they add to their parents and to *r added point by point as there (k first). */
KERNEL void trial_plane2(struct direct *d, const struct model *m, const vec3 *x, size_t k,
                         double alpha, double ih2, struct direct_measure *r)
{
    const size_t ka = k - 1, qa = (size_t)d->tparent[ka], qb = (size_t)d->tparent[k];
    const uint32_t pa = d->order[ka], pb = d->order[k], oa = d->order[qa], ob = d->order[qb];
    const uint32_t la = (uint32_t)d->tplink[ka], lb = (uint32_t)d->tplink[k];
    const vec3 *dx = d->tdx;
    const v2d mass = V2(d->tmass[ka], d->tmass[k]), im = V2(m->inv_mass[pa], m->inv_mass[pb]);
    const v2d px = V2(x[pa].x, x[pb].x) + alpha * V2(dx[ka].x, dx[k].x);
    const v2d py = V2(x[pa].y, x[pb].y) + alpha * V2(dx[ka].y, dx[k].y);
    const v2d ex = px - V2(d->xpred[pa].x, d->xpred[pb].x);
    const v2d ey = py - V2(d->xpred[pa].y, d->xpred[pb].y);
    double *ga = d->tgtrial + 3 * ka, *gb = d->tgtrial + 3 * k;
    v2d gx = V2(ga[0], gb[0]) + mass * ex, gy = V2(ga[1], gb[1]) + mass * ey;
    ga[0] = ga[1] = gb[0] = gb[1] = 0.0;
    const v2d qx = V2(x[oa].x, x[ob].x) + alpha * V2(dx[qa].x, dx[qb].x);
    const v2d qy = V2(x[oa].y, x[ob].y) + alpha * V2(dx[qa].y, dx[qb].y);
    const v2d lam = V2(d->lambda[la], d->lambda[lb]) + alpha * V2(d->dlam[la], d->dlam[lb]);
    struct link_pair lg;
    link_plane2(d, m, la, lb, pa, pb, px - qx, py - qy, lam, ih2, &lg);
    const v2d jx = lg.nx * lg.lam, jy = lg.ny * lg.lam;
    gx -= jx;
    gy -= jy;
    double *gqa = d->tgtrial + 3 * qa, *gqb = d->tgtrial + 3 * qb;
    gqb[0] += jx[1];
    gqb[1] += jy[1];
    gqa[0] += jx[0];
    gqa[1] += jy[0];
    const v2d cc = lg.c * lg.c, gg = (gx * gx + gy * gy) * (im * im);
    const v2d f = 0.5 * mass * (ex * ex + ey * ey);
    for (int lane = 1; lane >= 0; lane--) {
        r->kkt += cc[lane];
        r->c1 += fabs(lg.c[lane]);
        r->kkt += gg[lane];
        r->f += f[lane];
    }
}

struct direct_measure direct_trial_measure(struct direct *d, const struct model *m, const vec3 *x,
                                           size_t k0, size_t k1, double alpha, double ih2)
{
    struct direct_measure r = {0, 0, 0, 0};
    if (d->dims == 2)
        for (size_t k = k1; k-- > k0;)
            if (k > k0 && trial_pairs(d, k))
                trial_plane2(d, m, x, k--, alpha, ih2, &r);
            else
                trial_plane(d, m, x, k, alpha, ih2, &r);
    else
        for (size_t k = k1; k-- > k0;)
            trial_point(d, m, x, k, alpha, ih2, &r);
    return r;
}

void direct_trial_apply(struct direct *d, vec3 *x, size_t k0, size_t k1, double alpha)
{
    for (size_t k = k0; k < k1; k++) {
        x[d->order[k]] = v3_add(x[d->order[k]], v3_scale(d->tdx[k], alpha));
        for (uint32_t s = d->tpin_first[k]; s < d->tpin_first[k + 1]; s++)
            d->lambda[d->tpin[s]] += alpha * d->dlam[d->tpin[s]];
        if (d->tparent[k] >= 0)
            d->lambda[d->tplink[k]] += alpha * d->dlam[d->tplink[k]];
    }
}
