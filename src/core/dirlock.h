/* One writer at a time in a directory: an advisory lock (flock) on DIR/.catena.lock, taken
 * without waiting. The lock file is removed when the lock is given back; whoever takes the
 * lock checks that the file it locked is still the one at that name, so a file removed
 * meanwhile cannot give two writers the lock. */
#ifndef CATENA_DIRLOCK_H
#define CATENA_DIRLOCK_H

#include "core/error.h"

/* The lock file's name in the directory. */
#define DIRLOCK_NAME ".catena.lock"

struct dirlock {
    int fd;     /* the locked file, -1 when not held */
    char *path; /* DIR/.catena.lock */
};

/* Takes dir's lock (dir must exist). CATENA_EINPUT when another process holds it (the
 * message names the directory and says another catena holds it), CATENA_EFAIL when the
 * lock file cannot be made. */
int dirlock_take(struct dirlock *l, const char *dir, struct catena_error *err);

/* Gives the lock back and removes the lock file; a lock not held is a no-op. */
void dirlock_release(struct dirlock *l);

/* 1 when some process holds dir's lock now, 0 otherwise (no lock file, or nobody holds it).
 * For messages: the answer may change right after. */
int dirlock_held(const char *dir);

#endif
