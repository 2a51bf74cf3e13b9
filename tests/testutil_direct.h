/* Models for the direct projection's tests and benchmark (check_direct.c, bench_direct.c):
 * hanging chains started as arcs, cloth curtains, and their strain. All have solver.global on, 10
 * iterations and dt = 1/120 s unless changed; NULL on OOM. */
#ifndef CATENA_TESTUTIL_DIRECT_H
#define CATENA_TESTUTIL_DIRECT_H

#include <stddef.h>

#include "model/model.h"
#include "solver/state.h"

/* n equal links of total length `length` and n + 1 equal masses (1 kg in all) between pins
 * at (0, 0) and (span, 0), started as a circular arc of the same length: tens of centimetres
 * from the catenary for span 10, length 12, so settling is a real motion. Verlet damping per
 * step as given. */
struct model *tu_arc_chain(size_t n, double span, double length, double dt, double damping);

/* An n x n cloth of structural links of length sp, 1 kg in all, pinned at its two top
 * corners, in 3D. hanging 0: on a cylinder (the top row an arc of 2.5 rad in x-z, rows
 * hanging in -y), which falls and swings. hanging 1: hanging still, its top row the discrete
 * catenary between corners 0.8 x its length apart and every column straight down from it,
 * which is the curtain's exact equilibrium. Either way the top row is slack between the
 * pins: a row pinned straight between its ends cannot carry a load with rigid links. */
struct model *tu_curtain(int n, double sp, int hanging);

/* The largest |length / rest - 1| over st's links that still hold. */
double tu_max_strain(const struct model *m, const struct state *st);

#endif
