/* Legends for a drawn frame, built from the canvas's primitives (gfx/raster.h): a colour bar
 * that says what a colour map's colours mean, and a scale bar that says how long a length on
 * the canvas is. */
#ifndef CATENA_LEGEND_H
#define CATENA_LEGEND_H

#include "gfx/colormap.h"
#include "gfx/raster.h"

/* A colour bar: the map's gradient in a rectangle, framed, labelled with min and max
 * (printf "%.3g") and an optional title. Taller than wide: vertical, max at the top, labels
 * to the right. Otherwise horizontal, min at the left, labels below. */
struct legend_def {
    int x, y, width, height;    /* the bar, pixels */
    const struct colormap *map; /* gradient */
    double min, max;            /* values at the two ends, in the caller's unit */
    const char *title;          /* above the bar; NULL for none */
    int text_scale;             /* font scale, >= 1 */
    struct raster_color ink;    /* frame and labels */
    struct raster_color box;    /* behind the labels and title; a = 0 for none */
};

/* A 12x160 vertical viridis bar at (0, 0) from 0 to 1, dark ink on a light translucent box;
 * callers set the position, range and title. */
struct legend_def legend_default(void);

/* Draws the colour bar def describes (box, gradient, frame, labels, title). */
void legend_draw(struct raster *r, const struct legend_def *def);

/* The rectangle legend_draw covers (bar, frame, labels, title and the box's margin), for
 * placing it: e.g. flush with the right edge, move def->x left by the overflow. */
void legend_bounds(const struct legend_def *def, int *x, int *y, int *w, int *h);

/* A horizontal scale bar of length pixels starting at (x, y) (its bottom-left corner), with
 * end ticks and label centred above, lines scale pixels thick. box.a > 0 puts a box behind
 * it all. */
void legend_scale_bar(struct raster *r, int x, int y, int length, const char *label, int scale,
                      struct raster_color ink, struct raster_color box);

#endif
