/* The vertical plane through a chain's two ends (analysis/catenary.h): 3D points to the plane
 * coordinates the curve, the chain and the fit work in, and back. */
#include "analysis/catenary.h"

#include <math.h>

int catenary_plane_init(struct catenary_plane *pl, vec3 a, vec3 b, vec3 gravity,
                        struct catena_error *err)
{
    const double gl = v3_len(gravity);
    if (!(gl > 0) || !isfinite(gl))
        return error_set(err, CATENA_EINPUT,
                         "gravity is zero or not finite: there is no vertical plane");
    const vec3 up = v3_scale(gravity, -1 / gl), d = v3_sub(b, a);
    vec3 hor = v3_sub(d, v3_scale(up, v3_dot(d, up)));
    hor = v3_sub(hor, v3_scale(up, v3_dot(hor, up))); /* again: orthogonal to round-off */
    const double hl = v3_len(hor);
    if (!(hl > 1e-12 * v3_len(d)))
        return error_set(err, CATENA_EINPUT,
                         "the ends are vertically above each other: no vertical plane "
                         "through them");
    pl->origin = a;
    pl->u = v3_scale(hor, 1 / hl);
    pl->v = up;
    pl->w = v3_cross(pl->u, pl->v);
    return CATENA_OK;
}

vec3 catenary_plane_to2d(const struct catenary_plane *pl, vec3 p)
{
    const vec3 d = v3_sub(p, pl->origin);
    return v3(v3_dot(pl->u, d), v3_dot(pl->v, d), v3_dot(pl->w, d));
}

vec3 catenary_plane_to3d(const struct catenary_plane *pl, vec3 q)
{
    return v3_add(pl->origin,
                  v3_add(v3_scale(pl->u, q.x), v3_add(v3_scale(pl->v, q.y), v3_scale(pl->w, q.z))));
}
