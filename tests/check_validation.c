/* The validation suite: each scenario of scenarios/validation/ run in process and held to its
 * analytic answer. Hanging chains settle onto the exact discrete equilibrium (through the
 * catenary report), the discretisation error falls as 1/N^2, free fall and a projectile are
 * exact, a pendulum keeps its period, and its energy only drains, at a rate first order in dt.
 * The measured values are printed into the test log (tests/check_validation.log). */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report_catenary.h"
#include "scenario/scenario.h"
#include "solver/solver.h"
#include "solver/state.h"
#include "testutil_check.h"

#define VALIDATION(name) TOP_SRCDIR "/scenarios/validation/" name ".json"

static const double PI = 3.14159265358979323846;

static struct scenario *load(const char *path, const struct scenario_override *ov, size_t nov)
{
    struct catena_error err;
    struct scenario *sc = scenario_load(path, ov, nov, &err);
    ck_assert_msg(sc != NULL, "%s", err.msg);
    return sc;
}

/* Runs every step of the scenario. */
static struct state *simulate(const struct model *m)
{
    struct state *s = state_create(m);
    ck_assert_ptr_nonnull(s);
    while (s->step < m->steps)
        solver_step(m, s);
    ck_assert_int_lt(solver_find_diverged(s), 0);
    return s;
}

/* The catenary report of the state's positions; the scenario has one chain. */
static struct report_catenary *report(const struct scenario *sc, const vec3 *x, long step)
{
    const struct model *m = sc->model;
    const struct report_catenary_options o = {
        .label = sc->provenance.source, .scenario = sc->provenance.name, .first = -1, .last = -1};
    struct report_catenary *r;
    struct catena_error err;
    ck_assert_msg(report_catenary_build(m, x, step, (double)step * m->dt, &o, &r, &err) == 0, "%s",
                  err.msg);
    ck_assert_uint_eq(r->nchains, 1);
    return r;
}

/* ---- hanging chains ---- */

static const char *const chains[] = {
    VALIDATION("catenary-1.01"),
    VALIDATION("catenary-1.2"),
    VALIDATION("catenary-2.0"),
    VALIDATION("catenary-unequal"),
};

#define NCHAINS (sizeof chains / sizeof chains[0])

static const char *const methods[] = {"verlet", "pbd", "xpbd"};
#define NMETHODS (sizeof methods / sizeof methods[0])

/* The scenario under a method: verlet reads damping as the velocity kept per substep, pbd and
 * xpbd as the fraction kept per second, so the same decay rate is damping^(1/h) for them. */
static struct scenario *load_method(const char *path, const char *method)
{
    struct scenario *sc = load(path, NULL, 0);
    const struct model *m = sc->model;
    char damping[64];
    snprintf(damping, sizeof damping, "%.17g",
             strcmp(method, "verlet") == 0 ? m->damping : pow(m->damping, m->substeps / m->dt));
    scenario_destroy(sc);
    const struct scenario_override ov[] = {{"solver.method", method}, {"solver.damping", damping}};
    return load(path, ov, 2);
}

/* Each chain starts off its equilibrium (its last pin holds the end away from where the rope
 * was built) and settles; the solver's own error (simulated vs the exact discrete chain) must
 * then be below 1e-6 of the span, under every method (xpbd with rigid links). The scenarios
 * choose h = dt/substeps small enough for the settled Gauss-Seidel bias, which grows as h^2
 * (test_bias_h2), to stay below that. */
START_TEST(test_chain_settles_on_discrete_equilibrium)
{
    struct scenario *sc = load_method(chains[_i % NCHAINS], methods[_i / NCHAINS]);
    struct model *m = sc->model;
    struct state *s = simulate(m);
    struct report_catenary *r = report(sc, s->x, s->step);
    const struct report_chain *c = &r->chains[0];
    printf("%s: %s, h = dt/%d, %d iterations: solver error max %.3g, rms %.3g of the span; "
           "discretisation max %.3g; stretch %.9f\n",
           sc->provenance.name, model_method_name(m->method), m->substeps, m->iterations,
           c->solver.max_rel, c->solver.rms_rel, c->discretisation.max_rel, c->stretch.max);
    ck_assert(!c->extensible);
    ck_assert_double_lt(c->solver.max_rel, 1e-6);
    report_catenary_destroy(r);
    state_destroy(s);
    scenario_destroy(sc);
}
END_TEST

