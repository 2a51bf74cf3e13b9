/* One meaning of damping and the plausibility warnings. solver.damping_rate makes a free
 * point's speed decay as exp(-rate t) under verlet, pbd and xpbd alike (while solver.damping
 * means a factor per substep under verlet and a fraction per second under the others); a
 * damping written for verlet and switched to pbd by an override is warned about, and not
 * when the override gives its own; the plausibility checks warn about a rigid link ending
 * stretched beyond 25 % and about energy that grew in a run where nothing adds any, and stay
 * silent for compliant or soft links, for energy lost, and where something adds energy. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "run/plausible.h"
#include "scenario/scenario.h"
#include "solver/solver.h"
#include "solver/state.h"
#include "solver/velocity.h"
#include "testutil.h"
#include "testutil_check.h"

/* The speed of a lone free point, launched at 2 m/s without gravity, after 1 s (120 steps of
 * 1/120 s in substeps substeps) under method with the given solver keys. */
static double speed_after_1s(const char *method, int substeps, const char *damping)
{
    struct model *m = tu_load("{'catena': 1, 'name': 'coast',"
                              " 'time': {'dt': 0.008333333333333333, 'steps': 120,"
                              " 'substeps': %d},"
                              " 'solver': {'method': '%s', %s},"
                              " 'world': {'gravity': [0, 0]},"
                              " 'points': [{'p': [0, 0], 'v': [2, 0], 'mass': 1}]}",
                              substeps, method, damping);
    struct state *s = state_create(m);
    ck_assert_ptr_nonnull(s);
    const double x0 = s->x[0].x;
    for (long k = 0; k < m->steps; k++)
        solver_step(m, s);
    const double v = velocity_get(m, s, 0).x; /* each method's own velocity */
    ck_assert_double_gt(s->x[0].x, x0);
    state_destroy(s);
    model_destroy(m);
    return v;
}

/* damping_rate 0.7 /s: 2 e^-0.7 m/s after 1 s under every method and substep count, to the
 * rounding of 120 to 480 products (1e-12 relative); solver.damping 0.99 gives speeds that
 * differ by orders of magnitude across methods. */
START_TEST(test_rate_same_under_every_method)
{
    const double want = 2 * exp(-0.7);
    static const char *const methods[] = {"verlet", "pbd", "xpbd"};
    for (int k = 0; k < 3; k++)
        for (int sub = 1; sub <= 4; sub *= 4) {
            const double v = speed_after_1s(methods[k], sub, "'damping_rate': 0.7");
            ck_assert_msg(fabs(v - want) < 1e-12 * want, "%s, %d substeps: %.17g, want %.17g",
                          methods[k], sub, v, want);
        }
    const double verlet = speed_after_1s("verlet", 1, "'damping': 0.99");
    const double pbd = speed_after_1s("pbd", 1, "'damping': 0.99");
    ck_assert_double_lt(verlet, 0.5 * 2); /* 0.99^120: 30 % kept */
    ck_assert_double_gt(pbd, 0.98 * 2);   /* 0.99 per second: 99 % kept */
}
END_TEST

/* The conversion both ways, and damping_rate 0 is no damping at all (damping 1 exactly). */
START_TEST(test_conversion)
{
    struct model *m = model_create();
    m->dt = 0.01;
    m->substeps = 4;
    m->method = METHOD_VERLET;
    ck_assert_double_eq(model_damping_of_rate(m, 0), 1.0);
    ck_assert_double_eq_tol(model_damping_of_rate(m, 2), exp(-2 * 0.0025), 1e-16);
    ck_assert_double_eq_tol(model_damping_rate(m, model_damping_of_rate(m, 2)), 2, 1e-12);
    m->method = METHOD_PBD;
    ck_assert_double_eq_tol(model_damping_of_rate(m, 2), exp(-2), 1e-16);
    ck_assert_double_eq_tol(model_damping_rate(m, 0.5), log(2), 1e-15);
    ck_assert_double_eq(model_damping_rate(m, 1), 0);
    model_destroy(m);
}
END_TEST

