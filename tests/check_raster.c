/* The drawing core: primitives land on the pixels geometry says they cover (pixel centres at
 * integer coordinates), smoothed edges are partial, the colour map matches its published
 * values, and PNG files read back with libpng give the same pixels, the same bytes on a
 * rewrite, and no file at all when the directory is missing. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gfx/colormap.h"
#include "gfx/legend.h"
#include "gfx/png_write.h"
#include "gfx/raster.h"
#include "testutil.h"
#include "testutil_check.h"

static const struct raster_color white = {255, 255, 255, 255};
static const struct raster_color red = {200, 30, 40, 255};
static const struct raster_color ink = {0, 0, 0, 255};
static const struct raster_color none = {0, 0, 0, 0};

static struct raster *canvas(int w, int h)
{
    struct catena_error err;
    struct raster *r = raster_create(w, h, &err);
    ck_assert_ptr_nonnull(r);
    raster_clear(r, white);
    return r;
}

static const unsigned char *at(const struct raster *r, int x, int y)
{
    return r->px + ((size_t)y * r->width + x) * 4;
}

static int is(const unsigned char *p, struct raster_color c)
{
    return p[0] == c.r && p[1] == c.g && p[2] == c.b && p[3] == c.a;
}

/* Writes r as NAME with opts, reads it back and checks it has r's size. */
static unsigned char *round_trip(const struct raster *r, const char *name,
                                 const struct png_write_opts *opts)
{
    struct catena_error err;
    ck_assert_msg(png_write_raster(r, dir, name, opts, &err) == CATENA_OK, "%s", err.msg);
    int w = 0, h = 0;
    unsigned char *px = tu_read_png(dir, name, &w, &h);
    ck_assert_ptr_nonnull(px);
    ck_assert_int_eq(w, r->width);
    ck_assert_int_eq(h, r->height);
    return px;
}

/* A frame with a bit of everything, for the byte-level tests. */
static void scene(struct raster *r)
{
    raster_clear(r, white);
    raster_halfplane(r, 0, 150, 0.1, -1, (struct raster_color){220, 220, 210, 255});
    for (int i = 0; i < 40; i++) {
        double a = i * 0.3;
        raster_line(r, 100 + 3 * i, 40, 100 + 3 * i + 20 * cos(a), 40 + 20 * sin(a), 1.5,
                    RASTER_CAP_ROUND, colormap_color(&colormap_viridis, i / 39.0));
        raster_disc(r, 100 + 3 * i, 40, 2.2, ink);
    }
    raster_ring(r, 60, 100, 25, 2, red);
    double box[8] = {150, 90, 190, 110, 170, 150, 130, 130};
    raster_polygon(r, box, 4, (struct raster_color){90, 120, 200, 160});
    struct legend_def lg = legend_default();
    lg.x = 230;
    lg.y = 30;
    lg.height = 100;
    lg.title = "stretch";
    legend_draw(r, &lg);
    raster_text(r, 4, 4, "t = 1.25 s", 1, ink, white);
    legend_scale_bar(r, 10, 170, 50, "1 m", 1, ink, none);
}

/* ---- geometry ---- */

START_TEST(test_png_size)
{
    struct raster *r = canvas(123, 45);
    raster_disc(r, 60, 20, 8, red);
    unsigned char *px = round_trip(r, "size.png", NULL);
    /* RGB by default: colours come back, alpha reads as opaque */
    ck_assert_mem_eq(px, r->px, (size_t)123 * 45 * 4);
    free(px);
    raster_destroy(r);
}
END_TEST

START_TEST(test_link_rows)
{
    /* width 3 about y = 20 spans 18.5..21.5: rows 19..21 wholly inside, 18 and 22 touch
     * the edge with zero area, 17 and 23 are well clear */
    for (int cap = RASTER_CAP_BUTT; cap <= RASTER_CAP_ROUND; cap++) {
        struct raster *r = canvas(100, 40);
        raster_line(r, 10, 20, 90, 20, 3, (enum raster_cap)cap, red);
        unsigned char *px = round_trip(r, "link.png", NULL);
        struct raster back = {100, 40, px};
        /* butt ends give the end pixels half coverage; round ends reach 1.5 further */
        int round = cap == RASTER_CAP_ROUND, end = round ? 91 : 90;
        for (int x = round ? 10 : 11; x <= (round ? 90 : 89); x++)
            for (int y = 19; y <= 21; y++)
                ck_assert_msg(is(at(&back, x, y), red), "pixel %d,%d not full", x, y);
        for (int x = 0; x < 100; x++) {
            ck_assert(is(at(&back, x, 17), white));
            ck_assert(is(at(&back, x, 23), white));
        }
        ck_assert(!is(at(&back, end, 20), white));
        ck_assert(is(at(&back, end + 1, 20), white));
        ck_assert(!is(at(&back, 100 - end, 20), white));
        ck_assert(is(at(&back, 100 - end - 1, 20), white));
        free(px);
        raster_destroy(r);
    }
}
END_TEST

