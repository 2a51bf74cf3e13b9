/* Perceptual colour maps as tables of sRGB samples, read with linear interpolation.
 * viridis is matplotlib's default map (van der Walt and Smith, 2015; CC0), its 256 published
 * samples rounded to 8 bits: lightness rises evenly, readable in grey and by most
 * colour-blind viewers. */
#ifndef CATENA_COLORMAP_H
#define CATENA_COLORMAP_H

#include "gfx/raster.h"

struct colormap {
    const char *name;
    int n;                         /* samples, >= 2 */
    const unsigned char (*rgb)[3]; /* n sRGB triples, t = 0 to t = 1 evenly spaced */
};

extern const struct colormap colormap_viridis;

/* The opaque colour at t in [0, 1]; t outside is clamped, NaN gives the t = 0 end. */
struct raster_color colormap_color(const struct colormap *m, double t);

#endif
