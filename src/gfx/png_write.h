/* PNG files from a raster, encoded with libpng and written through outfile, so a frame
 * appears under its name only when complete. Level 1, the default, favours speed: the
 * "sub" filter with zlib's run-length matcher (frames are mostly flat background). */
#ifndef CATENA_PNG_WRITE_H
#define CATENA_PNG_WRITE_H

#include "core/error.h"
#include "gfx/raster.h"

struct png_write_opts {
    int level;  /* 0 stores; 1 the fast mode above; 2..9 zlib's usual matcher at that level with
                   libpng's adaptive filters, smaller and slower */
    int alpha;  /* 1 writes RGBA; 0 writes RGB, dropping alpha (frames are opaque) */
    int nosync; /* 1: no fsync before the rename (core/outfile.h), for frame sequences */
};

/* Level 1, RGB. */
struct png_write_opts png_write_defaults(void);

/* Writes r to DIR/NAME; opts NULL means the defaults. CATENA_EINPUT for a level outside
 * 0..9; CATENA_EFAIL if the file cannot be written, with the path in the message and no
 * file left behind. */
int png_write_raster(const struct raster *r, const char *dir, const char *name,
                     const struct png_write_opts *opts, struct catena_error *err);

#endif
