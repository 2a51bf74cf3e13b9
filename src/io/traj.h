/* Trajectory writers (CSV, JSON, NPY), streamed: memory does not grow with the number of
 * recorded steps. Each writer owns one outfile and commits it on close. */
#ifndef CATENA_TRAJ_H
#define CATENA_TRAJ_H

#include "core/error.h"
#include "model/model.h"
#include "model/output_format.h"

struct traj_writer;

/* Beside NAME.npy, NAME-frames.npy holds the step and time of each frame, shape (frames, 2)
 * float64 (io/write_npy.c): NPY stores positions only. */
#define TRAJ_FRAMES_SUFFIX "-frames.npy"

/* Opens the writer for one format in dir ("trajectory.csv", ".json" or ".npy"). name is the
 * scenario's (the JSON header says it) and every the interval of the recorded steps
 * (output.every: the JSON header says it). */
struct traj_writer *traj_open(enum output_format format, const char *dir, const struct model *m,
                              const char *name, long every, struct catena_error *err);

/* Appends one frame: the positions x[npoints] (m) at step `step`, time t (s). */
int traj_append(struct traj_writer *w, long step, double t, const vec3 *x,
                struct catena_error *err);

/* Finishes the file (closing brackets, final NPY header) and renames it into place.
 * Frees w whatever happens. */
int traj_close(struct traj_writer *w, struct catena_error *err);

/* Drops the file without a trace; frees w. NULL is a no-op. */
void traj_abort(struct traj_writer *w);

/* The formats' file-name extensions and names ("csv", ...); NULL if unknown. */
const char *traj_format_name(enum output_format format);

#endif
