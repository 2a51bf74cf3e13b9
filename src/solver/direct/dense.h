/* A small dense symmetric positive (semi)definite solve: a branching tree point's block of
 * multipliers (solver/direct/dense.c). */
#ifndef CATENA_DIRECT_DENSE_H
#define CATENA_DIRECT_DENSE_H

/* Solves the n x n symmetric positive (semi)definite S (row-major) against nrhs right-hand
 * sides b (n x nrhs) in place, by Cholesky; a pivot under 1e-13 of its diagonal (a
 * redundant link) is raised to it, which damps that direction instead of dividing by 0. */
void direct_dense_solve(double *s, int n, double *b, int nrhs);

#endif
