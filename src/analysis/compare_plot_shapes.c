/* compare --plot's lower panel: A's and B's frames at the step where |A-B| peaks, overlaid on
 * equal scales (B, the reference, wide and light underneath; A thin and dark on top), with
 * the point that strays furthest marked. A deviation of a few pixels or less would not show,
 * so an inset then magnifies the neighbourhood of that point until it does. In 3D the two
 * coordinates that spread the most are drawn. Lines are clipped to their panel (Liang and
 * Barsky, 1984). */
#include <math.h>
#include <stdio.h>

#include "analysis/compare_plot_internal.h"
#include "gfx/chart_axis.h"

static const struct raster_color WHITE = {255, 255, 255, 255};
static const struct raster_color NONE = {0, 0, 0, 0};
static const struct raster_color GRID = {230, 230, 230, 255};
static const struct raster_color FRAME = {150, 150, 150, 255};
static const struct raster_color B_LINK = {255, 187, 120, 255}; /* tab20's light orange */

enum {
    POINTS_DRAWN_MAX = 4000, /* beyond this the points would be a smear: links only */
    INSET = 230,             /* the inset's side, px */
    INSET_BELOW_PX = 6,      /* a deviation drawn shorter than this gets an inset */
};

/* Data coordinates to pixels in a rectangle: u across, v up, one scale for both. */
struct view {
    int u, v;              /* the coordinates drawn: 0 x, 1 y, 2 z */
    double cu, cv;         /* the data point at the rectangle's centre, m */
    double s;              /* px per m */
    double x0, y0, x1, y1; /* the rectangle, px */
};

static double to_x(const struct view *w, vec3 p)
{
    return (w->x0 + w->x1) / 2 + (v3_comp(p, w->u) - w->cu) * w->s;
}

static double to_y(const struct view *w, vec3 p)
{
    return (w->y0 + w->y1) / 2 - (v3_comp(p, w->v) - w->cv) * w->s;
}

/* The two coordinates with the largest spread over both frames, in x, y, z order (x and y in
 * 2D); their extent in b = {umin, umax, vmin, vmax}. */
static void pick_axes(const struct compare_result *res, struct view *w, double b[4])
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int side = 0; side < 2; side++) {
        const vec3 *x = side ? res->worst_b : res->worst_a;
        for (size_t p = 0; p < res->npoints; p++)
            for (int k = 0; k < res->dims; k++) {
                const double c = v3_comp(x[p], k);
                if (isfinite(c)) {
                    lo[k] = fmin(lo[k], c);
                    hi[k] = fmax(hi[k], c);
                }
            }
    }
    int drop = 2; /* in 3D, leave out the coordinate that spreads the least */
    for (int k = 0; k < res->dims && res->dims == 3; k++)
        if (!(hi[k] - lo[k] >= hi[drop] - lo[drop]))
            drop = k;
    w->u = drop == 0 ? 1 : 0;
    w->v = drop == 2 ? 1 : 2;
    const double spread[4] = {lo[w->u], hi[w->u], lo[w->v], hi[w->v]};
    for (int i = 0; i < 4; i++)
        b[i] = isfinite(spread[i]) ? spread[i] : 0;
}

/* Fits the extent b into the rectangle with a margin, one scale for both directions. */
static void fit(struct view *w, const double b[4], double x0, double y0, double x1, double y1)
{
    w->x0 = x0;
    w->y0 = y0;
    w->x1 = x1;
    w->y1 = y1;
    const double du = fmax(b[1] - b[0], 1e-12), dv = fmax(b[3] - b[2], 1e-12);
    w->s = 0.92 * fmin((x1 - x0) / du, (y1 - y0) / dv);
    if (b[1] - b[0] < 1e-12 && b[3] - b[2] < 1e-12)
        w->s = (x1 - x0) / 2; /* a single point: a metre across the panel */
    w->cu = (b[0] + b[1]) / 2;
    w->cv = (b[2] + b[3]) / 2;
}

