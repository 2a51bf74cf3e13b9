/* summary.json: what ran (catena version, scenario hash, effective parameters) and how it
 * ended (steps, wall time, steps/s, final metrics, status). */
#ifndef CATENA_SUMMARY_H
#define CATENA_SUMMARY_H

#include "core/error.h"
#include "core/warnings.h"
#include "run/result.h"
#include "scenario/scenario.h"

/* Writes dir/summary.json for the run r of the scenario sc; "warnings" lists the scenario's
 * (sc->warnings), then the run's, w (NULL: none). */
int summary_write(const char *dir, const struct scenario *sc, const struct run_result *r,
                  const struct warnings *w, struct catena_error *err);

#endif
