/* The per-point stages of a substep over points [begin, end): each point's new values depend
 * on that point alone, so any cut of the points into ranges, run in any order or at the same
 * time, gives the same bits as one pass (solver/solver.c runs them over every point; the batched
 * kernel's team, solver/batch/batch.c, runs them per band inside its substep job). */
#ifndef CATENA_SOLVER_POINTS_H
#define CATENA_SOLVER_POINTS_H

#include <stddef.h>

#include "model/model.h"
#include "solver/state.h"

/* Verlet: integrate (x' = x + (x - xprev) damping + g h^2); pbd and xpbd: predict (v += g h,
 * p* = x + v h). Points of inverse mass 0 (pins) are left as they are. */
void points_advance(const struct model *m, struct state *s, double h, size_t begin, size_t end);

/* pbd and xpbd: v = keep (p* - x) / h for the points that move; verlet: nothing. */
void points_velocities(const struct model *m, struct state *s, double h, double keep, size_t begin,
                       size_t end);

/* The first of points [begin, end) whose position is non-finite or beyond SOLVER_ABSURD
 * (solver/solver.h), or -1. */
long points_find_diverged(const struct state *s, size_t begin, size_t end);

#endif
