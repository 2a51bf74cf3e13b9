/* trajectory.npy: NPY format version 1.0 (numpy.lib.format), a little-endian float64
 * array of shape (frames, points, dims) in C order. The header is padded so that the data
 * starts at a multiple of 64 bytes, and reserved wide enough for any frame count, so
 * close can rewrite it with the number of frames actually written.
 * NPY holds positions only, so the step and time of every frame go to trajectory-frames.npy
 * beside it, shape (frames, 2), streamed along with it: readers match frames by step in
 * every format (catena compare of a run recorded every 5 steps with one recorded every 10),
 * and a frame off the every grid (the last one of a run stopped by time.until_settled) keeps
 * its true step. Both stay plain arrays for numpy.load. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/traj.h"
#include "io/traj_format.h"

#define NPY_DICT "{'descr': '<f8', 'fortran_order': False, 'shape': (%ld, %zu, %d), }"
#define FRAMES_DICT "{'descr': '<f8', 'fortran_order': False, 'shape': (%ld, 2), }"

enum {
    NPY_PREAMBLE = 10, /* magic "\x93NUMPY", version 1.0, little-endian uint16 header length */
    NPY_ALIGN = 64,
    NPY_HEADER_MAX = 256, /* the widest header: 19-digit frames and 20-digit points fit */
};

/* A header of size bytes: the preamble, then dict padded with spaces and a newline. */
static void npy_header_put(char *out, size_t size, const char *dict)
{
    const size_t dict_len = size - NPY_PREAMBLE, n = strlen(dict);
    memcpy(out, "\x93NUMPY\x01\x00", 8);
    out[8] = (char)(dict_len & 0xff);
    out[9] = (char)(dict_len >> 8);
    memcpy(out + NPY_PREAMBLE, dict, n);
    memset(out + NPY_PREAMBLE + n, ' ', dict_len - n - 1);
    out[size - 1] = '\n';
}

/* The header for `frames` frames, padded to w->header_size. */
static void npy_header(const struct traj_writer *w, long frames, char *out)
{
    char dict[NPY_HEADER_MAX];
    snprintf(dict, sizeof dict, NPY_DICT, frames, w->npoints, w->dims);
    npy_header_put(out, w->header_size, dict);
}

/* The bytes a header with dict of n characters takes, rounded up to NPY_ALIGN. */
static size_t npy_header_size(size_t n)
{
    return (NPY_PREAMBLE + n + 1 + NPY_ALIGN - 1) / NPY_ALIGN * NPY_ALIGN;
}

/* trajectory-frames.npy's header for `frames` frames, sized for the widest count. */
static size_t frames_header(long frames, char *out)
{
    char dict[NPY_HEADER_MAX];
    const size_t size = npy_header_size((size_t)snprintf(NULL, 0, FRAMES_DICT, LONG_MAX));
    snprintf(dict, sizeof dict, FRAMES_DICT, frames);
    npy_header_put(out, size, dict);
    return size;
}

static int host_is_little_endian(void)
{
    const uint16_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first == 1;
}

/* Opens trajectory-frames.npy beside w's file (DIR/trajectory.npy) under its temporary name
 * and writes a header for 0 frames. */
static int frames_open(struct traj_writer *w)
{
    const char *path = w->out.path, *slash = strrchr(path, '/');
    const size_t dlen = !slash ? 0 : slash == path ? 1 : (size_t)(slash - path);
    char *dir = malloc(dlen + 1), header[NPY_HEADER_MAX];
    if (!dir) {
        w->error = ENOMEM;
        return -1;
    }
    memcpy(dir, path, dlen);
    dir[dlen] = '\0';
    struct catena_error err;
    const int rc = outfile_open(&w->side, dir, "trajectory" TRAJ_FRAMES_SUFFIX, &err);
    free(dir);
    if (rc != CATENA_OK) {
        w->error = errno ? errno : EIO;
        return -1;
    }
    const size_t size = frames_header(0, header);
    if (fwrite(header, 1, size, w->side.fp) != size) {
        w->error = errno ? errno : EIO;
        return -1;
    }
    return 0;
}

