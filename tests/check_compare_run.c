/* Comparing runs: frames matched by step in every format (a run recorded every 5 steps
 * against the same run recorded every 10), a trajectory that stops early, and run
 * directories' events, topology changes, status and final metrics, each with its
 * tolerance; the per-frame series a plot draws. Run directories are written by hand, so
 * that each difference is where the test put it. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/compare_plot.h"
#include "core/range.h"
#include "gfx/raster.h"
#include "io/compare.h"
#include "io/traj.h"
#include "solver/state.h"
#include "testutil.h"
#include "testutil_check.h"

enum { NPOINTS = 3 };

/* Point p at step s: moves with the step, so frames at different steps differ. */
static vec3 position(long step, size_t p)
{
    return v3((double)p + 0.001 * (double)step, -0.01 * (double)step * (double)p, 0);
}

/* A run directory NAME with a trajectory in `format` recorded every `every` steps from 0 to
 * `last` (and at `last` itself), point 1 moved by `shift` m in y from step `from` on. */
static char *traj_run(const char *name, enum output_format format, long every, long last,
                      double shift, long from)
{
    char *d = tu_path(dir, name);
    ck_assert_int_eq(mkdir(d, 0777), 0);
    struct model *m = tu_chain(NPOINTS, v3(0, 0, 0), v3(2, 0, 0), 1.0, 1, 0, 0.01, 1);
    ck_assert_ptr_nonnull(m);
    struct catena_error err = {0};
    struct traj_writer *w = traj_open(format, d, m, name, every, &err);
    ck_assert_msg(w != NULL, "%s", err.msg);
    for (long s = 0; s <= last; s += s + every > last && s != last ? last - s : every) {
        vec3 x[NPOINTS];
        for (size_t p = 0; p < NPOINTS; p++)
            x[p] = position(s, p);
        if (s >= from)
            x[1].y += shift;
        ck_assert_int_eq(traj_append(w, s, (double)s * 0.01, x, &err), CATENA_OK);
    }
    ck_assert_msg(traj_close(w, &err) == CATENA_OK, "%s", err.msg);
    model_destroy(m);
    return d;
}

