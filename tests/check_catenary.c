/* Tests of the catenary analysis core (analysis/catenary.c): the analytic curve through two
 * points, the exact discrete chain (rigid and extensible) and its O(1/N^2) convergence to the
 * curve, the least-squares fit, the error metrics and the projection of 3D chains. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/catenary.h"
#include "testutil_check.h"

/* Slack ratios length/chord from nearly taut to very slack, and end-point layouts: equal
 * heights, unequal heights, mirrored (x2 < x1) with a steep chord. */
static const double ratios[] = {1.0001, 1.01, 1.2, 2, 10, 50};
#define NRATIOS (sizeof ratios / sizeof ratios[0])
static const vec3 ends[][2] = {
    {{0, 0, 0}, {10, 0, 0}},
    {{0, 0, 0}, {10, 3, 0}},
    {{2, 1, 0}, {-8, -30, 0}},
};
#define NENDS (sizeof ends / sizeof ends[0])

#define PI 3.14159265358979323846

/* Deterministic normal deviates (xorshift64* and Box-Muller), the same on every platform. */
static uint64_t rng = 0x9E3779B97F4A7C15u;
static double uniform(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return ((rng * 0x2545F4914F6CDD1Du) >> 11) * 0x1.0p-53;
}
static double gaussian(void)
{
    const double u = uniform(), v = uniform();
    return sqrt(-2 * log(1 - u)) * cos(2 * PI * v);
}

/* --- the analytic curve ------------------------------------------------------------------ */

START_TEST(test_through_ends_and_length)
{
    const vec3 p1 = ends[_i % NENDS][0], p2 = ends[_i % NENDS][1];
    const double ratio = ratios[_i / NENDS], L = ratio * v3_dist(p1, p2);
    const double span = fabs(p2.x - p1.x);
    struct catenary c;
    struct catena_error err;
    ck_assert_int_eq(catenary_through(p1, p2, L, &c, &err), CATENA_OK);
    ck_assert(c.a > 0);
    /* y0 + a cosh(u) rounds at eps x (|y0| + a cosh u): at most ~1000 eps x span here (a ~ 20
     * spans when nearly taut, heights ~ 80 spans when slack with a steep chord). */
    ck_assert_double_eq_tol(catenary_y(&c, p1.x), p1.y, 1e-12 * span);
    ck_assert_double_eq_tol(catenary_y(&c, p2.x), p2.y, 1e-12 * span);
    /* The arc length is a product of well-conditioned factors: round-off level. */
    ck_assert_double_eq_tol(fabs(catenary_arclen(&c, p1.x, p2.x)), L, 1e-10 * L);
}
END_TEST

/* Nearly taut beyond the range: a ~ 2000 spans, so the curve only holds the ends to
 * eps * a; the parameter itself follows the small-sag law a = h^2 / sqrt(24 h (L - h)). */
START_TEST(test_through_extremely_taut)
{
    const double h = 10, L = h * (1 + 1e-8);
    struct catenary c;
    ck_assert_int_eq(catenary_through(v3(0, 0, 0), v3(h, 0, 0), L, &c, NULL), CATENA_OK);
    ck_assert_double_eq_tol(catenary_y(&c, h), 0, 1e-10 * h);
    ck_assert_double_eq_tol(catenary_arclen(&c, 0, h), L, 1e-14 * L);
    /* Relative error of the small-sag law is O(sag/span)^2 ~ 1e-8. */
    ck_assert_double_eq_tol(c.a, h * h / sqrt(24 * h * (L - h)), 1e-7 * c.a);
    ck_assert_double_eq_tol(c.x0, 5, 1e-12 * h);
}
END_TEST

START_TEST(test_through_rejects)
{
    struct catenary c;
    struct catena_error err;
    ck_assert_int_eq(catenary_through(v3(1, 0, 0), v3(1, -5, 0), 10, &c, &err), CATENA_EINPUT);
    ck_assert_str_eq(err.msg, "the ends are vertically above each other (x = 1): no catenary "
                              "joins them");
    ck_assert_int_eq(catenary_through(v3(0, 0, 0), v3(3, 4, 0), 5, &c, &err), CATENA_EINPUT);
    ck_assert_str_eq(err.msg, "length 5 is not longer than the distance 5 between the ends");
    ck_assert_int_eq(catenary_through(v3(0, 0, 0), v3(3, 4, 0), 4, &c, &err), CATENA_EINPUT);
    ck_assert_int_eq(catenary_through(v3(0, 0, 0), v3(3, NAN, 0), 9, &c, &err), CATENA_EINPUT);
}
END_TEST

