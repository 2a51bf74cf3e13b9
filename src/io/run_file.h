/* The files of a run directory, found by name: the one place where readers ask for "the
 * file NAME of run DIR" (the trajectory reader, compare). It is the file DIR's summary.json
 * lists (io/rundir.h), checked against its size and SHA-256; summary.json itself once its
 * manifest is found sound. */
#ifndef CATENA_RUN_FILE_H
#define CATENA_RUN_FILE_H

#include "core/error.h"

/* *path: DIR/NAME, malloc'd (the caller frees it), when the run lists that file; NULL with
 * CATENA_OK when it lists none. CATENA_EINPUT when the directory is refused (no summary.json,
 * running, failed, a listed file missing, not regular or changed: the message says which);
 * CATENA_EFAIL out of memory. */
int run_file_find(const char *dir, const char *name, char **path, struct catena_error *err);

#endif
