/* Tests of the run loop (run/run.c) on models built in code: which files appear, how many frames
 * each steps/every combination records, and that a diverged, interrupted or failed run
 * leaves whole files (or none) and a summary.json that says what happened. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/warnings.h"
#include "run/run.h"
#include "solver/solver.h"
#include "testutil.h"
#include "testutil_check.h"
#include "testutil_models.h"

/* A 5-point chain pinned at its first point, swinging down under gravity. */
static struct scenario *swinging_chain(long steps, long every, unsigned formats)
{
    struct scenario *sc =
        scenario_create(tu_chain(5, v3(0, 0, 0), v3(4, 0, 0), 1.0, 1, 0, 1.0 / 120.0, 10));
    ck_assert_ptr_nonnull(sc);
    sc->model->steps = steps;
    sc->output.every = every;
    sc->output.formats = formats;
    return sc;
}

static int exists(const char *d, const char *name)
{
    char *p = tu_path(d, name);
    struct stat st;
    int found = stat(p, &st) == 0;
    free(p);
    return found;
}

/* No temporary file is left behind, whatever the outcome. */
static void assert_no_temp_files(const char *d)
{
    DIR *dp = opendir(d);
    ck_assert_ptr_nonnull(dp);
    for (struct dirent *e; (e = readdir(dp));)
        ck_assert_msg(!strstr(e->d_name, ".tmp"), "temporary file left: %s", e->d_name);
    closedir(dp);
}

/* Frames in trajectory.csv: its rows after the header, which must be whole frames. */
static long csv_frames(const char *d, size_t npoints)
{
    char *p = tu_path(d, "trajectory.csv");
    char *text = tu_read_file(p, NULL);
    free(p);
    ck_assert_ptr_nonnull(text);
    long lines = 0;
    for (const char *c = text; *c; c++)
        lines += *c == '\n';
    ck_assert_msg(strncmp(text, "step,time,point,x,y\n", 20) == 0, "csv header: %.40s", text);
    free(text);
    ck_assert_int_eq((lines - 1) % (long)npoints, 0);
    return (lines - 1) / (long)npoints;
}

static cJSON *read_json(const char *d, const char *name)
{
    char *p = tu_path(d, name);
    char *text = tu_read_file(p, NULL);
    free(p);
    ck_assert_msg(text != NULL, "%s missing", name);
    cJSON *json = cJSON_Parse(text);
    free(text);
    ck_assert_msg(json != NULL, "%s is not valid JSON", name);
    return json;
}

static long json_frames(const char *d)
{
    cJSON *json = read_json(d, "trajectory.json");
    long n = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(json, "frames"));
    cJSON_Delete(json);
    return n;
}

/* The first entry of the NPY header's shape, (frames, points, dims). */
static long npy_frames(const char *d)
{
    char *p = tu_path(d, "trajectory.npy");
    char *data = tu_read_file(p, NULL);
    free(p);
    ck_assert_ptr_nonnull(data);
    const char *shape = strstr(data + 10, "'shape': (");
    ck_assert_ptr_nonnull(shape);
    long n = strtol(shape + strlen("'shape': ("), NULL, 10);
    free(data);
    return n;
}

/* summary.json's status, checked against the expected one. */
static void assert_summary(const char *d, const char *status, long steps_done)
{
    cJSON *json = read_json(d, "summary.json");
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(json, "status");
    ck_assert_msg(cJSON_IsString(st), "summary.json has no status");
    ck_assert_str_eq(st->valuestring, status);
    const cJSON *done = cJSON_GetObjectItemCaseSensitive(json, "steps_done");
    ck_assert_msg(cJSON_IsNumber(done), "summary.json has no steps_done");
    ck_assert_int_eq((long)done->valuedouble, steps_done);
    cJSON_Delete(json);
}

