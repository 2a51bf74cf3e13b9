/* Opening a trajectory for reading: a run directory is resolved to the trajectory file in
 * it, the format is taken from the extension or sniffed from the first bytes, and frames
 * are handed out one at a time by the format's reader (io/traj_read_csv.c, _json.c, _npy.c). */
#define _POSIX_C_SOURCE 200809L
#include "io/traj_read_format.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "io/run_file.h"

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

/* The trajectory inside a run directory, malloc'd; NULL with err set if there is none. */
static char *find_in_dir(const char *dir, struct catena_error *err)
{
    for (int i = 0; i < NFORMATS; i++) {
        char name[32], *path;
        snprintf(name, sizeof name, "trajectory%s", formats[i].ext);
        if (run_file_find(dir, name, &path, err)) {
            err->code = CATENA_EINPUT;
            return NULL;
        }
        if (path)
            return path;
    }
    error_set(err, CATENA_EINPUT,
              "%s: no trajectory.npy, trajectory.csv or trajectory.json in this directory", dir);
    return NULL;
}

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

static struct traj_reader *open_file(char *path, struct catena_error *err)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        error_set(err, CATENA_EINPUT, "%s: cannot open: %s", path, strerror(errno));
        free(path);
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
        return NULL;
    }
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

struct traj_reader *traj_read_open(const char *path, struct catena_error *err)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        error_set(err, CATENA_EINPUT, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    char *file = S_ISDIR(st.st_mode) ? find_in_dir(path, err) : strdup(path);
    if (!file) {
        if (!S_ISDIR(st.st_mode))
            error_set(err, CATENA_EINPUT, "%s: out of memory", path);
        return NULL;
    }
    return open_file(file, err);
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
    free(r);
}
