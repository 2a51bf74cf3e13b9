/* The directory of a run while it runs: its lock (one writer at a time) and the manifest
 * writer that makes it hold this run alone (io/rundir.h): summary.json says "running" and
 * lists what the run may leave as pending before anything else is written; the earlier
 * run's files and the temporaries of killed runs are removed. */
#ifndef CATENA_RUN_DIR_H
#define CATENA_RUN_DIR_H

#include "core/dirlock.h"
#include "core/error.h"
#include "io/rundir.h"
#include "scenario/scenario.h"

struct run_dir {
    struct dirlock lock;
    struct rundir_writer w;
};

/* Makes dir if missing, takes its lock (CATENA_EINPUT when another catena holds it) and
 * starts the manifest of a run of sc. On failure nothing is held. */
int run_dir_open(struct run_dir *d, const struct scenario *sc, const char *dir,
                 struct catena_error *err);

/* Gives the lock back and frees the writer; summary.json stays as last written. */
void run_dir_close(struct run_dir *d);

#endif