/* Clips the segment to w's rectangle; 0 when nothing of it is inside. */
static int clip(const struct view *w, double *x0, double *y0, double *x1, double *y1)
{
    const double dx = *x1 - *x0, dy = *y1 - *y0;
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {*x0 - w->x0, w->x1 - *x0, *y0 - w->y0, w->y1 - *y0};
    double t0 = 0, t1 = 1;
    for (int i = 0; i < 4; i++) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return 0;
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0)
            t0 = fmax(t0, t);
        else
            t1 = fmin(t1, t);
    }
    if (!(t0 <= t1))
        return 0;
    *x1 = *x0 + t1 * dx;
    *y1 = *y0 + t1 * dy;
    *x0 += t0 * dx;
    *y0 += t0 * dy;
    return 1;
}

static void segment(struct raster *r, const struct view *w, vec3 a, vec3 b, double width,
                    struct raster_color c)
{
    double x0 = to_x(w, a), y0 = to_y(w, a), x1 = to_x(w, b), y1 = to_y(w, b);
    if (isfinite(x0 + y0 + x1 + y1) && clip(w, &x0, &y0, &x1, &y1))
        raster_line(r, x0, y0, x1, y1, width, RASTER_CAP_ROUND, c);
}

static int inside(const struct view *w, double px, double py)
{
    return px >= w->x0 && px <= w->x1 && py >= w->y0 && py <= w->y1;
}

/* One frame: its links, then its points (rings for B, discs for A). */
static void draw_frame(struct raster *r, const struct view *w, const vec3 *x, size_t npoints,
                       const struct compare_plot_links *links, int is_b)
{
    for (size_t i = 0; i < links->n; i++)
        segment(r, w, x[links->ab[i][0]], x[links->ab[i][1]], is_b ? 4.5 : 1.6,
                is_b ? B_LINK : compare_plot_a);
    if (npoints > POINTS_DRAWN_MAX)
        return;
    const double radius = npoints > 400 ? 1.5 : 3;
    for (size_t p = 0; p < npoints; p++) {
        const double px = to_x(w, x[p]), py = to_y(w, x[p]);
        if (!inside(w, px, py))
            continue;
        if (is_b)
            raster_ring(r, px, py, radius + 1.5, 1.5, compare_plot_b);
        else
            raster_disc(r, px, py, radius * 0.8, compare_plot_a);
    }
}

/* The point of the worst frame furthest from B (within the compared points), or -1 when A
 * equals B there. */
static long worst_point(const struct compare_result *res, double *dist)
{
    long best = -1;
    *dist = 0;
    for (long p = res->opt.point_first; p <= res->opt.point_last; p++) {
        const vec3 a = res->worst_a[p], b = res->worst_b[p];
        double d = v3_dist(a, b);
        if (isnan(d))
            d = INFINITY;
        if (d > *dist) {
            *dist = d;
            best = p;
        }
    }
    return best;
}

/* A red ring around B's position of the worst point and a line to A's. */
static void mark_worst(struct raster *r, const struct view *w, vec3 a, vec3 b)
{
    const double bx = to_x(w, b), by = to_y(w, b);
    segment(r, w, b, a, 2, compare_plot_worst);
    if (inside(w, bx, by))
        raster_ring(r, bx, by, 10, 2, compare_plot_worst);
}

