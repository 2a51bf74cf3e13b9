/* Output files that appear under their final name only when complete: data goes to a
 * temporary ".NAME.catena.tmp.PID.RANDOM" in the same directory (so rename is atomic on one
 * file system), created with O_CREAT|O_EXCL|O_NOFOLLOW under a name nobody can guess, so
 * that a symlink planted in a shared directory is never written through; commit checks
 * every byte reached the disk before renaming, and records the file in the journal when
 * one is started for its directory. */
#define _DEFAULT_SOURCE /* kill, dirfd, fstatat and unlinkat beside POSIX's stdio */
#include "core/outfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* What sits between NAME and PID in a temporary's name. */
#define TMP_MARK ".catena.tmp."
/* Names drawn before giving up: each is 64 random bits, so a second one is only needed when
 * someone planted a file at the first. */
#define TMP_TRIES 16

/* The journal commits are recorded into, or NULL. */
static struct outfile_journal *journal;

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

/* 64 bits nobody can guess; from the clock and a counter only if the kernel has no
 * randomness to give (the name is then guessable, but O_EXCL|O_NOFOLLOW still holds). */
static unsigned long long random64(void)
{
    static unsigned long long counter;
    unsigned long long r;
    if (getrandom(&r, sizeof r, GRND_NONBLOCK) == (ssize_t)sizeof r)
        return r;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ((unsigned long long)ts.tv_nsec << 20) ^ (unsigned long long)ts.tv_sec ^
           (++counter * 0x9e3779b97f4a7c15ULL);
}

/* Creates a new temporary for f->path; 0 or an errno value. */
static int create_temporary(struct outfile *f, const char *dir, const char *name)
{
    int e = EEXIST;
    for (int k = 0; k < TMP_TRIES && e == EEXIST; k++) {
        char suffix[64];
        snprintf(suffix, sizeof suffix, TMP_MARK "%ld.%016llx", (long)getpid(), random64());
        free(f->tmp);
        if (!(f->tmp = path_join(dir, ".", name, suffix)))
            return ENOMEM;
        const int fd = open(f->tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0) {
            e = errno;
            continue;
        }
        /* read back by commit, for the journal's hash */
        if (!(f->fp = fdopen(fd, "w+b"))) {
            e = errno;
            close(fd);
            unlink(f->tmp);
            return e;
        }
        return 0;
    }
    return e;
}

int outfile_open(struct outfile *f, const char *dir, const char *name, struct catena_error *err)
{
    *f = (struct outfile){.path = path_join(dir, "", name, "")};
    if (!f->path) {
        outfile_abort(f);
        return error_set(err, CATENA_EFAIL, "%s: %s: out of memory", dir, name);
    }
    const int e = create_temporary(f, dir, name);
    if (e) {
        error_set(err, CATENA_EFAIL, "%s: cannot create: %s", f->path, strerror(e));
        free(f->tmp);
        f->tmp = NULL;
        outfile_abort(f);
        return CATENA_EFAIL;
    }
    return CATENA_OK;
}

/* Runs of slashes in p made one, in place: how paths are compared. */
static void collapse_slashes(char *p)
{
    char *w = p;
    for (const char *r = p; *r; r++)
        if (*r != '/' || w == p || w[-1] != '/')
            *w++ = *r;
    *w = '\0';
}

/* f's final name relative to the journal's directory, malloc'd; NULL when f is not under
 * it (or out of memory, which *e then says). */
static char *journal_name(const struct outfile *f, int *e)
{
    char *p = strdup(f->path);
    *e = p ? 0 : ENOMEM;
    if (!p)
        return NULL;
    collapse_slashes(p);
    const size_t n = strlen(journal->dir);
    char *name = NULL;
    if (strncmp(p, journal->dir, n) == 0 && p[n] == '/' && p[n + 1])
        name = strdup(p + n + 1);
    else if (n == 0 && p[0] != '/') /* the journal of the current directory */
        name = strdup(p);
    else {
        free(p);
        return NULL;
    }
    *e = name ? 0 : ENOMEM;
    free(p);
    return name;
}

/* Records f, flushed and synced, in the journal when it is under the journal's directory;
 * 0 or an errno value. */
static int journal_record(const struct outfile *f)
{
    int e = 0;
    char *name = journal ? journal_name(f, &e) : NULL;
    if (!name)
        return e;
    struct outfile_entry en = {.name = name};
    if ((e = sha256_hex_fd(fileno(f->fp), 0, &en.size, en.sha256))) {
        free(name);
        return e;
    }
    if (journal->n == journal->cap) {
        const size_t cap = journal->cap ? 2 * journal->cap : 16;
        struct outfile_entry *p = realloc(journal->entries, cap * sizeof *p);
        if (!p) {
            free(name);
            return ENOMEM;
        }
        journal->entries = p;
        journal->cap = cap;
    }
    journal->entries[journal->n++] = en;
    return 0;
}

