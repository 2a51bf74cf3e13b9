/* Scenario loader tests: good scenarios read into the model they describe (defaults,
 * references of every form, rope bodies and their sag, pins, overrides), and bad ones
 * fail with the exact message a user sees. Scenarios are written with ' for " so that
 * they stay readable; the label is "test.json". */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/build/build.h"
#include "scenario/scenario.h"
#include "testutil.h"
#include "testutil_check.h"

#define HEAD "{'catena': 1, 'time': {'dt': 0.01, 'steps': 10}, "
#define ONE_POINT "'points': [{'p': [0, 0], 'mass': 1}]"

/* Initial link lengths equal rest lengths to this, relative: a few roundings of the
 * positions (|x| ~ 10 m) against links down to ~0.01 m. */
#define LENGTH_TOL 1e-12

/* The text with ' turned into " (and ` into '). One static buffer: one call at a time. */
static const char *q(const char *s)
{
    static char buf[8192];
    size_t i = 0;
    for (; s[i] && i + 1 < sizeof buf; i++)
        buf[i] = s[i] == '\'' ? '"' : s[i] == '`' ? '\'' : s[i];
    buf[i] = '\0';
    return buf;
}

static struct scenario *load_scenario_ov(const char *json, const struct scenario_override *ov,
                                         size_t nov)
{
    struct catena_error err;
    const char *text = q(json);
    struct scenario *sc = scenario_parse("test.json", text, strlen(text), ov, nov, &err);
    ck_assert_msg(sc != NULL, "unexpected error: %s", err.msg);
    ck_assert_int_eq(err.code, CATENA_OK);
    return sc;
}

static struct scenario *load_scenario(const char *json)
{
    return load_scenario_ov(json, NULL, 0);
}

static struct model *load(const char *json)
{
    return tu_model_of(load_scenario(json));
}

static void expect_error_ov(const char *json, const struct scenario_override *ov, size_t nov,
                            const char *msg)
{
    struct catena_error err;
    const char *text = q(json);
    struct scenario *sc = scenario_parse("test.json", text, strlen(text), ov, nov, &err);
    ck_assert_msg(sc == NULL, "loaded a bad scenario: %s", json);
    ck_assert_int_eq(err.code, CATENA_EINPUT);
    ck_assert_str_eq(err.msg, msg);
}

/* ---- settings ---- */

START_TEST(test_defaults)
{
    const char *text = "{\"catena\": 1, \"time\": {\"dt\": 1, \"steps\": 0}, \"points\": "
                       "[{\"p\": [0, 0], \"mass\": 0}]}";
    struct catena_error err;
    struct scenario *sc = scenario_parse("dir/hang.json", text, strlen(text), NULL, 0, &err);
    ck_assert_ptr_nonnull(sc);
    const struct model *m = sc->model;
    ck_assert_str_eq(sc->provenance.name, "hang"); /* the file's base name without .json */
    ck_assert_str_eq(sc->provenance.source, "dir/hang.json");
    /* printf '%s' "$text" | sha256sum */
    ck_assert_str_eq(sc->provenance.sha256,
                     "95cbd469b52705614f2bd9597d39ff325d857a5e3a78487805f10a18388a43eb");
    ck_assert_int_eq(m->dims, 2);
    ck_assert_double_eq(m->dt, 1);
    ck_assert_int_eq(m->steps, 0);
    ck_assert_int_eq(m->substeps, 1);
    ck_assert_int_eq(m->method, METHOD_VERLET);
    ck_assert_int_eq(m->iterations, 10);
    ck_assert_int_eq(m->order, ORDER_ALTERNATE);
    ck_assert_double_eq(m->damping, 1.0);
    ck_assert_double_eq(m->gravity.x, 0);
    ck_assert_double_eq(m->gravity.y, -9.81);
    ck_assert_double_eq(m->gravity.z, 0);
    ck_assert_uint_eq(sc->output.formats, FORMAT_CSV);
    ck_assert_int_eq(sc->output.every, 1);
    ck_assert_int_eq(sc->output.metrics, 1);
    ck_assert_uint_eq(sc->output.reports, 0);
    ck_assert_ptr_null(sc->output.render);
    ck_assert_uint_eq(m->npoints, 1);
    ck_assert_double_eq(m->mass[0], 0);
    ck_assert_double_eq(m->inv_mass[0], 0); /* mass 0 = pinned */
    ck_assert_double_eq(m->radius[0], 0);
    ck_assert_double_eq(m->v0[0].x, 0);
    ck_assert_ptr_null(m->point_name[0]);
    ck_assert_uint_eq(m->nlinks + m->npins + m->nbodies, 0);
    scenario_destroy(sc);
}
END_TEST

START_TEST(test_settings)
{
    struct scenario *sc =
        load_scenario("{'catena': 1, 'name': 'run-1.b_2', 'dimensions': 3,"
                      " 'time': {'dt': 0.005, 'steps': 2400, 'substeps': 4},"
                      " 'solver': {'method': 'verlet', 'iterations': 20, 'order': 'forward',"
                      "            'damping': 0.995},"
                      " 'world': {'gravity': [0, 0, -1.62]},"
                      " 'output': {'trajectory': ['npy', 'json'], 'every': 10},"
                      " 'points': [{'name': 'a', 'p': [1, 2, 3], 'v': [4, 5, 6], 'mass': 2,"
                      "             'radius': 0.25}]}");
    const struct model *m = sc->model;
    ck_assert_str_eq(sc->provenance.name, "run-1.b_2");
    ck_assert_int_eq(m->dims, 3);
    ck_assert_double_eq(m->dt, 0.005);
    ck_assert_int_eq(m->steps, 2400);
    ck_assert_int_eq(m->substeps, 4);
    ck_assert_int_eq(m->iterations, 20);
    ck_assert_int_eq(m->order, ORDER_FORWARD);
    ck_assert_double_eq(m->damping, 0.995);
    ck_assert_double_eq(m->gravity.x, 0);
    ck_assert_double_eq(m->gravity.z, -1.62);
    ck_assert_uint_eq(sc->output.formats, FORMAT_NPY | FORMAT_JSON);
    ck_assert_int_eq(sc->output.every, 10);
    ck_assert_str_eq(m->point_name[0], "a");
    ck_assert_double_eq(m->x0[0].z, 3);
    ck_assert_double_eq(m->v0[0].y, 5);
    ck_assert_double_eq(m->inv_mass[0], 0.5);
    ck_assert_double_eq(m->radius[0], 0.25);
    scenario_destroy(sc);

    sc = load_scenario(HEAD "'output': {'trajectory': []}, " ONE_POINT "}");
    ck_assert_uint_eq(sc->output.formats, 0); /* no trajectory at all */
    scenario_destroy(sc);
}
END_TEST

/* solver.threads and solver.kernel: one thread and the batched kernel unless asked. */
START_TEST(test_threads_kernel)
{
    struct model *m = load(HEAD ONE_POINT "}");
    ck_assert_int_eq(m->threads, 1);
    ck_assert_int_eq(m->kernel, KERNEL_BATCHED);
    model_destroy(m);
    m = load(HEAD "'solver': {'threads': 2, 'kernel': 'simple'}, " ONE_POINT "}");
    ck_assert_int_eq(m->threads, 2);
    ck_assert_int_eq(m->kernel, KERNEL_SIMPLE);
    model_destroy(m);
}
END_TEST

/* ---- solver methods and constraint families ---- */

/* The keys of issue 3 read into the model: methods and orders, the max-length pass, metrics,
 * link compliance (EA gives rest / EA), kind and break_force, angles in degrees, areas,
 * shapes from a list or a body, welds; and their defaults. */