/* Writes DIR/NAME with printf-style text; NULL text writes nothing. */
static void put(const char *d, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void put(const char *d, const char *name, const char *fmt, ...)
{
    if (!fmt)
        return;
    char *path = tu_path(d, name);
    FILE *fp = fopen(path, "w");
    ck_assert_ptr_nonnull(fp);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(fp, fmt, ap);
    va_end(ap);
    ck_assert_int_eq(fclose(fp), 0);
    free(path);
}

static const char events_header[] = "step,time,kind,link,point_a,point_b,stretch,force\n";
static const char topology_header[] = "step,kind,index,a,b,value\n";

/* summary.json with the status, steps and final metrics given. */
static void put_summary(const char *d, const char *status, long steps, double kinetic,
                        double stretch)
{
    put(d, "summary.json",
        "{\"status\": \"%s\", \"steps_done\": %ld, \"final\": {\"max_stretch\": %.17g, "
        "\"live_links\": 2, \"kinetic\": %.17g}}\n",
        status, steps, stretch, kinetic);
}

/* A complete run: trajectory (CSV every 10 steps to 100), a break and a release, the
 * break's topology change, and its summary. */
static char *full_run(const char *name)
{
    char *d = traj_run(name, FORMAT_CSV, 10, 100, 0, 0);
    put(d, "events.csv", "%s40,0.4,release,,0,,,\n52,0.52,break,1,1,2,1.25,80.5\n", events_header);
    put(d, "topology.csv", "%s40,w,0,,,1\n52,dead,1,,,\n", topology_header);
    put_summary(d, "ok", 100, 0.5, 1.0625);
    return d;
}

static int compare(const char *a, const char *b, const struct compare_options *o,
                   struct compare_result *res, struct catena_error *err)
{
    return compare_paths(a, b, o, res, err);
}

static int compare_default(const char *a, const char *b, struct compare_result *res,
                           struct catena_error *err)
{
    struct compare_options o;
    compare_default_options(&o);
    return compare(a, b, &o, res, err);
}

/* ---- positions by step ---- */

/* The same run recorded every 5 steps and every 10, in every format and each way round:
 * equal on the 11 steps in common, and the report says how many of each were left out. */
START_TEST(test_every_5_and_10)
{
    static const enum output_format formats[] = {FORMAT_CSV, FORMAT_JSON, FORMAT_NPY};
    for (int i = 0; i < 3; i++) {
        for (int k = 0; k < 3; k++) {
            char n5[32], n10[32];
            snprintf(n5, sizeof n5, "e5-%d-%d", i, k);
            snprintf(n10, sizeof n10, "e10-%d-%d", i, k);
            char *a = traj_run(n5, formats[i], 5, 100, 0, 0);
            char *b = traj_run(n10, formats[k], 10, 100, 0, 0);
            struct compare_result res;
            struct catena_error err = {0};
            ck_assert_msg(compare_default(a, b, &res, &err) == CATENA_OK, "%s", err.msg);
            ck_assert_int_eq(res.by_step, 1);
            ck_assert_uint_eq(res.frames, 11);
            ck_assert_uint_eq(res.only_a, 10);
            ck_assert_uint_eq(res.only_b, 0);
            ck_assert_uint_eq(res.values, 11 * NPOINTS * 2);
            ck_assert_msg(compare_default(b, a, &res, &err) == CATENA_OK, "%s", err.msg);
            ck_assert_uint_eq(res.only_a, 0);
            ck_assert_uint_eq(res.only_b, 10);
            free(a);
            free(b);
        }
    }
}
END_TEST

/* A run that differs from step 40 on differs at the first common step from 40 on, whatever
 * the intervals: a change at step 45, which only the every-5 run records, shows at step 50. */
START_TEST(test_different_runs)
{
    char *a = traj_run("a", FORMAT_NPY, 5, 100, 1e-3, 45);
    char *b = traj_run("b", FORMAT_CSV, 10, 100, 0, 0);
    struct compare_result res;
    struct catena_error err = {0};
    ck_assert_int_eq(compare_default(a, b, &res, &err), CATENA_EFAIL);
    ck_assert_int_eq(res.first_outside.step, 50);
    ck_assert_uint_eq(res.first_outside.point, 1);
    ck_assert_int_eq(res.first_outside.component, 1);
    ck_assert_uint_eq(res.outside, 6); /* y of point 1 at steps 50, 60, ..., 100 */
    ck_assert_double_eq_tol(res.max_abs, 1e-3, 1e-12);
    ck_assert_uint_eq(res.worst.point, 1);
    ck_assert_uint_eq(res.worst.frames_outside, 6);
    ck_assert_int_eq(compare_differs(&res), 1);
    free(a);
    free(b);
}
END_TEST

/* One trajectory stopping a whole recording interval before the other differs; stopping
 * within one (600 recorded every 10 against 605 every 5) does not. */
START_TEST(test_extent)
{
    static const struct {
        long every_a, last_a, every_b, last_b;
        int differs;
    } cases[] = {
        {10, 80, 10, 100, 1}, /* A stops two frames early */
        {10, 100, 10, 90, 1}, /* B does */
        {5, 105, 10, 100, 0}, /* 105 < 100 + 10: B would not have recorded it */
        {10, 100, 5, 105, 0}, /* the other way round */
        {5, 110, 10, 100, 1}, /* 110 >= 100 + 10: B would have */
        {10, 100, 10, 100, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char na[32], nb[32];
        snprintf(na, sizeof na, "ext-a%zu", i);
        snprintf(nb, sizeof nb, "ext-b%zu", i);
        char *a = traj_run(na, FORMAT_CSV, cases[i].every_a, cases[i].last_a, 0, 0);
        char *b = traj_run(nb, FORMAT_JSON, cases[i].every_b, cases[i].last_b, 0, 0);
        struct compare_result res;
        struct catena_error err = {0};
        const int rc = compare_default(a, b, &res, &err);
        ck_assert_msg(rc == (cases[i].differs ? CATENA_EFAIL : CATENA_OK), "case %zu: %s", i,
                      err.msg);
        ck_assert_int_eq(res.extent_differs != 0, cases[i].differs);
        ck_assert_uint_eq(res.outside, 0);
        free(a);
        free(b);
    }
    /* the message names who stops where; --steps ..80 lines them up */
    char *a = tu_path(dir, "ext-a0"), *b = tu_path(dir, "ext-b0"), expect[4200];
    struct compare_result res;
    struct catena_error err = {0};
    ck_assert_int_eq(compare_default(a, b, &res, &err), CATENA_EFAIL);
    snprintf(expect, sizeof expect,
             "%s/trajectory.csv and %s/trajectory.json differ: %s/trajectory.csv ends at step 80, "
             "%s/trajectory.json goes on to step 100",
             a, b, a, b);
    ck_assert_str_eq(err.msg, expect);
    struct compare_options o;
    compare_default_options(&o);
    o.step_last = 80;
    o.parts = 1u << COMPARE_POSITIONS;
    ck_assert_msg(compare(a, b, &o, &res, &err) == CATENA_OK, "%s", err.msg);
    free(a);
    free(b);
}
END_TEST

/* ---- the parts of a run directory ---- */

START_TEST(test_runs_equal)
{
    char *a = full_run("a"), *b = full_run("b");
    struct compare_result res;
    struct catena_error err = {0};
    ck_assert_msg(compare_default(a, b, &res, &err) == CATENA_OK, "%s", err.msg);
    for (int k = 0; k < COMPARE_NPARTS; k++) {
        ck_assert_msg(res.part[k].compared, "%s not compared: %s", compare_part_name(k),
                      res.part[k].why);
        ck_assert_uint_eq(res.part[k].differ, 0);
    }
    ck_assert_uint_eq(res.part[COMPARE_EVENTS].na, 2);
    ck_assert_uint_eq(res.part[COMPARE_TOPOLOGY].nb, 2);
    ck_assert_uint_eq(res.part[COMPARE_METRICS].nb, 3);
    /* a run directory against a bare trajectory: positions only, and the report says why */
    char *file = tu_path(b, "trajectory.csv");
    ck_assert_msg(compare_default(a, file, &res, &err) == CATENA_OK, "%s", err.msg);
    for (int k = COMPARE_EVENTS; k < COMPARE_NPARTS; k++) {
        ck_assert(!res.part[k].compared);
        ck_assert_str_eq(res.part[k].why, "B is a trajectory file, not a run directory");
    }
    free(file);
    free(a);
    free(b);
}
END_TEST

/* An event at another step: one difference, named with both steps; within --step-tol it
 * matches, and then its stretch and force are compared with the metrics' tolerance. */
START_TEST(test_event_moved)
{
    char *a = full_run("a"), *b = full_run("b");
    put(a, "events.csv", "%s40,0.4,release,,0,,,\n53,0.53,break,1,1,2,1.2500001,80.5\n",
        events_header);
    struct compare_result res;
    struct catena_error err = {0};
    ck_assert_int_eq(compare_default(a, b, &res, &err), CATENA_EFAIL);
    const struct compare_part_result *p = &res.part[COMPARE_EVENTS];
    ck_assert_uint_eq(p->differ, 1);
    ck_assert_str_eq(p->first.what, "break, link 1, point_a 1, point_b 2");
    ck_assert_str_eq(p->first.a, "at step 53");
    ck_assert_str_eq(p->first.b, "at step 52");
    ck_assert_int_eq(p->first.step, 52);
    char expect[4200];
    snprintf(expect, sizeof expect,
             "%s and %s differ in events: 1 difference, first: break, link 1, point_a 1, "
             "point_b 2: A at step 53, B at step 52",
             a, b);
    ck_assert_str_eq(err.msg, expect);

    struct compare_options o;
    compare_default_options(&o);
    o.step_tol = 1;
    ck_assert_int_eq(compare(a, b, &o, &res, &err), CATENA_EFAIL);
    ck_assert_uint_eq(p->differ, 1);
    ck_assert_str_eq(p->first.what, "stretch of break, link 1, point_a 1, point_b 2 at step 52");
    ck_assert_str_eq(p->first.a, "1.2500001");
    ck_assert_str_eq(p->first.b, "1.25");
    o.metric_rtol = 1e-6; /* 1e-7 / 1.25 = 8e-8 relative */
    ck_assert_msg(compare(a, b, &o, &res, &err) == CATENA_OK, "%s", err.msg);
    free(a);
    free(b);
}
END_TEST

/* Events in one run only, either way round; the first difference is the earliest. */
START_TEST(test_event_missing)
{
    char *a = full_run("a"), *b = full_run("b");
    put(a, "events.csv", "%s52,0.52,break,1,1,2,1.25,80.5\n70,0.7,cut,0,3,,,\n", events_header);
    struct compare_result res;
    struct catena_error err = {0};
    ck_assert_int_eq(compare_default(a, b, &res, &err), CATENA_EFAIL);
    const struct compare_part_result *p = &res.part[COMPARE_EVENTS];
    ck_assert_uint_eq(p->differ, 2);
    ck_assert_str_eq(p->first.what, "release, point_a 0");
    ck_assert_str_eq(p->first.a, "(none)");
    ck_assert_str_eq(p->first.b, "at step 40");
    ck_assert_uint_eq(p->na, 2);
    ck_assert_uint_eq(p->nb, 2);
    /* the cut after the break: a's only, named when it is the only difference */
    put(a, "events.csv",
        "%s40,0.4,release,,0,,,\n52,0.52,break,1,1,2,1.25,80.5\n70,0.7,cut,0,3,,,\n",
        events_header);
    ck_assert_int_eq(compare_default(a, b, &res, &err), CATENA_EFAIL);
    ck_assert_uint_eq(p->differ, 1);
    ck_assert_str_eq(p->first.what, "cut, link 0, point_a 3");
    ck_assert_str_eq(p->first.a, "at step 70");
    ck_assert_str_eq(p->first.b, "(none)");
    /* --steps ..60 leaves the cut out */
    struct compare_options o;
    compare_default_options(&o);
    o.step_last = 60;
    ck_assert_msg(compare(a, b, &o, &res, &err) == CATENA_OK, "%s", err.msg);
    ck_assert(!res.part[COMPARE_STATUS].compared);
    ck_assert_str_eq(res.part[COMPARE_STATUS].why, "--steps ends at step 60");
    free(a);
    free(b);
}
END_TEST

/* Topology: a rest length beyond the positions' tolerance differs; a run without
 * topology.csv (nothing could change) against one with changes differs by each change. */
START_TEST(test_topology)
{
    char *a = full_run("a"), *b = full_run("b");
    put(a, "topology.csv", "%s40,w,0,,,1\n52,dead,1,,,\n60,link,1,1,3,0.5000001\n",
        topology_header);
    put(b, "topology.csv", "%s40,w,0,,,1\n52,dead,1,,,\n60,link,1,1,3,0.5\n", topology_header);
    struct compare_result res;
    struct catena_error err = {0};
    ck_assert_int_eq(compare_default(a, b, &res, &err), CATENA_EFAIL);
    const struct compare_part_result *p = &res.part[COMPARE_TOPOLOGY];
    ck_assert_uint_eq(p->differ, 1);
    ck_assert_str_eq(p->first.what, "value of link, index 1, a 1, b 3 at step 60");
    struct compare_options o;
    compare_default_options(&o);
    o.atol = 1e-6; /* positions' tolerance, in metres */
    ck_assert_msg(compare(a, b, &o, &res, &err) == CATENA_OK, "%s", err.msg);

    char *path = tu_path(a, "topology.csv");
    ck_assert_int_eq(remove(path), 0);
    ck_assert_int_eq(compare_default(a, b, &res, &err), CATENA_EFAIL);
    ck_assert(p->compared);
    ck_assert_uint_eq(p->na, 0);
    ck_assert_uint_eq(p->differ, 3);
    ck_assert_str_eq(p->first.what, "w, index 0");
    ck_assert_str_eq(p->first.a, "(none)");
    free(path);
    free(a);
    free(b);
}
END_TEST

/* Status and steps exactly; final metrics within their own tolerance, the worst named. */
START_TEST(test_status_and_metrics)
{
    char *a = full_run("a"), *b = full_run("b");
    put_summary(a, "diverged", 90, 0.5, 1.0625);
    struct compare_result res;
    struct catena_error err = {0};
    ck_assert_int_eq(compare_default(a, b, &res, &err), CATENA_EFAIL);
    const struct compare_part_result *st = &res.part[COMPARE_STATUS];
    ck_assert_uint_eq(st->differ, 2);
    ck_assert_str_eq(st->first.what, "status");
    ck_assert_str_eq(st->first.a, "diverged");
    ck_assert_str_eq(st->first.b, "ok");
    ck_assert_uint_eq(res.part[COMPARE_METRICS].differ, 0);

    put_summary(a, "ok", 100, 0.55, 1.0626);
    ck_assert_int_eq(compare_default(a, b, &res, &err), CATENA_EFAIL);
    const struct compare_part_result *me = &res.part[COMPARE_METRICS];
    ck_assert_uint_eq(st->differ, 0);
    ck_assert_uint_eq(me->differ, 2);
    ck_assert_str_eq(me->first.what, "max_stretch"); /* in B's order */
    ck_assert_str_eq(me->worst_at.what, "kinetic");  /* 10 % off */
    ck_assert_double_eq_tol(me->worst, 0.1, 1e-12);
    struct compare_options o;
    compare_default_options(&o);
    o.metric_rtol = 0.11;
    ck_assert_msg(compare(a, b, &o, &res, &err) == CATENA_OK, "%s", err.msg);
    o.metric_rtol = 0.09;
    ck_assert_int_eq(compare(a, b, &o, &res, &err), CATENA_EFAIL);
    ck_assert_uint_eq(me->differ, 1);
    ck_assert_str_eq(me->first.what, "kinetic");
    /* a metric one summary lacks */
    put(a, "summary.json",
        "{\"status\": \"ok\", \"steps_done\": 100, \"final\": {\"max_stretch\": "
        "1.0625, \"live_links\": 2}}\n");
    ck_assert_int_eq(compare_default(a, b, &res, &err), CATENA_EFAIL);
    ck_assert_uint_eq(me->differ, 1);
    ck_assert_str_eq(me->first.a, "(none)");
    ck_assert_str_eq(me->first.b, "0.5");
    free(a);
    free(b);
}
END_TEST

/* --only, missing files, malformed files. */
START_TEST(test_parts_and_files)
{
    char *a = full_run("a"), *b = full_run("b");
    put_summary(a, "diverged", 100, 0.5, 1.0625);
    struct compare_options o;
    compare_default_options(&o);
    struct catena_error err = {0};
    ck_assert_int_eq(
        compare_parse_parts("--only", "positions,events,topology,metrics", &o.parts, &err),
        CATENA_OK);
    struct compare_result res;
    ck_assert_msg(compare(a, b, &o, &res, &err) == CATENA_OK, "%s", err.msg);
    ck_assert(!res.part[COMPARE_STATUS].compared);
    ck_assert_str_eq(res.part[COMPARE_STATUS].why, "left out");
    ck_assert_int_eq(compare_parse_parts("--only", "events,stauts", &o.parts, &err), CATENA_EINPUT);
    ck_assert_str_eq(err.msg, "--only: unknown part 'stauts' (valid: positions, events, topology, "
                              "status, metrics)");
    ck_assert_int_eq(compare_parse_parts("--only", "status", &o.parts, &err), CATENA_OK);
    ck_assert_int_eq(compare(a, b, &o, &res, &err), CATENA_EFAIL);
    ck_assert(!res.part[COMPARE_POSITIONS].compared);
    char expect[4200];
    snprintf(expect, sizeof expect,
             "%s and %s differ in status: 1 difference, first: status: A diverged, B ok", a, b);
    ck_assert_str_eq(err.msg, expect);

    /* summary.json in one run only: cannot compare */
    char *path = tu_path(a, "summary.json");
    ck_assert_int_eq(remove(path), 0);
    ck_assert_int_eq(compare_default(a, b, &res, &err), CATENA_EINPUT);
    snprintf(expect, sizeof expect, "cannot compare: %s has summary.json, %s has none", b, a);
    ck_assert_str_eq(err.msg, expect);
    free(path);
    /* in neither: left out, said why */
    path = tu_path(b, "summary.json");
    ck_assert_int_eq(remove(path), 0);
    ck_assert_msg(compare_default(a, b, &res, &err) == CATENA_OK, "%s", err.msg);
    ck_assert_str_eq(res.part[COMPARE_METRICS].why, "neither run has summary.json");
    free(path);

    /* a malformed events.csv: its line named */
    put(a, "events.csv", "%s40,0.4,release,,0,,,\nforty,0.5,cut,,,,,\n", events_header);
    ck_assert_int_eq(compare_default(a, b, &res, &err), CATENA_EINPUT);
    snprintf(expect, sizeof expect,
             "%s/events.csv:3: expected a step number >= 0, not below the row before's", a);
    ck_assert_str_eq(err.msg, expect);
    put(a, "events.csv", "%s40,0.4,release,,0,,\n", events_header);
    ck_assert_int_eq(compare_default(a, b, &res, &err), CATENA_EINPUT);
    snprintf(expect, sizeof expect,
             "%s/events.csv:2: 7 fields, expected 8 (step,time,kind,link,point_a,point_b,stretch,"
             "force)",
             a);
    ck_assert_str_eq(err.msg, expect);
    put(a, "events.csv", "step,kind\n");
    ck_assert_int_eq(compare_default(a, b, &res, &err), CATENA_EINPUT);
    snprintf(expect, sizeof expect,
             "%s/events.csv:1: expected the header \"step,time,kind,link,point_a,point_b,stretch,"
             "force\"",
             a);
    ck_assert_str_eq(err.msg, expect);
    path = tu_path(a, "events.csv");
    ck_assert_int_eq(remove(path), 0);
    ck_assert_int_eq(mkdir(path, 0777), 0); /* not a regular file: refused, not skipped */
    ck_assert_int_eq(compare_default(a, b, &res, &err), CATENA_EINPUT);
    snprintf(expect, sizeof expect, "%s: not a regular file", path);
    ck_assert_str_eq(err.msg, expect);
    ck_assert_int_eq(rmdir(path), 0);
    ck_assert_int_eq(compare_default(a, b, &res, &err), CATENA_EINPUT);
    snprintf(expect, sizeof expect, "cannot compare: %s has events.csv, %s has none", b, a);
    ck_assert_str_eq(err.msg, expect);
    free(path);
    free(a);
    free(b);
}
END_TEST

/* The series a plot draws: |A-B| per common frame, its max and RMS over the points, and both
 * frames where the max peaks. */
START_TEST(test_series)
{
    char *a = traj_run("a", FORMAT_NPY, 5, 100, 3e-3, 45);
    char *b = traj_run("b", FORMAT_JSON, 10, 100, 0, 0);
    char *f = tu_path(a, "trajectory.npy");
    struct compare_options o;
    compare_default_options(&o);
    o.keep_series = 1;
    struct compare_result res;
    struct catena_error err = {0};
    ck_assert_int_eq(compare(f, b, &o, &res, &err), CATENA_EFAIL);
    ck_assert_ptr_nonnull(res.series);
    for (size_t i = 0; i < res.frames; i++) {
        const struct compare_frame_error *s = &res.series[i];
        ck_assert_int_eq(s->step, 10 * (long)i);
        ck_assert_double_eq_tol(s->time, 0.1 * (double)i, 1e-12);
        const double d = s->step >= 45 ? 3e-3 : 0; /* one point of three moved by d */
        ck_assert_double_eq_tol(s->max, d, 1e-12);
        ck_assert_double_eq_tol(s->rms, d / sqrt(3.0), 1e-12);
    }
    ck_assert_uint_eq(res.worst_frame, 10); /* the last of the equal maxima, step 100 */
    ck_assert_double_eq_tol(res.worst_a[1].y - res.worst_b[1].y, 3e-3, 1e-12);
    ck_assert_double_eq(res.worst_b[2].x, position(100, 2).x);
    ck_assert_double_eq(res.worst_a[2].y, position(100, 2).y);
    compare_result_free(&res);
    compare_result_free(&res); /* twice is safe */
    free(f);
    free(a);
    free(b);
}
END_TEST

/* --json: the parts, each with what was compared and the first difference. */
START_TEST(test_json)
{
    char *a = full_run("a"), *b = full_run("b");
    put_summary(a, "ok", 100, 0.55, 1.0625);
    struct compare_result res;
    struct catena_error err = {0};
    ck_assert_int_eq(compare_default(a, b, &res, &err), CATENA_EFAIL);
    cJSON *j = compare_to_json(&res);
    ck_assert_ptr_nonnull(j);
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(j, "within_tolerance")));
    const cJSON *parts = cJSON_GetObjectItem(j, "parts");
    const cJSON *ev = cJSON_GetObjectItem(parts, "events");
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(ev, "compared")));
    ck_assert_double_eq(cJSON_GetObjectItem(ev, "a")->valuedouble, 2);
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(ev, "first")));
    const cJSON *me = cJSON_GetObjectItem(parts, "metrics");
    ck_assert_double_eq(cJSON_GetObjectItem(me, "differ")->valuedouble, 1);
    const cJSON *first = cJSON_GetObjectItem(me, "first");
    ck_assert_str_eq(cJSON_GetObjectItem(first, "what")->valuestring, "kinetic");
    ck_assert_str_eq(cJSON_GetObjectItem(first, "a")->valuestring, "0.55");
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(first, "step")));
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(j, "worst_point")));
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(j, "extent")));
    cJSON_Delete(j);
    free(a);
    free(b);
}
END_TEST

