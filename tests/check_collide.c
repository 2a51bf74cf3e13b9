/* Physics tests of collisions (collide*.c, solver/collide/selfcollide.c) for the three methods:
 * resting contact without penetration, restitution's e^2 bounce heights, friction that sticks or
 * lets a point slide at g sin(theta), a fast rope that cannot tunnel through a thin box,
 * self-collision of a rope dropped in a heap, the broad phase, collide_every, and the
 * shapes' distances. Scenarios are written with ' for " and read by the loader. */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/collide/collide.h"
#include "scenario/scenario.h"
#include "solver/solver.h"
#include "solver/velocity.h"
#include "solver/state.h"
#include "testutil_check.h"
#include "testutil_models.h"

#define PI 3.14159265358979323846

static const char *const method_names[] = {"verlet", "pbd", "xpbd"};

/* Height of point i above obstacle k's surface grown by the point's radius. */
static double gap(const struct model *md, const struct state *st, size_t k, size_t i)
{
    return collide_distance(&md->obstacles[k], st->x[i], NULL) - md->radius[i];
}

/* ---- resting contact ---- */

/* A point dropped onto a plane (flat in 2D, tilted in 3D, friction 1 so it comes to rest)
 * stays out of it after every step, for every method. */
START_TEST(test_rest_on_plane)
{
    const char *method = method_names[_i % 3];
    if (_i < 3)
        m = tu_load("{'catena': 1, 'time': {'dt': 0.005, 'steps': 400}, 'solver': {'method': '%s'},"
                    "'points': [{'p': [0.3, 0.4], 'mass': 2, 'radius': 0.05}],"
                    "'obstacles': [{'type': 'plane', 'point': [0, 0], 'normal': [0, 1],"
                    "'friction': 1}]}",
                    method);
    else
        m = tu_load("{'catena': 1, 'dimensions': 3, 'time': {'dt': 0.005, 'steps': 400},"
                    "'solver': {'method': '%s'}, 'points': [{'p': [0.3, 0.4, -0.2], 'mass': 2,"
                    "'radius': 0.05}], 'obstacles': [{'type': 'plane', 'point': [0, 0, 0],"
                    "'normal': [0.2, 1, 0.1], 'friction': 1}]}",
                    method);
    s = state_create(m);
    for (long k = 0; k < m->steps; k++) {
        solver_step(m, s);
        /* The bound. The last iteration ends with the push-out, which leaves a point
         * on the grown plane up to a rounding of its coordinates (~1e-17 m). */
        ck_assert_double_ge(gap(m, s, 0, 0), -1e-6);
    }
    /* Resting on it, not hovering: after 2 s it touches (the drop takes 0.26 s). */
    ck_assert_double_le(gap(m, s, 0, 0), 1e-9);
}
END_TEST

/* ---- restitution ---- */

/* Successive apex heights of a point bouncing on a plane (sampled every step, the apex being
 * a step whose height is not below the one before and above the one after). */
static size_t apexes(double e, const char *method, double *h, size_t max)
{
    m = tu_load("{'catena': 1, 'time': {'dt': 0.001, 'steps': 4000}, 'solver': {'method': '%s'},"
                "'points': [{'p': [0, 1.05], 'mass': 1, 'radius': 0.05}],"
                "'obstacles': [{'type': 'plane', 'point': [0, 0], 'normal': [0, 1],"
                "'restitution': %.17g}]}",
                method, e);
    s = state_create(m);
    double y0 = s->x[0].y, y1 = y0;
    size_t n = 0;
    for (long k = 0; k < m->steps && n < max; k++) {
        solver_step(m, s);
        const double y2 = s->x[0].y;
        if (k > 0 && y1 >= y0 && y1 > y2)
            h[n++] = y1 - 0.05;
        y0 = y1;
        y1 = y2;
    }
    return n;
}

START_TEST(test_restitution_heights)
{
    const double es[] = {0.3, 0.5, 0.8};
    const double e = es[_i / 3];
    double h[4];
    ck_assert_uint_eq(apexes(e, method_names[_i % 3], h, 4), 4);
    for (int k = 0; k + 1 < 4; k++) {
        /* The 2 %. The bounce is solved exactly within the substep for a point under
         * gravity (solver/collide/collide.c), so what remains is sampling the apex at whole steps,
         * at most g (dt/2)^2 / 2 = 1.2e-7 m; measured within 2e-4 relative down to 4 mm heights. */
        ck_assert_double_eq_tol(h[k + 1] / h[k], e * e, 0.02 * e * e);
    }
}
END_TEST

/* ---- friction ---- */

