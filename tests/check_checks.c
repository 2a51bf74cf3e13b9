/* run/checks: every type of check passes on a run that has the property and fails, naming
 * where, on one that does not, on real scenarios (a pendulum, a hanging chain, a weight on a
 * breakable link); checks a run cannot reach are undecided; summary.json lists them. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "run/run.h"
#include "scenario/scenario.h"
#include "testutil.h"
#include "testutil_check.h"

/* A 1 m pendulum released at 30 degrees, undamped: Verlet, one iteration, 5 ms steps. Its
 * period is 2 pi sqrt(L/g) (1 + th^2/16 + 11 th^4/3072) = 2.041 s for th = 30 degrees. */
#define PENDULUM                                                                                   \
    "{'catena': 1, 'dimensions': 2, 'time': {'dt': 0.005, 'steps': %d},"                           \
    " 'solver': {'method': 'verlet', 'iterations': 1, 'order': 'forward', 'damping': 1},"          \
    " 'world': {'gravity': [0, -9.81]},"                                                           \
    " 'points': [{'name': 'pivot', 'p': [0, 0], 'mass': 1},"                                       \
    "            {'name': 'bob', 'p': [0.5, -0.8660254037844386], 'mass': 1}],"                    \
    " 'links': [{'a': 'pivot', 'b': 'bob', 'rest': 'auto'}], 'pins': [{'point': 'pivot'}],"        \
    " 'output': {'trajectory': ['csv'], 'every': 20}, %s}"

/* A 5 m chain of 20 links between pins 4 m apart, damped 0.99 a step, 400 steps of 10 ms. */
#define CHAIN                                                                                      \
    "{'catena': 1, 'dimensions': 2, 'time': {'dt': 0.01, 'steps': 400 %s},"                        \
    " 'solver': {'method': 'verlet', 'iterations': %d, 'order': 'alternate', 'damping': 0.99},"    \
    " 'world': {'gravity': [0, -9.81]},"                                                           \
    " 'bodies': [{'type': 'rope', 'name': 'chain', 'from': [0, 0], 'to': [4, 0],"                  \
    "             'segments': 20, 'length': 5, 'mass': 1, 'pins': ['first', 'last']}],"            \
    " 'output': {'trajectory': ['csv'], 'every': 40}, %s}"

/* A 1 kg chain of 10 links pinned at one end, its free end tied to a weight of MASS kg by a
 * link that breaks beyond 1.05 times its rest length; Verlet with ITERATIONS. */
#define BREAKING                                                                                   \
    "{'catena': 1, 'dimensions': 2, 'time': {'dt': 0.01, 'steps': 300},"                           \
    " 'solver': {'method': 'verlet', 'iterations': %d, 'order': 'alternate', 'damping': 1},"       \
    " 'world': {'gravity': [0, -9.81]},"                                                           \
    " 'points': [{'name': 'weight', 'p': [2.2, 0], 'mass': %g}],"                                  \
    " 'bodies': [{'type': 'rope', 'name': 'chain', 'from': [0, 0], 'to': [2, 0],"                  \
    "             'segments': 10, 'mass': 1, 'pins': ['first']}],"                                 \
    " 'links': [{'a': 'chain.last', 'b': 'weight', 'rest': 'auto', 'break_stretch': 1.05}],"       \
    " 'output': {'trajectory': ['csv'], 'every': 10}, %s}"

static struct scenario *sc;
static struct run_result r;
static struct catena_error err;

static void teardown(void)
{
    run_result_free(&r);
    scenario_destroy(sc);
    sc = NULL;
    tu_dir_teardown();
}

/* Runs sc into dir; returns run_simulation's status. */
static int run(void)
{
    const struct run_options o = {.out_dir = dir};
    return run_simulation(sc, &o, &r, &err);
}

static const struct check_outcome *outcome(const char *name)
{
    for (size_t i = 0; i < r.nchecks; i++)
        if (strcmp(r.checks[i].check->name, name) == 0)
            return &r.checks[i];
    ck_abort_msg("no outcome for check %s", name);
    return NULL;
}

static void expect(const char *name, enum check_result want, const char *text)
{
    const struct check_outcome *o = outcome(name);
    ck_assert_msg(o->result == want, "%s: %s, expected %s (%s)", name,
                  checks_result_name(o->result), checks_result_name(want), o->message);
    ck_assert_msg(strstr(o->message, text), "%s: message \"%s\" lacks \"%s\"", name, o->message,
                  text);
}