START_TEST(test_disc_pixel)
{
    struct raster *r = canvas(100, 100);
    raster_disc(r, 50, 50, 5, red);
    unsigned char *px = round_trip(r, "disc.png", NULL);
    struct raster back = {100, 100, px};
    ck_assert(is(at(&back, 50, 50), red));
    ck_assert(is(at(&back, 54, 50), red)); /* 4 from the centre: inside by a pixel */
    ck_assert(is(at(&back, 60, 60), white));
    ck_assert(is(at(&back, 56, 50), white)); /* 6 from the centre: outside by a pixel */
    free(px);
    raster_destroy(r);
}
END_TEST

START_TEST(test_aa_partial)
{
    /* pixel (60, 50) is exactly on a radius-10 circle: half covered, so halfway between
     * white and red to within rounding; neighbours across the edge are full and empty */
    struct raster *r = canvas(100, 100);
    raster_disc(r, 50, 50, 10, red);
    unsigned char *px = round_trip(r, "aa.png", NULL);
    struct raster back = {100, 100, px};
    const unsigned char *p = at(&back, 60, 50);
    ck_assert_int_le(abs(p[0] - (255 + 200) / 2), 1);
    ck_assert_int_le(abs(p[1] - (255 + 30) / 2), 1);
    ck_assert_int_le(abs(p[2] - (255 + 40) / 2), 1);
    ck_assert(is(at(&back, 59, 50), red));
    ck_assert(is(at(&back, 61, 50), white));
    /* every centre within a quarter pixel of the edge is strictly between the colours */
    int partial = 0;
    for (int y = 0; y < 100; y++)
        for (int x = 0; x < 100; x++) {
            double d = hypot(x - 50, y - 50) - 10;
            if (fabs(d) > 0.25)
                continue;
            const unsigned char *q = at(&back, x, y);
            ck_assert_msg(q[1] > red.g && q[1] < white.g, "pixel %d,%d green %d", x, y, q[1]);
            partial++;
        }
    ck_assert_int_gt(partial, 20);
    free(px);
    raster_destroy(r);
}
END_TEST

START_TEST(test_thin_and_diagonal_lines)
{
    /* a 1-pixel line on pixel centres fills one row; a diagonal one has partial pixels on
     * both sides of its axis and its middle pixels full only where wholly covered */
    struct raster *r = canvas(60, 60);
    raster_line(r, 5, 10, 50, 10, 1, RASTER_CAP_BUTT, ink);
    for (int x = 6; x <= 49; x++) {
        ck_assert(is(at(r, x, 10), ink));
        ck_assert(is(at(r, x, 9), white));
        ck_assert(is(at(r, x, 11), white));
    }
    raster_line(r, 10, 20, 50, 50, 2, RASTER_CAP_ROUND, red);
    int partial = 0;
    for (int y = 15; y < 55; y++)
        for (int x = 5; x < 55; x++) {
            const unsigned char *q = at(r, x, y);
            partial += q[1] > red.g && q[1] < 255;
        }
    ck_assert_int_gt(partial, 40);
    ck_assert(is(at(r, 30, 35), red)); /* on the axis */
    ck_assert(is(at(r, 34, 30), white));
    raster_destroy(r);
}
END_TEST

START_TEST(test_ring)
{
    struct raster *r = canvas(100, 100);
    raster_ring(r, 50, 50, 20, 2, red);
    ck_assert(is(at(r, 50, 50), white));
    ck_assert(is(at(r, 70, 50), red));
    ck_assert(is(at(r, 50, 30), red));
    ck_assert(is(at(r, 67, 50), white));
    ck_assert(is(at(r, 73, 50), white));
    raster_destroy(r);
}
END_TEST