/* A point resting on a plane inclined at 30 degrees (2D), released with no velocity. */
static void slope(double friction, const char *method)
{
    const double th = PI / 6.0;
    m = tu_load("{'catena': 1, 'time': {'dt': 0.01, 'steps': 300}, 'solver': {'method': '%s'},"
                "'points': [{'p': [%.17g, %.17g], 'mass': 1, 'radius': 0.1}],"
                "'obstacles': [{'type': 'plane', 'point': [0, 0], 'normal': [%.17g, %.17g],"
                "'friction': %.17g}]}",
                method, -0.1 * sin(th), 0.1 * cos(th), -sin(th), cos(th), friction);
    /* Exactly at rest: xprev = x (gravity's half step is not a velocity). */
    m->v0[0] = v3_scale(m->gravity, 0.5 * m->dt);
}

START_TEST(test_friction_sticks)
{
    slope(1.0, method_names[_i]);
    s = state_create(m);
    const vec3 x0 = s->x[0];
    for (long k = 0; k < m->steps; k++) {
        solver_step(m, s);
        /* Coulomb friction 1 holds it on 30 degrees (tan 30 = 0.58): the tangential motion of
         * each substep is undone, and the normal push leaves the point where it was up to a
         * rounding a substep (measured 3e-16 m after 3 s). tests/check_friction.c has the
         * threshold and the sliding. */
        ck_assert_double_le(v3_dist(s->x[0], x0), 1e-12);
    }
}
END_TEST

START_TEST(test_friction_zero_slides)
{
    slope(0.0, method_names[_i]);
    s = state_create(m);
    const double th = PI / 6.0, dt = m->dt;
    const vec3 down = v3(-cos(th), -sin(th), 0); /* along the slope */
    double d[3];
    for (long k = 0; k < m->steps; k++) {
        solver_step(m, s);
        d[0] = d[1];
        d[1] = d[2];
        d[2] = v3_dot(s->x[0], down);
        if (k >= 2) {
            /* Second differences of the distance down the slope: the acceleration. The issue
             * asks for g sin(theta) within 1 %; the push-out removes exactly the normal part
             * of each step, so only round-off is left (measured 1e-12 relative). */
            const double a = (d[2] - 2.0 * d[1] + d[0]) / (dt * dt);
            ck_assert_double_eq_tol(a, 9.81 * sin(th), 0.01 * 9.81 * sin(th));
        }
        ck_assert_double_le(fabs(gap(m, s, 0, 0)), 1e-9); /* on the slope all along */
    }
}
END_TEST

/* ---- anti-tunnelling ---- */

/* A rope of 50 points (radius 0.01 m, under half its 4.1 cm links) thrown at 20 m/s at a box
 * 5 cm thick: at 60 steps/s a point moves 33 cm a step, over six times the thickness, so only
 * the swept test stops it; no point is ever inside the box, and all end on the near side. */
START_TEST(test_thin_box_stops_rope)
{
    m = tu_load("{'catena': 1, 'time': {'dt': %.17g, 'steps': 120}, 'solver': {'method': '%s'},"
                "'world': {'gravity': [0, 0]}, 'bodies': [{'type': 'rope', 'name': 'rope',"
                "'from': [-3, 0.3], 'to': [-1, -0.3], 'segments': 49, 'mass': 1,"
                "'radius': 0.01}], 'obstacles': [{'type': 'box', 'center': [0, 0],"
                "'half': [0.025, 1]}]}",
                1.0 / 60.0, method_names[_i]);
    for (size_t i = 0; i < m->npoints; i++)
        m->v0[i] = v3(20, 0, 0);
    ck_assert_double_lt(m->radius[0], 0.5 * m->links[0].rest);
    ck_assert_double_gt(20.0 * m->dt, 2.0 * (0.025 + m->radius[0]));
    s = state_create(m);
    for (long k = 0; k < m->steps; k++) {
        solver_step(m, s);
        for (size_t i = 0; i < m->npoints; i++)
            ck_assert_double_ge(collide_distance(&m->obstacles[0], s->x[i], NULL), 0.0);
    }
    for (size_t i = 0; i < m->npoints; i++)
        ck_assert_double_lt(s->x[i].x, 0.0);
}
END_TEST

/* The same for points shot at a sphere and a capsule (3D) at 1 m a step, far more than their
 * 10 and 6 cm: friction 1 stops them on the face they hit (the impact's normal impulse far
 * outweighs their sideways motion) instead of letting them slide round, so ending on the near side
 * shows that they did not pass through. */
