/* The system of the direct projection's Newton step on components with loops: its storage,
 * order and pattern (solver/direct/graph.c); solver/direct/newton.h takes the step. */
#ifndef CATENA_DIRECT_GRAPH_H
#define CATENA_DIRECT_GRAPH_H

#include <stddef.h>

#include "model/model.h"
#include "solver/direct/direct.h"

struct direct;

/* The graph solver's storage, sized for any subset of m's links (DIRECT_OK, or why not);
 * freed by direct_graph_destroy. symbolic 1: stops after the symbolic analysis
 * (direct_estimate). */
enum direct_status direct_graph_create(struct direct *d, const struct model *m, int symbolic);

/* After the order refused m's links as invalid: the first body whose own links AMD refuses,
 * or -1. */
long direct_graph_invalid_body(const struct model *m);

/* The costliest body's factorisation, from the symbolic analysis direct_graph_create made of
 * the system with every distance link. */
struct direct_estimate;
void direct_graph_estimate(const struct direct *d, const struct model *m,
                           struct direct_estimate *e);
void direct_graph_destroy(struct direct *d);

/* Numbers the unknowns of the graph components (gpoint, gcomp_pfirst, after d->owner) and
 * analyses their pattern. */
void direct_graph_analyse(struct direct *d, const struct model *m);

#endif
