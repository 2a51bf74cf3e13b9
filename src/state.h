/* The dynamic state of a simulation (MuJoCo's mjData): what changes while stepping.
 * Created from a model; the solver reads the model and writes only the state. */
#ifndef CATENA_STATE_H
#define CATENA_STATE_H

#include <stddef.h>

#include "model.h"

struct collide_work; /* collide.c: contacts, broad phase and self-collision scratch */

struct state {
    size_t npoints, nlinks;
    vec3 *x;              /* [npoints] positions, m */
    vec3 *xprev;          /* [npoints] positions one substep ago (Verlet), m */
    unsigned char *alive; /* [nlinks] 1 while the link holds, 0 once broken */
    long step;            /* steps completed */
    double t;             /* simulated time, s (= step * dt) */

    /* Allocated with the state: contacts and hashes (NULL without collisions). */
    struct collide_work *collide;
};

/* Allocates a state at t = 0 from the model's initial positions and velocities;
 * xprev is set so that Verlet reproduces constant acceleration exactly. NULL on OOM. */
struct state *state_create(const struct model *m);

/* NULL is a no-op. */
void state_destroy(struct state *s);

/* The velocity of point i over the last substep, m/s (Verlet: (x - xprev) / h). */
vec3 state_velocity(const struct model *m, const struct state *s, size_t i);

/* Gives point i velocity v without moving it (Verlet: xprev = x - v h). */
void state_set_velocity(const struct model *m, struct state *s, size_t i, vec3 v);

#endif
