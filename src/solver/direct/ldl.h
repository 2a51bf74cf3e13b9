/* The sparse L D L^T factor of a graph component's positions' system H
 * (solver/direct/ldl.c), in the pattern solver/direct/graph.c analysed. */
#ifndef CATENA_DIRECT_LDL_H
#define CATENA_DIRECT_LDL_H

#include <stddef.h>

#include "model/model.h"

struct direct;

/* The block pattern of component c's factor (its elimination tree of points and their
 * blocks' columns, starting at block base). Returns the next free block. */
size_t direct_ldl_analyse(struct direct *d, const struct model *m, size_t c, size_t base);

/* Factors component c's H at the current iterate (the points' blocks in kacc, the links' in
 * lgeo, la and n). Returns -1 when a signal asked the run to stop (the factor is then
 * unusable), else 0. */
int direct_ldl_factor(struct direct *d, const struct model *m, size_t c);

/* x = (L D L^T)^-1 x over component c's unknowns. */
void direct_ldl_solve(const struct direct *d, size_t c, double *x);

#endif
