/* The numerical core of the catenary report: the analytic catenary y = y0 + a cosh((x-x0)/a)
 * through two points with a given length, the exact equilibrium of a discrete chain of rigid or
 * extensible links with point masses, a least-squares catenary fit, error metrics, and the
 * projection of 3D chains into the vertical plane through their ends. Pure: no I/O, no model.
 *
 * Plane coordinates: a vec3 whose x is horizontal, y is up (against gravity) and z is the
 * signed distance out of the plane (0 for points in it). Error messages name no file; the
 * caller prefixes its own context ("FILE: body chain: ...").
 *
 * A report would: project every point with catenary_plane_init (pins, gravity) and _to2d;
 * take catenary_through(ends, sum of rest lengths) as the continuous curve; solve
 * catenary_chain_solve with the links' rest lengths, the points' masses (and, for XPBD, the
 * compliances) for the discrete reference; compare point by point simulated vs discrete
 * (solver error) and discrete vs catenary_point_at_arclen at the cumulative rest lengths
 * (discretisation error) with catenary_stats_points; fit the simulated points with
 * catenary_fit. */
#ifndef CATENA_ANALYSIS_CATENARY_H
#define CATENA_ANALYSIS_CATENARY_H

#include <stddef.h>

#include "core/error.h"
#include "core/vec.h"

/* Plane coordinates x and y finite: z does not enter the curve. */
static inline int catenary_finite_xy(vec3 p)
{
    return isfinite(p.x) && isfinite(p.y);
}

/* y = y0 + a cosh((x - x0)/a); the vertex (lowest point of the whole curve) is (x0, y0 + a). */
struct catenary {
    double a;  /* catenary parameter = horizontal tension / weight per length, m; > 0 */
    double x0; /* abscissa of the vertex, m */
    double y0; /* vertex height minus a, m */
};

/* --- the analytic curve (analysis/catenary.c) ------------------------------------------------- */

/* The catenary of total arc length `length` through p1 and p2 (x and y used; either order).
 * CATENA_EINPUT when the chord is vertical (p1.x == p2.x) or length <= |p2 - p1| (no slack),
 * or an input is not finite. Works from nearly taut to very slack (length/chord = 1 + 1e-12 to
 * 1e6): a to round-off; the curve meets the ends to about eps x a (a grows as the chain
 * tightens: 20 spans at length/chord = 1.0001). */
int catenary_through(vec3 p1, vec3 p2, double length, struct catenary *c, struct catena_error *err);

/* Height and slope dy/dx of the curve at x. */
double catenary_y(const struct catenary *c, double x);
double catenary_slope(const struct catenary *c, double x);

/* Signed arc length from x = xa to x = xb (negative when xb < xa), m. */
double catenary_arclen(const struct catenary *c, double xa, double xb);

/* The point (z = 0) at signed arc length s from the curve's point at x = xa, s > 0 toward +x. */
vec3 catenary_point_at_arclen(const struct catenary *c, double xa, double s);

/* The lowest point (z = 0) of the curve between x = xa and x = xb (either order): the vertex
 * when it lies between them, otherwise the lower end. */
vec3 catenary_lowest(const struct catenary *c, double xa, double xb);

/* Sag of the span between the curve's points at x = xa and x = xb: the largest vertical
 * distance from the chord down to the curve, m (for equal heights, the mid-span dip). *at gets
 * the curve's point there (NULL allowed). */
double catenary_sag(const struct catenary *c, double xa, double xb, vec3 *at);

/* Abscissa of the curve point nearest to p (in-plane; p.z does not enter): the foot of
 * catenary_distance. */
double catenary_foot(const struct catenary *c, vec3 p);

/* Shortest distance from p to the curve (in-plane distance combined with p.z), m; *foot gets
 * the nearest curve point, z = 0 (NULL allowed). Finds the global minimum, also for points
 * above a slack curve, where the squared distance has two local minima. */
double catenary_distance(const struct catenary *c, vec3 p, vec3 *foot);

/* --- the exact discrete chain (analysis/catenary_chain.c) ------------------------------------- */

/* A chain of N links between ends pinned at a and b (plane coordinates, z ignored): link i
 * joins point i to point i+1; interior point j (1..N-1) carries mass[j-1]. */
struct catenary_chain {
    vec3 a, b;                /* pinned end points (points 0 and N), m */
    size_t nlinks;            /* N >= 2 */
    const double *rest;       /* [N] rest lengths, m; > 0 */
    const double *compliance; /* [N] stretch per tension, m/N (XPBD alpha); >= 0;
                                 NULL = every link rigid */
    const double *mass;       /* [N-1] interior point masses, kg; >= 0, at least one > 0 */
    double g;                 /* gravity magnitude, m/s^2; > 0 (it acts along -y) */
};

