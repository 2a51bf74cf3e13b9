/* Tests of the catenary report (analysis/report_catenary.c, analysis/report_catenary_write.c,
 * analysis/report_catenary_plot.c) on chains whose answers are known: a rope built at its discrete
 * equilibrium (solver error at round-off), the same chain with one point moved by a known amount, a
 * 3D chain in a tilted plane, an extensible XPBD chain, a chain with a heavy point (whose
 * reference the continuous curve is not), the chain selection and its errors,
 * catenary.json's keys, reading a frame back from a run, and the plot read back with libpng. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report_catenary.h"
#include "run/run.h"
#include "scenario/scenario.h"
#include "testutil.h"
#include "testutil_check.h"

/* A 20-link rope of length 12 between pins 10 m apart: build_rope starts it at the discrete
 * equilibrium of equal links and equal point masses, which is the report's reference. */
static const char chain_json[] =
    "{\"catena\": 1, \"name\": \"chain\", \"time\": {\"dt\": 0.01, \"steps\": 4},"
    " \"output\": {\"trajectory\": [\"csv\"], \"every\": 2},"
    " \"bodies\": [{\"type\": \"rope\", \"name\": \"chain\", \"from\": [0, 0], \"to\": [10, 0],"
    "  \"segments\": 20, \"length\": 12, \"mass\": 1, \"pins\": [\"first\", \"last\"]},"
    " {\"type\": \"rope\", \"name\": \"tail\", \"from\": [20, 0], \"to\": [21, 0],"
    "  \"segments\": 4, \"mass\": 1, \"pins\": [\"first\"]}]}";

/* The same chain in 3D, its span along (0.6, 0.8, 0) and gravity along -z. */
static const char chain3d_json[] =
    "{\"catena\": 1, \"dimensions\": 3, \"time\": {\"dt\": 0.01, \"steps\": 1},"
    " \"world\": {\"gravity\": [0, 0, -9.81]},"
    " \"bodies\": [{\"type\": \"rope\", \"name\": \"chain\", \"from\": [1, 2, 3],"
    "  \"to\": [7, 10, 3], \"segments\": 20, \"length\": 12, \"mass\": 1,"
    "  \"pins\": [\"first\", \"last\"]}]}";

static struct report_catenary *build(const struct model *m, const vec3 *x,
                                     const struct report_catenary_options *o)
{
    struct report_catenary *r;
    struct catena_error err;
    ck_assert_msg(report_catenary_build(m, x, 0, 0.0, o, &r, &err) == 0, "%s", err.msg);
    return r;
}

static const struct report_catenary_options defaults = {.label = "test", .first = -1, .last = -1};

/* a of the catenary of length L over a level span h: 2 a sinh(h / 2a) = L, by bisection, as an
 * independent check of catenary_through. */
