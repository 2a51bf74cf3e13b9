/* Coulomb friction (solver/collide/collide.c) against references computed independently of
 * catena (issue 17): a point on an inclined plane sticks below the friction angle, tan theta
 * = mu_s, and slides above it at g (sin theta - mu_k cos theta); a rope on the plane does the
 * same under the direct projection (solver.global); a rope over a frictional cylinder holds
 * unequal loads up to the capstan ratio e^(mu pi) (Euler-Eytelwein); a load on a table held by
 * friction against a weight hanging from a rope over a frictionless pulley, which slides at
 * the Atwood-with-friction acceleration once the weight is over mu M; and self-collision
 * (points on points, a rod across a rod) with the same threshold. Models are built in code. */
#include <check.h>
#include <math.h>
#include <stdio.h>

#include "model/model.h"
#include "solver/solver.h"
#include "solver/state.h"
#include "testutil_check.h"
#include "testutil_models.h"

#define PI 3.14159265358979323846
#define G 9.81

static const enum solver_method methods[] = {METHOD_VERLET, METHOD_PBD, METHOD_XPBD};
static const char *const method_names[] = {"verlet", "pbd", "xpbd"};

static struct friction mu(double stat, double dyn)
{
    return (struct friction){.stat = stat, .dyn = dyn};
}

/* An empty 2D model under gravity (0, -9.81). */
static struct model *empty(enum solver_method method, double dt, double seconds, int substeps,
                           int iterations)
{
    struct model *md = model_create();
    ck_assert_ptr_nonnull(md);
    md->method = method;
    md->dt = dt;
    md->steps = lround(seconds / dt);
    md->substeps = substeps;
    md->iterations = iterations;
    return md;
}

static uint32_t point(struct model *md, vec3 x, double mass, double radius)
{
    const long i = model_add_point(md, x, v3(0, 0, 0), mass, radius, NULL);
    ck_assert_int_ge(i, 0);
    return (uint32_t)i;
}

static void link(struct model *md, uint32_t a, uint32_t b)
{
    ck_assert_int_ge(model_add_link(md, a, b, v3_dist(md->x0[a], md->x0[b])), 0);
}

static void obstacle(struct model *md, struct obstacle o)
{
    obstacle_bounds(&o);
    ck_assert_int_ge(model_add_obstacle(md, &o), 0);
}

/* ---- an inclined plane ---- */

/* The plane through the origin inclined at theta (counter-clockwise), its unit vector down
 * the slope, and its normal. */
static vec3 slope_down(double theta)
{
    return v3(-cos(theta), -sin(theta), 0);
}

static vec3 slope_normal(double theta)
{
    return v3(-sin(theta), cos(theta), 0);
}

/* A 1 kg point of radius 0.1 m at rest on that plane. */
static struct model *point_on_slope(double theta, struct friction f, enum solver_method method,
                                    double dt, int substeps)
{
    struct model *md = empty(method, dt, 2.0, substeps, 10);
    point(md, v3_scale(slope_normal(theta), 0.1), 1.0, 0.1);
    obstacle(md,
             (struct obstacle){.type = OBSTACLE_PLANE, .n = slope_normal(theta), .friction = f});
    return md;
}

/* Steps md from rest; the largest distance any point moves from where it started, and in
 * *accel the largest relative error of the acceleration down the slope (second differences
 * of the points' mean distance down it) against `expect` over every step after the second
 * (0 when expect is 0). */
static double slide(struct model *md, double theta, double expect, double *accel)
{
    s = state_create(md);
    ck_assert_ptr_nonnull(s);
    const vec3 down = slope_down(theta);
    double moved = 0.0, d[3] = {0, 0, 0}, worst = 0.0;
    for (long k = 0; k < md->steps; k++) {
        solver_step(md, s);
        double along = 0.0;
        for (size_t i = 0; i < md->npoints; i++) {
            moved = fmax(moved, v3_dist(s->x[i], md->x0[i]));
            along += v3_dot(v3_sub(s->x[i], md->x0[i]), down) / (double)md->npoints;
        }
        d[0] = d[1];
        d[1] = d[2];
        d[2] = along;
        if (k >= 2 && expect > 0.0) {
            const double a = (d[2] - 2.0 * d[1] + d[0]) / (md->dt * md->dt);
            worst = fmax(worst, fabs(a - expect) / expect);
        }
    }
    *accel = worst;
    return moved;
}

