/* Catenary analysis (analysis/catenary.h). The curve through two points solves
 * sqrt(L^2 - v^2) = 2a sinh(h/2a) as log(sinh(xi)/xi) = log(sqrt(L^2 - v^2)/h), xi = h/2a.
 * The discrete chain minimises its convex complementary energy sum(l T + c T^2/2) - H dx - V0 dy,
 * whose gradient is the end-point mismatch (Irvine, Cable Structures, 1981, ch. 1): Newton in
 * |H| on the energy already minimised over V, each step a bracketed Newton in V. */
#include "analysis/catenary.h"

#include <float.h>
#include <math.h>

#define LN2 0.69314718055994530942

/* --- the analytic curve ------------------------------------------------------------------ */

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

/* Plane coordinates: z does not enter the curve. */
static int finite_xy(vec3 p)
{
    return isfinite(p.x) && isfinite(p.y);
}

int catenary_through(vec3 p1, vec3 p2, double length, struct catenary *c, struct catena_error *err)
{
    if (!finite_xy(p1) || !finite_xy(p2) || !isfinite(length))
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

/* Abscissa of the curve point nearest to p (in-plane). */
static double catenary_foot(const struct catenary *c, vec3 p)
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

/* --- the exact discrete chain ------------------------------------------------------------ */

/* End-point mismatch F (the gradient of the complementary energy), its Jacobian (the Hessian:
 * symmetric, positive definite once two links point different ways) and the chain's length. */
struct chain_eval {
    double fx, fy;
    double jhh, jhv, jvv;
    double len;
};

/* Vertical tensions are carried from a reference link k, V_i = V_k plus or minus the weights
 * of the points between, summed outward from k. With k at the bottom, where V changes sign,
 * the bottom's small V keeps its digits: they decide the shape when the bottom link is nearly
 * slack (the link's direction is (H, V)/T with H and V both tiny). */
struct chain_ref {
    size_t k;
    double vk;
};

static double chain_compliance(const struct catenary_chain *ch, size_t i)
{
    return ch->compliance ? ch->compliance[i] : 0;
}

static void chain_add(const struct catenary_chain *ch, size_t i, double H, double V,
                      struct chain_eval *e)
{
    const double T = sqrt(H * H + V * V), c = chain_compliance(ch, i);
    const double q = ch->rest[i] / T, k = q / (T * T);
    e->fx += (q + c) * H;
    e->fy += (q + c) * V;
    e->jhh += c + k * V * V;
    e->jhv -= k * H * V;
    e->jvv += c + k * H * H;
    e->len += ch->rest[i] + c * T;
}

static void chain_eval(const struct catenary_chain *ch, double H, const struct chain_ref *r,
                       struct chain_eval *e)
{
    *e = (struct chain_eval){0};
    double V = r->vk;
    for (size_t i = r->k; i < ch->nlinks; i++) {
        if (i > r->k)
            V += ch->g * ch->mass[i - 1];
        chain_add(ch, i, H, V, e);
    }
    V = r->vk;
    for (size_t i = r->k; i-- > 0;) {
        V -= ch->g * ch->mass[i];
        chain_add(ch, i, H, V, e);
    }
    e->fx -= ch->b.x - ch->a.x;
    e->fy -= ch->b.y - ch->a.y;
}

/* Moves the reference to the link with the smallest |V| (V grows along the chain). */
static void chain_rebase(const struct catenary_chain *ch, struct chain_ref *r)
{
    struct chain_ref best = *r;
    double V = r->vk;
    for (size_t i = r->k + 1; i < ch->nlinks; i++) {
        V += ch->g * ch->mass[i - 1];
        if (fabs(V) < fabs(best.vk))
            best = (struct chain_ref){i, V};
    }
    V = r->vk;
    for (size_t i = r->k; i-- > 0;) {
        V -= ch->g * ch->mass[i];
        if (fabs(V) < fabs(best.vk))
            best = (struct chain_ref){i, V};
    }
    *r = best;
}

/* The V_k that zeroes the vertical mismatch for a given H != 0: F_y increases with V_k at the
 * rate jvv > 0. Newton inside a bracket that is widened until F_y changes sign and bisected
 * when Newton leaves it (F_y is a staircase when H is small). Leaves e at the result. */
static void chain_solve_vk(const struct catenary_chain *ch, double H, struct chain_ref *r,
                           double weight, double tol, struct chain_eval *e)
{
    double lo = -INFINITY, hi = INFINITY, step = weight + fabs(H);
    for (int it = 0; it < 500; it++) {
        chain_eval(ch, H, r, e);
        if (fabs(e->fy) <= tol)
            break;
        if (e->fy < 0)
            lo = r->vk;
        else
            hi = r->vk;
        double next = r->vk - e->fy / e->jvv;
        if (!(next > lo && next < hi)) {
            if (isinf(lo) || isinf(hi)) {
                next = isinf(lo) ? hi - step : lo + step;
                step *= 2;
            } else {
                next = 0.5 * (lo + hi);
            }
        }
        if (fabs(next - r->vk) <= 4 * DBL_EPSILON * (fabs(r->vk) + fabs(H)))
            break;
        r->vk = next;
    }
}

static int chain_check(const struct catenary_chain *ch, double *length, double *weight,
                       double *cmax, struct catena_error *err)
{
    if (ch->nlinks < 2)
        return error_set(err, CATENA_EINPUT, "a chain needs at least 2 links (it has %zu)",
                         ch->nlinks);
    if (!finite_xy(ch->a) || !finite_xy(ch->b))
        return error_set(err, CATENA_EINPUT, "end points must be finite numbers");
    if (!(ch->g > 0) || !isfinite(ch->g))
        return error_set(err, CATENA_EINPUT, "gravity %.15g must be positive", ch->g);
    if (ch->b.x == ch->a.x)
        return error_set(err, CATENA_EINPUT,
                         "the ends are vertically above each other (x = %.15g): no hanging "
                         "chain joins them",
                         ch->a.x);
    *length = *weight = *cmax = 0;
    for (size_t i = 0; i < ch->nlinks; i++) {
        const double c = chain_compliance(ch, i);
        if (!(ch->rest[i] > 0) || !isfinite(ch->rest[i]))
            return error_set(err, CATENA_EINPUT, "link %zu: rest length %.15g is not positive", i,
                             ch->rest[i]);
        if (!(c >= 0) || !isfinite(c))
            return error_set(err, CATENA_EINPUT, "link %zu: compliance %.15g is negative", i, c);
        *length += ch->rest[i];
        *cmax = fmax(*cmax, c);
    }
    for (size_t j = 1; j < ch->nlinks; j++) {
        if (!(ch->mass[j - 1] >= 0) || !isfinite(ch->mass[j - 1]))
            return error_set(err, CATENA_EINPUT, "point %zu: mass %.15g is negative", j,
                             ch->mass[j - 1]);
        *weight += ch->g * ch->mass[j - 1];
    }
    if (!(*weight > 0))
        return error_set(err, CATENA_EINPUT, "the chain's interior points have no mass");
    const double chord = v3_dist(v3(ch->a.x, ch->a.y, 0), v3(ch->b.x, ch->b.y, 0));
    if (*cmax == 0 && !(*length > chord))
        return error_set(err, CATENA_EINPUT,
                         "rigid links of total length %.15g cannot hang between ends %.15g "
                         "apart",
                         *length, chord);
    return CATENA_OK;
}

/* Links at least as long as the horizontal span can put the energy's minimum at H = 0: two
 * arms hanging straight down from the pins and, between their bottoms, links of zero tension
 * that a string could leave slack but a rod would have to push. The minimum is there when
 * 0 is in the subdifferential: the gap R between the arms' bottoms is no longer than those
 * links. Checks every group of links sharing one vertical tension (massless points between
 * them) in O(N) with prefix sums; returns the group's first link, or -1. Within round-off
 * (tol) of the boundary, the Newton solve below reaches the limit H = 0 itself. */
static long chain_slack_link(const struct catenary_chain *ch, double tol)
{
    const size_t n = ch->nlinks;
    const double dx = ch->b.x - ch->a.x, dy = ch->b.y - ch->a.y;
    double tl = 0, tc = 0, tcc = 0, cum = 0; /* totals of l, c and c * cum over the links */
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            cum += ch->g * ch->mass[i - 1];
        tl += ch->rest[i];
        tc += chain_compliance(ch, i);
        tcc += chain_compliance(ch, i) * cum;
    }
    double pl = 0, pc = 0, pcc = 0; /* the same over the links before the group */
    cum = 0;
    for (size_t p = 0; p < n;) {
        if (p > 0)
            cum += ch->g * ch->mass[p - 1];
        size_t q = p;
        double gl = ch->rest[p], gc = chain_compliance(ch, p);
        while (q + 1 < n && ch->mass[q] == 0) {
            q++;
            gl += ch->rest[q];
            gc += chain_compliance(ch, q);
        }
        /* Links before the group hang down from a, links after it up to b, each stretched by
         * c |V_i| with V_i = cum_i - cum. */
        const double down = pl + cum * pc - pcc;
        const double up = (tl - pl - gl) + (tcc - pcc - gc * cum) - cum * (tc - pc - gc);
        if (gl >= fabs(dx) && hypot(dx, dy - (up - down)) < gl - tol)
            return (long)p;
        pl += gl;
        pc += gc;
        pcc += gc * cum;
        p = q + 1;
    }
    return -1;
}