START_TEST(test_polygon)
{
    /* a square turned 45 degrees, corners 10 from (50, 50); both windings the same pixels */
    double cw[8] = {50, 40, 60, 50, 50, 60, 40, 50};
    double ccw[8] = {40, 50, 50, 60, 60, 50, 50, 40};
    struct raster *a = canvas(100, 100), *b = canvas(100, 100);
    raster_polygon(a, cw, 4, red);
    raster_polygon(b, ccw, 4, red);
    ck_assert_mem_eq(a->px, b->px, (size_t)100 * 100 * 4);
    ck_assert(is(at(a, 50, 50), red));
    ck_assert(is(at(a, 55, 50), red));
    ck_assert(is(at(a, 50, 38), white));
    ck_assert(is(at(a, 56, 56), white)); /* outside the diagonal side */
    /* degenerate and oversized polygons draw nothing */
    double flat[6] = {10, 10, 20, 20, 30, 30};
    raster_polygon(b, flat, 3, ink);
    raster_polygon(b, cw, 2, ink);
    ck_assert_mem_eq(a->px, b->px, (size_t)100 * 100 * 4);
    raster_destroy(a);
    raster_destroy(b);
}
END_TEST

START_TEST(test_triangle_gradient)
{
    const struct raster_color c[3] = {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}};
    double xy[6] = {10, 10, 90, 10, 10, 90};
    struct raster *r = canvas(100, 100);
    raster_triangle(r, xy, c, 1);
    /* vertex colours at the vertices (inset by a pixel: 1/80 of the way to the others) */
    ck_assert_int_ge(at(r, 11, 11)[0], 245);
    ck_assert_int_ge(at(r, 88, 11)[1], 245);
    ck_assert_int_ge(at(r, 11, 88)[2], 245);
    /* the centroid's weights are 1/3 each; (37, 37) is 1/3 of a pixel off, which moves
     * them by at most 2/240, 2 levels */
    const unsigned char *m = at(r, 37, 37);
    for (int k = 0; k < 3; k++)
        ck_assert_int_le(abs(m[k] - 85), 3);
    ck_assert(is(at(r, 60, 60), white));
    raster_destroy(r);
}
END_TEST

START_TEST(test_mesh_no_seams)
{
    /* two hard-edged translucent triangles sharing a slanted diagonal: every pixel of the
     * quad is blended exactly once, so the quad is one uniform colour with no seam */
    struct raster_color glass = {0, 0, 0, 128};
    struct raster_color g3[3] = {glass, glass, glass};
    double p[4][2] = {{10.3, 10.7}, {40.1, 12.2}, {43.9, 41.5}, {8.2, 38.6}};
    double t1[6] = {p[0][0], p[0][1], p[1][0], p[1][1], p[2][0], p[2][1]};
    double t2[6] = {p[0][0], p[0][1], p[2][0], p[2][1], p[3][0], p[3][1]};
    struct raster *r = canvas(50, 50);
    raster_triangle(r, t1, g3, 0);
    raster_triangle(r, t2, g3, 0);
    unsigned char once = at(r, 25, 25)[0];
    ck_assert_int_lt(once, 255);
    int inside = 0;
    for (int y = 0; y < 50; y++)
        for (int x = 0; x < 50; x++) {
            unsigned char v = at(r, x, y)[0];
            ck_assert_msg(v == 255 || v == once, "pixel %d,%d is %d", x, y, v);
            inside += v == once;
        }
    /* the quad's area by the shoelace formula, to within its perimeter's worth of pixels */
    double area = 0;
    for (int i = 0; i < 4; i++)
        area += p[i][0] * p[(i + 1) % 4][1] - p[(i + 1) % 4][0] * p[i][1];
    ck_assert_int_le(abs(inside - (int)fabs(area / 2)), 60);
    raster_destroy(r);
}
END_TEST

START_TEST(test_halfplane)
{
    /* normal pointing up the image (-y): the filled side is below y = 30; row 30 lies on
     * the line, half covered */
    struct raster *r = canvas(40, 60);
    raster_halfplane(r, 0, 30, 0, -1, red);
    for (int x = 0; x < 40; x++) {
        ck_assert(is(at(r, x, 29), white));
        ck_assert(is(at(r, x, 31), red));
        ck_assert(is(at(r, x, 59), red));
        ck_assert_int_le(abs(at(r, x, 30)[1] - (255 + 30) / 2), 1);
    }
    raster_destroy(r);
}
END_TEST