/* The test: a point on a 25 degree slope sticks with mu 0.6 (moves less than 1e-6 m
 * in 2 s; tan 25 = 0.466) and slides with mu 0.25 at g (sin - mu cos), each step's
 * acceleration within 1 % (the bound; its "done when" asks 2 %), at dt 1/120 and
 * 1/480 and for every method. Measured: it moves 0 to 1e-18 m, and the acceleration is exact to
 * 1e-11 relative: a resting contact removes exactly the normal g cos h^2 of each substep, and
 * mu times it from the tangential g sin h^2. (The fraction model it replaced crept 28 mm in 2 s
 * on a 10 degree slope at "friction" 0.5, and slid at a speed set by the step.) Loop: method,
 * then the step. */
START_TEST(test_slope_sticks_and_slides)
{
    const double th = 25.0 * PI / 180.0, dt = _i % 2 ? 1.0 / 480.0 : 1.0 / 120.0;
    const enum solver_method method = methods[_i / 2];
    double err;
    m = point_on_slope(th, mu(0.6, 0.6), method, dt, 1);
    const double stuck = slide(m, th, 0.0, &err);
    ck_assert_msg(stuck < 1e-6, "%s, dt %g: mu 0.6 moved %g m", method_names[_i / 2], dt, stuck);
    state_destroy(s);
    model_destroy(m);
    s = NULL;
    m = point_on_slope(th, mu(0.25, 0.25), method, dt, 1);
    const double expect = G * (sin(th) - 0.25 * cos(th));
    const double moved = slide(m, th, expect, &err);
    ck_assert_msg(err < 0.01, "%s, dt %g: acceleration off by %g", method_names[_i / 2], dt, err);
    /* and it did slide: half a t^2 = 3.8 m in 2 s */
    ck_assert_double_gt(moved, 3.5);
}
END_TEST

/* Sticking does not depend on the substeps (the fraction model crept by a fraction of every
 * substep's displacement, so more substeps crept more): mu 0.5 on 25 degrees with 1, 4 and 16
 * substeps of 1/120 s. Loop: method. */
START_TEST(test_stick_any_substeps)
{
    const double th = 25.0 * PI / 180.0;
    for (int sub = 1; sub <= 16; sub *= 4) {
        double err;
        m = point_on_slope(th, mu(0.5, 0.5), methods[_i], 1.0 / 120.0, sub);
        const double moved = slide(m, th, 0.0, &err);
        ck_assert_msg(moved < 1e-6, "%s, %d substeps: moved %g m", method_names[_i], sub, moved);
        state_destroy(s);
        model_destroy(m);
        s = NULL;
        m = NULL;
    }
}
END_TEST

/* The stick/slip threshold is tan theta = mu_s (the issue asks within 1 degree): 1 degree below
 * the friction angle the point stays (< 1e-6 m in 2 s), 1 degree above it slides at
 * g (sin theta - mu_k cos theta) within 1 %, for mu_s = mu_k = 0.3 and 1.2 and for
 * mu_s 0.6 with mu_k 0.3 (where the point, at rest, must not start although tan theta is
 * well above mu_k). Loop: method. */
START_TEST(test_stick_slip_threshold)
{
    const struct friction cases[] = {mu(0.3, 0.3), mu(1.2, 1.2), mu(0.6, 0.3)};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        const double angle = atan(cases[c].stat);
        for (int side = -1; side <= 1; side += 2) {
            const double th = angle + side * PI / 180.0;
            const double expect = side > 0 ? G * (sin(th) - cases[c].dyn * cos(th)) : 0.0;
            double err;
            m = point_on_slope(th, cases[c], methods[_i], 1.0 / 120.0, 1);
            const double moved = slide(m, th, expect, &err);
            if (side < 0) {
                ck_assert_msg(moved < 1e-6, "%s, mu_s %g, %g deg: moved %g m", method_names[_i],
                              cases[c].stat, th * 180.0 / PI, moved);
            } else {
                ck_assert_msg(err < 0.01, "%s, mu_s %g, %g deg: acceleration off by %g",
                              method_names[_i], cases[c].stat, th * 180.0 / PI, err);
                ck_assert_double_gt(moved, 0.2 * expect); /* 0.5 a t^2 = 2 a over 2 s */
            }
            state_destroy(s);
            model_destroy(m);
            s = NULL;
            m = NULL;
        }
    }
}
END_TEST

