/* --set PATH=VALUE overrides on the scenario's JSON tree (scenario/override.c). */
#ifndef CATENA_SCENARIO_OVERRIDE_H
#define CATENA_SCENARIO_OVERRIDE_H

#include <cjson/cJSON.h>

#include "core/error.h"
#include "scenario/scenario.h"

/* Applies one --set override to the tree before it is checked. The path is dotted; numeric
 * components index arrays. A missing key in an existing object is created (an intermediate
 * one as an empty object), so typos reach the unknown-key check; a missing array element, or
 * a path through a number or string, is an error "--set PATH=VALUE: ...". The value is JSON
 * when it parses as JSON, otherwise a string. */
int scenario_override_apply(cJSON *root, const struct scenario_override *ov,
                            struct catena_error *err);

#endif
