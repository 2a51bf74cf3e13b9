/* Angular momentum through the constraint sweeps (solver/momentum.h, issue 17): a prestressed
 * free body does not spin up from rest, for every method, order and kernel; a free rigid body
 * keeps its spin; what remains is measured: a body turning about a pin loses spin as
 * d omega / dt = -h omega^3 (the projection's own damping), and a prestressed body held by a
 * pin still spins up about it (less with shorter substeps; not at all under solver.global);
 * and the shipped soft bodies resting on the ground do not roll. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "model/model.h"
#include "scenario/scenario.h"
#include "solver/solver.h"
#include "solver/state.h"
#include "solver/velocity.h"
#include "testutil_check.h"
#include "testutil_models.h"

static const enum solver_method methods[] = {METHOD_VERLET, METHOD_PBD, METHOD_XPBD};
static const char *const method_names[] = {"verlet", "pbd", "xpbd"};

/* Angular momentum about c (2D: its z), kg m^2/s. */
static double momentum_about(const struct model *md, const struct state *st, vec3 c)
{
    double l = 0.0;
    for (size_t i = 0; i < md->npoints; i++) {
        const vec3 r = v3_sub(st->x[i], c), v = velocity_get(md, st, i);
        l += md->mass[i] * (r.x * v.y - r.y * v.x);
    }
    return l;
}

static vec3 centre_of_mass(const struct model *md, const struct state *st)
{
    vec3 c = v3(0, 0, 0);
    double mass = 0.0;
    for (size_t i = 0; i < md->npoints; i++) {
        c = v3_add(c, v3_scale(st->x[i], md->mass[i]));
        mass += md->mass[i];
    }
    return v3_scale(c, 1.0 / mass);
}

/* The square: four 1 kg points, sides of rest 1, diagonals of rest 1.5 (which no
 * square meets: the body is prestressed), compliance 1e-3 (xpbd) or stiffness 0.1, 20
 * iterations, no gravity, at rest; pinned at a corner when `pin`. */
static struct model *square(enum solver_method method, double dt, int substeps, int pin)
{
    struct model *md = model_create();
    ck_assert_ptr_nonnull(md);
    md->dt = dt;
    md->steps = lround(10.0 / dt);
    md->substeps = substeps;
    md->iterations = 20;
    md->method = method;
    md->gravity = v3(0, 0, 0);
    const vec3 p[4] = {v3(0, 0, 0), v3(1, 0, 0), v3(1, 1, 0), v3(0, 1, 0)};
    for (int i = 0; i < 4; i++)
        ck_assert_int_ge(model_add_point(md, p[i], v3(0, 0, 0), 1.0, 0.0, NULL), 0);
    const int e[6][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 2}, {1, 3}};
    for (int k = 0; k < 6; k++) {
        const long l = model_add_link(md, (uint32_t)e[k][0], (uint32_t)e[k][1], k < 4 ? 1.0 : 1.5);
        ck_assert_int_ge(l, 0);
        md->links[l].compliance = 1e-3;
        md->links[l].stiffness = 0.1;
    }
    if (pin)
        ck_assert_int_ge(model_add_pin(md, 0, p[0]), 0);
    return md;
}

/* |L| after 10 s from rest, per second: about the centre of mass, or the pin. */
static double spin_up(struct model *md, int pin)
{
    s = state_create(md);
    ck_assert_ptr_nonnull(s);
    for (long k = 0; k < md->steps; k++)
        solver_step(md, s);
    const double l = momentum_about(md, s, pin ? md->x0[0] : centre_of_mass(md, s));
    state_destroy(s);
    s = NULL;
    return fabs(l) / 10.0;
}

/* The bound: the prestressed square's |L| grows by less than 1e-3 kg m^2/s per second
 * at default settings (dt 1/120, one substep). Before the sweeps kept the angular momentum it
 * gained, per second, 0.097 under xpbd in the alternate order (0.16 at dt 1/60, whatever the
 * iterations) and 0.10 in the forward order, 0.15 and 0.90 under verlet and pbd (growing
 * with the iterations); the colored order, whose three colours this square's symmetry
 * balances, none. Now 1e-12 in every case, and 1e-30 under solver.global, whose exact
 * projection never had it. Loop: method, order (forward, alternate, colored), then the
 * kernel (batched, simple) for the first 18 and solver.global (xpbd) for the last. */