/* What is left once a chain has settled is a bias of the fixed point of Verlet plus
 * Gauss-Seidel: each substep pulls every point down by g h^2 and the sweeps take it back
 * along the constraints, which is not the equilibrium's direction to O(g h^2). Halving h
 * must divide the settled error by about 4 (3 to 5 allows for the part the iteration
 * count leaves). The damping per substep keeps its rate per second. */
START_TEST(test_bias_h2)
{
    double err[2];
    const char *sub[2] = {"8", "16"}, *damp[2] = {"0.995", "0.9975"};
    for (int i = 0; i < 2; i++) {
        const struct scenario_override ov[] = {{"time.substeps", sub[i]},
                                               {"solver.damping", damp[i]}};
        struct scenario *sc = load(VALIDATION("catenary-1.2"), ov, 2);
        struct model *m = sc->model;
        struct state *s = simulate(m);
        struct report_catenary *r = report(sc, s->x, s->step);
        err[i] = r->chains[0].solver.max_rel;
        printf("catenary-1.2: h = dt/%s: settled solver error %.3g of the span\n", sub[i], err[i]);
        report_catenary_destroy(r);
        state_destroy(s);
        scenario_destroy(sc);
    }
    printf("catenary-1.2: halving h divides it by %.3f\n", err[0] / err[1]);
    ck_assert_double_ge(err[0] / err[1], 3.0);
    ck_assert_double_le(err[0] / err[1], 5.0);
}
END_TEST

/* The discrete chain's joints sit off the continuous catenary by O(1/N^2): each link is a
 * chord of an arc whose curvature does not change with N. Doubling N must divide the
 * largest distance by 3.5 to 4.5. Only the model is needed: the report at step 0. */
START_TEST(test_discretisation_order)
{
    static const char *const segments[] = {"10", "20", "40", "80"};
    double prev = 0;
    for (size_t i = 0; i < 4; i++) {
        const struct scenario_override ov = {"bodies.0.segments", segments[i]};
        struct scenario *sc = load(VALIDATION("discretisation"), &ov, 1);
        struct model *m = sc->model;
        struct report_catenary *r = report(sc, m->x0, 0);
        const double e = r->chains[0].discretisation.max_rel;
        if (i == 0) {
            printf("discretisation: N = %s: max %.4g of the span\n", segments[i], e);
        } else {
            printf("discretisation: N = %s: max %.4g of the span, ratio %.4f\n", segments[i], e,
                   prev / e);
            ck_assert_double_ge(prev / e, 3.5);
            ck_assert_double_le(prev / e, 4.5);
        }
        prev = e;
        report_catenary_destroy(r);
        scenario_destroy(sc);
    }
}
END_TEST

/* ---- ballistics ---- */

/* Verlet integrates constant acceleration exactly (its error term is the third derivative),
 * so every step must match x0 + v0 t + g t^2/2 to round-off. Round-off in
 * x' = 2x - xprev + g h^2 accumulates at most like eps |x| per step along the n steps, so
 * 1e-13 of the largest coordinate per step bounds it with a wide margin; a method with an
 * O(h) error would miss by g h t / 2, about 0.1 m here. */
static void check_ballistic(const char *path)
{
    struct scenario *sc = load(path, NULL, 0);
    struct model *m = sc->model;
    struct state *s = state_create(m);
    ck_assert_ptr_nonnull(s);
    double worst = 0;
    while (s->step < m->steps) {
        solver_step(m, s);
        const double t = s->t;
        const vec3 want =
            v3_add(v3_add(m->x0[0], v3_scale(m->v0[0], t)), v3_scale(m->gravity, 0.5 * t * t));
        const double scale = fmax(fmax(fabs(want.x), fabs(want.y)), fmax(fabs(want.z), 1.0));
        const double e = v3_dist(s->x[0], want);
        worst = fmax(worst, e / scale);
        ck_assert_msg(e <= 1e-13 * (double)s->step * scale, "step %ld: off by %g m", s->step, e);
    }
    printf("%s: %ld steps, largest error %.3g of the coordinate\n", sc->provenance.name, m->steps,
           worst);
    state_destroy(s);
    scenario_destroy(sc);
}

START_TEST(test_free_fall_exact)
{
    check_ballistic(VALIDATION("freefall"));
}
END_TEST

START_TEST(test_projectile_exact)
{
    check_ballistic(VALIDATION("projectile"));
}
END_TEST

