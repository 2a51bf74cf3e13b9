/* Charts (gfx/chart.h, gfx/chart_axis.h): axes end on whole 1-2-5 steps or at 1, 2 or 5 times
 * a power of ten, labels read as the values they stand for and never overlap, positions
 * follow the scale, and a drawn chart stays inside its panel, clips what a log axis cannot
 * show, and puts its legend where it hides the fewest points. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/chart.h"
#include "gfx/chart_axis.h"
#include "gfx/raster.h"
#include "testutil_check.h"

static const struct chart_axis_room wide = {.length = 800, .text_scale = 2, .horizontal = 1};
static const struct chart_axis_room tall = {.length = 200, .text_scale = 2, .horizontal = 0};

/* The labelled ticks' labels of t in order, joined by spaces. */
static void joined(const struct chart_axis_ticks *t, char *buf, size_t size)
{
    buf[0] = '\0';
    for (size_t i = 0; i < t->n; i++)
        if (t->t[i].labelled) {
            if (buf[0])
                strncat(buf, " ", size - strlen(buf) - 1);
            strncat(buf, t->t[i].label, size - strlen(buf) - 1);
        }
}

START_TEST(test_format)
{
    char s[CHART_AXIS_LABEL];
    chart_axis_format(0.5, 0.1, s, sizeof s);
    ck_assert_str_eq(s, "0.5");
    chart_axis_format(-17.75, 0.01, s, sizeof s);
    ck_assert_str_eq(s, "-17.75");
    chart_axis_format(1.00002, 1e-5, s, sizeof s);
    ck_assert_str_eq(s, "1.00002");
    chart_axis_format(2.5e-7, 5e-8, s, sizeof s);
    ck_assert_str_eq(s, "2.5e-7");
    chart_axis_format(1e-7, 5e-8, s, sizeof s);
    ck_assert_str_eq(s, "1e-7");
    chart_axis_format(3e6, 1e6, s, sizeof s);
    ck_assert_str_eq(s, "3e6");
    chart_axis_format(0, 1e6, s, sizeof s);
    ck_assert_str_eq(s, "0");
    chart_axis_format(40, 10, s, sizeof s);
    ck_assert_str_eq(s, "40");
}
END_TEST

/* 0..10 s on a wide axis: whole steps from 0 to 10, labels as the values, at most 10 ticks. */
START_TEST(test_linear)
{
    struct chart_axis_ticks t;
    char s[512];
    chart_axis_linear(0, 10, &wide, &t);
    ck_assert_double_eq(t.lo, 0);
    ck_assert_double_eq(t.hi, 10);
    ck_assert_uint_le(t.n, 10);
    ck_assert_uint_ge(t.n, 5);
    joined(&t, s, sizeof s);
    ck_assert_str_eq(s, t.n == 6 ? "0 2 4 6 8 10" : "0 5 10");
    /* ends widened to whole steps, every label the value it marks */
    chart_axis_linear(-17.7587, -17.7291, &wide, &t);
    ck_assert_double_le(t.lo, -17.7587);
    ck_assert_double_ge(t.hi, -17.7291);
    for (size_t i = 0; i < t.n; i++)
        ck_assert_double_eq_tol(strtod(t.t[i].label, NULL), t.t[i].value, 1e-12);
    /* a vertical axis of 200 px at scale 2 (lines of 20 px, labels 40 px apart): 6 ticks */
    chart_axis_linear(0, 1, &tall, &t);
    ck_assert_uint_le(t.n, 6);
    ck_assert_uint_ge(t.n, 3);
}
END_TEST

/* A constant (live links, 40 all along) gets a range around it rather than none. */
START_TEST(test_constant)
{
    struct chart_axis_ticks t;
    chart_axis_linear(40, 40, &tall, &t);
    ck_assert_double_lt(t.lo, 40);
    ck_assert_double_gt(t.hi, 40);
    ck_assert_double_eq_tol(chart_axis_position(&t, 40), 0.5, 1e-12);
    /* round-off about 1 (a pendulum's max stretch) is a constant too */
    chart_axis_linear(1, 1.0000000000000002, &tall, &t);
    ck_assert_double_lt(t.lo, 0.99);
}
END_TEST

