/* Legends drawn on a canvas (see gfx/legend.h): the colour bar's layout is computed once, by
 * legend_layout, for both drawing it and reporting its bounds, so the two always agree. */
#include "gfx/legend.h"

#include <stdio.h>

struct legend_def legend_default(void)
{
    return (struct legend_def){
        .x = 0,
        .y = 0,
        .width = 12,
        .height = 160,
        .map = &colormap_viridis,
        .min = 0,
        .max = 1,
        .title = NULL,
        .text_scale = 1,
        .ink = {30, 30, 30, 255},
        .box = {255, 255, 255, 200},
    };
}

/* Grows the rectangle b = {x0, y0, x1, y1} (exclusive ends) to hold [x, x+w) x [y, y+h). */
static void rect_union(int b[4], int x, int y, int w, int h)
{
    b[0] = x < b[0] ? x : b[0];
    b[1] = y < b[1] ? y : b[1];
    b[2] = x + w > b[2] ? x + w : b[2];
    b[3] = y + h > b[3] ? y + h : b[3];
}

/* Where a legend's parts go: the label and title text boxes (x, y, w, h) and the rectangle
 * around everything, its box's margin included. */
struct legend_layout {
    int scale, vertical;
    char lo[32], hi[32];
    int lo_box[4], hi_box[4], title_box[4], bounds[4];
};

static void legend_layout(const struct legend_def *d, struct legend_layout *L)
{
    int s = L->scale = d->text_scale < 1 ? 1 : d->text_scale;
    L->vertical = d->height > d->width;
    snprintf(L->lo, sizeof L->lo, "%.3g", d->min);
    snprintf(L->hi, sizeof L->hi, "%.3g", d->max);
    int *lo = L->lo_box, *hi = L->hi_box, *t = L->title_box;
    raster_text_size(L->lo, s, &lo[2], &lo[3]);
    raster_text_size(L->hi, s, &hi[2], &hi[3]);
    t[2] = t[3] = 0;
    if (d->title)
        raster_text_size(d->title, s, &t[2], &t[3]);
    t[0] = d->x - s;
    t[1] = d->y - 2 - t[3];
    /* vertical labels sit right of the bar, max level with its top (ink starts a margin
     * below the box top) and min's baseline (8 rows down) level with its bottom */
    if (L->vertical) {
        lo[0] = hi[0] = d->x + d->width + 2;
        hi[1] = d->y - s;
        lo[1] = d->y + d->height - 8 * s;
    } else {
        lo[0] = d->x - s;
        lo[1] = hi[1] = d->y + d->height + 2;
        hi[0] = d->x + d->width - hi[2] + s;
    }
    /* the bar and its frame, the texts, and the box's margin of s */
    int b[4] = {d->x - 1, d->y - 1, d->x + d->width + 1, d->y + d->height + 1};
    rect_union(b, lo[0], lo[1], lo[2], lo[3]);
    rect_union(b, hi[0], hi[1], hi[2], hi[3]);
    if (d->title)
        rect_union(b, t[0], t[1], t[2], t[3]);
    L->bounds[0] = b[0] - s;
    L->bounds[1] = b[1] - s;
    L->bounds[2] = b[2] - b[0] + 2 * s;
    L->bounds[3] = b[3] - b[1] + 2 * s;
}

void legend_bounds(const struct legend_def *def, int *x, int *y, int *w, int *h)
{
    struct legend_layout L;
    legend_layout(def, &L);
    *x = L.bounds[0];
    *y = L.bounds[1];
    *w = L.bounds[2];
    *h = L.bounds[3];
}

void legend_draw(struct raster *r, const struct legend_def *d)
{
    struct legend_layout L;
    legend_layout(d, &L);
    struct raster_color none = {0, 0, 0, 0};
    if (d->box.a > 0)
        raster_fill_rect(r, L.bounds[0], L.bounds[1], L.bounds[2], L.bounds[3], d->box);
    int n = L.vertical ? d->height : d->width;
    for (int k = 0; k < n; k++) {
        double t = n > 1 ? (double)k / (n - 1) : 0.5;
        if (L.vertical)
            raster_fill_rect(r, d->x, d->y + k, d->width, 1, colormap_color(d->map, 1 - t));
        else
            raster_fill_rect(r, d->x + k, d->y, 1, d->height, colormap_color(d->map, t));
    }
    raster_fill_rect(r, d->x - 1, d->y - 1, d->width + 2, 1, d->ink);
    raster_fill_rect(r, d->x - 1, d->y + d->height, d->width + 2, 1, d->ink);
    raster_fill_rect(r, d->x - 1, d->y, 1, d->height, d->ink);
    raster_fill_rect(r, d->x + d->width, d->y, 1, d->height, d->ink);
    raster_text(r, L.lo_box[0], L.lo_box[1], L.lo, L.scale, d->ink, none);
    raster_text(r, L.hi_box[0], L.hi_box[1], L.hi, L.scale, d->ink, none);
    if (d->title)
        raster_text(r, L.title_box[0], L.title_box[1], d->title, L.scale, d->ink, none);
}

void legend_scale_bar(struct raster *r, int x, int y, int length, const char *label, int scale,
                      struct raster_color ink, struct raster_color box)
{
    int s = scale < 1 ? 1 : scale, tick = 4 * s, tw = 0, th = 0;
    if (label)
        raster_text_size(label, s, &tw, &th);
    int tx = x + length / 2 - tw / 2, ty = y - tick + 1 - th;
    if (box.a > 0) {
        int b[4] = {x, y - tick + 1, x + length, y + 1};
        if (label)
            rect_union(b, tx, ty, tw, th);
        raster_fill_rect(r, b[0] - s, b[1] - s, b[2] - b[0] + 2 * s, b[3] - b[1] + 2 * s, box);
    }
    raster_fill_rect(r, x, y - s + 1, length, s, ink);
    raster_fill_rect(r, x, y - tick + 1, s, tick, ink);
    raster_fill_rect(r, x + length - s, y - tick + 1, s, tick, ink);
    if (label)
        raster_text(r, tx, ty, label, s, ink, (struct raster_color){0, 0, 0, 0});
}
