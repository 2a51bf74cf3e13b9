/* Bounds obstacles: the inside of a box (centre p, half extents, axes rot), the walls of the
 * world. A point is clamped, in the box's frame, into the box shrunk by its radius: exact
 * however far out it went, so no sweep is needed. */
#include <math.h>

#include "core/clamp.h"
#include "solver/collide/shape.h"

/* Positive inside: the distance to the nearest wall, and the normal pointing away from it. */
static double bounds_distance(const struct obstacle *o, vec3 x, vec3 *n)
{
    const vec3 l = collide_to_local(o, v3_sub(x, o->p));
    const double q[3] = {o->half.x - fabs(l.x), o->half.y - fabs(l.y), o->half.z - fabs(l.z)};
    const double c[3] = {l.x, l.y, l.z};
    int best = 0;
    for (int k = 1; k < 3; k++)
        if (q[k] < q[best])
            best = k;
    const double sign = c[best] < 0.0 ? 1.0 : -1.0;
    *n = collide_to_world(
        o, v3(best == 0 ? sign : 0.0, best == 1 ? sign : 0.0, best == 2 ? sign : 0.0));
    return q[best];
}

static int bounds_push(const struct obstacle *o, double r, vec3 *x, vec3 *n, double *depth)
{
    const vec3 l = collide_to_local(o, v3_sub(*x, o->p));
    /* A radius wider than the box leaves no room: the point goes to the centre plane. */
    const vec3 lim =
        v3(fmax(o->half.x - r, 0.0), fmax(o->half.y - r, 0.0), fmax(o->half.z - r, 0.0));
    const vec3 c =
        v3(clamp(l.x, -lim.x, lim.x), clamp(l.y, -lim.y, lim.y), clamp(l.z, -lim.z, lim.z));
    const vec3 d = v3_sub(c, l);
    const double len = v3_len(d);
    if (len == 0.0)
        return 0;
    *n = collide_to_world(o, v3_scale(d, 1.0 / len));
    *depth = len;
    /* Only the correction is added, so coordinates already inside stay bit for bit. */
    *x = v3_add(*x, collide_to_world(o, d));
    return 1;
}

const struct collide_shape collide_bounds = {
    .distance = bounds_distance,
    .push = bounds_push,
};