static const char chain[] =
    "{'catena': 1, 'name': 'chain', 'time': {'dt': 0.01, 'steps': 10},"
    " 'solver': {'method': 'verlet', 'damping': 0.99},"
    " 'bodies': [{'type': 'rope', 'name': 'r', 'from': [0, 0], 'to': [1, 0], 'segments': 4,"
    " 'mass': 1, 'pins': ['first']}]}";

static struct scenario *load_with(const char *path, const char *value, const char *path2,
                                  const char *value2, struct catena_error *err)
{
    char text[sizeof chain];
    for (size_t i = 0; i < sizeof chain; i++)
        text[i] = chain[i] == '\'' ? '"' : chain[i];
    const struct scenario_override ov[2] = {{path, value}, {path2, value2}};
    return scenario_parse("chain.json", text, strlen(text), ov, path2 ? 2 : path ? 1 : 0, err);
}

/* A verlet damping run under pbd by an override: warned, with the rate that keeps it; not
 * when the override gives a damping, nor for pbd to xpbd (same meaning), nor unchanged. */
START_TEST(test_damping_method_warning)
{
    struct catena_error err;
    struct scenario *sc = load_with("solver.method", "pbd", NULL, NULL, &err);
    ck_assert_msg(sc != NULL, "%s", err.msg);
    ck_assert_uint_eq(sc->warnings.n, 1);
    ck_assert_str_eq(sc->warnings.list[0].code, "damping-method");
    /* 0.99 per substep of 0.01 s: -ln(0.99)/0.01 = 1.00503 /s */
    ck_assert_ptr_nonnull(strstr(sc->warnings.list[0].message, "solver.damping_rate 1.00503"));
    scenario_destroy(sc);

    sc = load_with("solver.method", "pbd", "solver.damping", "0.5", &err);
    ck_assert_uint_eq(sc->warnings.n, 0);
    scenario_destroy(sc);
    sc = load_with("solver.method", "pbd", "solver.damping", "null", &err);
    ck_assert_uint_eq(sc->warnings.n, 0); /* no damping at all now */
    ck_assert_double_eq(sc->model->damping, 1);
    scenario_destroy(sc);
    sc = load_with(NULL, NULL, NULL, NULL, &err);
    ck_assert_uint_eq(sc->warnings.n, 0);
    scenario_destroy(sc);

    /* moved onto the rate: the same physics under pbd, no warning */
    sc = load_with("solver.damping", "null", "solver.damping_rate", "1.0050335853501", &err);
    ck_assert_msg(sc != NULL, "%s", err.msg);
    ck_assert_double_eq_tol(sc->model->damping, 0.99, 1e-14);
    scenario_destroy(sc);
    ck_assert_ptr_null(load_with("solver.damping_rate", "1", NULL, NULL, &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "solver.damping_rate: give either \"damping\" or "
                                          "\"damping_rate\", not both"));
    ck_assert_ptr_null(load_with("solver.damping", "null", "solver.damping_rate", "-1", &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "solver.damping_rate"));
}
END_TEST

/* A set event with damping_rate converts under the run's method and substep. */
START_TEST(test_set_event_rate)
{
    struct model *m = tu_load("{'catena': 1, 'name': 's', 'time': {'dt': 0.01, 'steps': 10},"
                              " 'points': [{'p': [0, 0], 'mass': 1}],"
                              " 'events': [{'time': 0.05, 'set': {'damping_rate': 3}}]}");
    ck_assert_uint_eq(m->nevents, 1);
    ck_assert_double_eq_tol(m->events[0].damping, exp(-0.03), 1e-16);
    model_destroy(m);
}
END_TEST

/* ---- plausibility ---- */

/* Two points 1 m apart, one rigid link, the second free; positions set by hand. */
static struct model *pair(enum solver_method method, double stiffness, double compliance)
{
    struct model *m = tu_chain(2, v3(0, 0, 0), v3(1, 0, 0), 2, 1, 0, 0.01, 10);
    m->method = method;
    m->links[0].stiffness = stiffness;
    m->links[0].compliance = compliance;
    return m;
}

