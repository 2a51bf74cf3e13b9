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

#endif
