/* What `catena validate` prints: the scenario's contents (points, links, pins, bodies) and
 * the effective parameters a run would use, one "key  value" line each. */
#ifndef CATENA_DESCRIBE_H
#define CATENA_DESCRIBE_H

#include <stdio.h>

#include "scenario/scenario.h"

/* Writes the description of the scenario to out; the caller checks out for write errors. */
void describe_scenario(FILE *out, const struct scenario *sc);

#endif
