/* Axis ranges and ticks (gfx/chart_axis.h). The step is the finest 1-2-5 step whose labels
 * fit, with at most CHART_NICE_TICKS ticks: more would crowd the plot without adding a value
 * a reader can use. */
#include "gfx/chart_axis.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gfx/raster.h"

/* The most ticks a linear axis gets, and labelled decades a log axis gets. */
#define CHART_NICE_TICKS 10

/* Labels of a horizontal axis keep this many glyph advances between them. */
#define CHART_LABEL_GAP 2

/* Labels of a vertical axis stand this many text lines apart, at least. */
#define CHART_LABEL_LINES 2

/* Whether the labelled ticks of t have room along the axis. */
static int labels_fit(const struct chart_axis_ticks *t, const struct chart_axis_room *room)
{
    const double span = t->log ? log10(t->hi) - log10(t->lo) : t->hi - t->lo;
    double prev_pos = 0, prev_half = 0;
    int have_prev = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (!t->t[i].labelled)
            continue;
        const double v = t->log ? log10(t->t[i].value) - log10(t->lo) : t->t[i].value - t->lo;
        const double pos = v / span * room->length;
        double need, half;
        if (room->horizontal) {
            int w, h;
            raster_text_size(t->t[i].label, room->text_scale, &w, &h);
            half = 0.5 * w;
            need = prev_half + half + CHART_LABEL_GAP * RASTER_FONT_ADVANCE * room->text_scale;
        } else {
            half = 0;
            need = CHART_LABEL_LINES * RASTER_FONT_LINE * room->text_scale;
        }
        if (have_prev && pos - prev_pos < need)
            return 0;
        prev_pos = pos;
        prev_half = half;
        have_prev = 1;
    }
    return 1;
}

/* Drops the trailing zeros of a mantissa "1.500" -> "1.5", "2.000" -> "2". */
static void trim_zeros(char *s)
{
    if (!strchr(s, '.'))
        return;
    size_t n = strlen(s);
    while (n > 0 && s[n - 1] == '0')
        s[--n] = '\0';
    if (n > 0 && s[n - 1] == '.')
        s[n - 1] = '\0';
}

void chart_axis_format(double v, double step, char *buf, size_t size)
{
    if (v == 0 || !isfinite(v)) {
        snprintf(buf, size, isfinite(v) ? "0" : "%g", v);
        return;
    }
    const int e = (int)floor(log10(step) + 1e-9); /* step = 1, 2 or 5 times 10^e */
    const double a = fabs(v);
    if (a >= 1e-3 && a < 1e6 && e >= -9) {
        snprintf(buf, size, "%.*f", e < 0 ? -e : 0, v);
        return;
    }
    const int E = (int)floor(log10(a));
    char m[CHART_AXIS_LABEL];
    snprintf(m, sizeof m, "%.*f", E - e > 0 ? E - e : 0, v / pow(10, E));
    trim_zeros(m);
    snprintf(buf, size, "%se%d", m, E);
}

/* Linear ticks of step over [min, max], widened to whole steps. */
static void linear_ticks(double min, double max, double step, struct chart_axis_ticks *t)
{
    const double k0 = floor(min / step + 1e-9), k1 = ceil(max / step - 1e-9);
    t->log = 0;
    t->lo = k0 * step;
    t->hi = k1 > k0 ? k1 * step : (k0 + 1) * step;
    t->n = 0;
    for (double k = k0; k <= k1 && t->n < CHART_AXIS_MAX_TICKS; k++) {
        struct chart_tick *c = &t->t[t->n++];
        c->value = fabs(k * step) < 1e-9 * step ? 0 : k * step;
        c->labelled = 1;
        chart_axis_format(c->value, step, c->label, sizeof c->label);
    }
}

/* The next finer 1-2-5 step: 10 -> 5 -> 2 -> 1 -> 0.5 ... */
static double finer(double step)
{
    const double e = pow(10, floor(log10(step) + 1e-9)), m = step / e;
    return m > 4.5 ? 2 * e : m > 1.5 ? e : 0.5 * e;
}

void chart_axis_linear(double min, double max, const struct chart_axis_room *room,
                       struct chart_axis_ticks *out)
{
    const double mag = fmax(fabs(min), fabs(max));
    if (!(max - min > 1e-12 * mag)) { /* a constant, or round-off about one */
        const double d = mag > 0 ? 0.05 * mag : 1;
        min -= d;
        max += d;
    }
    double step = pow(10, ceil(log10(max - min))); /* one step spans it all */
    linear_ticks(min, max, step, out);
    for (;;) {
        const double next = finer(step);
        struct chart_axis_ticks t;
        linear_ticks(min, max, next, &t);
        if (t.n > CHART_NICE_TICKS || !labels_fit(&t, room))
            return;
        *out = t;
        step = next;
    }
}

