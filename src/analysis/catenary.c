/* The analytic catenary (analysis/catenary.h). The curve through two points solves
 * sqrt(L^2 - v^2) = 2a sinh(h/2a) as log(sinh(xi)/xi) = log(sqrt(L^2 - v^2)/h), xi = h/2a.
 * The discrete chain is in analysis/catenary_chain.c, the fit in analysis/catenary_fit.c. */
#include "analysis/catenary.h"

#include <float.h>
#include <math.h>

#define LN2 0.69314718055994530942

/* log(sinh(xi)/xi), xi >= 0, without cancellation near 0 or overflow for large xi. */
static double log_sinhc(double xi)
{
    if (xi < 0.5) {
        /* sinh(xi)/xi - 1 by its series; successive terms shrink by t/((2k+2)(2k+3)). */
        const double t = xi * xi;
        const double s =
            t / 6 *
            (1 +
             t / 20 * (1 + t / 42 * (1 + t / 72 * (1 + t / 110 * (1 + t / 156 * (1 + t / 210))))));
        return log1p(s);
    }
    if (xi > 20)
        return xi - LN2 - log(xi) + log1p(-exp(-2 * xi));
    return log(sinh(xi) / xi);
}

/* Its derivative coth(xi) - 1/xi (the Langevin function), by its series near 0. */
static double log_sinhc_deriv(double xi)
{
    if (xi < 0.5) {
        const double t = xi * xi;
        return xi / 3 * (1 - t / 15 * (1 - 2 * t / 21 * (1 - t / 10 * (1 - 10 * t / 99))));
    }
    return 1 / tanh(xi) - 1 / xi;
}

/* Solves log(sinh(xi)/xi) = tau > 0. The left side is convex and increasing, so Newton
 * converges from any start; the bracket [lo, hi] only guards against round-off. */
static double solve_xi(double tau)
{
    double lo = 0, hi = 1;
    while (log_sinhc(hi) < tau)
        hi *= 2;
    /* Leading terms: xi^2/6 for small xi, xi - log(2 xi) for large. */
    double xi = tau < 1.5 ? sqrt(6 * tau) : tau + log(2 * tau);
    for (int it = 0; it < 200; it++) {
        if (!(xi > lo && xi < hi))
            xi = 0.5 * (lo + hi);
        const double f = log_sinhc(xi) - tau;
        if (f == 0)
            break;
        if (f < 0)
            lo = xi;
        else
            hi = xi;
        const double next = xi - f / log_sinhc_deriv(xi);
        if (fabs(next - xi) <= 2 * DBL_EPSILON * xi || hi - lo <= 2 * DBL_EPSILON * hi) {
            xi = next > lo && next < hi ? next : xi;
            break;
        }
        xi = next;
    }
    return xi;
}

int catenary_through(vec3 p1, vec3 p2, double length, struct catenary *c, struct catena_error *err)
{
    if (!catenary_finite_xy(p1) || !catenary_finite_xy(p2) || !isfinite(length))
        return error_set(err, CATENA_EINPUT, "end points and length must be finite numbers");
    if (p2.x < p1.x) {
        const vec3 t = p1;
        p1 = p2;
        p2 = t;
    }
    const double h = p2.x - p1.x, v = p2.y - p1.y, chord = hypot(h, v);
    if (h == 0)
        return error_set(err, CATENA_EINPUT,
                         "the ends are vertically above each other (x = %.15g): no catenary "
                         "joins them",
                         p1.x);
    if (!(length > chord))
        return error_set(err, CATENA_EINPUT,
                         "length %.15g is not longer than the distance %.15g between the ends",
                         length, chord);
    /* r = sqrt(L^2 - v^2)/h = sinh(xi)/xi; r - 1 comes from (L - chord)(L + chord) so that it
     * keeps its digits when the chain is nearly taut. */
    const double s = sqrt((length - fabs(v)) * (length + fabs(v)));
    const double tau = log1p((length - chord) * (length + chord) / ((s + h) * h));
    if (!isfinite(tau))
        return error_set(err, CATENA_EINPUT, "length %.15g is too long for the span %.15g", length,
                         h);
    const double xi = solve_xi(tau);
    const double a = h / (2 * xi);
    /* With m the mean of u1 = m - xi and u2 = m + xi: v = 2a sinh(m) sinh(xi) and
     * L = 2a cosh(m) sinh(xi), hence tanh(m) = v/L. */
    const double m = atanh(v / length);
    c->a = a;
    c->x0 = 0.5 * (p1.x + p2.x) - a * m;
    c->y0 = 0.5 * ((p1.y - a * cosh(m - xi)) + (p2.y - a * cosh(m + xi)));
    return CATENA_OK;
}

