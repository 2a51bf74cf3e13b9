/* The per-point kernel shared by the tree's Newton step (solver/direct/tree.c) and its trial
 * steps (solver/direct/trial.c): a link's geometry seen from one of its ends. Static inline, so
 * that each hot loop keeps it in its own translation unit and unrolls it with the rest. */
#ifndef CATENA_DIRECT_GEOMETRY_H
#define CATENA_DIRECT_GEOMETRY_H

#include <math.h>
#include <stdint.h>

#include "model/model.h"
#include "solver/direct/internal.h"

/* The per-point kernels, instantiated for 2 and 3 dimensions so that their small loops
 * unroll: they are the whole cost of a tree iteration. */
#define KERNEL static inline __attribute__((always_inline))
#define UNROLL _Pragma("GCC unroll 4")

/* A link's geometry seen from one of its ends p. */
struct link_geo {
    double j[3]; /* its Jacobian at p: +n at its end b, -n at its end a */
    double c;    /* C + a l, m */
    double geo;  /* geometric stiffness: tension / length, N s^2 / m^2 (0 in compression) */
    double lam;  /* the multiplier it was evaluated with, N s^2 */
};

/* Link l's geometry from its end p at x_p, its other end at x_o, with multiplier lam. */
KERNEL void link_geometry(const struct direct *d, const struct model *m, uint32_t l, uint32_t p,
                          vec3 xp, vec3 xo, double lam, double ih2, struct link_geo *out)
{
    const vec3 v = v3_sub(xp, xo);
    const double len = v3_len(v);
    const vec3 n = len > 0.0 ? v3_scale(v, 1.0 / len) : v3(m->links[l].b == p ? 1 : -1, 0, 0);
    out->j[0] = n.x; /* v points from the other end to p: +n at b, -n at a either way */
    out->j[1] = n.y;
    out->j[2] = n.z;
    out->c = len - m->links[l].rest + d->alpha[l] * ih2 * lam;
    out->geo = lam < 0.0 && len > 0.0 ? -lam / len : 0.0;
    out->lam = lam;
}

/* link_geometry() in the plane (z ignored), with one division: the direction and the tension's
 * stiffness share the length's reciprocal. */
KERNEL void link_plane(const struct direct *d, const struct model *m, uint32_t l, uint32_t p,
                       vec3 xp, vec3 xo, double lam, double ih2, struct link_geo *out)
{
    const double vx = xp.x - xo.x, vy = xp.y - xo.y;
    const double len = sqrt(vx * vx + vy * vy);
    if (len > 0.0) {
        const double il = 1.0 / len;
        out->j[0] = vx * il;
        out->j[1] = vy * il;
        out->geo = lam < 0.0 ? -lam * il : 0.0;
    } else {
        out->j[0] = m->links[l].b == p ? 1 : -1;
        out->j[1] = 0.0;
        out->geo = 0.0;
    }
    out->j[2] = 0.0;
    out->c = len - m->links[l].rest + d->alpha[l] * ih2 * lam;
    out->lam = lam;
}

/* Pairs of doubles (GCC/clang vector extensions), for the kernels that take two points at once
 * lane by lane: each lane does the scalar kernel's operations in its order, the same bits. */
typedef double v2d __attribute__((vector_size(16)));
typedef long long v2di __attribute__((vector_size(16)));
#define V2(e0, e1) ((v2d){(e0), (e1)})

/* Two links' geometry in the plane, lane by lane. */
struct link_pair {
    v2d nx, ny; /* the Jacobian at p */
    v2d geo;    /* geometric stiffness */
    v2d c;      /* C + a l */
    v2d lam;    /* the multiplier it was evaluated with */
    v2d aih;    /* compliance / h^2 */
};

/* link_plane() for links la and lb from their ends pa and pb, with v = x_p - x_o and
 * multipliers lam: the reciprocals of the lengths in one division of pairs (a link of zero
 * length: link_plane() itself, for its fallback direction). */
KERNEL void link_plane2(const struct direct *d, const struct model *m, uint32_t la, uint32_t lb,
                        uint32_t pa, uint32_t pb, v2d vx, v2d vy, v2d lam, double ih2,
                        struct link_pair *out)
{
    const v2d l2 = vx * vx + vy * vy, len = V2(sqrt(l2[0]), sqrt(l2[1]));
    out->lam = lam;
    out->aih = V2(d->alpha[la], d->alpha[lb]) * ih2;
    out->c = len - V2(m->links[la].rest, m->links[lb].rest) + out->aih * lam;
    if (len[0] > 0.0 && len[1] > 0.0) {
        const v2d il = 1.0 / len, g = -lam * il;
        out->nx = vx * il;
        out->ny = vy * il;
        out->geo = (v2d)((v2di)g & (v2di)(lam < 0.0)); /* -lam / len in tension, else +0 */
        return;
    }
    struct link_geo ga, gb;
    link_plane(d, m, la, pa, v3(vx[0], vy[0], 0.0), v3(0.0, 0.0, 0.0), lam[0], ih2, &ga);
    link_plane(d, m, lb, pb, v3(vx[1], vy[1], 0.0), v3(0.0, 0.0, 0.0), lam[1], ih2, &gb);
    out->nx = V2(ga.j[0], gb.j[0]);
    out->ny = V2(ga.j[1], gb.j[1]);
    out->geo = V2(ga.geo, gb.geo);
}

#endif
