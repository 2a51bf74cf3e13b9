/* summary.json: what ran (catena version, scenario hash, effective parameters) and how it
 * ended (steps, wall time, steps/s, final metrics, status, warnings), with the manifest of
 * the run directory (io/rundir.h): "running" from the start, the files listed at the end. */
#ifndef CATENA_SUMMARY_H
#define CATENA_SUMMARY_H

#include <cjson/cJSON.h>

#include "core/error.h"
#include "core/warnings.h"
#include "io/rundir.h"
#include "run/result.h"
#include "scenario/scenario.h"

/* What summary.json says before the run starts (catena version, scenario), for the
 * manifest that says "running" (rundir_begin). NULL when out of memory; the caller deletes
 * it. */
cJSON *summary_head(const struct scenario *sc);

/* Writes the final summary.json of the run r of sc through out, which lists the files
 * written; "warnings" lists the scenario's (sc->warnings), then the run's, w (NULL: none).
 * error: what went wrong when r->status is RUN_FAILED, else NULL. */
int summary_write(struct rundir_writer *out, const struct scenario *sc, const struct run_result *r,
                  const struct warnings *w, const char *error, struct catena_error *err);

#endif
