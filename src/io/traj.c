/* Trajectory writers: picks the format's operations, owns the buffered output file and
 * turns a failed write into a message naming the file. The formats are write_*.c. */
#include "io/traj.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/traj_format.h"

static const struct {
    enum output_format format;
    const struct traj_format_ops *ops;
} formats[] = {
    {FORMAT_CSV, &traj_csv_ops},
    {FORMAT_JSON, &traj_json_ops},
    {FORMAT_NPY, &traj_npy_ops},
};

static const struct traj_format_ops *find_ops(enum output_format format)
{
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (formats[i].format == format)
            return formats[i].ops;
    return NULL;
}

const char *traj_format_name(enum output_format format)
{
    const struct traj_format_ops *ops = find_ops(format);
    return ops ? ops->name : NULL;
}

int traj_flush(struct traj_writer *w)
{
    if (w->error)
        return -1;
    errno = 0;
    if (w->len && fwrite(w->buf, 1, w->len, w->out.fp) != w->len) {
        w->error = errno ? errno : EIO;
        return -1;
    }
    w->len = 0;
    /* Checked at each flush (every TRAJ_BUF_SIZE bytes), so that a run whose directory is
     * removed stops with a message instead of filling an unreachable file to the end. */
    w->error = outfile_lost(&w->out);
    return w->error ? -1 : 0;
}

char *traj_room(struct traj_writer *w, size_t n)
{
    if (w->len + n > sizeof w->buf && traj_flush(w))
        return NULL;
    return w->error ? NULL : w->buf + w->len;
}

int traj_put(struct traj_writer *w, const void *data, size_t n)
{
    const char *p = data;
    while (n) {
        size_t chunk = n < sizeof w->buf ? n : sizeof w->buf;
        char *dst = traj_room(w, chunk);
        if (!dst)
            return -1;
        memcpy(dst, p, chunk);
        w->len += chunk;
        p += chunk;
        n -= chunk;
    }
    return 0;
}

/* The writer's first failure as a message. */
static int report(const struct traj_writer *w, struct catena_error *err)
{
    return error_set(err, CATENA_EFAIL, "%s: cannot write: %s", w->out.path,
                     outfile_strerror(w->error));
}

struct traj_writer *traj_open(enum output_format format, const char *dir, const struct model *m,
                              const char *name, long every, struct catena_error *err)
{
    const struct traj_format_ops *ops = find_ops(format);
    if (!ops) {
        error_set(err, CATENA_EINPUT, "unknown trajectory format %d", (int)format);
        return NULL;
    }
    char file[32];
    snprintf(file, sizeof file, "trajectory.%s", ops->name);
    struct traj_writer *w = malloc(sizeof *w);
    if (!w) {
        error_set(err, CATENA_EFAIL, "%s: %s: out of memory", dir, file);
        return NULL;
    }
    w->ops = ops;
    w->npoints = m->npoints;
    w->dims = m->dims;
    w->frames = 0;
    w->header_size = 0;
    w->npy_native = 0;
    w->every = every;
    w->side = (struct outfile){0};
    w->error = 0;
    w->len = 0;
    if (outfile_open(&w->out, dir, file, err)) {
        free(w);
        return NULL;
    }
    if (ops->begin(w, m, name)) {
        report(w, err);
        traj_abort(w);
        return NULL;
    }
    return w;
}

int traj_append(struct traj_writer *w, long step, double t, const vec3 *x, struct catena_error *err)
{
    if (w->error || w->ops->frame(w, step, t, x))
        return report(w, err);
    w->frames++;
    return CATENA_OK;
}

int traj_close(struct traj_writer *w, struct catena_error *err)
{
    int rc;
    if (w->error || w->ops->end(w) || traj_flush(w)) {
        rc = report(w, err);
        outfile_abort(&w->out);
    } else {
        rc = outfile_commit(&w->out, err);
    }
    /* Beside the file only once the file itself is in place, so that a file beside an older
     * trajectory never claims to describe it. */
    if (rc == CATENA_OK && w->ops->commit_side)
        rc = w->ops->commit_side(w, err);
    else if (w->ops->abort_side)
        w->ops->abort_side(w);
    free(w);
    return rc;
}

void traj_abort(struct traj_writer *w)
{
    if (!w)
        return;
    outfile_abort(&w->out);
    if (w->ops->abort_side)
        w->ops->abort_side(w);
    free(w);
}