START_TEST(test_outputs_appear)
{
    tu_use(swinging_chain(10, 1, FORMAT_CSV | FORMAT_JSON | FORMAT_NPY));
    struct run_options o = {.out_dir = dir};
    struct run_result r;
    struct catena_error err;
    ck_assert_int_eq(run_simulation(scen, &o, &r, &err), CATENA_OK);
    ck_assert_int_eq(r.status, RUN_OK);
    ck_assert_int_eq(r.steps_done, 10);
    ck_assert_int_eq(r.diverged_point, -1);
    ck_assert_int_eq(r.signal, 0);
    ck_assert_uint_eq(r.live_links, 4);
    ck_assert(r.wall_s >= 0.0);
    /* Verlet with one 10-iteration sweep keeps a light chain near its rest lengths; 1.01
     * only says the links were measured, not how stiff they are (check_solver does that). */
    ck_assert(r.max_stretch > 0.99 && r.max_stretch < 1.01);
    ck_assert_int_eq(csv_frames(dir, 5), 11);
    ck_assert_int_eq(json_frames(dir), 11);
    ck_assert_int_eq(npy_frames(dir), 11);
    assert_summary(dir, "ok", 10);
    assert_no_temp_files(dir);
}
END_TEST

START_TEST(test_only_asked_formats)
{
    tu_use(swinging_chain(3, 1, FORMAT_NPY));
    struct run_options o = {.out_dir = dir};
    struct run_result r;
    struct catena_error err;
    ck_assert_int_eq(run_simulation(scen, &o, &r, &err), CATENA_OK);
    ck_assert(exists(dir, "trajectory.npy"));
    ck_assert(exists(dir, "summary.json"));
    ck_assert(!exists(dir, "trajectory.csv"));
    ck_assert(!exists(dir, "trajectory.json"));
}
END_TEST

START_TEST(test_missing_dirs_created)
{
    tu_use(swinging_chain(2, 1, FORMAT_CSV));
    char *sub = tu_path(dir, "a/b/c");
    struct run_options o = {.out_dir = sub};
    struct run_result r;
    struct catena_error err;
    ck_assert_int_eq(run_simulation(scen, &o, &r, &err), CATENA_OK);
    ck_assert_int_eq(csv_frames(sub, 5), 3);
    free(sub);
}
END_TEST

/* Frames are step 0 and every multiple of `every` up to `steps`. */
static const struct {
    long steps, every, frames;
} frame_cases[] = {
    {10, 1, 11}, {10, 3, 4}, {9, 3, 4}, {10, 10, 2}, {10, 20, 1}, {0, 1, 1}, {1, 1, 2},
};

START_TEST(test_frames_counted)
{
    tu_use(swinging_chain(frame_cases[_i].steps, frame_cases[_i].every,
                          FORMAT_CSV | FORMAT_JSON | FORMAT_NPY));
    struct run_options o = {.out_dir = dir};
    struct run_result r;
    struct catena_error err;
    ck_assert_int_eq(run_simulation(scen, &o, &r, &err), CATENA_OK);
    ck_assert_int_eq(csv_frames(dir, 5), frame_cases[_i].frames);
    ck_assert_int_eq(json_frames(dir), frame_cases[_i].frames);
    ck_assert_int_eq(npy_frames(dir), frame_cases[_i].frames);
    assert_summary(dir, "ok", frame_cases[_i].steps);
}
END_TEST

/* Free fall from rest with dt = 1 s puts every point at y = -g n^2 / 2 after step n
 * (Verlet is exact for constant acceleration). With g = SOLVER_ABSURD / 10 the points
 * are at 0.8 * SOLVER_ABSURD after step 4 and 1.25 * SOLVER_ABSURD after step 5: the
 * run diverges at step 5, far from rounding either way. */
