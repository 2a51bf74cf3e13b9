/* Box obstacles: a solid box with centre p, half extents `half` and axes rot (2D: a rotated
 * rectangle, z unbounded). Distance is the exact box SDF in the box's frame; the sweep is the
 * slab test against the box grown by r (square-cornered, so a corner is met up to
 * r (sqrt 2 - 1) early: conservative, and never lets a point through). */
#include <math.h>

#include "core/clamp.h"
#include "solver/collide/shape.h"

vec3 collide_to_local(const struct obstacle *o, vec3 x)
{
    const double(*R)[3] = o->rot;
    return v3(R[0][0] * x.x + R[1][0] * x.y + R[2][0] * x.z,
              R[0][1] * x.x + R[1][1] * x.y + R[2][1] * x.z,
              R[0][2] * x.x + R[1][2] * x.y + R[2][2] * x.z);
}

vec3 collide_to_world(const struct obstacle *o, vec3 v)
{
    const double(*R)[3] = o->rot;
    return v3(R[0][0] * v.x + R[0][1] * v.y + R[0][2] * v.z,
              R[1][0] * v.x + R[1][1] * v.y + R[1][2] * v.z,
              R[2][0] * v.x + R[2][1] * v.y + R[2][2] * v.z);
}

static vec3 axis_vec(int k, double sign)
{
    return v3(k == 0 ? sign : 0.0, k == 1 ? sign : 0.0, k == 2 ? sign : 0.0);
}

static double box_distance(const struct obstacle *o, vec3 x, vec3 *n)
{
    const vec3 l = collide_to_local(o, v3_sub(x, o->p));
    const vec3 c = v3(clamp(l.x, -o->half.x, o->half.x), clamp(l.y, -o->half.y, o->half.y),
                      clamp(l.z, -o->half.z, o->half.z));
    const vec3 d = v3_sub(l, c);
    const double out = v3_len(d);
    if (out > 0.0) {
        *n = collide_to_world(o, v3_scale(d, 1.0 / out));
        return out;
    }
    /* Inside: the nearest face is the one with the least depth; ties go to the lower axis. */
    int best = 0;
    double depth = INFINITY;
    for (int k = 0; k < 3; k++) {
        const double dk = v3_comp(o->half, k) - fabs(v3_comp(l, k));
        if (dk < depth) {
            depth = dk;
            best = k;
        }
    }
    *n = collide_to_world(o, axis_vec(best, v3_comp(l, best) < 0.0 ? -1.0 : 1.0));
    return -depth;
}

static int box_sweep(const struct obstacle *o, vec3 a, vec3 b, double r, double *tau, vec3 *n)
{
    const vec3 la = collide_to_local(o, v3_sub(a, o->p));
    const vec3 d = v3_sub(collide_to_local(o, v3_sub(b, o->p)), la);
    double tmin = -INFINITY, tmax = INFINITY;
    int axis = -1;
    double sign = 1.0;
    for (int k = 0; k < 3; k++) {
        const double hk = v3_comp(o->half, k) + r, ak = v3_comp(la, k), dk = v3_comp(d, k);
        if (isinf(hk))
            continue;
        if (dk == 0.0) {
            if (fabs(ak) > hk)
                return 0;
            continue;
        }
        double t1 = (-hk - ak) / dk, t2 = (hk - ak) / dk;
        if (t1 > t2) {
            const double tt = t1;
            t1 = t2;
            t2 = tt;
        }
        if (t1 > tmin) {
            tmin = t1;
            axis = k;
            sign = dk > 0.0 ? -1.0 : 1.0;
        }
        if (t2 < tmax)
            tmax = t2;
    }
    if (axis < 0 || tmin > tmax || tmax < 0.0 || tmin > 1.0)
        return 0;
    /* Starting inside the grown box is left to the push-out, but a start on its surface (a
     * point resting on a face, up to round-off) enters at once: else the push-out could
     * send a point that the rope drives deep into a thin box out through the far face. */
    if (tmin < 0.0) {
        if (fabs(v3_comp(la, axis)) < (v3_comp(o->half, axis) + r) * (1.0 - SURFACE_SLACK))
            return 0;
        tmin = 0.0;
    }
    *tau = tmin;
    *n = collide_to_world(o, axis_vec(axis, sign));
    return 1;
}

const struct collide_shape collide_box = {
    .distance = box_distance,
    .sweep = box_sweep,
};