START_TEST(test_prestressed_square)
{
    const double dt = 1.0 / 120.0;
    if (_i == 18) {
        m = square(METHOD_XPBD, dt, 1, 0);
        m->global = 1;
        const double rate = spin_up(m, 0);
        ck_assert_msg(rate < 1e-3, "global: |L| grows by %g per second", rate);
        return;
    }
    const int method = _i / 6, order = _i / 2 % 3;
    m = square(methods[method], dt, 1, 0);
    m->order = (enum solver_order)order;
    m->kernel = _i % 2 ? KERNEL_SIMPLE : KERNEL_BATCHED;
    const double rate = spin_up(m, 0);
    ck_assert_msg(rate < 1e-3, "%s, order %d, kernel %d: |L| grows by %g per second",
                  method_names[method], order, _i % 2, rate);
}
END_TEST

/* What remains: a prestressed body held by a pin (the square pinned at a corner) spins up
 * about it, as a pin's reaction has a torque that the sweeps cannot tell from their own. Under
 * xpbd at dt 1/120 it gains 0.15 kg m^2/s per second, at 1/60 0.30, and with 4 substeps of
 * 1/480 s 0.012 (about h^2); under solver.global nothing (2e-14). The test holds those
 * ratios: 4 substeps at least 8 times less, the global solve under 1e-9. */
START_TEST(test_pinned_spin_up)
{
    m = square(METHOD_XPBD, 1.0 / 120.0, 1, 1);
    const double one = spin_up(m, 1);
    model_destroy(m);
    m = square(METHOD_XPBD, 1.0 / 120.0, 4, 1);
    const double four = spin_up(m, 1);
    model_destroy(m);
    m = square(METHOD_XPBD, 1.0 / 120.0, 1, 1);
    m->global = 1;
    const double global = spin_up(m, 1);
    ck_assert_double_gt(one, 0.1); /* measured 0.153 */
    ck_assert_double_lt(four, one / 8.0);
    ck_assert_double_lt(global, 1e-9);
}
END_TEST

/* A rigid triangle (three 1 kg points, rigid links) turning at 2 rad/s in free space: the
 * issue measured it losing 22.5 % of its spin in 10 s at dt 1/120 (the projection's
 * -h omega^3); kept now, to 1e-9 (measured exact). Loop: method. */
START_TEST(test_free_rotation_kept)
{
    m = model_create();
    m->dt = 1.0 / 120.0;
    m->iterations = 20;
    m->method = methods[_i];
    m->gravity = v3(0, 0, 0);
    const vec3 p[3] = {v3(0, 0, 0), v3(1, 0, 0), v3(0.5, 0.8, 0)}, c = v3(0.5, 0.8 / 3.0, 0);
    for (int i = 0; i < 3; i++) {
        const vec3 r = v3_sub(p[i], c);
        model_add_point(m, p[i], v3(-2.0 * r.y, 2.0 * r.x, 0), 1.0, 0.0, NULL);
    }
    for (uint32_t i = 0; i < 3; i++)
        model_add_link(m, i, (i + 1) % 3, v3_dist(p[i], p[(i + 1) % 3]));
    s = state_create(m);
    const double l0 = momentum_about(m, s, c);
    for (long k = 0; k < 1200; k++)
        solver_step(m, s);
    const vec3 r = v3_sub(s->x[1], centre_of_mass(m, s)), v = velocity_get(m, s, 1);
    const double omega = (r.x * v.y - r.y * v.x) / v3_dot(r, r);
    ck_assert_msg(fabs(omega - 2.0) < 2e-9, "%s: omega %.12g after 10 s", method_names[_i], omega);
    ck_assert_double_eq_tol(momentum_about(m, s, centre_of_mass(m, s)), l0, 1e-9 * l0);
}
END_TEST

/* Turning about a pin, a body still loses spin to the projection: the predicted point
 * x + v h lies off its circle and is put back on it, so the angle of a step falls from
 * Delta to atan(sin Delta / (2 - cos Delta)) = Delta - Delta^3 + ..., that is
 * d omega / dt = -h omega^3 with h the substep, omega(t) = omega0 / sqrt(1 + 2 h omega0^2 t)
 * (catena-scenario(5)). A 1 kg point on a rigid 1 m link to a pin, no gravity, at 2 rad/s:
 * the formula holds within 1 % over 10 s (measured 1.4e-4 at dt 1/120, the 22.5 % of the
 * issue; 5.6e-4 at 1/60; 8.7e-6 with 4 substeps of 1/480 s, which lose 7.4 %). Loop: method,
 * then (dt, substeps) = (1/120, 1), (1/60, 1), (1/120, 4). */
