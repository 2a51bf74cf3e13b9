/* Writing a golden run (see regress/regress.h): the run directory's files are copied into a
 * fresh folder beside the golden (".NAME.new.XXXXXX", each file and the folder synced), which
 * then takes the golden's place in one step, renameat2's RENAME_EXCHANGE, so that a reader or
 * a crash sees the old golden or the new one, never a mixture; the old one is then removed.
 * Where the exchange is not supported, the old golden is renamed aside first. */
#define _GNU_SOURCE /* renameat2 */
#include "regress/regress.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/outfile.h"
#include "core/path.h"
#include "core/tmpdir.h"

/* Copies the file from into to (created, not there before) and syncs it. */
static int copy_file(const char *from, const char *to, struct catena_error *err)
{
    char buf[65536];
    const int in = open(from, O_RDONLY | O_NOFOLLOW);
    const int out = in < 0 ? -1 : open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
    ssize_t n = 0;
    int e = in < 0 || out < 0 ? errno : 0;
    while (!e && (n = read(in, buf, sizeof buf)) > 0)
        for (ssize_t done = 0, w; !e && done < n; done += w)
            if ((w = write(out, buf + done, (size_t)(n - done))) < 0)
                e = errno;
    if (!e && n < 0)
        e = errno;
    if (!e && fsync(out) != 0)
        e = errno;
    if (out >= 0 && close(out) != 0 && !e)
        e = errno;
    if (in >= 0)
        close(in);
    if (e)
        return error_set(err, CATENA_EFAIL, "%s: cannot copy to %s: %s", from, to, strerror(e));
    return CATENA_OK;
}

/* Copies the run's files (regular files whose names do not start with '.'; no folders, such
 * as frames/) into dir. */
static int copy_run(const char *run, const char *dir, struct catena_error *err)
{
    DIR *d = opendir(run);
    if (!d)
        return error_set(err, CATENA_EFAIL, "%s: cannot read: %s", run, strerror(errno));
    int rc = CATENA_OK;
    for (struct dirent *e; rc == CATENA_OK && (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char *from = path_join(run, e->d_name), *to = path_join(dir, e->d_name);
        struct stat st;
        if (!from || !to)
            rc = error_set(err, CATENA_EFAIL, "%s: out of memory", run);
        else if (lstat(from, &st) == 0 && S_ISREG(st.st_mode))
            rc = copy_file(from, to, err);
        free(from);
        free(to);
    }
    closedir(d);
    return rc;
}

static int sync_dir(const char *dir)
{
    const int fd = open(dir, O_RDONLY | O_DIRECTORY);
    const int rc = fd < 0 || fsync(fd) != 0 ? -1 : 0;
    if (fd >= 0)
        close(fd);
    return rc;
}

/* Puts fresh in golden's place; the old golden, if any, ends up at fresh's path. */
static int swap_in(const char *fresh, const char *golden, const char *parent,
                   struct catena_error *err)
{
    struct stat st;
    if (lstat(golden, &st) != 0) {
        if (rename(fresh, golden) == 0)
            return CATENA_OK;
    } else if (renameat2(AT_FDCWD, fresh, AT_FDCWD, golden, RENAME_EXCHANGE) == 0) {
        return CATENA_OK;
    } else if (errno == EINVAL || errno == ENOSYS) {
        /* no exchange here: the old one aside, then the new one in */
        char *old = path_join(parent, ".golden.old.XXXXXX");
        int rc = old && mkdtemp(old) && rmdir(old) == 0 && rename(golden, old) == 0 &&
                         rename(fresh, golden) == 0 && rename(old, fresh) == 0
                     ? CATENA_OK
                     : -1;
        free(old);
        if (rc == CATENA_OK)
            return rc;
    }
    return error_set(err, CATENA_EFAIL, "%s: cannot put the new golden in place: %s", golden,
                     strerror(errno));
}

int regress_golden_write(const char *run, const char *golden, struct catena_error *err)
{
    /* the parent folder, and ".NAME.new.XXXXXX" in it */
    const char *slash = strrchr(golden, '/');
    const char *base = slash ? slash + 1 : golden;
    char *parent = strdup(golden);
    const size_t n = strlen(golden) + sizeof "/..new.XXXXXX";
    char *fresh = malloc(n);
    if (!parent || !fresh) {
        free(parent);
        free(fresh);
        return error_set(err, CATENA_EFAIL, "%s: out of memory", golden);
    }
    parent[slash ? (size_t)(slash - golden) : 0] = '\0';
    if (!slash)
        strcpy(parent, ".");
    snprintf(fresh, n, "%s/.%s.new.XXXXXX", parent, base);
    int rc = outfile_mkdirs(parent, err);
    if (rc == CATENA_OK && !mkdtemp(fresh))
        rc = error_set(err, CATENA_EFAIL, "%s: cannot create a folder for the new golden: %s",
                       parent, strerror(errno));
    else if (rc == CATENA_OK && chmod(fresh, 0755) != 0)
        rc = error_set(err, CATENA_EFAIL, "%s: %s", fresh, strerror(errno));
    int made = rc == CATENA_OK;
    if (rc == CATENA_OK)
        rc = copy_run(run, fresh, err);
    if (rc == CATENA_OK && sync_dir(fresh) != 0)
        rc = error_set(err, CATENA_EFAIL, "%s: cannot sync: %s", fresh, strerror(errno));
    if (rc == CATENA_OK)
        rc = swap_in(fresh, golden, parent, err);
    if (rc == CATENA_OK)
        sync_dir(parent);
    if (made)
        tmpdir_remove(fresh); /* the old golden, or what was copied before a failure */
    free(parent);
    free(fresh);
    return rc;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* Whether dir/name is a regular file that a golden holds (its name not starting with '.'). */
static int is_run_file(const char *dir, const char *name)
{
    if (name[0] == '.')
        return 0;
    char *path = path_join(dir, name);
    struct stat st;
    const int yes = path && lstat(path, &st) == 0 && S_ISREG(st.st_mode);
    free(path);
    return yes;
}

/* Appends to msg, after `what`, the files of `a` that `b` lacks, in name order; returns how
 * many. */
static size_t missing(const char *a, const char *b, const char *what, char *msg, size_t size)
{
    struct dirent **list = NULL;
    const int n = scandir(a, &list, NULL, by_name);
    size_t count = 0, len = strlen(msg);
    for (int i = 0; i < n; i++) {
        const char *name = list[i]->d_name;
        if (is_run_file(a, name) && !is_run_file(b, name) && len < size)
            len += (size_t)snprintf(msg + len, size - len, "%s%s", count++ ? ", " : what, name);
        free(list[i]);
    }
    free(list);
    return count;
}

size_t regress_golden_files_differ(const char *run, const char *golden, int lost_only, char *msg,
                                   size_t size)
{
    msg[0] = '\0';
    size_t n = missing(golden, run, "the run did not write ", msg, size);
    if (lost_only)
        return n;
    const size_t len = strlen(msg);
    n += missing(run, golden, len ? "; the golden lacks " : "the golden lacks ", msg + len,
                 size - len);
    return n;
}
