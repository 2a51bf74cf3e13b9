/* compare --plot: a picture of a regression. On top, |A-B| over time (its maximum and its
 * root mean square over the points, per common frame, gfx/chart.h); below, both shapes
 * overlaid at the frame where the maximum peaks, on equal scales, the worst point marked
 * (and magnified in an inset when its deviation is too small to see at that scale). */
#ifndef CATENA_COMPARE_PLOT_H
#define CATENA_COMPARE_PLOT_H

#include "core/error.h"
#include "io/compare.h"

/* Draws res (compared with keep_series set) into the PNG file `file`. run_dir, when not
 * NULL, is a run directory whose scenario.json (and topology.csv) give the links live at
 * the worst frame, drawn between the points; without it, or when its scenario does not
 * match the trajectories, only the points are drawn. CATENA_EFAIL when the file cannot be
 * written. */
int compare_plot_write(const struct compare_result *res, const char *run_dir, const char *file,
                       struct catena_error *err);

#endif
