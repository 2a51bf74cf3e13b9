/* Sphere obstacles: a solid ball of radius r about p. The sweep solves |a + t (b - a) - c| =
 * rho for its smaller root (the entry), exactly. */
#include <math.h>

#include "solver/collide/shape.h"

static double sphere_distance(const struct obstacle *o, vec3 x, vec3 *n)
{
    const vec3 d = v3_sub(x, o->p);
    const double len = v3_len(d);
    /* At the centre every direction is as near: take +y, the usual up. */
    *n = len > 0.0 ? v3_scale(d, 1.0 / len) : v3(0, 1, 0);
    return len - o->r;
}

int collide_sweep_ball(vec3 c, double rho, vec3 a, vec3 b, double *tau, vec3 *n)
{
    const vec3 d = v3_sub(b, a), f = v3_sub(a, c);
    const double A = v3_dot(d, d), B = v3_dot(f, d), C = v3_dot(f, f) - rho * rho;
    /* Not moving towards the ball: no entry. */
    if (B >= 0.0 || A == 0.0)
        return 0;
    /* A start on the surface (up to round-off: a resting point) enters at once; a start
     * inside is left to the push-out. */
    if (C <= 0.0) {
        const double len = v3_len(f);
        if (len < rho * (1.0 - SURFACE_SLACK) || len == 0.0)
            return 0;
        *tau = 0.0;
        *n = v3_scale(f, 1.0 / len);
        return 1;
    }
    const double disc = B * B - A * C;
    if (disc < 0.0)
        return 0;
    const double t = (-B - sqrt(disc)) / A;
    if (t < 0.0 || t > 1.0)
        return 0;
    *tau = t;
    *n = v3_scale(v3_add(f, v3_scale(d, t)), 1.0 / rho);
    return 1;
}

static int sphere_sweep(const struct obstacle *o, vec3 a, vec3 b, double r, double *tau, vec3 *n)
{
    return collide_sweep_ball(o->p, o->r + r, a, b, tau, n);
}

const struct collide_shape collide_sphere = {
    .distance = sphere_distance,
    .sweep = sphere_sweep,
};
