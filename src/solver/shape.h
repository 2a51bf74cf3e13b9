/* Shape matching (Mueller et al., "Meshless deformations based on shape matching", 2005):
 * each group's points are pulled towards goal_i = c + R q_i, c the centre of mass, q_i the
 * rest offsets and R the rotation that best maps them onto the current offsets (2D in
 * closed form, 3D by the iterative rotation extraction of Mueller et al., "A robust method
 * to extract the rotational part of deformations", 2016). Stiffness 1 makes the group rigid. */
#ifndef CATENA_CONSTRAINT_SHAPE_H
#define CATENA_CONSTRAINT_SHAPE_H

#include "solver/constraint.h"
#include "model/model.h"

struct state;

/* Projects every shape group once, in listing order: x_i += k (goal_i - x_i), except at points
 * whose inverse mass in cx->w is 0. Shape matching has no compliance; it uses stiffness with
 * every method. */
void shape_relax(const struct constraint_ctx *cx, const struct model *m, struct state *s);

struct solver_work;

/* Each group's canonical order and rest offsets in w (solver/work.h). 0, or -1 on OOM. */
int shape_prepare(const struct model *m, struct solver_work *w);

#endif
