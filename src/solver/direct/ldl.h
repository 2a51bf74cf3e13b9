/* The sparse L D L^T factor of a graph component's system (solver/direct/ldl.c), in the
 * pattern solver/direct/graph.c analysed, in blocks of a point's gdims unknowns: the Newton's
 * H (newton.c) or the fixed matrix (fixed.c, gdims 1). */
#ifndef CATENA_DIRECT_LDL_H
#define CATENA_DIRECT_LDL_H

#include <stddef.h>

#include "model/model.h"

struct direct;

/* The block pattern of component c's factor (its elimination tree of points and their
 * blocks' columns, starting at block base). Returns the next free block. */
size_t direct_ldl_analyse(struct direct *d, const struct model *m, size_t c, size_t base);

/* Factors component c's matrix: H at the current iterate (the points' blocks in kacc, the
 * links' in lgeo, la and n), or under gdims 1 the fixed matrix (the points' diagonal in
 * kacc[9 p], the links' weights in lw). Returns -1 when a signal asked the run to stop (the
 * factor is then unusable), else 0. */
int direct_ldl_factor(struct direct *d, const struct model *m, size_t c);

/* x = (L D L^T)^-1 x over component c's unknowns (the Newton's H). */
void direct_ldl_solve(const struct direct *d, size_t c, double *x);

/* The same with the fixed matrix's factor (gdims 1) on k = 2 or 3 right-hand sides at once,
 * interleaved: x[DIRECT_FIXED_STRIDE(k) j + i] is unknown j's of the i-th (16-byte aligned; for
 * k = 3 the fourth value of each unknown is zero and stays so). */
#define DIRECT_FIXED_STRIDE(k) ((k) == 3 ? 4 : 2)
void direct_ldl_solve_many(const struct direct *d, size_t c, double *x, int k);

#endif
