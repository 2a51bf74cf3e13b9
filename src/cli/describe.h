/* What `catena validate` prints: the scenario's contents (points, links, pins, bodies) and
 * the effective parameters a run would use, one "key  value" line each. */
#ifndef CATENA_DESCRIBE_H
#define CATENA_DESCRIBE_H

#include <stdio.h>

#include "model/model.h"

/* Writes the description of m to out; the caller checks out for write errors. */
void describe_model(FILE *out, const struct model *m);

#endif
