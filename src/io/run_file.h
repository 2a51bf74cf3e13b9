/* The files of a run directory, found by name: the one place where readers ask for "the
 * file NAME of run DIR" (the trajectory reader, compare). Today that is DIR/NAME when it is
 * a regular file; once summary.json carries a manifest of the run's files, it is the file
 * the manifest lists, and this is the function that changes. */
#ifndef CATENA_RUN_FILE_H
#define CATENA_RUN_FILE_H

#include "core/error.h"

/* *path: DIR/NAME, malloc'd (the caller frees it), when the run has that file; NULL with
 * CATENA_OK when it has none. CATENA_EINPUT when DIR/NAME exists but is not a regular file
 * (a directory, a FIFO, a device: never read as a run's file); CATENA_EFAIL out of memory. */
int run_file_find(const char *dir, const char *name, char **path, struct catena_error *err);

#endif
