/* Line charts (gfx/chart.h). The layout is worked out before anything is drawn: the vertical
 * axis's labels set the left margin, which sets the horizontal axis's length and so its
 * ticks. Lines are clipped to the plot area (Liang and Barsky, 1984) so that a range fixed
 * by hand, or a log axis, never lets them run over the labels. */
#include "gfx/chart.h"

#include <math.h>
#include <string.h>

#include "gfx/chart_axis.h"

static const struct raster_color WHITE = {255, 255, 255, 255};
static const struct raster_color INK = {40, 40, 40, 255};
static const struct raster_color GRID = {225, 225, 225, 255};
static const struct raster_color FRAME = {150, 150, 150, 255};
static const struct raster_color NONE = {0, 0, 0, 0};
static const struct raster_color LEGEND_BOX = {255, 255, 255, 225};

/* matplotlib's tab10 */
static const struct raster_color palette[10] = {
    {31, 119, 180, 255},  {255, 127, 14, 255}, {44, 160, 44, 255},   {214, 39, 40, 255},
    {148, 103, 189, 255}, {140, 86, 75, 255},  {227, 119, 194, 255}, {127, 127, 127, 255},
    {188, 189, 34, 255},  {23, 190, 207, 255},
};

struct raster_color chart_palette(size_t i)
{
    return palette[i % 10];
}

/* The plot area and the two axes, once laid out. */
struct layout {
    int s;                 /* text scale */
    int px, py, pw, ph;    /* plot area, px */
    int title_y, ytitle_y; /* rows of the panel title and the y axis's title; -1: none */
    int xlabel_y;          /* top of the x labels */
    int xtitle_y;          /* top of the x axis's title; -1: none */
    struct chart_axis_ticks xt, yt;
};

/* The finite data range of one coordinate over every series (x: 0, y: 1); on a log scale
 * only values above 0 count. Returns 0 when there is none. */
static int data_range(const struct chart *ch, int axis, int log, double *min, double *max)
{
    *min = INFINITY;
    *max = -INFINITY;
    for (size_t k = 0; k < ch->nseries; k++) {
        const struct chart_series *c = &ch->series[k];
        for (size_t i = 0; i < c->n; i++) {
            const double v = axis ? c->y[i] : c->x[i], o = axis ? c->x[i] : c->y[i];
            if (!isfinite(v) || !isfinite(o) || (log && !(v > 0)))
                continue;
            *min = fmin(*min, v);
            *max = fmax(*max, v);
        }
    }
    return *min <= *max;
}

/* Whether an axis is drawn logarithmic. */
static int axis_log(const struct chart *ch, const struct chart_axis *a, int axis)
{
    if (a->names || a->scale == CHART_LINEAR)
        return 0;
    if (a->scale == CHART_LOG)
        return 1;
    double lo, hi, plo, phi;
    if (!data_range(ch, axis, 0, &lo, &hi) || !data_range(ch, axis, 1, &plo, &phi))
        return 0;
    return lo > 0 && log10(hi / lo) >= CHART_AUTO_DECADES;
}

/* The ticks of one axis over room; 0 when there is no data to place. */
static int axis_ticks(const struct chart *ch, int axis, const struct chart_axis_room *room,
                      struct chart_axis_ticks *t)
{
    const struct chart_axis *a = axis ? &ch->y : &ch->x;
    if (a->names && a->nnames > 0) {
        chart_axis_categories(a->names, a->nnames, room, t);
        return 1;
    }
    const int log = axis_log(ch, a, axis);
    double lo, hi;
    if (!data_range(ch, axis, log, &lo, &hi))
        return 0;
    if (log)
        chart_axis_log(lo, hi, room, t);
    else
        chart_axis_linear(lo, hi, room, t);
    return 1;
}

static int text_w(const char *s, int scale)
{
    int w, h;
    raster_text_size(s, scale, &w, &h);
    return w;
}

/* Lays the panel out in (x, y, w, h); 0 when there is nothing to plot. */
static int layout(const struct chart *ch, int x, int y, int w, int h, struct layout *L)
{
    const int s = L->s = ch->text_scale < 1 ? 1 : ch->text_scale;
    const int line = (RASTER_FONT_LINE + 2) * s, pad = 4 * s, tick = 4 * s;
    int top = y + pad;
    L->title_y = L->ytitle_y = L->xtitle_y = -1;
    if (ch->title) {
        L->title_y = top;
        top += line + s;
    }
    if (ch->y.title) {
        L->ytitle_y = top;
        top += line;
    }
    top += line / 2; /* half a label sticks out above the highest y tick */
    const int bottom = y + h - pad - line - tick - (ch->x.title ? line : 0);
    L->py = top;
    L->ph = bottom - top;
    const struct chart_axis_room yroom = {.length = L->ph, .text_scale = s, .horizontal = 0};
    if (L->ph < 2 || !axis_ticks(ch, 1, &yroom, &L->yt))
        return 0;
    int label_w = 0;
    for (size_t i = 0; i < L->yt.n; i++)
        if (L->yt.t[i].labelled && text_w(L->yt.t[i].label, s) > label_w)
            label_w = text_w(L->yt.t[i].label, s);
    L->px = x + pad + label_w + tick;
    /* room on the right for half the widest x label */
    L->pw = x + w - pad - 4 * RASTER_FONT_ADVANCE * s - L->px;
    const struct chart_axis_room xroom = {.length = L->pw, .text_scale = s, .horizontal = 1};
    if (L->pw < 2 || !axis_ticks(ch, 0, &xroom, &L->xt))
        return 0;
    L->xlabel_y = L->py + L->ph + tick;
    if (ch->x.title)
        L->xtitle_y = L->xlabel_y + line;
    return 1;
}

