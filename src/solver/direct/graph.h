/* The direct projection's Newton step on components with loops, by sparse LDL^T
 * (solver/direct/graph.c). */
#ifndef CATENA_DIRECT_GRAPH_H
#define CATENA_DIRECT_GRAPH_H

#include "model/model.h"

struct direct;

/* The graph solver's storage, sized for any subset of m's links (0, or -1 on OOM); freed by
 * direct_graph_destroy. */
int direct_graph_create(struct direct *d, const struct model *m);
void direct_graph_destroy(struct direct *d);

/* Numbers the unknowns of the graph components and analyses the pattern (after d->owner). */
void direct_graph_analyse(struct direct *d, const struct model *m);

/* One Newton step on the graph components; d->n and d->len are current. */
void direct_graph_iterate(struct direct *d, const struct model *m, vec3 *x, double h, int move);

#endif
