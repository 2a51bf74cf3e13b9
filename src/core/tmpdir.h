/* Scratch directories: made fresh under $TMPDIR (else /tmp) with an unpredictable name, and
 * removed with everything in them when the work is done. */
#ifndef CATENA_TMPDIR_H
#define CATENA_TMPDIR_H

#include "core/error.h"

/* Makes $TMPDIR/catena-PREFIX.XXXXXX (mode 0700) and returns its path, malloc'd; NULL with
 * err set when it cannot. */
char *tmpdir_create(const char *prefix, struct catena_error *err);

/* Removes dir and everything under it, never following a symbolic link out of it; NULL is a
 * no-op. Only for a directory catena made and owns (tmpdir_create's, a golden run). */
void tmpdir_remove(const char *dir);

#endif
