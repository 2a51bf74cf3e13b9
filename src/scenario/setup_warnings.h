/* Set-ups that cannot be satisfied, which a scenario may still ask for (catena-scenario(5),
 * WARNINGS): constraints that no shape meets at once keep pushing against each other for as
 * long as the run lasts, and the body they hold spins or creeps (a ring with rigid spokes at
 * pressure 0.8 spun up to 23 rad/s from rest). Not errors: `catena validate` prints them,
 * `catena run` prints them once and records them in summary.json. */
#ifndef CATENA_SETUP_WARNINGS_H
#define CATENA_SETUP_WARNINGS_H

#include "core/warnings.h"
#include "model/model.h"

/* Appends to w a warning for each kind of contradiction m holds, naming the first of each
 * and counting the others: "pressure-rigid-spokes", an area or volume held at a pressure
 * that the rigid spokes to a centre (and rigid edges) around it forbid; "rigid-loop-lengths",
 * rigid links (compliance 0 under xpbd, stiffness 1 otherwise) whose rest lengths no shape
 * has: a link longer than the rest of a loop of them, or four points all joined whose six
 * rest lengths no 2D (3D) shape has. Names are shown as the loader shows them (sjson_show).
 * Returns 0, or -1 when out of memory. */
int setup_warnings(const struct model *m, struct warnings *w);

#endif
