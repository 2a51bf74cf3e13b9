/* summary.json: what ran (catena version, scenario hash, effective parameters) and how it
 * ended (steps, wall time, steps/s, final metrics, status). */
#ifndef CATENA_SUMMARY_H
#define CATENA_SUMMARY_H

#include "core/error.h"
#include "run/result.h"
#include "scenario/scenario.h"

/* Writes dir/summary.json for the run r of the scenario sc. */
int summary_write(const char *dir, const struct scenario *sc, const struct run_result *r,
                  struct catena_error *err);

#endif
