/* What the two files of compare --plot share (analysis/compare_plot.c draws the figure and
 * the chart over time, compare_plot_shapes.c the shapes). Private to them. */
#ifndef CATENA_COMPARE_PLOT_INTERNAL_H
#define CATENA_COMPARE_PLOT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "gfx/raster.h"
#include "io/compare.h"

/* The links to draw between the points: pairs of point indices. */
struct compare_plot_links {
    uint32_t (*ab)[2]; /* [n], malloc'd */
    size_t n;
};

extern const struct raster_color compare_plot_ink, compare_plot_a, compare_plot_b,
    compare_plot_worst;

/* "step 190 (t = 1.583 s)": the worst frame. */
void compare_plot_frame_name(char *buf, size_t size, const struct compare_result *res);

/* Both frames at res's worst frame overlaid in [x, x+w) x [y, y+h) of r, equal scales, with
 * links when there are any, the worst point marked, a legend and, when its deviation is
 * under a few pixels, an inset that magnifies it. */
void compare_plot_shapes(struct raster *r, const struct compare_result *res,
                         const struct compare_plot_links *links, int x, int y, int w, int h,
                         int text_scale);

#endif
