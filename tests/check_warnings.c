/* The contradictory set-ups validate and run warn about (scenario/setup_warnings.c): a pressure
 * body that its rigid spokes hold, rigid loops whose rest lengths no shape has; and the set-ups
 * next to them that are fine (soft spokes, a pressure folding can reach, compliant links,
 * rest lengths the initial positions meet), so that a warning is never a false alarm on
 * what the shipped scenarios do. Scenarios are written with ' for " and read by the loader. */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/warnings.h"
#include "scenario/setup_warnings.h"
#include "testutil_check.h"
#include "testutil_models.h"

static struct warnings w;

static void setup(void)
{
    tu_models_setup();
    w = (struct warnings){0};
}

static void teardown(void)
{
    warnings_clear(&w);
    tu_models_teardown();
}

/* The warnings of scenario text (printf-style, ' for "). */
static size_t warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static size_t warn(const char *fmt, ...)
{
    char text[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    model_destroy(m);
    m = tu_load("%s", text);
    warnings_clear(&w);
    ck_assert_int_eq(setup_warnings(m, &w), 0);
    return w.n;
}

#define HEAD "{'catena': 1, 'time': {'dt': 0.01, 'steps': 10}, "

/* The wheel: a ring with its default rigid spokes and edges at pressure 0.8 (it
 * spun up to 23 rad/s from rest); in 3D a sphere at pressure 1.3. */
START_TEST(test_pressure_rigid_spokes)
{
    ck_assert_uint_eq(warn(HEAD "'bodies': [{'type': 'softbody', 'name': 'wheel', 'center': [0, "
                                "1], 'shape_radius': 0.5, 'points': 16, 'mass': 1, 'pressure': "
                                "0.8}]}"),
                      1);
    ck_assert_str_eq(w.list[0].code, "pressure-rigid-spokes");
    ck_assert_msg(strstr(w.list[0].message, "body \"wheel\"") &&
                      strstr(w.list[0].message, "point wheel.center") &&
                      strstr(w.list[0].message, "rigid edges"),
                  "%s", w.list[0].message);
    ck_assert_uint_eq(warn("{'catena': 1, 'dimensions': 3, 'time': {'dt': 0.01, 'steps': 10}, "
                           "'bodies': [{'type': 'softbody', 'name': 'ball', 'shape': 'sphere', "
                           "'shape_radius': 0.5, 'subdivisions': 1, 'mass': 1, 'pressure': "
                           "1.3}]}"),
                      1);
    ck_assert_str_eq(w.list[0].code, "pressure-rigid-spokes");
    ck_assert(strstr(w.list[0].message, "its volume") != NULL);
}
END_TEST

/* Rigid spokes with soft edges (the body's stiffness 0.5): more than the inscribed polygon's
 * area is out of reach (pressure 1.2), less is not (0.8: the ring can fold between its
 * spokes). Soft spokes, no spokes, or pressure 1: fine. */
START_TEST(test_pressure_reachable)
{
    const char *ring = HEAD "'bodies': [{'type': 'softbody', 'name': 'r', 'shape_radius': 0.5, "
                            "'points': 12, 'mass': 1, 'stiffness': 0.5, %s}]}";
    ck_assert_uint_eq(warn(ring, "'pressure': 1.2, 'spokes': {'stiffness': 1}"), 1);
    ck_assert_uint_eq(warn(ring, "'pressure': 0.8, 'spokes': {'stiffness': 1}"), 0);
    ck_assert_uint_eq(warn(ring, "'pressure': 1.2, 'spokes': {'stiffness': 0.002}"), 0);
    ck_assert_uint_eq(warn(ring, "'pressure': 1"), 0);
    ck_assert_uint_eq(warn(ring, "'pressure': 1.2, 'spokes': false"), 0);
}
END_TEST

/* The square with rigid links: sides of rest 1 and diagonals of rest 1.5, which no flat
 * square has (the Cayley-Menger determinant is not 0); with compliance (xpbd) it is only a
 * prestressed body, and with rest lengths from the positions it is a square. */
START_TEST(test_rigid_frame)
{
    const char *square = HEAD "'solver': {'method': '%s'}, 'points': [{'name': 'a', 'p': [0, 0], "
                              "'mass': 1}, {'name': 'b', 'p': [1, 0], 'mass': 1}, {'name': "
                              "'c', 'p': [1, 1], 'mass': 1}, {'name': 'd', 'p': [0, 1], 'mass': "
                              "1}], 'links': [{'a': 'a', 'b': 'b'}, {'a': 'b', 'b': 'c'}, {'a': "
                              "'c', 'b': 'd'}, {'a': 'd', 'b': 'a'}, {'a': 'a', 'b': 'c', "
                              "'rest': %s}, {'a': 'b', 'b': 'd', 'rest': %s %s}]}";
    ck_assert_uint_eq(warn(square, "verlet", "1.5", "1.5", ""), 1);
    ck_assert_str_eq(w.list[0].code, "rigid-loop-lengths");
    ck_assert_msg(strstr(w.list[0].message, "points a, b, c and d") &&
                      strstr(w.list[0].message, "no flat shape"),
                  "%s", w.list[0].message);
    ck_assert_uint_eq(warn(square, "xpbd", "1.5", "1.5", ", 'compliance': 1e-3"), 0);
    ck_assert_uint_eq(warn(square, "verlet", "1.4142135623730951", "1.4142135623730951", ""), 0);
    ck_assert_uint_eq(warn(square, "verlet", "'auto'", "'auto'", ""), 0);
}
END_TEST

/* A rigid link longer than the rest of its loop (3 against 1 + 0.94), and one that is not
 * (1.5 fits: the triangle folds); an inequality link (a tether) is never rigid. */
START_TEST(test_rigid_loop)
{
    const char *tri = HEAD "'points': [{'name': 'a', 'p': [0, 0], 'mass': 1}, {'name': 'b', 'p': "
                           "[1, 0], 'mass': 1}, {'name': 'c', 'p': [0.5, 0.8], 'mass': 1}], "
                           "'links': [{'a': 'a', 'b': 'b', 'rest': %s%s}, {'a': 'b', 'b': 'c'}, "
                           "{'a': 'c', 'b': 'a'}]}";
    ck_assert_uint_eq(warn(tri, "3", ""), 1);
    ck_assert_str_eq(w.list[0].code, "rigid-loop-lengths");
    ck_assert_msg(strstr(w.list[0].message, "from point a to point b (rest 3 m)"), "%s",
                  w.list[0].message);
    ck_assert_uint_eq(warn(tri, "1.5", ""), 0);
    ck_assert_uint_eq(warn(tri, "3", ", 'kind': 'tether'"), 0);
}
END_TEST

/* Many such links make one warning that counts the rest; a name with a control character
 * (an escaped newline in the file) is shown with '?', as the loader shows it. */
START_TEST(test_counted_and_shown)
{
    char points[2048] = "", links[2048] = "";
    for (int k = 0; k < 4; k++) {
        char p[256], l[256];
        snprintf(p, sizeof p,
                 "%s{'name': 'p%d\\nq', 'p': [%d, 0], 'mass': 1}, {'p': [%d, 1], "
                 "'mass': 1}, {'p': [%d.5, 2], 'mass': 1}",
                 k ? ", " : "", k, 3 * k, 3 * k, 3 * k);
        snprintf(l, sizeof l,
                 "%s{'a': %d, 'b': %d, 'rest': 9}, {'a': %d, 'b': %d}, {'a': %d, 'b': "
                 "%d}",
                 k ? ", " : "", 3 * k, 3 * k + 1, 3 * k + 1, 3 * k + 2, 3 * k + 2, 3 * k);
        strcat(points, p);
        strcat(links, l);
    }
    ck_assert_uint_eq(warn(HEAD "'points': [%s], 'links': [%s]}", points, links), 1);
    ck_assert_msg(strstr(w.list[0].message, "(and 3 more such links)") &&
                      strstr(w.list[0].message, "from point p0?q to point 1"),
                  "%s", w.list[0].message);
}
END_TEST

/* What the shipped scenarios do raises nothing: a cloth, a hanging rope longer than its span,
 * a ragdoll, a soft body at pressure 1 with its rigid spokes. */
START_TEST(test_no_false_alarms)
{
    ck_assert_uint_eq(warn(HEAD "'bodies': [{'name': 'c', 'type': 'cloth', 'rows': 6, 'cols': 6, "
                                "'spacing': 0.2, 'mass': 1, 'shear': true, 'bend': true}]}"),
                      0);
    ck_assert_uint_eq(warn(HEAD "'bodies': [{'type': 'rope', 'name': 'r', 'from': [0, 0], 'to': "
                                "[4, 0], 'segments': 20, 'length': 5, 'mass': 1, 'pins': "
                                "['first', 'last']}]}"),
                      0);
    ck_assert_uint_eq(warn(HEAD "'bodies': [{'type': 'ragdoll', 'name': 'fig', 'mass': 70}]}"), 0);
    ck_assert_uint_eq(warn(HEAD "'bodies': [{'type': 'softbody', 'name': 's', 'shape_radius': 0.5, "
                                "'mass': 1, 'area': true}]}"),
                      0);
}
END_TEST

static Suite *warnings_suite(void)
{
    Suite *su = suite_create("warnings");
    TCase *tc = tu_tcase(su, "setup", setup, teardown);
    tcase_add_test(tc, test_pressure_rigid_spokes);
    tcase_add_test(tc, test_pressure_reachable);
    tcase_add_test(tc, test_rigid_frame);
    tcase_add_test(tc, test_rigid_loop);
    tcase_add_test(tc, test_counted_and_shown);
    tcase_add_test(tc, test_no_false_alarms);
    return su;
}

int main(void)
{
    return tu_run(warnings_suite());
}