START_TEST(test_sweep_round_shapes)
{
    m = tu_load(
        "{'catena': 1, 'dimensions': 3, 'time': {'dt': 0.01, 'steps': 20},"
        "'world': {'gravity': [0, 0, 0]}, 'points': [{'p': [-2, 0.01, 0], 'v': [100, 0, 0],"
        "'mass': 1, 'radius': 0.01}, {'p': [-2, 5, 0.02], 'v': [100, 0, 0], 'mass': 1,"
        "'radius': 0.01}], 'obstacles': [{'type': 'sphere', 'center': [0, 0, 0],"
        "'radius': 0.05, 'friction': 1}, {'type': 'capsule', 'a': [0, 4, 0], 'b': [0, 6, 0],"
        "'radius': 0.03, 'friction': 1}]}");
    s = state_create(m);
    for (long k = 0; k < m->steps; k++) {
        solver_step(m, s);
        ck_assert_double_ge(gap(m, s, 0, 0), -1e-12);
        ck_assert_double_ge(gap(m, s, 1, 1), -1e-12);
    }
    ck_assert_double_lt(s->x[0].x, 0.0);
    ck_assert_double_lt(s->x[1].x, 0.0);
}
END_TEST

/* Points flung out of bounds are clamped back in, whatever their speed. */
START_TEST(test_bounds_keep_inside)
{
    m = tu_load("{'catena': 1, 'time': {'dt': 0.01, 'steps': 200}, 'points': ["
                "{'p': [0, 0], 'v': [300, 40], 'mass': 1, 'radius': 0.1},"
                "{'p': [0.5, 0.5], 'v': [-20, 250], 'mass': 1, 'radius': 0.2}],"
                "'obstacles': [{'type': 'bounds', 'center': [1, 1], 'half': [2, 1.5],"
                "'angle': 0.3, 'restitution': 0.5}]}");
    s = state_create(m);
    for (long k = 0; k < m->steps; k++) {
        solver_step(m, s);
        for (size_t i = 0; i < 2; i++)
            ck_assert_double_ge(gap(m, s, 0, i), -1e-12);
    }
}
END_TEST

/* ---- self-collision ---- */

/* Smallest distance between two links of the rope that share no point. */
static double min_nonadjacent(const struct model *md, const struct state *st)
{
    double best = INFINITY;
    for (size_t i = 0; i < md->nlinks; i++)
        for (size_t j = i + 2; j < md->nlinks; j++) {
            const struct link *a = &md->links[i], *b = &md->links[j];
            /* Independent of the solver's closest-point routine: 201 samples along one
             * segment, each with its exact nearest point on the other. */
            const vec3 p1 = st->x[a->a], d1 = v3_sub(st->x[a->b], p1);
            const vec3 p2 = st->x[b->a], d2 = v3_sub(st->x[b->b], p2);
            for (int k = 0; k <= 200; k++) {
                const vec3 p = v3_add(p1, v3_scale(d1, k / 200.0));
                double t = v3_dot(v3_sub(p, p2), d2) / v3_dot(d2, d2);
                t = t < 0 ? 0 : t > 1 ? 1 : t;
                best = fmin(best, v3_dist(p, v3_add(p2, v3_scale(d2, t))));
            }
        }
    return best;
}

/* A 40-segment rope (3 m of it, self-collision radius 2 cm) dropped straight onto the ground
 * folds into a heap; 6.5 s later, settled, no two segments that share no point are closer
 * than 2 radius less 1 % of radius (the bound). */
START_TEST(test_self_collision_heap)
{
    const double r = 0.02;
    m = tu_load(
        "{'catena': 1, 'dimensions': 3, 'time': {'dt': %.17g, 'steps': 1560, 'substeps': 2},"
        "'solver': {'method': '%s', 'iterations': 20, 'damping': %s},"
        "'bodies': [{'type': 'rope', 'name': 'rope', 'from': [0, 0.2, 0],"
        "'to': [0.03, 3.2, 0.01], 'segments': 40, 'mass': 1, 'radius': %.17g,"
        "'self_collision': {'radius': %.17g}}], 'obstacles': [{'type': 'plane',"
        "'point': [0, 0, 0], 'normal': [0, 1, 0], 'friction': 0.3}]}",
        1.0 / 240.0, method_names[_i], _i == 0 ? "0.995" : "0.5", r, r);
    s = state_create(m);
    for (long k = 0; k < m->steps; k++)
        solver_step(m, s);
    /* It has fallen into a heap: the 3 m rope lies within 30 cm of the ground. */
    double top = 0.0;
    for (size_t i = 0; i < m->npoints; i++)
        top = fmax(top, s->x[i].y);
    ck_assert_double_lt(top, 0.3);
    /* Settled: it fell at metres per second and its fastest point is now under 5 cm/s
     * (measured 4.7, 0 and 11 mm/s: resting contacts keep a jitter of order g h = 2 cm/s;
     * under verlet a fold of the heap slips between 4.5 and 5.5 s, at up to 0.36 m/s). */
    for (size_t i = 0; i < m->npoints; i++)
        ck_assert_double_lt(v3_len(velocity_get(m, s, i)), 0.05);
    /* The grid of 201 samples along one segment finds the minimum to (7.5 cm / 200)^2 / 2r,
     * under 1e-5 m, far inside the 2e-4 m allowance. */
    ck_assert_double_ge(min_nonadjacent(m, s), 2.0 * r - 0.01 * r);
}
END_TEST