static double level_a(double h, double len)
{
    double lo = 0.1, hi = 1000;
    for (int i = 0; i < 200; i++) {
        const double mid = 0.5 * (lo + hi);
        if (2 * mid * sinh(h / (2 * mid)) > len)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* At the discrete equilibrium the solver error is round-off (build_rope's bisection stops at
 * 1e-16 relative), the polyline has the rest length, every link is at rest, and the only
 * error left is the discretisation's, a few 1e-4 of the span for 20 links. */
START_TEST(test_equilibrium_chain)
{
    struct model *m = tu_load("%s", chain_json);
    struct report_catenary *r = build(m, m->x0, &defaults);
    ck_assert_uint_eq(r->nchains, 1); /* "tail" hangs from one pin only */
    const struct report_chain *c = &r->chains[0];
    ck_assert_str_eq(c->body, "chain");
    ck_assert_uint_eq(c->first, 0);
    ck_assert_uint_eq(c->last, 20);
    ck_assert_uint_eq(c->nlinks, 20);
    ck_assert_double_eq_tol(c->span, 10, 1e-12);
    ck_assert_double_eq_tol(c->length, 12, 1e-12);
    ck_assert_double_eq_tol(c->analytic.a, level_a(10, 12), 1e-9);
    ck_assert_double_eq_tol(c->analytic.x0, 5, 1e-12);
    ck_assert(!c->extensible);
    ck_assert_double_lt(c->solver.max_rel, 1e-12);
    ck_assert_double_gt(c->discretisation.max_rel, 1e-4);
    ck_assert_double_lt(c->discretisation.max_rel, 1e-3);
    ck_assert_uint_eq(c->discretisation.argmax, 10); /* the bottom, by symmetry */
    ck_assert_double_eq_tol(c->polyline, 12, 1e-12);
    ck_assert_double_eq_tol(c->stretch.max, 1, 1e-12);
    ck_assert_double_eq_tol(c->stretch.min, 1, 1e-12);
    ck_assert_double_eq_tol(c->sag, c->discrete_sag, 1e-12);
    /* The fit to 21 points of the discrete chain finds nearly the continuous curve: the
     * points sit off it by the discretisation error, a few 1e-4 of the span. */
    ck_assert(c->fit.converged);
    ck_assert_double_eq_tol(c->fit.c.a, c->analytic.a, 1e-2);
    ck_assert_double_lt(c->fit.rms, c->discretisation.max);
    report_catenary_destroy(r);
    model_destroy(m);
}
END_TEST

/* A chain with one heavy point: the continuous catenary assumes a uniform chain, so it is not
 * this one's reference, and the report says so instead of calling the difference
 * discretisation. Point 10 (the bottom) of the 20-link chain carries 25 times the mass of
 * the others: the discrete equilibrium, which has the actual masses, ends 3.6e-2 of the span
 * from the continuous curve (measured), a hundred times the 3.8e-4 of the uniform chain. */
START_TEST(test_point_load)
{
    struct model *m = tu_load("%s", chain_json);
    struct report_catenary *r = build(m, m->x0, &defaults);
    ck_assert(r->chains[0].mass.uniform);
    const double uniform = r->chains[0].discretisation.max_rel;
    report_catenary_destroy(r);
    m->mass[10] *= 25.0;
    m->inv_mass[10] = 1.0 / m->mass[10];
    r = build(m, m->x0, &defaults);
    const struct report_chain *c = &r->chains[0];
    ck_assert(!c->mass.uniform);
    ck_assert_uint_eq(c->mass.heaviest, 10);
    /* 19 interior points of 1/21 kg over 0.6 m each, one of them 25 times that */
    ck_assert_double_eq_tol(c->mass.min, 1.0 / 21.0 / 0.6, 1e-12);
    ck_assert_double_eq_tol(c->mass.max, 25.0 / 21.0 / 0.6, 1e-12);
    ck_assert_double_eq_tol(c->mass.mean, (18.0 + 25.0) / 21.0 / (19 * 0.6), 1e-12);
    ck_assert_double_gt(c->discretisation.max_rel, 10.0 * uniform);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    report_catenary_text(f, r, "src");
    fclose(f);
    ck_assert_msg(strstr(text, "not uniform") && strstr(text, "point loads (discr.-an.)") &&
                      !strstr(text, "discretisation (discr.-an.)"),
                  "%s", text);
    free(text);
    report_catenary_destroy(r);
    model_destroy(m);
}
END_TEST

/* Point 7 moved up by 1e-4 m: the solver error's max is exactly that, at that point. */
START_TEST(test_moved_point)
{
    struct model *m = tu_load("%s", chain_json);
    vec3 *x = malloc(m->npoints * sizeof *x);
    memcpy(x, m->x0, m->npoints * sizeof *x);
    x[7].y += 1e-4;
    struct report_catenary *r = build(m, x, &defaults);
    const struct report_chain *c = &r->chains[0];
    ck_assert_double_eq_tol(c->solver.max, 1e-4, 1e-12);
    ck_assert_double_eq_tol(c->solver.max_rel, 1e-5, 1e-13);
    ck_assert_uint_eq(c->solver.argmax, 7);
    /* rms over 21 points with one of them off: 1e-4 / sqrt(21) */
    ck_assert_double_eq_tol(c->solver.rms, 1e-4 / sqrt(21), 1e-12);
    ck_assert_double_gt(c->stretch.max, 1);
    /* Toward the chord: the steeper link above it shortens more than the one below grows. */
    ck_assert_double_lt(c->polyline, 12 - 1e-7);
    report_catenary_destroy(r);
    free(x);
    model_destroy(m);
}
END_TEST

/* In 3D the chain hangs in the vertical plane through its ends; with the same span and length
 * as the 2D chain, the curve is the same. */
START_TEST(test_3d_plane)
{
    struct model *m = tu_load("%s", chain3d_json);
    struct report_catenary *r = build(m, m->x0, &defaults);
    const struct report_chain *c = &r->chains[0];
    ck_assert_double_eq_tol(c->span, 10, 1e-12);
    ck_assert_double_eq_tol(c->plane.u.x, 0.6, 1e-12);
    ck_assert_double_eq_tol(c->plane.u.y, 0.8, 1e-12);
    ck_assert_double_eq_tol(c->plane.v.z, 1, 1e-12);
    ck_assert_double_eq_tol(c->analytic.a, level_a(10, 12), 1e-9);
    ck_assert_double_lt(c->solver.max_rel, 1e-12);
    ck_assert_double_lt(c->out_of_plane, 1e-12);
    report_catenary_destroy(r);
    model_destroy(m);
}
END_TEST

/* Under XPBD with compliance the reference stretches: tension T makes each link rest + alpha T
 * long, so the reference sags more than the rigid chain and the built rope (at rigid
 * equilibrium) shows a solver error. */
START_TEST(test_extensible_reference)
{
    struct model *m = tu_load("%s", chain_json);
    m->method = METHOD_XPBD;
    for (size_t i = 0; i < m->nlinks; i++)
        m->links[i].compliance = 1e-3;
    struct report_catenary *r = build(m, m->x0, &defaults);
    const struct report_chain *c = &r->chains[0];
    ck_assert(c->extensible);
    ck_assert_double_gt(c->discrete_sag, c->analytic_sag);
    ck_assert_double_gt(c->solver.max, 1e-4);
    /* Each reference link is longer than its rest length by compliance x tension. */
    const double len0 = v3_dist(c->ref[0], c->ref[1]), rest = m->links[0].rest;
    const double t0 = hypot(c->discrete.H, c->discrete.V0);
    ck_assert_double_eq_tol(len0, rest + 1e-3 * t0, 1e-12);
    char *json = report_catenary_json(r, "test");
    ck_assert_ptr_nonnull(strstr(json, "\"extensible\""));
    free(json);
    report_catenary_destroy(r);
    model_destroy(m);
}
END_TEST

/* --body and --points choose the chain; the errors say what to pass instead. */
START_TEST(test_selection)
{
    struct model *m = tu_load("%s", chain_json);
    struct report_catenary *r;
    struct catena_error err;
    struct report_catenary_options o = defaults;
    o.body = "chain";
    r = build(m, m->x0, &o);
    ck_assert_uint_eq(r->nchains, 1);
    report_catenary_destroy(r);

    /* A sub-chain between two joints of the equilibrium is at its own equilibrium. */
    o = defaults;
    o.first = 3;
    o.last = 15;
    r = build(m, m->x0, &o);
    ck_assert_ptr_null(r->chains[0].body);
    ck_assert_uint_eq(r->chains[0].nlinks, 12);
    ck_assert_double_lt(r->chains[0].solver.max_rel, 1e-12);
    report_catenary_destroy(r);

    static const struct {
        const char *body;
        long first, last;
        const char *msg;
    } bad[] = {
        {"nope", -1, -1, "test: --body nope: no such body (see `catena validate` for the bodies)"},
        {"tail", -1, -1,
         "test: --body tail: its last point tail.4 is not pinned: a catenary hangs between two "
         "pinned ends (choose them with --points I..J)"},
        {NULL, 0, 1,
         "test: --points 0..1: a chain needs at least 2 links: J must be at least I + 2"},
        {NULL, 0, 99, "test: --points 0..99: point 99 does not exist (the scenario has 26 points)"},
        {NULL, 18, 23, "test: --points 18..23: no link joins points 20 and 21"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        o = (struct report_catenary_options){
            .label = "test", .body = bad[i].body, .first = bad[i].first, .last = bad[i].last};
        ck_assert_int_eq(report_catenary_build(m, m->x0, 0, 0, &o, &r, &err), CATENA_EINPUT);
        ck_assert_ptr_null(r);
        ck_assert_str_eq(err.msg, bad[i].msg);
    }
    model_destroy(m);
}
END_TEST

/* Without a rope pinned at both ends there is nothing to report by default. */
START_TEST(test_no_chain)
{
    static const char json[] =
        "{\"catena\": 1, \"time\": {\"dt\": 0.01, \"steps\": 1}, \"bodies\": [{\"type\": "
        "\"rope\", \"name\": \"tail\", \"from\": [0, 0], \"to\": [1, 0], \"segments\": 4, "
        "\"mass\": 1, \"pins\": [\"first\"]}]}";
    struct model *m = tu_load("%s", json);
    struct report_catenary *r;
    struct catena_error err;
    ck_assert_int_eq(report_catenary_build(m, m->x0, 0, 0, &defaults, &r, &err), CATENA_EINPUT);
    ck_assert_str_eq(err.msg, "test: no rope body has both ends pinned, so there is no chain to "
                              "report on (choose one with --points I..J, or --body NAME)");
    model_destroy(m);
}
END_TEST

/* A chain that cannot hang: pulled taut by moving an end beyond its length. */
START_TEST(test_taut_chain)
{
    struct model *m = tu_load("%s", chain_json);
    vec3 *x = malloc(m->npoints * sizeof *x);
    memcpy(x, m->x0, m->npoints * sizeof *x);
    x[20].x = 13;
    struct report_catenary *r;
    struct catena_error err;
    ck_assert_int_eq(report_catenary_build(m, x, 5, 0, &defaults, &r, &err), CATENA_EINPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "test: body chain at step 5: length 12"));
    free(x);
    model_destroy(m);
}
END_TEST

static const cJSON *path(const cJSON *o, const char *a, const char *b, const char *c)
{
    o = cJSON_GetObjectItemCaseSensitive(o, a);
    if (b)
        o = cJSON_GetObjectItemCaseSensitive(o, b);
    if (c)
        o = cJSON_GetObjectItemCaseSensitive(o, c);
    return o;
}

/* catenary.json: every documented key is there, with the report's values. */
START_TEST(test_json_keys)
{
    struct model *m = tu_load("%s", chain_json);
    struct report_catenary *r = build(m, m->x0, &defaults);
    char *text = report_catenary_json(r, "src");
    cJSON *root = cJSON_Parse(text);
    ck_assert_ptr_nonnull(root);
    static const char *const top[] = {"catena_version", "source", "scenario", "step",
                                      "time",           "solver", "chains"};
    for (size_t i = 0; i < sizeof top / sizeof *top; i++)
        ck_assert_msg(cJSON_HasObjectItem(root, top[i]), "missing %s", top[i]);
    const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "chains"), 0);
    static const char *const keys[][3] = {
        {"body"},
        {"points"},
        {"links"},
        {"span"},
        {"chord"},
        {"length"},
        {"plane", "origin"},
        {"plane", "x_axis"},
        {"plane", "up"},
        {"analytic", "a"},
        {"analytic", "x0"},
        {"analytic", "y0"},
        {"analytic", "sag"},
        {"discrete", "reference"},
        {"discrete", "H"},
        {"discrete", "V0"},
        {"discrete", "sag"},
        {"discrete", "residual"},
        {"fit", "a"},
        {"fit", "x0"},
        {"fit", "y0"},
        {"fit", "rms"},
        {"fit", "max"},
        {"fit", "iterations"},
        {"fit", "converged"},
        {"errors", "total", "rms"},
        {"errors", "total", "max"},
        {"errors", "total", "rms_rel"},
        {"errors", "total", "max_rel"},
        {"errors", "total", "max_point"},
        {"errors", "discretisation", "max_rel"},
        {"errors", "solver", "max_rel"},
        {"errors", "sag", "simulated"},
        {"errors", "sag", "error"},
        {"errors", "sag", "error_rel"},
        {"errors", "length", "simulated"},
        {"errors", "length", "error"},
        {"errors", "length", "error_rel"},
        {"errors", "max_stretch"},
        {"errors", "max_stretch_link"},
        {"errors", "min_stretch"},
        {"errors", "out_of_plane"},
        {"mass", "uniform"},
        {"mass", "min_per_length"},
        {"mass", "max_per_length"},
        {"mass", "mean_per_length"},
        {"mass", "heaviest_point"},
    };
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        ck_assert_msg(path(c, keys[i][0], keys[i][1], keys[i][2]) != NULL, "missing %s.%s.%s",
                      keys[i][0], keys[i][1] ? keys[i][1] : "", keys[i][2] ? keys[i][2] : "");
    ck_assert_str_eq(path(c, "body", NULL, NULL)->valuestring, "chain");
    ck_assert_str_eq(path(c, "discrete", "reference", NULL)->valuestring, "rigid");
    ck_assert_double_eq(path(c, "links", NULL, NULL)->valuedouble, 20);
    ck_assert_double_eq(path(c, "analytic", "a", NULL)->valuedouble, r->chains[0].analytic.a);
    ck_assert_double_eq(path(c, "errors", "solver", "max")->valuedouble, r->chains[0].solver.max);
    ck_assert_double_eq(cJSON_GetArrayItem(path(c, "points", NULL, NULL), 1)->valuedouble, 20);
    ck_assert(cJSON_IsTrue(path(c, "fit", "converged", NULL)));
    ck_assert(cJSON_IsTrue(path(c, "mass", "uniform", NULL)));
    cJSON_Delete(root);
    free(text);
    report_catenary_destroy(r);
    model_destroy(m);
}
END_TEST

