/* Distance constraints: Gauss-Seidel projection weighted by inverse mass (Jakobsen 2001;
 * Mueller et al. 2007): dp_a = +w_a/(w_a+w_b) (d - L) n, dp_b = -w_b/(w_a+w_b) (d - L) n,
 * scaled by stiffness (verlet, pbd) or solved with compliance (xpbd, Macklin et al. 2016).
 * A tether (LINK_TETHER) only pulls: shorter than rest it is slack. */
#ifndef CATENA_CONSTRAINT_DISTANCE_H
#define CATENA_CONSTRAINT_DISTANCE_H

#include <stdint.h>

#include "solver/constraint.h"
#include "model/model.h"
#include "solver/state.h"

/* Projects link i of m onto its rest length in s once, with the model's method (a broken
 * link is skipped). */
void distance_project(const struct model *m, struct state *s, size_t i);

/* One Gauss-Seidel sweep over links begin..end-1 (backward: from end-1 down), or over the
 * links list[0..n) in that order. */
void distance_relax_range(const struct constraint_ctx *cx, const struct model *m, struct state *s,
                          size_t begin, size_t end, int backward);
void distance_relax_list(const struct constraint_ctx *cx, const struct model *m, struct state *s,
                         const uint32_t *list, size_t n);

/* Moves points a and b towards distance `rest` (0 welds them): the pair solve that links and
 * attachments share. tether: only when farther apart than rest. */
void distance_pair(const struct constraint_ctx *cx, struct state *s, uint32_t a, uint32_t b,
                   double rest, int tether, double stiffness, double compliance, double *lambda);

/* Current length of link i divided by its rest length. */
double distance_stretch(const struct model *m, const struct state *s, size_t i);

/* |length - rest| of link i, m; a tether shorter than rest has no error. */
double distance_error(const struct model *m, const struct state *s, size_t i);

/* Tension of link i at the end of the last substep, N (negative: compressed). xpbd: from
 * the multiplier, -lambda / h^2 (Macklin et al. 2016, eq. 10); verlet and pbd: from the
 * stretch, (length - rest) / compliance. NaN when neither is known (verlet or pbd and
 * compliance 0). A slack tether carries 0. */
double distance_tension(const struct model *m, const struct state *s, size_t i);

#endif
