/* The scenario's "time" section (catena-scenario(5)): the step dt, the number of steps, the
 * substeps of each step, and until_settled, which ends a run early once the largest speed
 * has stayed below a bound for a while (run/settle.h). */
#include <float.h>
#include <limits.h>
#include <math.h>

#include "scenario/loader.h"

// clang-format off
const struct sjson_key scenario_time_keys[] = {
    {"dt", 1},
    {"steps", 1},
    {"substeps", 0},
    {"until_settled", 0},
    {NULL, 0},
};
const struct sjson_key scenario_settle_keys[] = {
    {"speed", 1},
    {"for", 0},
    {NULL, 0},
};
// clang-format on

/* until_settled: {speed, for}; "for" is 1 s unless given. */
static int read_settle(struct loader *ld, const cJSON *t)
{
    const cJSON *settle = NULL;
    if (sjson_object(&ld->cx, t, "time", "until_settled", scenario_settle_keys, &settle))
        return CATENA_EINPUT;
    if (!settle)
        return 0;
    ld->m->settle_for = 1.0;
    return sjson_get_number(&ld->cx, settle, "time.until_settled", "speed", &SJSON_POSITIVE,
                            &ld->m->settle_speed) ||
                   sjson_get_number(&ld->cx, settle, "time.until_settled", "for", &SJSON_NONNEG,
                                    &ld->m->settle_for)
               ? CATENA_EINPUT
               : 0;
}

/* The substep h = dt / substeps is squared (the Verlet and PBD prediction, XPBD's
 * compliance) and divided by (velocities): both must stay normal numbers, or gravity
 * silently vanishes (h^2 = 0) or velocities overflow. The run's length dt * steps bounds
 * the phases of sine pins and gusts. */
static int check_step(struct loader *ld)
{
    const double dt = ld->m->dt, h = dt / ld->m->substeps;
    if (!(h * h >= DBL_MIN) || !isfinite(1.0 / h))
        return sjson_error(&ld->cx, "time.dt",
                           "the substep dt / substeps = %g s is too small: its square underflows",
                           h);
    if (!isfinite(dt * (double)ld->m->steps))
        return sjson_error(&ld->cx, "time.dt",
                           "dt * steps (the run's length in seconds) overflows");
    return 0;
}

int scenario_read_time(struct loader *ld)
{
    const cJSON *t;
    long long steps = 0, substeps = 1;
    if (sjson_object(&ld->cx, ld->root, "", "time", scenario_time_keys, &t) ||
        sjson_get_number(&ld->cx, t, "time", "dt", &SJSON_POSITIVE, &ld->m->dt) ||
        sjson_get_integer(&ld->cx, t, "time", "steps", 0, SCENARIO_MAX_COUNT, &steps) ||
        sjson_get_integer(&ld->cx, t, "time", "substeps", 1, INT_MAX, &substeps))
        return CATENA_EINPUT;
    ld->m->steps = (long)steps;
    ld->m->substeps = (int)substeps;
    if (check_step(ld))
        return CATENA_EINPUT;
    return read_settle(ld, t);
}
