/* The file NAME of run directory DIR (io/run_file.h). */
#define _POSIX_C_SOURCE 200809L
#include "io/run_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/path.h"

int run_file_find(const char *dir, const char *name, char **path, struct catena_error *err)
{
    struct stat st;
    *path = path_join(dir, name);
    if (!*path)
        return error_set(err, CATENA_EFAIL, "%s: out of memory", dir);
    int rc = CATENA_OK;
    if (stat(*path, &st) != 0) {
        if (errno != ENOENT && errno != ENOTDIR)
            rc = error_set(err, CATENA_EINPUT, "%s: %s", *path, strerror(errno));
    } else if (S_ISREG(st.st_mode)) {
        return CATENA_OK;
    } else {
        rc = error_set(err, CATENA_EINPUT, "%s: not a regular file", *path);
    }
    free(*path);
    *path = NULL;
    return rc;
}
