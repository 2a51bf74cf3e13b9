/* The exact equilibrium of a discrete chain (analysis/catenary.h). The chain minimises its
 * convex complementary energy sum(l T + c T^2/2) - H dx - V0 dy, whose gradient is the end-point
 * mismatch (Irvine, Cable Structures, 1981, ch. 1): Newton in |H| on the energy already
 * minimised over V, each step a bracketed Newton in V. */
#include "analysis/catenary.h"

#include <float.h>
#include <math.h>

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
    if (!catenary_finite_xy(ch->a) || !catenary_finite_xy(ch->b))
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