/* ---- broad phase and schedule ---- */

/* A rope far from a sphere costs no narrow test and moves exactly as without the sphere;
 * moved next to it, it is tested. */
START_TEST(test_broad_phase)
{
    const char *fmt = "{'catena': 1, 'time': {'dt': 0.01, 'steps': 50}, 'bodies': [{'type': "
                      "'rope', 'name': 'r', 'from': [0, 0], 'to': [1, 0], 'segments': 10, "
                      "'mass': 1, 'radius': 0.02, 'pins': ['first']}]%s}";
    m = tu_load(fmt, ", 'obstacles': [{'type': 'sphere', 'center': [5, 5], 'radius': 1}]");
    m2 = tu_load(fmt, "");
    s = state_create(m);
    s2 = state_create(m2);
    for (long k = 0; k < m->steps; k++) {
        solver_step(m, s);
        solver_step(m2, s2);
    }
    ck_assert_uint_eq(collide_narrow_tests(s), 0);
    ck_assert_mem_eq(s->x, s2->x, m->npoints * sizeof *s->x);
    state_destroy(s);
    model_destroy(m);
    m = tu_load(fmt, ", 'obstacles': [{'type': 'sphere', 'center': [0.5, -0.6], 'radius': 0.3}]");
    s = state_create(m);
    for (long k = 0; k < m->steps; k++)
        solver_step(m, s);
    ck_assert_uint_gt(collide_narrow_tests(s), 0);
}
END_TEST

/* collide_every k: collisions on iterations 0, k, 2k, ... and the last. One point inside
 * bounds (which the broad phase never skips), 10 iterations, one step: k = 1 tests it 10
 * times, k = 4 on 0, 4, 8, 9 (4 times), k = 20 on 0 and 9. */
START_TEST(test_collide_every)
{
    const int every[] = {1, 4, 20}, want[] = {10, 4, 2};
    m = tu_load("{'catena': 1, 'time': {'dt': 0.01, 'steps': 1}, 'solver': {'iterations': 10,"
                "'collide_every': %d}, 'points': [{'p': [0, 0.5], 'mass': 1, 'radius': 0.1}],"
                "'obstacles': [{'type': 'bounds', 'center': [0, 0], 'half': [2, 2]}]}",
                every[_i]);
    s = state_create(m);
    solver_step(m, s);
    ck_assert_uint_eq(collide_narrow_tests(s), (unsigned long)want[_i]);
}
END_TEST

/* ---- shapes ---- */