/* "0.002" for moderate powers of ten, else "2e-7". */
static void log_label(int m, int d, char *buf, size_t size)
{
    if (d >= -3 && d <= 4)
        snprintf(buf, size, "%.*f", d < 0 ? -d : 0, m * pow(10, d));
    else
        snprintf(buf, size, "%de%d", m, d);
}

/* Log ticks from lo to hi, which are 1, 2 or 5 times a power of ten, decades d0 = floor(lg lo)
 * to d1: each stride-th decade labelled, 2 and 5 labelled too when mid, unlabelled ticks at the
 * other decades and at 2..9 times each when minor. */
static void log_ticks(double lo, double hi, int stride, int mid, int minor,
                      struct chart_axis_ticks *t)
{
    const int d0 = (int)floor(log10(lo) + 1e-9), d1 = (int)ceil(log10(hi) - 1e-9);
    t->log = 1;
    t->lo = lo;
    t->hi = hi;
    t->n = 0;
    for (int d = d0; d <= d1; d++) {
        for (int m = 1; m <= 9 && t->n < CHART_AXIS_MAX_TICKS; m++) {
            const double v = m * pow(10, d);
            const int label = m == 1 ? (d - d0) % stride == 0 : mid && (m == 2 || m == 5);
            if (v < lo * (1 - 1e-9) || v > hi * (1 + 1e-9) || (m > 1 && !label && !minor))
                continue;
            if (!label && d1 - d0 > CHART_AXIS_MAX_TICKS / 2)
                continue; /* too many decades to mark each */
            struct chart_tick *c = &t->t[t->n++];
            c->value = v;
            c->labelled = label;
            c->label[0] = '\0';
            if (label)
                log_label(m, d, c->label, sizeof c->label);
        }
    }
}

/* v rounded down (up = 0) or up (up = 1) to 1, 2 or 5 times a power of ten. */
static double round125(double v, int up)
{
    static const double ms[] = {1, 2, 5, 10};
    const double e = pow(10, floor(log10(v)));
    if (!up) {
        for (int k = 2; k >= 0; k--)
            if (ms[k] * e <= v * (1 + 1e-12))
                return ms[k] * e;
        return e;
    }
    for (int k = 0; k < 4; k++)
        if (ms[k] * e >= v * (1 - 1e-12))
            return ms[k] * e;
    return 10 * e;
}

void chart_axis_log(double min, double max, const struct chart_axis_room *room,
                    struct chart_axis_ticks *out)
{
    double lo = round125(min, 0), hi = round125(max, 1);
    if (hi <= lo)
        hi = round125(lo * 1.5, 1);
    const double ndec = log10(hi) - log10(lo);
    const int minor = room->length / ndec >= 8.0 * room->text_scale; /* 2..9 then 2x apart */
    if (ndec <= 2.0 + 1e-9) {
        log_ticks(lo, hi, 1, 1, minor, out);
        if (labels_fit(out, room))
            return;
    }
    static const int strides[] = {1, 2, 3, 4, 5, 10, 20, 50, 100, 200};
    for (size_t i = 0; i < sizeof strides / sizeof *strides; i++) {
        log_ticks(lo, hi, strides[i], 0, minor && strides[i] == 1, out);
        if (ndec / strides[i] + 1 <= CHART_NICE_TICKS && labels_fit(out, room))
            return;
    }
}

void chart_axis_categories(const char *const *names, size_t n, const struct chart_axis_room *room,
                           struct chart_axis_ticks *out)
{
    out->log = 0;
    out->lo = -0.5;
    out->hi = (double)n - 0.5;
    for (size_t stride = 1;; stride++) {
        out->n = 0;
        for (size_t k = 0; k < n && out->n < CHART_AXIS_MAX_TICKS; k += stride) {
            struct chart_tick *c = &out->t[out->n++];
            c->value = (double)k;
            c->labelled = 1;
            snprintf(c->label, sizeof c->label, "%s", names[k]);
        }
        if ((n + stride - 1) / stride <= CHART_AXIS_MAX_TICKS && labels_fit(out, room))
            return;
        if (stride >= n)
            return;
    }
}

double chart_axis_position(const struct chart_axis_ticks *a, double value)
{
    if (!isfinite(value) || (a->log && !(value > 0)))
        return NAN;
    if (a->log)
        return (log10(value) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
    return (value - a->lo) / (a->hi - a->lo);
}