START_TEST(test_constraint_keys)
{
    struct scenario *sc = load_scenario(HEAD ONE_POINT "}");
    ck_assert_int_eq(sc->model->max_length_pass, 0);
    ck_assert_int_eq(sc->output.metrics, 1);
    scenario_destroy(sc);

    sc = load_scenario(HEAD
                       "'solver': {'method': 'xpbd', 'order': 'colored', 'max_length_pass': true},"
                       " 'output': {'metrics': false},"
                       " 'bodies': [{'name': 'r', 'type': 'rope', 'from': [0, 2], 'to': [3, 2],"
                       "             'segments': 3, 'mass': 1}],"
                       " 'points': [{'name': 'a', 'p': [0, 0], 'mass': 1},"
                       "            {'name': 'b', 'p': [2, 0], 'mass': 1},"
                       "            {'name': 'c', 'p': [2, 1], 'mass': 1}],"
                       " 'links': [{'a': 'a', 'b': 'b', 'EA': 400, 'kind': 'tether',"
                       "            'break_force': 30},"
                       "           {'a': 'b', 'b': 'c', 'compliance': 0.01}],"
                       " 'angles': [{'a': 'a', 'b': 'b', 'c': 'c', 'min': -45, 'max': 90,"
                       "             'compliance': 0.5},"
                       "            {'a': 'r.0', 'b': 'r.1', 'c': 'r.2', 'stiffness': 0.25}],"
                       " 'areas': [{'points': ['a', 'b', 'c'], 'pressure': 2, 'stiffness': 0.5}],"
                       " 'shapes': [{'body': 'r', 'stiffness': 0.75}, {'points': ['c', 'a']}],"
                       " 'attachments': [{'a': 'r.last', 'b': 'c', 'compliance': 0.001}]}");
    ck_assert_int_eq(sc->output.metrics, 0);
    struct model *m = tu_model_of(sc);
    ck_assert_int_eq(m->method, METHOD_XPBD);
    ck_assert_int_eq(m->order, ORDER_COLORED);
    ck_assert_int_eq(m->max_length_pass, 1);
    /* The rope's 3 links come first, then links[]. */
    ck_assert_uint_eq(m->nlinks, 5);
    const struct link *l = &m->links[3];
    ck_assert_double_eq_tol(l->compliance, 2.0 / 400.0, 1e-18);
    ck_assert_int_eq(l->kind, LINK_TETHER);
    ck_assert_double_eq(l->break_force, 30);
    ck_assert_double_eq(m->links[4].compliance, 0.01);
    ck_assert_int_eq(m->links[4].kind, LINK_DISTANCE);
    ck_assert_double_eq(m->links[4].break_force, 0);

    ck_assert_uint_eq(m->nangles, 2);
    const double deg = 3.14159265358979323846 / 180.0;
    ck_assert_uint_eq(m->angles[0].a, 0);
    ck_assert_uint_eq(m->angles[0].c, 2);
    ck_assert_double_eq_tol(m->angles[0].min, -45 * deg, 1e-15);
    ck_assert_double_eq_tol(m->angles[0].max, 90 * deg, 1e-15);
    ck_assert_double_eq(m->angles[0].compliance, 0.5);
    ck_assert_double_eq(m->angles[0].stiffness, 1);
    ck_assert_uint_eq(m->angles[1].b, 4); /* r.1: after the 3 points */
    ck_assert_double_eq_tol(m->angles[1].min, -180 * deg, 1e-15);
    ck_assert_double_eq_tol(m->angles[1].max, 180 * deg, 1e-15);
    ck_assert_double_eq(m->angles[1].stiffness, 0.25);

    ck_assert_uint_eq(m->nareas, 1);
    ck_assert_uint_eq(m->areas[0].count, 3);
    ck_assert_double_eq(m->areas[0].rest, 1.0); /* triangle (0,0) (2,0) (2,1), counter-clockwise */
    ck_assert_double_eq(m->areas[0].pressure, 2);
    ck_assert_double_eq(m->areas[0].stiffness, 0.5);

    ck_assert_uint_eq(m->nshapes, 2);
    ck_assert_uint_eq(m->shapes[0].count, 4);
    ck_assert_uint_eq(m->shape_index[m->shapes[0].first], 3);
    ck_assert_double_eq(m->shapes[0].stiffness, 0.75);
    ck_assert_uint_eq(m->shapes[1].count, 2);
    ck_assert_uint_eq(m->shape_index[m->shapes[1].first], 2);
    ck_assert_double_eq(m->shapes[1].stiffness, 1);

    ck_assert_uint_eq(m->nattachments, 1);
    ck_assert_uint_eq(m->attachments[0].a, 6);
    ck_assert_uint_eq(m->attachments[0].b, 2);
    ck_assert_double_eq(m->attachments[0].compliance, 0.001);
    model_destroy(m);

    /* 3D: a cone from 0 to 180 degrees by default. */
    m = load(HEAD "'dimensions': 3, 'points': [{'p': [0, 0, 0], 'mass': 1},"
                  " {'p': [1, 0, 0], 'mass': 1}, {'p': [2, 0, 1], 'mass': 1}],"
                  " 'angles': [{'a': 0, 'b': 1, 'c': 2, 'max': 30}]}");
    ck_assert_double_eq(m->angles[0].min, 0);
    ck_assert_double_eq_tol(m->angles[0].max, 30 * deg, 1e-15);
    model_destroy(m);
}
END_TEST

/* solver.global (scenario/solver.c): off by default, on with true. */
START_TEST(test_global_key)
{
    struct model *m = load(HEAD ONE_POINT "}");
    ck_assert_int_eq(m->global, 0);
    model_destroy(m);
    m = load(HEAD "'solver': {'method': 'pbd', 'global': true}, " ONE_POINT "}");
    ck_assert_int_eq(m->global, 1);
    ck_assert_int_eq(m->method, METHOD_PBD);
    model_destroy(m);
}
END_TEST

/* ---- bodies, references, links, pins ---- */