/* a = 2 with the vertex at (1, -1): every quantity has a closed form. */
START_TEST(test_curve_quantities)
{
    const struct catenary c = {2, 1, -3};
    const double tol = 1e-14 * 8; /* round-off of cosh/sinh/asinh on values of a few units */
    ck_assert_double_eq_tol(catenary_y(&c, 1), -1, tol);
    ck_assert_double_eq_tol(catenary_slope(&c, 3), sinh(1), tol);
    ck_assert_double_eq_tol(catenary_arclen(&c, 1, 5), 2 * sinh(2), tol);
    ck_assert_double_eq_tol(catenary_arclen(&c, 5, 1), -2 * sinh(2), tol);
    const vec3 q = catenary_point_at_arclen(&c, -1, 2 * sinh(1) + 2 * sinh(2));
    ck_assert_double_eq_tol(q.x, 5, tol);
    ck_assert_double_eq_tol(q.y, -3 + 2 * cosh(2), tol);
    /* Vertex inside the interval, then outside it on either side. */
    vec3 low = catenary_lowest(&c, 4, -2);
    ck_assert(low.x == 1 && low.y == -1);
    low = catenary_lowest(&c, 2, 4);
    ck_assert_double_eq_tol(low.x, 2, tol);
    low = catenary_lowest(&c, -5, -2);
    ck_assert_double_eq_tol(low.x, -2, tol);
    /* Equal heights: the sag is the dip at mid-span. */
    vec3 at;
    ck_assert_double_eq_tol(catenary_sag(&c, -3, 5, &at), 2 * cosh(2) - 2, tol);
    ck_assert_double_eq_tol(at.x, 1, tol);
    /* Unequal heights: the deepest point is where the curve is parallel to the chord. */
    const double sag = catenary_sag(&c, 0, 6, &at);
    ck_assert_double_eq_tol(catenary_slope(&c, at.x), (catenary_y(&c, 6) - catenary_y(&c, 0)) / 6,
                            tol);
    for (double x = 0; x <= 6; x += 0.25) {
        const double below =
            catenary_y(&c, 0) + (catenary_y(&c, 6) - catenary_y(&c, 0)) * x / 6 - catenary_y(&c, x);
        ck_assert(below <= sag + tol);
    }
}
END_TEST

/* Points put at a known normal offset from the curve, below and above; and a point high above
 * a slack curve's vertex, where the nearest points are on the arms, not straight down. */
START_TEST(test_distance_to_curve)
{
    const struct catenary c = {1.5, 0.5, -2};
    for (double x = -3; x <= 4; x += 0.5)
        for (double d = -0.4; d <= 0.4; d += 0.2) {
            const double s = catenary_slope(&c, x), n = sqrt(1 + s * s);
            /* The offset stays inside the radius of curvature a cosh^2 u >= 1.5. */
            const vec3 p = v3(x - d * s / n, catenary_y(&c, x) + d / n, 0);
            vec3 foot;
            ck_assert_double_eq_tol(catenary_distance(&c, p, &foot), fabs(d), 1e-13);
            ck_assert_double_eq_tol(foot.x, x, 1e-12);
        }
    /* 3 units above the vertex: compare with a dense scan (step 1e-4 sets the tolerance:
     * the distance is flat to second order at its minimum). */
    const vec3 p = v3(0.8, 1.5 + 3, 0.25);
    double best = INFINITY;
    for (double x = -4; x <= 5; x += 1e-4)
        best = fmin(best, hypot(x - p.x, catenary_y(&c, x) - p.y));
    vec3 foot;
    ck_assert_double_eq_tol(catenary_distance(&c, p, &foot), hypot(best, 0.25), 1e-7);
    ck_assert(foot.x > 3.5); /* on the right arm (2.84 away), not the vertex below (4.97) */
}
END_TEST

/* --- the exact discrete chain ------------------------------------------------------------ */

enum { NMAX = 400 };
static double rest[NMAX], mass[NMAX], comp[NMAX], tension[NMAX];
static vec3 pts[NMAX + 1];

