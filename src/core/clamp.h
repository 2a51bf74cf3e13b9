/* Clamping a number into a range, with branches: NaN passes through unchanged and -0 stays -0
 * (gfx/raster.c keeps a branch-free variant for its pixel loops, which differs there). */
#ifndef CATENA_CLAMP_H
#define CATENA_CLAMP_H

/* v limited to [lo, hi], lo <= hi. */
static inline double clamp(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* v limited to [0, 1]. */
static inline double clamp01(double v)
{
    return clamp(v, 0.0, 1.0);
}

#endif
