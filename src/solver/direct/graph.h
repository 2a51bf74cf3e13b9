/* The direct projection's Newton step on components with loops, by sparse LDL^T
 * (solver/direct/graph.c). */
#ifndef CATENA_DIRECT_GRAPH_H
#define CATENA_DIRECT_GRAPH_H

#include "model/model.h"

struct direct;

/* The graph solver's storage, sized for any subset of m's links (0, or -1 on OOM); freed by
 * direct_graph_destroy. symbolic 1: stops after the symbolic analysis (direct_estimate). */
int direct_graph_create(struct direct *d, const struct model *m, int symbolic);

/* The costliest body's factorisation, from the symbolic analysis direct_graph_create made of
 * the system with every distance link. */
struct direct_estimate;
void direct_graph_estimate(const struct direct *d, const struct model *m,
                           struct direct_estimate *e);
void direct_graph_destroy(struct direct *d);

/* Numbers the unknowns of the graph components (gpoint, gcomp_pfirst, after d->owner) and
 * analyses their pattern. */
void direct_graph_analyse(struct direct *d, const struct model *m);

/* Starts a substep: the factors kept from the last one are tried first. */
void direct_graph_begin(struct direct *d);

/* One Newton step on graph component c (after a cold start, first the multipliers' estimate
 * at the substep's start). Does nothing once a signal asked the run to stop. */
void direct_graph_component(struct direct *d, const struct model *m, size_t c, vec3 *x, double h,
                            int cold);

#endif