/* Ticks, grid lines, labels and titles of a view's frame, drawn before the data. */
static void draw_axes(struct raster *r, const struct view *w, int ts)
{
    static const char *const names[3] = {"x (m)", "y (m)", "z (m)"};
    for (int axis = 0; axis < 2; axis++) {
        const double len = axis ? w->y1 - w->y0 : w->x1 - w->x0;
        const double c = axis ? w->cv : w->cu, half = len / 2 / w->s;
        const struct chart_axis_room room = {len, ts, !axis};
        struct chart_axis_ticks t;
        chart_axis_linear(c - half, c + half, &room, &t);
        for (size_t i = 0; i < t.n; i++) {
            const double off = (t.t[i].value - c) * w->s;
            const double pos = axis ? (w->y0 + w->y1) / 2 - off : (w->x0 + w->x1) / 2 + off;
            if (!t.t[i].labelled || pos < (axis ? w->y0 : w->x0) - 0.5 ||
                pos > (axis ? w->y1 : w->x1) + 0.5)
                continue;
            int tw, th;
            raster_text_size(t.t[i].label, ts, &tw, &th);
            if (axis) {
                raster_fill_rect(r, (int)w->x0, (int)lround(pos), (int)(w->x1 - w->x0), 1, GRID);
                raster_fill_rect(r, (int)w->x0 - 5, (int)lround(pos), 5, 1, FRAME);
                raster_text(r, (int)w->x0 - 8 - tw, (int)lround(pos) - th / 2, t.t[i].label, ts,
                            compare_plot_ink, NONE);
            } else {
                raster_fill_rect(r, (int)lround(pos), (int)w->y0, 1, (int)(w->y1 - w->y0), GRID);
                raster_fill_rect(r, (int)lround(pos), (int)w->y1, 1, 5, FRAME);
                raster_text(r, (int)lround(pos) - tw / 2, (int)w->y1 + 7, t.t[i].label, ts,
                            compare_plot_ink, NONE);
            }
        }
    }
    int tw, th;
    raster_text_size(names[w->u], ts, &tw, &th);
    raster_text(r, (int)((w->x0 + w->x1) / 2) - tw / 2, (int)w->y1 + 7 + th, names[w->u], ts,
                compare_plot_ink, NONE);
    raster_text(r, (int)w->x0 - 8 - tw, (int)w->y0 - th - 4, names[w->v], ts, compare_plot_ink,
                NONE);
}

static void frame_box(struct raster *r, int x0, int y0, int x1, int y1)
{
    raster_fill_rect(r, x0, y0, x1 - x0 + 1, 1, FRAME);
    raster_fill_rect(r, x0, y1, x1 - x0 + 1, 1, FRAME);
    raster_fill_rect(r, x0, y0, 1, y1 - y0 + 1, FRAME);
    raster_fill_rect(r, x1, y0, 1, y1 - y0 + 1, FRAME);
}

/* The corner of the panel where the inset hides the fewest points of B. */
static void inset_corner(const struct view *w, const struct compare_result *res, int *x, int *y)
{
    long best = -1;
    for (int c = 0; c < 4; c++) {
        const int cx = c & 1 ? (int)w->x0 + 8 : (int)w->x1 - 8 - INSET;
        const int cy = c & 2 ? (int)w->y1 - 8 - INSET : (int)w->y0 + 8;
        long hidden = 0;
        for (size_t p = 0; p < res->npoints; p++) {
            const double px = to_x(w, res->worst_b[p]), py = to_y(w, res->worst_b[p]);
            hidden += px >= cx && px <= cx + INSET && py >= cy && py <= cy + INSET;
        }
        if (best < 0 || hidden < best) {
            best = hidden;
            *x = cx;
            *y = cy;
        }
    }
}