/* Starting tensions: the continuous catenary of the same length and weight, or, for an
 * extensible chain without slack, a straight chain stretched to reach. */
static void chain_guess(const struct catenary_chain *ch, double length, double weight, double *H,
                        double *V0)
{
    const double dx = ch->b.x - ch->a.x, dy = ch->b.y - ch->a.y;
    struct catenary c;
    if (catenary_through(ch->a, ch->b, length, &c, NULL) == CATENA_OK) {
        *H = copysign(weight / length * c.a, dx);
        /* Link 0's direction is the curve's at about half a link from a. */
        *V0 = *H * catenary_slope(&c, ch->a.x) + 0.5 * ch->g * ch->mass[0];
        return;
    }
    double csum = 0;
    for (size_t i = 0; i < ch->nlinks; i++)
        csum += chain_compliance(ch, i);
    const double chord = hypot(dx, dy);
    const double T = (csum > 0 ? (chord - length) / csum : 0) + weight;
    *H = T * dx / chord;
    *V0 = T * dy / chord - 0.5 * weight;
}

/* Link i's vector (rest + c T)(H, V)/T into x[i + 1] and its tension into t[i] (t may be NULL). */
static void chain_link(const struct catenary_chain *ch, size_t i, double H, double V, vec3 *x,
                       double *t)
{
    const double T = sqrt(H * H + V * V);
    x[i + 1] = v3_scale(v3(H, V, 0), ch->rest[i] / T + chain_compliance(ch, i));
    if (t)
        t[i] = T;
}