double catenary_y(const struct catenary *c, double x)
{
    return c->y0 + c->a * cosh((x - c->x0) / c->a);
}

double catenary_slope(const struct catenary *c, double x)
{
    return sinh((x - c->x0) / c->a);
}

double catenary_arclen(const struct catenary *c, double xa, double xb)
{
    /* a (sinh ub - sinh ua) as a product: no cancellation between close points. */
    const double mid = (0.5 * (xa + xb) - c->x0) / c->a;
    return 2 * c->a * cosh(mid) * sinh((xb - xa) / (2 * c->a));
}

vec3 catenary_point_at_arclen(const struct catenary *c, double xa, double s)
{
    const double u = asinh(catenary_slope(c, xa) + s / c->a);
    const double x = c->x0 + c->a * u;
    return v3(x, catenary_y(c, x), 0);
}

vec3 catenary_lowest(const struct catenary *c, double xa, double xb)
{
    const double lo = fmin(xa, xb), hi = fmax(xa, xb);
    const double x = c->x0 < lo ? lo : c->x0 > hi ? hi : c->x0;
    return v3(x, x == c->x0 ? c->y0 + c->a : catenary_y(c, x), 0);
}

double catenary_sag(const struct catenary *c, double xa, double xb, vec3 *at)
{
    const double ya = catenary_y(c, xa), yb = catenary_y(c, xb);
    double x = xa, sag = 0;
    if (xb != xa) {
        /* The curve is furthest below the chord where it runs parallel to it. */
        const double k = (yb - ya) / (xb - xa);
        x = c->x0 + c->a * asinh(k);
        sag = ya + k * (x - xa) - catenary_y(c, x);
    }
    if (at)
        *at = v3(x, catenary_y(c, x), 0);
    return sag;
}

/* Half the derivative of the squared distance from p to the curve point at x; *dg its
 * derivative. */
static double foot_g(const struct catenary *c, double x, vec3 p, double *dg)
{
    const double u = (x - c->x0) / c->a;
    const double sh = sinh(u), ch = cosh(u);
    const double dy = c->y0 + c->a * ch - p.y;
    *dg = ch * ch + dy * ch / c->a;
    return (x - p.x) + dy * sh;
}

static double dist2_at(const struct catenary *c, double x, vec3 p)
{
    const double dx = x - p.x, dy = catenary_y(c, x) - p.y;
    return dx * dx + dy * dy;
}

double catenary_foot(const struct catenary *c, vec3 p)
{
    const double dv = fabs(catenary_y(c, p.x) - p.y);
    if (dv == 0)
        return p.x;
    /* The foot lies within d of p.x for any curve point at distance d: the vertical foot, or,
     * beside a steep arm, the nearer point at p's height. */
    double best = p.x, bestd = dv * dv;
    if (p.y > c->y0 + c->a) {
        const double w = c->a * acosh((p.y - c->y0) / c->a);
        const double side = p.x < c->x0 ? c->x0 - w : c->x0 + w;
        if (fabs(side - p.x) < dv) {
            best = side;
            bestd = (side - p.x) * (side - p.x);
        }
    }
    /* Above a slack curve the squared distance can have two minima: samples pick the basin
     * of the global one. */
    enum { SAMPLES = 16 };
    const double radius = sqrt(bestd), step = 2 * radius / SAMPLES;
    for (int k = 0; k <= SAMPLES; k++) {
        const double x = p.x - radius + k * step, d = dist2_at(c, x, p);
        if (d < bestd) {
            best = x;
            bestd = d;
        }
    }
    double lo = best - step, hi = best + step, dg;
    if (!(foot_g(c, lo, p, &dg) < 0 && foot_g(c, hi, p, &dg) > 0))
        return best;
    /* Newton kept inside a sign-change bracket (bisection when it leaves it). */
    double x = best;
    for (int it = 0; it < 100; it++) {
        const double g = foot_g(c, x, p, &dg);
        if (g == 0)
            break;
        if (g < 0)
            lo = x;
        else
            hi = x;
        double next = x - g / dg;
        if (!(dg > 0 && next > lo && next < hi))
            next = 0.5 * (lo + hi);
        const double moved = fabs(next - x);
        x = next;
        if (moved <= 2 * DBL_EPSILON * (fabs(x) + radius) ||
            hi - lo <= 2 * DBL_EPSILON * (fabs(x) + radius))
            break;
    }
    return x;
}

double catenary_distance(const struct catenary *c, vec3 p, vec3 *foot)
{
    const double x = catenary_foot(c, p), y = catenary_y(c, x);
    if (foot)
        *foot = v3(x, y, 0);
    return v3_len(v3(p.x - x, p.y - y, p.z));
}
