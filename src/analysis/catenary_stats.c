/* Error metrics of a simulated chain against a reference (analysis/catenary.h): point-to-point
 * and point-to-curve distances, polyline length and lowest point, link stretch. */
#include "analysis/catenary.h"

#include <math.h>

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