START_TEST(test_pinned_rotation_decays)
{
    static const double dts[3] = {1.0 / 120.0, 1.0 / 60.0, 1.0 / 120.0};
    static const int subs[3] = {1, 1, 4};
    const int c = _i % 3;
    m = model_create();
    m->dt = dts[c];
    m->substeps = subs[c];
    m->iterations = 20;
    m->method = methods[_i / 3];
    m->gravity = v3(0, 0, 0);
    model_add_point(m, v3(0, 0, 0), v3(0, 0, 0), 0.0, 0.0, NULL);
    model_add_point(m, v3(1, 0, 0), v3(0, 2, 0), 1.0, 0.0, NULL);
    model_add_link(m, 0, 1, 1.0);
    s = state_create(m);
    const double h = m->dt / m->substeps, w0 = 2.0;
    double worst = 0.0, omega = w0;
    for (long k = 0; k < lround(10.0 / m->dt); k++) {
        solver_step(m, s);
        const vec3 r = s->x[1], v = velocity_get(m, s, 1);
        omega = (r.x * v.y - r.y * v.x) / v3_dot(r, r);
        const double want = w0 / sqrt(1.0 + 2.0 * h * w0 * w0 * s->t);
        worst = fmax(worst, fabs(omega - want) / want);
    }
    ck_assert_msg(worst < 0.01, "%s, dt %g, %d substeps: off the formula by %g",
                  method_names[_i / 3], m->dt, m->substeps, worst);
    ck_assert_double_lt(omega, 0.95 * w0); /* it did slow down: by 7 to 35 % */
}
END_TEST

/* The shipped scenarios with a soft body and an obstacle (every .json in scenarios/): each
 * soft body drifts by less than 1 mm/s over the second half of its run (the bound).
 * The inflated ring of scenarios/inflated-ring.json (xpbd, pressure 1.1, lying on an edge)
 * rolled off at 0.61 m/s before the sweeps kept its angular momentum; measured 5.5e-5 m/s
 * now (it rocks on its edge by under 1 mm). */
START_TEST(test_soft_bodies_rest)
{
    const char *top = getenv("top_srcdir");
    char pattern[4096];
    snprintf(pattern, sizeof pattern, "%s/scenarios/*.json", top ? top : ".");
    glob_t g;
    ck_assert_int_eq(glob(pattern, 0, NULL, &g), 0);
    int tested = 0;
    for (size_t f = 0; f < g.gl_pathc; f++) {
        struct catena_error err;
        struct scenario *sc = scenario_load(g.gl_pathv[f], NULL, 0, &err);
        ck_assert_msg(sc != NULL, "%s", err.msg);
        const struct model *md = sc->model;
        for (size_t b = 0; b < md->nbodies && md->nobstacles > 0; b++) {
            const struct body *bd = &md->bodies[b];
            if (bd->type != BODY_SOFTBODY)
                continue;
            struct state *st = state_create(md);
            double x_mid = 0.0, t_mid = 0.0;
            for (long k = 0; k < md->steps; k++) {
                solver_step(md, st);
                if (k + 1 == md->steps / 2 || k + 1 == md->steps) {
                    double x = 0.0;
                    for (uint32_t i = 0; i < bd->npoints; i++)
                        x += st->x[bd->first_point + i].x / bd->npoints;
                    if (k + 1 == md->steps)
                        ck_assert_msg(fabs(x - x_mid) / (st->t - t_mid) < 1e-3,
                                      "%s: %s drifts at %g m/s", g.gl_pathv[f], bd->name,
                                      (x - x_mid) / (st->t - t_mid));
                    x_mid = x;
                    t_mid = st->t;
                }
            }
            state_destroy(st);
            tested++;
        }
        scenario_destroy(sc);
    }
    globfree(&g);
    ck_assert_int_ge(tested, 1);
}
END_TEST

static Suite *momentum_suite(void)
{
    Suite *su = suite_create("momentum");
    TCase *tc = tu_tcase(su, "momentum", tu_models_setup, tu_models_teardown);
    tcase_add_loop_test(tc, test_prestressed_square, 0, 19);
    tcase_add_test(tc, test_pinned_spin_up);
    tcase_add_loop_test(tc, test_free_rotation_kept, 0, 3);
    tcase_add_loop_test(tc, test_pinned_rotation_decays, 0, 9);
    tcase_add_test(tc, test_soft_bodies_rest);
    return su;
}

int main(void)
{
    return tu_run(momentum_suite());
}