static double to_px(const struct layout *L, double x)
{
    return L->px + chart_axis_position(&L->xt, x) * L->pw;
}

static double to_py(const struct layout *L, double y)
{
    return L->py + L->ph - chart_axis_position(&L->yt, y) * L->ph;
}

/* Grid lines and ticks at the labelled values, the frame, and the labels. */
static void draw_axes(struct raster *r, const struct layout *L)
{
    const int s = L->s, tick = 4 * s;
    for (size_t i = 0; i < L->xt.n; i++) {
        const struct chart_tick *t = &L->xt.t[i];
        const int px = (int)lround(to_px(L, t->value));
        if (t->labelled)
            raster_fill_rect(r, px, L->py, 1, L->ph, GRID);
        raster_fill_rect(r, px, L->py + L->ph, 1, t->labelled ? tick : tick / 2, INK);
        if (t->labelled)
            raster_text(r, px - text_w(t->label, s) / 2, L->xlabel_y, t->label, s, INK, NONE);
    }
    for (size_t i = 0; i < L->yt.n; i++) {
        const struct chart_tick *t = &L->yt.t[i];
        const int py = (int)lround(to_py(L, t->value));
        if (t->labelled)
            raster_fill_rect(r, L->px, py, L->pw, 1, GRID);
        const int len = t->labelled ? tick : tick / 2;
        raster_fill_rect(r, L->px - len, py, len, 1, INK);
        if (t->labelled) {
            const int w = text_w(t->label, s);
            raster_text(r, L->px - tick - w, py - s - 7 * s / 2, t->label, s, INK, NONE);
        }
    }
    raster_fill_rect(r, L->px, L->py, L->pw, 1, FRAME);
    raster_fill_rect(r, L->px + L->pw - 1, L->py, 1, L->ph, FRAME);
    raster_fill_rect(r, L->px, L->py + L->ph, L->pw, 1, INK);
    raster_fill_rect(r, L->px, L->py, 1, L->ph + 1, INK);
}

/* Clips the segment to the plot area (Liang-Barsky); 0 when nothing of it is inside. */
static int clip(const struct layout *L, double *x0, double *y0, double *x1, double *y1)
{
    const double dx = *x1 - *x0, dy = *y1 - *y0;
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {*x0 - L->px, L->px + L->pw - *x0, *y0 - L->py, L->py + L->ph - *y0};
    double t0 = 0, t1 = 1;
    for (int k = 0; k < 4; k++) {
        if (p[k] == 0) {
            if (q[k] < 0)
                return 0;
            continue;
        }
        const double t = q[k] / p[k];
        if (p[k] < 0)
            t0 = fmax(t0, t);
        else
            t1 = fmin(t1, t);
    }
    if (t0 > t1)
        return 0;
    const double ax = *x0, ay = *y0;
    *x0 = ax + t0 * dx;
    *y0 = ay + t0 * dy;
    *x1 = ax + t1 * dx;
    *y1 = ay + t1 * dy;
    return 1;
}

static int inside(const struct layout *L, double px, double py)
{
    return px >= L->px && px <= L->px + L->pw && py >= L->py && py <= L->py + L->ph;
}

static struct raster_color series_color(const struct chart *ch, size_t k)
{
    const struct raster_color c = ch->series[k].color;
    return c.a ? c : chart_palette(k);
}

static void draw_series(struct raster *r, const struct layout *L, const struct chart *ch, size_t k)
{
    const struct chart_series *c = &ch->series[k];
    const struct raster_color col = series_color(ch, k);
    const double width = 1.0 * L->s;
    double qx = 0, qy = 0;
    int have = 0;
    for (size_t i = 0; i < c->n; i++) {
        const double px = to_px(L, c->x[i]), py = to_py(L, c->y[i]);
        if (!isfinite(px) || !isfinite(py)) {
            have = 0;
            continue;
        }
        double x0 = qx, y0 = qy, x1 = px, y1 = py;
        if (have && clip(L, &x0, &y0, &x1, &y1))
            raster_line(r, x0, y0, x1, y1, width, RASTER_CAP_ROUND, col);
        if (c->markers && inside(L, px, py))
            raster_disc(r, px, py, 2.0 * L->s, col);
        qx = px;
        qy = py;
        have = 1;
    }
}

