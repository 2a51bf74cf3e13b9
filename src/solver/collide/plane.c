/* Plane obstacles: the solid half-space behind a plane through p with unit normal n. A
 * half-space has no far side, so pushing along n is always right and no sweep is needed. */
#include <math.h>

#include "solver/collide/shape.h"

static double plane_distance(const struct obstacle *o, vec3 x, vec3 *n)
{
    *n = o->n;
    return v3_dot(v3_sub(x, o->p), o->n);
}

/* A half-space is unbounded: the broad phase tests planes by the support point instead. */
static void plane_bounds(struct obstacle *o)
{
    o->lo = v3(-INFINITY, -INFINITY, -INFINITY);
    o->hi = v3(INFINITY, INFINITY, INFINITY);
}

const struct collide_shape collide_plane = {
    .distance = plane_distance,
    .bounds = plane_bounds,
};