START_TEST(test_divergence_keeps_partial_output)
{
    tu_use(scenario_create(tu_chain(3, v3(0, 0, 0), v3(2, 0, 0), 1.0, 0, 0, 1.0, 1)));
    m->gravity = v3(0, -SOLVER_ABSURD / 10, 0);
    m->steps = 100;
    scen->output.formats = FORMAT_CSV | FORMAT_JSON | FORMAT_NPY;
    struct run_options o = {.out_dir = dir};
    struct run_result r;
    struct catena_error err;
    ck_assert_int_eq(run_simulation(scen, &o, &r, &err), CATENA_EFAIL);
    ck_assert_int_eq(err.code, CATENA_EFAIL);
    ck_assert_int_eq(r.status, RUN_DIVERGED);
    ck_assert_int_eq(r.steps_done, 5);
    ck_assert_int_eq(r.diverged_point, 0);
    ck_assert_msg(strstr(err.msg, "diverged at step 5: point 0 "), "message: %s", err.msg);
    /* Steps 0..4 were recorded and committed as whole files. */
    ck_assert_int_eq(csv_frames(dir, 3), 5);
    ck_assert_int_eq(json_frames(dir), 5);
    ck_assert_int_eq(npy_frames(dir), 5);
    assert_no_temp_files(dir);

    assert_summary(dir, "diverged", 5);
    cJSON *json = read_json(dir, "summary.json");
    const cJSON *dv = cJSON_GetObjectItemCaseSensitive(json, "diverged");
    const cJSON *step = cJSON_GetObjectItemCaseSensitive(dv, "step");
    const cJSON *point = cJSON_GetObjectItemCaseSensitive(dv, "point");
    ck_assert(cJSON_IsNumber(step) && step->valuedouble == 5);
    ck_assert(cJSON_IsString(point) && strcmp(point->valuestring, "0") == 0);
    cJSON_Delete(json);
}
END_TEST

/* A NaN anywhere spreads through the links; the message says it is not finite. */
START_TEST(test_divergence_non_finite)
{
    tu_use(scenario_create(tu_chain(3, v3(0, 0, 0), v3(2, 0, 0), 1.0, 1, 0, 1.0 / 120.0, 5)));
    m->steps = 10;
    m->v0[2] = v3(NAN, 0, 0);
    struct run_options o = {.out_dir = dir};
    struct run_result r;
    struct catena_error err;
    ck_assert_int_eq(run_simulation(scen, &o, &r, &err), CATENA_EFAIL);
    ck_assert_int_eq(r.status, RUN_DIVERGED);
    ck_assert_int_eq(r.steps_done, 1);
    ck_assert_msg(strstr(err.msg, "diverged at step 1: point ") &&
                      strstr(err.msg, "has a non-finite position ("),
                  "message: %s", err.msg);
    ck_assert_int_eq(csv_frames(dir, 3), 1);
    assert_summary(dir, "diverged", 1);
}
END_TEST

/* An initial state already out of bounds is caught before anything is recorded: the files
 * are complete, with no frames. */
START_TEST(test_divergence_initial)
{
    tu_use(scenario_create(tu_chain(2, v3(0, 0, 0), v3(1, 0, 0), 1.0, 0, 0, 1.0 / 120.0, 5)));
    m->x0[1] = v3(0, 2 * SOLVER_ABSURD, 0);
    scen->output.formats = FORMAT_CSV | FORMAT_JSON | FORMAT_NPY;
    struct run_options o = {.out_dir = dir};
    struct run_result r;
    struct catena_error err;
    ck_assert_int_eq(run_simulation(scen, &o, &r, &err), CATENA_EFAIL);
    ck_assert_int_eq(r.status, RUN_DIVERGED);
    ck_assert_int_eq(r.steps_done, 0);
    ck_assert_int_eq(r.diverged_point, 1);
    ck_assert_msg(strstr(err.msg, "diverged at step 0: point 1 is at (0, 2e+12)"), "message: %s",
                  err.msg);
    ck_assert_int_eq(csv_frames(dir, 2), 0);
    ck_assert_int_eq(json_frames(dir), 0);
    ck_assert_int_eq(npy_frames(dir), 0);
    assert_summary(dir, "diverged", 0);
}
END_TEST

/* Sends SIGTERM to `target` every few milliseconds until killed: the run may install its
 * handler at any moment, and one signal after that must be seen. */
static pid_t start_terminator(pid_t target)
{
    pid_t child = fork();
    ck_assert_int_ge(child, 0);
    if (child == 0) {
        const struct timespec pause = {0, 20 * 1000 * 1000};
        while (getppid() == target) {
            nanosleep(&pause, NULL);
            kill(target, SIGTERM);
        }
        _exit(0);
    }
    return child;
}

static void ignore_signal(int sig)
{
    (void)sig;
}

