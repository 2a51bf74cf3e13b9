/* Physics tests of the Verlet solver (solver/state.c, solver/solver.c, solver/distance.c): exact
 * free fall, lengths held, Gauss-Seidel convergence on a hanging rope, momentum conservation, pins,
 * damping, breaks, sweep order, determinism and divergence detection. Models built in code. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver/distance.h"
#include "solver/solver.h"
#include "solver/state.h"
#include "testutil.h"
#include "testutil_check.h"
#include "testutil_models.h"

/* x0 + v0 t + g t^2 / 2 */
static vec3 ballistic(vec3 x0, vec3 v0, vec3 g, double t)
{
    return v3_add(v3_add(x0, v3_scale(v0, t)), v3_scale(g, 0.5 * t * t));
}

/* A rope of n points sampled at equal x along a parabola of depth `sag` below a horizontal
 * chord of length `span`, both ends pinned, links at rest: it is longer than its chord, so
 * it can hang without stretching. Mass 1 kg in all; dt 1/120 s; alternate order. */
static struct model *sagging_rope(size_t n, double span, double sag, int iterations)
{
    struct model *r = model_create();
    ck_assert_ptr_nonnull(r);
    r->dt = 1.0 / 120.0;
    r->iterations = iterations;
    for (size_t i = 0; i < n; i++) {
        double f = (double)i / (double)(n - 1);
        vec3 x = v3(span * f, -4.0 * sag * f * (1.0 - f), 0.0);
        ck_assert_int_ge(model_add_point(r, x, v3(0, 0, 0), 1.0 / (double)n, 0.0, NULL), 0);
    }
    for (size_t i = 0; i + 1 < n; i++)
        ck_assert_int_ge(
            model_add_link(r, (uint32_t)i, (uint32_t)(i + 1), v3_dist(r->x0[i], r->x0[i + 1])), 0);
    model_add_pin(r, 0, r->x0[0]);
    model_add_pin(r, (uint32_t)(n - 1), r->x0[n - 1]);
    return r;
}

/* Total energy, kinetic from Verlet's implicit velocity (x - xprev) / h plus gravitational;
 * points with inverse mass 0 neither move nor count. */
static double energy(const struct model *md, const struct state *st)
{
    const double h = md->dt / md->substeps;
    double e = 0.0;
    for (size_t i = 0; i < md->npoints; i++) {
        if (md->inv_mass[i] == 0.0)
            continue;
        vec3 v = v3_scale(v3_sub(st->x[i], st->xprev[i]), 1.0 / h);
        e += md->mass[i] * (0.5 * v3_dot(v, v) - v3_dot(md->gravity, st->x[i]));
    }
    return e;
}

static int same_state(const struct state *a, const struct state *b)
{
    return a->npoints == b->npoints && a->nlinks == b->nlinks && a->step == b->step &&
           memcmp(&a->t, &b->t, sizeof a->t) == 0 &&
           memcmp(a->x, b->x, a->npoints * sizeof *a->x) == 0 &&
           memcmp(a->xprev, b->xprev, a->npoints * sizeof *a->xprev) == 0 &&
           memcmp(a->alive, b->alive, a->nlinks) == 0;
}

START_TEST(test_state_create)
{
    m = model_create();
    m->dt = 0.1;
    m->substeps = 2;
    model_add_point(m, v3(1, 2, 3), v3(4, 5, 6), 2.0, 0.0, NULL);
    model_add_point(m, v3(7, 8, 9), v3(1, 1, 1), 0.0, 0.0, NULL);
    model_add_link(m, 0, 1, 1.0);
    s = state_create(m);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(s->step, 0);
    ck_assert(s->t == 0.0);
    ck_assert_int_eq(s->alive[0], 1);
    /* Both sides are the same few roundings of the same inputs: 1e-15 is a couple of ulps. */
    double h = 0.05;
    ck_assert_double_eq_tol(s->xprev[0].x, 1.0 - 4.0 * h, 1e-15);
    ck_assert_double_eq_tol(s->xprev[0].y, 2.0 - 5.0 * h - 0.5 * 9.81 * h * h, 1e-15);
    ck_assert_double_eq_tol(s->xprev[0].z, 3.0 - 6.0 * h, 1e-15);
    /* A point of inverse mass 0 has no velocity to encode, whatever v0 says. */
    ck_assert_mem_eq(&s->xprev[1], &m->x0[1], sizeof(vec3));
    ck_assert_mem_eq(&s->x[1], &m->x0[1], sizeof(vec3));
}
END_TEST

