/* trajectory.npy: NPY format version 1.0 (numpy.lib.format), a little-endian float64
 * array of shape (frames, points, dims) in C order. The header is padded so that the data
 * starts at a multiple of 64 bytes, and reserved wide enough for any frame count, so
 * close can rewrite it with the number of frames actually written. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "traj_format.h"

#define NPY_DICT "{'descr': '<f8', 'fortran_order': False, 'shape': (%ld, %zu, %d), }"

enum {
    NPY_PREAMBLE = 10, /* magic "\x93NUMPY", version 1.0, little-endian uint16 header length */
    NPY_ALIGN = 64,
    NPY_HEADER_MAX = 256, /* the widest header: 19-digit frames and 20-digit points fit */
};

/* The header for `frames` frames, padded with spaces and a newline to w->header_size. */
static void npy_header(const struct traj_writer *w, long frames, char *out)
{
    size_t dict_len = w->header_size - NPY_PREAMBLE;
    memcpy(out, "\x93NUMPY\x01\x00", 8);
    out[8] = (char)(dict_len & 0xff);
    out[9] = (char)(dict_len >> 8);
    int n = snprintf(out + NPY_PREAMBLE, dict_len, NPY_DICT, frames, w->npoints, w->dims);
    memset(out + NPY_PREAMBLE + n, ' ', dict_len - (size_t)n - 1);
    out[w->header_size - 1] = '\n';
}

static int host_is_little_endian(void)
{
    const uint16_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first == 1;
}

static int npy_begin(struct traj_writer *w, const struct model *m)
{
    (void)m;
    /* Sized for the widest frame count, so the rewrite at close always fits. */
    size_t widest = (size_t)snprintf(NULL, 0, NPY_DICT, LONG_MAX, w->npoints, w->dims);
    size_t need = NPY_PREAMBLE + widest + 1;
    w->header_size = (need + NPY_ALIGN - 1) / NPY_ALIGN * NPY_ALIGN;
    char *p = traj_room(w, w->header_size);
    if (!p)
        return -1;
    npy_header(w, 0, p);
    w->len += w->header_size;
    w->npy_native = host_is_little_endian();
    return 0;
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
static int npy_frame_native(struct traj_writer *w, const struct state *s)
{
    if (w->dims == 3)
        return traj_put(w, s->x, w->npoints * sizeof *s->x);
    const size_t per_flush = TRAJ_BUF_SIZE / (2 * sizeof(double));
    for (size_t i = 0; i < w->npoints;) {
        const size_t n = w->npoints - i < per_flush ? w->npoints - i : per_flush;
        char *p = traj_room(w, n * 2 * sizeof(double));
        if (!p)
            return -1;
        for (size_t k = 0; k < n; k++, i++)
            memcpy(p + k * 2 * sizeof(double), &s->x[i], 2 * sizeof(double));
        w->len += n * 2 * sizeof(double);
    }
    return 0;
}

static int npy_frame(struct traj_writer *w, const struct state *s)
{
    if (w->npy_native)
        return npy_frame_native(w, s);
    for (size_t i = 0; i < w->npoints; i++) {
        char *p = traj_room(w, 3 * 8);
        if (!p)
            return -1;
        p = put_f8(p, s->x[i].x);
        p = put_f8(p, s->x[i].y);
        if (w->dims == 3)
            p = put_f8(p, s->x[i].z);
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

const struct traj_format_ops traj_npy_ops = {
    .name = "npy",
    .begin = npy_begin,
    .frame = npy_frame,
    .end = npy_end,
};
