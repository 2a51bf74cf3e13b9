/* Reading trajectory.npy: NPY format 1.0 or 2.0 (numpy.lib.format), '<f8' in C order, shape
 * (frames, points, dims). NPY holds positions only: frames are numbered 0..F-1 (step =
 * index) and their time is NAN, so comparisons with it match frames by index, unless
 * NAME-frames.npy lies beside NAME.npy (io/write_npy.c): then its rows (step, time), shape
 * (frames, 2), are the frames' steps and times, read along with them. */
#define _POSIX_C_SOURCE 200809L
#include "io/traj.h"
#include "io/traj_read_format.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum {
    NPY_HEADER_MAX = 1 << 16, /* numpy writes a few hundred bytes; refuse absurd lengths */
    NPY_RANK_MAX = 8,
};

struct npy_state {
    uint64_t frame_bytes; /* points * dims * 8 */
    uint64_t data_start;  /* offset of the first double */
    unsigned char *raw;   /* [frame_bytes] */
    FILE *frames;         /* NAME-frames.npy at its next row, or NULL when there is none */
    char *frames_path;
    double last_step; /* the step of the previous row, -1 before the first */
};

struct npy_header {
    char descr[16];
    int fortran_order; /* -1 until seen */
    int rank;          /* -1 until seen */
    uint64_t shape[NPY_RANK_MAX];
};