/* Free fall with 1 and 4 substeps (the loop index). */
START_TEST(test_free_fall_exact)
{
    const int substeps[] = {1, 4};
    m = model_create();
    m->dims = 3;
    m->dt = 1.0 / 120.0;
    m->substeps = substeps[_i];
    m->gravity = v3(0.5, -9.81, 0.2);
    const vec3 x0 = v3(1, 2, -3), v0 = v3(3, 4, -2);
    model_add_point(m, x0, v0, 1.0, 0.0, NULL);
    s = state_create(m);
    for (long k = 1; k <= 1200; k++) {
        solver_step(m, s);
        /* Time is step * dt, bit for bit: it is multiplied, never accumulated. */
        ck_assert_int_eq(s->step, k);
        ck_assert(s->t == (double)k * m->dt);
        vec3 want = ballistic(x0, v0, m->gravity, s->t);
        /* Verlet started at xprev = x0 - v0 h + g h^2 / 2 reproduces a quadratic exactly, so
         * only round-off remains; each rounding is carried forward linearly in time, which
         * after 4800 substeps leaves ~n^1.5 eps = 4e-11 (measured 4e-12 and 2.3e-11). The
         * issue's 1e-9 relative bound has room to spare. */
        ck_assert_double_le(v3_dist(s->x[0], want), 1e-9 * v3_len(want));
    }
}
END_TEST

START_TEST(test_pendulum_length)
{
    m = model_create();
    m->dt = 1.0 / 120.0;
    m->iterations = 1;
    model_add_point(m, v3(0, 0, 0), v3(0, 0, 0), 0.0, 0.0, NULL);
    model_add_point(m, v3(0.6, -0.8, 0), v3(4, 3, 0), 1.0, 0.0, NULL);
    model_add_link(m, 0, 1, 1.0);
    s = state_create(m);
    for (int k = 0; k < 2400; k++) {
        solver_step(m, s);
        /* With the pivot immovable one projection puts the bob on the circle up to a few
         * roundings (~1e-16); 1e-9 is the bound, far above that. */
        ck_assert_double_eq_tol(v3_dist(s->x[0], s->x[1]), 1.0, 1e-9);
    }
}
END_TEST

/* A 10-point rope, both ends pinned, 1.48 times as long as its 1 m chord, 200 iterations
 * at dt = 1/120: after 8 s with some damping it hangs still, and Gauss-Seidel holds every
 * link to within 1e-7 of its length. The residual comes from gravity's g dt^2 per step that
 * 200 sweeps do not fully remove; measured 3.8e-9 (alternate) and 2.5e-10 (forward). It
 * depends on the sag: a shallower rope is harder (1.2 x chord: 8.6e-7 and 1.8e-7; one end
 * pinned, hanging straight down: 1.2e-5 and 3e-6), so the test fixes the shape. */
START_TEST(test_rope_hangs_within_tolerance)
{
    m = sagging_rope(10, 1.0, 0.5, 200);
    m->damping = 0.99;
    s = state_create(m);
    for (int k = 0; k < 1200; k++) {
        solver_step(m, s);
        if (k >= 960)
            ck_assert_double_lt(solver_max_stretch(m, s) - 1.0, 1e-7);
    }
}
END_TEST

/* The same rope with 30 points keeps a stretch of 5.9e-4 (8e-5 in the measurement):
 * Gauss-Seidel needs ~N^2 sweeps, so 200 are not enough. This records the limit; if it
 * started passing 1e-7 the solver would have changed, and the docs with it. */
START_TEST(test_rope_30_points_not_converged)
{
    m = sagging_rope(30, 1.0, 0.5, 200);
    m->damping = 0.99;
    s = state_create(m);
    for (int k = 0; k < 1200; k++)
        solver_step(m, s);
    ck_assert_double_gt(solver_max_stretch(m, s) - 1.0, 1e-7);
}
END_TEST

/* Free chain of unequal masses, own initial velocities, two links not at rest and one soft
 * link, with 1 or 2 substeps: projections are weighted by inverse mass, so they leave
 * sum m x unchanged and the centre of mass falls as a single particle. */
