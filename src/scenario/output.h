/* What a run of a scenario writes (its "output" section, catena-scenario(5)): the
 * trajectory formats and the steps recorded, metrics.csv, the reports made at the end, and
 * the frames drawn. Kept beside the model, not in it: the solver never reads them. */
#ifndef CATENA_SCENARIO_OUTPUT_H
#define CATENA_SCENARIO_OUTPUT_H

#include "core/error.h"
#include "model/output_format.h"
#include "scenario/render_opts.h"

/* Analysis reports written at the end of a run (output.reports). */
enum report_kind {
    REPORT_CATENARY = 1 << 0,
};

struct scenario_output {
    unsigned formats;           /* enum output_format bits (output.trajectory) */
    long every;                 /* record every k-th step (step 0 is always recorded) */
    int metrics;                /* 1: write metrics.csv (output.metrics, default 1) */
    unsigned reports;           /* enum report_kind bits: reports written at the end of a run */
    struct render_opts *render; /* output.render, owned; NULL: no frames are drawn */
};

/* The defaults of catena-scenario(5): CSV every step, metrics, no reports, no frames. */
struct scenario_output scenario_output_default(void);

/* Turns frames on (`catena run --render`, output.render): the default render settings
 * unless o has some, and a trajectory.npy when o records no trajectory, since frames are
 * drawn from the recorded steps. CATENA_EFAIL on OOM. */
int scenario_output_enable_render(struct scenario_output *o, struct catena_error *err);

#endif