/* Fills rest/mass for n links of total length L: equal when `uneven` is 0, otherwise lengths
 * and masses that vary by a factor of about 3 along the chain. */
static void chain_data(size_t n, double L, int uneven)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        rest[i] = uneven ? 1 + 0.5 * sin(1.7 * (double)i) : 1;
        sum += rest[i];
    }
    for (size_t i = 0; i < n; i++) {
        rest[i] *= L / sum;
        mass[i] = uneven ? 0.2 * (1 + 0.5 * cos(0.9 * (double)i)) : 0.1;
    }
}

/* Force on interior point j from its two links (tensions from the solver, directions from the
 * returned points) and its weight. */
static double max_force_imbalance(size_t n, double g, double *tmax)
{
    double worst = 0;
    *tmax = 0;
    for (size_t i = 0; i < n; i++)
        *tmax = fmax(*tmax, tension[i]);
    for (size_t j = 1; j < n; j++) {
        const vec3 d1 = v3_sub(pts[j + 1], pts[j]), d0 = v3_sub(pts[j], pts[j - 1]);
        const vec3 f = v3_add(v3_sub(v3_scale(d1, tension[j] / v3_len(d1)),
                                     v3_scale(d0, tension[j - 1] / v3_len(d0))),
                              v3(0, -g * mass[j - 1], 0));
        worst = fmax(worst, v3_len(f));
    }
    return worst;
}

START_TEST(test_chain_rigid)
{
    const vec3 a = ends[_i % NENDS][0], b = ends[_i % NENDS][1];
    const double L = ratios[_i / NENDS] * v3_dist(a, b), span = fabs(b.x - a.x);
    /* Enough links that none is as long as the span (see test_chain_too_few_links). */
    const size_t n = 300;
    chain_data(n, L, _i % 2);
    const struct catenary_chain ch = {a, b, n, rest, NULL, mass, 9.81};
    struct catenary_chain_result res;
    struct catena_error err;
    ck_assert_msg(catenary_chain_solve(&ch, pts, tension, &res, &err) == CATENA_OK, "%s", err.msg);
    ck_assert(res.H * (b.x - a.x) > 0);
    /* Newton stops at the round-off floor of summing 300 link vectors, ~1e-15 of the length. */
    ck_assert(v3_dist(pts[n], b) <= 1e-12 * span);
    ck_assert(pts[0].x == a.x && pts[0].y == a.y);
    /* Each point is the previous one plus rest * a unit vector: round-off only. */
    for (size_t i = 0; i < n; i++)
        ck_assert_double_eq_tol(v3_dist(pts[i], pts[i + 1]), rest[i], 1e-12 * rest[i]);
    double tmax;
    /* Directions recovered from point differences carry ~eps * L / rest relative error. */
    ck_assert(max_force_imbalance(n, 9.81, &tmax) <= 1e-9 * tmax);
}
END_TEST

/* XPBD's elastic reference: links stretch by compliance x tension, also when the rest lengths
 * add up to less than the chord (a stretched string with no slack at all). */
START_TEST(test_chain_extensible)
{
    const size_t n = 25;
    const vec3 a = v3(0, 0, 0), b = _i == 0 ? v3(10, -2, 0) : v3(-10, 1, 0);
    chain_data(n, _i == 0 ? 12 : 9.9, 1);
    for (size_t i = 0; i < n; i++)
        comp[i] = 1e-3 * (1 + 0.3 * sin((double)i)); /* ~1 % stretch at ~10 N */
    const struct catenary_chain ch = {a, b, n, rest, comp, mass, 9.81};
    struct catenary_chain_result res;
    struct catena_error err;
    ck_assert_msg(catenary_chain_solve(&ch, pts, tension, &res, &err) == CATENA_OK, "%s", err.msg);
    ck_assert(v3_dist(pts[n], b) <= 1e-12 * 10); /* round-off, as for rigid links */
    double stretched = 0;
    for (size_t i = 0; i < n; i++) {
        const double len = v3_dist(pts[i], pts[i + 1]);
        ck_assert_double_eq_tol(len, rest[i] + comp[i] * tension[i], 1e-12 * rest[i]);
        stretched += len - rest[i];
    }
    ck_assert(stretched > 1e-3); /* the compliance did something */
    double tmax;
    ck_assert(max_force_imbalance(n, 9.81, &tmax) <= 1e-9 * tmax);
}
END_TEST