START_TEST(test_centre_of_mass_free)
{
    const double mass[] = {1.0, 0.3, 2.5, 0.7, 1.1, 4.0};
    const int np = 6;
    m = model_create();
    m->dims = 3;
    m->dt = 1.0 / 120.0;
    m->substeps = 1 + _i;
    m->iterations = 10;
    for (int i = 0; i < np; i++)
        model_add_point(m, v3(0.2 * i, 0.05 * i * i, 0.1 * (i % 2)),
                        v3(1.0 - 0.3 * i, 2.0 + 0.5 * (i % 3), -0.2 * i), mass[i], 0.0, NULL);
    for (int i = 0; i + 1 < np; i++) {
        double d = v3_dist(m->x0[i], m->x0[i + 1]);
        model_add_link(m, (uint32_t)i, (uint32_t)(i + 1), i % 2 ? 0.8 * d : d);
    }
    m->links[2].stiffness = 0.5;
    model_add_link(m, 0, (uint32_t)(np - 1), 1.0);

    double total = 0.0;
    vec3 c0 = v3(0, 0, 0), p0 = v3(0, 0, 0);
    for (int i = 0; i < np; i++) {
        total += mass[i];
        c0 = v3_add(c0, v3_scale(m->x0[i], mass[i]));
        p0 = v3_add(p0, v3_scale(m->v0[i], mass[i]));
    }
    c0 = v3_scale(c0, 1.0 / total);
    const vec3 vc0 = v3_scale(p0, 1.0 / total);

    s = state_create(m);
    for (int k = 0; k < 1200; k++) {
        solver_step(m, s);
        vec3 c = v3(0, 0, 0);
        for (int i = 0; i < np; i++)
            c = v3_add(c, v3_scale(s->x[i], mass[i]));
        c = v3_scale(c, 1.0 / total);
        vec3 want = ballistic(c0, vc0, m->gravity, s->t);
        /* Only round-off: 72000 projections per 1200 steps, each error carried forward by
         * Verlet (measured 5e-12 relative). A projection that ignored the masses would be
         * off by ~1e-2. */
        ck_assert_double_le(v3_dist(c, want), 1e-10 * v3_len(want));
    }
}
END_TEST

/* Pinned points and a point of mass 0 stay where they were put, bit for bit, while a rope
 * with fast initial velocities whips between them. Halfway, one anchor is moved (as a
 * kinematic pin will be): the point follows at once, with xprev too, so it gains no speed. */
START_TEST(test_pins_hold_exactly)
{
    m = sagging_rope(12, 1.0, 0.3, 5);
    m->substeps = 2;
    for (size_t i = 1; i + 1 < m->npoints; i++)
        m->v0[i] = v3(3.0 * sin((double)i), 5.0 * cos((double)i), 0.0);
    /* A third anchor: mass 0 without a pin record. */
    m->inv_mass[6] = 0.0;
    m->mass[6] = 0.0;
    const vec3 fixed6 = m->x0[6];
    s = state_create(m);
    for (int k = 0; k < 600; k++) {
        if (k == 300)
            m->pins[0].at = v3_add(m->pins[0].at, v3(0.1, -0.05, 0.0));
        solver_step(m, s);
        for (size_t p = 0; p < m->npins; p++) {
            ck_assert_mem_eq(&s->x[m->pins[p].point], &m->pins[p].at, sizeof(vec3));
            ck_assert_mem_eq(&s->xprev[m->pins[p].point], &m->pins[p].at, sizeof(vec3));
        }
        ck_assert_mem_eq(&s->x[6], &fixed6, sizeof(vec3));
    }
}
END_TEST

/* A pendulum released from horizontal with damping 0.999 per substep never gains energy,
 * ends with less than an undamped one, and settles near the bottom. */
START_TEST(test_damping_removes_energy)
{
    m = tu_chain(2, v3(0, 0, 0), v3(1, 0, 0), 1.0, 1, 0, 1.0 / 120.0, 1);
    m->damping = 0.999;
    m2 = tu_chain(2, v3(0, 0, 0), v3(1, 0, 0), 1.0, 1, 0, 1.0 / 120.0, 1);
    s = state_create(m);
    s2 = state_create(m2);
    double e = energy(m, s);
    const double e0 = e;
    for (int k = 0; k < 2400; k++) {
        solver_step(m, s);
        solver_step(m2, s2);
        double en = energy(m, s);
        /* Once the bob is at rest the estimate jitters by a few ulps of |E| ~ 5 J (~1e-15);
         * 1e-12 allows that and nothing physical. */
        ck_assert_double_le(en, e + 1e-12);
        e = en;
    }
    /* Bottom: E = -m g L = -4.905 J. Measured -4.84 damped against -4.40 undamped (projection
     * alone dissipates too); both margins are much larger than the tolerances here. */
    ck_assert_double_lt(e, energy(m2, s2) - 0.1);
    ck_assert_double_lt(e - (-4.905), 0.1 * (e0 - (-4.905)));
}
END_TEST