/* An inset that magnifies the worst point's neighbourhood until |A-B| spans a third of it. */
static void draw_inset(struct raster *r, const struct view *w, const struct compare_result *res,
                       const struct compare_plot_links *links, long worst)
{
    const vec3 a = res->worst_a[worst], b = res->worst_b[worst];
    const double du = v3_comp(a, w->u) - v3_comp(b, w->u), dv = v3_comp(a, w->v) - v3_comp(b, w->v);
    const double d = hypot(du, dv);
    if (!(d > 0) || !isfinite(d))
        return;
    int x = 0, y = 0;
    inset_corner(w, res, &x, &y);
    raster_fill_rect(r, x, y, INSET, INSET, WHITE);
    frame_box(r, x, y, x + INSET, y + INSET);
    struct view in = *w;
    in.x0 = x + 1;
    in.y0 = y + 1;
    in.x1 = x + INSET - 1;
    in.y1 = y + INSET - 1;
    in.s = INSET / 3.0 / d;
    in.cu = v3_comp(b, w->u) + du / 2;
    in.cv = v3_comp(b, w->v) + dv / 2;
    draw_frame(r, &in, res->worst_b, res->npoints, links, 1);
    draw_frame(r, &in, res->worst_a, res->npoints, links, 0);
    mark_worst(r, &in, a, b);
    char s[96];
    snprintf(s, sizeof s, "point %ld x%.2g", worst, in.s / w->s);
    raster_text(r, x + 2, y + 2, s, 2, compare_plot_ink, WHITE);
}

/* A swatch and its words; returns the x after them. */
static int key(struct raster *r, int x, int y, struct raster_color c, int ring, const char *s,
               int ts)
{
    int tw, th;
    if (ring)
        raster_ring(r, x + 9, y + 8, 6, 2, c);
    else
        raster_fill_rect(r, x, y + 6, 18, 5, c);
    raster_text(r, x + 24, y, s, ts, compare_plot_ink, NONE);
    raster_text_size(s, ts, &tw, &th);
    return x + 24 + tw + 18;
}

/* |A-B| of the worst point as drawn: in the plane of the two coordinates shown. */
static double drawn_distance(const struct view *w, vec3 a, vec3 b)
{
    return hypot(v3_comp(a, w->u) - v3_comp(b, w->u), v3_comp(a, w->v) - v3_comp(b, w->v));
}

void compare_plot_shapes(struct raster *r, const struct compare_result *res,
                         const struct compare_plot_links *links, int x, int y, int w, int h, int ts)
{
    static const char *const axis_name[3] = {"x", "y", "z"};
    char frame[96], s[256];
    double d;
    const long worst = worst_point(res, &d);
    struct view v;
    double b[4];
    pick_axes(res, &v, b);
    fit(&v, b, x + 100, y + 84, x + w - 30, y + h - 64);
    const double drawn =
        worst < 0 ? 0 : drawn_distance(&v, res->worst_a[worst], res->worst_b[worst]);
    compare_plot_frame_name(frame, sizeof frame, res);
    snprintf(s, sizeof s, "Both shapes at %s, %s", frame,
             worst >= 0 ? "where |A-B| peaks" : "the last common frame: A and B are the same");
    raster_text(r, x + 90, y + 6, s, ts, compare_plot_ink, NONE);
    int kx = key(r, x + 90, y + 30, compare_plot_a, 0, "A", ts);
    kx = key(r, kx, y + 30, compare_plot_b, 0, "B (reference)", ts);
    if (worst >= 0) {
        const int hidden = 3 - v.u - v.v; /* the coordinate not drawn, in 3D */
        snprintf(s, sizeof s, "worst: point %ld, |A-B| = %.3g m%s%s%s", worst, d,
                 drawn < d / 2 ? " (mostly along " : "", drawn < d / 2 ? axis_name[hidden] : "",
                 drawn < d / 2 ? ")" : "");
        key(r, kx, y + 30, compare_plot_worst, 1, s, ts);
    }
    draw_axes(r, &v, ts);
    frame_box(r, (int)v.x0, (int)v.y0, (int)v.x1, (int)v.y1);
    draw_frame(r, &v, res->worst_b, res->npoints, links, 1);
    draw_frame(r, &v, res->worst_a, res->npoints, links, 0);
    if (worst < 0)
        return;
    mark_worst(r, &v, res->worst_a[worst], res->worst_b[worst]);
    if (drawn * v.s < INSET_BELOW_PX)
        draw_inset(r, &v, res, links, worst);
}