/* Equal links and masses: the discrete chain's vertex i approaches the curve's point at the
 * same arc length like the midpoint rule, O(1/N^2), so doubling N divides the error by 4. */
START_TEST(test_chain_converges_second_order)
{
    const vec3 a = v3(0, 0, 0), b = _i == 0 ? v3(10, 0, 0) : v3(10, 2, 0);
    const double L = 12;
    struct catenary c;
    ck_assert_int_eq(catenary_through(a, b, L, &c, NULL), CATENA_OK);
    double prev = 0;
    for (size_t n = 10; n <= 80; n *= 2) {
        chain_data(n, L, 0);
        const struct catenary_chain ch = {a, b, n, rest, NULL, mass, 9.81};
        struct catenary_chain_result res;
        ck_assert_int_eq(catenary_chain_solve(&ch, pts, NULL, &res, NULL), CATENA_OK);
        double err = 0;
        for (size_t i = 0; i <= n; i++)
            err = fmax(
                err, v3_dist(pts[i], catenary_point_at_arclen(&c, a.x, L * (double)i / (double)n)));
        if (n > 10)
            ck_assert_msg(prev / err > 3.5 && prev / err < 4.5, "N = %zu: ratio %g", n, prev / err);
        prev = err;
    }
}
END_TEST

/* Issue 10's chains: N = 10 000 converges in a few O(N) Newton steps. */
START_TEST(test_chain_long)
{
    const size_t n = 10000;
    double *r = malloc(n * sizeof *r), *m = malloc(n * sizeof *m);
    vec3 *x = malloc((n + 1) * sizeof *x);
    ck_assert(r && m && x);
    for (size_t i = 0; i < n; i++) {
        r[i] = 12.0 / (double)n;
        m[i] = 1.0 / (double)n;
    }
    const struct catenary_chain ch = {v3(0, 0, 0), v3(10, 1, 0), n, r, NULL, m, 9.81};
    struct catenary_chain_result res;
    struct catena_error err;
    ck_assert_msg(catenary_chain_solve(&ch, x, NULL, &res, &err) == CATENA_OK, "%s", err.msg);
    ck_assert(res.iterations <= 10);
    /* Round-off of 10 000 summed link vectors: ~sqrt(N) eps of the length, far below this. */
    ck_assert(res.residual <= 1e-12 * 10);
    free(r);
    free(m);
    free(x);
}
END_TEST

/* 30 links of a chain 10 x its chord: each link is longer than the span, and the chain hangs
 * as two vertical arms with a slack link between them, which has no all-tension answer. */
START_TEST(test_chain_too_few_links)
{
    chain_data(30, 10 * hypot(10, 31), 0);
    const struct catenary_chain ch = {v3(2, 1, 0), v3(-8, -30, 0), 30, rest, NULL, mass, 9.81};
    struct catenary_chain_result res;
    struct catena_error err;
    ck_assert_int_eq(catenary_chain_solve(&ch, pts, NULL, &res, &err), CATENA_EINPUT);
    ck_assert_str_eq(err.msg, "no equilibrium with every link in tension: the chain would hang "
                              "in two straight arms with link 16 (10.8576649832682 m, longer "
                              "than the span 10 m) slack between them");
}
END_TEST

START_TEST(test_chain_rejects)
{
    chain_data(4, 5, 0);
    struct catenary_chain ch = {v3(0, 0, 0), v3(3, 4, 0), 4, rest, NULL, mass, 9.81};
    struct catenary_chain_result res;
    struct catena_error err;
    ck_assert_int_eq(catenary_chain_solve(&ch, pts, NULL, &res, &err), CATENA_EINPUT);
    ck_assert_str_eq(err.msg, "rigid links of total length 5 cannot hang between ends 5 apart");
    ch.b = v3(0, -2, 0);
    ck_assert_int_eq(catenary_chain_solve(&ch, pts, NULL, &res, &err), CATENA_EINPUT);
    ck_assert_str_eq(err.msg, "the ends are vertically above each other (x = 0): no hanging "
                              "chain joins them");
    ch.b = v3(3, 0, 0);
    mass[1] = -1;
    ck_assert_int_eq(catenary_chain_solve(&ch, pts, NULL, &res, &err), CATENA_EINPUT);
    ck_assert_str_eq(err.msg, "point 2: mass -1 is negative");
    mass[0] = mass[1] = mass[2] = 0;
    ck_assert_int_eq(catenary_chain_solve(&ch, pts, NULL, &res, &err), CATENA_EINPUT);
    ck_assert_str_eq(err.msg, "the chain's interior points have no mass");
    ch.nlinks = 1;
    ck_assert_int_eq(catenary_chain_solve(&ch, pts, NULL, &res, &err), CATENA_EINPUT);
}
END_TEST

