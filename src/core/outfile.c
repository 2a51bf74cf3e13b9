/* Output files that appear under their final name only when complete: data goes to
 * ".NAME.tmp.PID" in the same directory (so rename is atomic on one file system), and
 * commit checks every byte reached the disk before renaming. */
#define _POSIX_C_SOURCE 200809L
#include "core/outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* DIR/PREFIX NAME SUFFIX, malloc'd; an empty DIR means the current directory. */
static char *path_join(const char *dir, const char *prefix, const char *name, const char *suffix)
{
    size_t dn = strlen(dir);
    const char *slash = dn && dir[dn - 1] != '/' ? "/" : "";
    size_t n = dn + strlen(slash) + strlen(prefix) + strlen(name) + strlen(suffix) + 1;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s%s%s%s", dir, slash, prefix, name, suffix);
    return p;
}

int outfile_open(struct outfile *f, const char *dir, const char *name, struct catena_error *err)
{
    char suffix[32];
    snprintf(suffix, sizeof suffix, ".tmp.%ld", (long)getpid());
    *f = (struct outfile){.path = path_join(dir, "", name, ""),
                          .tmp = path_join(dir, ".", name, suffix)};
    if (!f->path || !f->tmp) {
        outfile_abort(f);
        return error_set(err, CATENA_EFAIL, "%s: %s: out of memory", dir, name);
    }
    f->fp = fopen(f->tmp, "wb");
    if (!f->fp) {
        int e = errno;
        error_set(err, CATENA_EFAIL, "%s: cannot create: %s", f->path, strerror(e));
        outfile_abort(f);
        return CATENA_EFAIL;
    }
    return CATENA_OK;
}

int outfile_commit(struct outfile *f, struct catena_error *err)
{
    static const char write_failed[] = "cannot write";
    const char *what = write_failed;
    int e = 0;
    /* A failed write leaves only the error flag behind; errno then no longer says why,
     * and EIO is the honest general answer. */
    if (fflush(f->fp) != 0)
        e = errno;
    else if (ferror(f->fp))
        e = EIO;
    else if (!f->nosync && fsync(fileno(f->fp)) != 0) /* so a crash cannot leave a renamed
                                                          empty file */
        e = errno;
    else
        e = outfile_lost(f);
    if (fclose(f->fp) != 0 && !e)
        e = errno;
    f->fp = NULL;
    if (!e && rename(f->tmp, f->path) != 0) {
        e = errno;
        what = "cannot rename into place";
    }
    if (e) {
        remove(f->tmp);
        error_set(err, CATENA_EFAIL, "%s: %s: %s", f->path, what,
                  what == write_failed ? outfile_strerror(e) : strerror(e));
    }
    outfile_abort(f);
    return e ? CATENA_EFAIL : CATENA_OK;
}

int outfile_lost(const struct outfile *f)
{
    struct stat st;
    return fstat(fileno(f->fp), &st) == 0 && st.st_nlink == 0 ? ENOENT : 0;
}

const char *outfile_strerror(int e)
{
    if (e == ENOENT)
        return "the file was deleted during the run (was the output directory removed?)";
    return strerror(e);
}

void outfile_abort(struct outfile *f)
{
    if (f->fp) {
        fclose(f->fp);
        remove(f->tmp);
    }
    free(f->path);
    free(f->tmp);
    *f = (struct outfile){0};
}

/* Creates directory p unless one is already there; returns 0 or an errno value. */
static int make_dir(const char *p)
{
    if (mkdir(p, 0777) == 0)
        return 0;
    if (errno != EEXIST)
        return errno;
    struct stat st;
    if (stat(p, &st) != 0)
        return errno;
    return S_ISDIR(st.st_mode) ? 0 : EEXIST;
}

int outfile_mkdirs(const char *dir, struct catena_error *err)
{
    size_t n = strlen(dir);
    char *p = malloc(n + 1);
    if (!p)
        return error_set(err, CATENA_EFAIL, "%s: out of memory", dir);
    memcpy(p, dir, n + 1);
    int rc = CATENA_OK;
    /* Each prefix ending before a '/' (and the whole path) in turn, as mkdir -p does. */
    for (size_t i = 1; i <= n && rc == CATENA_OK; i++) {
        if (p[i] != '/' && p[i] != '\0')
            continue;
        char c = p[i];
        p[i] = '\0';
        int e = make_dir(p);
        if (e)
            rc = error_set(err, CATENA_EFAIL, "%s: cannot create directory: %s", p, strerror(e));
        p[i] = c;
    }
    free(p);
    return rc;
}
