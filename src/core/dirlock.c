/* The directory lock (see core/dirlock.h): flock on a file in the directory, made with
 * O_NOFOLLOW so that a symlink planted at its name locks nothing elsewhere. */
#define _DEFAULT_SOURCE /* flock */
#include "core/dirlock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/path.h"

/* Attempts at taking the lock: each fails only when the holder removed the file between
 * our open and our flock, which a second try gets past. */
#define LOCK_TRIES 8

/* Opens and locks l->path once: 0, or an errno value (EWOULDBLOCK: held; EAGAIN: the file
 * was replaced meanwhile, try again). */
static int try_lock(struct dirlock *l)
{
    const int flags = O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK;
    int fd = open(l->path, O_RDWR | flags, 0666);
    if (fd < 0 && errno == EACCES) /* another user's lock file: flock needs no write access */
        fd = open(l->path, O_RDONLY | flags, 0666);
    if (fd < 0)
        return errno;
    struct stat held, named;
    int e = 0;
    if (fstat(fd, &held) != 0)
        e = errno;
    else if (!S_ISREG(held.st_mode))
        e = EINVAL;
    else if (flock(fd, LOCK_EX | LOCK_NB) != 0)
        e = errno == EWOULDBLOCK ? EWOULDBLOCK : errno;
    else if (lstat(l->path, &named) != 0 || named.st_ino != held.st_ino ||
             named.st_dev != held.st_dev)
        e = EAGAIN; /* the holder removed it as it let go: lock the new one */
    if (e) {
        close(fd);
        return e;
    }
    l->fd = fd;
    return 0;
}

int dirlock_take(struct dirlock *l, const char *dir, struct catena_error *err)
{
    *l = (struct dirlock){.fd = -1, .path = path_join(dir, DIRLOCK_NAME)};
    if (!l->path)
        return error_set(err, CATENA_EFAIL, "%s: out of memory", dir);
    int e = EAGAIN;
    for (int k = 0; k < LOCK_TRIES && e == EAGAIN; k++)
        e = try_lock(l);
    if (!e)
        return CATENA_OK;
    if (e == EWOULDBLOCK)
        error_set(err, CATENA_EINPUT,
                  "%s: another catena holds this directory (it is writing there; lock %s): "
                  "wait for it to finish or write elsewhere",
                  dir, l->path);
    else if (e == ELOOP || e == EINVAL)
        error_set(err, CATENA_EINPUT, "%s: not a regular file (catena locks the directory there)",
                  l->path);
    else
        error_set(err, CATENA_EFAIL, "%s: cannot lock: %s", l->path, strerror(e));
    free(l->path);
    l->path = NULL;
    return err->code;
}

void dirlock_release(struct dirlock *l)
{
    if (l->fd >= 0) {
        unlink(l->path); /* while still held: see try_lock */
        close(l->fd);
    }
    free(l->path);
    *l = (struct dirlock){.fd = -1};
}

int dirlock_held(const char *dir)
{
    char *path = path_join(dir, DIRLOCK_NAME);
    const int fd = path ? open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK) : -1;
    free(path);
    if (fd < 0)
        return 0;
    struct stat st;
    int held = 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        if (flock(fd, LOCK_SH | LOCK_NB) == 0)
            flock(fd, LOCK_UN);
        else
            held = errno == EWOULDBLOCK;
    }
    close(fd);
    return held;
}