static int npy_begin(struct traj_writer *w, const struct model *m, const char *name)
{
    (void)m;
    (void)name;
    /* Sized for the widest frame count, so the rewrite at close always fits. */
    w->header_size =
        npy_header_size((size_t)snprintf(NULL, 0, NPY_DICT, LONG_MAX, w->npoints, w->dims));
    char *p = traj_room(w, w->header_size);
    if (!p)
        return -1;
    npy_header(w, 0, p);
    w->len += w->header_size;
    w->npy_native = host_is_little_endian();
    return frames_open(w);
}

/* Little-endian bytes whatever the host's order. */
static char *put_f8(char *p, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    for (int i = 0; i < 8; i++)
        *p++ = (char)(u >> (8 * i));
    return p;
}

_Static_assert(sizeof(vec3) == 3 * sizeof(double), "vec3 is three packed doubles");

/* On a little-endian host the positions are already the file's bytes: 3D frames are copied
 * whole, 2D ones 16 bytes a point (dropping z). */
static int npy_frame_native(struct traj_writer *w, const vec3 *x)
{
    if (w->dims == 3)
        return traj_put(w, x, w->npoints * sizeof *x);
    const size_t per_flush = TRAJ_BUF_SIZE / (2 * sizeof(double));
    for (size_t i = 0; i < w->npoints;) {
        const size_t n = w->npoints - i < per_flush ? w->npoints - i : per_flush;
        char *p = traj_room(w, n * 2 * sizeof(double));
        if (!p)
            return -1;
        for (size_t k = 0; k < n; k++, i++)
            memcpy(p + k * 2 * sizeof(double), &x[i], 2 * sizeof(double));
        w->len += n * 2 * sizeof(double);
    }
    return 0;
}

/* The frame's step and time into trajectory-frames.npy. A failed write shows in the stream's
 * error flag, checked at close. */
static void frames_record(struct traj_writer *w, long step, double t)
{
    char row[16];
    put_f8(put_f8(row, (double)step), t);
    fwrite(row, 1, sizeof row, w->side.fp);
}

static int npy_frame(struct traj_writer *w, long step, double t, const vec3 *x)
{
    frames_record(w, step, t);
    if (w->npy_native)
        return npy_frame_native(w, x);
    for (size_t i = 0; i < w->npoints; i++) {
        char *p = traj_room(w, 3 * 8);
        if (!p)
            return -1;
        p = put_f8(p, x[i].x);
        p = put_f8(p, x[i].y);
        if (w->dims == 3)
            p = put_f8(p, x[i].z);
        w->len = (size_t)(p - w->buf);
    }
    return 0;
}

/* Writes the data out, then the header again with the frames actually written. */
static int npy_end(struct traj_writer *w)
{
    char header[NPY_HEADER_MAX];
    npy_header(w, w->frames, header);
    if (traj_flush(w))
        return -1;
    errno = 0;
    if (fseek(w->out.fp, 0, SEEK_SET) != 0 ||
        fwrite(header, 1, w->header_size, w->out.fp) != w->header_size) {
        w->error = errno ? errno : EIO;
        return -1;
    }
    return 0;
}

/* Rewrites trajectory-frames.npy's header for the frames written and commits it. */
static int npy_commit_side(struct traj_writer *w, struct catena_error *err)
{
    char header[NPY_HEADER_MAX];
    const size_t size = frames_header(w->frames, header);
    errno = 0;
    if (fseek(w->side.fp, 0, SEEK_SET) != 0 || fwrite(header, 1, size, w->side.fp) != size) {
        error_set(err, CATENA_EFAIL, "%s: cannot write: %s", w->side.path,
                  outfile_strerror(errno ? errno : EIO));
        outfile_abort(&w->side);
        return CATENA_EFAIL;
    }
    return outfile_commit(&w->side, err);
}

static void npy_abort_side(struct traj_writer *w)
{
    outfile_abort(&w->side);
}

const struct traj_format_ops traj_npy_ops = {
    .name = "npy",
    .begin = npy_begin,
    .frame = npy_frame,
    .end = npy_end,
    .commit_side = npy_commit_side,
    .abort_side = npy_abort_side,
};