/* A run with output.reports writes the report; reading its trajectory back at the last step
 * gives the same JSON (the frames keep every bit), and a step never recorded is an error. */
START_TEST(test_run_and_read_back)
{
    struct scenario *sc = tu_load_scenario("%s", chain_json);
    const struct model *m = sc->model;
    sc->output.reports = REPORT_CATENARY;
    char *tmp = tu_tmpdir();
    const struct run_options ro = {.out_dir = tmp, .plot = 1};
    struct run_result res;
    struct catena_error err;
    ck_assert_msg(run_simulation(sc, &ro, &res, &err) == 0, "%s", err.msg);
    char *jpath = tu_path(tmp, "catenary.json"), *tpath = tu_path(tmp, "catenary.txt");
    size_t len;
    char *written = tu_read_file(jpath, &len);
    char *txt = tu_read_file(tpath, &len);
    ck_assert_ptr_nonnull(written);
    ck_assert_ptr_nonnull(strstr(txt, "discrete reference  rigid links"));

    vec3 *x = malloc(m->npoints * sizeof *x);
    long step;
    double t;
    ck_assert_msg(report_catenary_read_frame(tmp, sc, -1, x, &step, &t, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(step, 4);
    struct report_catenary *r;
    struct report_catenary_options named = defaults;
    named.scenario = sc->provenance.name; /* "test", from test.json, as the run's report says */
    ck_assert_int_eq(report_catenary_build(m, x, step, t, &named, &r, &err), 0);
    char *again = report_catenary_json(r, tmp);
    ck_assert_uint_eq(strlen(again) + 1, strlen(written)); /* the file ends with a newline */
    ck_assert_int_eq(strncmp(again, written, strlen(again)), 0);
    report_catenary_destroy(r);

    ck_assert_int_eq(report_catenary_read_frame(tmp, sc, 2, x, &step, &t, &err), 0);
    ck_assert_int_eq(step, 2);
    ck_assert_int_eq(report_catenary_read_frame(tmp, sc, 3, x, &step, &t, &err), CATENA_EINPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "--step 3: no frame at that step (the trajectory "
                                          "holds 3 frames, steps 0..4)"));
    free(again);
    free(x);
    free(written);
    free(txt);
    free(jpath);
    free(tpath);
    tu_rmtree(tmp);
    free(tmp);
    scenario_destroy(sc);
}
END_TEST

/* The plot: one 900 x 620 panel pair per chain, white background, the three series drawn. */
START_TEST(test_plot)
{
    struct model *m = tu_load("%s", chain_json);
    vec3 *x = malloc(m->npoints * sizeof *x);
    memcpy(x, m->x0, m->npoints * sizeof *x);
    x[7].y += 1e-4; /* a solver error of 1e-5 of the span, drawn full height below */
    struct report_catenary *r = build(m, x, &defaults);
    char *tmp = tu_tmpdir();
    struct catena_error err;
    ck_assert_msg(report_catenary_plot(r, tmp, "c.png", &err) == 0, "%s", err.msg);
    char *file = tu_path(tmp, "c.png");
    png_image img = {.version = PNG_IMAGE_VERSION};
    ck_assert(png_image_begin_read_from_file(&img, file));
    img.format = PNG_FORMAT_RGB;
    ck_assert_int_eq(img.width, 900);
    ck_assert_int_eq(img.height, 620);
    unsigned char *px = malloc(PNG_IMAGE_SIZE(img));
    ck_assert(png_image_finish_read(&img, NULL, px, 0, NULL));
    /* The solver series (red) rises from round-off to 1e-4 m at point 7 on the log axis of
     * the deviation panel (rows 440..580): count its pixels well above the bottom line. */
    size_t red = 0, white = 0;
    for (size_t i = 0; i < (size_t)img.width * img.height; i++) {
        const unsigned char *p = px + 3 * i;
        const size_t row = i / img.width;
        red += row >= 440 && row <= 540 && p[0] > p[1] + 60 && p[0] > p[2] + 60;
        white += p[0] == 255 && p[1] == 255 && p[2] == 255;
    }
    ck_assert_uint_gt(red, 10);
    ck_assert_uint_gt(white, (size_t)img.width * img.height / 2);
    free(px);
    free(file);
    tu_rmtree(tmp);
    free(tmp);
    report_catenary_destroy(r);
    free(x);
    model_destroy(m);
}
END_TEST

static Suite *report_suite(void)
{
    Suite *s = suite_create("report");
    TCase *tc = tcase_create("catenary");
    tcase_add_test(tc, test_equilibrium_chain);
    tcase_add_test(tc, test_moved_point);
    tcase_add_test(tc, test_point_load);
    tcase_add_test(tc, test_3d_plane);
    tcase_add_test(tc, test_extensible_reference);
    tcase_add_test(tc, test_selection);
    tcase_add_test(tc, test_no_chain);
    tcase_add_test(tc, test_taut_chain);
    tcase_add_test(tc, test_json_keys);
    tcase_add_test(tc, test_run_and_read_back);
    tcase_add_test(tc, test_plot);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(report_suite());
}
