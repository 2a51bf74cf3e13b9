/* Obstacle names and bounding boxes (see model/obstacle.h). */
#include "model/obstacle.h"

#include <math.h>
#include <stddef.h>

const char *const obstacle_type_names[] = {"plane", "sphere", "box", "capsule", "bounds", NULL};

/* The world box of a box (centre p, half, rot). */
static void box_bounds(struct obstacle *o)
{
    double e[3];
    const double h[3] = {o->half.x, o->half.y, o->half.z};
    for (int i = 0; i < 3; i++) {
        e[i] = 0.0;
        /* Skipping zero entries keeps a 2D box (half.z infinite) finite in x and y. */
        for (int k = 0; k < 3; k++)
            if (o->rot[i][k] != 0.0)
                e[i] += fabs(o->rot[i][k]) * h[k];
    }
    o->lo = v3(o->p.x - e[0], o->p.y - e[1], o->p.z - e[2]);
    o->hi = v3(o->p.x + e[0], o->p.y + e[1], o->p.z + e[2]);
}

void obstacle_bounds(struct obstacle *o)
{
    switch ((enum obstacle_type)o->type) {
    case OBSTACLE_PLANE: /* unbounded: the broad phase tests planes by the support point */
        o->lo = v3(-INFINITY, -INFINITY, -INFINITY);
        o->hi = v3(INFINITY, INFINITY, INFINITY);
        return;
    case OBSTACLE_SPHERE:
        o->lo = v3_sub(o->p, v3(o->r, o->r, o->r));
        o->hi = v3_add(o->p, v3(o->r, o->r, o->r));
        return;
    case OBSTACLE_CAPSULE:
        o->lo = v3(fmin(o->p.x, o->q.x) - o->r, fmin(o->p.y, o->q.y) - o->r,
                   fmin(o->p.z, o->q.z) - o->r);
        o->hi = v3(fmax(o->p.x, o->q.x) + o->r, fmax(o->p.y, o->q.y) + o->r,
                   fmax(o->p.z, o->q.z) + o->r);
        return;
    case OBSTACLE_BOX:
    case OBSTACLE_BOUNDS:
        box_bounds(o);
        return;
    }
}
