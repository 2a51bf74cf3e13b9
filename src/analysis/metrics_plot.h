/* `catena plot`: a run's metrics.csv (analysis/metrics.h) drawn over time as a PNG, one panel
 * per metric stacked over a shared time axis (gfx/chart.h). */
#ifndef CATENA_METRICS_PLOT_H
#define CATENA_METRICS_PLOT_H

#include <stddef.h>

#include "core/error.h"

/* The most panels one figure holds. */
#define METRICS_PLOT_MAX_PANELS 16

/* The panels drawn when none are named. */
#define METRICS_PLOT_DEFAULT "energy,max_stretch,error,max_speed"

/* The panels one can name: "energy" (kinetic + potential), "kinetic", "potential",
 * "max_stretch", "error" (sum and largest), "error_sum", "error_max", "max_speed",
 * "live_links"; NULL-terminated. */
extern const char *const metrics_plot_names[];

/* Whether name is one of metrics_plot_names. */
int metrics_plot_known(const char *name);

struct metrics_plot_options {
    const char *const *panels; /* [npanels] names from metrics_plot_names, top to bottom */
    size_t npanels;            /* 1..METRICS_PLOT_MAX_PANELS */
    const char *title;         /* over the figure; NULL: none */
    int width;                 /* px; 0: 900 */
    int panel_height;          /* px; 0: 260 */
};

/* Draws the metrics in csv_path as o says into dir/name (a PNG, written whole or not at all).
 * CATENA_EINPUT when the file cannot be read or lacks a column a panel needs (the message
 * names the file and the column), CATENA_EFAIL when the PNG cannot be written. */
int metrics_plot(const char *csv_path, const struct metrics_plot_options *o, const char *dir,
                 const char *name, struct catena_error *err);

#endif