/* Pixels of colour c in rows [y0, y1) of an RGBA image w wide. */
static long count_color(const unsigned char *px, int w, int y0, int y1, struct raster_color c)
{
    long n = 0;
    for (long i = (long)y0 * w; i < (long)y1 * w; i++)
        n += px[4 * i] == c.r && px[4 * i + 1] == c.g && px[4 * i + 2] == c.b;
    return n;
}

/* compare --plot: |A-B| over time on top (the max in red, the RMS in blue), both shapes
 * below; a deviation too small to see at the panel's scale gets an inset that magnifies it,
 * so the red line from B's point to A's is drawn long; A equal to B marks nothing. */
START_TEST(test_plot)
{
    static const struct raster_color red = {214, 39, 40, 255}, blue = {31, 119, 180, 255},
                                     orange = {255, 127, 14, 255};
    enum { W = 960, TOP = 80, SHAPES = 440, H = 1040 }; /* the figure's layout */
    static const struct {
        double shift; /* m, point 1 from step 45 on */
        long red_min, red_max;
    } cases[] = {
        {1e-7, 120, 100000}, /* sub-pixel: the inset draws it a third of its side long, 77
                                px at 2 px wide (no more than its anti-aliased ends short of
                                the full red) */
        {0, 0, 0},           /* nothing to mark */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char na[32], nb[32];
        snprintf(na, sizeof na, "plot-a%zu", i);
        snprintf(nb, sizeof nb, "plot-b%zu", i);
        char *a = traj_run(na, FORMAT_NPY, 5, 100, cases[i].shift, 45);
        char *b = traj_run(nb, FORMAT_CSV, 10, 100, 0, 0);
        struct compare_options o;
        compare_default_options(&o);
        o.keep_series = 1;
        struct compare_result res;
        struct catena_error err = {0};
        const int rc = compare(a, b, &o, &res, &err);
        ck_assert_int_eq(rc, cases[i].shift > 0 ? CATENA_EFAIL : CATENA_OK);
        char *file = tu_path(dir, "plot.png");
        ck_assert_msg(compare_plot_write(&res, b, file, &err) == CATENA_OK, "%s", err.msg);
        int w, h;
        unsigned char *px = tu_read_png(dir, "plot.png", &w, &h);
        ck_assert_ptr_nonnull(px);
        ck_assert_int_eq(w, W);
        ck_assert_int_eq(h, H);
        ck_assert_int_gt(count_color(px, w, TOP, SHAPES, blue), 100); /* the RMS line */
        ck_assert_int_gt(count_color(px, w, SHAPES, H, blue), 20);    /* A's points */
        ck_assert_int_gt(count_color(px, w, SHAPES, H, orange), 20);  /* B's points */
        const long r = count_color(px, w, SHAPES + 60, H, red);
        ck_assert_msg(r >= cases[i].red_min && r <= cases[i].red_max, "case %zu: %ld red", i, r);
        if (cases[i].shift > 0) /* the max line, drawn over the RMS where they part */
            ck_assert_int_gt(count_color(px, w, TOP, SHAPES, red), 100);
        free(px);
        free(file);
        compare_result_free(&res);
        free(a);
        free(b);
    }
    /* nothing compared, or no series kept: refused */
    struct compare_result none = {0};
    struct catena_error err = {0};
    char *file = tu_path(dir, "none.png");
    ck_assert_int_eq(compare_plot_write(&none, NULL, file, &err), CATENA_EFAIL);
    free(file);
}
END_TEST

