/* One fixed step of the position-based solver: the only entry point that changes a state.
 * Stages (per substep): integrate or predict -> hold pins -> relax constraints -> max-length
 * pass -> velocities; then, once per step, breaks. Methods: Jakobsen's Verlet ("Advanced
 * Character Physics", 2001), PBD (Mueller et al. 2007), XPBD (Macklin et al. 2016). */
#ifndef CATENA_SOLVER_H
#define CATENA_SOLVER_H

#include "model/model.h"
#include "solver/state.h"

/* Advances s by one step of m->dt (m->substeps substeps). Allocates nothing. Afterwards
 * s->broke[0..s->nbroke) lists the links that broke in this step. */
void solver_step(const struct model *m, struct state *s);

/* To be called after changing, between steps, a link's ends, rest length, stiffness,
 * compliance or kind, a point's inverse mass or s->alive (events do; breaks in solver_step
 * do it themselves): the batched kernel keeps the links it gathered until then. */
void solver_links_changed(struct state *s);

/* Index of the first point whose position is non-finite or beyond SOLVER_ABSURD metres,
 * or -1 when every position is usable. */
#define SOLVER_ABSURD 1e12
long solver_find_diverged(const struct state *s);

/* Largest length/rest over live links (1 = exactly at rest; 0 when there are none). */
double solver_max_stretch(const struct model *m, const struct state *s);

/* Velocity of point i, m/s: s->v for pbd and xpbd, (x - xprev) / h for verlet (the velocity
 * the next substep carries on, before damping). */
vec3 solver_velocity(const struct model *m, const struct state *s, size_t i);

/* Gives point i velocity v without moving it, as solver_velocity reads it back: xprev =
 * x - v h, and for pbd and xpbd v, so that either method carries v into the next substep. */
void solver_set_velocity(const struct model *m, struct state *s, size_t i, vec3 v);

/* Starts point i off at velocity v as state_create starts a point at v0: Verlet then follows
 * x + v t + g t^2 / 2 exactly (xprev = x - v h + g h^2 / 2); pbd and xpbd set v. For points
 * set free between steps (a release, a velocity event). */
void solver_launch(const struct model *m, struct state *s, size_t i, vec3 v);

#endif
