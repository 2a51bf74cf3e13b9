/* Private to solver/direct: the contact rows of a body with loops in newton.c's system
 * (solver/direct/contact.c). A row is the constraint C = n . x - off >= 0 with multiplier
 * lam >= 0, eliminated like a rigid link with a penalty a = CONTACT_EPS w: n n^T / a in the
 * point's block, n C / a in its right-hand side. */
#ifndef CATENA_DIRECT_CONTACT_H
#define CATENA_DIRECT_CONTACT_H

#include "solver/direct/internal.h"

/* A new substep: last substep's planes become candidates, older ones go, multipliers restart. */
void direct_contact_begin(struct direct *d);

/* Component c's contacts at x: which are rows (the primal-dual active set: lam - C / a > 0,
 * so a row that would pull is released and a penetrating point always held), their blocks
 * and -n lam in kacc and racc. Returns the largest |C| of a row, m; *changed: whether the set
 * of rows differs from the factor's. */
double direct_contact_assemble(struct direct *d, const struct model *m, size_t c, const vec3 *x,
                               int *changed);

/* The factor is being made from the current rows and normals. */
void direct_contact_factored(struct direct *d, size_t c);

/* The rows' part of the right-hand side, -n_f C / a. */
void direct_contact_rhs(struct direct *d, const struct model *m, size_t c);

/* The rows' multiplier steps from the points' (in rhs), dlam = -(C + n_f . dx) / a. */
void direct_contact_step(struct direct *d, const struct model *m, size_t c);

/* lam += alpha dlam, never below 0. */
void direct_contact_update(struct direct *d, size_t c, double alpha);

/* The rows' share of the measures at x + alpha dx: |C|^2 into *kkt, |C| into *c1, and their
 * forces into racc. */
void direct_contact_measure(struct direct *d, size_t c, const vec3 *x, double alpha, double *kkt,
                            double *c1);

#endif
