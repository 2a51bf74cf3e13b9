/* The numeric sparse L D L^T of a component's system in the pattern solver/direct/graph.c
 * analysed (solver/direct/ldl.c): shared by the Newton step (newton.c) and the fixed-matrix
 * iteration (fixed.c). */
#ifndef CATENA_DIRECT_LDL_H
#define CATENA_DIRECT_LDL_H

#include <stddef.h>

struct direct;

/* Factors component c's matrix (ax, adiag, as direct_graph_values left them). Returns -1 when
 * a signal asked the run to stop (the factor is then unusable), else 0. */
int direct_ldl_factor(struct direct *d, size_t c);

/* x = (L D L^T)^-1 x over component c's unknowns (x indexed as they are). */
void direct_ldl_solve(const struct direct *d, size_t c, double *x);

/* The same on k = 2 or 3 right-hand sides at once, interleaved: x[k j + i] is unknown j's
 * of the i-th. */
void direct_ldl_solve_many(const struct direct *d, size_t c, double *x, int k);

#endif
