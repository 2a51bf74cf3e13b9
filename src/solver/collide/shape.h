/* Private to the collision code: one table of operations per obstacle shape (Chipmunk-style
 * dispatch), each in its own collide_<shape>.c. Shapes work in world coordinates; boxes and
 * bounds turn points into their own frame with the rotation stored in the obstacle. */
#ifndef CATENA_COLLIDE_SHAPE_H
#define CATENA_COLLIDE_SHAPE_H

#include "model/model.h"

/* A start within this fraction of the grown size of the surface counts as on it. */
#define SURFACE_SLACK 1e-9

struct collide_shape {
    /* Signed distance from x to the surface, positive on the free side, and the unit normal
     * towards the free side at the nearest surface point. */
    double (*distance)(const struct obstacle *o, vec3 x, vec3 *n);
    /* Where the segment a -> b first enters the shape grown by r: 1 with *tau in [0, 1] and
     * the outward normal there, or 0 when it starts inside or misses. NULL for shapes that
     * cannot be passed through (a half-space, the inside of bounds). */
    int (*sweep)(const struct obstacle *o, vec3 a, vec3 b, double r, double *tau, vec3 *n);
    /* Pushes x, a sphere of radius r, onto the free side: returns 1 with the normal and the
     * depth removed, or 0 when x is clear. NULL: along the distance's normal. */
    int (*push)(const struct obstacle *o, double r, vec3 *x, vec3 *n, double *depth);
};

extern const struct collide_shape collide_plane, collide_sphere, collide_box, collide_capsule,
    collide_bounds;

/* The ray-sphere entry shared by spheres and capsule ends: segment a -> b against the ball
 * of radius rho about c. Same contract as sweep. */
int collide_sweep_ball(vec3 c, double rho, vec3 a, vec3 b, double *tau, vec3 *n);

/* Box frame helpers: world -> local (transpose of rot) and local -> world. */
vec3 collide_to_local(const struct obstacle *o, vec3 x);
vec3 collide_to_world(const struct obstacle *o, vec3 v);

#endif
