/* Angle limits at a hinge b between the links b->a and b->c (struct angle in model/model.h): in
 * 2D the signed turn angle theta = atan2(u x v, u . v), u = b - a, v = c - b; in 3D the cone
 * angle phi = atan2(|u x v|, u . v). Outside [min, max] the hinge is pushed back to the
 * nearer limit through the shared scalar solve (solver/constraint.h). */
#ifndef CATENA_CONSTRAINT_ANGLE_H
#define CATENA_CONSTRAINT_ANGLE_H

#include "solver/constraint.h"
#include "model/model.h"
#include "solver/state.h"

/* Projects every angle limit once, in listing order. */
void angle_relax(const struct constraint_ctx *cx, const struct model *m, struct state *s);

/* The current angle of limit i, rad (2D signed turn, 3D cone angle). */
double angle_value(const struct model *m, const struct state *s, size_t i);

#endif
