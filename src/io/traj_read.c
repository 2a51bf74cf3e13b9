/* Opening a trajectory for reading: a run directory is resolved to the trajectory its
 * manifest lists (io/rundir.h), the format is taken from the extension or sniffed from the
 * first bytes, and frames are handed out one at a time by the format's reader
 * (io/traj_read_csv.c, _json.c, _npy.c). */
#define _POSIX_C_SOURCE 200809L
#include "io/traj_read_format.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/stop.h"
#include "io/traj.h"

static const struct {
    const char *ext;
    enum output_format format;
    const struct traj_read_ops *ops;
} formats[] = {
    /* Also the order a run directory is searched in: NPY reads fastest and is exact. */
    {".npy", FORMAT_NPY, &traj_read_npy_ops},
    {".csv", FORMAT_CSV, &traj_read_csv_ops},
    {".json", FORMAT_JSON, &traj_read_json_ops},
};
enum { NFORMATS = sizeof formats / sizeof formats[0] };

static int index_of(enum output_format format)
{
    int i = 0;
    while (formats[i].format != format)
        i++;
    return i;
}

static int by_extension(const char *path)
{
    size_t n = strlen(path);
    for (int i = 0; i < NFORMATS; i++) {
        size_t e = strlen(formats[i].ext);
        if (n > e && strcasecmp(path + n - e, formats[i].ext) == 0)
            return i;
    }
    return -1;
}

/* The format from the first bytes: NPY magic, a JSON object, or the CSV header. */
static int by_content(FILE *fp, const char *path, struct catena_error *err)
{
    char head[64];
    size_t n = fread(head, 1, sizeof head, fp);
    rewind(fp);
    size_t i = 0;
    while (i < n && isspace((unsigned char)head[i]))
        i++;
    if (n >= 6 && memcmp(head, "\x93NUMPY", 6) == 0)
        return index_of(FORMAT_NPY);
    if (n >= 5 && memcmp(head, "step,", 5) == 0)
        return index_of(FORMAT_CSV);
    if (i < n && head[i] == '{')
        return index_of(FORMAT_JSON);
    if (n == 0)
        error_set(err, CATENA_EINPUT, "%s: empty file", path);
    else
        error_set(err, CATENA_EINPUT,
                  "%s: not a trajectory (expected CSV starting \"step,\", JSON or NPY)", path);
    return -1;
}

FILE *traj_read_fopen(const char *path, int *errnum)
{
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    FILE *fp = NULL;
    if (fd < 0) {
        *errnum = errno;
        return NULL;
    }
    if (fstat(fd, &st) != 0)
        *errnum = errno;
    else if (!S_ISREG(st.st_mode))
        *errnum = EINVAL;
    else if (fcntl(fd, F_SETFL, 0) != 0 || !(fp = fdopen(fd, "rb")))
        *errnum = errno;
    if (!fp)
        close(fd);
    return fp;
}

/* Opens the trajectory at path (malloc'd, taken over); frames: its NAME-frames.npy when the
 * caller knows it (malloc'd, taken over, NULL for none), else looked for beside it. */
static struct traj_reader *open_file(char *path, int frames_known, char *frames,
                                     struct catena_error *err)
{
    int e = 0;
    FILE *fp = traj_read_fopen(path, &e);
    if (!fp) {
        error_set(err, CATENA_EINPUT, "%s: %s%s", path, e == EINVAL ? "" : "cannot open: ",
                  e == EINVAL ? "not a regular file" : strerror(e));
        free(path);
        free(frames);
        return NULL;
    }
    int f = by_extension(path);
    if (f < 0)
        f = by_content(fp, path, err);
    struct traj_reader *r = f < 0 ? NULL : calloc(1, sizeof *r);
    if (!r) {
        if (f >= 0)
            error_set(err, CATENA_EINPUT, "%s: out of memory", path);
        fclose(fp);
        free(path);
        free(frames);
        return NULL;
    }
    r->frames_known = frames_known;
    r->frames_path = frames;
    r->ops = formats[f].ops;
    r->fp = fp;
    r->path = path;
    r->info.path = path;
    r->info.format = formats[f].format;
    r->info.nframes = -1;
    r->frame.time = NAN;
    if (r->ops->open(r, err) != CATENA_OK) {
        traj_read_close(r);
        return NULL;
    }
    r->frame.x = r->x;
    if (r->pending)
        r->nread = 1;
    return r;
}

struct traj_reader *traj_read_open_run(struct rundir *rd, struct catena_error *err)
{
    for (int i = 0; i < NFORMATS; i++) {
        char name[32];
        snprintf(name, sizeof name, "trajectory%s", formats[i].ext);
        if (!rundir_find(rd, name))
            continue;
        char *path = rundir_path(rd, name, err), *frames = NULL;
        if (!path)
            return NULL;
        if (formats[i].format == FORMAT_NPY && rundir_find(rd, "trajectory" TRAJ_FRAMES_SUFFIX) &&
            !(frames = rundir_path(rd, "trajectory" TRAJ_FRAMES_SUFFIX, err))) {
            free(path);
            return NULL;
        }
        return open_file(path, 1, frames, err);
    }
    error_set(err, CATENA_EINPUT,
              "%s: the run wrote no trajectory (%s lists no trajectory.npy, .csv or .json)",
              rd->dir, rd->manifest);
    return NULL;
}

struct traj_reader *traj_read_open(const char *path, struct catena_error *err)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        error_set(err, CATENA_EINPUT, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    if (S_ISDIR(st.st_mode)) {
        struct rundir *rd;
        if (rundir_open(path, &rd, err))
            return NULL;
        struct traj_reader *r = traj_read_open_run(rd, err);
        rundir_close(rd);
        return r;
    }
    char *file = strdup(path);
    if (!file) {
        error_set(err, CATENA_EINPUT, "%s: out of memory", path);
        return NULL;
    }
    return open_file(file, 0, NULL, err);
}

const char *traj_read_quote(char *out, size_t size, const char *text)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (n + 8 > size) { /* keeps room for "..." and the NUL */
            memcpy(out + n, "...", 4);
            return out;
        }
        if (*p >= 0x20 && *p < 0x7f)
            out[n++] = (char)*p;
        else
            n += (size_t)snprintf(out + n, size - n, "\\x%02x", *p);
    }
    out[n] = '\0';
    return out;
}

const struct traj_info *traj_read_info(const struct traj_reader *r)
{
    return &r->info;
}

int traj_read_next(struct traj_reader *r, const struct traj_frame **frame, struct catena_error *err)
{
    *frame = NULL;
    if (stop_requested()) /* the caller ends cleanly and exits as the signal asks */
        return error_set(err, CATENA_EINPUT, "%s: interrupted by %s", r->path,
                         stop_signal_name(stop_requested()));
    if (r->pending) {
        r->pending = 0;
        *frame = &r->frame;
        return CATENA_OK;
    }
    if (r->done)
        return CATENA_OK;
    int more = 0;
    int rc = r->ops->next(r, &more, err);
    if (rc != CATENA_OK)
        return rc;
    if (!more) {
        r->done = 1;
        r->info.nframes = r->nread;
        return CATENA_OK;
    }
    r->frame.index = r->nread++;
    *frame = &r->frame;
    return CATENA_OK;
}

void traj_read_close(struct traj_reader *r)
{
    if (!r)
        return;
    if (r->ops && r->ops->close)
        r->ops->close(r);
    if (r->fp)
        fclose(r->fp);
    free(r->x);
    free(r->path);
    free(r->frames_path);
    free(r);
}