/* --- least-squares fit ------------------------------------------------------------------- */

/* Points at equal arc-length steps along c between x = x1 and x = x2, like a chain's. */
static void sample(const struct catenary *c, double x1, double x2, size_t n, vec3 *out)
{
    const double L = catenary_arclen(c, x1, x2);
    for (size_t i = 0; i < n; i++)
        out[i] = catenary_point_at_arclen(c, x1, L * (double)i / (double)(n - 1));
}

/* A moderate curve, a slack one (length 10 x chord, nearly vertical arms 50 m high) and a
 * nearly taut one (1.0001 x chord, a = 190 m), 41 points each between x = 0 and 10. */
START_TEST(test_fit_exact)
{
    const vec3 a = v3(0, 0, 0), b = v3(10, 4, 0);
    const double ratio[] = {1.2, 10, 1.0001};
    struct catenary t;
    ck_assert_int_eq(catenary_through(a, b, ratio[_i] * v3_dist(a, b), &t, NULL), CATENA_OK);
    sample(&t, a.x, b.x, 41, pts);
    struct catenary_fit fit;
    struct catena_error err;
    ck_assert_msg(catenary_fit(pts, 41, NULL, &fit, &err) == CATENA_OK, "%s", err.msg);
    ck_assert(fit.converged);
    /* Exact data: LM stops at round-off, far inside 1e-9 (y0 ~ -a carries eps * a). */
    ck_assert_double_eq_tol(fit.c.a, t.a, 1e-9 * t.a);
    ck_assert_double_eq_tol(fit.c.x0, t.x0, 1e-9 * (10 + t.a));
    ck_assert_double_eq_tol(fit.c.y0, t.y0, 1e-9 * (10 + t.a));
    ck_assert(fit.rms <= 1e-12 && fit.max <= 1e-12);
}
END_TEST

/* A poor starting curve still reaches the same optimum. */
START_TEST(test_fit_from_guess)
{
    const struct catenary t = {2.5, 1.3, -4}, guess = {10, -2, 3};
    sample(&t, -3, 6, 41, pts);
    struct catenary_fit fit;
    ck_assert_int_eq(catenary_fit(pts, 41, &guess, &fit, NULL), CATENA_OK);
    ck_assert(fit.converged);
    ck_assert_double_eq_tol(fit.c.a, t.a, 1e-9 * t.a);
    ck_assert_double_eq_tol(fit.c.x0, t.x0, 1e-9 * 9);
}
END_TEST

/* Normal noise of sigma = 1e-3 x span along the curve's normal. */
START_TEST(test_fit_noisy)
{
    const struct catenary t = {2.5, 1.3, -4};
    const size_t n = 200;
    const double sigma = 1e-3 * 9;
    sample(&t, -3, 6, n, pts);
    for (size_t i = 0; i < n; i++) {
        const double s = catenary_slope(&t, pts[i].x), d = sigma * gaussian();
        pts[i] = v3_add(pts[i], v3_scale(v3(-s, 1, 0), d / sqrt(1 + s * s)));
    }
    struct catenary_fit fit;
    ck_assert_int_eq(catenary_fit(pts, n, NULL, &fit, NULL), CATENA_OK);
    ck_assert(fit.converged);
    /* The sample RMS of 200 deviates is sigma within ~5 % (one SD): allow 4 SD. */
    ck_assert(fit.rms > 0.8 * sigma && fit.rms < 1.2 * sigma);
    /* Three parameters averaged over 200 points: the fitted curve is about
     * sigma sqrt(3/200) ~ 0.12 sigma from the true one; allow sigma. */
    for (size_t i = 0; i < n; i++) {
        const vec3 q = catenary_point_at_arclen(
            &t, -3, catenary_arclen(&t, -3, 6) * (double)i / (double)(n - 1));
        ck_assert(catenary_distance(&fit.c, q, NULL) < sigma);
    }
}
END_TEST

