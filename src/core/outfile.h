/* Output files that appear under their final name only when complete: written to a
 * temporary name in the same directory, flushed, and renamed by outfile_commit. */
#ifndef CATENA_OUTFILE_H
#define CATENA_OUTFILE_H

#include <stdio.h>

#include "core/error.h"

struct outfile {
    FILE *fp;
    char *path; /* final path */
    char *tmp;  /* temporary path, ".NAME.tmp.PID" in the same directory */
    int nosync; /* 1: commit skips fsync (set after outfile_open): for long sequences of
                   small files, such as frames, where syncing each costs more than making it */
};

/* Opens DIR/NAME for writing under a temporary name. */
int outfile_open(struct outfile *f, const char *dir, const char *name, struct catena_error *err);

/* Flushes, checks every write succeeded, closes and renames into place. On failure the
 * temporary file is removed and no file appears under the final name. */
int outfile_commit(struct outfile *f, struct catena_error *err);

/* ENOENT once f's temporary file has been deleted (its directory removed mid-run), after
 * which it can never be committed; 0 while it is still there. */
int outfile_lost(const struct outfile *f);

/* What a write error e means in a message: strerror(e), except that ENOENT, which a
 * write never gives, is outfile_lost's. */
const char *outfile_strerror(int e);

/* Closes and removes the temporary file; safe on a file never opened or already done. */
void outfile_abort(struct outfile *f);

/* Creates DIR and its parents as needed. */
int outfile_mkdirs(const char *dir, struct catena_error *err);

#endif