/* A heavy load (10 kg) on a light chain with 2 iterations stretches the last link a little
 * more every step. Run it next to an unbreakable copy: the copies agree bit for bit until the
 * step whose final length first exceeds break_stretch * rest, and the link dies exactly
 * then. Afterwards the load falls freely. */
START_TEST(test_break_under_load)
{
    const double limit = 1.1;
    const size_t last = 3, load = 4;
    for (int copy = 0; copy < 2; copy++) {
        struct model *c = model_create();
        c->dt = 1.0 / 120.0;
        c->iterations = 2;
        tu_add_loaded_chain(c);
        if (copy == 0) {
            c->links[last].break_stretch = limit;
            m = c;
        } else {
            m2 = c;
        }
    }
    s = state_create(m);
    s2 = state_create(m2);

    long broke = -1;
    for (long k = 1; k <= 100 && broke < 0; k++) {
        solver_step(m, s);
        solver_step(m2, s2);
        const struct link *l = &m2->links[last];
        int over = v3_dist(s2->x[l->a], s2->x[l->b]) > limit * l->rest;
        ck_assert_int_eq(s->alive[last], !over);
        if (over)
            broke = k;
        else
            ck_assert(same_state(s, s2));
    }
    ck_assert_int_gt(broke, 1); /* measured: step 18 (stretch 1.097 at 17, 1.108 at 18) */

    /* Free flight from the state at the break: Verlet gives x_k = x + k (x - xprev) +
     * g h^2 k(k+1)/2 exactly but for round-off (measured 6e-14 m after 60 steps, the order
     * of k^2 eps |x|; 1e-12 leaves room and is still ~1e-9 of the distance fallen). */
    const double h = m->dt;
    const vec3 x = s->x[load], dx = v3_sub(s->x[load], s->xprev[load]);
    for (int k = 1; k <= 60; k++) {
        solver_step(m, s);
        vec3 want =
            v3_add(v3_add(x, v3_scale(dx, k)), v3_scale(m->gravity, h * h * k * (k + 1) / 2));
        ck_assert_double_le(v3_dist(s->x[load], want), 1e-12);
    }
    ck_assert_int_eq(s->alive[last], 0);
    /* The dead link is left out of the max stretch and no longer holds the load: it has grown
     * past twice its rest length. */
    double max = 0.0;
    for (size_t i = 0; i < last; i++)
        max = fmax(max, distance_stretch(m, s, i));
    ck_assert(solver_max_stretch(m, s) == max);
    ck_assert_double_gt(distance_stretch(m, s, last), 2.0);
}
END_TEST

/* A bob flung outward stretches its link to 1.1 (more than break_stretch 1.01) in the middle
 * of the step, before the projection; breaks are checked only after it, so it holds. */
START_TEST(test_no_break_mid_step)
{
    m = model_create();
    m->dt = 0.01;
    m->iterations = 1;
    model_add_point(m, v3(0, 0, 0), v3(0, 0, 0), 0.0, 0.0, NULL);
    model_add_point(m, v3(1, 0, 0), v3(10, 0, 0), 1.0, 0.0, NULL);
    const long l = model_add_link(m, 0, 1, 1.0);
    m->links[l].break_stretch = 1.01;
    s = state_create(m);
    solver_step(m, s);
    /* Integration alone puts the bob ballistically ~1 + v dt = 1.1 m from the pivot. */
    vec3 predicted = ballistic(m->x0[1], m->v0[1], m->gravity, m->dt);
    ck_assert_double_gt(v3_dist(predicted, m->x0[0]), 1.01 * m->links[l].rest);
    ck_assert_int_eq(s->alive[l], 1);
    /* One projection against a fixed pivot lands on the rest length but for round-off. */
    ck_assert_double_eq_tol(distance_stretch(m, s, l), 1.0, 1e-12);
}
END_TEST

/* The projection moves each end in inverse proportion to its mass, scaled by stiffness, and
 * skips broken, all-pinned and degenerate links. */
