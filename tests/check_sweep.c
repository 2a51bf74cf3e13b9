/* Sweep plans: product and zip expansion orders, run names (labels that tell paths apart,
 * encoding, long names ending in a hash), --set values that keep strings strings, the plan
 * round trip through plan.json, and how a run directory is judged (ok, failed, missing,
 * stale). The command line and the runs themselves are tested in tests/sweep*.sh. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "sweep/plot.h"
#include "sweep/sweep.h"
#include "testutil.h"
#include "testutil_check.h"

/* Writes text to DIR/name and returns the path (static buffer, two in turn). */
static const char *put(const char *name, const char *text)
{
    static char path[2][4096];
    static int next;
    char *p = path[next++ % 2];
    snprintf(p, sizeof path[0], "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
    return p;
}

static const char base_json[] =
    "{\"catena\": 1, \"name\": \"base\", \"dimensions\": 2,\n"
    " \"time\": {\"dt\": 0.01, \"steps\": 10},\n"
    " \"world\": {\"gravity\": [0, -9.81]},\n"
    " \"points\": [{\"p\": [0, 0], \"mass\": 1}, {\"p\": [1, 0], \"mass\": 1}],\n"
    " \"links\": [{\"a\": 0, \"b\": 1}], \"pins\": [{\"point\": 0}]}\n";

/* Loads a sweep of base.json whose body (after "base") is given. */
static struct sweep_plan *load(const char *body)
{
    char text[4096];
    struct catena_error err;
    put("base.json", base_json);
    snprintf(text, sizeof text, "{\"base\": \"base.json\", %s}", body);
    struct sweep_plan *p = sweep_load(put("sweep.json", text), &err);
    ck_assert_msg(p != NULL, "%s", err.msg);
    return p;
}

START_TEST(test_product_order)
{
    struct sweep_plan *p = load("\"vary\": {\"solver.iterations\": [1, 2, 3],"
                                " \"solver.order\": [\"forward\", \"alternate\"]}");
    static const char *const names[] = {
        "iterations=1,order=forward", "iterations=1,order=alternate",
        "iterations=2,order=forward", "iterations=2,order=alternate",
        "iterations=3,order=forward", "iterations=3,order=alternate",
    };
    ck_assert_uint_eq(p->nruns, 6);
    ck_assert_uint_eq(p->naxes, 2);
    for (size_t i = 0; i < 6; i++)
        ck_assert_str_eq(p->runs[i].name, names[i]);
    ck_assert_str_eq(p->runs[3].set[0], "solver.iterations=2");
    ck_assert_str_eq(p->runs[3].set[1], "solver.order=alternate");
    ck_assert_str_eq(p->runs[3].cells[0], "2");
    ck_assert_str_eq(p->runs[3].cells[1], "alternate");
    ck_assert_str_eq(p->version, PACKAGE_VERSION);
    ck_assert_uint_eq(strlen(p->base_sha256), 64);
    ck_assert_ptr_nonnull(strstr(p->base, "/base.json"));
    ck_assert_int_eq(p->base[0], '/');
    sweep_plan_destroy(p);
}
END_TEST

START_TEST(test_zip)
{
    struct sweep_plan *p = load("\"mode\": \"zip\", \"vary\": {\"time.dt\": [0.01, 0.02, 0.01],"
                                " \"time.steps\": [10, 5, 20]}");
    ck_assert_uint_eq(p->nruns, 3);
    ck_assert_str_eq(p->runs[0].name, "dt=0.01,steps=10");
    ck_assert_str_eq(p->runs[1].name, "dt=0.02,steps=5");
    ck_assert_str_eq(p->runs[2].name, "dt=0.01,steps=20");
    sweep_plan_destroy(p);
}
END_TEST

/* Paths that end alike are told apart by more components; a bare index takes its parent. */
START_TEST(test_labels)
{
    struct sweep_plan *p = load("\"vary\": {\"points.0.mass\": [2], \"points.1.mass\": [3],"
                                " \"world.gravity.1\": [-1]}");
    ck_assert_str_eq(p->runs[0].name, "0.mass=2,1.mass=3,gravity.1=-1");
    sweep_plan_destroy(p);
}
END_TEST

/* A string that would read as JSON is quoted for --set, so that it stays a string; arrays
 * are joined by _ in names, objects encoded. */
START_TEST(test_values)
{
    struct sweep_plan *p = load("\"mode\": \"zip\", \"vary\": {\"name\": [\"5\", \"true\"],"
                                " \"world\": [{\"gravity\": [0, -1]}, {\"gravity\": [0, -2]}],"
                                " \"output.trajectory\": [[\"csv\", \"npy\"], [\"json\"]]}");
    ck_assert_str_eq(p->runs[0].set[0], "name=\"5\"");
    ck_assert_str_eq(p->runs[1].set[0], "name=\"true\"");
    ck_assert_str_eq(p->runs[0].cells[0], "5");
    ck_assert_str_eq(p->runs[0].set[1], "world={\"gravity\":[0,-1]}");
    ck_assert_str_eq(p->runs[0].cells[2], "[\"csv\",\"npy\"]");
    ck_assert_str_eq(p->runs[0].name,
                     "name=5,world=%7B%22gravity%22%3A%5B0%2C-1%5D%7D,trajectory=csv_npy");
    sweep_plan_destroy(p);
}
END_TEST

/* Names past 200 bytes keep their start and end in a hash of the whole name, so two runs
 * that differ only at the end still get different directories. */
START_TEST(test_long_names)
{
    struct sweep_plan *p =
        load("\"vary\": {\"time\": [{\"dt\": 0.0123456789012345, \"steps\": 10, \"substeps\": 1}],"
             " \"world\": [{\"gravity\": [0.123456789012345, -9.8123456789012345]}],"
             " \"solver\": [{\"iterations\": 11, \"damping\": 0.99}, "
             "{\"iterations\": 12, \"damping\": 0.99}]}");
    ck_assert_uint_eq(p->nruns, 2);
    ck_assert_uint_eq(strlen(p->runs[0].name), 200);
    ck_assert_uint_eq(strlen(p->runs[1].name), 200);
    ck_assert_str_ne(p->runs[0].name, p->runs[1].name);
    ck_assert_int_eq(strncmp(p->runs[0].name, "time=%7B%22dt%22", 16), 0);
    /* ",HASH": 16 hexadecimal digits after the last comma. */
    const char *tail = strrchr(p->runs[0].name, ',');
    ck_assert_uint_eq(strlen(tail + 1), 16);
    ck_assert_uint_eq(strspn(tail + 1, "0123456789abcdef"), 16);
    sweep_plan_destroy(p);
}
END_TEST

/* "set": overrides common to every run, passed before the varied ones; not in names. */
START_TEST(test_fixed)
{
    struct sweep_plan *p = load("\"set\": {\"time.steps\": 7, \"name\": \"5\"},"
                                " \"vary\": {\"solver.iterations\": [1, 2]}");
    ck_assert_uint_eq(p->nfixed, 2);
    ck_assert_str_eq(p->fixed[0], "time.steps=7");
    ck_assert_str_eq(p->fixed[1], "name=\"5\"");
    ck_assert_str_eq(p->runs[1].name, "iterations=2");
    char *cmd = sweep_command(p, "out", "catena", 1);
    ck_assert_ptr_nonnull(cmd);
    /* The base's path (a temporary directory, quoted if it needs to be) in between. */
    const char *tail = " --set time.steps=7 --set 'name=\"5\"' --set solver.iterations=2 -o "
                       "out/runs/iterations=2 -q";
    ck_assert_int_eq(strncmp(cmd, "catena run ", 11), 0);
    ck_assert_str_eq(cmd + strlen(cmd) - strlen(tail), tail);
    free(cmd);
    sweep_plan_destroy(p);
}
END_TEST

START_TEST(test_plan_round_trip)
{
    struct catena_error err;
    struct sweep_plan *p = load("\"vary\": {\"solver.iterations\": [1, 2], \"name\": [\"x\"]},"
                                " \"set\": {\"time.steps\": 3},"
                                " \"collect\": [\"summary.wall_time\", \"metrics.energy\"]");
    ck_assert_int_eq(sweep_plan_write(p, dir, &err), CATENA_OK);
    struct sweep_plan *q = sweep_plan_read(dir, &err);
    ck_assert_msg(q != NULL, "%s", err.msg);
    ck_assert_str_eq(q->sweep, p->sweep);
    ck_assert_str_eq(q->base, p->base);
    ck_assert_str_eq(q->base_sha256, p->base_sha256);
    ck_assert_str_eq(q->version, p->version);
    ck_assert_uint_eq(q->naxes, 2);
    ck_assert_uint_eq(q->ncollect, 2);
    ck_assert_str_eq(q->collect[1], "metrics.energy");
    ck_assert_uint_eq(q->nfixed, 1);
    ck_assert_str_eq(q->fixed[0], "time.steps=3");
    ck_assert_uint_eq(q->nruns, 2);
    for (size_t i = 0; i < 2; i++) {
        ck_assert_str_eq(q->runs[i].name, p->runs[i].name);
        for (size_t a = 0; a < 2; a++) {
            ck_assert_str_eq(q->runs[i].set[a], p->runs[i].set[a]);
            ck_assert_str_eq(q->runs[i].cells[a], p->runs[i].cells[a]);
        }
    }
    sweep_plan_destroy(q);
    sweep_plan_destroy(p);
}
END_TEST

/* A plan.json edited into pointing outside runs/ is refused. */
START_TEST(test_plan_unsafe_name)
{
    struct catena_error err;
    struct sweep_plan *p = load("\"vary\": {\"solver.iterations\": [1]}");
    free(p->runs[0].name);
    p->runs[0].name = strdup("../escape");
    ck_assert_int_eq(sweep_plan_write(p, dir, &err), CATENA_OK);
    ck_assert_ptr_null(sweep_plan_read(dir, &err));
    ck_assert_int_eq(err.code, CATENA_EINPUT);
    ck_assert_ptr_nonnull(
        strstr(err.msg, "plan.json: runs[0].name: \"../escape\" is not a run name"));
    sweep_plan_destroy(p);
}
END_TEST

/* Writes DIR/runs/NAME/summary.json for run 0 of p. */
static void summary(const struct sweep_plan *p, const char *version, const char *sha,
                    const char *overrides, const char *status)
{
    char *runs = tu_path(dir, "runs"), *run = tu_path(runs, p->runs[0].name), text[2048];
    mkdir(runs, 0777);
    mkdir(run, 0777);
    char *file = tu_path(run, "summary.json");
    snprintf(text, sizeof text,
             "{\"catena_version\": \"%s\", \"scenario\": {\"sha256\": \"%s\", \"overrides\": %s},"
             " \"status\": \"%s\", \"diverged\": {\"step\": 7}}",
             version, sha, overrides, status);
    FILE *f = fopen(file, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
    free(file);
    free(run);
    free(runs);
}

START_TEST(test_check_run)
{
    struct sweep_plan *p =
        load("\"set\": {\"time.steps\": 4}, \"vary\": {\"solver.iterations\": [3]}");
    struct sweep_outcome o;
    const char *v = PACKAGE_VERSION, *sha = p->base_sha256;
    const char *ov = "[\"time.steps=4\", \"solver.iterations=3\"]";

    sweep_check_run(p, dir, 0, &o);
    ck_assert_int_eq(o.status, SWEEP_MISSING);
    ck_assert_str_eq(o.why, "no summary.json");

    summary(p, v, sha, ov, "ok");
    sweep_check_run(p, dir, 0, &o);
    ck_assert_int_eq(o.status, SWEEP_OK);
    ck_assert_int_eq(o.exit_code, 0);

    summary(p, v, sha, ov, "diverged");
    sweep_check_run(p, dir, 0, &o);
    ck_assert_int_eq(o.status, SWEEP_FAILED);
    ck_assert_int_eq(o.exit_code, 1);
    ck_assert_str_eq(o.why, "diverged at step 7");

    summary(p, v, sha, "[\"time.steps=4\", \"solver.iterations=4\"]", "ok");
    sweep_check_run(p, dir, 0, &o);
    ck_assert_int_eq(o.status, SWEEP_STALE);
    ck_assert_str_eq(o.why, "summary.json is from a run with other overrides");

    summary(p, v, sha, "[]", "ok");
    sweep_check_run(p, dir, 0, &o);
    ck_assert_int_eq(o.status, SWEEP_STALE);

    /* The same overrides in another order are another scenario's. */
    summary(p, v, sha, "[\"solver.iterations=3\", \"time.steps=4\"]", "ok");
    sweep_check_run(p, dir, 0, &o);
    ck_assert_int_eq(o.status, SWEEP_STALE);

    summary(p, v, "0000000000000000000000000000000000000000000000000000000000000000", ov, "ok");
    sweep_check_run(p, dir, 0, &o);
    ck_assert_int_eq(o.status, SWEEP_STALE);
    ck_assert_ptr_nonnull(strstr(o.why, "from another version of"));

    summary(p, "0.0.0", sha, ov, "ok");
    sweep_check_run(p, dir, 0, &o);
    ck_assert_int_eq(o.status, SWEEP_STALE);
    ck_assert_ptr_nonnull(strstr(o.why, "from catena 0.0.0"));
    sweep_plan_destroy(p);
}
END_TEST

/* sweep plot: a zipped damping that goes with the order names no line of its own; --by
 * groups by one path; runs not ok, or without a number, are left out; an x of names is an
 * axis of categories; two runs at one point are refused. */
START_TEST(test_plot_lines)
{
    struct sweep_plan *p =
        load("\"mode\": \"zip\", \"vary\": {"
             "\"solver.order\": [\"forward\", \"forward\", \"alternate\", \"alternate\"],"
             " \"solver.damping\": [0.9, 0.9, 0.8, 0.8],"
             " \"solver.iterations\": [1, 5, 1, 5]},"
             " \"collect\": [\"summary.final.max_stretch\"]");
    struct catena_error err;
    ck_assert_int_eq(sweep_plan_write(p, dir, &err), CATENA_OK);
    put("sweep.csv", "solver.order,solver.damping,solver.iterations,summary.final.max_stretch,"
                     "status,exit_code,name\n"
                     "forward,0.9,1,1.5,ok,0,a\n"
                     "forward,0.9,5,1.1,ok,0,b\n"
                     "alternate,0.8,1,1.4,ok,0,c\n"
                     "alternate,0.8,5,1.05,ok,0,d\n");
    struct sweep_plot_options o = {.x = "iterations", .y = "max_stretch"};
    struct sweep_plot_result res;
    ck_assert_msg(sweep_plot(dir, &o, dir, "a.png", &res, &err) == CATENA_OK, "%s", err.msg);
    ck_assert_uint_eq(res.lines, 2); /* order=forward, order=alternate: damping goes with it */
    ck_assert_uint_eq(res.points, 4);
    ck_assert_uint_eq(res.skipped, 0);
    o.x = "order"; /* categories; damping goes with x, iterations names the lines */
    ck_assert_msg(sweep_plot(dir, &o, dir, "b.png", &res, &err) == CATENA_OK, "%s", err.msg);
    ck_assert_uint_eq(res.lines, 2);
    o.x = "iterations";
    o.by = "damping";
    ck_assert_msg(sweep_plot(dir, &o, dir, "c.png", &res, &err) == CATENA_OK, "%s", err.msg);
    ck_assert_uint_eq(res.lines, 2);
    put("sweep.csv", "solver.order,solver.damping,solver.iterations,summary.final.max_stretch,"
                     "status,exit_code,name\n"
                     "forward,0.9,1,1.5,ok,0,a\n"
                     "forward,0.9,5,,ok,0,b\n"
                     "alternate,0.8,1,1.4,failed,1,c\n"
                     "alternate,0.8,5,1.05,ok,0,d\n");
    o.by = NULL;
    ck_assert_msg(sweep_plot(dir, &o, dir, "d.png", &res, &err) == CATENA_OK, "%s", err.msg);
    ck_assert_uint_eq(res.points, 2);
    ck_assert_uint_eq(res.skipped, 2);
    ck_assert_uint_eq(res.lines, 2);
    /* one line for all: iterations 1 twice, told apart by the order */
    put("sweep.csv", "solver.order,solver.damping,solver.iterations,summary.final.max_stretch,"
                     "status,exit_code,name\n"
                     "forward,0.9,1,1.5,ok,0,a\n"
                     "alternate,0.9,1,1.4,ok,0,c\n");
    o.by = "damping";
    ck_assert_int_eq(sweep_plot(dir, &o, dir, "e.png", &res, &err), CATENA_EINPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "runs a and c would be one point: they differ in "
                                          "solver.order (give --by solver.order)"));
    o.by = NULL;
    o.y = "nothing";
    ck_assert_int_eq(sweep_plot(dir, &o, dir, "f.png", &res, &err), CATENA_EINPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "--y: no 'nothing' among the collected paths"));
    sweep_plan_destroy(p);
}
END_TEST

static Suite *sweep_suite(void)
{
    Suite *s = suite_create("sweep");
    TCase *plan = tu_tcase(s, "plan", tu_dir_setup, tu_dir_teardown);
    tcase_add_test(plan, test_product_order);
    tcase_add_test(plan, test_zip);
    tcase_add_test(plan, test_labels);
    tcase_add_test(plan, test_values);
    tcase_add_test(plan, test_long_names);
    tcase_add_test(plan, test_fixed);
    tcase_add_test(plan, test_plan_round_trip);
    tcase_add_test(plan, test_plan_unsafe_name);
    tcase_add_test(plan, test_check_run);
    tcase_add_test(plan, test_plot_lines);
    return s;
}

int main(void)
{
    return tu_run(sweep_suite());
}
