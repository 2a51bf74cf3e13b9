/* The file NAME of run directory DIR (io/run_file.h), through DIR's manifest. */
#define _POSIX_C_SOURCE 200809L
#include "io/run_file.h"

#include <string.h>

#include "core/path.h"
#include "io/rundir.h"

int run_file_find(const char *dir, const char *name, char **path, struct catena_error *err)
{
    struct rundir *rd;
    *path = NULL;
    if (rundir_open(dir, &rd, err))
        return err->code;
    int rc = CATENA_OK;
    if (strcmp(name, RUNDIR_SUMMARY) == 0) { /* the manifest itself, just read and checked */
        if (!(*path = path_join(dir, name)))
            rc = error_set(err, CATENA_EFAIL, "%s: out of memory", dir);
    } else if (rundir_find(rd, name) && !(*path = rundir_path(rd, name, err))) {
        rc = err->code;
    }
    rundir_close(rd);
    return rc;
}
