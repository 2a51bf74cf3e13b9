/* Regression comparison of two trajectories (any mix of CSV, JSON and NPY), frame by frame
 * and point by point, with numpy.isclose's test: A's value a is within tolerance of B's b
 * when |a - b| <= atol + rtol * |b|. B is the reference (e.g. the golden file). As with
 * equal_nan=True, NaN matches NaN (a diverged run equals itself); a NaN against a number,
 * or differing infinities, is outside any tolerance and an infinite deviation. */
#ifndef CATENA_COMPARE_H
#define CATENA_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "core/error.h"
#include "io/traj_read.h"

struct compare_options {
    double atol;      /* absolute tolerance, m */
    double rtol;      /* relative tolerance, a fraction of |b| */
    long step_first;  /* compare frames whose step is in [step_first, step_last] */
    long step_last;   /* RANGE_OPEN (core/range.h): to the end */
    long point_first; /* compare points [point_first, point_last] */
    long point_last;  /* RANGE_OPEN: to the last point */
};

/* Where a value was found: one component of one point of one frame. */
struct compare_at {
    long frame;    /* frame index in A (B's frame has the same step, or the same index) */
    long step;     /* step (the frame index when neither file stores steps) */
    double time;   /* s; NAN when neither file stores times */
    size_t point;  /* global point index */
    int component; /* 0 x, 1 y, 2 z */
    double a, b;   /* the two values */
};

struct compare_result {
    const char *a, *b; /* the files compared: owned by the readers, so report before
                          closing them */
    struct compare_options opt;
    int dims;                /* components per point */
    int by_step;             /* 1: frames matched by step; 0: by index (a file without steps) */
    int steps_known;         /* 1: at.step is a step; 0: a frame index (NPY on both sides) */
    size_t frames;           /* frame pairs compared */
    long step_min, step_max; /* steps of the first and last pair compared */
    size_t points;           /* points compared per frame */
    size_t values;           /* numbers compared: frames * points * dims */
    size_t outside;          /* numbers outside tolerance */
    double max_abs;          /* largest |a - b|, m */
    struct compare_at max_abs_at;    /* valid when max_abs > 0 */
    double max_rel;                  /* largest |a - b| / |b| over values with b finite and != 0 */
    struct compare_at max_rel_at;    /* valid when max_rel > 0 */
    struct compare_at first_outside; /* first in file order; valid when outside > 0 */
};

/* atol = rtol = 1e-9, every step, every point. Identical builds give bit-identical
 * trajectories (deviation 0), and CSV, JSON and NPY all round-trip doubles exactly, so the
 * defaults only need to absorb benign rounding (another compiler, another libm) over
 * short runs: a nanometre on metre-sized scenes is millions of ulps, yet far below any
 * change in the physics, which moves points by millimetres. */
void compare_default_options(struct compare_options *opt);

/* Reads both trajectories to the end of the step range and fills *res. Frames are matched
 * by step when both files store steps (steps equal, times within the same tolerance as
 * positions), by index when one does not (NPY). Returns CATENA_OK when every value is
 * within tolerance, CATENA_EFAIL when some are not (res is filled and err says how many
 * and where the first is), CATENA_EINPUT when the files cannot be compared (unreadable or
 * malformed, different dimensions, point counts, frame counts, steps or times; res is not
 * usable then). */
int compare_traj(struct traj_reader *a, struct traj_reader *b, const struct compare_options *opt,
                 struct compare_result *res, struct catena_error *err);

/* The human report, a few lines. */
void compare_print(FILE *out, const struct compare_result *res);

/* The report as a JSON object for --json; the caller frees it with cJSON_Delete. NULL when
 * out of memory. */
cJSON *compare_to_json(const struct compare_result *res);

#endif
