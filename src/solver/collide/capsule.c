/* Capsule obstacles: the segment p..q thickened by r. Distance to the nearest point of the
 * segment; the sweep takes the first entry into the union of the side (an infinite cylinder
 * clipped to the segment's span) and the two end balls. */
#include <math.h>

#include "solver/collide/shape.h"

/* Parameter in [0, 1] of the point of p..q nearest x. */
static double nearest_param(const struct obstacle *o, vec3 x)
{
    const vec3 ba = v3_sub(o->q, o->p);
    const double len2 = v3_dot(ba, ba);
    if (len2 == 0.0)
        return 0.0;
    const double t = v3_dot(v3_sub(x, o->p), ba) / len2;
    return t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
}

static double capsule_distance(const struct obstacle *o, vec3 x, vec3 *n)
{
    const vec3 c = v3_add(o->p, v3_scale(v3_sub(o->q, o->p), nearest_param(o, x)));
    const vec3 d = v3_sub(x, c);
    const double len = v3_len(d);
    *n = len > 0.0 ? v3_scale(d, 1.0 / len) : v3(0, 1, 0);
    return len - o->r;
}

/* Entry into the side: |(a + t d - p) x axis| = rho with the foot inside the span. */
static int side_entry(const struct obstacle *o, double rho, vec3 a, vec3 b, double *tau)
{
    const vec3 ba = v3_sub(o->q, o->p), d = v3_sub(b, a), oa = v3_sub(a, o->p);
    const double baba = v3_dot(ba, ba), bard = v3_dot(ba, d), baoa = v3_dot(ba, oa);
    const double A = baba * v3_dot(d, d) - bard * bard;
    const double B = baba * v3_dot(d, oa) - baoa * bard;
    const double C = baba * v3_dot(oa, oa) - baoa * baoa - rho * rho * baba;
    /* Parallel to the axis, starting inside the infinite cylinder, or moving away. */
    if (A <= 0.0 || C <= 0.0 || B >= 0.0)
        return 0;
    const double disc = B * B - A * C;
    if (disc < 0.0)
        return 0;
    const double t = (-B - sqrt(disc)) / A;
    const double y = baoa + t * bard;
    if (t < 0.0 || t > 1.0 || y < 0.0 || y > baba)
        return 0;
    *tau = t;
    return 1;
}

static int capsule_sweep(const struct obstacle *o, vec3 a, vec3 b, double r, double *tau, vec3 *n)
{
    const double rho = o->r + r;
    vec3 dummy;
    const double d0 = capsule_distance(o, a, &dummy);
    if (d0 < r - rho * SURFACE_SLACK)
        return 0; /* deep inside: left to the push-out */
    if (d0 <= r) {
        /* On the surface (a resting point): enters at once if it moves inwards. */
        if (v3_dot(v3_sub(b, a), dummy) >= 0.0)
            return 0;
        *tau = 0.0;
        *n = dummy;
        return 1;
    }
    double best = INFINITY, t;
    if (side_entry(o, rho, a, b, &t))
        best = t;
    if (collide_sweep_ball(o->p, rho, a, b, &t, &dummy) && t < best)
        best = t;
    if (collide_sweep_ball(o->q, rho, a, b, &t, &dummy) && t < best)
        best = t;
    if (best == INFINITY)
        return 0;
    *tau = best;
    const vec3 hit = v3_add(a, v3_scale(v3_sub(b, a), best));
    capsule_distance(o, hit, n);
    return 1;
}

const struct collide_shape collide_capsule = {
    .distance = capsule_distance,
    .sweep = capsule_sweep,
};
