/* Least-squares catenary fit (analysis/catenary.h): Levenberg-Marquardt on the orthogonal
 * distances of the points to the curve, each found by catenary_foot. */
#include "analysis/catenary.h"

#include <float.h>
#include <math.h>

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
        if (!catenary_finite_xy(p[k]))
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
