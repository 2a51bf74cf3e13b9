/* Scratch directories (see core/tmpdir.h): mkdtemp, and nftw depth first without following
 * links to remove them. */
#define _XOPEN_SOURCE 700
#include "core/tmpdir.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *tmpdir_create(const char *prefix, struct catena_error *err)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    const size_t n = strlen(base) + strlen(prefix) + sizeof "/catena-.XXXXXX";
    char *dir = malloc(n);
    if (!dir) {
        error_set(err, CATENA_EFAIL, "out of memory");
        return NULL;
    }
    snprintf(dir, n, "%s/catena-%s.XXXXXX", base, prefix);
    if (!mkdtemp(dir)) {
        error_set(err, CATENA_EFAIL, "%s: cannot make a scratch directory: %s", dir,
                  strerror(errno));
        free(dir);
        return NULL;
    }
    return dir;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

void tmpdir_remove(const char *dir)
{
    if (dir)
        nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}