START_TEST(test_clipping_and_non_finite)
{
    /* shapes half off the canvas are clipped; NaN, infinite and absurd coordinates (a
     * diverged run) draw nothing and do not crash */
    struct raster *r = canvas(50, 50);
    raster_line(r, -100, 25, 200, 25, 3, RASTER_CAP_ROUND, red);
    raster_disc(r, 0, 0, 10, red);
    raster_ring(r, 49, 49, 10, 2, red);
    ck_assert(is(at(r, 0, 25), red));
    ck_assert(is(at(r, 49, 25), red));
    ck_assert(is(at(r, 0, 0), red));
    struct raster *b = canvas(50, 50);
    memcpy(b->px, r->px, (size_t)50 * 50 * 4);
    double nan = NAN, inf = INFINITY;
    raster_line(r, nan, 1, 10, 10, 2, RASTER_CAP_ROUND, ink);
    raster_line(r, 1e300, 1, -1e300, 10, 2, RASTER_CAP_BUTT, ink);
    raster_line(r, 1, 1, 10, 10, inf, RASTER_CAP_BUTT, ink);
    raster_disc(r, nan, 10, 3, ink);
    raster_disc(r, 1e300, 1e300, 1e299, ink);
    raster_ring(r, 10, inf, 3, 1, ink);
    double tri[6] = {0, 0, nan, 5, 5, 5};
    raster_polygon(r, tri, 3, ink);
    raster_halfplane(r, nan, 0, 0, 1, ink);
    raster_fill_rect(r, -2000000000, -2000000000, 2000000000, 2000000000, ink);
    ck_assert_mem_eq(r->px, b->px, (size_t)50 * 50 * 4);
    raster_destroy(r);
    raster_destroy(b);
}
END_TEST

/* ---- text, colour, legend ---- */

START_TEST(test_text_box)
{
    struct raster *r = canvas(140, 60);
    const char *s = "Hgj 0.5\nstep 42";
    int x = 10, y = 8, w, h;
    raster_text_size(s, 2, &w, &h);
    ck_assert_int_eq(w, (7 * 6 + 1) * 2);
    ck_assert_int_eq(h, (2 * 10 + 1) * 2);
    raster_text(r, x, y, s, 2, ink, none);
    int lit = 0;
    for (int j = 0; j < 60; j++)
        for (int i = 0; i < 140; i++) {
            int in = i >= x + 2 && i < x + w - 2 && j >= y + 2 && j < y + h - 2;
            if (!is(at(r, i, j), white)) {
                ck_assert_msg(in, "ink at %d,%d outside the text's box", i, j);
                lit++;
            }
        }
    ck_assert_int_gt(lit, 100);
    /* with a box: its corners are filled, the pixel beyond is not */
    struct raster_color paper = {250, 240, 200, 255};
    raster_text(r, 100, 5, "ok", 1, ink, paper);
    raster_text_size("ok", 1, &w, &h);
    ck_assert(is(at(r, 100, 5), paper));
    ck_assert(is(at(r, 100 + w - 1, 5 + h - 1), paper));
    ck_assert(is(at(r, 100 + w, 5), white));
    ck_assert(raster_font_glyph(200) == raster_font_glyph('?'));
    raster_destroy(r);
}
END_TEST

START_TEST(test_colormap)
{
    /* published viridis: #440154 at 0, #21918c at 0.5, #fde725 at 1 */
    const struct raster_color lo = {68, 1, 84, 255}, mid = {33, 145, 140, 255},
                              hi = {253, 231, 37, 255};
    struct raster_color c = colormap_color(&colormap_viridis, 0.5);
    ck_assert_int_le(abs(c.r - mid.r), 1);
    ck_assert_int_le(abs(c.g - mid.g), 1);
    ck_assert_int_le(abs(c.b - mid.b), 1);
    ck_assert_int_eq(c.a, 255);
    c = colormap_color(&colormap_viridis, 0);
    ck_assert(memcmp(&c, &lo, sizeof c) == 0);
    c = colormap_color(&colormap_viridis, 1);
    ck_assert(memcmp(&c, &hi, sizeof c) == 0);
    c = colormap_color(&colormap_viridis, -3);
    ck_assert(memcmp(&c, &lo, sizeof c) == 0);
    c = colormap_color(&colormap_viridis, NAN);
    ck_assert(memcmp(&c, &lo, sizeof c) == 0);
    c = colormap_color(&colormap_viridis, 7);
    ck_assert(memcmp(&c, &hi, sizeof c) == 0);
    /* perceptual: lightness (here luma) rises all the way */
    double prev = -1;
    for (int i = 0; i <= 100; i++) {
        c = colormap_color(&colormap_viridis, i / 100.0);
        double y = 0.299 * c.r + 0.587 * c.g + 0.114 * c.b;
        ck_assert_double_gt(y, prev);
        prev = y;
    }
    /* and the colour survives drawing and the PNG round trip */
    struct raster *r = canvas(40, 40);
    raster_disc(r, 20, 20, 6, colormap_color(&colormap_viridis, 0.5));
    unsigned char *px = round_trip(r, "map.png", NULL);
    struct raster back = {40, 40, px};
    ck_assert(is(at(&back, 20, 20), colormap_color(&colormap_viridis, 0.5)));
    free(px);
    raster_destroy(r);
}
END_TEST

