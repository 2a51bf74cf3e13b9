/* Regression comparison of two runs or trajectories. Positions (any mix of CSV, JSON and
 * NPY) are compared frame by frame on the steps both record, point by point, with
 * numpy.isclose's test: A's value a is within tolerance of B's b when
 * |a - b| <= atol + rtol * |b|. B is the reference (e.g. the golden run). As with
 * equal_nan=True, NaN matches NaN (a diverged run equals itself); a NaN against a number, or
 * differing infinities, is outside any tolerance and an infinite deviation. When both are
 * run directories, their events, topology changes, status and final metrics are compared
 * too (io/compare_run.c), each with its own tolerance.
 *
 * Glossary:
 *   part       what is compared: positions, events, topology, status, final metrics
 *   common     a step both trajectories recorded; only those are compared
 *   worst      the frame (or point) where |A-B|, the distance between A's and B's point, is
 *              largest */
#ifndef CATENA_COMPARE_H
#define CATENA_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "core/error.h"
#include "core/vec.h"
#include "io/traj_read.h"

enum compare_part {
    COMPARE_POSITIONS,
    COMPARE_EVENTS,   /* events.csv: kind, link, points and step of each event */
    COMPARE_TOPOLOGY, /* topology.csv: the changes of links and pins, and their step */
    COMPARE_STATUS,   /* summary.json: status and steps_done */
    COMPARE_METRICS,  /* summary.json: the final metrics */
    COMPARE_NPARTS
};

struct compare_options {
    double atol;        /* positions (and topology's rest lengths, radii): absolute, m */
    double rtol;        /* positions: relative, a fraction of |b| */
    long step_first;    /* compare frames, events and topology changes whose step is in */
    long step_last;     /* [step_first, step_last]; RANGE_OPEN (core/range.h): to the end */
    long point_first;   /* compare points [point_first, point_last] */
    long point_last;    /* RANGE_OPEN: to the last point */
    long step_tol;      /* events and topology changes match up to this many steps apart */
    double metric_atol; /* final metrics, events' stretch and force: absolute, in their unit */
    double metric_rtol; /* and relative */
    unsigned parts;     /* bit 1 << part for each part to compare; COMPARE_ALL by default */
    int keep_series;    /* 1: fill the result's per-frame series and the worst frame's
                           positions (for a plot); they cost O(frames + points) memory */
};

#define COMPARE_ALL ((1u << COMPARE_NPARTS) - 1)

/* Room for a file name in the result (longer ones are cut). */
#define COMPARE_NAME_SIZE 4096

/* Where a value was found: one component of one point of one frame. */
struct compare_at {
    long frame;    /* frame index in A */
    long step;     /* step (the frame index when neither file stores steps) */
    double time;   /* s; NAN when neither file stores times */
    size_t point;  /* global point index */
    int component; /* 0 x, 1 y, 2 z */
    double a, b;   /* the two values */
};

/* One frame pair of the series: how far A's points are from B's. */
struct compare_frame_error {
    long step;   /* (the frame index when neither file stores steps) */
    double time; /* s; NAN when neither file stores times */
    double max;  /* largest |A-B| over the points, m (infinite for NaN against a number) */
    double rms;  /* root mean square of |A-B| over the points, m */
};

/* The point that strays furthest, summarised over the frames. */
struct compare_worst_point {
    size_t point;          /* global index */
    double max;            /* its largest |A-B|, m */
    long step;             /* where that is */
    double rms;            /* RMS of its |A-B| over the frames, m */
    size_t frames_outside; /* frames where one of its components is outside tolerance */
};

/* The steps one trajectory records in the step range. */
struct compare_extent {
    long first, last; /* its first and last step there */
    long gap;         /* the largest step between two of its frames: its recording interval */
    size_t frames;    /* its frames there */
};

/* A difference of a part other than positions, in words: what differs, where, and the two
 * sides' values as text. */
struct compare_diff {
    long step;         /* the step it is at (B's when both have one), -1 for none */
    char what[512];    /* e.g. "break of link 30 (points 16 and 0) at step 122" or "kinetic" */
    char a[64], b[64]; /* what A and B have there, e.g. "at step 123", "(none)", "ok" */
};

/* A part other than positions. */
struct compare_part_result {
    int compared;                 /* 1 when compared; 0 when left out (see why) */
    char why[128];                /* why it was left out, e.g. "B is a trajectory file" */
    size_t na, nb;                /* events or topology rows in A and in B; fields for status and
                                     metrics */
    size_t differ;                /* how many differ (unmatched events count once per side) */
    struct compare_diff first;    /* valid when differ > 0 */
    double worst;                 /* metrics: the largest |a-b| / (metric_atol + metric_rtol |b|),
                                     i.e. how many tolerances away the worst one is; 0 elsewhere */
    struct compare_diff worst_at; /* valid when worst > 0 */
};

