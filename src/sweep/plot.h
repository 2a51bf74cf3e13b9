/* `catena sweep plot`: a sweep's results (DIR/sweep.csv, whose columns DIR/plan.json names)
 * drawn as a PNG: a collected value against a varied parameter, one line per value of
 * another (gfx/chart.h). Only runs whose status is ok are drawn. */
#ifndef CATENA_SWEEP_PLOT_H
#define CATENA_SWEEP_PLOT_H

#include <stddef.h>

#include "core/error.h"
#include "gfx/chart.h"

struct sweep_plot_options {
    /* Columns, each its full path or the unique ending of one after a '.': x and by among the
     * varied paths ("iterations" for solver.iterations), y among the collected ones. */
    const char *x, *y;
    const char *by; /* NULL: one line per combination of the other varied paths */
    enum chart_scale xscale, yscale;
    int width, height; /* px; 0: 900 x 600 */
};

/* What was drawn. */
struct sweep_plot_result {
    size_t lines;   /* series drawn */
    size_t points;  /* runs drawn */
    size_t skipped; /* runs left out: not ok, or no number in the y column */
};

/* Draws the sweep in dir as o says into out_dir/out_name. CATENA_EINPUT for a directory that
 * is not a sweep's, a column that names none or more than one, or two runs that would be one
 * point (the message names the path that tells them apart, for --by); CATENA_EFAIL when the
 * PNG cannot be written. */
int sweep_plot(const char *dir, const struct sweep_plot_options *o, const char *out_dir,
               const char *out_name, struct sweep_plot_result *res, struct catena_error *err);

#endif
