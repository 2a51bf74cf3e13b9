/* The direct projection's Newton step on components without loops, in O(N)
 * (solver/direct/tree.c). */
#ifndef CATENA_DIRECT_TREE_H
#define CATENA_DIRECT_TREE_H

#include "model/model.h"

struct direct;

/* One Newton step on the tree components; d->n and d->len are current. move 0 updates only
 * the multipliers. */
void direct_tree_iterate(struct direct *d, const struct model *m, vec3 *x, double h, int move);

#endif