struct compare_result {
    char a[COMPARE_NAME_SIZE], b[COMPARE_NAME_SIZE]; /* the trajectories (or, when the
                          positions are left out, the runs) compared */
    struct compare_options opt;
    int dims;              /* components per point */
    int by_step;           /* 1: frames matched by step; 0: by index (a file without steps) */
    int steps_known;       /* 1: at.step is a step; 0: a frame index (NPY on both sides) */
    size_t frames;         /* frame pairs compared: the common steps */
    size_t only_a, only_b; /* frames in the step range at steps the other does not record */
    struct compare_extent extent_a, extent_b; /* by step only */
    int extent_differs;      /* when one stops (or starts) a whole recording interval before the
                                other, which counts as a difference of positions: 'a' or 'b' for
                                the one that ends first, 'A' or 'B' for the one that starts last;
                                0 otherwise (compare_extent_sentence says it in words) */
    long step_min, step_max; /* steps of the first and last pair compared */
    size_t points;           /* points compared per frame */
    size_t values;           /* numbers compared: frames * points * dims */
    size_t outside;          /* numbers outside tolerance */
    double max_abs;          /* largest |a - b| of one component, m */
    struct compare_at max_abs_at;     /* valid when max_abs > 0 */
    double max_rel;                   /* largest |a - b| / |b| over values with b finite and != 0 */
    struct compare_at max_rel_at;     /* valid when max_rel > 0 */
    struct compare_at first_outside;  /* first in file order; valid when outside > 0 */
    struct compare_worst_point worst; /* valid when worst.max > 0 */
    /* keep_series only (else NULL): */
    struct compare_frame_error *series; /* [frames] */
    size_t worst_frame;                 /* the pair with the largest max (the last of equal
                                           ones, so the last pair when A equals B) */
    vec3 *worst_a, *worst_b;            /* [npoints] both frames' positions there */
    size_t npoints;                     /* points per frame in the files */
    /* the other parts (io/compare_run.c); positions' entry holds its verdict in words */
    struct compare_part_result part[COMPARE_NPARTS];
};

/* atol = rtol = 1e-9, every step, every point, events and topology at the same steps, final
 * metrics within 1e-9 + 1e-9 |b|, every part. Identical builds give bit-identical runs
 * (deviation 0), and CSV, JSON and NPY all round-trip doubles exactly, so the defaults only
 * need to absorb benign rounding (another compiler, another libm) over short runs: a
 * nanometre on metre-sized scenes is millions of ulps, yet far below any change in the
 * physics, which moves points by millimetres. */
void compare_default_options(struct compare_options *opt);

/* CATENA_EINPUT naming the option value that makes no sense (a negative or non-finite
 * tolerance, a reversed range). */
int compare_check_options(const struct compare_options *opt, struct catena_error *err);

/* The part's name ("positions", "events", "topology", "status", "metrics"). */
const char *compare_part_name(enum compare_part part);

/* Parses a comma-separated list of part names into a bit set; CATENA_EINPUT naming the
 * unknown one. `option` names the option in the message. */
int compare_parse_parts(const char *option, const char *text, unsigned *parts,
                        struct catena_error *err);

/* Reads both trajectories to the end of the step range and fills *res (positions only).
 * Frames are matched by step when both files store steps (only the steps both record are
 * compared; their times must agree within the positions' tolerance), by index when one does
 * not (NPY written without its frames file). Returns CATENA_OK when every value is within
 * tolerance, CATENA_EFAIL when some are not (res is filled and err says how many and where
 * the first is), CATENA_EINPUT when the files cannot be compared (unreadable or malformed,
 * different dimensions or point counts, no step in common, a common step at two times,
 * frame counts that differ when matched by index; res is not usable then). The caller
 * frees res with compare_result_free whatever the status. */
int compare_traj(struct traj_reader *a, struct traj_reader *b, const struct compare_options *opt,
                 struct compare_result *res, struct catena_error *err);

/* Compares A and B, each a trajectory file or a run directory: positions, and when both are
 * run directories the other parts from their files (io/compare_run.c). Statuses as
 * compare_traj's; with CATENA_EFAIL, err names the first part that differs. The caller
 * frees res with compare_result_free whatever the status. */
int compare_paths(const char *a, const char *b, const struct compare_options *opt,
                  struct compare_result *res, struct catena_error *err);

/* 1 when some part differs. */
int compare_differs(const struct compare_result *res);

/* Frees what compare_traj allocated in res (the series and worst frames); safe twice. */
void compare_result_free(struct compare_result *res);

/* "step 40 (t = 0.4 s), point 12, y" ("frame 4, ..." when the files store no steps). */
void compare_describe_at(char *buf, size_t size, const struct compare_result *res,
                         const struct compare_at *at);

/* "NA ends at step 80, NB goes on to step 100" (or "... starts at step S, ... at step T"),
 * naming A and B as given; "" when the extents agree. */
void compare_extent_sentence(char *buf, size_t size, const struct compare_result *res,
                             const char *na, const char *nb);

/* The verdict on one part in a line, without the part's name: "all 1344 values within
 * tolerance", "1 of 2 differ, first: break, link 30, point_a 16, point_b 0: A at step 123,
 * B at step 122", "not compared (B is a trajectory file, not a run directory)". */
void compare_describe_part(const struct compare_result *res, enum compare_part part, char *buf,
                           size_t size);

/* The human report, a few lines per part. */
void compare_print(FILE *out, const struct compare_result *res);

/* The report as a JSON object for --json; the caller frees it with cJSON_Delete. NULL when
 * out of memory. */
cJSON *compare_to_json(const struct compare_result *res);

#endif