static uint64_t le_bytes(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static const char *skip_space(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return p;
}

/* A quoted Python string ('...' or "...") into out; NULL if it is not one or too long. */
static const char *parse_str(const char *p, char *out, size_t size)
{
    char q = *p;
    if (q != '\'' && q != '"')
        return NULL;
    const char *end = strchr(p + 1, q);
    if (!end || (size_t)(end - p - 1) >= size)
        return NULL;
    memcpy(out, p + 1, (size_t)(end - p - 1));
    out[end - p - 1] = '\0';
    return end + 1;
}

/* A tuple of non-negative integers: "(3, 31, 2)", "(5,)", "()". */
static const char *parse_shape(const char *p, struct npy_header *h)
{
    if (*p != '(')
        return NULL;
    h->rank = 0;
    for (p = skip_space(p + 1); *p != ')'; p = skip_space(p)) {
        char *end;
        if (*p < '0' || *p > '9' || h->rank == NPY_RANK_MAX)
            return NULL;
        errno = 0;
        h->shape[h->rank++] = strtoull(p, &end, 10);
        if (errno)
            return NULL;
        p = skip_space(end);
        if (*p == ',')
            p++;
        else if (*p != ')')
            return NULL;
    }
    return p + 1;
}

/* One "'key': value" of the header dictionary. */
static const char *parse_item(const char *p, struct npy_header *h)
{
    char key[32];
    if (!(p = parse_str(p, key, sizeof key)))
        return NULL;
    p = skip_space(p);
    if (*p++ != ':')
        return NULL;
    p = skip_space(p);
    if (strcmp(key, "descr") == 0)
        return parse_str(p, h->descr, sizeof h->descr);
    if (strcmp(key, "fortran_order") == 0) {
        h->fortran_order = strncmp(p, "True", 4) == 0;
        if (h->fortran_order)
            return p + 4;
        return strncmp(p, "False", 5) == 0 ? p + 5 : NULL;
    }
    if (strcmp(key, "shape") == 0)
        return parse_shape(p, h);
    return NULL;
}

/* The header dictionary: "{'descr': '<f8', 'fortran_order': False, 'shape': (F, N, D), }". */
static int parse_dict(const char *text, struct npy_header *h)
{
    const char *p = skip_space(text);
    if (*p != '{')
        return -1;
    for (p = skip_space(p + 1); *p != '}'; p = skip_space(p)) {
        if (!(p = parse_item(p, h)))
            return -1;
        p = skip_space(p);
        if (*p == ',')
            p++;
        else if (*p != '}')
            return -1;
    }
    return *skip_space(p + 1) == '\0' ? 0 : -1;
}

static int bad_header_at(const char *path, const char *what, struct catena_error *err)
{
    return error_set(err, CATENA_EINPUT, "%s: bad NPY header: %s", path, what);
}

static int bad_header(struct traj_reader *r, const char *what, struct catena_error *err)
{
    return bad_header_at(r->path, what, err);
}

/* Checks the dictionary says what catena writes and fills r->info. */
static int check_header(struct traj_reader *r, const struct npy_header *h, struct catena_error *err)
{
    char msg[160];
    if (!h->descr[0] || h->fortran_order < 0 || h->rank < 0)
        return bad_header(r, "'descr', 'fortran_order' or 'shape' is missing", err);
    if (strcmp(h->descr, "<f8") != 0) {
        char q[TRAJ_QUOTE_SIZE];
        snprintf(msg, sizeof msg, "descr '%s' is not supported (catena reads '<f8')",
                 traj_read_quote(q, sizeof q, h->descr));
        return bad_header(r, msg, err);
    }
    if (h->fortran_order)
        return bad_header(r, "fortran_order is True (catena reads C order)", err);
    if (h->rank != 3) {
        snprintf(msg, sizeof msg, "shape has %d dimensions, expected 3 (frames, points, dims)",
                 h->rank);
        return bad_header(r, msg, err);
    }
    const uint64_t *sh = h->shape;
    if (sh[2] != 2 && sh[2] != 3) {
        snprintf(msg, sizeof msg, "shape (%llu, %llu, %llu): expected 2 or 3 components per point",
                 (unsigned long long)sh[0], (unsigned long long)sh[1], (unsigned long long)sh[2]);
        return bad_header(r, msg, err);
    }
    if (sh[1] == 0 || sh[1] > SIZE_MAX / sizeof(vec3) || sh[0] > (uint64_t)LONG_MAX ||
        (sh[0] > 0 && sh[1] * sh[2] * 8 > UINT64_MAX / sh[0])) {
        snprintf(msg, sizeof msg, "shape (%llu, %llu, %llu) is not a usable size",
                 (unsigned long long)sh[0], (unsigned long long)sh[1], (unsigned long long)sh[2]);
        return bad_header(r, msg, err);
    }
    if (sh[0] == 0)
        return error_set(err, CATENA_EINPUT, "%s: no frames", r->path);
    r->info.nframes = (long)sh[0];
    r->info.npoints = (size_t)sh[1];
    r->info.dims = (int)sh[2];
    return CATENA_OK;
}

/* Reads the magic, version and header length; *start is where the dictionary begins. */
static int read_preamble(FILE *fp, const char *path, uint64_t size, uint64_t *hlen, uint64_t *start,
                         struct catena_error *err)
{
    unsigned char pre[12];
    size_t n = fread(pre, 1, sizeof pre, fp);
    if (memcmp(pre, "\x93NUMPY", n < 6 ? n : 6) != 0 || n == 0)
        return bad_header_at(path, "no \\x93NUMPY magic at the start (not an NPY file)", err);
    if (n < 8)
        return error_set(err, CATENA_EINPUT,
                         "%s: truncated: expected 10 bytes of header, found %zu", path, n);
    if (pre[6] != 1 && pre[6] != 2) {
        char msg[96];
        snprintf(msg, sizeof msg, "version %d.%d is not supported (catena reads 1.0 and 2.0)",
                 pre[6], pre[7]);
        return bad_header_at(path, msg, err);
    }
    *start = pre[6] == 1 ? 10 : 12;
    if (n < *start)
        return error_set(err, CATENA_EINPUT,
                         "%s: truncated: expected %llu bytes of header, found %llu", path,
                         (unsigned long long)*start, (unsigned long long)size);
    *hlen = le_bytes(pre + 8, pre[6] == 1 ? 2 : 4);
    if (*hlen > NPY_HEADER_MAX)
        return bad_header_at(path, "header length over 64 KiB", err);
    if (*start + *hlen > size)
        return error_set(err, CATENA_EINPUT,
                         "%s: truncated: expected %llu bytes of header, found %llu", path,
                         (unsigned long long)(*start + *hlen), (unsigned long long)size);
    return CATENA_OK;
}

/* The header dictionary of the NPY file fp (of size bytes) into h; *data_start is where the
 * data begins. */
static int read_header(FILE *fp, const char *path, uint64_t size, struct npy_header *h,
                       uint64_t *data_start, struct catena_error *err)
{
    uint64_t hlen = 0, start = 0;
    if (read_preamble(fp, path, size, &hlen, &start, err))
        return CATENA_EINPUT;
    char *text = malloc(hlen + 1);
    if (!text)
        return error_set(err, CATENA_EINPUT, "%s: out of memory", path);
    fseek(fp, (long)start, SEEK_SET);
    size_t got = fread(text, 1, hlen, fp);
    text[got] = '\0';
    *h = (struct npy_header){.fortran_order = -1, .rank = -1};
    int bad = got != hlen || strlen(text) != hlen || parse_dict(text, h) != 0;
    free(text);
    if (bad)
        return bad_header_at(path, "cannot parse the dictionary", err);
    *data_start = start + hlen;
    return CATENA_OK;
}

/* NAME-frames.npy for NAME.npy, malloc'd; NULL for a file not named .npy or on OOM. */
static char *frames_path(const char *path)
{
    const size_t n = strlen(path);
    if (n < 4 || strcmp(path + n - 4, ".npy") != 0)
        return NULL;
    char *p = malloc(n - 4 + sizeof TRAJ_FRAMES_SUFFIX);
    if (p)
        snprintf(p, n - 4 + sizeof TRAJ_FRAMES_SUFFIX, "%.*s%s", (int)(n - 4), path,
                 TRAJ_FRAMES_SUFFIX);
    return p;
}

/* Opens the frames file beside r's when there is one, checks it holds one (step, time) row
 * per frame and leaves it at the first row. */
static int open_frames(struct traj_reader *r, struct npy_state *s, struct catena_error *err)
{
    if (r->frames_known) { /* a run directory's manifest says which, if any */
        if (!r->frames_path)
            return CATENA_OK;
        s->frames_path = r->frames_path;
        r->frames_path = NULL;
    } else if (!(s->frames_path = frames_path(r->path))) {
        return CATENA_OK;
    }
    const char *path = s->frames_path;
    int e = 0;
    if (!(s->frames = traj_read_fopen(path, &e)))
        return e == ENOENT ? CATENA_OK
                           : error_set(err, CATENA_EINPUT, "%s: %s%s", path,
                                       e == EINVAL ? "" : "cannot open: ",
                                       e == EINVAL ? "not a regular file" : strerror(e));
    struct stat st;
    if (fstat(fileno(s->frames), &st) != 0)
        return error_set(err, CATENA_EINPUT, "%s: %s", path, strerror(errno));
    struct npy_header h;
    uint64_t start = 0;
    if (read_header(s->frames, path, (uint64_t)st.st_size, &h, &start, err))
        return CATENA_EINPUT;
    const uint64_t frames = (uint64_t)r->info.nframes;
    if (h.rank != 2 || h.shape[0] != frames || h.shape[1] != 2 || strcmp(h.descr, "<f8") != 0 ||
        h.fortran_order != 0)
        return error_set(err, CATENA_EINPUT,
                         "%s: expected '<f8' rows (step, time) in C order, shape (%ld, 2), one "
                         "for each frame of %s",
                         path, r->info.nframes, r->path);
    if ((uint64_t)st.st_size - start != frames * 16)
        return error_set(err, CATENA_EINPUT, "%s: expected %llu bytes of data, found %llu", path,
                         (unsigned long long)(frames * 16),
                         (unsigned long long)((uint64_t)st.st_size - start));
    s->last_step = -1;
    r->info.has_steps = 1;
    return CATENA_OK;
}

/* The next row of the frames file into r->frame: a whole step >= 0 above the last one and a
 * finite time. */
static int read_frame_row(struct traj_reader *r, struct npy_state *s, struct catena_error *err)
{
    unsigned char row[16];
    double v[2];
    if (fread(row, 1, sizeof row, s->frames) != sizeof row)
        return error_set(err, CATENA_EINPUT, "%s: truncated at frame %ld", s->frames_path,
                         r->nread);
    for (int k = 0; k < 2; k++) {
        const uint64_t u = le_bytes(row + 8 * k, 8);
        memcpy(&v[k], &u, sizeof v[k]);
    }
    /* 2^53: every step below it is a double exactly, and a long */
    if (!(v[0] > s->last_step && v[0] < 0x1p53 && v[0] == floor(v[0])) || !isfinite(v[1]))
        return error_set(err, CATENA_EINPUT,
                         "%s: frame %ld: step %.17g at time %.17g (expected a whole step above "
                         "the last one and a finite time)",
                         s->frames_path, r->nread, v[0], v[1]);
    s->last_step = v[0];
    r->frame.step = (long)v[0];
    r->frame.time = v[1];
    return CATENA_OK;
}

static int npy_open(struct traj_reader *r, struct catena_error *err)
{
    struct npy_state *s = calloc(1, sizeof *s);
    if (!s)
        return error_set(err, CATENA_EINPUT, "%s: out of memory", r->path);
    r->state = s;
    struct stat st;
    if (fstat(fileno(r->fp), &st) != 0)
        return error_set(err, CATENA_EINPUT, "%s: %s", r->path, strerror(errno));
    uint64_t size = (uint64_t)st.st_size;
    struct npy_header h;
    if (read_header(r->fp, r->path, size, &h, &s->data_start, err) || check_header(r, &h, err))
        return CATENA_EINPUT;
    s->frame_bytes = (uint64_t)r->info.npoints * (uint64_t)r->info.dims * 8;
    uint64_t need = s->frame_bytes * (uint64_t)r->info.nframes, found = size - s->data_start;
    if (found < need)
        return error_set(err, CATENA_EINPUT,
                         "%s: truncated: expected %llu bytes of data, found %llu", r->path,
                         (unsigned long long)need, (unsigned long long)found);
    if (found > need)
        return error_set(err, CATENA_EINPUT,
                         "%s: bad NPY header: shape (%ld, %zu, %d) holds %llu bytes of data, "
                         "found %llu",
                         r->path, r->info.nframes, r->info.npoints, r->info.dims,
                         (unsigned long long)need, (unsigned long long)found);
    s->raw = malloc(s->frame_bytes);
    r->x = malloc(r->info.npoints * sizeof *r->x);
    if (!s->raw || !r->x)
        return error_set(err, CATENA_EINPUT, "%s: out of memory", r->path);
    return open_frames(r, s, err);
}

static int npy_next(struct traj_reader *r, int *more, struct catena_error *err)
{
    struct npy_state *s = r->state;
    *more = r->nread < r->info.nframes;
    if (!*more)
        return CATENA_OK;
    size_t got = fread(s->raw, 1, s->frame_bytes, r->fp);
    if (got != s->frame_bytes) /* the file shrank since open */
        return error_set(err, CATENA_EINPUT,
                         "%s: truncated: expected %llu bytes of data, found %llu", r->path,
                         (unsigned long long)(s->frame_bytes * (uint64_t)r->info.nframes),
                         (unsigned long long)(s->frame_bytes * (uint64_t)r->nread + got));
    const unsigned char *p = s->raw;
    for (size_t i = 0; i < r->info.npoints; i++) {
        double c[3] = {0, 0, 0};
        for (int k = 0; k < r->info.dims; k++, p += 8) {
            uint64_t u = le_bytes(p, 8);
            memcpy(&c[k], &u, sizeof c[k]);
        }
        r->x[i] = v3(c[0], c[1], c[2]);
    }
    if (s->frames)
        return read_frame_row(r, s, err);
    r->frame.step = r->nread;
    r->frame.time = NAN;
    return CATENA_OK;
}

static void npy_close(struct traj_reader *r)
{
    struct npy_state *s = r->state;
    if (s) {
        free(s->raw);
        if (s->frames)
            fclose(s->frames);
        free(s->frames_path);
    }
    free(s);
}

const struct traj_read_ops traj_read_npy_ops = {
    .open = npy_open,
    .next = npy_next,
    .close = npy_close,
};