START_TEST(test_interrupt_commits_outputs)
{
    /* Far more steps than the test waits for: only the signal can end it in time. */
    tu_use(swinging_chain(2000000000L, 1000, FORMAT_CSV | FORMAT_JSON | FORMAT_NPY));
    /* SIGTERMs that arrive before run_simulation catches them, or after, do nothing. (Not
     * SIG_IGN: the run leaves a signal ignored on entry ignored.) */
    struct sigaction quiet = {0}, old;
    quiet.sa_handler = ignore_signal;
    sigemptyset(&quiet.sa_mask);
    sigaction(SIGTERM, &quiet, &old);
    pid_t child = start_terminator(getpid());
    struct run_options o = {.out_dir = dir};
    struct run_result r;
    struct catena_error err;
    int rc = run_simulation(scen, &o, &r, &err);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    sigaction(SIGTERM, &old, NULL);

    ck_assert_int_eq(rc, CATENA_EFAIL);
    ck_assert_int_eq(r.status, RUN_INTERRUPTED);
    ck_assert_int_eq(r.signal, SIGTERM);
    ck_assert_int_lt(r.steps_done, m->steps);
    ck_assert_msg(strstr(err.msg, "interrupted by SIGTERM at step "), "message: %s", err.msg);
    const long frames = r.steps_done / scen->output.every + 1;
    ck_assert_int_eq(csv_frames(dir, 5), frames);
    ck_assert_int_eq(json_frames(dir), frames);
    ck_assert_int_eq(npy_frames(dir), frames);
    assert_summary(dir, "interrupted", r.steps_done);
    assert_no_temp_files(dir);
}
END_TEST

/* A file size limit makes writes fail with EFBIG part way through the trajectory: the run
 * fails with the writer's message and no trajectory file appears under its final name. */
START_TEST(test_write_error_leaves_no_file)
{
    tu_use(swinging_chain(2000, 1, FORMAT_CSV | FORMAT_JSON));
    struct rlimit old, small = {.rlim_cur = 16384, .rlim_max = 0};
    ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
    small.rlim_max = old.rlim_max;
    struct sigaction ign = {0}, old_xfsz;
    ign.sa_handler = SIG_IGN;
    sigaction(SIGXFSZ, &ign, &old_xfsz);
    ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &small), 0);
    struct run_options o = {.out_dir = dir};
    struct run_result r;
    struct catena_error err;
    int rc = run_simulation(scen, &o, &r, &err);
    setrlimit(RLIMIT_FSIZE, &old);
    sigaction(SIGXFSZ, &old_xfsz, NULL);

    ck_assert_int_eq(rc, CATENA_EFAIL);
    /* metrics.csv grows alongside and may reach the limit first. */
    ck_assert_msg(strstr(err.msg, "trajectory.") || strstr(err.msg, "metrics.csv"), "message: %s",
                  err.msg);
    ck_assert(!exists(dir, "trajectory.csv"));
    ck_assert(!exists(dir, "trajectory.json"));
    ck_assert(!exists(dir, "metrics.csv"));
    assert_no_temp_files(dir);
}
END_TEST