/* Gauss-Seidel stiffness comes from iterations: with 20 the chain's links stay within 0.6 %
 * of their rest length while it falls into its curve (measured 1.0051 at step 7) and end
 * stretched by the 0.35 % that 20 iterations leave under gravity; with 2 they reach 6.7 %
 * (step 21) and end at 4.2 %. A limit of 1.01 lies between, and at the end 1.005 passes 20
 * iterations' 1.0035 while 1.001 does not. */
START_TEST(test_max_stretch)
{
    const char *checks =
        "'checks': [{'type': 'max_stretch', 'limit': 1.01},"
        " {'name': 'end', 'type': 'max_stretch', 'limit': 1.005, 'at': 'end'},"
        " {'name': 'end tight', 'type': 'max_stretch', 'limit': 1.001, 'at': 'end'}]";
    sc = tu_load_scenario(CHAIN, "", 20, checks);
    ck_assert_int_eq(run(), CATENA_EFAIL);
    ck_assert_int_eq(r.checks_failed, 1);
    expect("max_stretch", CHECK_PASSED, "largest stretch 1.005");
    ck_assert(outcome("max_stretch")->value > 1.0 && outcome("max_stretch")->value < 1.01);
    ck_assert_double_eq(outcome("max_stretch")->value, outcome("max_stretch")->largest);
    expect("end", CHECK_PASSED, "final stretch 1.003");
    ck_assert_int_eq(outcome("end")->step, 400);
    expect("end tight", CHECK_FAILED, "final stretch 1.003");
    ck_assert_str_eq(err.msg, "test.json: 1 of 3 checks failed: \"end tight\"");
    run_result_free(&r);
    scenario_destroy(sc);

    sc = tu_load_scenario(CHAIN, "", 2, checks);
    ck_assert_int_eq(run(), CATENA_EFAIL);
    expect("max_stretch", CHECK_FAILED, "stretch 1.011");
    ck_assert_int_eq(outcome("max_stretch")->step, 4);
    ck_assert_msg(strstr(outcome("max_stretch")->message, "; largest 1.067"), "%s",
                  outcome("max_stretch")->message);
    ck_assert_int_eq(outcome("max_stretch")->largest_step, 21);
    expect("end", CHECK_FAILED, "final stretch 1.04");
    ck_assert_int_eq(r.status, RUN_OK); /* the run itself went well */
}
END_TEST

/* The 50 kg weight swinging down on 4 iterations stretches its link past 1.05 at step 37
 * (catena-scenario(5) describes the scenario); a 1 kg weight on 20 iterations stretches no
 * link beyond 1.031, so nothing breaks. */
START_TEST(test_no_break)
{
    const char *checks = "'checks': [{'type': 'no_break'}]";
    sc = tu_load_scenario(BREAKING, 4, 50.0, checks);
    ck_assert_int_eq(run(), CATENA_EFAIL);
    expect("no_break", CHECK_FAILED, "link 10 broke at step 37 (t = 0.37 s), stretched 1.05");
    ck_assert(outcome("no_break")->value > 1.05);
    ck_assert_str_eq(err.msg, "test.json: 1 of 1 check failed: \"no_break\"");
    run_result_free(&r);
    scenario_destroy(sc);

    sc = tu_load_scenario(BREAKING, 20, 1.0, checks);
    ck_assert_int_eq(run(), CATENA_OK);
    expect("no_break", CHECK_PASSED, "no link broke");
    ck_assert_int_eq(r.events[LOG_BREAK], 0);
}
END_TEST

/* Damped by 1 % a step, the chain comes to rest: from 1 s on no point is faster than
 * 0.006 m/s. The undamped pendulum never rests: at 2 s (near the turning point of its second
 * swing, T = 2.04 s) it is already above 0.1 m/s, and it passes the bottom at up to
 * sqrt(2 g L (1 - cos 30 deg)) = 1.62 m/s, less what the projection takes. */
START_TEST(test_settled)
{
    sc = tu_load_scenario(CHAIN, "", 20, "'checks': [{'type': 'settled', 'by': 1, 'speed': 0.05}]");
    ck_assert_int_eq(run(), CATENA_OK);
    expect("settled", CHECK_PASSED, "within 0.05 m/s from 1 s on");
    ck_assert(outcome("settled")->value < 0.01);
    run_result_free(&r);
    scenario_destroy(sc);

    sc = tu_load_scenario(PENDULUM, 800, "'checks': [{'type': 'settled', 'by': 2, 'speed': 0.1}]");
    ck_assert_int_eq(run(), CATENA_EFAIL);
    expect("settled", CHECK_FAILED, "at step 400 (t = 2 s), above 0.1 m/s from 2 s on; largest ");
    ck_assert(outcome("settled")->value > 0.1);
    const double vmax = sqrt(2 * 9.81 * (1 - cos(30 * acos(-1) / 180)));
    ck_assert_msg(outcome("settled")->largest > 0.9 * vmax && outcome("settled")->largest <= vmax,
                  "largest speed %g m/s, expected at most %g", outcome("settled")->largest, vmax);
}
END_TEST

