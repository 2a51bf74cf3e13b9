/* A point's velocity as each method holds it: pbd and xpbd keep v; Verlet keeps it implicit in
 * x - xprev. Reading and setting it between steps, and inside the contact response. */
#ifndef CATENA_SOLVER_VELOCITY_H
#define CATENA_SOLVER_VELOCITY_H

#include <stddef.h>

#include "core/vec.h"
#include "model/model.h"

struct state;

/* Velocity of point i, m/s: s->v for pbd and xpbd, (x - xprev) / h for verlet (the velocity
 * the next substep carries on, before damping). */
vec3 velocity_get(const struct model *m, const struct state *s, size_t i);

/* Gives point i velocity v without moving it, as velocity_get reads it back: xprev =
 * x - v h, and for pbd and xpbd v, so that either method carries v into the next substep. */
void velocity_set(const struct model *m, struct state *s, size_t i, vec3 v);

/* Starts point i off at velocity v as state_create starts a point at v0: Verlet then follows
 * x + v t + g t^2 / 2 exactly (xprev = x - v h + g h^2 / 2); pbd and xpbd set v. For points
 * set free between steps (a release, a velocity event). */
void velocity_launch(const struct model *m, struct state *s, size_t i, vec3 v);

#endif
