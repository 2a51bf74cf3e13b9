/* The trajectory formats. They are not part of the model: they are the words that the
 * scenario's output.trajectory (scenario/output.h) and the writers and readers (io/traj.h,
 * io/traj_read.h) share, and model/ is the lowest layer both of those include. */
#ifndef CATENA_OUTPUT_FORMAT_H
#define CATENA_OUTPUT_FORMAT_H

/* Bits, so that a set of formats is one unsigned. */
enum output_format {
    FORMAT_CSV = 1 << 0,
    FORMAT_JSON = 1 << 1,
    FORMAT_NPY = 1 << 2,
};

#endif
