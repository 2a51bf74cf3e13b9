/* Distance constraints: Gauss-Seidel projection weighted by inverse mass (Jakobsen 2001;
 * Mueller et al. 2007): dp_a = +w_a/(w_a+w_b) (d - L) n, dp_b = -w_b/(w_a+w_b) (d - L) n. */
#ifndef CATENA_CONSTRAINT_DISTANCE_H
#define CATENA_CONSTRAINT_DISTANCE_H

#include "model.h"
#include "state.h"

/* Projects link i of m onto its rest length in s (a broken link is skipped). */
void distance_project(const struct model *m, struct state *s, size_t i);

/* Current length of link i divided by its rest length. */
double distance_stretch(const struct model *m, const struct state *s, size_t i);

#endif
