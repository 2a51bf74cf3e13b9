/* Private to solver/direct: the contact rows of a body with loops in newton.c's system
 * (solver/direct/contact.c), eliminated like a rigid link with a penalty a = CONTACT_EPS w:
 * n n^T / a (sliding) or I / a (sticking) in the point's block, the violation / a in its
 * right-hand side, the multiplier a force vector. */
#ifndef CATENA_DIRECT_CONTACT_H
#define CATENA_DIRECT_CONTACT_H

#include "solver/direct/internal.h"

/* A new substep starting at xstart: last substep's contacts become candidates with their
 * rows and forces as the first guess, older ones go. */
void direct_contact_begin(struct direct *d, const vec3 *xstart);

/* Component c's contacts at x: which are rows (solver/direct/contact.c), their blocks and
 * forces in kacc and racc. Returns the largest |C| of a row, m; *changed: whether the set
 * of rows differs from the factor's. */
double direct_contact_assemble(struct direct *d, const struct model *m, size_t c, const vec3 *x,
                               int *changed);

/* The factor is being made from the current rows and normals. */
void direct_contact_factored(struct direct *d, size_t c);

/* The rows' part of the right-hand side at x, -(violation) / a. */
void direct_contact_rhs(struct direct *d, const struct model *m, const vec3 *x, size_t c);

/* The rows' multiplier steps from the points' (in rhs), -(violation + its change by dx) / a. */
void direct_contact_step(struct direct *d, const struct model *m, const vec3 *x, size_t c);

/* lam += alpha dlam; released (0) where its normal part would pull. */
void direct_contact_update(struct direct *d, size_t c, double alpha);

/* The rows' share of the measures at x + alpha dx: |C|^2 into *kkt, |C| into *c1, and their
 * forces into racc. */
void direct_contact_measure(struct direct *d, const struct model *m, size_t c, const vec3 *x,
                            double alpha, double *kkt, double *c1);

#endif
