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

/* A 6 x 6 cloth in the xy plane, 0.5 m across, whose shear links make it a truss (110 links on
 * 35 free points), pinned at one top corner only, so it swings down under gravity. Rigid
 * links, pbd, solver.global on. */
struct model *tu_truss_2d(void);

/* Two states of m, *newton made under the Newton and *fixed under the fixed matrix, which m
 * then names; 0, or -1 when either could not be made. */
int tu_newton_fixed_states(struct model *m, struct state **newton, struct state **fixed);

/* One step of `newton` under the Newton at 40 iterations and of `fixed` under the fixed matrix
 * at fixed_iterations, both on m (its matrix and iteration count are left as the fixed
 * step's); the largest distance between their points after it, m. */
double tu_step_newton_fixed(struct model *m, struct state *newton, struct state *fixed,
                            int fixed_iterations);

/* The largest distance of st's points from where they started, m. */
double tu_max_moved(const struct model *m, const struct state *st);

/* The largest |length / rest - 1| over st's links that still hold. */
double tu_max_strain(const struct model *m, const struct state *st);

#endif