/* A velocity event sets the bob moving at 3 m/s at 1 s: the energy jumps by 4.5 J less the
 * kinetic energy the bob had there (near its turning point, T/2 = 1.02 s: under 0.2 J).
 * Counted from 1 s on, after the kick, energy never grows: Verlet's projection of the rod
 * only ever takes energy away (the measured gain is 0). */
START_TEST(test_energy)
{
    sc = tu_load_scenario(PENDULUM, 800,
                          "'events': [{'time': 1, 'velocity': {'point': 'bob', 'v': [-3, 0]}}],"
                          " 'checks': [{'type': 'energy', 'max_gain': 0.01},"
                          " {'name': 'after', 'type': 'energy', 'max_gain': 1e-9, 'from': 1}]");
    ck_assert_int_eq(run(), CATENA_EFAIL);
    expect("energy", CHECK_FAILED, "energy gain 4.4");
    ck_assert_int_eq(outcome("energy")->step, 200);
    ck_assert(outcome("energy")->value > 4.3 && outcome("energy")->value <= 4.5);
    expect("after", CHECK_PASSED, "largest energy gain 0 J");
    ck_assert_double_eq(outcome("after")->value, 0.0);
}
END_TEST

/* At half its period (T/2 = 1.0205 s, step 204) the pendulum is at the other end of its
 * swing, x = -sin 30 deg = -0.5 m, y = -0.866 m (measured (-0.487, -0.874): one iteration
 * lets the rod stretch a little); a box 5 cm around that holds it, its mirror image does not. */
START_TEST(test_inside)
{
    sc = tu_load_scenario(PENDULUM, 800,
                          "'checks': [{'name': 'left', 'type': 'inside', 'point': 'bob',"
                          " 'min': [-0.55, -0.92], 'max': [-0.45, -0.82], 'time': 1.0205},"
                          " {'name': 'right', 'type': 'inside', 'point': 'bob',"
                          " 'min': [0.45, -0.92], 'max': [0.55, -0.82], 'step': 204}]");
    ck_assert_int_eq(run(), CATENA_EFAIL);
    expect("left", CHECK_PASSED, "point \"bob\" at (-0.48");
    ck_assert_int_eq(outcome("left")->step, 205); /* the first step at or after 1.0205 s */
    expect("right", CHECK_FAILED, "at step 204 (t = 1.02 s), outside the box (0.45, -0.92)");
    /* the distance to the box: from x = -0.487 to 0.45 */
    ck_assert(outcome("right")->value > 0.9 && outcome("right")->value < 1.0);
}
END_TEST

/* A run that diverges (a free rod under 1e14 m/s^2 in 1 s steps is 1e14 m away after one,
 * beyond the 1e12 m a run accepts) cannot say whether a check of later steps or of the end
 * holds: undecided, and the divergence is the error. */
START_TEST(test_undecided)
{
    sc = tu_load_scenario(
        "{'catena': 1, 'time': {'dt': 1, 'steps': 10}, 'world': {'gravity': [0, -1e14]},"
        " 'points': [{'name': 'a', 'p': [0, 0], 'mass': 1}, {'name': 'b', 'p': [1, 0], 'mass': 1}],"
        " 'links': [{'a': 'a', 'b': 'b'}],"
        " 'checks': [{'type': 'no_break'}, {'type': 'max_stretch', 'limit': 2, 'at': 'end'},"
        " {'type': 'inside', 'point': 'b', 'min': [-1, -1], 'max': [1, 1], 'step': 5}]}");
    ck_assert_int_eq(run(), CATENA_EFAIL);
    ck_assert_int_eq(r.status, RUN_DIVERGED);
    ck_assert_msg(strstr(err.msg, "diverged at step 1"), "%s", err.msg);
    ck_assert_int_eq(r.checks_failed, 0);
    ck_assert_int_eq(r.nchecks, 3);
    for (size_t i = 0; i < r.nchecks; i++) {
        ck_assert_int_eq(r.checks[i].result, CHECK_UNDECIDED);
        ck_assert_int_eq(r.checks[i].step, -1);
    }
}
END_TEST