/* The points: link vectors computed outward from the reference, then summed from a. Returns
 * V_0. */
static double chain_links(const struct catenary_chain *ch, double H, const struct chain_ref *r,
                          vec3 *x, double *t)
{
    double V = r->vk, v0 = r->vk;
    for (size_t i = r->k; i < ch->nlinks; i++) {
        if (i > r->k)
            V += ch->g * ch->mass[i - 1];
        chain_link(ch, i, H, V, x, t);
    }
    V = r->vk;
    for (size_t i = r->k; i-- > 0;) {
        V -= ch->g * ch->mass[i];
        chain_link(ch, i, H, V, x, t);
        v0 = V;
    }
    x[0] = v3(ch->a.x, ch->a.y, 0);
    for (size_t i = 0; i < ch->nlinks; i++)
        x[i + 1] = v3_add(x[i], x[i + 1]);
    return v0;
}

int catenary_chain_solve(const struct catenary_chain *ch, vec3 *x, double *tension,
                         struct catenary_chain_result *res, struct catena_error *err)
{
    double length = 0, weight = 0, cmax = 0;
    int rc = chain_check(ch, &length, &weight, &cmax, err);
    if (rc)
        return rc;
    /* Round-off floor of the end-point mismatch: a sum of N link vectors. */
    const double roundoff = 4 * DBL_EPSILON * length * sqrt((double)ch->nlinks);
    const long slack = chain_slack_link(ch, roundoff);
    if (slack >= 0)
        return error_set(err, CATENA_EINPUT,
                         "no equilibrium with every link in tension: the chain would hang in two "
                         "straight arms with link %ld (%.15g m, longer than the span %.15g m) "
                         "slack between them",
                         slack, ch->rest[slack], fabs(ch->b.x - ch->a.x));
    double H, V0;
    chain_guess(ch, length, weight, &H, &V0);
    struct chain_ref r = {0, V0};
    /* |H| solves the reduced mismatch f = s F_x(s |H|, V_k(H)) = 0, which increases with |H|
     * (the reduced energy is convex) at the rate jhh - jhv^2/jvv; s = sign(b.x - a.x). */
    const double s = H < 0 ? -1 : 1;
    double eta = fabs(H), lo = 0, hi = INFINITY;
    struct chain_eval e = {.len = length};
    int it;
    for (it = 0; it < 200; it++) {
        chain_rebase(ch, &r);
        const double tol = roundoff * fmax(e.len, length) / length; /* stretch lengthens it */
        chain_solve_vk(ch, s * eta, &r, weight, tol, &e);
        if (fabs(e.fx) <= tol && fabs(e.fy) <= tol)
            break;
        const double f = s * e.fx;
        if (f < 0)
            lo = eta;
        else
            hi = eta;
        double next = eta - f / (e.jhh - e.jhv * e.jhv / e.jvv);
        /* Outside the bracket: widen it, or bisect on a log scale (|H| spans decades). */
        if (!(next > lo && next < hi))
            next = isinf(hi) ? 4 * eta : lo > 0 ? sqrt(lo * hi) : hi / 16;
        /* Below eps x weight, H is 0 to round-off: every link but the bottom one hangs
         * straight down (the limit of the slack case, reached within round-off). */
        if (fabs(next - eta) <= 4 * DBL_EPSILON * eta || hi <= DBL_EPSILON * weight)
            break;
        /* Start the next V_k on the tangent of the curve V_k(H). */
        r.vk -= e.jhv / e.jvv * s * (next - eta);
        eta = next;
    }
    res->H = s * eta;
    res->iterations = it;
    res->V0 = chain_links(ch, res->H, &r, x, tension);
    const double scale = fmax(e.len, v3_dist(ch->a, ch->b));
    res->residual = v3_dist(x[ch->nlinks], v3(ch->b.x, ch->b.y, 0));
    if (!(res->residual <= 1e-11 * scale))
        return error_set(err, CATENA_EFAIL,
                         "the discrete chain equilibrium did not converge (the end misses its "
                         "pin by %.3g m after %d iterations)",
                         res->residual, it);
    return CATENA_OK;
}