START_TEST(test_legend_and_scale_bar)
{
    struct raster *r = canvas(200, 200);
    struct legend_def lg = legend_default();
    lg.x = 20;
    lg.y = 30;
    lg.height = 101;
    lg.min = 0.9;
    lg.max = 1.1;
    lg.title = "stretch";
    legend_draw(r, &lg);
    ck_assert(is(at(r, 26, 30), colormap_color(&colormap_viridis, 1)));
    ck_assert(is(at(r, 26, 80), colormap_color(&colormap_viridis, 0.5)));
    ck_assert(is(at(r, 26, 130), colormap_color(&colormap_viridis, 0)));
    ck_assert(is(at(r, 19, 80), lg.ink)); /* frame */
    /* horizontal: min at the left */
    lg.x = 60;
    lg.y = 160;
    lg.width = 101;
    lg.height = 10;
    lg.box = none;
    legend_draw(r, &lg);
    ck_assert(is(at(r, 60, 165), colormap_color(&colormap_viridis, 0)));
    ck_assert(is(at(r, 160, 165), colormap_color(&colormap_viridis, 1)));
    /* scale bar: 50 pixels from (100, 100), ticks 4 up at both ends, label above */
    legend_scale_bar(r, 100, 100, 50, "1 m", 1, ink, none);
    ck_assert(is(at(r, 100, 100), ink));
    ck_assert(is(at(r, 149, 100), ink));
    ck_assert(is(at(r, 150, 100), white));
    ck_assert(is(at(r, 100, 97), ink));
    ck_assert(is(at(r, 149, 97), ink));
    ck_assert(is(at(r, 125, 97), white));
    int w, h, lit = 0;
    raster_text_size("1 m", 1, &w, &h);
    for (int j = 97 - h; j < 97; j++)
        for (int i = 100; i < 150; i++)
            lit += !is(at(r, i, j), white);
    ck_assert_int_gt(lit, 10);
    raster_destroy(r);
}
END_TEST

START_TEST(test_legend_bounds)
{
    /* everything the legend draws lies in its bounds, and its box fills them exactly */
    struct raster_color grey = {100, 100, 100, 255};
    for (int vertical = 0; vertical <= 1; vertical++) {
        struct raster *r = canvas(200, 200);
        raster_clear(r, grey);
        struct legend_def lg = legend_default();
        lg.x = 60;
        lg.y = 60;
        lg.width = vertical ? 10 : 80;
        lg.height = vertical ? 80 : 10;
        lg.min = -0.125;
        lg.max = 12345;
        lg.title = "speed (m/s)";
        int x, y, w, h;
        legend_bounds(&lg, &x, &y, &w, &h);
        legend_draw(r, &lg);
        for (int j = 0; j < 200; j++)
            for (int i = 0; i < 200; i++) {
                int in = i >= x && i < x + w && j >= y && j < y + h;
                ck_assert_msg(in == !is(at(r, i, j), grey), "pixel %d,%d", i, j);
            }
        raster_destroy(r);
    }
}
END_TEST

/* ---- files ---- */

START_TEST(test_same_bytes)
{
    struct raster *a = canvas(260, 180), *b = canvas(260, 180);
    scene(a);
    scene(b);
    ck_assert_mem_eq(a->px, b->px, (size_t)260 * 180 * 4);
    struct catena_error err;
    ck_assert_int_eq(png_write_raster(a, dir, "a.png", NULL, &err), CATENA_OK);
    ck_assert_int_eq(png_write_raster(b, dir, "b.png", NULL, &err), CATENA_OK);
    ck_assert_int_eq(png_write_raster(a, dir, "a.png", NULL, &err), CATENA_OK); /* rewrite */
    char *pa = tu_path(dir, "a.png"), *pb = tu_path(dir, "b.png");
    size_t na, nb;
    char *fa = tu_read_file(pa, &na), *fb = tu_read_file(pb, &nb);
    ck_assert_ptr_nonnull(fa);
    ck_assert_ptr_nonnull(fb);
    ck_assert_uint_eq(na, nb);
    ck_assert_mem_eq(fa, fb, na);
    free(fa);
    free(fb);
    free(pa);
    free(pb);
    raster_destroy(a);
    raster_destroy(b);
}
END_TEST

