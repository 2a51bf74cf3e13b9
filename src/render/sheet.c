/* contact-sheet.png: evenly spaced frames in a grid, each shrunk by averaging the block of
 * frame pixels under every tile pixel (a box filter), labelled with its time. Tiles are
 * filled as the frames go by, so no frame is kept. */
#include <stdlib.h>

#include "gfx/png_write.h"
#include "render/internal.h"

#define GAP 4 /* px around and between tiles */

static const struct raster_color sheet_bg = {210, 210, 205, 255};
static const struct raster_color label_ink = {30, 30, 30, 255};
static const struct raster_color label_box = {255, 255, 255, 200};

struct render_sheet {
    struct raster *r;
    int columns, tw, th; /* tile size, px */
};

long render_sheet_frame(int i, int ntiles, long nframes)
{
    if (ntiles < 2)
        return 0;
    /* rounded i (nframes - 1) / (ntiles - 1): first and last frames included */
    return ((long)i * (nframes - 1) + (ntiles - 1) / 2) / (ntiles - 1);
}

struct render_sheet *render_sheet_create(const struct render_sheet_opts *o, int ntiles, int fw,
                                         int fh, struct catena_error *err)
{
    struct render_sheet *s = calloc(1, sizeof *s);
    if (!s) {
        error_set(err, CATENA_EFAIL, "out of memory for the contact sheet");
        return NULL;
    }
    const int width = o->width ? o->width : fw;
    s->columns = o->columns < ntiles ? o->columns : ntiles;
    const int rows = (ntiles + s->columns - 1) / s->columns;
    s->tw = (width - GAP * (s->columns + 1)) / s->columns;
    if (s->tw > fw) /* tiles never enlarge */
        s->tw = fw;
    if (s->tw < 1)
        s->tw = 1;
    s->th = (int)(((long)s->tw * fh + fw / 2) / fw);
    if (s->th < 1)
        s->th = 1;
    s->r = raster_create(GAP + s->columns * (s->tw + GAP), GAP + rows * (s->th + GAP), err);
    if (!s->r) {
        free(s);
        return NULL;
    }
    raster_clear(s->r, sheet_bg);
    return s;
}

/* The mean colour of frame pixels [x0, x1) x [y0, y1) into dst (opaque). */
static void box_mean(const struct raster *f, int x0, int x1, int y0, int y1, unsigned char *dst)
{
    unsigned long sum[3] = {0, 0, 0};
    for (int y = y0; y < y1; y++) {
        const unsigned char *p = f->px + ((size_t)y * f->width + x0) * 4;
        for (int x = x0; x < x1; x++, p += 4) {
            sum[0] += p[0];
            sum[1] += p[1];
            sum[2] += p[2];
        }
    }
    const unsigned long n = (unsigned long)(x1 - x0) * (unsigned long)(y1 - y0);
    for (int c = 0; c < 3; c++)
        dst[c] = (unsigned char)((sum[c] + n / 2) / n);
    dst[3] = 255;
}

void render_sheet_add(struct render_sheet *s, int i, const struct raster *frame, const char *label)
{
    const int ox = GAP + (i % s->columns) * (s->tw + GAP);
    const int oy = GAP + (i / s->columns) * (s->th + GAP);
    for (int ty = 0; ty < s->th; ty++) {
        /* each tile pixel averages the frame pixels whose index maps onto it */
        const int y0 = (int)((long)ty * frame->height / s->th);
        int y1 = (int)((long)(ty + 1) * frame->height / s->th);
        y1 = y1 > y0 ? y1 : y0 + 1;
        unsigned char *row = s->r->px + ((size_t)(oy + ty) * s->r->width + ox) * 4;
        for (int tx = 0; tx < s->tw; tx++) {
            const int x0 = (int)((long)tx * frame->width / s->tw);
            int x1 = (int)((long)(tx + 1) * frame->width / s->tw);
            x1 = x1 > x0 ? x1 : x0 + 1;
            box_mean(frame, x0, x1, y0, y1, row + (size_t)tx * 4);
        }
    }
    if (label) { /* bottom right, clear of the frame's title, legend and scale bar */
        int w, h;
        raster_text_size(label, 1, &w, &h);
        raster_text(s->r, ox + s->tw - w, oy + s->th - h, label, 1, label_ink, label_box);
    }
}

int render_sheet_write(const struct render_sheet *s, const char *dir, int level,
                       struct catena_error *err)
{
    struct png_write_opts po = png_write_defaults();
    po.level = level;
    return png_write_raster(s->r, dir, "contact-sheet.png", &po, err);
}

void render_sheet_destroy(struct render_sheet *s)
{
    if (!s)
        return;
    raster_destroy(s->r);
    free(s);
}