/* ---- pendulum ---- */

/* The bob's swing, sampled every step: zero crossings of x (relative to the pivot) and the
 * energy per unit mass at each half step, with the velocity (x - xprev)/h and the height
 * halfway between the two positions, the pairing in which Verlet conserves free-fall energy
 * exactly. Potential energy is measured from the lowest point. */
struct swing {
    double first, last; /* times of the first and last zero crossing, s */
    int crossings;
    double e0;         /* energy after the first step, J/kg */
    double grew;       /* largest rise from one step to the next, relative to e0 */
    double at_periods; /* energy at 10 small-amplitude periods, J/kg */
};

static struct swing swing(const struct model *m)
{
    const double len = m->links[0].rest, g = -m->gravity.y, h = m->dt / m->substeps;
    const double t10 = 10 * 2 * PI * sqrt(len / g);
    struct state *s = state_create(m);
    ck_assert_ptr_nonnull(s);
    struct swing w = {0};
    double xprev = s->x[1].x, eprev = 0;
    while (s->step < m->steps) {
        solver_step(m, s);
        const vec3 p = s->x[1], q = s->xprev[1];
        const vec3 v = v3_scale(v3_sub(p, q), 1 / h);
        const double e = 0.5 * v3_dot(v, v) + g * (0.5 * (p.y + q.y) + len);
        if (s->step == 1)
            w.e0 = e;
        else
            w.grew = fmax(w.grew, (e - eprev) / w.e0);
        if (s->t - m->dt < t10 && s->t >= t10)
            w.at_periods = e;
        if ((xprev < 0) != (p.x < 0)) {
            const double t = s->t - m->dt * p.x / (p.x - xprev); /* linear between steps */
            if (w.crossings++ == 0)
                w.first = t;
            w.last = t;
        }
        xprev = p.x;
        eprev = e;
    }
    state_destroy(s);
    return w;
}

/* Period from the zero crossings over at least 10 periods, against 2 pi sqrt(l/g) with the
 * first finite-amplitude term, (1 + theta0^2/16); the scenario's theta0 is 0.1 rad. Verlet's
 * own period error is (omega h)^2/24, 2e-6 at h = 1/2000 s, and the amplitude that numerical
 * damping takes away over the run changes theta0^2/16 by under 1e-4: 0.1 % holds with room. */
START_TEST(test_pendulum_period)
{
    struct scenario *sc = load(VALIDATION("pendulum"), NULL, 0);
    struct model *m = sc->model;
    const double len = m->links[0].rest, g = -m->gravity.y, theta0 = 0.1;
    const double expected = 2 * PI * sqrt(len / g) * (1 + theta0 * theta0 / 16);
    const struct swing w = swing(m);
    ck_assert_int_ge(w.crossings, 21); /* 10 periods */
    const double period = 2 * (w.last - w.first) / (w.crossings - 1);
    printf("pendulum: period %.6f s over %d half periods, expected %.6f s: off by %.2g\n", period,
           w.crossings - 1, expected, period / expected - 1);
    ck_assert_double_lt(fabs(period / expected - 1), 1e-3);
    scenario_destroy(sc);
}
END_TEST

/* Position projection drains energy: the prediction leaves the circle by about v^2 h^2/(2l)
 * and the projection removes the radial velocity it implies, a loss per step O(h^2), per
 * period O(h). So the energy must never rise (beyond round-off: 1e-12 of the energy per step)
 * and halving dt must halve the loss over 10 periods (1.8 to 2.2). */
START_TEST(test_pendulum_energy)
{
    static const char *const dts[] = {"0.001", "0.0005", "0.00025"};
    double loss[3];
    for (int i = 0; i < 3; i++) {
        const struct scenario_override ov[] = {{"time.dt", dts[i]},
                                               {"time.steps", i == 0   ? "21000"
                                                              : i == 1 ? "42000"
                                                                       : "84000"}};
        struct scenario *sc = load(VALIDATION("pendulum"), ov, 2);
        struct model *m = sc->model;
        const struct swing w = swing(m);
        loss[i] = 1 - w.at_periods / w.e0;
        printf("pendulum: dt = %s s: energy lost over 10 periods %.2f %%, largest rise per "
               "step %.2g of the energy\n",
               dts[i], 100 * loss[i], w.grew);
        ck_assert_double_le(w.grew, 1e-12);
        if (i > 0) {
            printf("pendulum: halving dt divides the loss by %.3f\n", loss[i - 1] / loss[i]);
            ck_assert_double_ge(loss[i - 1] / loss[i], 1.8);
            ck_assert_double_le(loss[i - 1] / loss[i], 2.2);
        }
        scenario_destroy(sc);
    }
}
END_TEST

