/* catenary.png: per chain, a panel with the simulated points, the analytic curve and the
 * discrete reference in the vertical plane (equal scales), and below it the distances
 * between the three, point by point, on a logarithmic axis, so that an error of 1e-7 of the
 * span shows beside one of 1e-3. */
#include <math.h>
#include <stdio.h>

#include "gfx/png_write.h"
#include "gfx/raster.h"
#include "analysis/report_catenary.h"

#define PLOT_W 900
#define CHAIN_H 620
#define MARGIN 130
#define TOP_Y0 56 /* chain panel */
#define TOP_Y1 356
#define DEV_Y0 440 /* deviation panel */
#define DEV_Y1 580
#define CURVE_SAMPLES 400

static const struct raster_color WHITE = {255, 255, 255, 255};
static const struct raster_color INK = {40, 40, 40, 255};
static const struct raster_color GRID = {215, 215, 215, 255};
static const struct raster_color NONE = {0, 0, 0, 0};
static const struct raster_color C_SIM = {20, 20, 20, 255};     /* simulated */
static const struct raster_color C_CURVE = {31, 119, 180, 255}; /* analytic */
static const struct raster_color C_REF = {255, 127, 14, 255};   /* discrete */
static const struct raster_color C_SOLVER = {214, 39, 40, 255}; /* simulated - discrete */

/* Plane coordinates to pixels: x to the right, y up, one scale for both in the chain panel. */
struct view {
    double x0, y0; /* plane point at the panel's left edge / bottom */
    double sx, sy; /* pixels per metre */
    int px0, py0;  /* pixel of (x0, y0) */
};

static double view_x(const struct view *v, double x)
{
    return v->px0 + (x - v->x0) * v->sx;
}

static double view_y(const struct view *v, double y)
{
    return v->py0 - (y - v->y0) * v->sy;
}

static void bounds_add(double b[4], vec3 p)
{
    b[0] = fmin(b[0], p.x);
    b[1] = fmax(b[1], p.x);
    b[2] = fmin(b[2], p.y);
    b[3] = fmax(b[3], p.y);
}

/* The chain panel's view: everything drawn fits, centred, with equal scales. */
static struct view chain_view(const struct report_chain *c, int top)
{
    const size_t n = c->nlinks + 1;
    double b[4] = {INFINITY, -INFINITY, INFINITY, -INFINITY};
    for (size_t k = 0; k < n; k++) {
        bounds_add(b, c->sim[k]);
        bounds_add(b, c->ref[k]);
        bounds_add(b, c->curve[k]);
    }
    const double w = PLOT_W - 2 * MARGIN, h = TOP_Y1 - TOP_Y0;
    const double dx = fmax(b[1] - b[0], 1e-12), dy = fmax(b[3] - b[2], 1e-12);
    const double s = fmin(w / dx, h / dy);
    struct view v = {.x0 = b[0], .y0 = b[2], .sx = s, .sy = s};
    v.px0 = MARGIN + (int)((w - dx * s) / 2);
    v.py0 = top + TOP_Y1 - (int)((h - dy * s) / 2);
    return v;
}

static void draw_chain(struct raster *r, const struct report_chain *c, const struct view *v)
{
    const size_t n = c->nlinks + 1;
    double px = 0, py = 0;
    for (int i = 0; i <= CURVE_SAMPLES; i++) {
        const double x = c->span * i / CURVE_SAMPLES;
        const double qx = view_x(v, x), qy = view_y(v, catenary_y(&c->analytic, x));
        if (i > 0)
            raster_line(r, px, py, qx, qy, 2, RASTER_CAP_ROUND, C_CURVE);
        px = qx;
        py = qy;
    }
    for (size_t k = 0; k < n; k++)
        raster_ring(r, view_x(v, c->ref[k].x), view_y(v, c->ref[k].y), 5, 1.5, C_REF);
    for (size_t k = 0; k < n; k++)
        raster_disc(r, view_x(v, c->sim[k].x), view_y(v, c->sim[k].y), 2.5, C_SIM);
}

/* The deviation panel's axis: log10 of the distance, whole decades from lo to hi, so that
 * the three series show whatever their sizes (a solver error of 1e-7 beside a
 * discretisation error of 1e-3). Distances below 10^lo (the pinned ends' zeros) sit on the
 * bottom line. */
struct log_axis {
    int lo, hi;    /* decades */
    double y0, y1; /* pixel rows of 10^lo and 10^hi */
};

static double axis_y(const struct log_axis *a, double d)
{
    const double l = d > 0 ? fmax(log10(d), a->lo) : a->lo;
    return a->y0 + (l - a->lo) / (a->hi - a->lo) * (a->y1 - a->y0);
}

