/* Plane obstacles: the solid half-space behind a plane through p with unit normal n. A
 * half-space has no far side, so pushing along n is always right and no sweep is needed. */
#include "solver/collide/shape.h"

static double plane_distance(const struct obstacle *o, vec3 x, vec3 *n)
{
    *n = o->n;
    return v3_dot(v3_sub(x, o->p), o->n);
}

const struct collide_shape collide_plane = {
    .distance = plane_distance,
};