START_TEST(test_fit_rejects)
{
    struct catenary_fit fit;
    struct catena_error err;
    const vec3 line[3] = {{0, 0, 0}, {1, 1, 0}, {2, 2, 0}};
    ck_assert_int_eq(catenary_fit(line, 2, NULL, &fit, &err), CATENA_EINPUT);
    ck_assert_int_eq(catenary_fit(line, 3, NULL, &fit, &err), CATENA_EINPUT);
    ck_assert_str_eq(err.msg, "no starting curve for the fit: length 2.82842712474619 is not "
                              "longer than the distance 2.82842712474619 between the ends");
}
END_TEST

/* --- error metrics ----------------------------------------------------------------------- */

START_TEST(test_metrics)
{
    const vec3 p[4] = {{0, 0, 0}, {3, -4, 0}, {6, -4, 0}, {6, 0, 0}};
    const vec3 q[4] = {{0, 0, 0}, {3, -4, 2}, {6, -5, 0}, {6, 0, 0}};
    struct catenary_stats st;
    catenary_stats_points(p, q, 4, 10, &st);
    ck_assert_double_eq(st.max, 2);
    ck_assert_uint_eq(st.argmax, 1);
    ck_assert_double_eq_tol(st.rms, sqrt(5.0 / 4), 1e-15);
    ck_assert_double_eq_tol(st.max_rel, 0.2, 1e-15);
    ck_assert_double_eq_tol(st.rms_rel, sqrt(5.0 / 4) / 10, 1e-15);

    ck_assert_double_eq(catenary_polyline_length(p, 4), 12);
    ck_assert_uint_eq(catenary_polyline_lowest(p, 4), 1);
    const double r[3] = {5, 2, 4};
    struct catenary_stretch sx;
    catenary_link_stretch(p, r, 3, &sx);
    ck_assert_double_eq(sx.max, 1.5);
    ck_assert_uint_eq(sx.argmax, 1);
    ck_assert_double_eq(sx.min, 1);

    /* Points on the curve but one, lifted straight up by 0.01 at the vertex. */
    const struct catenary c = {2, 1, -3};
    vec3 on[5];
    sample(&c, -2, 5, 5, on);
    on[2] = v3(1, -1 + 0.01, 0);
    catenary_stats_curve(&c, on, 5, 7, &st);
    ck_assert_uint_eq(st.argmax, 2);
    ck_assert_double_eq_tol(st.max, 0.01, 1e-14);
    ck_assert_double_eq_tol(st.rms, 0.01 / sqrt(5), 1e-14);
}
END_TEST

/* --- the vertical plane ------------------------------------------------------------------ */

/* Rotation by angle t about the unit axis k (Rodrigues). */
static vec3 rotate(vec3 p, vec3 k, double t)
{
    return v3_add(v3_add(v3_scale(p, cos(t)), v3_scale(v3_cross(k, p), sin(t))),
                  v3_scale(k, v3_dot(k, p) * (1 - cos(t))));
}

/* The 2D chain laid into the vertical plane through A and A + (3, 4, -1) with z up: projected
 * back it gives the 2D points and the same catenary; likewise with the whole scene (gravity
 * included) turned about an oblique axis. */
