/* Collisions of points (spheres of their radius) with obstacles and, for bodies that ask for
 * it, with themselves. Per substep: collide_begin, then collide_pass on the iterations
 * collide_due picks (interleaved with the constraints, as in Jakobsen 2001; friction and
 * bounces are projected there too), then collide_respond sets the velocities the contacts
 * of the substep leave, without moving a point. */
#ifndef CATENA_COLLIDE_H
#define CATENA_COLLIDE_H

#include "model/model.h"

struct state;
struct collide_work; /* contacts, broad phase and self-collision scratch (collide.c) */

/* Allocates the scratch a state needs for m's obstacles and self-collision (contacts, the
 * broad phase's groups, the spatial hash) into *out; *out is NULL when m has neither.
 * Returns 0, or -1 when out of memory. */
int collide_work_create(const struct model *m, struct collide_work **out);

/* NULL is a no-op. */
void collide_work_destroy(struct collide_work *w);

/* Whether iteration it (0-based) of a substep solves collisions: the first, every
 * collide_every-th after it, and always the last, so a step ends collision-free. */
static inline int collide_due(const struct model *m, int it)
{
    return it % m->collide_every == 0 || it == m->iterations - 1;
}

/* Starts a substep: forgets the last substep's contacts, rebuilds the self-collision hash. */
void collide_begin(const struct model *m, struct state *s);

/* Pushes points apart (self-collision, with the body's friction) and out of obstacles. A
 * point that entered a solid obstacle during the substep is stopped at the face it came
 * through (swept test from its previous position), so a thin obstacle cannot be tunnelled
 * through. Every point that has touched an obstacle in the substep then gets the contact's
 * Coulomb friction (it sticks while its tangential displacement since the substep's start is
 * within mu_s times the normal displacement the contact removed, and otherwise slides with
 * mu_k times it removed) and, after a fast impact (over 2 |g| h) with restitution, is held at
 * or above the height its bounce reaches at the end of the substep. */
void collide_pass(const struct model *m, struct state *s);

/* The points that have touched an obstacle in this substep (*points, in the order they first
 * did); valid until the next collide_pass or collide_begin. */
size_t collide_touched(const struct state *s, const uint32_t **points);

/* Touched point i's resting contact as the half-space n . x >= off (the tangent plane where
 * the latest push left it, n towards the free side) and its obstacle's friction: 1, or 0 for
 * a point that bounces off or that two obstacles pushed in this substep (one plane would be
 * the one and then the other pass after pass, each fighting the other obstacle's push). */
int collide_contact_plane(const struct model *m, const struct state *s, uint32_t i, vec3 *n,
                          double *off, struct friction *f);

/* Whether a global solve now holds touched point i on its contact, friction included
 * (solver/direct/direct.h): the pass then leaves its friction to the solve, and still pushes
 * it out of whatever it has entered. */
void collide_contact_held(struct state *s, uint32_t i, int held);

/* After the iterations: for each point that touched an obstacle, sets its velocity (and
 * previous position) and leaves its position: the tangential part is what friction left of
 * the displacement; along the normal, a bounce's velocity, or for a resting contact only
 * the motion beyond the surface (a push out of it is a correction, not a velocity). */
void collide_respond(const struct model *m, struct state *s);

/* The inverse masses for the contact phase (solver.shock_iterations): the model's, with 0 at
 * every point that has touched an obstacle in this substep, so the internal constraints treat
 * contact points as pins and the rest of a body settles onto them (shock propagation,
 * Guendelman, Bridson and Fedkiw 2003). m->inv_mass itself while nothing has touched, or
 * without the phase. Valid until the next collide_begin. */
const double *collide_frozen_masses(const struct model *m, struct state *s);

/* Point-obstacle tests the narrow phase has run since the state was created (the broad
 * phase's effect, for tests and diagnostics). */
unsigned long collide_narrow_tests(const struct state *s);

/* Signed distance from x to o's surface, positive on the free side (outside a solid, inside
 * bounds), with the unit normal towards the free side in *n (may be NULL). */
double collide_distance(const struct obstacle *o, vec3 x, vec3 *n);

#endif
