/* Ragdoll joint limits through falls onto the ground (issue 3): every method, four starting
 * poses, ground friction 0, 0.5 and 1, restitution 0 and 0.5, 2.5 s at dt 1/60; after every
 * step each joint's angle (angle_value, the limit's own measure) is compared with its limits.
 * The contacts' friction and bounces are projected inside the iterations
 * (solver/collide/collide.c), so what the last iteration leaves is the Gauss-Seidel residue of
 * joints against contacts, which more iterations, shorter substeps and the contact phase
 * (solver.shock_iterations) shrink; before they were, the contact response moved touching points
 * after the last projection, and no iteration count brought the joints back. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "solver/angle.h"
#include "scenario/scenario.h"
#include "solver/solver.h"
#include "solver/state.h"
#include "testutil_check.h"

static const char *const methods[] = {"verlet", "pbd", "xpbd"};

/* Starting poses: lying on its side, upright but leaning, a T-pose tipped over, and nearly
 * head first; each lands on different points (side, feet, a hand, the head). */
static const struct {
    const char *name, *pose;
    double angle; /* rad, the figure's turn about the pelvis */
} poses[] = {
    {"flat", "stand", 1.5707963267948966},
    {"upright", "stand", 0.5},
    {"t-pose", "t", 1.2},
    {"head-first", "stand", 2.8},
};

static const double frictions[] = {0.0, 0.5, 1.0}, restitutions[] = {0.0, 0.5};

#define NPOSES (sizeof poses / sizeof *poses)
#define NCASES (3 * NPOSES * 3 * 2)

/* Case k of the matrix: the figure (radius 5 cm) with its lowest point 1 m above a plane,
 * dt 1/60 in `substeps` substeps; the last `shock` iterations of each substep hold contact
 * points (solver.shock_iterations). */
static struct model *fall(int k, int substeps, int iterations, int shock)
{
    const int r = k % 2, f = k / 2 % 3, p = k / 6 % (int)NPOSES, meth = k / (6 * (int)NPOSES);
    struct model *m =
        tu_load("{\"catena\": 1, \"time\": {\"dt\": %.17g, \"steps\": 150, \"substeps\": %d}, "
                "\"solver\": {\"method\": \"%s\", \"iterations\": %d, \"damping\": 0.995, "
                "\"shock_iterations\": %d}, "
                "\"bodies\": [{\"name\": \"fig\", \"type\": \"ragdoll\", \"mass\": 70, "
                "\"pose\": \"%s\", \"angle\": %.17g, \"radius\": 0.05}], "
                "\"obstacles\": [{\"type\": \"plane\", \"point\": [0, 0], \"normal\": [0, 1], "
                "\"friction\": %g, \"restitution\": %g}]}",
                1.0 / 60.0, substeps, methods[meth], iterations, shock, poses[p].pose,
                poses[p].angle, frictions[f], restitutions[r]);
    double low = INFINITY;
    for (size_t i = 0; i < m->npoints; i++)
        low = fmin(low, m->x0[i].y - m->radius[i]);
    m->obstacles[0].p.y = low - 1.0; /* a plane's bounds are infinite: nothing to update */
    return m;
}

static const char *label(int k, char *buf, size_t size)
{
    snprintf(buf, size, "%s, %s, friction %g, restitution %g", methods[k / (6 * (int)NPOSES)],
             poses[k / 6 % NPOSES].name, frictions[k / 2 % 3], restitutions[k % 2]);
    return buf;
}

/* The farthest any joint is past a limit (<= 0 when all are within). */
static double worst_violation(const struct model *m, const struct state *s)
{
    double worst = -INFINITY;
    for (size_t j = 0; j < m->nangles; j++) {
        const double a = angle_value(m, s, j);
        worst = fmax(worst, fmax(a - m->angles[j].max, m->angles[j].min - a));
    }
    return worst;
}

/* Steps case k through its fall; the largest excess over all steps. Checks on the way that
 * the figure lands (a point reaches the plane) and never sinks into it. */
static double fall_excess(int k, int substeps, int iterations, int shock)
{
    struct model *m = fall(k, substeps, iterations, shock);
    struct state *s = state_create(m);
    ck_assert_ptr_nonnull(s);
    const double ground = m->obstacles[0].p.y;
    double worst = 0.0, lowest = INFINITY;
    for (long n = 0; n < m->steps; n++) {
        solver_step(m, s);
        worst = fmax(worst, worst_violation(m, s));
        for (size_t i = 0; i < m->npoints; i++) {
            const double gap = s->x[i].y - m->radius[i] - ground;
            /* A step ends with the contacts projected: on or above the plane but for the
             * rounding of a push-out (~1e-16 m). */
            ck_assert_double_ge(gap, -1e-9);
            lowest = fmin(lowest, gap);
        }
    }
    ck_assert_double_le(lowest, 1e-9); /* it did land */
    state_destroy(s);
    model_destroy(m);
    return worst;
}