START_TEST(test_unwritable_dir)
{
    tu_use(swinging_chain(2, 1, FORMAT_CSV));
    char *file = tu_path(dir, "file");
    FILE *f = fopen(file, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    char *sub = tu_path(file, "out");
    struct run_options o = {.out_dir = sub};
    struct run_result r;
    struct catena_error err;
    int rc = run_simulation(scen, &o, &r, &err);
    ck_assert_int_ne(rc, CATENA_OK);
    ck_assert_int_eq(err.code, rc);
    ck_assert_msg(strstr(err.msg, "file"), "message: %s", err.msg);
    free(sub);
    free(file);
}
END_TEST

/* metrics.csv: a header and one row per recorded frame (steps 0, 3, 6, 9), the last row the
 * final state that summary.json's "final" describes, the same numbers to the bit. */
START_TEST(test_metrics_file)
{
    tu_use(swinging_chain(9, 3, FORMAT_CSV));
    struct run_options o = {.out_dir = dir};
    struct run_result r;
    struct catena_error err;
    ck_assert_int_eq(run_simulation(scen, &o, &r, &err), CATENA_OK);
    char *p = tu_path(dir, "metrics.csv");
    char *text = tu_read_file(p, NULL);
    free(p);
    ck_assert_ptr_nonnull(text);
    const char *header =
        "step,time,error_sum,error_max,max_stretch,kinetic,potential,max_speed,live_links\n";
    ck_assert_msg(strncmp(text, header, strlen(header)) == 0, "header: %.80s", text);
    long rows = 0, step = -1;
    double cols[7];
    long live = 0;
    for (const char *line = strchr(text, '\n') + 1; *line; line = strchr(line, '\n') + 1) {
        rows++;
        ck_assert_int_eq(sscanf(line, "%ld,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%ld", &step, &cols[0],
                                &cols[1], &cols[2], &cols[3], &cols[4], &cols[5], &cols[6], &live),
                         9);
        ck_assert_int_eq(step, 3 * (rows - 1));
    }
    free(text);
    ck_assert_int_eq(rows, 4);
    ck_assert_int_eq(live, 4);
    ck_assert(cols[3] == r.max_stretch);
    cJSON *json = read_json(dir, "summary.json");
    const cJSON *final = cJSON_GetObjectItemCaseSensitive(json, "final");
    const char *keys[] = {"error_sum", "error_max", "max_stretch",
                          "kinetic",   "potential", "max_speed"};
    for (int k = 0; k < 6; k++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(final, keys[k]);
        ck_assert_msg(cJSON_IsNumber(v), "final.%s missing", keys[k]);
        ck_assert_msg(v->valuedouble == cols[k + 1], "final.%s", keys[k]);
    }
    cJSON_Delete(json);
    /* The chain swings: it has speed and has lost height. */
    ck_assert_double_gt(cols[6], 0.1);
    ck_assert_double_gt(cols[4], 0.0);
}
END_TEST

/* output.metrics false: no metrics.csv. */
START_TEST(test_metrics_off)
{
    tu_use(swinging_chain(3, 1, FORMAT_CSV));
    scen->output.metrics = 0;
    struct run_options o = {.out_dir = dir};
    struct run_result r;
    struct catena_error err;
    ck_assert_int_eq(run_simulation(scen, &o, &r, &err), CATENA_OK);
    ck_assert(exists(dir, "trajectory.csv"));
    ck_assert(!exists(dir, "metrics.csv"));
}
END_TEST

START_TEST(test_status_names)
{
    ck_assert_str_eq(run_status_name(RUN_OK), "ok");
    ck_assert_str_eq(run_status_name(RUN_DIVERGED), "diverged");
    ck_assert_str_eq(run_status_name(RUN_INTERRUPTED), "interrupted");
}
END_TEST

/* The warnings list keeps codes and formatted messages in order, grows past its first
 * room, and clears to empty. */
START_TEST(test_warnings_list)
{
    struct warnings w = {0};
    for (int i = 0; i < 9; i++)
        ck_assert_int_eq(warnings_add(&w, "max-stretch", "link %d stretched %.1f %%", i, 81.0), 0);
    ck_assert_uint_eq(w.n, 9);
    ck_assert_str_eq(w.list[0].code, "max-stretch");
    ck_assert_str_eq(w.list[8].message, "link 8 stretched 81.0 %");
    warnings_clear(&w);
    ck_assert_uint_eq(w.n, 0);
    ck_assert_ptr_null(w.list);
}
END_TEST

static Suite *run_suite(void)
{
    Suite *suite = suite_create("run");
    TCase *tc = tu_tcase(suite, "run", tu_files_setup, tu_files_teardown);
    tcase_add_test(tc, test_outputs_appear);
    tcase_add_test(tc, test_only_asked_formats);
    tcase_add_test(tc, test_missing_dirs_created);
    tcase_add_loop_test(tc, test_frames_counted, 0,
                        (int)(sizeof frame_cases / sizeof frame_cases[0]));
    tcase_add_test(tc, test_divergence_keeps_partial_output);
    tcase_add_test(tc, test_divergence_non_finite);
    tcase_add_test(tc, test_divergence_initial);
    tcase_add_test(tc, test_interrupt_commits_outputs);
    tcase_add_test(tc, test_write_error_leaves_no_file);
    tcase_add_test(tc, test_unwritable_dir);
    tcase_add_test(tc, test_metrics_file);
    tcase_add_test(tc, test_metrics_off);
    tcase_add_test(tc, test_status_names);
    tcase_add_test(tc, test_warnings_list);
    return suite;
}

int main(void)
{
    return tu_run(run_suite());
}