/* A 3D run NAME of 12 points along x, hanging in z (y = 0 throughout), recorded at steps 0 and
 * 10; point 5 moved by dz in z at step 10. */
static char *run_3d(const char *name, double dz)
{
    char *d = tu_path(dir, name);
    ck_assert_int_eq(mkdir(d, 0777), 0);
    struct model *m = tu_chain(12, v3(0, 0, 0), v3(2, 0, 0), 1.0, 1, 0, 0.01, 1);
    ck_assert_ptr_nonnull(m);
    m->dims = 3;
    struct catena_error err = {0};
    struct traj_writer *w = traj_open(FORMAT_CSV, d, m, name, 10, &err);
    ck_assert_msg(w != NULL, "%s", err.msg);
    for (long s = 0; s <= 10; s += 10) {
        vec3 x[12];
        for (size_t p = 0; p < 12; p++)
            x[p] = v3(0.2 * (double)p, 0, -0.3 * sin(3.14159 * (double)p / 11) * (double)(s + 1));
        if (s == 10)
            x[5].z += dz;
        ck_assert_int_eq(traj_append(w, s, (double)s * 0.01, x, &err), CATENA_OK);
    }
    ck_assert_msg(traj_close(w, &err) == CATENA_OK, "%s", err.msg);
    model_destroy(m);
    return d;
}