/* A rope of 10 links (1 kg, 2 m) lying along the 25 degree slope, under the direct projection
 * (solver.global) and under Gauss-Seidel: it sticks with mu 0.6 (< 1e-6 m in 2 s) and slides
 * as one piece with mu 0.25 at g (sin - mu cos) within 1 % (measured 1e-11: every point carries
 * the same load). Loop: verlet and xpbd (both own rigid links in the global solve), global off
 * and on. */
START_TEST(test_rope_on_slope)
{
    const double th = 25.0 * PI / 180.0, r = 0.05;
    const enum solver_method method = _i / 2 ? METHOD_XPBD : METHOD_VERLET;
    for (int slides = 0; slides <= 1; slides++) {
        const double k = slides ? 0.25 : 0.6;
        m = empty(method, 1.0 / 120.0, 2.0, 1, 10);
        m->global = _i % 2;
        const vec3 up = v3_scale(slope_down(th), -1.0), n = slope_normal(th);
        uint32_t prev = 0;
        for (int j = 0; j <= 10; j++) {
            const uint32_t p =
                point(m, v3_add(v3_scale(n, r), v3_scale(up, 0.2 * j - 1.0)), 1.0 / 11.0, r);
            if (j > 0)
                link(m, prev, p);
            prev = p;
        }
        obstacle(m, (struct obstacle){.type = OBSTACLE_PLANE, .n = n, .friction = mu(k, k)});
        const double expect = slides ? G * (sin(th) - k * cos(th)) : 0.0;
        double err;
        const double moved = slide(m, th, expect, &err);
        if (slides)
            ck_assert_msg(err < 0.01, "global %d: acceleration off by %g", _i % 2, err);
        else
            ck_assert_msg(moved < 1e-6, "global %d: mu 0.6 moved %g m", _i % 2, moved);
        state_destroy(s);
        model_destroy(m);
        s = NULL;
        m = NULL;
    }
}
END_TEST

/* ---- the capstan ---- */

/* A rope over a cylinder of radius 0.5 m (a disc in 2D) with friction mu: from a 1 kg load
 * hanging 1 m on the left, up to the top and down 1 m on the right to a load of `ratio` kg;
 * the half turn over the top has `arc` links (each turning pi / arc) and the rope's other
 * points weigh 0.1 kg together. Returns the index of the heavy load. */
static uint32_t capstan(struct model *md, double k, double ratio, int arc)
{
    const double rp = 0.01, rc = 0.5 + rp, spacing = PI * rc / arc;
    const int hang = (int)lround(1.0 / spacing);
    const int n = 2 * hang + arc + 1;
    const double light = 0.1 / (n - 2);
    uint32_t prev = 0;
    for (int j = 0; j < n; j++) {
        vec3 x;
        if (j < hang)
            x = v3(-rc, -1.0 + j * (1.0 / hang), 0);
        else if (j <= hang + arc)
            x = v3(rc * cos(PI * (1.0 - (double)(j - hang) / arc)),
                   rc * sin(PI * (1.0 - (double)(j - hang) / arc)), 0);
        else
            x = v3(rc, -(j - hang - arc) * (1.0 / hang), 0);
        const uint32_t p = point(md, x, j == 0 ? 1.0 : j == n - 1 ? ratio : light, rp);
        if (j > 0)
            link(md, prev, p);
        prev = p;
    }
    obstacle(md, (struct obstacle){.type = OBSTACLE_SPHERE, .r = 0.5, .friction = mu(k, k)});
    return prev;
}

/* How far the heavy load sinks in the second half of 1 s from rest. */
static double capstan_slip(enum solver_method method, double k, double ratio)
{
    m = empty(method, 1.0 / 120.0, 1.0, 8, 50);
    const uint32_t heavy = capstan(m, k, ratio, 16);
    s = state_create(m);
    ck_assert_ptr_nonnull(s);
    double half = 0.0;
    for (long j = 0; j < m->steps; j++) {
        if (j == m->steps / 2)
            half = s->x[heavy].y;
        solver_step(m, s);
    }
    const double sink = half - s->x[heavy].y;
    state_destroy(s);
    model_destroy(m);
    s = NULL;
    m = NULL;
    return sink;
}

