/* An RGBA8 canvas and the anti-aliased primitives frames are drawn with. Coordinates are
 * pixels as doubles, origin top-left, y down; pixel (i, j) is the unit square centred on
 * (i, j), so a line along y = 20 of width 3 covers rows 19..21 exactly.
 * Edges: coverage comes from the signed distance to the shape (a 1-pixel ramp, a box filter
 * across each edge). Blending: straight alpha, "over", in sRGB space (gamma-naive like most
 * 2D renderers: cheap integer maths, and full coverage of an opaque colour stores it exactly).
 * Nothing here allocates except raster_create. */
#ifndef CATENA_RASTER_H
#define CATENA_RASTER_H

#include "core/error.h"

struct raster_color {
    unsigned char r, g, b; /* sRGB, 0..255 */
    unsigned char a;       /* opacity, 255 opaque, 0 draws nothing */
};

struct raster {
    int width, height; /* pixels */
    unsigned char *px; /* width*height RGBA quadruples, rows top to bottom, straight alpha */
};

/* Largest width or height raster_create accepts. */
#define RASTER_MAX_SIDE 16384

/* Most vertices raster_polygon draws. */
#define RASTER_POLYGON_MAX 64

/* The built-in font: glyphs of 5x9 pixels (rows 0..6 above the baseline, 7..8 descenders),
 * 6 pixels apart, lines 10 pixels apart, all times the text scale. */
#define RASTER_FONT_ROWS 9
#define RASTER_FONT_ADVANCE 6
#define RASTER_FONT_LINE 10

enum raster_cap {
    RASTER_CAP_BUTT,  /* the line stops at its end points */
    RASTER_CAP_ROUND, /* half-discs at the ends; joined segments show no gaps */
};

/* A canvas of width x height pixels, cleared to transparent black. NULL on failure, with err
 * set (CATENA_EINPUT for a size outside 1..RASTER_MAX_SIDE, CATENA_EFAIL out of memory).
 * The caller frees it with raster_destroy. */
struct raster *raster_create(int width, int height, struct catena_error *err);

/* Frees the canvas; NULL is a no-op. */
void raster_destroy(struct raster *r);

/* Sets every pixel to c (no blending). */
void raster_clear(struct raster *r, struct raster_color c);

/* Fills the integer rectangle [x, x+w) x [y, y+h), clipped, blending c without smoothing. */
void raster_fill_rect(struct raster *r, int x, int y, int w, int h, struct raster_color c);

/* A segment from (x0, y0) to (x1, y1), width pixels wide. With RASTER_CAP_ROUND and width
 * 2*radius this is a capsule. A zero-length round segment is a disc; butt draws nothing. */
void raster_line(struct raster *r, double x0, double y0, double x1, double y1, double width,
                 enum raster_cap cap, struct raster_color c);

/* A filled disc; radii below half a pixel fade with their area. */
void raster_disc(struct raster *r, double cx, double cy, double radius, struct raster_color c);

/* A circle outline of the given radius, width pixels wide, centred on the circle. */
void raster_ring(struct raster *r, double cx, double cy, double radius, double width,
                 struct raster_color c);

/* A filled convex polygon: xy holds n (x, y) pairs in either winding, 3 <= n <=
 * RASTER_POLYGON_MAX (other n, or zero area, draw nothing). Edge coverage is the product of
 * the per-edge coverages, exact for boxes aligned with the axes. */
void raster_polygon(struct raster *r, const double *xy, int n, struct raster_color c);

/* A filled triangle, xy = {x0, y0, x1, y1, x2, y2}, colours interpolated from the vertices'
 * c[0..2] (pass three equal colours for a flat one). smooth = 1 anti-aliases the edges;
 * smooth = 0 gives hard edges with a top-left fill rule, so triangles that share an edge
 * cover each pixel exactly once: use it for meshes, where smoothed shared edges show seams. */
void raster_triangle(struct raster *r, const double xy[6], const struct raster_color c[3],
                     int smooth);

/* Fills the side of the line through (x, y) that the normal (nx, ny) points away from,
 * i.e. where (p - o).n < 0: a plane obstacle's solid side. n need not be unit length. */
void raster_halfplane(struct raster *r, double x, double y, double nx, double ny,
                      struct raster_color c);

/* Size of the box raster_text fills for s at integer scale >= 1: the text plus a margin of
 * scale pixels on every side. '\n' starts a new line. */
void raster_text_size(const char *s, int scale, int *w, int *h);

/* Text with the built-in font, its box's top-left corner at (x, y) (see raster_text_size).
 * box.a > 0 fills the box first. Characters outside ASCII 32..126 show as '?'. */
void raster_text(struct raster *r, int x, int y, const char *s, int scale, struct raster_color ink,
                 struct raster_color box);

/* The 9 rows of glyph ch (bit 4 = leftmost column); '?' for ch outside 32..126. */
const unsigned char *raster_font_glyph(int ch);

#endif