/* In 3D the plot draws the two coordinates that spread the most: here x and z, so A's
 * points spread over hundreds of rows of the panel (drawn in x and y they would share one). */
START_TEST(test_plot_3d)
{
    static const struct raster_color blue = {31, 119, 180, 255};
    char *a = run_3d("a", 0.05), *b = run_3d("b", 0);
    struct compare_options o;
    compare_default_options(&o);
    o.keep_series = 1;
    struct compare_result res;
    struct catena_error err = {0};
    ck_assert_int_eq(compare(a, b, &o, &res, &err), CATENA_EFAIL);
    char *file = tu_path(dir, "plot3d.png");
    ck_assert_msg(compare_plot_write(&res, NULL, file, &err) == CATENA_OK, "%s", err.msg);
    int w, h;
    unsigned char *px = tu_read_png(dir, "plot3d.png", &w, &h);
    ck_assert_ptr_nonnull(px);
    int top = -1, bottom = -1;
    for (int y = 440 + 84; y < h; y++) /* below the panel's key */
        if (count_color(px, w, y, y + 1, blue) > 0) {
            top = top < 0 ? y : top;
            bottom = y;
        }
    ck_assert_int_gt(bottom - top, 300); /* the sag, 3.3 m, drawn about 130 px/m */
    free(px);
    free(file);
    compare_result_free(&res);
    free(a);
    free(b);
}
END_TEST

static Suite *compare_run_suite(void)
{
    Suite *s = suite_create("compare_run");
    TCase *steps = tu_tcase(s, "by step", tu_dir_setup, tu_dir_teardown);
    tcase_add_test(steps, test_every_5_and_10);
    tcase_add_test(steps, test_different_runs);
    tcase_add_test(steps, test_extent);
    tcase_add_test(steps, test_series);
    tcase_add_test(steps, test_plot);
    tcase_add_test(steps, test_plot_3d);
    TCase *runs = tu_tcase(s, "runs", tu_dir_setup, tu_dir_teardown);
    tcase_add_test(runs, test_runs_equal);
    tcase_add_test(runs, test_event_moved);
    tcase_add_test(runs, test_event_missing);
    tcase_add_test(runs, test_topology);
    tcase_add_test(runs, test_status_and_metrics);
    tcase_add_test(runs, test_parts_and_files);
    tcase_add_test(runs, test_json);
    return s;
}

int main(void)
{
    return tu_run(compare_run_suite());
}