START_TEST(test_distance_project)
{
    m = model_create();
    model_add_point(m, v3(0, 0, 0), v3(0, 0, 0), 1.0, 0.0, NULL);
    model_add_point(m, v3(2, 0, 0), v3(0, 0, 0), 3.0, 0.0, NULL);
    const long l = model_add_link(m, 0, 1, 1.0);
    s = state_create(m);
    /* 1 m too long; w_a = 1, w_b = 1/3: a moves 3/4 of it, b 1/4 (exact in binary up to
     * one rounding of 1/3, hence 1e-15). */
    distance_project(m, s, (size_t)l);
    ck_assert_double_eq_tol(s->x[0].x, 0.75, 1e-15);
    ck_assert_double_eq_tol(s->x[1].x, 1.75, 1e-15);

    /* Stiffness 0.5 removes half the error. */
    s->x[0] = v3(0, 0, 0);
    s->x[1] = v3(0, 3, 0);
    m->links[l].stiffness = 0.5;
    distance_project(m, s, (size_t)l);
    ck_assert_double_eq_tol(distance_stretch(m, s, (size_t)l), 2.0, 1e-15);

    /* Broken, coincident, or both ends immovable: nothing moves. */
    const vec3 before[2] = {s->x[0], s->x[1]};
    s->alive[l] = 0;
    distance_project(m, s, (size_t)l);
    ck_assert_mem_eq(s->x, before, sizeof before);
    s->alive[l] = 1;
    s->x[1] = s->x[0];
    distance_project(m, s, (size_t)l);
    ck_assert_mem_eq(&s->x[1], &s->x[0], sizeof(vec3));
    s->x[1] = v3(5, 0, 0);
    m->inv_mass[0] = m->inv_mass[1] = 0.0;
    distance_project(m, s, (size_t)l);
    ck_assert(s->x[1].x == 5.0);
}
END_TEST

/* Forward and alternate sweeps settle the same rope into different bits, both converged and
 * close to each other. */
START_TEST(test_order_alternate_vs_forward)
{
    m = sagging_rope(10, 1.0, 0.5, 200);
    m->damping = 0.99;
    m->order = ORDER_FORWARD;
    m2 = sagging_rope(10, 1.0, 0.5, 200);
    m2->damping = 0.99;
    m2->order = ORDER_ALTERNATE;
    s = state_create(m);
    s2 = state_create(m2);
    for (int k = 0; k < 1200; k++) {
        solver_step(m, s);
        solver_step(m2, s2);
    }
    ck_assert(memcmp(s->x, s2->x, s->npoints * sizeof *s->x) != 0);
    /* Converged: same bound as test_rope_hangs_within_tolerance. */
    ck_assert_double_lt(solver_max_stretch(m, s) - 1.0, 1e-7);
    ck_assert_double_lt(solver_max_stretch(m2, s2) - 1.0, 1e-7);
    /* Each order settles to the hanging shape plus a bias of order g h^2 that depends on the
     * order: measured 1.5e-5, 3.9e-6, 9.7e-7 m at dt = 1/120, 1/240, 1/480 (it scales as
     * h^2). A tenth of g h^2 (6.8e-5 m) bounds it. */
    const double h = m->dt;
    for (size_t i = 0; i < s->npoints; i++)
        ck_assert_double_le(v3_dist(s->x[i], s2->x[i]), 0.1 * 9.81 * h * h);
}
END_TEST

/* Same model, same code, same bits: every stage (substeps, damping, soft links, alternate
 * order, a break) runs twice and the states are compared with memcmp. */
START_TEST(test_deterministic)
{
    struct model **mm[2] = {&m, &m2};
    struct state **ss[2] = {&s, &s2};
    for (int r = 0; r < 2; r++) {
        struct model *c = sagging_rope(16, 1.0, 0.2, 7);
        c->substeps = 3;
        c->damping = 0.995;
        c->links[4].stiffness = 0.7;
        c->links[9].break_stretch = 1.0005;
        for (size_t i = 1; i + 1 < c->npoints; i++)
            c->v0[i] = v3(cos(3.0 * (double)i), sin(2.0 * (double)i), 0.0);
        *mm[r] = c;
        *ss[r] = state_create(c);
        for (int k = 0; k < 500; k++)
            solver_step(c, *ss[r]);
    }
    ck_assert(same_state(s, s2));
    ck_assert_int_eq(s->alive[9], 0); /* the break really happened in both */
}
END_TEST

