/* What `catena validate` prints: the scenario's contents (points, links, pins, bodies) and
 * the effective parameters a run would use, one "key  value" line each, or (--json) the same
 * as one JSON object (cli/describe_json.c). */
#ifndef CATENA_DESCRIBE_H
#define CATENA_DESCRIBE_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "scenario/scenario.h"

/* Writes the description of the scenario to out; the caller checks out for write errors. */
void describe_scenario(FILE *out, const struct scenario *sc);

/* The description as a JSON object the caller frees with cJSON_Delete ("valid": true, and the
 * keys catena(1) lists under validate --json); NULL when out of memory. */
cJSON *describe_scenario_json(const struct scenario *sc);

#endif
