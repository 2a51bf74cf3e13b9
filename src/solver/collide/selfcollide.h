/* Self-collision of bodies with bodies[].self_collision: ropes and hair keep non-adjacent
 * segments (links that share no point) at least 2 radius apart, other bodies keep their
 * points 2 radius apart, with an inequality constraint projected like any other (Mueller et
 * al. 2007). Candidates come from a spatial hash (Teschner et al. 2003) rebuilt once a
 * substep, so the cost stays near O(n). Everything is allocated before stepping. */
#ifndef CATENA_SELFCOLLIDE_H
#define CATENA_SELFCOLLIDE_H

#include "model/model.h"
#include "solver/state.h"

struct selfcollide;

/* Allocates for m's self-colliding bodies into *out (NULL when there are none). Returns 0,
 * or -1 when out of memory. */
int selfcollide_create(const struct model *m, struct selfcollide **out);

/* NULL is a no-op. */
void selfcollide_destroy(struct selfcollide *sc);

/* Hashes every segment (by its midpoint) or point at the start of a substep. */
void selfcollide_build(const struct model *m, const struct state *s, struct selfcollide *sc);

/* One Gauss-Seidel sweep over the candidate pairs closer than 2 radius. */
void selfcollide_project(const struct model *m, struct state *s, struct selfcollide *sc);

/* Whether body b collides by segments (ropes, hair) rather than by points. */
int selfcollide_by_segments(const struct body *b);

#endif
