/* The trajectory formats behind io/traj.h (private to the writers). Each write_*.c fills one
 * table of operations (Chipmunk-style dispatch); io/traj.c owns the file, a fixed output
 * buffer and the error messages, so a format only turns frames into bytes. Rows are built
 * in the buffer and reach the file in large fwrite calls, never one printf per number. */
#ifndef CATENA_TRAJ_FORMAT_H
#define CATENA_TRAJ_FORMAT_H

#include <stddef.h>

#include "model/model.h"
#include "core/outfile.h"

enum {
    TRAJ_BUF_SIZE = 1 << 16, /* bytes gathered before one fwrite */
    TRAJ_ROW_MAX = 256,      /* upper bound on one CSV row or one point of a frame */
};

struct traj_writer {
    const struct traj_format_ops *ops;
    struct outfile out;
    size_t npoints;      /* points per frame, fixed at open */
    int dims;            /* components written per point, 2 or 3 */
    long frames;         /* frames appended so far */
    size_t header_size;  /* npy: bytes reserved for the header, rewritten at close */
    int npy_native;      /* npy: 1 when the host stores doubles as the file does (little-endian),
                            so positions are copied as they are; 0: byte by byte */
    long every;          /* output.every: json writes it */
    struct outfile side; /* npy: trajectory-frames.npy, the frames' steps and times, streamed
                            beside it (side.fp NULL when not open) */
    int error;           /* errno of the first failed write; 0 while all is well */
    size_t len;          /* bytes waiting in buf */
    char buf[TRAJ_BUF_SIZE];
};

/* One format. Each operation returns 0, or -1 with w->error set. */
struct traj_format_ops {
    const char *name; /* "csv": the file is trajectory.csv */
    int (*begin)(struct traj_writer *w, const struct model *m,
                 const char *name); /* name: the scenario's, for the header */
    /* one frame: step, time t (s), positions x[npoints] (m); w->frames counts those before */
    int (*frame)(struct traj_writer *w, long step, double t, const vec3 *x);
    int (*end)(struct traj_writer *w);
    /* Optional: after the file is committed, commits (or drops) what the format writes beside
     * it; CATENA_OK or an error in err. */
    int (*commit_side)(struct traj_writer *w, struct catena_error *err);
    /* Optional: drops what the format writes beside the file. */
    void (*abort_side)(struct traj_writer *w);
};

extern const struct traj_format_ops traj_csv_ops, traj_json_ops, traj_npy_ops;

/* Room for n <= TRAJ_BUF_SIZE bytes at buf + len, flushing the buffer first when it is too
 * full. The caller writes there and advances len. NULL once a write has failed. */
char *traj_room(struct traj_writer *w, size_t n);

/* Appends n bytes of any length. */
int traj_put(struct traj_writer *w, const void *data, size_t n);

/* Writes the buffered bytes to the file. */
int traj_flush(struct traj_writer *w);

#endif