/* Sign convention: (H, V_i) is the force link i exerts on its first point i, pulling it toward
 * point i+1, so link i points along (H, V_i)/T_i with tension T_i = |(H, V_i)|. Force balance
 * at interior point j gives a constant H and V_j = V_{j-1} + g mass[j-1]: V grows along the
 * chain; V_0 < 0 where the chain leaves a downhill. Link i has length rest_i + compliance_i T_i. */
struct catenary_chain_result {
    double H;        /* horizontal tension, N; its sign is that of b.x - a.x */
    double V0;       /* vertical component of the tension of link 0, N (see above) */
    double residual; /* |x[N] - b|: the end is computed, not snapped onto b, m */
    int iterations;  /* Newton iterations in H (each runs a few in V) */
};

/* Solves for (H, V0), minimising the chain's convex complementary energy (its gradient is the
 * end-point mismatch): Newton in |H|, bracketed, on the energy minimised over V, starting from
 * the continuous catenary; O(N) per evaluation, no allocation. Writes the N+1 points to x
 * (z = 0; x[0] = a, x[N] within res->residual of b, about 1e-14 x length) and, when tension is
 * not NULL, the N link tensions, N. CATENA_EINPUT for invalid input (a rigid chain no longer
 * than the chord, a vertical chord, bad masses or lengths) and for a chain with links longer
 * than the horizontal span whose equilibrium would leave one slack between two vertical arms
 * (a rod there would push: use more links); CATENA_EFAIL when the end misses b by more than
 * 1e-11 x length. */
int catenary_chain_solve(const struct catenary_chain *ch, vec3 *x, double *tension,
                         struct catenary_chain_result *res, struct catena_error *err);

/* --- least-squares fit (analysis/catenary_fit.c) ---------------------------------------------- */

struct catenary_fit {
    struct catenary c; /* fitted curve */
    double rms, max;   /* orthogonal in-plane distances of the points to the fitted curve, m */
    int iterations;    /* Levenberg-Marquardt iterations */
    int converged;     /* 1 at a (local) minimum: the residual vector is orthogonal to the
                          model's tangent space (cosine <= 1e-6), or at round-off level */
};

/* Fits a free catenary (a, x0, y0) to p[0..n-1] (n >= 3, plane coordinates; z ignored) by
 * Levenberg-Marquardt on the orthogonal distances, not vertical ones, so the steep parts of a
 * slack chain weigh as much as its bottom. guess NULL: start from the catenary through the
 * first and last point with the polyline's length (suits a chain's points in order).
 * Not converging is reported in out->converged, not as an error; CATENA_EINPUT for bad input
 * or when no starting curve exists. */
int catenary_fit(const vec3 *p, size_t n, const struct catenary *guess, struct catenary_fit *out,
                 struct catena_error *err);

/* --- error metrics (analysis/catenary_stats.c) ------------------------------------------------ */

struct catenary_stats {
    double rms, max;         /* m */
    double rms_rel, max_rel; /* divided by the span passed in */
    size_t argmax;           /* index of the point with the largest error */
};

/* Distances |p[i] - q[i]| between two point sets of the same size n >= 1; span > 0. */
void catenary_stats_points(const vec3 *p, const vec3 *q, size_t n, double span,
                           struct catenary_stats *out);

/* Distances of p[i] to the curve (catenary_distance); n >= 1, span > 0. */
void catenary_stats_curve(const struct catenary *c, const vec3 *p, size_t n, double span,
                          struct catenary_stats *out);

/* Sum of |p[i+1] - p[i]|, m. */
double catenary_polyline_length(const vec3 *p, size_t n);

/* Index of the lowest point (smallest y) of p[0..n-1], n >= 1; the first one on ties. */
size_t catenary_polyline_lowest(const vec3 *p, size_t n);

/* Largest and smallest length/rest over the links p[i]..p[i+1], i < nlinks (same measure as
 * summary.final.max_stretch), and the link holding the largest. */
struct catenary_stretch {
    double max, min;
    size_t argmax;
};
void catenary_link_stretch(const vec3 *p, const double *rest, size_t nlinks,
                           struct catenary_stretch *out);

/* --- the vertical plane through two points (analysis/catenary_plane.c) ------------------------ */

/* Plane coordinates of a point p are (u.(p-origin), v.(p-origin), w.(p-origin)). */
struct catenary_plane {
    vec3 origin; /* the first end point, m */
    vec3 u;      /* unit horizontal vector along the horizontal part of b - a */
    vec3 v;      /* unit up vector, -gravity/|gravity| */
    vec3 w;      /* u x v: plane z is the signed distance out of the plane */
};

/* The vertical plane through a and b for gravity of any direction; b maps to x > 0.
 * CATENA_EINPUT when gravity is zero or not finite, or b - a is (nearly, 1e-12) vertical. */
int catenary_plane_init(struct catenary_plane *pl, vec3 a, vec3 b, vec3 gravity,
                        struct catena_error *err);

/* World point -> plane coordinates, and back. */
vec3 catenary_plane_to2d(const struct catenary_plane *pl, vec3 p);
vec3 catenary_plane_to3d(const struct catenary_plane *pl, vec3 q);

#endif
