/* Attachments: welds that hold two points (usually of different bodies) together, solved as
 * distance constraints of rest length 0 through the shared pair solve (solver/distance.h). */
#ifndef CATENA_CONSTRAINT_ATTACHMENT_H
#define CATENA_CONSTRAINT_ATTACHMENT_H

#include "solver/constraint.h"
#include "model/model.h"
#include "solver/state.h"

/* Projects every attachment once, in listing order. */
void attachment_relax(const struct constraint_ctx *cx, const struct model *m, struct state *s);

#endif