static long file_size(const char *name)
{
    char *p = tu_path(dir, name);
    struct stat st;
    long n = stat(p, &st) == 0 ? (long)st.st_size : -1;
    free(p);
    return n;
}

START_TEST(test_compression_level)
{
    struct raster *r = canvas(260, 180);
    scene(r);
    r->px[3] = 77; /* a translucent pixel, so that RGBA output has something to keep */
    struct png_write_opts o = png_write_defaults();
    ck_assert_int_eq(o.level, 1);
    o.alpha = 1;
    o.level = 0;
    unsigned char *p0 = round_trip(r, "l0.png", &o);
    o.level = 9;
    unsigned char *p9 = round_trip(r, "l9.png", &o);
    ck_assert_int_gt(file_size("l0.png"), file_size("l9.png"));
    ck_assert_mem_eq(p0, r->px, (size_t)260 * 180 * 4);
    ck_assert_mem_eq(p9, r->px, (size_t)260 * 180 * 4);
    free(p0);
    free(p9);
    raster_destroy(r);
}
END_TEST

START_TEST(test_missing_dir)
{
    struct raster *r = canvas(10, 10);
    char *missing = tu_path(dir, "no/such/dir");
    struct catena_error err;
    ck_assert_int_eq(png_write_raster(r, missing, "frame.png", NULL, &err), CATENA_EFAIL);
    ck_assert_msg(strstr(err.msg, missing) != NULL, "message without the path: %s", err.msg);
    /* nothing left behind */
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    for (struct dirent *e; (e = readdir(d));)
        ck_assert_msg(e->d_name[0] == '.' && (!e->d_name[1] || !strcmp(e->d_name, "..")), "left %s",
                      e->d_name);
    closedir(d);
    struct png_write_opts o = {.level = 10, .alpha = 0};
    ck_assert_int_eq(png_write_raster(r, dir, "x.png", &o, &err), CATENA_EINPUT);
    ck_assert_int_eq(file_size("x.png"), -1);
    free(missing);
    raster_destroy(r);
}
END_TEST

START_TEST(test_create_limits)
{
    struct catena_error err;
    ck_assert_ptr_null(raster_create(0, 10, &err));
    ck_assert_int_eq(err.code, CATENA_EINPUT);
    ck_assert_ptr_null(raster_create(10, RASTER_MAX_SIDE + 1, &err));
    struct raster *r = raster_create(3, 2, &err);
    ck_assert_ptr_nonnull(r);
    for (int i = 0; i < 3 * 2 * 4; i++)
        ck_assert_int_eq(r->px[i], 0); /* transparent black */
    raster_destroy(r);
    raster_destroy(NULL);
}
END_TEST

static Suite *raster_suite(void)
{
    Suite *s = suite_create("raster");
    TCase *geo = tu_tcase(s, "geometry", tu_dir_setup, tu_dir_teardown);
    tcase_add_test(geo, test_png_size);
    tcase_add_test(geo, test_link_rows);
    tcase_add_test(geo, test_disc_pixel);
    tcase_add_test(geo, test_aa_partial);
    tcase_add_test(geo, test_thin_and_diagonal_lines);
    tcase_add_test(geo, test_ring);
    tcase_add_test(geo, test_polygon);
    tcase_add_test(geo, test_triangle_gradient);
    tcase_add_test(geo, test_mesh_no_seams);
    tcase_add_test(geo, test_halfplane);
    tcase_add_test(geo, test_clipping_and_non_finite);

    TCase *text = tu_tcase(s, "text and colour", tu_dir_setup, tu_dir_teardown);
    tcase_add_test(text, test_text_box);
    tcase_add_test(text, test_colormap);
    tcase_add_test(text, test_legend_and_scale_bar);
    tcase_add_test(text, test_legend_bounds);

    TCase *files = tu_tcase(s, "png", tu_dir_setup, tu_dir_teardown);
    tcase_add_test(files, test_same_bytes);
    tcase_add_test(files, test_compression_level);
    tcase_add_test(files, test_missing_dir);
    tcase_add_test(files, test_create_limits);
    return s;
}

int main(void)
{
    return tu_run(raster_suite());
}
