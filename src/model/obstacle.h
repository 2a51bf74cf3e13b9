/* Obstacles: the static shapes points collide with (solver/collide/collide.h does the
 * colliding). Their description belongs to the model, so that the scenario loader, the
 * solver and the renderers share one definition, one list of names and one bounding box. */
#ifndef CATENA_OBSTACLE_H
#define CATENA_OBSTACLE_H

#include <stdint.h>

#include "core/vec.h"

/* Coulomb friction of a contact, applied as positions (Macklin et al. 2014, "Unified particle
 * physics", eq. 24; Mueller et al. 2020, "Detailed rigid body simulation with XPBD"): over a
 * substep, a contact whose tangential displacement is at most stat times the normal
 * displacement its contact removed sticks (the tangential displacement is undone); beyond
 * that it slides, the tangential displacement shortened by dyn times the normal one. */
struct friction {
    double stat; /* mu_s, the static coefficient, >= 0 */
    double dyn;  /* mu_k, the dynamic (kinetic) coefficient, 0 <= dyn <= stat */
};

/* Each point collides as a sphere of its radius. */
enum obstacle_type {
    OBSTACLE_PLANE,   /* the half-space behind the plane through p with unit normal n */
    OBSTACLE_SPHERE,  /* a ball of radius r about p */
    OBSTACLE_BOX,     /* a solid box: centre p, half extents half, axes rot */
    OBSTACLE_CAPSULE, /* the segment p..q thickened by r */
    OBSTACLE_BOUNDS,  /* the inside of a box (centre p, half, rot): points are kept in */
};

struct obstacle {
    uint8_t type;             /* enum obstacle_type */
    vec3 p, q;                /* m: plane point, centre, or capsule ends */
    vec3 n;                   /* plane: unit outward normal */
    vec3 half;                /* box, bounds: half extents, m (2D: z is INFINITY) */
    double rot[3][3];         /* box, bounds: column k is the box's k-th axis in world space */
    double r;                 /* sphere, capsule: radius, m */
    struct friction friction; /* Coulomb coefficients; {0, 0}: frictionless */
    double restitution;       /* 0..1: fraction of the normal velocity reflected */
    vec3 lo, hi;              /* world bounding box for the broad phase (planes: infinite) */
};

/* The type names as scenarios write them, indexed by enum obstacle_type, NULL-terminated. */
extern const char *const obstacle_type_names[];

/* Fills o->lo, o->hi from its shape, for the broad phase: infinite for a plane; for a box
 * or bounds, the extent sum_k |rot[i][k]| half_k along each world axis i. */
void obstacle_bounds(struct obstacle *o);

#endif