/* Labels of a horizontal axis never overlap: long labels get fewer ticks. */
START_TEST(test_no_overlap)
{
    const struct chart_axis_room narrow = {.length = 300, .text_scale = 2, .horizontal = 1};
    struct chart_axis_ticks t;
    chart_axis_linear(1e6, 9e6, &narrow, &t);
    double prev_right = -1e9;
    for (size_t i = 0; i < t.n; i++) {
        int w, h;
        raster_text_size(t.t[i].label, 2, &w, &h);
        const double x = chart_axis_position(&t, t.t[i].value) * narrow.length;
        ck_assert_double_gt(x - w / 2.0, prev_right);
        prev_right = x + w / 2.0;
    }
    ck_assert_uint_ge(t.n, 2);
}
END_TEST

/* Errors from 1.13e-7 to 8.2e-6: 1e-7 to 1e-5, 1e-6 halfway, decades labelled. */
START_TEST(test_log)
{
    struct chart_axis_ticks t;
    char s[512];
    chart_axis_log(1.13e-7, 8.2e-6, &tall, &t);
    ck_assert_int_eq(t.log, 1);
    ck_assert_double_eq_tol(t.lo, 1e-7, 1e-20);
    ck_assert_double_eq_tol(t.hi, 1e-5, 1e-18);
    ck_assert_double_eq_tol(chart_axis_position(&t, 1e-6), 0.5, 1e-12);
    ck_assert(isnan(chart_axis_position(&t, 0)));
    ck_assert(isnan(chart_axis_position(&t, -1)));
    joined(&t, s, sizeof s);
    ck_assert_str_eq(s, "1e-7 1e-6 1e-5");
    /* iterations 5 to 200 on a wide axis: the ends at 5 and 200, 2 and 5 labelled too */
    chart_axis_log(5, 200, &wide, &t);
    ck_assert_double_eq(t.lo, 5);
    ck_assert_double_eq(t.hi, 200);
    joined(&t, s, sizeof s);
    ck_assert_str_eq(s, "5 10 20 50 100 200");
    /* 300 decades: a tick per few decades, never more than the array holds */
    chart_axis_log(1e-300, 1e300, &tall, &t);
    ck_assert_uint_le(t.n, CHART_AXIS_MAX_TICKS);
    ck_assert_uint_ge(t.n, 2);
}
END_TEST

START_TEST(test_categories)
{
    static const char *const names[] = {"verlet", "pbd", "xpbd"};
    struct chart_axis_ticks t;
    char s[512];
    chart_axis_categories(names, 3, &wide, &t);
    joined(&t, s, sizeof s);
    ck_assert_str_eq(s, "verlet pbd xpbd");
    ck_assert_double_eq_tol(chart_axis_position(&t, 1), 0.5, 1e-12);
    ck_assert_double_gt(chart_axis_position(&t, 0), 0);
    ck_assert_double_lt(chart_axis_position(&t, 2), 1);
}
END_TEST

/* ---- drawing ---- */

static const struct raster_color red = {214, 39, 40, 255};
static const struct raster_color blue = {31, 119, 180, 255};

static int same(const unsigned char *p, struct raster_color c)
{
    return p[0] == c.r && p[1] == c.g && p[2] == c.b && p[3] == 255;
}

/* The bounding box {x0, y0, x1, y1} of pixels of colour c; returns how many there are. */
static long find(const struct raster *r, struct raster_color c, int box[4])
{
    long n = 0;
    box[0] = box[1] = 1 << 30;
    box[2] = box[3] = -1;
    for (int y = 0; y < r->height; y++)
        for (int x = 0; x < r->width; x++)
            if (same(r->px + ((size_t)y * r->width + x) * 4, c)) {
                n++;
                box[0] = x < box[0] ? x : box[0];
                box[1] = y < box[1] ? y : box[1];
                box[2] = x > box[2] ? x : box[2];
                box[3] = y > box[3] ? y : box[3];
            }
    return n;
}

static struct raster *canvas(void)
{
    struct catena_error err;
    struct raster *r = raster_create(600, 500, &err);
    ck_assert_ptr_nonnull(r);
    raster_clear(r, (struct raster_color){0, 0, 0, 0});
    return r;
}

/* A rising line drawn into a panel in the middle of the canvas: it rises to the right, and
 * nothing of the chart lands outside the panel. */