/* ---- XPBD: compliance is a material property ---- */

/* A taut string of N links pinned at both ends, pre-stretched (rest lengths shorter than the
 * pins' spacing / N) and plucked into a triangle: its tension is T = stretch / compliance per
 * link, and its fundamental f = sqrt(T/mu) / (2L). Measured from the mid-point's zero
 * crossings; within 1 %: the discrete string's own fundamental is lower by
 * 1 - (2N/pi) sin(pi/2N) = 0.03 % for N = 40, and the pluck's 0.1 % of L changes the tension
 * by under 0.1 %. Needs XPBD: rigid links have no tension to speak of, and a pre-stretch under
 * verlet or pbd sets a tension that depends on the iteration count, not on the material. */
START_TEST(test_string_fundamental)
{
    struct scenario *sc = load(VALIDATION("string"), NULL, 0);
    struct model *m = sc->model;
    const size_t n = m->nlinks, mid = n / 2;
    const double len = v3_dist(m->pins[0].at, m->pins[1].at), a = len / (double)n;
    const double tension = (a - m->links[0].rest) / m->links[0].compliance;
    const double mu = m->mass[mid] / a;
    const double expected = sqrt(tension / mu) / (2 * len);
    struct state *s = state_create(m);
    ck_assert_ptr_nonnull(s);
    double prev = s->x[mid].y, first = 0, last = 0;
    int crossings = 0;
    while (s->step < m->steps) {
        solver_step(m, s);
        const double y = s->x[mid].y;
        if ((prev < 0) != (y < 0)) {
            const double t = s->t - m->dt * y / (y - prev);
            if (crossings++ == 0)
                first = t;
            last = t;
        }
        prev = y;
    }
    ck_assert_int_ge(crossings, 11); /* 5 periods */
    const double f = (crossings - 1) / (2 * (last - first));
    printf("string: T = %.6g N, mu = %.6g kg/m, L = %.6g m: fundamental %.5f Hz over %d half "
           "periods, expected %.5f Hz: off by %.2g\n",
           tension, mu, len, f, crossings - 1, expected, f / expected - 1);
    ck_assert_double_lt(fabs(f / expected - 1), 0.01);
    state_destroy(s);
    scenario_destroy(sc);
}
END_TEST

/* A mass m hanging from a pinned point by one XPBD link of compliance alpha settles with the
 * link stretched by m g alpha (Hooke, alpha = 1/k): XPBD's static solution for a single
 * constraint is exact, whatever h and the iterations, so the settled extension must match to
 * 1e-6 (the 1 % the physics asks for, with room). */
START_TEST(test_xpbd_hanging_mass)
{
    struct scenario *sc = load(VALIDATION("xpbd-hanging-mass"), NULL, 0);
    struct model *m = sc->model;
    struct state *s = simulate(m);
    const struct link *l = &m->links[0];
    const double ext = v3_dist(s->x[l->a], s->x[l->b]) - l->rest;
    const double expected = m->mass[l->b] * -m->gravity.y * l->compliance;
    printf("xpbd-hanging-mass: extension %.9g m, m g alpha = %.9g m: off by %.2g\n", ext, expected,
           ext / expected - 1);
    ck_assert_double_lt(fabs(ext / expected - 1), 1e-6);
    state_destroy(s);
    scenario_destroy(sc);
}
END_TEST

static Suite *validation_suite(void)
{
    Suite *s = suite_create("validation");
    TCase *tc = tcase_create("validation");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_chain_settles_on_discrete_equilibrium, 0,
                        (int)(NCHAINS * NMETHODS));
    tcase_add_test(tc, test_bias_h2);
    tcase_add_test(tc, test_discretisation_order);
    tcase_add_test(tc, test_free_fall_exact);
    tcase_add_test(tc, test_projectile_exact);
    tcase_add_test(tc, test_pendulum_period);
    tcase_add_test(tc, test_pendulum_energy);
    tcase_add_test(tc, test_string_fundamental);
    tcase_add_test(tc, test_xpbd_hanging_mass);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(validation_suite());
}