/* The worst excess over the whole matrix at 20 iterations (the count), measured
 * (tests/check_ragdoll's falls, after each step), by substeps of dt = 1/60 s and
 * shock_iterations (in brackets: with one sweep of the limits per phase iteration, before
 * the phase swept them 6 times):
 *
 *   substeps   h (s)   shock 0   shock 3
 *   1          1/60    3.1e-2    6.7e-4 (1.6e-2)
 *   2          1/120   1.2e-2    1.8e-4 (5.5e-3)
 *   4          1/240   1.1e-2    9.7e-5 (2.7e-3)
 *   8          1/480   6.0e-3    2.7e-5 (5.9e-4)
 *
 * (160 iterations at h = 1/60 without the phase: 7.7e-4.) With contacts held, what one sweep
 * left was the limits undoing each other through the held points (a knee limit against a
 * held foot moving the hip and knee the hip limit had placed). The 1e-3 rad holds at
 * 20 iterations with the phase on, at h = 1/60 s as at 1/480 s. (Measured with Coulomb
 * friction and with free bodies keeping their angular momentum in flight, issue 17: before,
 * with 5 sweeps, 5.5e-4 at 1/60 s; with those changes 5 sweeps left 1.3e-3, 6 leave 6.7e-4.) */
START_TEST(test_limits_hold_short_substeps)
{
    /* Worst measured 2.7e-5 (upright, pbd and xpbd, friction 1, restitution 0). */
    char buf[128];
    const double w = fall_excess(_i, 8, 20, 3);
    ck_assert_msg(w <= 1e-3, "%s: a joint is %g rad past its limit at 20 iterations, h 1/480 s",
                  label(_i, buf, sizeof buf), w);
}
END_TEST

START_TEST(test_short_substeps_need_the_phase)
{
    /* The same settings without the contact phase: the T-pose falls with friction 1 and
     * restitution 0.5 leave 5.0e-3 rad under pbd and xpbd (8 cases of the matrix are over
     * 1e-3), so h = 1/480 s alone does not meet the bound: the phase is needed. Loop
     * index: pbd, xpbd. */
    char buf[128];
    /* method 1 + _i, pose 2 (t-pose), friction 1 (index 2), restitution 0.5 (index 1) */
    const int k = (1 + _i) * 6 * (int)NPOSES + 2 * 6 + 2 * 2 + 1;
    const double w = fall_excess(k, 8, 20, 0);
    ck_assert_msg(w > 1e-3, "%s: %g rad past a limit without the phase", label(k, buf, sizeof buf),
                  w);
}
END_TEST

START_TEST(test_shock_propagation)
{
    /* At h = 1/60 s the phase (3 of 20 iterations, the angle limits swept 6 times in each)
     * brings the worst case from 3.1e-2 rad (T-pose, head-first; 65 of the 72 cases over
     * 1e-3) down to 6.7e-4 (upright, verlet, friction 0, restitution 0.5): the 1e-3
     * holds at 20 iterations without shorter substeps. */
    char buf[128];
    const double w = fall_excess(_i, 1, 20, 3);
    ck_assert_msg(w <= 1e-3, "%s: a joint is %g rad past its limit at 20 iterations, h 1/60 s",
                  label(_i, buf, sizeof buf), w);
}
END_TEST

/* A rope lying on a frictionless floor, its first point pinned and moving along the floor
 * at 1 m/s: its last point's travel after 1 s with the contact phase (3 of 20 iterations
 * hold its touching points) against without it. */
static double rope_travel(int shock)
{
    struct model *m =
        tu_load("{\"catena\": 1, \"time\": {\"dt\": %.17g, \"steps\": 60}, "
                "\"solver\": {\"method\": \"xpbd\", \"iterations\": 20, "
                "\"shock_iterations\": %d}, "
                "\"bodies\": [{\"name\": \"r\", \"type\": \"rope\", \"from\": [0, 0.01], "
                "\"to\": [-1, 0.01], \"segments\": 10, \"mass\": 1, \"radius\": 0.01}], "
                "\"pins\": [{\"point\": \"r.first\", \"at\": [0, 0.01], "
                "\"motion\": {\"type\": \"linear\", \"velocity\": [1, 0]}}], "
                "\"obstacles\": [{\"type\": \"plane\", \"point\": [0, 0], \"normal\": [0, 1]}]}",
                1.0 / 60.0, shock);
    struct state *s = state_create(m);
    ck_assert_ptr_nonnull(s);
    const size_t last = m->npoints - 1;
    const double x0 = s->x[last].x;
    for (long n = 0; n < m->steps; n++)
        solver_step(m, s);
    const double travel = s->x[last].x - x0;
    state_destroy(s);
    model_destroy(m);
    return travel;
}

START_TEST(test_shock_keeps_frictionless_sliding)
{
    /* Held points must not make a frictionless floor sticky: the earlier iterations still
     * let the contacts slide, so the rope follows the pin as it does without the phase
     * (measured: 1.000005 m with it, 1.000004 m without). 1 % is the most a link's stretch
     * behind the pin could account for (the largest measured, 5 %, spread over 10 links). */
    const double with = rope_travel(3), without = rope_travel(0);
    ck_assert_double_gt(without, 0.5);
    ck_assert_double_eq_tol(with, without, 0.01 * without);
}
END_TEST

static Suite *ragdoll_suite(void)
{
    Suite *s = suite_create("ragdoll");
    TCase *tc = tcase_create("falls");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_limits_hold_short_substeps, 0, NCASES);
    tcase_add_loop_test(tc, test_short_substeps_need_the_phase, 0, 2);
    tcase_add_loop_test(tc, test_shock_propagation, 0, NCASES);
    tcase_add_test(tc, test_shock_keeps_frictionless_sliding);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(ragdoll_suite());
}