/* The capstan equation: a rope over a cylinder holds loads up to T2 / T1 = e^(mu pi) for a
 * half turn (1.874 at mu 0.2, 3.514 at mu 0.4). With the half turn in 16 links (pi/16 a
 * point; the polygon's own threshold, the product of (1 + mu tan(phi/2)) / (1 - mu tan(phi/2))
 * over its corners, is within 0.3 % of e^(mu pi)), 8 substeps of 1/120 s and 50 iterations,
 * the load at 95 % of the ratio holds (after the rope takes up its load in the first 0.5 s,
 * the heavy end moves less than 1 mm in the next 0.5 s) and at 105 % it slips (more than
 * 1 cm). Bisected, the threshold is at 0.988-0.994 e^(mu pi) for mu 0.2 and 0.975-0.981 for
 * 0.4, every method; 8 links give 1.013-1.019 and 1.031-1.038 (the coarser polygon grips
 * more), 32 links need 200 iterations for the same (at 50 the rope, not converged, slips at
 * 0.71). Loop: method, then mu. */
START_TEST(test_capstan)
{
    const double k = _i % 2 ? 0.4 : 0.2, e = exp(k * PI);
    const enum solver_method method = methods[_i / 2];
    const double held = capstan_slip(method, k, 0.95 * e);
    ck_assert_msg(fabs(held) < 1e-3, "%s, mu %g: 0.95 e^(mu pi) slipped %g m", method_names[_i / 2],
                  k, held);
    const double slipped = capstan_slip(method, k, 1.05 * e);
    ck_assert_msg(slipped > 1e-2, "%s, mu %g: 1.05 e^(mu pi) slipped only %g m",
                  method_names[_i / 2], k, slipped);
}
END_TEST

/* ---- a load on a table ---- */

/* A 1 kg square load, 0.4 m by 0.2 m, of four rigidly braced points on a table (a box, friction
 * mu 0.5), tied at its top corner to a rope (0.02 kg) running level to a frictionless pulley of
 * radius 0.2 m, round a quarter of it and down to a weight of `hang` kg. Returns the rope's
 * pull on the load by its own weight at the start (its points' weights along their direction of
 * travel), in N, in *rope_pull, and the rope's mass in *rope_mass. */
static void table(struct model *md, double hang, double *rope_pull, double *rope_mass)
{
    const double r = 0.02, top = r + 0.2, rp = 0.005, rc = 0.2 + rp, px = 1.2, pyc = top - rc;
    uint32_t b[4];
    const vec3 corner[4] = {v3(0, r, 0), v3(0.4, r, 0), v3(0.4, top, 0), v3(0, top, 0)};
    for (int j = 0; j < 4; j++)
        b[j] = point(md, corner[j], 0.25, r);
    for (int j = 0; j < 4; j++)
        link(md, b[j], b[(j + 1) % 4]);
    link(md, b[0], b[2]);
    link(md, b[1], b[3]);
    const int level = 10, arc = 8, down = 5, n = level + arc + down;
    const double light = 0.02 / n;
    uint32_t prev = b[2];
    *rope_pull = 0.0;
    *rope_mass = 0.0;
    for (int j = 1; j <= n; j++) {
        vec3 x;
        double along = 1.0; /* the downward part of the direction it travels in */
        if (j <= level) {
            x = v3(0.4 + (px - 0.4) * j / level, top, 0);
            along = 0.0;
        } else if (j <= level + arc) {
            const double a = 0.5 * PI * (1.0 - (double)(j - level) / arc);
            x = v3(px + rc * cos(a), pyc + rc * sin(a), 0);
            along = cos(a);
        } else {
            x = v3(px + rc, pyc - 0.1 * (j - level - arc), 0);
        }
        const double mass = j == n ? hang : light;
        const uint32_t p = point(md, x, mass, rp);
        link(md, prev, p);
        prev = p;
        if (j < n) {
            *rope_pull += light * G * along;
            *rope_mass += light;
        }
    }
    obstacle(md, (struct obstacle){.type = OBSTACLE_BOX,
                                   .p = v3(0, -0.5, 0),
                                   .half = v3(1.1, 0.5, INFINITY),
                                   .rot = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
                                   .friction = mu(0.5, 0.5)});
    obstacle(md, (struct obstacle){.type = OBSTACLE_SPHERE, .p = v3(px, pyc, 0), .r = 0.2});
}

/* Steps the table for 0.6 s (16 substeps of 1/120 s, 30 iterations); the load's travel in
 * the first and second halves, and the acceleration of a least-squares parabola through its
 * position from 0.1 s on. */
