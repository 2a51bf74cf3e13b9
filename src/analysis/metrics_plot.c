/* metrics.csv drawn over time (analysis/metrics_plot.h): each panel names the columns it
 * draws, their legend entries and the panel's title with its unit. Energy is kinetic plus
 * potential, the quantity that must not grow in a run without input; constraint errors span
 * decades as the solver converges, so their axis goes logarithmic when they do
 * (CHART_AUTO). */
#include "analysis/metrics_plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "gfx/chart.h"
#include "gfx/png_write.h"
#include "gfx/raster.h"

#define PLOT_MAX_SERIES 2

struct panel {
    const char *name;
    const char *title;                   /* the y axis's title, with its unit */
    const char *cols[PLOT_MAX_SERIES];   /* columns drawn; NULL ends */
    const char *labels[PLOT_MAX_SERIES]; /* their legend entries; NULL: no legend */
    int sum;                             /* 1: one series, the sum of the columns */
};

static const struct panel panels[] = {
    {"energy", "energy, kinetic + potential (J)", {"kinetic", "potential"}, {NULL}, 1},
    {"kinetic", "kinetic energy (J)", {"kinetic"}, {NULL}, 0},
    {"potential", "potential energy of gravity (J)", {"potential"}, {NULL}, 0},
    {"max_stretch", "max stretch (length / rest length)", {"max_stretch"}, {NULL}, 0},
    {"error", "constraint error (m)", {"error_sum", "error_max"}, {"sum over links", "largest"}, 0},
    {"error_sum", "constraint error, sum over links (m)", {"error_sum"}, {NULL}, 0},
    {"error_max", "constraint error, largest (m)", {"error_max"}, {NULL}, 0},
    {"max_speed", "max speed (m/s)", {"max_speed"}, {NULL}, 0},
    {"live_links", "live links", {"live_links"}, {NULL}, 0},
};
#define NPANELS (sizeof panels / sizeof *panels)

const char *const metrics_plot_names[] = {
    "energy",    "kinetic",   "potential", "max_stretch", "error",
    "error_sum", "error_max", "max_speed", "live_links",  NULL,
};

static const struct panel *find_panel(const char *name)
{
    for (size_t i = 0; i < NPANELS; i++)
        if (strcmp(panels[i].name, name) == 0)
            return &panels[i];
    return NULL;
}

int metrics_plot_known(const char *name)
{
    return find_panel(name) != NULL;
}

/* Column name of t as numbers, NaN where a row holds none; NULL with err set when the column
 * is missing or out of memory. */
static double *column(const struct csv *t, const char *path, const char *name,
                      struct catena_error *err)
{
    const long c = csv_column(t, name);
    if (c < 0) {
        error_set(err, CATENA_EINPUT, "%s: no column '%s'", path, name);
        return NULL;
    }
    double *v = malloc((t->nrows ? t->nrows : 1) * sizeof *v);
    if (!v) {
        error_set(err, CATENA_EFAIL, "%s: out of memory", path);
        return NULL;
    }
    for (size_t i = 0; i < t->nrows; i++)
        if (csv_number(t, i, (size_t)c, &v[i]))
            v[i] = NAN;
    return v;
}

/* The data of the panels: time, and each panel's series. */
struct figure {
    double *time;
    double *y[METRICS_PLOT_MAX_PANELS][PLOT_MAX_SERIES];
    struct chart_series series[METRICS_PLOT_MAX_PANELS][PLOT_MAX_SERIES];
    struct chart charts[METRICS_PLOT_MAX_PANELS];
};

static void figure_free(struct figure *f, size_t n)
{
    free(f->time);
    for (size_t p = 0; p < n; p++)
        for (int k = 0; k < PLOT_MAX_SERIES; k++)
            free(f->y[p][k]);
}

/* Reads panel p's series (def) from t into f. */
static int panel_load(struct figure *f, size_t p, const struct panel *def, const struct csv *t,
                      const char *path, struct catena_error *err)
{
    size_t ns = 0;
    for (int k = 0; k < PLOT_MAX_SERIES && def->cols[k]; k++)
        if (!(f->y[p][k] = column(t, path, def->cols[k], err)))
            return err->code;
    if (def->sum) {
        for (size_t i = 0; i < t->nrows; i++)
            f->y[p][0][i] += f->y[p][1][i];
        ns = 1;
    } else {
        while (ns < PLOT_MAX_SERIES && def->cols[ns])
            ns++;
    }
    for (size_t k = 0; k < ns; k++)
        f->series[p][k] = (struct chart_series){
            .name = def->labels[k], .x = f->time, .y = f->y[p][k], .n = t->nrows};
    f->charts[p] = (struct chart){
        .y = {.title = def->title}, .series = f->series[p], .nseries = ns, .text_scale = 2};
    return CATENA_OK;
}

/* Draws the panels one under another, the time axis's title under the last, and writes
 * the PNG. */
static int draw(const struct figure *f, const struct metrics_plot_options *o, const char *dir,
                const char *name, struct catena_error *err)
{
    const int w = o->width > 0 ? o->width : 900, ph = o->panel_height > 0 ? o->panel_height : 260;
    const int head = o->title ? 2 * RASTER_FONT_LINE + 8 : 0, tail = 2 * RASTER_FONT_LINE + 4;
    struct raster *r = raster_create(w, head + (int)o->npanels * ph + tail, err);
    if (!r)
        return err->code;
    raster_clear(r, (struct raster_color){255, 255, 255, 255});
    if (o->title)
        raster_text(r, 8, 6, o->title, 2, (struct raster_color){40, 40, 40, 255},
                    (struct raster_color){0, 0, 0, 0});
    int left = 0; /* one left edge for every panel: the time axes line up */
    for (size_t p = 0; p < o->npanels; p++) {
        const int l = chart_left(&f->charts[p], w, ph + (p + 1 == o->npanels ? tail : 0));
        left = l > left ? l : left;
    }
    for (size_t p = 0; p < o->npanels; p++) {
        struct chart c = f->charts[p];
        const int last = p + 1 == o->npanels;
        c.x.title = last ? "time (s)" : NULL;
        c.left = left;
        chart_draw(r, 0, head + (int)p * ph, w, ph + (last ? tail : 0), &c);
    }
    const int rc = png_write_raster(r, dir, name, NULL, err);
    raster_destroy(r);
    return rc;
}

int metrics_plot(const char *csv_path, const struct metrics_plot_options *o, const char *dir,
                 const char *name, struct catena_error *err)
{
    if (o->npanels < 1 || o->npanels > 16)
        return error_set(err, CATENA_EINPUT, "plot: between 1 and 16 metrics, not %zu", o->npanels);
    for (size_t p = 0; p < o->npanels; p++)
        if (!find_panel(o->panels[p]))
            return error_set(err, CATENA_EINPUT, "plot: unknown metric '%s'", o->panels[p]);
    struct csv *t = csv_read(csv_path, err);
    if (!t)
        return err->code;
    struct figure *f = calloc(1, sizeof *f);
    int rc = f ? CATENA_OK : error_set(err, CATENA_EFAIL, "%s: out of memory", csv_path);
    if (rc == CATENA_OK && !(f->time = column(t, csv_path, "time", err)))
        rc = err->code;
    for (size_t p = 0; rc == CATENA_OK && p < o->npanels; p++)
        rc = panel_load(f, p, find_panel(o->panels[p]), t, csv_path, err);
    if (rc == CATENA_OK)
        rc = draw(f, o, dir, name, err);
    if (f)
        figure_free(f, o->npanels);
    free(f);
    csv_destroy(t);
    return rc;
}
