/* Robust colour limits: percentiles of a stream of values from a fixed-size log histogram
 * (render/range.c). Private to the renderer. */
#ifndef CATENA_RENDER_RANGE_H
#define CATENA_RENDER_RANGE_H

#include <stdint.h>

#define RANGE_SUB 32                /* bins an octave */
#define RANGE_BINS (64 * RANGE_SUB) /* 2^-41 (5e-13) to 2^23 (8e6) from the offset, each side */

struct render_range {
    double offset;   /* values are binned by their distance from it (1 for stretch) */
    double min, max; /* exact extremes seen */
    uint64_t count, zero;
    uint64_t neg[RANGE_BINS], pos[RANGE_BINS];
};

void render_range_init(struct render_range *h, double offset);

/* Counts v; non-finite values are skipped. */
void render_range_add(struct render_range *h, double v);

/* The lo_q and hi_q quantiles (0..1), rounded outwards to the histogram's resolution and
 * clamped to the extremes. -1 when nothing was counted. */
int render_range_get(const struct render_range *h, double lo_q, double hi_q, double *lo,
                     double *hi);

#endif
