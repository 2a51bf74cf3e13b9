/* Ragdoll joint limits through falls onto the ground (issue 3): every method, four starting
 * poses, ground friction 0, 0.5 and 1, restitution 0 and 0.5, 2.5 s at dt 1/60; after every
 * step each joint's angle (angle_value, the limit's own measure) is compared with its limits.
 * The contacts' friction and bounces are projected inside the iterations (collide.c), so
 * what the last iteration leaves is the Gauss-Seidel residue of joints against contacts,
 * which more iterations shrink; before they were, the contact response moved touching points
 * after the last projection, and no iteration count brought the joints back. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "constraint_angle.h"
#include "scenario.h"
#include "solver.h"
#include "state.h"

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

/* Case k of the matrix: the figure (radius 5 cm) with its lowest point 1 m above a plane. */
static struct model *fall(int k, int iterations)
{
    const int r = k % 2, f = k / 2 % 3, p = k / 6 % (int)NPOSES, meth = k / (6 * (int)NPOSES);
    char json[2048];
    snprintf(json, sizeof json,
             "{\"catena\": 1, \"time\": {\"dt\": %.17g, \"steps\": 150}, "
             "\"solver\": {\"method\": \"%s\", \"iterations\": %d, \"damping\": 0.995}, "
             "\"bodies\": [{\"name\": \"fig\", \"type\": \"ragdoll\", \"mass\": 70, "
             "\"pose\": \"%s\", \"angle\": %.17g, \"radius\": 0.05}], "
             "\"obstacles\": [{\"type\": \"plane\", \"point\": [0, 0], \"normal\": [0, 1], "
             "\"friction\": %g, \"restitution\": %g}]}",
             1.0 / 60.0, methods[meth], iterations, poses[p].pose, poses[p].angle, frictions[f],
             restitutions[r]);
    struct catena_error err;
    struct model *m = scenario_parse("test.json", json, strlen(json), NULL, 0, &err);
    ck_assert_msg(m != NULL, "unexpected error: %s", err.msg);
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
static double fall_excess(int k, int iterations)
{
    struct model *m = fall(k, iterations);
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

START_TEST(test_limits_hold_when_converged)
{
    /* With the contacts inside the iterations, the joints' residue after a step is what
     * Gauss-Seidel has not yet converged, so enough iterations hold every case within the
     * issue's 1e-3 rad: at 160 the worst measured is 6.2e-4 (upright, friction 1,
     * restitution 0.5). With the old response after the iterations, friction and bounces
     * left 60 of these 72 cases over 1e-3 at 160 iterations, up to 1.1e-1 rad. At 20
     * iterations the upright, T-pose and head-first falls still leave up to 3e-2. */
    char buf[128];
    const double w = fall_excess(_i, 160);
    ck_assert_msg(w <= 1e-3, "%s: a joint is %g rad past its limit at 160 iterations",
                  label(_i, buf, sizeof buf), w);
}
END_TEST

static Suite *ragdoll_suite(void)
{
    Suite *s = suite_create("ragdoll");
    TCase *tc = tcase_create("falls");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_limits_hold_when_converged, 0, NCASES);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(ragdoll_suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