START_TEST(test_rope_body)
{
    struct model *m = load(HEAD "'points': [{'name': 'lamp', 'p': [1, -1], 'mass': 20}],"
                                " 'bodies': [{'name': 'chain', 'type': 'rope', 'from': [0, 0],"
                                "   'to': [3, 0], 'segments': 3, 'mass': 2, 'stiffness': 0.5,"
                                "   'break_stretch': 1.5, 'radius': 0.1},"
                                "  {'name': 'r2', 'type': 'rope', 'from': [0, 1], 'to': [0, 3],"
                                "   'segments': 4, 'mass': 1, 'pins': ['first', 'last', 2]}],"
                                " 'links': [{'a': 'lamp', 'b': 'chain.last', 'rest': 2}]}");
    /* points[] first, then chain (4 points), then r2 (5 points) */
    ck_assert_uint_eq(m->npoints, 1 + 4 + 5);
    ck_assert_uint_eq(m->nbodies, 2);
    ck_assert_str_eq(m->bodies[0].name, "chain");
    ck_assert_int_eq(m->bodies[0].type, BODY_ROPE);
    ck_assert_uint_eq(m->bodies[0].first_point, 1);
    ck_assert_uint_eq(m->bodies[0].npoints, 4);
    ck_assert_uint_eq(m->bodies[0].first_link, 0);
    ck_assert_uint_eq(m->bodies[0].nlinks, 3);
    ck_assert_uint_eq(m->bodies[1].first_point, 5);
    ck_assert_uint_eq(m->bodies[1].npoints, 5);
    ck_assert_uint_eq(m->bodies[1].first_link, 3);
    ck_assert_uint_eq(m->bodies[1].nlinks, 4);
    ck_assert_uint_eq(m->nlinks, 3 + 4 + 1);
    for (size_t k = 0; k < 4; k++) {
        ck_assert_double_eq(m->mass[1 + k], 0.5); /* 2 kg over 4 points */
        ck_assert_double_eq(m->radius[1 + k], 0.1);
        ck_assert_double_eq_tol(m->x0[1 + k].x, (double)k, 1e-15);
        ck_assert_double_eq(m->x0[1 + k].y, 0);
    }
    for (size_t l = 0; l < 3; l++) {
        ck_assert_uint_eq(m->links[l].a, 1 + l);
        ck_assert_uint_eq(m->links[l].b, 2 + l);
        ck_assert_double_eq(m->links[l].rest, 1);
        ck_assert_double_eq(m->links[l].stiffness, 0.5);
        ck_assert_double_eq(m->links[l].break_stretch, 1.5);
    }
    for (size_t l = 3; l < 7; l++) {
        ck_assert_double_eq(m->links[l].rest, 0.5);
        ck_assert_double_eq(m->links[l].stiffness, 1);
        ck_assert_double_eq(m->links[l].break_stretch, 0);
    }
    ck_assert_uint_eq(m->links[7].a, 0);
    ck_assert_uint_eq(m->links[7].b, 4);
    ck_assert_double_eq(m->links[7].rest, 2);
    ck_assert_uint_eq(m->npins, 3);
    ck_assert_uint_eq(m->pins[0].point, 5);
    ck_assert_uint_eq(m->pins[1].point, 9);
    ck_assert_uint_eq(m->pins[2].point, 7);
    for (size_t p = 0; p < 3; p++)
        ck_assert_double_eq(m->inv_mass[m->pins[p].point], 0);
    ck_assert_double_eq(m->pins[2].at.y, 2);
    ck_assert_double_eq_tol(m->inv_mass[6], 5, 1e-15); /* 1 kg over 5 points */
    model_destroy(m);
}
END_TEST

START_TEST(test_references)
{
    struct model *m = load(HEAD "'points': [{'name': 'lamp', 'p': [0, -5], 'mass': 1},"
                                "  {'p': [1, -5], 'mass': 1}],"
                                " 'bodies': [{'name': 'chain', 'type': 'rope', 'from': [0, 0],"
                                "   'to': [30, 0], 'segments': 30, 'mass': 1}],"
                                " 'links': [{'a': 1, 'b': 'lamp'},"
                                "  {'a': 'chain.3', 'b': 'chain.first'},"
                                "  {'a': 'chain.last', 'b': 'chain.29'},"
                                "  {'a': 'chain.0', 'b': 32, 'rest': 'auto'}]}");
    const struct link *l = m->links + 30; /* after the chain's own links */
    ck_assert_uint_eq(m->nlinks, 34);
    ck_assert_uint_eq(l[0].a, 1);
    ck_assert_uint_eq(l[0].b, 0);
    ck_assert_double_eq(l[0].rest, 1); /* "auto": the initial distance */
    ck_assert_uint_eq(l[1].a, 5);
    ck_assert_uint_eq(l[1].b, 2);
    ck_assert_double_eq_tol(l[1].rest, 3, 1e-14);
    ck_assert_uint_eq(l[2].a, 32);
    ck_assert_uint_eq(l[2].b, 31);
    ck_assert_uint_eq(l[3].a, 2);
    ck_assert_uint_eq(l[3].b, 32);
    ck_assert_double_eq_tol(l[3].rest, 30, 1e-14);
    model_destroy(m);
}
END_TEST

START_TEST(test_pins)
{
    struct model *m = load(HEAD "'points': [{'name': 'a', 'p': [0, 0], 'mass': 1},"
                                "  {'name': 'b', 'p': [2, 0], 'mass': 1}],"
                                " 'pins': [{'point': 'a'}, {'point': 1, 'at': [2, 1]}],"
                                " 'links': [{'a': 'a', 'b': 'b'}]}");
    ck_assert_uint_eq(m->npins, 2);
    ck_assert_uint_eq(m->pins[0].point, 0);
    ck_assert_double_eq(m->pins[0].at.x, 0);
    ck_assert_uint_eq(m->pins[1].point, 1);
    ck_assert_double_eq(m->pins[1].at.y, 1);
    ck_assert_double_eq(m->x0[1].y, 1); /* held where the pin says */
    ck_assert_double_eq(m->inv_mass[0], 0);
    ck_assert_double_eq(m->inv_mass[1], 0);
    ck_assert_double_eq(m->mass[1], 1);
    /* "auto" measures the pinned position: |(2,1) - (0,0)| */
    ck_assert_double_eq(m->links[0].rest, sqrt(5));
    model_destroy(m);
}
END_TEST

/* ---- the sag of a long rope ---- */

/* Checks a rope shape: exact ends, every link length / n, points in the plane of the
 * chord and the bulge direction w, and every interior point on the bulge's side. */
static void check_shape(const vec3 *x, size_t n, vec3 from, vec3 to, double length, vec3 w)
{
    const double seg = length / (double)n;
    ck_assert(x[0].x == from.x && x[0].y == from.y && x[0].z == from.z);
    ck_assert(x[n].x == to.x && x[n].y == to.y && x[n].z == to.z);
    const vec3 u = v3_scale(v3_sub(to, from), 1.0 / v3_dist(from, to));
    const vec3 normal = v3_cross(u, w);
    const int sags = length > v3_dist(from, to);
    for (size_t k = 0; k < n; k++) {
        const double d = v3_dist(x[k], x[k + 1]);
        ck_assert_msg(fabs(d - seg) <= LENGTH_TOL * seg, "link %zu of %zu: %.17g, rest %.17g", k, n,
                      d, seg);
        /* In the plane: distances from it are rounding only, ~1e-16 of the size. */
        ck_assert(fabs(v3_dot(v3_sub(x[k], from), normal)) <= 1e-12 * length);
        if (k > 0)
            ck_assert(sags ? v3_dot(v3_sub(x[k], from), w) > 0
                           : fabs(v3_dot(v3_sub(x[k], from), w)) <= 1e-15 * length);
    }
}

static const double sag_ratios[] = {1, 1.2, 2, 50};
static const size_t sag_segments[] = {40, 2, 3, 7, 41, 1000};

START_TEST(test_sag_shape)
{
    /* A level chord, gravity down: the rope hangs below it, symmetrically. */
    const vec3 from = v3(-3, 2, 0), to = v3(7, 2, 0), g = v3(0, -9.81, 0);
    for (size_t r = 0; r < sizeof sag_ratios / sizeof *sag_ratios; r++) {
        for (size_t s = 0; s < sizeof sag_segments / sizeof *sag_segments; s++) {
            const size_t n = sag_segments[s];
            const double length = sag_ratios[r] * 10;
            vec3 *x = malloc((n + 1) * sizeof *x);
            build_rope_shape(from, to, length, n, g, x);
            check_shape(x, n, from, to, length, v3(0, -1, 0));
            for (size_t k = 0; k <= n; k++) /* mirror image about the middle */
                ck_assert_double_eq_tol(x[k].y, x[n - k].y, 1e-12 * length);
            free(x);
        }
    }
}
END_TEST

START_TEST(test_sag_is_discrete_catenary)
{
    /* Equal point masses on equal links hang with link slopes in arithmetic progression
     * (constant horizontal tension, vertical tension dropping by m g per joint): the
     * shape built for a level chord is the rope's static shape. */
    const size_t n = 40;
    vec3 x[41];
    build_rope_shape(v3(0, 0, 0), v3(10, 0, 0), 12, n, v3(0, -9.81, 0), x);
    const double step =
        (x[2].y - x[1].y) / (x[2].x - x[1].x) - (x[1].y - x[0].y) / (x[1].x - x[0].x);
    ck_assert(step > 0);
    for (size_t k = 1; k < n; k++) {
        const double s0 = (x[k].y - x[k - 1].y) / (x[k].x - x[k - 1].x);
        const double s1 = (x[k + 1].y - x[k].y) / (x[k + 1].x - x[k].x);
        ck_assert_double_eq_tol(s1 - s0, step, 1e-9);
    }
}
END_TEST

