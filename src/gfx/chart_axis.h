/* A chart's axis: the range it shows and its ticks, chosen so that labels read well. A linear
 * axis steps by 1, 2 or 5 times a power of ten, its ends on whole steps; a logarithmic one
 * marks whole decades (with 2 and 5 between them when the data span less than two), and an
 * unlabelled tick at 2..9 times each when there is room; a categorical one marks 0..n-1 with
 * the categories' names. As many ticks as fit: labels of a horizontal axis never overlap,
 * those of a vertical one stand two lines apart.
 * Glossary: value, where a datum is on the axis; position, where it lands between the axis's
 * two ends, 0 at lo and 1 at hi. */
#ifndef CATENA_CHART_AXIS_H
#define CATENA_CHART_AXIS_H

#include <stddef.h>

#define CHART_AXIS_MAX_TICKS 64
#define CHART_AXIS_LABEL 32

struct chart_tick {
    double value;
    int labelled;                 /* 0: a minor tick, no label and no grid line */
    char label[CHART_AXIS_LABEL]; /* "" when not labelled */
};

struct chart_axis_ticks {
    int log;       /* 1: positions follow log10 of the value */
    double lo, hi; /* the values at the axis's two ends, lo < hi (both > 0 on a log axis) */
    size_t n;      /* ticks, in increasing value */
    struct chart_tick t[CHART_AXIS_MAX_TICKS];
};

/* How much room labels need along the axis: horizontal axes lay labels side by side (their
 * widths count), vertical ones stack them (their height counts). */
struct chart_axis_room {
    double length;  /* the axis's length, px */
    int text_scale; /* the labels' font scale, >= 1 */
    int horizontal; /* 1: an x axis */
};

/* The ticks for data from min to max (finite, min <= max; on a log axis both > 0). A range
 * of zero width is widened around its value. */
void chart_axis_linear(double min, double max, const struct chart_axis_room *room,
                       struct chart_axis_ticks *out);
void chart_axis_log(double min, double max, const struct chart_axis_room *room,
                    struct chart_axis_ticks *out);

/* Categories 0..n-1 named names[0..n-1] (n >= 1), half a category of room at either end;
 * when the names do not fit, every k-th is labelled. */
void chart_axis_categories(const char *const *names, size_t n, const struct chart_axis_room *room,
                           struct chart_axis_ticks *out);

/* Where value lands, 0 at lo and 1 at hi (outside for values beyond them); NaN when the
 * value cannot be shown (not finite, or not above 0 on a log axis). */
double chart_axis_position(const struct chart_axis_ticks *a, double value);

/* A tick label for v on a linear axis stepping by step: fixed-point with the step's decimals
 * for moderate sizes, otherwise "2.5e-7", mantissa's trailing zeros dropped; "0" for 0. */
void chart_axis_format(double v, double step, char *buf, size_t size);

#endif
