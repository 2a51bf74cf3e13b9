/* The max-length pass (solver/tether.c, solver.max_length_pass): after the iterations, every
 * free point farther from its nearest pinned point than the sum of rest lengths along the live
 * structural links between them is pulled back onto that distance, straight towards the
 * anchor (the long range attachments of Kim, Chentanez and Mueller, 2012). */
#ifndef CATENA_SOLVER_TETHER_H
#define CATENA_SOLVER_TETHER_H

#include "model/model.h"

struct solver_work;
struct state;

/* The pass's adjacency, anchors and queue in w when m asks for the pass (nothing otherwise).
 * Returns 0, or -1 when out of memory. */
int tether_prepare(const struct model *m, struct solver_work *w);

/* Rebuilds the adjacency from m's links after their ends changed (a cut), without
 * allocating (tether_prepare builds it the same way). A no-op without the pass. */
void tether_relink(const struct model *m, struct solver_work *w);

/* Anchors and reaches are recomputed, without allocating, at the next pass (links broke,
 * pins or rest lengths changed). */
void tether_paths_changed(struct solver_work *w);

/* The pass over s's free points. */
void tether_pass(const struct model *m, struct state *s);

#endif