START_TEST(test_shape_distances)
{
    m = tu_load("{'catena': 1, 'dimensions': 3, 'time': {'dt': 0.01, 'steps': 1},"
                "'points': [{'p': [0, 0, 0], 'mass': 1}], 'obstacles': ["
                "{'type': 'box', 'center': [1, 2, 3], 'half': [1, 0.5, 0.25],"
                "'euler': [0, 0, %.17g]},"
                "{'type': 'box', 'center': [0, 0, 0], 'half': [1, 2, 3],"
                "'quaternion': [%.17g, 0, %.17g, 0]},"
                "{'type': 'capsule', 'a': [0, 0, 0], 'b': [2, 0, 0], 'radius': 0.5},"
                "{'type': 'sphere', 'center': [1, 1, 1], 'radius': 2},"
                "{'type': 'bounds', 'center': [0, 0, 0], 'half': [2, 3, 4]}]}",
                PI / 2, cos(PI / 4), sin(PI / 4));
    const struct obstacle *o = m->obstacles;
    vec3 n;
    /* Box turned 90 degrees about z: its 1 m half extent now lies along y. Exact but for
     * rounding of cos(pi/2) ~ 6e-17 and the rotated offsets: 1e-12. */
    ck_assert_double_eq_tol(collide_distance(&o[0], v3(1, 4, 3), &n), 1.0, 1e-12);
    ck_assert_double_eq_tol(n.y, 1.0, 1e-12);
    ck_assert_double_eq_tol(collide_distance(&o[0], v3(2, 2, 3), &n), 0.5, 1e-12);
    ck_assert_double_eq_tol(collide_distance(&o[0], v3(1, 2, 3), &n), -0.25, 1e-12);
    ck_assert_double_eq_tol(fabs(n.z), 1.0, 1e-12);
    /* Corner region: the offset (1.5, 2, 0) is (2, -1.5, 0) in the box's frame, 1 m past
     * both the x and the y faces. */
    ck_assert_double_eq_tol(collide_distance(&o[0], v3(2.5, 4, 3), &n), sqrt(2.0), 1e-12);
    /* Quaternion of 90 degrees about y: local x along world -z, local z along world x. */
    ck_assert_double_eq_tol(collide_distance(&o[1], v3(5, 0, 0), &n), 2.0, 1e-12);
    ck_assert_double_eq_tol(collide_distance(&o[1], v3(0, 0, 3), &n), 2.0, 1e-12);
    /* Capsule: beside the segment, past an end, on the axis. */
    ck_assert_double_eq_tol(collide_distance(&o[2], v3(1, 3, 0), &n), 2.5, 1e-15);
    ck_assert_double_eq_tol(collide_distance(&o[2], v3(5, 0, 4), &n), 4.5, 1e-15);
    ck_assert_double_eq_tol(collide_distance(&o[2], v3(1, 0, 0), &n), -0.5, 1e-15);
    /* Sphere and bounds (positive inside bounds, normal away from the nearest wall). */
    ck_assert_double_eq_tol(collide_distance(&o[3], v3(1, 1, 4), &n), 1.0, 1e-15);
    ck_assert_double_eq_tol(collide_distance(&o[4], v3(0, 2.5, 0), &n), 0.5, 1e-15);
    ck_assert_double_eq_tol(n.y, -1.0, 1e-15);
    ck_assert_double_eq_tol(collide_distance(&o[4], v3(0, 0, -5), &n), -1.0, 1e-15);
    ck_assert_double_eq_tol(n.z, 1.0, 1e-15);
}
END_TEST

/* Same scenario twice: the same bits, collisions and self-collision included. */
START_TEST(test_deterministic)
{
    const char *text = "{'catena': 1, 'dimensions': 3, 'time': {'dt': 0.004, 'steps': 150},"
                       "'solver': {'method': 'xpbd', 'iterations': 8}, 'bodies': [{'type': "
                       "'rope', 'name': 'r', 'from': [0, 0.1, 0], 'to': [0.1, 2, 0.05], "
                       "'segments': 30, 'mass': 1, 'radius': 0.02, 'self_collision': "
                       "{'radius': 0.02}}], 'obstacles': [{'type': 'plane', 'point': [0, 0, "
                       "0], 'normal': [0, 1, 0], 'friction': 0.5, 'restitution': 0.3}, {'type':"
                       " 'box', 'center': [0.2, 0.3, 0], 'half': [0.1, 0.1, 0.1], 'euler': "
                       "[0.1, 0.2, 0.3]}]}";
    m = tu_load("%s", text);
    m2 = tu_load("%s", text);
    s = state_create(m);
    s2 = state_create(m2);
    for (long k = 0; k < m->steps; k++) {
        solver_step(m, s);
        solver_step(m2, s2);
    }
    ck_assert_mem_eq(s->x, s2->x, m->npoints * sizeof *s->x);
    ck_assert_mem_eq(s->v, s2->v, m->npoints * sizeof *s->v);
}
END_TEST

static Suite *collide_suite(void)
{
    Suite *su = suite_create("collide");
    TCase *tc = tcase_create("collide");
    tcase_add_checked_fixture(tc, tu_models_setup, tu_models_teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_rest_on_plane, 0, 6);
    tcase_add_loop_test(tc, test_restitution_heights, 0, 9);
    tcase_add_loop_test(tc, test_friction_sticks, 0, 3);
    tcase_add_loop_test(tc, test_friction_zero_slides, 0, 3);
    tcase_add_loop_test(tc, test_thin_box_stops_rope, 0, 3);
    tcase_add_test(tc, test_sweep_round_shapes);
    tcase_add_test(tc, test_bounds_keep_inside);
    tcase_add_loop_test(tc, test_self_collision_heap, 0, 3);
    tcase_add_test(tc, test_broad_phase);
    tcase_add_loop_test(tc, test_collide_every, 0, 3);
    tcase_add_test(tc, test_shape_distances);
    tcase_add_test(tc, test_deterministic);
    suite_add_tcase(su, tc);
    return su;
}

int main(void)
{
    return tu_run(collide_suite());
}
