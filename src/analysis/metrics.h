/* Diagnostics of a state (the seeds' total constraint error, max stretch and speeds, plus
 * energies), computed on demand and written per recorded step to metrics.csv
 * (analysis/metrics_write.c); summary.json gets the final values. */
#ifndef CATENA_METRICS_H
#define CATENA_METRICS_H

#include <stddef.h>

#include "core/error.h"
#include "model/model.h"
#include "solver/state.h"

struct metrics {
    double error_sum;   /* sum over live links of |length - rest| (slack tethers: 0), m */
    double error_max;   /* the largest of them, m */
    double max_stretch; /* largest length / rest over live links; 0 without any */
    double kinetic;     /* sum over free points of m |v|^2 / 2, J */
    double potential;   /* sum over free points of -m g . x (0 at the origin), J */
    double max_speed;   /* largest |v| over free points, m/s */
    size_t live_links;  /* links not broken */
};

/* Fills out from s. Velocities as velocity_get gives them; points of inverse mass 0
 * (pinned) are left out of the energies and speeds. */
void metrics_compute(const struct model *m, const struct state *s, struct metrics *out);

/* metrics.csv, streamed: a header "step,time,error_sum,error_max,max_stretch,kinetic,
 * potential,max_speed,live_links", then one row per recorded step, numbers in the shortest
 * form that reads back to the same double. */
struct metrics_writer;

/* Opens DIR/metrics.csv under a temporary name (core/outfile.h). */
struct metrics_writer *metrics_open(const char *dir, struct catena_error *err);

/* Appends the row for s. */
int metrics_record(struct metrics_writer *w, const struct model *m, const struct state *s,
                   struct catena_error *err);

/* Commits the file and frees w, whatever happens. */
int metrics_close(struct metrics_writer *w, struct catena_error *err);

/* Drops the file; frees w. NULL is a no-op. */
void metrics_abort(struct metrics_writer *w);

#endif