/* --- least-squares fit ------------------------------------------------------------------- */

/* Sum of squared orthogonal distances for th = (a, x0, y0 + a); the vertex height as third
 * parameter keeps nearly taut fits well conditioned (y0 and a are otherwise nearly opposite).
 * When jtj is not NULL also accumulates J^T J and J^T r. */
static double fit_eval(const vec3 *p, size_t n, const double th[3], double jtj[3][3], double jtr[3],
                       double *maxd)
{
    const struct catenary c = {th[0], th[1], th[2] - th[0]};
    double cost = 0;
    *maxd = 0;
    if (jtj)
        for (int i = 0; i < 3; i++) {
            jtr[i] = 0;
            for (int j = 0; j < 3; j++)
                jtj[i][j] = 0;
        }
    for (size_t k = 0; k < n; k++) {
        const vec3 q = v3(p[k].x, p[k].y, 0);
        const double x = catenary_foot(&c, q);
        const double u = (x - c.x0) / c.a, sh = sinh(u), ch = cosh(u), sh2 = sinh(0.5 * u);
        /* Signed distance along the normal (-sinh u, 1)/cosh u. */
        const double r = ((q.y - catenary_y(&c, x)) - sh * (q.x - x)) / ch;
        cost += r * r;
        *maxd = fmax(*maxd, fabs(r));
        if (!jtj)
            continue;
        /* The foot moves along the tangent, orthogonal to the normal, so only the curve's
         * own change counts: dr/dth = -(dy/dth)/cosh u. */
        const double J[3] = {-(2 * sh2 * sh2 - u * sh) / ch, sh / ch, -1 / ch};
        for (int i = 0; i < 3; i++) {
            jtr[i] += J[i] * r;
            for (int j = 0; j < 3; j++)
                jtj[i][j] += J[i] * J[j];
        }
    }
    return cost;
}