/* Decades spanning the nonzero distances, at most 12 below the largest. */
static struct log_axis deviation_axis(const struct report_chain *c, int top)
{
    const vec3 *pairs[3][2] = {{c->ref, c->curve}, {c->sim, c->curve}, {c->sim, c->ref}};
    double lo = INFINITY, hi = 0;
    for (int s = 0; s < 3; s++)
        for (size_t k = 0; k <= c->nlinks; k++) {
            const double d = v3_dist(pairs[s][0][k], pairs[s][1][k]);
            if (d > 0) {
                lo = fmin(lo, d);
                hi = fmax(hi, d);
            }
        }
    if (!(hi > 0))
        lo = hi = 1e-16; /* the three agree exactly */
    struct log_axis a = {.hi = (int)ceil(log10(hi)), .y0 = top + DEV_Y1, .y1 = top + DEV_Y0};
    a.lo = (int)floor(log10(fmax(lo, hi * 1e-12)));
    if (a.hi <= a.lo)
        a.hi = a.lo + 1;
    return a;
}

/* One series: |p[k] - q[k]| against the simulated point's x. */
static void draw_series(struct raster *r, const struct report_chain *c, const vec3 *p,
                        const vec3 *q, const struct view *v, const struct log_axis *a,
                        struct raster_color col)
{
    double px = 0, py = 0;
    for (size_t k = 0; k <= c->nlinks; k++) {
        const double qx = view_x(v, c->sim[k].x), qy = axis_y(a, v3_dist(p[k], q[k]));
        if (k > 0)
            raster_line(r, px, py, qx, qy, 1.5, RASTER_CAP_ROUND, col);
        raster_disc(r, qx, qy, 2.5, col);
        px = qx;
        py = qy;
    }
}

static void label(struct raster *r, int x, int y, const char *s, struct raster_color ink)
{
    raster_text(r, x, y, s, 2, ink, NONE);
}

/* A swatch and its name; returns the x after it. */
static int key(struct raster *r, int x, int y, struct raster_color col, const char *s)
{
    int w, h;
    raster_fill_rect(r, x, y + 6, 18, 6, col);
    label(r, x + 22, y, s, INK);
    raster_text_size(s, 2, &w, &h);
    return x + 22 + w + 16;
}

static void draw_deviation(struct raster *r, const struct report_chain *c, const struct view *v,
                           int top)
{
    const struct log_axis a = deviation_axis(c, top);
    const int step = (a.hi - a.lo + 5) / 6; /* at most 6 labelled decades */
    for (int d = a.lo; d <= a.hi; d++) {
        const int y = (int)lround(axis_y(&a, pow(10, d)));
        raster_fill_rect(r, MARGIN, y, PLOT_W - 2 * MARGIN, 1, d == a.lo ? INK : GRID);
        if ((d - a.lo) % step != 0)
            continue;
        char s[32];
        int w, h;
        snprintf(s, sizeof s, "1e%d m", d);
        raster_text_size(s, 2, &w, &h);
        label(r, MARGIN - w - 4, y - h / 2, s, INK);
    }
    draw_series(r, c, c->ref, c->curve, v, &a, C_REF);
    draw_series(r, c, c->sim, c->curve, v, &a, C_SIM);
    draw_series(r, c, c->sim, c->ref, v, &a, C_SOLVER);
    label(r, MARGIN, top + DEV_Y0 - 56, "distance between them, point by point (log scale):", INK);
    int x = key(r, MARGIN, top + DEV_Y0 - 32, C_SIM, "simulated-analytic");
    x = key(r, x, top + DEV_Y0 - 32, C_REF, "discrete-analytic");
    key(r, x, top + DEV_Y0 - 32, C_SOLVER, "simulated-discrete");
}

static void draw_title(struct raster *r, const struct report_catenary *rep,
                       const struct report_chain *c, int top)
{
    char s[256], name[128];
    if (c->body)
        snprintf(name, sizeof name, "%s", c->body);
    else
        snprintf(name, sizeof name, "points %zu..%zu", c->first, c->last);
    snprintf(s, sizeof s, "%s, step %ld, %s: solver error max %.3g of the span", name, rep->step,
             model_method_name(rep->m->method), c->solver.max_rel);
    label(r, MARGIN, top + 8, s, INK);
    int x = key(r, MARGIN, top + 30, C_SIM, "simulated");
    x = key(r, x, top + 30, C_CURVE, "analytic catenary");
    key(r, x, top + 30, C_REF, c->extensible ? "discrete (extensible)" : "discrete (rigid)");
}

int report_catenary_plot(const struct report_catenary *rep, const char *dir, const char *name,
                         struct catena_error *err)
{
    const size_t n = rep->nchains;
    const int height = (int)(n * CHAIN_H < RASTER_MAX_SIDE ? n * CHAIN_H : RASTER_MAX_SIDE);
    struct raster *r = raster_create(PLOT_W, height, err);
    if (!r)
        return err->code;
    raster_clear(r, WHITE);
    for (size_t i = 0; i < n && (int)((i + 1) * CHAIN_H) <= height; i++) {
        const struct report_chain *c = &rep->chains[i];
        const int top = (int)i * CHAIN_H;
        const struct view v = chain_view(c, top);
        draw_title(r, rep, c, top);
        draw_chain(r, c, &v);
        draw_deviation(r, c, &v, top);
    }
    const int rc = png_write_raster(r, dir, name, NULL, err);
    raster_destroy(r);
    return rc;
}