static size_t warnings_after(const struct model *m, double end_x, const char *code)
{
    struct state *s = state_create(m);
    struct plausible p;
    struct warnings w = {0};
    plausible_begin(&p, m, s);
    s->x[1] = s->xprev[1] = v3(end_x, 0, 0);
    ck_assert_int_eq(plausible_end(&p, m, s, &w), 0);
    size_t n = 0;
    for (size_t i = 0; i < w.n; i++)
        n += strcmp(w.list[i].code, code) == 0;
    warnings_clear(&w);
    state_destroy(s);
    return n;
}

START_TEST(test_stretch)
{
    struct model *m = pair(METHOD_VERLET, 1, 0);
    ck_assert_uint_eq(warnings_after(m, 1.3, "max-stretch"), 1);
    ck_assert_uint_eq(warnings_after(m, 1.2, "max-stretch"), 0);
    m->links[0].stiffness = 0.5; /* soft: meant to stretch */
    ck_assert_uint_eq(warnings_after(m, 1.3, "max-stretch"), 0);
    m->method = METHOD_XPBD;
    m->links[0].compliance = 1e-3;
    ck_assert_uint_eq(warnings_after(m, 1.3, "max-stretch"), 0);
    m->links[0].compliance = 0;
    ck_assert_uint_eq(warnings_after(m, 1.3, "max-stretch"), 1);
    model_destroy(m);
}
END_TEST

/* A pendulum of 1 kg on a 1 m link, starting level with its pin and ending at rest 0.6 m
 * above it: energy grew by m g 0.6 m, all of the stake (m g times the height spanned). Warned;
 * not when it ends below, nor with wind blowing, nor when its link started stretched. */
START_TEST(test_energy)
{
    struct model *m = tu_chain(2, v3(0, 0, 0), v3(1, 0, 0), 2, 1, 0, 0.01, 10);
    struct state *s = state_create(m);
    struct plausible p;
    struct warnings w = {0};
    plausible_begin(&p, m, s);
    ck_assert_int_eq(p.closed, 1);
    s->x[1] = s->xprev[1] = v3(0.8, 0.6, 0); /* started with Verlet's -g h/2: 1.2 mJ */
    ck_assert_int_eq(plausible_end(&p, m, s, &w), 0);
    ck_assert_uint_eq(w.n, 1);
    ck_assert_str_eq(w.list[0].code, "energy-grew");
    ck_assert_msg(strstr(w.list[0].message, "grew from 0.00120295 J to 5.886 J"), "%s",
                  w.list[0].message);
    warnings_clear(&w);
    s->x[1] = s->xprev[1] = v3(0.6, -0.8, 0); /* swung down: energy lost, no warning */
    ck_assert_int_eq(plausible_end(&p, m, s, &w), 0);
    ck_assert_uint_eq(w.n, 0);
    m->wind = v3(1, 0, 0);
    plausible_begin(&p, m, s);
    ck_assert_int_eq(p.closed, 0);
    m->wind = v3(0, 0, 0);
    s->x[1] = s->xprev[1] = v3(1.05, 0, 0);
    plausible_begin(&p, m, s);
    ck_assert_int_eq(p.closed, 0); /* the link starts 5 % long */
    state_destroy(s);
    model_destroy(m);
}
END_TEST

static Suite *plausible_suite(void)
{
    Suite *s = suite_create("plausible");
    TCase *d = tcase_create("damping");
    tcase_add_test(d, test_rate_same_under_every_method);
    tcase_add_test(d, test_conversion);
    tcase_add_test(d, test_damping_method_warning);
    tcase_add_test(d, test_set_event_rate);
    suite_add_tcase(s, d);
    TCase *p = tcase_create("plausible");
    tcase_add_test(p, test_stretch);
    tcase_add_test(p, test_energy);
    suite_add_tcase(s, p);
    return s;
}

int main(void)
{
    return tu_run(plausible_suite());
}