/* A run shorter than a check assumes (--steps, a sweep) leaves it undecided, saying why, and
 * does not fail for it. */
START_TEST(test_after_the_end)
{
    sc = tu_load_scenario(PENDULUM, 100,
                          "'checks': [{'type': 'settled', 'by': 2, 'speed': 0.1},"
                          " {'type': 'inside', 'point': 'bob', 'min': [-1, -1], 'max': [1, 1],"
                          " 'step': 300}]");
    ck_assert_int_eq(run(), CATENA_OK);
    expect("settled", CHECK_UNDECIDED,
           "not judged: the run ended at step 100 (t = 0.5 s), before the check's step 400 (t = "
           "2 s)");
    expect("inside", CHECK_UNDECIDED, "before the check's step 300");
    ck_assert_int_eq(r.checks_failed, 0);
}
END_TEST

/* A run that stops early because it settled is judged on its final state for checks due
 * after it: the chain rests from step 67 and stops at step 167, long before 3.9 s, with its
 * middle point at (2.000, -1.335). */
START_TEST(test_settled_early)
{
    sc = tu_load_scenario(CHAIN, ", 'until_settled': {'speed': 0.01}", 20,
                          "'checks': [{'type': 'settled', 'by': 3.9, 'speed': 0.01},"
                          " {'type': 'inside', 'point': 'chain.10', 'min': [1.95, -1.4],"
                          " 'max': [2.05, -1.3], 'time': 3.9}]");
    ck_assert_int_eq(run(), CATENA_OK);
    ck_assert_int_eq(r.steps_done, 167);
    expect("settled", CHECK_PASSED, "at step 167");
    expect("inside", CHECK_PASSED, "at step 167 (t = 1.67 s), inside");
}
END_TEST

/* summary.json: the counts and each check's outcome. */
START_TEST(test_summary)
{
    sc = tu_load_scenario(BREAKING, 4, 50.0,
                          "'checks': [{'name': 'holds', 'type': 'no_break'},"
                          " {'type': 'max_stretch', 'limit': 2}]");
    ck_assert_int_eq(run(), CATENA_EFAIL);
    char *path = tu_path(dir, "summary.json");
    char *text = tu_read_file(path, NULL);
    cJSON *json = cJSON_Parse(text);
    const cJSON *checks = cJSON_GetObjectItemCaseSensitive(json, "checks");
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(checks, "passed")->valueint, 1);
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(checks, "failed")->valueint, 1);
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(checks, "undecided")->valueint, 0);
    const cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(checks, "results"), 0);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(first, "name")->valuestring, "holds");
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(first, "type")->valuestring, "no_break");
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(first, "result")->valuestring, "failed");
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(first, "step")->valueint, 37);
    ck_assert_double_eq_tol(cJSON_GetObjectItemCaseSensitive(first, "time")->valuedouble, 0.37,
                            1e-12);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(first, "message")->valuestring,
                     outcome("holds")->message);
    /* the run still ended well: only the checks failed */
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(json, "status")->valuestring, "ok");
    cJSON_Delete(json);
    free(text);
    free(path);
}
END_TEST

/* Without checks a summary has no "checks" and a run no outcomes. */
START_TEST(test_none)
{
    sc = tu_load_scenario(PENDULUM, 10, "'name': 'plain'");
    ck_assert_int_eq(run(), CATENA_OK);
    ck_assert_int_eq(r.nchecks, 0);
    char *path = tu_path(dir, "summary.json");
    char *text = tu_read_file(path, NULL);
    ck_assert_ptr_null(strstr(text, "\"checks\""));
    free(text);
    free(path);
}
END_TEST

static Suite *checks_suite(void)
{
    Suite *s = suite_create("checks");
    TCase *tc = tu_tcase(s, "types", tu_dir_setup, teardown);
    tcase_add_test(tc, test_max_stretch);
    tcase_add_test(tc, test_no_break);
    tcase_add_test(tc, test_settled);
    tcase_add_test(tc, test_energy);
    tcase_add_test(tc, test_inside);
    tc = tu_tcase(s, "ends", tu_dir_setup, teardown);
    tcase_add_test(tc, test_undecided);
    tcase_add_test(tc, test_after_the_end);
    tcase_add_test(tc, test_settled_early);
    tcase_add_test(tc, test_summary);
    tcase_add_test(tc, test_none);
    return s;
}

int main(void)
{
    return tu_run(checks_suite());
}
