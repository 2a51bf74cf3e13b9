/* Scenario files (format v1, catena-scenario(5)) -> model. Every error names the file and
 * the place: "FILE:LINE:COL: ..." for JSON syntax, "FILE: JSON.PATH: ..." otherwise. */
#ifndef CATENA_SCENARIO_H
#define CATENA_SCENARIO_H

#include <stddef.h>

#include "core/error.h"
#include "model/model.h"

/* One --set PATH=VALUE: a dotted path into the scenario ("solver.iterations",
 * "points.3.mass") and a value, read as JSON when it parses as JSON, else as a string. */
struct scenario_override {
    const char *path;
    const char *value;
};

/* The most points a scenario may have unless told otherwise (`--max-points`). */
#define SCENARIO_MAX_POINTS 50000000LL

/* How a scenario is loaded: the --set overrides, and the limit checked before anything is
 * allocated for the points (a scenario that would exceed it is refused with the memory it
 * would need). scenario_options_default() gives no overrides and SCENARIO_MAX_POINTS. */
struct scenario_options {
    const struct scenario_override *ov;
    size_t nov;
    long long max_points; /* >= 1 */
};

struct scenario_options scenario_options_default(void);

/* Reads and checks a scenario file, applies the overrides, and builds the model.
 * Returns a model the caller frees with model_destroy, or NULL with err filled
 * (code CATENA_EINPUT, also when the file cannot be read: exit status 2). */
struct model *scenario_load(const char *path, const struct scenario_override *ov, size_t nov,
                            struct catena_error *err);

/* The same from bytes in memory; label names the source in messages. */
struct model *scenario_parse(const char *label, const char *text, size_t len,
                             const struct scenario_override *ov, size_t nov,
                             struct catena_error *err);

/* The same two with options (overrides and limits). */
struct model *scenario_load_opts(const char *path, const struct scenario_options *o,
                                 struct catena_error *err);
struct model *scenario_parse_opts(const char *label, const char *text, size_t len,
                                  const struct scenario_options *o, struct catena_error *err);

#endif