/* ---- the legend ---- */

struct legend_box {
    int x, y, w, h;
};

static struct legend_box legend_size(const struct layout *L, const struct chart *ch)
{
    const int s = L->s;
    struct legend_box b = {0};
    for (size_t k = 0; k < ch->nseries; k++) {
        if (!ch->series[k].name)
            continue;
        const int w = 4 * RASTER_FONT_ADVANCE * s + text_w(ch->series[k].name, s);
        b.w = w > b.w ? w : b.w;
        b.h += (RASTER_FONT_LINE + 1) * s;
    }
    if (b.h) {
        b.w += 2 * s;
        b.h += 3 * s;
    }
    return b;
}

/* How much of the data the box would hide: pixels drawn inside it that are neither the
 * background nor a grid line, that is the series' lines and markers (read off the canvas,
 * so a long segment across the box counts as much as the points it joins). */
static long legend_hides(const struct raster *r, struct legend_box b)
{
    long n = 0;
    for (int y = b.y < 0 ? 0 : b.y; y < b.y + b.h && y < r->height; y++)
        for (int x = b.x < 0 ? 0 : b.x; x < b.x + b.w && x < r->width; x++) {
            const unsigned char *p = r->px + ((size_t)y * r->width + x) * 4;
            const int white = p[0] == WHITE.r && p[1] == WHITE.g && p[2] == WHITE.b;
            const int grid = p[0] == GRID.r && p[1] == GRID.g && p[2] == GRID.b;
            n += !white && !grid;
        }
    return n;
}

static void draw_legend(struct raster *r, const struct layout *L, const struct chart *ch)
{
    const int s = L->s, m = 3 * s;
    struct legend_box b = legend_size(L, ch);
    if (!b.h || b.w > L->pw - 2 * m || b.h > L->ph - 2 * m)
        return;
    /* top right, top left, bottom right, bottom left: the first that hides the fewest */
    const int xs[4] = {L->px + L->pw - m - b.w, L->px + m, L->px + L->pw - m - b.w, L->px + m};
    const int ys[4] = {L->py + m, L->py + m, L->py + L->ph - m - b.h, L->py + L->ph - m - b.h};
    long best = -1;
    int bx = xs[0], by = ys[0];
    for (int c = 0; c < 4; c++) {
        const struct legend_box t = {xs[c], ys[c], b.w, b.h};
        const long hid = legend_hides(r, t);
        if (best < 0 || hid < best) {
            best = hid;
            bx = xs[c];
            by = ys[c];
        }
    }
    raster_fill_rect(r, bx, by, b.w, b.h, LEGEND_BOX);
    raster_fill_rect(r, bx, by, b.w, 1, FRAME);
    raster_fill_rect(r, bx, by + b.h - 1, b.w, 1, FRAME);
    raster_fill_rect(r, bx, by, 1, b.h, FRAME);
    raster_fill_rect(r, bx + b.w - 1, by, 1, b.h, FRAME);
    int row = by + 2 * s;
    for (size_t k = 0; k < ch->nseries; k++) {
        const struct chart_series *c = &ch->series[k];
        if (!c->name)
            continue;
        const struct raster_color col = series_color(ch, k);
        const double cy = row + 0.5 * (RASTER_FONT_ROWS - 2) * s + s;
        raster_line(r, bx + 2 * s, cy, bx + 3 * RASTER_FONT_ADVANCE * s, cy, 1.0 * s,
                    RASTER_CAP_BUTT, col);
        if (c->markers)
            raster_disc(r, bx + 2 * s + 1.5 * RASTER_FONT_ADVANCE * s - s, cy, 2.0 * s, col);
        raster_text(r, bx + 4 * RASTER_FONT_ADVANCE * s - s, row, c->name, s, INK, NONE);
        row += (RASTER_FONT_LINE + 1) * s;
    }
}

void chart_draw(struct raster *r, int x, int y, int w, int h, const struct chart *ch)
{
    raster_fill_rect(r, x, y, w, h, WHITE);
    struct layout L;
    const int ok = layout(ch, x, y, w, h, &L);
    if (L.title_y >= 0)
        raster_text(r, x + 4 * L.s, L.title_y, ch->title, L.s, INK, NONE);
    if (L.ytitle_y >= 0)
        raster_text(r, x + 4 * L.s, L.ytitle_y, ch->y.title, L.s, INK, NONE);
    if (!ok) {
        const char *msg = "no data";
        raster_text(r, x + w / 2 - text_w(msg, L.s) / 2, y + h / 2, msg, L.s, INK, NONE);
        return;
    }
    draw_axes(r, &L);
    for (size_t k = 0; k < ch->nseries; k++)
        draw_series(r, &L, ch, k);
    draw_legend(r, &L, ch);
    if (L.xtitle_y >= 0)
        raster_text(r, L.px + L.pw / 2 - text_w(ch->x.title, L.s) / 2, L.xtitle_y, ch->x.title, L.s,
                    INK, NONE);
}