/* 0 when f's temporary name still names the file written; EEXIST when something else was put
 * there (a symlink or file planted in a shared directory), which rename must not move into
 * the final name. */
static int temporary_replaced(const struct outfile *f)
{
    struct stat held, named;
    if (fstat(fileno(f->fp), &held) != 0)
        return errno;
    if (lstat(f->tmp, &named) != 0)
        return errno;
    return named.st_ino == held.st_ino && named.st_dev == held.st_dev ? 0 : EEXIST;
}

int outfile_commit(struct outfile *f, struct catena_error *err)
{
    static const char write_failed[] = "cannot write",
                      replaced[] = "the temporary file was replaced by another (a file or "
                                   "symlink planted in the directory): not committed";
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
    else if ((e = outfile_lost(f)) == 0 && (e = temporary_replaced(f)) != 0)
        what = replaced;
    const size_t recorded = journal ? journal->n : 0;
    if (!e && (e = journal_record(f)) != 0) {
        what = "cannot record in the journal";
        if (journal)
            journal->error = e;
    }
    if (fclose(f->fp) != 0 && !e)
        e = errno;
    f->fp = NULL;
    if (!e && rename(f->tmp, f->path) != 0) {
        e = errno;
        what = "cannot rename into place";
    }
    if (e) {
        if (journal && journal->n > recorded) /* recorded, but it never took its name */
            free(journal->entries[--journal->n].name);
        if (what != replaced) /* what is at the name now is not ours to remove */
            remove(f->tmp);
        if (what == replaced)
            error_set(err, CATENA_EFAIL, "%s: %s", f->path, what);
        else
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

int outfile_error_lost(const struct catena_error *err)
{
    return err->code != CATENA_OK && strstr(err->msg, outfile_strerror(ENOENT)) != NULL;
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

int outfile_is_temporary(const char *name, long *pid)
{
    const size_t mark = strlen(TMP_MARK);
    const char *m = NULL;
    for (const char *p = strstr(name, TMP_MARK); p; p = strstr(p + 1, TMP_MARK))
        m = p;
    if (name[0] != '.' || !m || m == name + 1)
        return 0;
    const char *digits = m + mark;
    const size_t nd = strspn(digits, "0123456789");
    if (nd == 0 || nd > 9 || digits[nd] != '.' ||
        strspn(digits + nd + 1, "0123456789abcdef") != 16 || digits[nd + 17] != '\0')
        return 0;
    *pid = strtol(digits, NULL, 10);
    return 1;
}

/* Whether process pid may still be running (a process of another user counts). */
static int alive(long pid)
{
    return pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

int outfile_remove_stale(const char *dir, long *removed, struct catena_error *err)
{
    *removed = 0;
    DIR *d = opendir(dir);
    if (!d)
        return errno == ENOENT || errno == ENOTDIR
                   ? CATENA_OK
                   : error_set(err, CATENA_EFAIL, "%s: cannot read: %s", dir, strerror(errno));
    int rc = CATENA_OK;
    for (struct dirent *e; rc == CATENA_OK && (e = readdir(d));) {
        long pid;
        struct stat st;
        if (!outfile_is_temporary(e->d_name, &pid) || alive(pid) ||
            fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
            st.st_uid != geteuid())
            continue;
        if (unlinkat(dirfd(d), e->d_name, 0) == 0)
            ++*removed;
        else if (errno != ENOENT)
            rc = error_set(err, CATENA_EFAIL, "%s/%s: cannot remove a stale temporary file: %s",
                           dir, e->d_name, strerror(errno));
    }
    closedir(d);
    return rc;
}

int outfile_journal_start(struct outfile_journal *j, const char *dir, struct catena_error *err)
{
    *j = (struct outfile_journal){.dir = strdup(dir)};
    if (!j->dir)
        return error_set(err, CATENA_EFAIL, "%s: out of memory", dir);
    collapse_slashes(j->dir);
    const size_t n = strlen(j->dir);
    if (n > 1 && j->dir[n - 1] == '/')
        j->dir[n - 1] = '\0';
    if (strcmp(j->dir, ".") == 0)
        j->dir[0] = '\0';
    journal = j;
    return CATENA_OK;
}

void outfile_journal_stop(struct outfile_journal *j)
{
    if (journal == j)
        journal = NULL;
}

void outfile_journal_free(struct outfile_journal *j)
{
    outfile_journal_stop(j);
    for (size_t i = 0; i < j->n; i++)
        free(j->entries[i].name);
    free(j->entries);
    free(j->dir);
    *j = (struct outfile_journal){0};
}