START_TEST(test_find_diverged)
{
    m = tu_chain(8, v3(0, 0, 0), v3(1, 0, 0), 1.0, 1, 0, 1.0 / 60.0, 10);
    s = state_create(m);
    for (int k = 0; k < 30; k++)
        solver_step(m, s);
    ck_assert_int_eq(solver_find_diverged(s), -1);

    s->x[5].y = NAN;
    ck_assert_int_eq(solver_find_diverged(s), 5);
    s->x[3].z = INFINITY;
    ck_assert_int_eq(solver_find_diverged(s), 3);
    s->x[3].z = 0.0;
    s->x[5].y = 0.0;
    s->x[6].x = -2.0 * SOLVER_ABSURD;
    ck_assert_int_eq(solver_find_diverged(s), 6);

    /* A NaN from the state spreads through its links on the next step and is still found. */
    s->x[6].x = 0.0;
    s->x[4].x = NAN;
    solver_step(m, s);
    ck_assert_int_ge(solver_find_diverged(s), 0);
}
END_TEST

/* Building: model_add_* grow their arrays past every power of two with the contents intact,
 * and a clone, whose arrays are exactly as long as their contents, takes appends of its own
 * (it shares no room with the original, which stays as it was). */
START_TEST(test_model_grows_and_clone_appends)
{
    m = model_create();
    ck_assert_ptr_nonnull(m);
    const size_t n = 1000, more = 37;
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(model_add_point(m, v3((double)i, 0, 0), v3(0, 0, 0), 1.0, 0.0, NULL),
                         (long)i);
        if (i > 0)
            ck_assert_int_eq(model_add_link(m, (uint32_t)(i - 1), (uint32_t)i, 1.0), (long)i - 1);
        ck_assert_int_eq(model_add_key(m, (double)i, v3(0, (double)i, 0)), (long)i);
    }
    m2 = model_clone(m);
    ck_assert_ptr_nonnull(m2);
    for (size_t i = n; i < n + more; i++) {
        ck_assert_int_eq(model_add_point(m2, v3((double)i, 0, 0), v3(0, 0, 0), 2.0, 0.0, "p"),
                         (long)i);
        ck_assert_int_eq(model_add_link(m2, (uint32_t)(i - 1), (uint32_t)i, 2.0), (long)i - 1);
        ck_assert_int_eq(model_add_key(m2, (double)i, v3(0, (double)i, 0)), (long)i);
        ck_assert_int_eq(model_add_pin(m2, (uint32_t)i, v3((double)i, 1, 0)), (long)(i - n));
    }
    ck_assert_uint_eq(m2->npoints, n + more);
    for (size_t i = 0; i < n + more; i++) {
        ck_assert_double_eq(m2->x0[i].x, (double)i);
        ck_assert_double_eq(m2->key_x[i].y, (double)i);
        ck_assert_double_eq(m2->mass[i], i < n ? 1.0 : 2.0);
        if (i > 0)
            ck_assert_uint_eq(m2->links[i - 1].b, i);
    }
    ck_assert_double_eq(m2->x0[n + more - 1].y, 1.0); /* where its pin holds it */
    ck_assert_str_eq(m2->point_name[n], "p");
    ck_assert_uint_eq(m->npoints, n);
    ck_assert_uint_eq(m->nlinks, n - 1);
    ck_assert_uint_eq(m->npins, 0);
    for (size_t i = 0; i < n; i++)
        ck_assert_double_eq(m->inv_mass[i], 1.0);
}
END_TEST

static Suite *solver_suite(void)
{
    Suite *su = suite_create("solver");
    TCase *tc = tu_tcase(su, "verlet", tu_models_setup, tu_models_teardown);
    tcase_add_test(tc, test_state_create);
    tcase_add_loop_test(tc, test_free_fall_exact, 0, 2);
    tcase_add_test(tc, test_pendulum_length);
    tcase_add_test(tc, test_rope_hangs_within_tolerance);
    tcase_add_test(tc, test_rope_30_points_not_converged);
    tcase_add_loop_test(tc, test_centre_of_mass_free, 0, 2);
    tcase_add_test(tc, test_pins_hold_exactly);
    tcase_add_test(tc, test_damping_removes_energy);
    tcase_add_test(tc, test_break_under_load);
    tcase_add_test(tc, test_no_break_mid_step);
    tcase_add_test(tc, test_distance_project);
    tcase_add_test(tc, test_order_alternate_vs_forward);
    tcase_add_test(tc, test_deterministic);
    tcase_add_test(tc, test_find_diverged);
    tcase_add_test(tc, test_model_grows_and_clone_appends);
    return su;
}

int main(void)
{
    return tu_run(solver_suite());
}
