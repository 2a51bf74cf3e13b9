/* Line charts drawn on a raster (gfx/raster.h): a panel with a title, axes with ticks and
 * labels (gfx/chart_axis.h), axis titles that carry the unit, light grid lines, the data as
 * lines (and markers), and a legend in the corner that hides the fewest points. A figure is
 * one or more panels on one canvas: `catena plot` stacks one per metric, `catena sweep plot`
 * draws one. Nothing here allocates. */
#ifndef CATENA_CHART_H
#define CATENA_CHART_H

#include <stddef.h>

#include "gfx/raster.h"

enum chart_scale {
    CHART_AUTO, /* log when every value is above 0 and they span CHART_AUTO_DECADES or more */
    CHART_LINEAR,
    CHART_LOG, /* values not above 0 are left out */
};

/* Decades of data from which CHART_AUTO picks a log scale. */
#define CHART_AUTO_DECADES 2.0

struct chart_axis {
    const char *title;        /* with the unit in brackets, "time (s)"; NULL: none */
    enum chart_scale scale;   /* ignored for categories */
    const char *const *names; /* categories: value k is names[k], k = 0..nnames-1; NULL: a
                                 numeric axis */
    size_t nnames;
};

struct chart_series {
    const char *name;    /* the legend's entry; NULL: not in the legend */
    const double *x, *y; /* [n] a point that cannot be shown (not finite, or not above 0
                            on a log axis) breaks the line there */
    size_t n;
    struct raster_color color; /* a = 0: the palette's colour for the series' index */
    int markers;               /* 1: a disc on every point (for sparse data) */
};

struct chart {
    const char *title; /* over the panel, NULL: none */
    struct chart_axis x, y;
    const struct chart_series *series;
    size_t nseries;
    int text_scale; /* >= 1: 2 reads well on a 900-pixel-wide figure */
};

/* Draws ch into the rectangle [x, x+w) x [y, y+h) of r, on white. Panels too small for their
 * labels are drawn as far as they fit. A chart with no point to show says "no data". */
void chart_draw(struct raster *r, int x, int y, int w, int h, const struct chart *ch);

/* The i-th colour of a qualitative palette (matplotlib's "tab10", Tableau's 10 colours),
 * repeating after ten. */
struct raster_color chart_palette(size_t i);

#endif
