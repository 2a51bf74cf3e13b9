/* The trajectory formats behind io/traj_read.h (private to the readers). Each
 * traj_read_*.c fills one table of operations (Chipmunk-style dispatch); io/traj_read.c finds
 * the file, picks the format and hands frames out. */
#ifndef CATENA_TRAJ_READ_FORMAT_H
#define CATENA_TRAJ_READ_FORMAT_H

#include <stdio.h>

#include "io/traj_read.h"

struct traj_reader {
    const struct traj_read_ops *ops;
    FILE *fp;
    char *path;
    struct traj_info info;   /* info.path points at path */
    struct traj_frame frame; /* the frame handed out; frame.x points at x */
    vec3 *x;                 /* [info.npoints], allocated by the format */
    long nread;              /* frames handed out or read ahead so far */
    int pending;             /* frame was read by open and is not handed out yet */
    int done;                /* the last frame has been handed out */
    int frames_known;        /* 1: frames_path is NAME-frames.npy (NULL: there is none), as
                                a run directory's manifest says; 0: looked for beside */
    char *frames_path;
    void *state; /* the format's own state */
};

/* One format. Operations return CATENA_OK or CATENA_EINPUT with err filled. */
struct traj_read_ops {
    /* Reads the header and fills r->info; reads the first frame into r->frame and r->x
     * when that is how the point count is learnt (then sets r->pending). */
    int (*open)(struct traj_reader *r, struct catena_error *err);
    /* Reads the next frame's step, time and r->x; *more = 0 when there is none. */
    int (*next)(struct traj_reader *r, int *more, struct catena_error *err);
    /* Frees r->state. */
    void (*close)(struct traj_reader *r);
};

/* path opened for reading when it is a regular file: a FIFO (opened without waiting for a
 * writer) or a device such as /dev/zero would hang the reader or never end. NULL with
 * *errnum an errno value, EINVAL for a file that is not regular. */
FILE *traj_read_fopen(const char *path, int *errnum);

/* Text from the file made safe to echo in a message: printable ASCII kept, other bytes as
 * \xHH, cut to about 70 characters with "...". Returns out. */
const char *traj_read_quote(char *out, size_t size, const char *text);

enum { TRAJ_QUOTE_SIZE = 80 };

extern const struct traj_read_ops traj_read_csv_ops, traj_read_json_ops, traj_read_npy_ops;

#endif