START_TEST(test_sag_slanted_3d)
{
    /* Gravity partly along the chord: the bulge follows the perpendicular part, in the
     * plane of the chord and gravity. */
    const vec3 from = v3(0, 0, 0), to = v3(3, 1, 2), g = v3(0, -9.81, 0);
    const vec3 u = v3_scale(to, 1.0 / v3_len(to));
    const vec3 gp = v3_sub(g, v3_scale(u, v3_dot(g, u)));
    const vec3 w = v3_scale(gp, 1.0 / v3_len(gp));
    for (size_t r = 0; r < sizeof sag_ratios / sizeof *sag_ratios; r++) {
        const double length = sag_ratios[r] * v3_len(to);
        vec3 x[21];
        build_rope_shape(from, to, length, 20, g, x);
        check_shape(x, 20, from, to, length, w);
    }
    /* Gravity along the chord, or none: a perpendicular in the x-y plane. */
    vec3 x[11];
    build_rope_shape(v3(0, 0, 0), v3(0, -1, 0), 2, 10, g, x);
    check_shape(x, 10, v3(0, 0, 0), v3(0, -1, 0), 2, v3(-1, 0, 0));
    build_rope_shape(v3(0, 0, 0), v3(1, 0, 0), 2, 10, v3(0, 0, 0), x);
    check_shape(x, 10, v3(0, 0, 0), v3(1, 0, 0), 2, v3(0, -1, 0));
}
END_TEST

START_TEST(test_sag_through_scenario)
{
    static const char *const bodies[] = {
        "'length': 10, 'segments': 40", "'length': 12, 'segments': 40",
        "'length': 20, 'segments': 40", "'length': 500, 'segments': 40",
        "'length': 500, 'segments': 7"};
    static const double lengths[] = {10, 12, 20, 500, 500};
    for (size_t i = 0; i < 5; i++) {
        char json[1024];
        snprintf(json, sizeof json,
                 HEAD "'bodies': [{'name': 'r', 'type': 'rope', 'from': [0, 5], 'to': [10, 5], "
                      "'mass': 1, 'pins': ['first', 'last'], %s}]}",
                 bodies[i]);
        struct model *m = load(json);
        const size_t n = m->nlinks;
        double total = 0;
        for (size_t l = 0; l < n; l++) {
            const double d = v3_dist(m->x0[m->links[l].a], m->x0[m->links[l].b]);
            ck_assert_double_eq_tol(d, m->links[l].rest, LENGTH_TOL * m->links[l].rest);
            total += m->links[l].rest;
        }
        ck_assert_double_eq_tol(total, lengths[i], 1e-12 * lengths[i]);
        ck_assert_double_eq(m->x0[n].x, 10);
        ck_assert_double_eq(m->x0[n].y, 5);
        ck_assert_double_eq(m->pins[1].at.x, 10);
        model_destroy(m);
    }
}
END_TEST

/* ---- overrides ---- */

START_TEST(test_overrides)
{
    const struct scenario_override ov[] = {
        {"solver.iterations", "40"}, {"points.0.mass", "2"},
        {"solver.method", "verlet"}, {"time.steps", "1e3"},
        {"output.every", "5"},       {"output.trajectory", "[\"csv\",\"npy\"]"},
        {"points.0.name", "tip"},    {"world.gravity", "[0, -1.62]"},
    };
    struct scenario *sc = load_scenario_ov(HEAD ONE_POINT "}", ov, sizeof ov / sizeof *ov);
    const struct model *m = sc->model;
    ck_assert_int_eq(m->iterations, 40);
    ck_assert_double_eq(m->mass[0], 2);
    ck_assert_int_eq(m->steps, 1000);
    ck_assert_int_eq(sc->output.every, 5); /* "output" was absent: created */
    ck_assert_uint_eq(sc->output.formats, FORMAT_CSV | FORMAT_NPY);
    ck_assert_str_eq(m->point_name[0], "tip");
    ck_assert_double_eq(m->gravity.y, -1.62);
    ck_assert_uint_eq(sc->provenance.noverrides, sizeof ov / sizeof *ov);
    ck_assert_str_eq(sc->provenance.overrides[4], "output.every=5");
    scenario_destroy(sc);
}
END_TEST

struct bad_override {
    struct scenario_override ov;
    const char *msg;
};

static const struct bad_override bad_overrides[] = {
    {{"time.dtt", "1"}, "test.json: time.dtt: unknown key (did you mean \"dt\"?)"},
    {{"tiem.dt", "1"}, "test.json: tiem: unknown key (did you mean \"time\"?)"},
    {{"points.5.mass", "2"}, "--set points.5.mass=2: points has no element 5 (it has 1)"},
    {{"time.dt.x", "1"}, "--set time.dt.x=1: time.dt is a number, not an object or an array"},
    {{"points.x", "1"}, "--set points.x=1: points is an array; \"x\" is not an index"},
    {{"links.0.a", "1"}, "--set links.0.a=1: links does not exist"},
    {{"time..dt", "1"}, "--set time..dt=1: empty component in the path"},
    {{"solver.iterations", "many"},
     "test.json: solver.iterations: expected a number, got a string"},
    {{"time.steps", "-1"}, "test.json: time.steps: must be at least 0 (got -1)"},
    {{"output.trajectory", "[\"csv\",\"xml\"]"},
     "test.json: output.trajectory[1]: unknown value \"xml\" (expected \"csv\", \"json\" or "
     "\"npy\")"},
};

START_TEST(test_bad_override)
{
    const struct bad_override *b = &bad_overrides[_i];
    expect_error_ov(HEAD ONE_POINT "}", &b->ov, 1, b->msg);
}
END_TEST

/* With the options' names (what the command line gives), an error in an override's value
 * names the option that gave it, at the path or under it; the latest override of a path is
 * the one named; an error elsewhere still names the file. */