/* Solves the symmetric positive definite 3x3 system m d = b by Cholesky; 0 if not SPD. */
static int solve3(double m[3][3], const double b[3], double d[3])
{
    double l[3][3] = {{0}};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j <= i; j++) {
            double s = m[i][j];
            for (int k = 0; k < j; k++)
                s -= l[i][k] * l[j][k];
            if (i == j) {
                if (!(s > 0))
                    return 0;
                l[i][i] = sqrt(s);
            } else {
                l[i][j] = s / l[j][j];
            }
        }
    double y[3];
    for (int i = 0; i < 3; i++) {
        y[i] = b[i];
        for (int k = 0; k < i; k++)
            y[i] -= l[i][k] * y[k];
        y[i] /= l[i][i];
    }
    for (int i = 2; i >= 0; i--) {
        d[i] = y[i];
        for (int k = i + 1; k < 3; k++)
            d[i] -= l[k][i] * d[k];
        d[i] /= l[i][i];
    }
    return 1;
}

/* Largest cosine between the residual vector and a Jacobian column: 0 at a least-squares
 * optimum, whatever the units. */
static double fit_cosine(double jtj[3][3], const double jtr[3], double cost)
{
    double worst = 0;
    for (int i = 0; i < 3; i++)
        if (jtj[i][i] > 0)
            worst = fmax(worst, fabs(jtr[i]) / sqrt(jtj[i][i] * cost));
    return worst;
}

/* Exact data: the residual is at the round-off floor of evaluating y0 + a cosh(u). */
static int fit_exact(double cost, size_t n, double extent, const double th[3])
{
    const double noise = 8 * DBL_EPSILON * (extent + th[0]);
    return cost <= (double)n * noise * noise;
}

int catenary_fit(const vec3 *p, size_t n, const struct catenary *guess, struct catenary_fit *out,
                 struct catena_error *err)
{
    if (n < 3)
        return error_set(err, CATENA_EINPUT, "a catenary fit needs at least 3 points (got %zu)", n);
    double lo[2] = {p[0].x, p[0].y}, hi[2] = {p[0].x, p[0].y};
    for (size_t k = 0; k < n; k++) {
        if (!finite_xy(p[k]))
            return error_set(err, CATENA_EINPUT, "point %zu is not finite", k);
        lo[0] = fmin(lo[0], p[k].x);
        hi[0] = fmax(hi[0], p[k].x);
        lo[1] = fmin(lo[1], p[k].y);
        hi[1] = fmax(hi[1], p[k].y);
    }
    const double extent = hypot(hi[0] - lo[0], hi[1] - lo[1]);
    struct catenary c0;
    if (guess) {
        c0 = *guess;
        if (!(c0.a > 0) || !isfinite(c0.a) || !isfinite(c0.x0) || !isfinite(c0.y0))
            return error_set(err, CATENA_EINPUT, "the starting catenary has a = %.15g", c0.a);
    } else {
        struct catena_error e;
        if (catenary_through(p[0], p[n - 1], catenary_polyline_length(p, n), &c0, &e))
            return error_set(err, CATENA_EINPUT, "no starting curve for the fit: %s", e.msg);
    }

    double th[3] = {c0.a, c0.x0, c0.y0 + c0.a}, jtj[3][3], jtr[3], maxd;
    double cost = fit_eval(p, n, th, jtj, jtr, &maxd);
    double lambda = 1e-3;
    int it;
    for (it = 0; it < 200; it++) {
        if (fit_exact(cost, n, extent, th) || fit_cosine(jtj, jtr, cost) <= 1e-10)
            break;
        double th2[3], jtj2[3][3], jtr2[3], maxd2, cost2 = cost, d[3];
        int accepted = 0;
        while (!accepted && lambda < 1e16) {
            double m[3][3];
            const double b[3] = {-jtr[0], -jtr[1], -jtr[2]};
            /* Marquardt's scaling: damping along each column's own size. */
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    m[i][j] = jtj[i][j] + (i == j ? lambda * jtj[i][i] : 0);
            if (solve3(m, b, d)) {
                for (int i = 0; i < 3; i++)
                    th2[i] = th[i] + d[i];
                if (th2[0] > 0) {
                    cost2 = fit_eval(p, n, th2, jtj2, jtr2, &maxd2);
                    accepted = cost2 < cost;
                }
            }
            if (!accepted)
                lambda *= 10;
        }
        if (!accepted) /* no step lowers the cost */
            break;
        lambda = fmax(lambda / 10, 1e-15);
        int small = 1;
        for (int i = 0; i < 3; i++) {
            small &= fabs(d[i]) <= 1e-12 * (fabs(th2[i]) + extent);
            th[i] = th2[i];
            jtr[i] = jtr2[i];
            for (int j = 0; j < 3; j++)
                jtj[i][j] = jtj2[i][j];
        }
        cost = cost2;
        maxd = maxd2;
        if (small)
            break;
    }
    /* Steps also stop on a stall far from a minimum: only a stationary point counts. */
    out->converged = fit_exact(cost, n, extent, th) || fit_cosine(jtj, jtr, cost) <= 1e-6;
    out->c = (struct catenary){th[0], th[1], th[2] - th[0]};
    out->rms = sqrt(cost / (double)n);
    out->max = maxd;
    out->iterations = it;
    return CATENA_OK;
}

