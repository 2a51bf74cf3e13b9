/* Reading trajectories back (CSV, JSON or NPY, as written by io/traj.h), one frame at a time:
 * memory stays O(points) whatever the number of frames. Every malformed or unreadable
 * input is CATENA_EINPUT with a message naming the file and the place it broke. */
#ifndef CATENA_TRAJ_READ_H
#define CATENA_TRAJ_READ_H

#include <stddef.h>

#include "core/error.h"
#include "model/model.h"
#include "model/output_format.h"
#include "core/vec.h"

struct traj_reader;

struct traj_info {
    const char *path;          /* the file read; inside the run directory when one was given */
    enum output_format format; /* FORMAT_CSV, FORMAT_JSON or FORMAT_NPY */
    int dims;                  /* components stored per point, 2 or 3 */
    size_t npoints;            /* points per frame, >= 1 */
    long nframes;              /* frames in the file; -1 while unknown (CSV and JSON know it
                                  only once the last frame has been read) */
    int has_steps;             /* 1 when frames carry step and time; 0 for NPY, which
                                  stores positions only, without NAME-frames.npy beside it
                                  (catena writes one; io/traj.h) */
};

struct traj_frame {
    long index;    /* 0, 1, ... in file order */
    long step;     /* the simulation step; the frame index when the file has no steps */
    double time;   /* simulated time, s; NAN when the file has no times (NPY alone) */
    const vec3 *x; /* [npoints] positions, m; z = 0 in 2D; non-finite values read as stored
                      (JSON null reads as NAN). Owned by the reader, valid until the next
                      traj_read_next or traj_read_close */
};

/* Opens a trajectory file, or a run directory (where it reads trajectory.npy, else
 * trajectory.csv, else trajectory.json). The format comes from the extension (.csv, .json,
 * .npy), otherwise from the first bytes (NPY magic, '{', "step,"). Reads the header (and,
 * for CSV and JSON, the first frame, which tells the point count). The caller closes what
 * it returns; NULL on error. */
struct traj_reader *traj_read_open(const char *path, struct catena_error *err);

/* What the file holds; valid until traj_read_close. */
const struct traj_info *traj_read_info(const struct traj_reader *r);

/* Reads the next frame into *frame, or sets *frame to NULL after the last one (and then
 * info->nframes is known). Steps increase strictly from frame to frame. After an error
 * only traj_read_close may be called. */
int traj_read_next(struct traj_reader *r, const struct traj_frame **frame,
                   struct catena_error *err);

/* Closes the file and frees r. NULL is a no-op. */
void traj_read_close(struct traj_reader *r);

#endif