START_TEST(test_override_names)
{
    static const struct {
        struct scenario_override ov[2];
        const char *names[2];
        const char *msg;
    } cases[] = {
        {{{"time.steps", "-5"}, {"output.every", "2"}},
         {"--steps", "--every"},
         "--steps: must be at least 0 (got -5)"},
        {{{"time.steps", "1"}, {"time.steps", "-5"}},
         {"--set", "--steps"},
         "--steps: must be at least 0 (got -5)"},
        {{{"time.dtt", "1"}, {"output.every", "2"}},
         {"--set", "--every"},
         "--set time.dtt=1: unknown key (did you mean \"dt\"?)"},
        {{{"output.trajectory", "[\"xml\"]"}, {"output.every", "2"}},
         {"--format", "--every"},
         "--format: output.trajectory[0]: unknown value \"xml\" (expected \"csv\", \"json\" or "
         "\"npy\")"},
        {{{"points.0.mass", "-1"}, {"output.every", "2"}},
         {"--set", NULL},
         "--set points.0.mass=-1: must be at least 0 (got -1)"},
        {{{"points.0.mass", "-1"}, {"output.every", "2"}},
         {NULL, "--every"},
         "test.json: points[0].mass: must be at least 0 (got -1)"},
        {{{"output.every", "2"}, {"points.0.mass", "-1"}},
         {"--every", "--set"},
         "--set points.0.mass=-1: must be at least 0 (got -1)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct scenario_options o = scenario_options_default();
        struct catena_error err;
        o.ov = cases[i].ov;
        o.nov = 2;
        o.names = cases[i].names;
        const char *text = q(HEAD ONE_POINT "}");
        struct scenario *sc = scenario_parse_opts("test.json", text, strlen(text), &o, &err);
        ck_assert_ptr_null(sc);
        ck_assert_str_eq(err.msg, cases[i].msg);
    }
    /* A bad value in the file, under options that set other paths, names the file. */
    struct scenario_options o = scenario_options_default();
    struct catena_error err;
    const struct scenario_override ov = {"output.every", "2"};
    const char *const names[] = {"--every"};
    o.ov = &ov;
    o.nov = 1;
    o.names = names;
    const char *text = q("{'catena': 1, 'time': {'dt': 0.01, 'steps': -2}}");
    ck_assert_ptr_null(scenario_parse_opts("test.json", text, strlen(text), &o, &err));
    ck_assert_str_eq(err.msg, "test.json: time.steps: must be at least 0 (got -2)");
}
END_TEST

/* A label that is no file name ("<stdin>") takes the default name when "name" is absent. */
START_TEST(test_default_name)
{
    struct scenario_options o = scenario_options_default();
    struct catena_error err;
    o.default_name = "stdin";
    const char *text = q(HEAD ONE_POINT "}");
    struct scenario *sc = scenario_parse_opts("<stdin>", text, strlen(text), &o, &err);
    ck_assert_msg(sc != NULL, "%s", err.msg);
    ck_assert_str_eq(sc->provenance.name, "stdin");
    ck_assert_ptr_nonnull(strstr(sc->provenance.json, "\"name\":\t\"stdin\""));
    scenario_destroy(sc);
}
END_TEST

/* ---- bad scenarios ---- */

struct bad {
    const char *json;
    const char *msg;
};

#define ROPE(extra)                                                                                \
    "'bodies': [{'name': 'chain', 'type': 'rope', 'from': [0, 0], 'to': [30, 0], "                 \
    "'segments': 30, 'mass': 1" extra "}]"

static const struct bad bad_inputs[] = {
    /* syntax */
    {"{'catena': 1\n 'time': {}}", "test.json:2:2: invalid JSON: expected ',' or '}', got '\"'"},
    {"", "test.json:1:1: empty file, expected a JSON object"},
    {" \n\t", "test.json:1:1: empty file, expected a JSON object"},
    {"{'catena': 1,}", "test.json:1:13: invalid JSON: trailing comma before '}'"},
    {"{'catena': NaN}",
     "test.json:1:12: invalid JSON: NaN is not allowed (JSON numbers are finite)"},
    {"{'catena': 1e999}", "test.json:1:12: number 1e999 is out of range (beyond 1.8e308)"},
    {"{'catena': 01}", "test.json:1:12: invalid JSON: numbers cannot have leading zeros"},
    {"{'na\xc3\xafve': `x`}", "test.json:1:11: invalid JSON: strings must be in double quotes"},
    {"{'a': 'x\ny'}", "test.json:1:7: invalid JSON: unterminated string (a string cannot "
                      "contain a line break)"},
    {"{'a': '\\q'}", "test.json:1:8: invalid JSON: invalid escape '\\q' in a string"},
    {"{'a': [1,\n[2", "test.json:2:3: invalid JSON: unexpected end of file (the array opened "
                      "at 2:1 is not closed)"},
    {"{} {}", "test.json:1:4: invalid JSON: unexpected '{' after the top-level value"},
    {"{'a': tru}", "test.json:1:7: invalid JSON: expected a value, got \"tru\""},
    {"{a: 1}", "test.json:1:2: invalid JSON: expected a key in double quotes, got \"a\""},
    /* structure and types */
    {"[1, 2]", "test.json: expected a JSON object at the top level, got an array"},
    {"{'time': {}}", "test.json: missing required key \"catena\""},
    {"{'catena': 2, 'time': 1}",
     "test.json: catena: unsupported format version 2 (this catena reads version 1)"},
    {"{'catena': '1'}", "test.json: catena: expected a number, got a string"},
    {"{'catena': 1, 'points': []}", "test.json: missing required key \"time\""},
    {"{'catena': 1, 'time': {'steps': 1}}", "test.json: time: missing required key \"dt\""},
    {"{'catena': 1, 'time': {'dt': '0.01', 'steps': 1}}",
     "test.json: time.dt: expected a number, got a string"},
    {"{'catena': 1, 'time': {'dt': -0.01, 'steps': 1}}",
     "test.json: time.dt: must be greater than 0 (got -0.01)"},
    {"{'catena': 1, 'time': {'dt': 0.01, 'steps': 2.5}}",
     "test.json: time.steps: expected an integer, got 2.5"},
    {"{'catena': 1, 'time': {'dt': 0.01, 'steps': 1, 'substeps': 0}}",
     "test.json: time.substeps: must be at least 1 (got 0)"},
    {"{'catena': 1, 'time': {'dt': 0.01, 'dt': 0.02, 'steps': 1}}",
     "test.json: time.dt: duplicate key"},
    {"{'catena': 1, 'time': {'dt': 0.01, 'steps': 1, 'foo': 1}}",
     "test.json: time.foo: unknown key (valid keys: dt, steps, substeps, until_settled)"},
    {HEAD "'solver': {'iteratons': 3}}",
     "test.json: solver.iteratons: unknown key (did you mean \"iterations\"?)"},
    {HEAD "'Points': []}", "test.json: Points: unknown key (did you mean \"points\"?)"},
    {HEAD "'solver': {'damping': 0}}",
     "test.json: solver.damping: must be greater than 0 and at most 1 (got 0)"},
    {HEAD "'solver': {'order': 'foward'}}",
     "test.json: solver.order: unknown value \"foward\" (did you mean \"forward\"?)"},
    {HEAD "'solver': {'new\\nline': 1}}",
     "test.json: solver.new?line: unknown key (valid keys: method, iterations, order, damping, "
     "damping_rate, max_length_pass, global, global_limit, global_matrix, collide_every, "
     "shock_iterations, threads, kernel)"},
    {HEAD "'solver': {'method': 'a\\tb'}}",
     "test.json: solver.method: unknown value \"a?b\" (expected \"verlet\", \"pbd\" or \"xpbd\")"},
    {HEAD "'solver': {'method': 'rk4'}}",
     "test.json: solver.method: unknown value \"rk4\" (expected \"verlet\", \"pbd\" or \"xpbd\")"},
    {HEAD "'solver': {'iterations': 0}}",
     "test.json: solver.iterations: must be at least 1 (got 0)"},
    {HEAD "'solver': {'threads': 65}}", "test.json: solver.threads: must be at most 64 (got 65)"},
    {HEAD "'solver': {'threads': 1.5}}", "test.json: solver.threads: expected an integer, got 1.5"},
    {HEAD "'dimensions': 4}", "test.json: dimensions: must be 2 or 3 (got 4)"},
    {HEAD "'world': {'gravity': [0, -9.81, 0]}}",
     "test.json: world.gravity: expected an array of 2 numbers, got 3 elements"},
    {HEAD "'world': {'gravity': [0, null]}}",
     "test.json: world.gravity[1]: expected a number, got null"},
    {HEAD "'world': []}", "test.json: world: expected an object, got an array"},
    {HEAD "'output': {'trajectory': ['csv', 'csv']}}",
     "test.json: output.trajectory[1]: \"csv\" is listed twice"},
    {HEAD "'output': {'every': 0}}", "test.json: output.every: must be at least 1 (got 0)"},
    {HEAD "'output': {'trajectory': 'csv'}}",
     "test.json: output.trajectory: expected an array, got a string"},
    {HEAD "'name': 'a/b'}",
     "test.json: name: \"a/b\" cannot be used as a directory name (use letters, digits, '.', "
     "'_' and '-', not starting with '.' or '-')"},
    {HEAD "'name': '.hidden'}",
     "test.json: name: \".hidden\" cannot be used as a directory name (use letters, digits, "
     "'.', '_' and '-', not starting with '.' or '-')"},
    {HEAD "'points': {}}", "test.json: points: expected an array, got an object"},
    {HEAD "'points': []}", "test.json: the scenario has no points (add \"points\" or \"bodies\")"},
    /* points */
    {HEAD "'points': [{'p': [0, 0], 'mass': -1}]}",
     "test.json: points[0].mass: must be at least 0 (got -1)"},
    {HEAD "'points': [{'p': [0, 0]}]}", "test.json: points[0]: missing required key \"mass\""},
    {HEAD "'points': [{'p': [0, 0], 'mass': 1, 'radius': -0.5}]}",
     "test.json: points[0].radius: must be at least 0 (got -0.5)"},
    {HEAD "'points': [{'p': [0], 'mass': 1}]}",
     "test.json: points[0].p: expected an array of 2 numbers, got 1 element"},
    {HEAD "'points': [{'name': 'a.b', 'p': [0, 0], 'mass': 1}]}",
     "test.json: points[0].name: \"a.b\" contains '.', which is reserved for body points "
     "(\"rope.3\")"},
    {HEAD "'points': [{'name': 'x', 'p': [0, 0], 'mass': 1}, {'name': 'x', 'p': [1, 0], "
          "'mass': 1}]}",
     "test.json: points[1].name: duplicate point name \"x\" (also points[0])"},
    {HEAD "'points': [{'name': 'chain', 'p': [0, 0], 'mass': 1}], " ROPE("") "}",
     "test.json: bodies[0].name: \"chain\" is already the name of points[0]"},
    /* bodies */
    {HEAD "'bodies': [{'name': 'r', 'type': 'jelly'}]}",
     "test.json: bodies[0].type: unknown value \"jelly\" (expected \"rope\", \"cloth\", "
     "\"ragdoll\", \"softbody\" or \"hair\")"},
    {HEAD "'bodies': [{'name': 'r'}]}", "test.json: bodies[0]: missing required key \"type\""},
    {HEAD ROPE(", 'lenght': 40") "}",
     "test.json: bodies[0].lenght: unknown key (did you mean \"length\"?)"},
    {HEAD "'bodies': [{'name': 'a.b', 'type': 'rope', 'from': [0, 0], 'to': [1, 0], "
          "'segments': 1, 'mass': 1}]}",
     "test.json: bodies[0].name: \"a.b\" is not a valid body name (use letters, digits, '_' "
     "and '-')"},
    {HEAD ROPE("") ", " ROPE("") "}", "test.json: bodies: duplicate key"},
    {HEAD "'bodies': [{'name': 'c', 'type': 'rope', 'from': [0, 0], 'to': [1, 0], "
          "'segments': 1, 'mass': 1}, {'name': 'c', 'type': 'rope', 'from': [0, 0], "
          "'to': [1, 0], 'segments': 1, 'mass': 1}]}",
     "test.json: bodies[1].name: duplicate body name \"c\" (also bodies[0])"},
    {HEAD ROPE(", 'length': 29") "}",
     "test.json: bodies[0].length: must be at least the distance from \"from\" to \"to\", 30 "
     "(got 29)"},
    {HEAD "'bodies': [{'name': 'c', 'type': 'rope', 'from': [0, 0], 'to': [1, 0], "
          "'segments': 1, 'mass': 1, 'length': 2}]}",
     "test.json: bodies[0].length: a rope of 1 segment cannot sag: its length must be the "
     "distance from \"from\" to \"to\", 1 (got 2)"},
    {HEAD "'bodies': [{'name': 'c', 'type': 'rope', 'from': [1, 1], 'to': [1, 1], "
          "'segments': 4, 'mass': 1}]}",
     "test.json: bodies[0].to: must differ from \"from\" (a rope needs two distinct ends)"},
    {HEAD ROPE(", 'mass': 0") "}", "test.json: bodies[0].mass: duplicate key"},
    {HEAD "'bodies': [{'name': 'c', 'type': 'rope', 'from': [0, 0], 'to': [1, 0], "
          "'segments': 1e12, 'mass': 1}]}",
     "test.json: bodies[0].segments: too many points: the scenario would need 1000000000001 "
     "points, about 230 TiB of memory (the limit is 50000000 points; --max-points changes it)"},
    {HEAD ROPE(", 'pins': ['first', 31]") "}",
     "test.json: bodies[0].pins[1]: point 31 does not exist (chain has 31 points)"},
    {HEAD ROPE(", 'pins': ['middle']") "}",
     "test.json: bodies[0].pins[0]: expected \"first\", \"last\" or a point index, got "
     "\"middle\""},
    {HEAD ROPE(", 'stiffness': 1.5") "}",
     "test.json: bodies[0].stiffness: must be greater than 0 and at most 1 (got 1.5)"},
    {HEAD ROPE(", 'break_stretch': 1") "}",
     "test.json: bodies[0].break_stretch: must be greater than 1 (got 1)"},
    /* references */
    {HEAD ROPE("") ", 'links': [{'a': 'chain.0', 'b': 'chain.40'}]}",
     "test.json: links[0].b: point \"chain.40\" does not exist (chain has 31 points)"},
    {HEAD ROPE("") ", 'links': [{'a': 'chain.x', 'b': 0}]}",
     "test.json: links[0].a: point \"chain.x\" does not exist (after \"chain.\" write an index "
     "from 0 to 30, first or last)"},
    {HEAD ROPE("") ", 'links': [{'a': 'chian.3', 'b': 0}]}",
     "test.json: links[0].a: point \"chian.3\" does not exist (there is no body \"chian\"; did "
     "you mean \"chain\"?)"},
    {HEAD ROPE("") ", 'links': [{'a': 'rope.3', 'b': 0}]}",
     "test.json: links[0].a: point \"rope.3\" does not exist (there is no body \"rope\")"},
    {HEAD ROPE("") ", 'links': [{'a': 'chain', 'b': 0}]}",
     "test.json: links[0].a: point \"chain\" does not exist (\"chain\" is a body: write "
     "\"chain.first\", \"chain.last\" or \"chain.INDEX\")"},
    {HEAD "'points': [{'name': 'lamp', 'p': [0, 0], 'mass': 1}], 'links': [{'a': 'lmap', "
          "'b': 0}]}",
     "test.json: links[0].a: point \"lmap\" does not exist (did you mean \"lamp\"?)"},
    {HEAD "'points': [{'name': 'lamp', 'p': [0, 0], 'mass': 1}], 'links': [{'a': 'hook', "
          "'b': 0}]}",
     "test.json: links[0].a: point \"hook\" does not exist (no point has that name)"},
    {HEAD ONE_POINT ", 'links': [{'a': 0, 'b': 12}]}",
     "test.json: links[0].b: point 12 does not exist (the scenario has 1 point)"},
    {HEAD ONE_POINT ", 'links': [{'a': 0, 'b': -1}]}",
     "test.json: links[0].b: point -1 does not exist (the scenario has 1 point)"},
    {HEAD ONE_POINT ", 'links': [{'a': 0, 'b': 0.5}]}",
     "test.json: links[0].b: expected a point index (an integer), got 0.5"},
    {HEAD ONE_POINT ", 'links': [{'a': 0, 'b': [1]}]}",
     "test.json: links[0].b: expected a point (an index or a name), got an array"},
    {HEAD ONE_POINT ", 'links': [{'a': 0}]}", "test.json: links[0]: missing required key \"b\""},
    /* links and pins */
    {HEAD ROPE("") ", 'links': [{'a': 'chain.last', 'b': 'chain.30'}]}",
     "test.json: links[0].b: point \"chain.30\" is also \"a\" (a link joins two different "
     "points)"},
    {HEAD "'points': [{'p': [1, 1], 'mass': 1}, {'name': 'b', 'p': [1, 1], 'mass': 1}], "
          "'links': [{'a': 0, 'b': 'b'}]}",
     "test.json: links[0].rest: \"auto\" gives 0: point 0 and point \"b\" start at the same "
     "position (give the rest length)"},
    {HEAD "'points': [{'p': [0, 0], 'mass': 1}, {'p': [1, 1], 'mass': 1}], "
          "'links': [{'a': 0, 'b': 1, 'rest': 'atuo'}]}",
     "test.json: links[0].rest: expected a number or \"auto\", got \"atuo\""},
    {HEAD "'points': [{'p': [0, 0], 'mass': 1}, {'p': [1, 1], 'mass': 1}], "
          "'links': [{'a': 0, 'b': 1, 'rest': 0}]}",
     "test.json: links[0].rest: must be greater than 0 (got 0)"},
    {HEAD ROPE(", 'pins': ['first', 0]") "}",
     "test.json: bodies[0].pins[1]: point \"chain.0\" is already pinned by bodies[0].pins[0]"},
    {HEAD ROPE(", 'pins': ['last']") ", 'pins': [{'point': 'chain.first'}, "
                                     "{'point': 'chain.30'}]}",
     "test.json: pins[1].point: point \"chain.30\" is already pinned by bodies[0].pins[0]"},
    {HEAD ONE_POINT ", 'pins': [{'point': 0, 'at': [1, 2, 3]}]}",
     "test.json: pins[0].at: expected an array of 2 numbers, got 3 elements"},
    /* Coulomb friction: mu, or {static, dynamic} with dynamic <= static */
    {HEAD ONE_POINT ", 'obstacles': [{'type': 'plane', 'point': [0, 0], 'normal': [0, 1], "
                    "'friction': -0.1}]}",
     "test.json: obstacles[0].friction: must be at least 0 (got -0.1)"},
    {HEAD ONE_POINT ", 'obstacles': [{'type': 'plane', 'point': [0, 0], 'normal': [0, 1], "
                    "'friction': {'static': 0.3, 'dynamic': 0.5}}]}",
     "test.json: obstacles[0].friction.dynamic: must not exceed \"static\", 0.3 (got 0.5)"},
    {HEAD ONE_POINT ", 'obstacles': [{'type': 'plane', 'point': [0, 0], 'normal': [0, 1], "
                    "'friction': {'static': 0.3}}]}",
     "test.json: obstacles[0].friction: missing required key \"dynamic\""},
    {HEAD ONE_POINT ", 'obstacles': [{'type': 'plane', 'point': [0, 0], 'normal': [0, 1], "
                    "'friction': 'high'}]}",
     "test.json: obstacles[0].friction: expected a number or an object {\"static\", "
     "\"dynamic\"}, got a string"},
    {HEAD ROPE(
         ", 'self_collision': {'radius': 0.1, 'friction': {'static': 1, 'kinetic': 0.5}}") "}",
     "test.json: bodies[0].self_collision.friction.kinetic: unknown key (valid keys: static, "
     "dynamic)"},
};

START_TEST(test_bad_input)
{
    expect_error_ov(bad_inputs[_i].json, NULL, 0, bad_inputs[_i].msg);
}
END_TEST

START_TEST(test_default_name_from_file)
{
    struct catena_error err;
    const char *text = q(HEAD ONE_POINT "}");
    struct scenario *sc = scenario_parse("my run.json", text, strlen(text), NULL, 0, &err);
    ck_assert_ptr_null(sc);
    ck_assert_str_eq(err.msg, "my run.json: name: the file name gives the name \"my run\", which "
                              "cannot be used as a directory name (use letters, digits, '.', "
                              "'_' and '-', not starting with '.' or '-'); set \"name\"");
    sc = scenario_parse("a/b/c.d.json", text, strlen(text), NULL, 0, &err);
    ck_assert_str_eq(sc->provenance.name, "c.d");
    scenario_destroy(sc);
}
END_TEST

START_TEST(test_unreadable)
{
    struct catena_error err;
    struct scenario *sc = scenario_load(TOP_SRCDIR "/tests/data/no-such-file.json", NULL, 0, &err);
    ck_assert_ptr_null(sc);
    ck_assert_int_eq(err.code, CATENA_EINPUT);
    ck_assert_str_eq(err.msg, TOP_SRCDIR "/tests/data/no-such-file.json: cannot read: No such "
                                         "file or directory");
}
END_TEST

/* A surrogate pair is one character (the strict scan lets it through to cJSON); its
 * halves alone, and \u0000, are refused (tests/data/bad/string-*.json). */
START_TEST(test_unicode_escapes)
{
    struct model *m = load(HEAD "'points': [{'name': 'smile\\ud83d\\ude00', 'p': [0, 0], "
                                "'mass': 1}]}");
    ck_assert_str_eq(m->point_name[0], "smile\xf0\x9f\x98\x80");
    model_destroy(m);
}
END_TEST

/* The world's keys read into the model: settling, collide_every (held to the iteration
 * count), wind and gust, the bodies' drag and self-collision radius, an obstacle with its
 * rotation and bounds, pin motions (a point starts where its motion puts it at t = 0),
 * events sorted by step with a drag's release and a cut's reserved points and link. */
START_TEST(test_world_keys)
{
    struct model *m = load(
        "{'catena': 1, 'time': {'dt': 0.01, 'steps': 10, 'until_settled': {'speed': 0.02}}, "
        "'solver': {'iterations': 5, 'collide_every': 9}, 'world': {'wind': [3, 0], 'gust': "
        "{'amplitude': 0.5, 'frequency': 2}}, 'points': [{'name': 'p', 'p': [0, 0], 'mass': "
        "1}], 'bodies': [{'type': 'rope', 'name': 'rope', 'from': [0, 0], 'to': [1, 0], "
        "'segments': 4, 'mass': 1, 'drag': 0.01, 'self_collision': {'radius': 0.1, 'friction': "
        "{'static': 0.5, 'dynamic': 0.3}}}], 'pins': "
        "[{'point': 'rope.0', 'motion': {'type': 'sine', 'axis': [0, 2], 'amplitude': 0.5, "
        "'frequency': 1, 'phase': 1.5707963267948966}}, {'point': 'rope.last', 'motion': "
        "{'type': 'keyframes', 'times': [0.5, 1], 'positions': [[2, 0], [3, 0]]}}], "
        "'obstacles': [{'type': 'box', 'center': [1, 2], 'half': [1, 0.5], 'angle': 0.5, "
        "'friction': 0.25, 'restitution': 0.75}], 'events': [{'time': 0.5, 'cut': {'link': "
        "'rope.1', 'at': 0.25}}, {'step': 10, 'release': {'point': 'p'}}, {'time': 0.015, "
        "'drag': {'point': 'p', 'path': [[1, 1]], 'duration': 0.02}}]}");
    ck_assert_double_eq(m->settle_speed, 0.02);
    ck_assert_double_eq(m->settle_for, 1.0);
    ck_assert_int_eq(m->collide_every, 5);
    ck_assert_double_eq(m->wind.x, 3.0);
    ck_assert_double_eq(m->gust_amplitude, 0.5);
    ck_assert_double_eq(m->gust_frequency, 2.0);
    ck_assert_double_eq(m->bodies[0].drag, 0.01);
    ck_assert_double_eq(m->bodies[0].self_radius, 0.1);
    ck_assert_double_eq(m->bodies[0].self_friction.stat, 0.5);
    ck_assert_double_eq(m->bodies[0].self_friction.dyn, 0.3);

    const struct obstacle *o = &m->obstacles[0];
    ck_assert_int_eq(o->type, OBSTACLE_BOX);
    ck_assert_double_eq(o->p.y, 2.0);
    ck_assert(isinf(o->half.z)); /* 2D: unbounded along z */
    ck_assert_double_eq(o->rot[0][0], cos(0.5));
    ck_assert_double_eq(o->rot[1][0], sin(0.5)); /* column 0: the box's x axis */
    ck_assert_double_eq(o->friction.stat, 0.25); /* a number: static = dynamic */
    ck_assert_double_eq(o->friction.dyn, 0.25);
    ck_assert_double_eq(o->restitution, 0.75);
    /* The turned box's extent along x: cos 0.5 * 1 + sin 0.5 * 0.5 (roundings: 1e-15). */
    ck_assert_double_eq_tol(o->hi.x, 1.0 + cos(0.5) + 0.5 * sin(0.5), 1e-15);

    ck_assert_int_eq(m->pins[0].motion, MOTION_SINE);
    ck_assert_double_eq(m->pins[0].axis.y, 1.0);     /* normalised */
    ck_assert_double_eq_tol(m->x0[1].y, 0.5, 1e-15); /* 0.5 sin(pi/2) */
    ck_assert_int_eq(m->pins[1].motion, MOTION_KEYFRAMES);
    ck_assert_uint_eq(m->pins[1].nkeys, 2);
    ck_assert_double_eq(m->pins[1].t0, 0.5);
    ck_assert_double_eq(m->x0[5].x, 2.0); /* held at the first key until its time */

    /* Sorted by step: the drag (0.015 s: step 2), its release (2 + 0.02 s = step 4), the
     * release (step 10), the cut (step 50). */
    ck_assert_uint_eq(m->nevents, 4);
    ck_assert_int_eq(m->events[0].kind, EVENT_DRAG);
    ck_assert_int_eq(m->events[0].step, 2);
    ck_assert_double_eq(m->events[0].pin.t0, 0.02);
    ck_assert_double_eq(m->key_t[m->events[0].pin.first_key], 0.04);
    ck_assert_int_eq(m->events[1].kind, EVENT_RELEASE);
    ck_assert_int_eq(m->events[1].ends_drag, 1);
    ck_assert_int_eq(m->events[1].step, 4);
    ck_assert_int_eq(m->events[2].step, 10);
    const struct event *cut = &m->events[3];
    ck_assert_int_eq(cut->kind, EVENT_CUT);
    ck_assert_int_eq(cut->step, 50);
    ck_assert_uint_eq(cut->index, 1);
    ck_assert_double_eq(cut->a, 0.25);
    /* Two reserved points after the 6 of the scenario, idle at the link's middle at t = 0,
     * and a reserved link after the rope's 4. */
    ck_assert_uint_eq(m->npoints, 8);
    ck_assert_uint_eq(cut->reserved_point, 6);
    ck_assert_uint_eq(m->first_reserved_point, 6);
    ck_assert_uint_eq(m->nreserved_points, 2);
    ck_assert_double_eq(m->x0[6].x, 0.375);
    ck_assert_double_eq(m->inv_mass[7], 0.0);
    ck_assert_uint_eq(cut->reserved_link, 4);
    ck_assert_uint_eq(m->first_reserved_link, 4);
    ck_assert_uint_eq(m->nreserved_links, 1);
    model_destroy(m);
}
END_TEST

static void expect_limit_message(const struct catena_error *err, const char *head, const char *tail)
{
    const size_t n = strlen(err->msg), t = strlen(tail);
    ck_assert_msg(strncmp(err->msg, head, strlen(head)) == 0 && n > t &&
                      strcmp(err->msg + n - t, tail) == 0,
                  "unexpected message: %s", err->msg);
}

/* The point limit counts every point (points[] and bodies together), is checked before
 * the points exist, and can be raised or lowered by the caller (--max-points). */
START_TEST(test_max_points)
{
    struct catena_error err;
    struct scenario_options o = scenario_options_default();
    const char *text = q(HEAD "'points': [{'p': [0, 0], 'mass': 1}, {'p': [1, 0], 'mass': 1}], "
                              "'bodies': [{'name': 'c', 'type': 'rope', 'from': [0, 0], "
                              "'to': [1, 0], 'segments': 3, 'mass': 1}]}");
    ck_assert_int_eq(o.max_points, SCENARIO_MAX_POINTS);
    o.max_points = 6; /* 2 + 4 */
    struct scenario *sc = scenario_parse_opts("test.json", text, strlen(text), &o, &err);
    ck_assert_msg(sc != NULL, "unexpected error: %s", err.msg);
    ck_assert_int_eq(sc->model->npoints, 6);
    scenario_destroy(sc);
    o.max_points = 5;
    sc = scenario_parse_opts("test.json", text, strlen(text), &o, &err);
    ck_assert_ptr_null(sc);
    ck_assert_int_eq(err.code, CATENA_EINPUT);
    /* The memory estimate between the two depends on struct sizes: huge-segments.err and
     * test_bad_input pin it down. */
    expect_limit_message(&err,
                         "test.json: bodies[0].segments: too many points: the scenario "
                         "would need 6 points, about ",
                         " of memory (the limit is 5 points; --max-points changes it)");
    o.max_points = 1;
    sc = scenario_parse_opts("test.json", text, strlen(text), &o, &err);
    ck_assert_ptr_null(sc);
    expect_limit_message(&err,
                         "test.json: points: too many points: the scenario would need 2 "
                         "points, about ",
                         " of memory (the limit is 1 point; --max-points changes it)");
}
END_TEST

static Suite *scenario_suite(void)
{
    Suite *s = suite_create("scenario");
    TCase *tc = tcase_create("good");
    tcase_add_test(tc, test_defaults);
    tcase_add_test(tc, test_settings);
    tcase_add_test(tc, test_threads_kernel);
    tcase_add_test(tc, test_rope_body);
    tcase_add_test(tc, test_references);
    tcase_add_test(tc, test_pins);
    tcase_add_test(tc, test_overrides);
    tcase_add_test(tc, test_override_names);
    tcase_add_test(tc, test_default_name);
    tcase_add_test(tc, test_constraint_keys);
    tcase_add_test(tc, test_global_key);
    suite_add_tcase(s, tc);
    tc = tcase_create("sag");
    tcase_add_test(tc, test_sag_shape);
    tcase_add_test(tc, test_sag_is_discrete_catenary);
    tcase_add_test(tc, test_sag_slanted_3d);
    tcase_add_test(tc, test_sag_through_scenario);
    suite_add_tcase(s, tc);
    tc = tcase_create("world");
    tcase_add_test(tc, test_world_keys);
    suite_add_tcase(s, tc);
    tc = tcase_create("bad");
    tcase_add_loop_test(tc, test_bad_input, 0, sizeof bad_inputs / sizeof *bad_inputs);
    tcase_add_loop_test(tc, test_bad_override, 0, sizeof bad_overrides / sizeof *bad_overrides);
    tcase_add_test(tc, test_default_name_from_file);
    tcase_add_test(tc, test_unreadable);
    tcase_add_test(tc, test_max_points);
    tcase_add_test(tc, test_unicode_escapes);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(scenario_suite());
}
