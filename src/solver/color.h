/* The `colored` order (solver.order "colored"): the links grouped by colour so that no two
 * links of a group share a point (solver/color.c). */
#ifndef CATENA_SOLVER_COLOR_H
#define CATENA_SOLVER_COLOR_H

#include "model/model.h"

struct solver_work;

/* Fills w->link_order, w->color_start and w->ncolors under the colored order (nothing
 * otherwise). Returns 0, or -1 when out of memory. */
int color_prepare(const struct model *m, struct solver_work *w);

#endif