START_TEST(test_draw_inside)
{
    double x[50], y[50];
    for (int i = 0; i < 50; i++) {
        x[i] = i;
        y[i] = 3 * i + 7;
    }
    const struct chart_series s = {.name = NULL, .x = x, .y = y, .n = 50, .color = red};
    const struct chart c = {.title = "rising",
                            .x = {.title = "step"},
                            .y = {.title = "value (m)"},
                            .series = &s,
                            .nseries = 1,
                            .text_scale = 2};
    struct raster *r = canvas();
    chart_draw(r, 50, 100, 500, 300, &c);
    for (int yy = 0; yy < r->height; yy++)
        for (int xx = 0; xx < r->width; xx++) {
            const int in = xx >= 50 && xx < 550 && yy >= 100 && yy < 400;
            ck_assert_msg(in || r->px[((size_t)yy * r->width + xx) * 4 + 3] == 0,
                          "pixel (%d, %d) drawn outside the panel", xx, yy);
        }
    int box[4];
    ck_assert_int_gt(find(r, red, box), 100);
    /* the line's leftmost pixels are low (large rows), its rightmost high */
    int left_y = -1, right_y = -1;
    for (int yy = 0; yy < r->height; yy++) {
        if (same(r->px + ((size_t)yy * r->width + box[0]) * 4, red))
            left_y = yy;
        if (right_y < 0 && same(r->px + ((size_t)yy * r->width + box[2]) * 4, red))
            right_y = yy;
    }
    ck_assert_int_gt(left_y, right_y + 100);
    raster_destroy(r);
}
END_TEST

/* On a log axis, values at or below 0 break the line and are not drawn; the rest is, inside
 * the plot. A chart with nothing to show draws no line. */
START_TEST(test_draw_log_and_empty)
{
    double x[6] = {0, 1, 2, 3, 4, 5}, y[6] = {1e-3, 1e-5, 0, -1, 1e-7, 1e-9};
    const struct chart_series s = {.x = x, .y = y, .n = 6, .color = red, .markers = 1};
    struct chart c = {.y = {.scale = CHART_LOG}, .series = &s, .nseries = 1, .text_scale = 1};
    struct raster *r = canvas();
    chart_draw(r, 0, 0, 600, 500, &c);
    int box[4];
    ck_assert_int_gt(find(r, red, box), 10);
    raster_destroy(r);
    const double nan = NAN;
    const struct chart_series empty = {.x = &nan, .y = &nan, .n = 1, .color = red};
    c.series = &empty;
    r = canvas();
    chart_draw(r, 0, 0, 600, 500, &c);
    ck_assert_int_eq(find(r, red, box), 0);
    raster_destroy(r);
}
END_TEST

/* Data crowding the top right: the legend goes elsewhere, and holds both entries' colours. */
START_TEST(test_legend_corner)
{
    double x[40], y1[40], y2[40];
    for (int i = 0; i < 40; i++) {
        x[i] = i;
        y1[i] = i < 30 ? 0 : 100; /* a step up near the right end */
        y2[i] = i < 30 ? 1 : 99;
    }
    const struct chart_series s[2] = {{.name = "first", .x = x, .y = y1, .n = 40, .color = red},
                                      {.name = "second", .x = x, .y = y2, .n = 40, .color = blue}};
    const struct chart c = {.series = s, .nseries = 2, .text_scale = 2};
    struct raster *r = canvas();
    chart_draw(r, 0, 0, 600, 500, &c);
    /* the legend's swatches: short horizontal runs of each colour in the top left */
    int n_red = 0, n_blue = 0;
    for (int yy = 0; yy < 150; yy++)
        for (int xx = 0; xx < 300; xx++) {
            n_red += same(r->px + ((size_t)yy * r->width + xx) * 4, red);
            n_blue += same(r->px + ((size_t)yy * r->width + xx) * 4, blue);
        }
    ck_assert_int_gt(n_red, 10);
    ck_assert_int_gt(n_blue, 10);
    raster_destroy(r);
}
END_TEST

static Suite *chart_suite(void)
{
    Suite *s = suite_create("chart");
    TCase *axis = tcase_create("axis");
    tcase_add_test(axis, test_format);
    tcase_add_test(axis, test_linear);
    tcase_add_test(axis, test_constant);
    tcase_add_test(axis, test_no_overlap);
    tcase_add_test(axis, test_log);
    tcase_add_test(axis, test_categories);
    suite_add_tcase(s, axis);
    TCase *draw = tcase_create("draw");
    tcase_add_test(draw, test_draw_inside);
    tcase_add_test(draw, test_draw_log_and_empty);
    tcase_add_test(draw, test_legend_corner);
    suite_add_tcase(s, draw);
    return s;
}

int main(void)
{
    return tu_run(chart_suite());
}