/* --- error metrics ----------------------------------------------------------------------- */

static void stats_add(struct catenary_stats *out, size_t i, double d, double *sum2)
{
    *sum2 += d * d;
    if (i == 0 || d > out->max) {
        out->max = d;
        out->argmax = i;
    }
}

static void stats_finish(struct catenary_stats *out, size_t n, double span, double sum2)
{
    out->rms = sqrt(sum2 / (double)n);
    out->rms_rel = out->rms / span;
    out->max_rel = out->max / span;
}

void catenary_stats_points(const vec3 *p, const vec3 *q, size_t n, double span,
                           struct catenary_stats *out)
{
    double sum2 = 0;
    for (size_t i = 0; i < n; i++)
        stats_add(out, i, v3_dist(p[i], q[i]), &sum2);
    stats_finish(out, n, span, sum2);
}

void catenary_stats_curve(const struct catenary *c, const vec3 *p, size_t n, double span,
                          struct catenary_stats *out)
{
    double sum2 = 0;
    for (size_t i = 0; i < n; i++)
        stats_add(out, i, catenary_distance(c, p[i], NULL), &sum2);
    stats_finish(out, n, span, sum2);
}

double catenary_polyline_length(const vec3 *p, size_t n)
{
    double sum = 0;
    for (size_t i = 0; i + 1 < n; i++)
        sum += v3_dist(p[i], p[i + 1]);
    return sum;
}

size_t catenary_polyline_lowest(const vec3 *p, size_t n)
{
    size_t low = 0;
    for (size_t i = 1; i < n; i++)
        if (p[i].y < p[low].y)
            low = i;
    return low;
}

void catenary_link_stretch(const vec3 *p, const double *rest, size_t nlinks,
                           struct catenary_stretch *out)
{
    *out = (struct catenary_stretch){0};
    for (size_t i = 0; i < nlinks; i++) {
        const double r = v3_dist(p[i], p[i + 1]) / rest[i];
        if (i == 0 || r > out->max) {
            out->max = r;
            out->argmax = i;
        }
        if (i == 0 || r < out->min)
            out->min = r;
    }
}

/* --- the vertical plane through two points ----------------------------------------------- */

int catenary_plane_init(struct catenary_plane *pl, vec3 a, vec3 b, vec3 gravity,
                        struct catena_error *err)
{
    const double gl = v3_len(gravity);
    if (!(gl > 0) || !isfinite(gl))
        return error_set(err, CATENA_EINPUT,
                         "gravity is zero or not finite: there is no vertical plane");
    const vec3 up = v3_scale(gravity, -1 / gl), d = v3_sub(b, a);
    vec3 hor = v3_sub(d, v3_scale(up, v3_dot(d, up)));
    hor = v3_sub(hor, v3_scale(up, v3_dot(hor, up))); /* again: orthogonal to round-off */
    const double hl = v3_len(hor);
    if (!(hl > 1e-12 * v3_len(d)))
        return error_set(err, CATENA_EINPUT,
                         "the ends are vertically above each other: no vertical plane "
                         "through them");
    pl->origin = a;
    pl->u = v3_scale(hor, 1 / hl);
    pl->v = up;
    pl->w = v3_cross(pl->u, pl->v);
    return CATENA_OK;
}

vec3 catenary_plane_to2d(const struct catenary_plane *pl, vec3 p)
{
    const vec3 d = v3_sub(p, pl->origin);
    return v3(v3_dot(pl->u, d), v3_dot(pl->v, d), v3_dot(pl->w, d));
}

vec3 catenary_plane_to3d(const struct catenary_plane *pl, vec3 q)
{
    return v3_add(pl->origin,
                  v3_add(v3_scale(pl->u, q.x), v3_add(v3_scale(pl->v, q.y), v3_scale(pl->w, q.z))));
}
