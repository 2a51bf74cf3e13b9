/* Area of a closed 2D polygon and volume of a closed 3D triangle mesh, each held at
 * pressure * rest (struct area in model/model.h) through the shared scalar solve
 * (solver/constraint.h). Mueller et al. 2007, section 4.4 (volume/pressure constraints); Macklin et
 * al. 2016. */
#ifndef CATENA_CONSTRAINT_AREA_H
#define CATENA_CONSTRAINT_AREA_H

#include "solver/constraint.h"
#include "model/model.h"

struct state;

/* Projects every area and volume once, in listing order. */
void area_relax(const struct constraint_ctx *cx, const struct model *m, struct state *s);

/* The current signed area (m^2) or volume (m^3) of areas[i]. */
double area_value(const struct model *m, const struct state *s, size_t i);

struct solver_work;

/* Each volume's distinct vertices and the gradient scratch in w (solver/work.h). 0, or -1
 * on OOM. */
int area_prepare(const struct model *m, struct solver_work *w);

#endif
