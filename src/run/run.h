/* A whole run: state, stepping loop, recording, progress line, divergence check and
 * summary.json. Used by `catena run` and by the tests. */
#ifndef CATENA_RUN_H
#define CATENA_RUN_H

#include "core/error.h"
#include "core/warnings.h"
#include "model/model.h"
#include "run/result.h"
#include "scenario/scenario.h"

struct run_options {
    const char *out_dir;       /* created if missing */
    int progress;              /* 1: a one-line progress display on stderr */
    int plot;                  /* 1: reports also draw their PNG (catenary.png) */
    struct warnings *warnings; /* NULL, or receives the run's plausibility warnings
                                  (run/plausible.h; summary.json lists them too), for the
                                  caller to print and clear */
};

/* Runs the scenario into o->out_dir, writing what its output asks for. Returns CATENA_OK,
 * CATENA_EFAIL (diverged, or an output could not be written; err says which) or
 * CATENA_EINPUT. r is filled in every case. */
int run_simulation(const struct scenario *sc, const struct run_options *o, struct run_result *r,
                   struct catena_error *err);

#endif