static void table_run(enum solver_method method, double hang, double travel[2], double *accel,
                      double *expect)
{
    double pull, rope;
    m = empty(method, 1.0 / 120.0, 0.6, 16, 30);
    table(m, hang, &pull, &rope);
    /* Atwood's machine with friction: (m g + rope's pull - mu M g) / (M + m + rope) */
    *expect = (hang * G + pull - 0.5 * 1.0 * G) / (1.0 + hang + rope);
    s = state_create(m);
    ck_assert_ptr_nonnull(s);
    double sum[5] = {0}, rhs[3] = {0}; /* sums of t^k and x t^k for the fit */
    double half = 0.0;
    for (long j = 0; j < m->steps; j++) {
        if (j == m->steps / 2)
            half = s->x[0].x;
        solver_step(m, s);
        const double t = (double)(j + 1) * m->dt, x = s->x[0].x;
        if (t < 0.1)
            continue;
        for (int p = 0; p < 5; p++)
            sum[p] += pow(t, p);
        for (int p = 0; p < 3; p++)
            rhs[p] += x * pow(t, p);
    }
    travel[0] = half - m->x0[0].x;
    travel[1] = s->x[0].x - half;
    /* The normal equations of x = c0 + c1 t + c2 t^2, c2 by Cramer's rule. */
    const double A[3][3] = {
        {sum[0], sum[1], sum[2]}, {sum[1], sum[2], sum[3]}, {sum[2], sum[3], sum[4]}};
#define DET3(a)                                                                                    \
    ((a)[0][0] * ((a)[1][1] * (a)[2][2] - (a)[1][2] * (a)[2][1]) -                                 \
     (a)[0][1] * ((a)[1][0] * (a)[2][2] - (a)[1][2] * (a)[2][0]) +                                 \
     (a)[0][2] * ((a)[1][0] * (a)[2][1] - (a)[1][1] * (a)[2][0]))
    const double C[3][3] = {
        {sum[0], sum[1], rhs[0]}, {sum[1], sum[2], rhs[1]}, {sum[2], sum[3], rhs[2]}};
    *accel = 2.0 * DET3(C) / DET3(A);
#undef DET3
    state_destroy(s);
    model_destroy(m);
    s = NULL;
    m = NULL;
}

/* Held by friction: with the weight at 0.8 mu M the load stops after the rope takes up the
 * weight (it moves 1.1 mm in the first 0.3 s while the rope, whose light points do not
 * converge at once against the 1 kg load, stretches and recoils) and then not at all (< 1e-6 m
 * in the next 0.3 s). Slipping: at 1.5 mu M it slides at the Atwood acceleration with friction
 * within 2 % (measured 0.3 %; at 1.1 and 1.2 mu M the rope's recoil is still in the fit, 3.3
 * and 1.3 %). Loop: method. */
START_TEST(test_load_on_table)
{
    double travel[2], accel, expect;
    table_run(methods[_i], 0.8 * 0.5, travel, &accel, &expect);
    ck_assert_msg(travel[0] < 2e-3, "%s: the held load moved %g m", method_names[_i], travel[0]);
    ck_assert_msg(fabs(travel[1]) < 1e-6, "%s: the held load still moved %g m", method_names[_i],
                  travel[1]);
    table_run(methods[_i], 1.5 * 0.5, travel, &accel, &expect);
    ck_assert_msg(fabs(accel - expect) < 0.02 * expect, "%s: slides at %g m/s^2, expected %g",
                  method_names[_i], accel, expect);
}
END_TEST

/* ---- self-collision ---- */

/* A body of two points 2 r = 2 m apart (no link between them): point 0 pinned at the
 * origin, point 1 (1 kg) resting on it at angle theta from the vertical, so their contact's
 * tangent is a slope of theta; friction f between them. */
static struct model *ball_on_ball(double theta, struct friction f, enum solver_method method)
{
    struct model *md = empty(method, 1.0 / 120.0, 2.0, 1, 10);
    point(md, v3(0, 0, 0), 0.0, 1.0);
    point(md, v3_scale(slope_normal(theta), 2.0), 1.0, 1.0);
    const long b = model_add_body(md, "ball", BODY_CLOTH);
    ck_assert_int_ge(b, 0);
    md->bodies[b].npoints = 2;
    md->bodies[b].self_radius = 1.0;
    md->bodies[b].self_friction = f;
    return md;
}