START_TEST(test_plane_3d_chain)
{
    const size_t n = 30;
    const vec3 A = v3(1, 2, 5), hdir = v3(0.6, 0.8, 0), up = v3(0, 0, 1);
    const vec3 b2 = v3(5, -1, 0);
    chain_data(n, 7, 0);
    const struct catenary_chain ch = {v3(0, 0, 0), b2, n, rest, NULL, mass, 9.81};
    ck_assert_int_eq(catenary_chain_solve(&ch, pts, NULL, &(struct catenary_chain_result){0}, NULL),
                     CATENA_OK);
    struct catenary_fit fit2, fit3;
    ck_assert_int_eq(catenary_fit(pts, n + 1, NULL, &fit2, NULL), CATENA_OK);

    const vec3 axis = v3_scale(v3(1, -2, 0.5), 1 / sqrt(5.25));
    for (int turned = 0; turned <= 1; turned++) {
        vec3 p3[NMAX + 1], q[NMAX + 1];
        vec3 g = v3(0, 0, -9.81);
        for (size_t i = 0; i <= n; i++) {
            p3[i] = v3_add(A, v3_add(v3_scale(hdir, pts[i].x), v3_scale(up, pts[i].y)));
            if (turned)
                p3[i] = rotate(p3[i], axis, 0.7);
        }
        if (turned)
            g = rotate(g, axis, 0.7);
        struct catenary_plane pl;
        ck_assert_int_eq(catenary_plane_init(&pl, p3[0], p3[n], g, NULL), CATENA_OK);
        for (size_t i = 0; i <= n; i++) {
            q[i] = catenary_plane_to2d(&pl, p3[i]);
            /* Two dot products of unit vectors with offsets ~10: round-off. */
            ck_assert(v3_dist(q[i], pts[i]) <= 1e-13 * 10);
            ck_assert(v3_dist(catenary_plane_to3d(&pl, q[i]), p3[i]) <= 1e-13 * 10);
        }
        ck_assert_int_eq(catenary_fit(q, n + 1, NULL, &fit3, NULL), CATENA_OK);
        ck_assert_double_eq_tol(fit3.c.a, fit2.c.a, 1e-9 * fit2.c.a);
        struct catenary c2, c3;
        ck_assert_int_eq(catenary_through(pts[0], pts[n], 7, &c2, NULL), CATENA_OK);
        ck_assert_int_eq(catenary_through(q[0], q[n], 7, &c3, NULL), CATENA_OK);
        ck_assert_double_eq_tol(c3.a, c2.a, 1e-12 * c2.a);
    }
}
END_TEST

/* A point off the plane keeps its offset in plane z; the distance to the curve includes it. */
START_TEST(test_plane_offset_and_rejects)
{
    const struct catenary c = {2, 1, -3};
    ck_assert_double_eq_tol(catenary_distance(&c, v3(1, -1, 0.5), NULL), 0.5, 1e-15);
    struct catenary_plane pl;
    struct catena_error err;
    ck_assert_int_eq(catenary_plane_init(&pl, v3(0, 0, 0), v3(-4, 1, 0), v3(0, -9.81, 0), &err),
                     CATENA_OK);
    const vec3 q = catenary_plane_to2d(&pl, v3(-2, -1, 0.5));
    ck_assert_double_eq_tol(q.x, 2, 1e-15);
    ck_assert_double_eq_tol(q.y, -1, 1e-15);
    ck_assert_double_eq_tol(fabs(q.z), 0.5, 1e-15);
    ck_assert_int_eq(catenary_plane_init(&pl, v3(0, 0, 0), v3(1, 1, 0), v3(0, 0, 0), &err),
                     CATENA_EINPUT);
    ck_assert_str_eq(err.msg, "gravity is zero or not finite: there is no vertical plane");
    ck_assert_int_eq(catenary_plane_init(&pl, v3(0, 0, 0), v3(0, 0, 3), v3(0, 0, -1), &err),
                     CATENA_EINPUT);
    ck_assert_str_eq(err.msg,
                     "the ends are vertically above each other: no vertical plane through them");
}
END_TEST

static Suite *catenary_suite(void)
{
    Suite *su = suite_create("catenary");
    TCase *tc = tcase_create("analysis");
    tcase_add_loop_test(tc, test_through_ends_and_length, 0, (int)(NRATIOS * NENDS));
    tcase_add_test(tc, test_through_extremely_taut);
    tcase_add_test(tc, test_through_rejects);
    tcase_add_test(tc, test_curve_quantities);
    tcase_add_test(tc, test_distance_to_curve);
    tcase_add_loop_test(tc, test_chain_rigid, 0, (int)(NRATIOS * NENDS));
    tcase_add_loop_test(tc, test_chain_extensible, 0, 2);
    tcase_add_loop_test(tc, test_chain_converges_second_order, 0, 2);
    tcase_add_test(tc, test_chain_long);
    tcase_add_test(tc, test_chain_too_few_links);
    tcase_add_test(tc, test_chain_rejects);
    tcase_add_loop_test(tc, test_fit_exact, 0, 3);
    tcase_add_test(tc, test_fit_from_guess);
    tcase_add_test(tc, test_fit_noisy);
    tcase_add_test(tc, test_fit_rejects);
    tcase_add_test(tc, test_metrics);
    tcase_add_test(tc, test_plane_3d_chain);
    tcase_add_test(tc, test_plane_offset_and_rejects);
    suite_add_tcase(su, tc);
    return su;
}

int main(void)
{
    return tu_run(catenary_suite());
}
