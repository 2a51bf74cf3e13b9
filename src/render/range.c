/* The colour range a run's frames share, by default the 2nd to 98th percentile of every value
 * drawn (xarray's "robust" colour limits), so that a few extreme links, such as those at a
 * pinned corner of a soft cloth, do not wash out everything else. Values are counted in a
 * histogram of their distance from an offset, binned by sign, binary exponent and RANGE_SUB
 * linear steps of the mantissa (1.6 to 3.1 % wide, no logarithms): it needs no bounds in
 * advance and keeps memory fixed. A percentile is read at the outer edge of its bin and never
 * reaches beyond the values' true extremes. */
#include <math.h>
#include <string.h>

#include "render/range.h"

#define RANGE_MIN_EXP (-40) /* |x| below 2^-41, about 5e-13, counts as 0 */

static int bin_of(double ax)
{
    int e;
    const double m = frexp(ax, &e); /* ax = m 2^e, 0.5 <= m < 1 */
    const int b = (e - RANGE_MIN_EXP) * RANGE_SUB + (int)((m - 0.5) * 2 * RANGE_SUB);
    return b < 0 ? 0 : b >= RANGE_BINS ? RANGE_BINS - 1 : b;
}

/* The bin's edge away from zero (outer = 1) or towards it, as a magnitude. */
static double bin_edge(int b, int outer)
{
    const int e = b / RANGE_SUB + RANGE_MIN_EXP, k = b % RANGE_SUB + outer;
    return ldexp(0.5 + 0.5 * k / RANGE_SUB, e);
}

void render_range_init(struct render_range *h, double offset)
{
    memset(h, 0, sizeof *h);
    h->offset = offset;
    h->min = INFINITY;
    h->max = -INFINITY;
}

void render_range_add(struct render_range *h, double v)
{
    if (!isfinite(v))
        return;
    /* comparisons, not fmin and fmax (library calls): v is finite, and this runs per value */
    h->min = v < h->min ? v : h->min;
    h->max = v > h->max ? v : h->max;
    h->count++;
    const double x = v - h->offset;
    if (fabs(x) < ldexp(0.5, RANGE_MIN_EXP))
        h->zero++;
    else if (x > 0)
        h->pos[bin_of(x)]++;
    else
        h->neg[bin_of(-x)]++;
}

/* The value below which a fraction q of the counts lie, rounded outwards to a bin edge
 * (down when lower = 1, up otherwise). */
static double quantile(const struct render_range *h, double q, int lower)
{
    const double want = q * (double)h->count;
    double seen = 0;
    /* from the most negative bin up to the most positive one */
    for (int b = RANGE_BINS - 1; b >= 0; b--)
        if ((seen += (double)h->neg[b]) >= want && h->neg[b])
            return h->offset - bin_edge(b, lower);
    if ((seen += (double)h->zero) >= want && h->zero)
        return h->offset;
    for (int b = 0; b < RANGE_BINS; b++)
        if ((seen += (double)h->pos[b]) >= want && h->pos[b])
            return h->offset + bin_edge(b, !lower);
    return h->max;
}

int render_range_get(const struct render_range *h, double lo_q, double hi_q, double *lo, double *hi)
{
    if (h->count == 0)
        return -1;
    *lo = fmax(h->min, quantile(h, lo_q, 1));
    *hi = fmin(h->max, quantile(h, hi_q, 0));
    return 0;
}