/* Self-collision of points has the same threshold: 1 degree below the friction angle of
 * mu 0.5 the upper point stays on the pinned one (< 1e-6 m in 2 s); 3 degrees above it, it
 * starts to slide at g (sin - mu cos), within 2 % over its first 6 steps: measured 1.1 %, from
 * the ball's curvature (the slope under the point turns by its travel over 2 m; at 2 r =
 * 0.2 m it is 10 times as much). Loop: method. */
START_TEST(test_self_points_threshold)
{
    const double angle = atan(0.5);
    double err;
    m = ball_on_ball(angle - PI / 180.0, mu(0.5, 0.5), methods[_i]);
    const double moved = slide(m, angle, 0.0, &err);
    ck_assert_msg(moved < 1e-6, "%s: moved %g m", method_names[_i], moved);
    state_destroy(s);
    model_destroy(m);
    s = NULL;
    const double th = angle + 3.0 * PI / 180.0;
    m = ball_on_ball(th, mu(0.5, 0.5), methods[_i]);
    m->steps = 6;
    /* the mean of the two points: the pinned one does not move, so half the free one's */
    const double a = 0.5 * G * (sin(th) - 0.5 * cos(th));
    slide(m, th, a, &err);
    ck_assert_msg(err < 0.02, "%s: acceleration off by %g", method_names[_i], err);
}
END_TEST

/* A rod of 1 m (two 0.5 kg points, 3D) lying across a pinned rod of the same rope body,
 * inclined at theta, the two 2 r = 0.1 m apart: segment self-collision with friction f. */
static struct model *rod_across_rod(double theta, struct friction f, enum solver_method method)
{
    struct model *md = empty(method, 1.0 / 120.0, 1.0, 1, 10);
    md->dims = 3;
    const vec3 u = v3_scale(slope_down(theta), -1.0), c = v3_scale(slope_normal(theta), 0.1);
    point(md, v3_scale(u, -1.0), 0.0, 0.0);
    point(md, u, 0.0, 0.0);
    point(md, v3_add(c, v3(0, 0, -0.5)), 0.5, 0.0);
    point(md, v3_add(c, v3(0, 0, 0.5)), 0.5, 0.0);
    link(md, 0, 1);
    link(md, 2, 3);
    const long b = model_add_body(md, "rods", BODY_ROPE);
    ck_assert_int_ge(b, 0);
    md->bodies[b].npoints = 4;
    md->bodies[b].nlinks = 2;
    md->bodies[b].self_radius = 0.05;
    md->bodies[b].self_friction = f;
    return md;
}

/* Segments too: the rod across the pinned one stays 1 degree below the friction angle of
 * mu_s 0.6 (< 1e-6 m in 1 s) and slides 1 degree above it at g (sin - mu_k cos) with
 * mu_k 0.4, within 1 % (measured 1e-11). Loop: method. */
START_TEST(test_self_segments_threshold)
{
    const double angle = atan(0.6);
    double err;
    m = rod_across_rod(angle - PI / 180.0, mu(0.6, 0.4), methods[_i]);
    const double moved = slide(m, angle, 0.0, &err);
    ck_assert_msg(moved < 1e-6, "%s: moved %g m", method_names[_i], moved);
    state_destroy(s);
    model_destroy(m);
    s = NULL;
    const double th = angle + PI / 180.0;
    m = rod_across_rod(th, mu(0.6, 0.4), methods[_i]);
    const double a = 0.5 * G * (sin(th) - 0.4 * cos(th)); /* mean of two still, two moving */
    slide(m, th, a, &err);
    ck_assert_msg(err < 0.01, "%s: acceleration off by %g", method_names[_i], err);
}
END_TEST

static Suite *friction_suite(void)
{
    Suite *su = suite_create("friction");
    TCase *tc = tu_tcase(su, "friction", tu_models_setup, tu_models_teardown);
    tcase_add_loop_test(tc, test_slope_sticks_and_slides, 0, 6);
    tcase_add_loop_test(tc, test_stick_any_substeps, 0, 3);
    tcase_add_loop_test(tc, test_stick_slip_threshold, 0, 3);
    tcase_add_loop_test(tc, test_rope_on_slope, 0, 4);
    tcase_add_loop_test(tc, test_capstan, 0, 6);
    tcase_add_loop_test(tc, test_load_on_table, 0, 3);
    tcase_add_loop_test(tc, test_self_points_threshold, 0, 3);
    tcase_add_loop_test(tc, test_self_segments_threshold, 0, 3);
    return su;
}

int main(void)
{
    return tu_run(friction_suite());
}
