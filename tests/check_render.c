/* Frames of runs built in code, read back with libpng: the size asked for, a horizontal link
 * lighting exactly the rows its width covers, a point landing on the pixel the camera puts it
 * at, link colours equal to the colour map's at the link's known stretch and tension, broken
 * and bend links left out, faces filled, 3D depth order, obstacles where they are, a cut's
 * new ends replayed from topology.csv with their radius, a cut cloth outlined along the cut,
 * interpolation halfway between two steps, the frame count of fps and every, the contact
 * sheet's size, the same bytes on a rerun, the fitted camera holding every position of the
 * run, and a settled run's last frame off the every grid drawn from NPY alone. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gfx/colormap.h"
#include "render/render.h"
#include "run/run.h"
#include "scenario/scenario.h"
#include "testutil.h"
#include "testutil_check.h"
#include "testutil_models.h"
#include "io/topology.h"
#include "io/traj_read.h"

static const unsigned char background[3] = {250, 250, 247};
static const unsigned char neutral[3] = {64, 64, 64}; /* links[] and points[] */

/* A fixed view of w x h pixels, view_width metres across centred on the origin, colours by
 * body, no discs, a frame per recorded step. */
static struct render_opts fixed_view(int w, int h, double view_width)
{
    struct render_opts o = render_opts_default();
    o.width = w;
    o.height = h;
    o.has_view = 1;
    o.view_center = v3(0, 0, 0);
    o.view_width = view_width;
    o.color_by = RENDER_BY_NONE;
    o.point_radius = 0;
    o.fps = 0;
    o.every = 1;
    return o;
}

/* Runs the scenario (without gravity unless it has its own) into dir and renders it with o. */
static struct render_result run_and_render(const struct render_opts *o)
{
    struct catena_error err;
    struct run_result rr;
    const struct run_options ro = {.out_dir = dir, .progress = 0};
    ck_assert_msg(run_simulation(scen, &ro, &rr, &err) == CATENA_OK, "%s", err.msg);
    struct render_result res;
    ck_assert_msg(render_run(scen, o, dir, dir, 0, &res, &err) == CATENA_OK, "%s", err.msg);
    return res;
}

static unsigned char *frame(long k, int *w, int *h)
{
    char name[64];
    snprintf(name, sizeof name, "frames/frame-%06ld.png", k);
    unsigned char *px = tu_read_png(dir, name, w, h);
    ck_assert_msg(px != NULL, "cannot read %s", name);
    return px;
}

static const unsigned char *at(const unsigned char *px, int w, int x, int y)
{
    return px + ((size_t)y * (size_t)w + (size_t)x) * 4;
}

static void expect_rgb(const unsigned char *p, const unsigned char rgb[3], const char *what)
{
    ck_assert_msg(p[0] == rgb[0] && p[1] == rgb[1] && p[2] == rgb[2],
                  "%s: got (%d, %d, %d), expected (%d, %d, %d)", what, p[0], p[1], p[2], rgb[0],
                  rgb[1], rgb[2]);
}

static int file_exists(const char *name)
{
    char *p = tu_path(dir, name);
    struct stat st;
    const int ok = stat(p, &st) == 0;
    free(p);
    return ok;
}

/* A link from (x0, y) to (x1, y), its ends pinned so that it keeps its length, no gravity,
 * recorded as NPY. */
static struct scenario *held_link(double x0, double x1, double y, double rest)
{
    struct scenario *sc =
        scenario_create(tu_chain(2, v3(x0, y, 0), v3(x1, y, 0), 1.0, 1, 1, 0.01, 10));
    ck_assert_ptr_nonnull(sc);
    struct model *c = sc->model;
    c->links[0].rest = rest;
    c->gravity = v3(0, 0, 0);
    c->steps = 0;
    sc->output.formats = FORMAT_NPY;
    return sc;
}

/* ---- geometry ---- */

START_TEST(test_size)
{
    tu_use(held_link(-1, 1, 0, 2));
    const struct render_opts o = fixed_view(123, 45, 4);
    const struct render_result res = run_and_render(&o);
    ck_assert_int_eq(res.frames, 1);
    int w = 0, h = 0;
    unsigned char *px = frame(0, &w, &h);
    ck_assert_int_eq(w, 123);
    ck_assert_int_eq(h, 45);
    free(px);
}
END_TEST

START_TEST(test_horizontal_link_rows)
{
    /* 201 px over 10.05 m: 20 px/m, the origin at pixel (100, 80); the link on y = 0 is
     * 3 px wide, so it covers rows 78.5 to 81.5: rows 79..81 whole, 78 and 82 not at all */
    tu_use(held_link(-2, 2, 0, 4));
    struct render_opts o = fixed_view(201, 161, 10.05);
    o.line_width = 3;
    run_and_render(&o);
    int w, h;
    unsigned char *px = frame(0, &w, &h);
    for (int x = 70; x <= 130; x += 10) {
        for (int y = 79; y <= 81; y++)
            expect_rgb(at(px, w, x, y), neutral, "inside the link");
        expect_rgb(at(px, w, x, 78), background, "above the link");
        expect_rgb(at(px, w, x, 82), background, "below the link");
    }
    /* the ends: x = -2 m and 2 m are pixels 60 and 140, where pin rings are drawn; the line
     * itself stops within a round cap of them */
    expect_rgb(at(px, w, 30, 80), background, "left of the link");
    expect_rgb(at(px, w, 170, 80), background, "right of the link");
    free(px);
}
END_TEST

START_TEST(test_point_pixel)
{
    /* one free point at (1, 0.5) m: 20 px/m from the origin at (100, 80) puts it at
     * pixel (120, 70); a disc of radius 3 px covers (122, 70) but not (125, 70) */
    tu_use(scenario_create(tu_chain(1, v3(1, 0.5, 0), v3(1, 0.5, 0), 1.0, 0, 0, 0.01, 1)));
    m->gravity = v3(0, 0, 0);
    m->steps = 0;
    scen->output.formats = FORMAT_CSV;
    struct render_opts o = fixed_view(201, 161, 10.05);
    o.point_radius = 3;
    run_and_render(&o);
    int w, h;
    unsigned char *px = frame(0, &w, &h);
    const unsigned char disc[3] = {38, 38, 38}; /* the neutral colour darkened by 0.6 */
    expect_rgb(at(px, w, 120, 70), disc, "the point's pixel");
    expect_rgb(at(px, w, 122, 70), disc, "inside the disc");
    expect_rgb(at(px, w, 120, 72), disc, "inside the disc");
    expect_rgb(at(px, w, 125, 70), background, "outside the disc");
    expect_rgb(at(px, w, 100, 80), background, "the origin");
    free(px);
}
END_TEST

/* ---- colours ---- */

/* The link colour at pixel (100, 80) of a held link of the given rest length over [-1, 1]. */
static void link_colour_at(double rest, enum render_color_by by, double lo, double hi,
                           unsigned char rgb[3])
{
    tu_use(held_link(-1, 1, 0, rest));
    struct render_opts o = fixed_view(201, 161, 10.05);
    o.color_by = by;
    o.line_width = 3;
    o.has_range = 1;
    o.range_lo = lo;
    o.range_hi = hi;
    run_and_render(&o);
    int w, h;
    unsigned char *px = frame(0, &w, &h);
    memcpy(rgb, at(px, w, 100, 80), 3);
    free(px);
}

START_TEST(test_stretch_colour)
{
    /* length 2 over rest 1.6: stretch 1.25, halfway through the range [1, 1.5] */
    unsigned char got[3];
    link_colour_at(1.6, RENDER_BY_STRETCH, 1, 1.5, got);
    const struct raster_color c = colormap_color(&colormap_viridis, 0.5);
    const unsigned char want[3] = {c.r, c.g, c.b};
    expect_rgb(got, want, "stretch 1.25 in [1, 1.5]");
}
END_TEST

START_TEST(test_tension_colour)
{
    /* both ends pinned (w = 0) and compliance 5e-4 m/N: T = C / alpha = 0.4 / 5e-4 = 800 N,
     * a quarter of the way through [0, 3200] */
    tu_use(held_link(-1, 1, 0, 1.6));
    m->links[0].compliance = 5e-4;
    struct render_opts o = fixed_view(201, 161, 10.05);
    o.color_by = RENDER_BY_TENSION;
    o.line_width = 3;
    o.has_range = 1;
    o.range_lo = 0;
    o.range_hi = 3200;
    run_and_render(&o);
    int w, h;
    unsigned char *px = frame(0, &w, &h);
    const struct raster_color c = colormap_color(&colormap_viridis, 0.25);
    const unsigned char want[3] = {c.r, c.g, c.b};
    expect_rgb(at(px, w, 100, 80), want, "800 N in [0, 3200]");
    free(px);
}
END_TEST

START_TEST(test_body_colour)
{
    /* color_by none: a body's links take bodies[].color */
    tu_use(held_link(-1, 1, 0, 2));
    const long b = model_add_body(m, "rope", BODY_ROPE);
    ck_assert_int_ge(b, 0);
    m->bodies[b].npoints = 2;
    m->bodies[b].nlinks = 1;
    m->bodies[b].color = 0x123456 | BODY_COLOR_SET;
    struct render_opts o = fixed_view(201, 161, 10.05);
    o.line_width = 3;
    run_and_render(&o);
    int w, h;
    unsigned char *px = frame(0, &w, &h);
    const unsigned char want[3] = {0x12, 0x34, 0x56};
    expect_rgb(at(px, w, 100, 80), want, "the body's colour");
    free(px);
}
END_TEST

/* ---- what is left out, what is filled ---- */

START_TEST(test_broken_link_gone)
{
    /* held at length 2 with rest 1.6, break_stretch 1.1: it breaks in step 1 */
    tu_use(held_link(-1, 1, 0, 1.6));
    m->links[0].break_stretch = 1.1;
    m->steps = 2;
    struct render_opts o = fixed_view(201, 161, 10.05);
    o.line_width = 3;
    run_and_render(&o);
    ck_assert(file_exists("topology.csv"));
    int w, h;
    unsigned char *px = frame(0, &w, &h);
    expect_rgb(at(px, w, 100, 80), neutral, "the link before it breaks");
    free(px);
    px = frame(1, &w, &h);
    expect_rgb(at(px, w, 100, 80), background, "the link once broken");
    free(px);
}
END_TEST

START_TEST(test_bend_link_not_drawn)
{
    tu_use(held_link(-1, 1, 0, 2));
    m->links[0].role = ROLE_BEND;
    struct render_opts o = fixed_view(201, 161, 10.05);
    o.line_width = 3;
    run_and_render(&o);
    int w, h;
    unsigned char *px = frame(0, &w, &h);
    expect_rgb(at(px, w, 100, 80), background, "a bend link");
    free(px);
}
END_TEST

START_TEST(test_faces_filled)
{
    /* a 3 x 3 cloth 2 m across hanging from (0, 0): faces fill its inside (in the body's
     * colour lightened, 2D), and its links are not drawn over them */
    tu_use(tu_cloth(3, 2.0, 2));
    m->gravity = v3(0, 0, 0);
    m->steps = 0;
    struct render_opts o = fixed_view(201, 161, 10.05);
    run_and_render(&o);
    int w, h;
    unsigned char *px = frame(0, &w, &h);
    /* palette colour 0 is #0072b2; halfway to white */
    const unsigned char fill[3] = {(0x00 + 255) / 2, (0x72 + 255) / 2, (0xb2 + 255) / 2};
    expect_rgb(at(px, w, 110, 90), fill, "inside the cloth"); /* (0.5, -0.5) m */
    expect_rgb(at(px, w, 120, 80 + 20), fill, "on a structural link");
    expect_rgb(at(px, w, 90, 90), background, "outside the cloth");
    free(px);
}
END_TEST

START_TEST(test_depth_order)
{
    /* 3D, yaw 0, pitch 0: the viewer looks down -z. Two crossing links, body 0 in front
     * (z = +1) along x, body 1 behind (z = -1) along y: the front one shows where they
     * cross, although body 1 comes later in the model */
    tu_use(scenario_create(NULL));
    m->dims = 3;
    m->dt = 0.01;
    m->steps = 0;
    m->gravity = v3(0, 0, 0);
    scen->output.formats = FORMAT_NPY;
    const vec3 p[4] = {v3(-1, 0, 1), v3(1, 0, 1), v3(0, -1, -1), v3(0, 1, -1)};
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(model_add_point(m, p[i], v3(0, 0, 0), 0, 0, NULL), i);
    for (int b = 0; b < 2; b++) {
        ck_assert_int_eq(model_add_link(m, 2 * b, 2 * b + 1, 2), b);
        model_add_pin(m, 2 * b, p[2 * b]);
        model_add_pin(m, 2 * b + 1, p[2 * b + 1]);
        const long k = model_add_body(m, b ? "back" : "front", BODY_ROPE);
        m->bodies[k].first_point = 2 * b;
        m->bodies[k].npoints = 2;
        m->bodies[k].first_link = b;
        m->bodies[k].nlinks = 1;
    }
    struct render_opts o = fixed_view(201, 161, 10.05);
    o.yaw = 0;
    o.pitch = 0;
    o.line_width = 5;
    run_and_render(&o);
    int w, h;
    unsigned char *px = frame(0, &w, &h);
    const unsigned char front[3] = {0x00, 0x72, 0xb2}, back[3] = {0xd5, 0x5e, 0x00};
    expect_rgb(at(px, w, 100, 80), front, "the crossing");
    expect_rgb(at(px, w, 100, 70), back, "the back link alone");
    free(px);

    /* turned half round (yaw 180) the other link is in front */
    o.yaw = 180;
    run_and_render(&o);
    px = frame(0, &w, &h);
    expect_rgb(at(px, w, 100, 80), back, "the crossing seen from behind");
    free(px);
}
END_TEST

START_TEST(test_obstacles_drawn)
{
    /* a floor at y = -2 m (pixel row 120), a sphere of 1 m about (2, 1) (pixel (140, 60), 20 px
     * across), a box 1 x 0.5 m about (-2, 1) (pixels 60 +- 20, 60 +- 10) */
    tu_use(held_link(-1, 1, 0, 2));
    struct obstacle o[3] = {
        {.type = OBSTACLE_PLANE, .p = v3(0, -2, 0), .n = v3(0, 1, 0)},
        {.type = OBSTACLE_SPHERE, .p = v3(2, 1, 0), .r = 1},
        {.type = OBSTACLE_BOX, .p = v3(-2, 1, 0), .half = v3(1, 0.5, INFINITY)},
    };
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < 3; i++)
            o[k].rot[i][i] = 1;
        obstacle_bounds(&o[k]);
        ck_assert_int_eq(model_add_obstacle(m, &o[k]), k);
    }
    struct render_opts o2 = fixed_view(201, 161, 10.05);
    run_and_render(&o2);
    int w, h;
    unsigned char *px = frame(0, &w, &h);
    const unsigned char ground[3] = {232, 229, 219}, solid[3] = {172, 178, 190};
    expect_rgb(at(px, w, 100, 130), ground, "below the floor");
    expect_rgb(at(px, w, 100, 110), background, "above the floor");
    expect_rgb(at(px, w, 140, 60), solid, "the sphere's centre");
    expect_rgb(at(px, w, 140, 82), background, "below the sphere");
    expect_rgb(at(px, w, 60, 60), solid, "the box's centre");
    expect_rgb(at(px, w, 60, 73), background, "below the box");
    free(px);
}
END_TEST

START_TEST(test_area_filled)
{
    /* a 2D area without faces (a soft body's outline) is filled from its centroid: a square
     * of 2 m about the origin, in the neutral colour lightened */
    tu_use(scenario_create(tu_chain(4, v3(-1, -1, 0), v3(-1, -1, 0), 1.0, 0, 0, 0.01, 1)));
    const vec3 corner[4] = {v3(-1, -1, 0), v3(1, -1, 0), v3(1, 1, 0), v3(-1, 1, 0)};
    for (int k = 0; k < 4; k++)
        m->x0[k] = corner[k];
    const uint32_t ring[4] = {0, 1, 2, 3};
    ck_assert_int_ge(model_add_area(m, ring, 4), 0);
    m->gravity = v3(0, 0, 0);
    m->steps = 0;
    scen->output.formats = FORMAT_NPY;
    struct render_opts o = fixed_view(201, 161, 10.05);
    run_and_render(&o);
    int w, h;
    unsigned char *px = frame(0, &w, &h);
    const unsigned char fill[3] = {(64 + 255) / 2, (64 + 255) / 2, (64 + 255) / 2};
    expect_rgb(at(px, w, 110, 70), fill, "inside the area");
    expect_rgb(at(px, w, 130, 70), background, "outside the area");
    free(px);
}
END_TEST

/* ---- changing topology ---- */

/* A rope of 20 links held at both ends, cut through link 10 at t = 0.1 s (step 10). */
static const char cut_scenario[] =
    "{\"catena\": 1, \"name\": \"cut\", \"time\": {\"dt\": 0.01, \"steps\": 50},"
    " \"solver\": {\"iterations\": 20},"
    " \"bodies\": [{\"type\": \"rope\", \"name\": \"rope\", \"from\": [-2, 0],"
    " \"to\": [2, 0], \"segments\": 20, \"mass\": 1, \"pins\": [\"first\", \"last\"]}],"
    " \"events\": [{\"time\": 0.1, \"cut\": {\"link\": \"rope.10\"}}],"
    " \"output\": {\"trajectory\": [\"npy\"]}}";

static struct scenario *load_cut(void)
{
    struct catena_error err;
    struct scenario *c =
        scenario_parse("cut.json", cut_scenario, strlen(cut_scenario), NULL, 0, &err);
    ck_assert_msg(c != NULL, "%s", err.msg);
    return c;
}

START_TEST(test_topology_replay)
{
    /* the cut ends link 10 at the first reserved point and revives the reserved link as the
     * far half; before it, the reserved link is dead */
    tu_use(load_cut());
    struct catena_error err;
    struct run_result rr;
    const struct run_options ro = {.out_dir = dir, .progress = 0};
    ck_assert_int_eq(run_simulation(scen, &ro, &rr, &err), CATENA_OK);
    const uint32_t c = (uint32_t)m->first_reserved_point, far = (uint32_t)m->first_reserved_link;
    struct topology t;
    ck_assert_msg(topology_open(&t, m, dir, &err) == CATENA_OK, "%s", err.msg);
    ck_assert_int_eq(topology_advance(&t, 9.5, &err), CATENA_OK);
    ck_assert_int_eq(t.alive[far], 0);
    ck_assert_uint_eq(t.links[10].b, 11);
    ck_assert_int_eq(topology_advance(&t, 10, &err), CATENA_OK);
    ck_assert_int_eq(t.alive[far], 1);
    ck_assert_uint_eq(t.links[10].a, 10);
    ck_assert_uint_eq(t.links[10].b, c);
    ck_assert_uint_eq(t.links[far].a, c + 1);
    ck_assert_uint_eq(t.links[far].b, 11);
    ck_assert_double_eq_tol(t.links[10].rest + t.links[far].rest, 0.2, 1e-12);
    ck_assert(t.inv_mass[c] > 0); /* the new ends move */
    topology_close(&t);
}
END_TEST

START_TEST(test_cut_opens_a_gap)
{
    /* 40 px/m about (0, -1): the pins at pixels (20, 40) and (180, 40). Before the cut the
     * rope crosses the middle; half a second after it the halves hang apart, and nothing
     * (no link still joining the old ends) crosses between them */
    tu_use(load_cut());
    struct render_opts o = fixed_view(201, 161, 5.025);
    o.view_center = v3(0, -1, 0);
    o.line_width = 3;
    o.every = 10;
    run_and_render(&o);
    int w, h;
    unsigned char *px = frame(0, &w, &h);
    expect_rgb(at(px, w, 100, 40), (const unsigned char[]){0x00, 0x72, 0xb2}, "the whole rope");
    free(px);
    px = frame(5, &w, &h);
    for (int y = 40; y < 150; y++)
        expect_rgb(at(px, w, 100, y), background, "between the halves");
    free(px);
}
END_TEST

/* ---- output.render in a scenario ---- */

static struct scenario *parse(const char *text)
{
    struct catena_error err;
    struct scenario *p = scenario_parse("r.json", text, strlen(text), NULL, 0, &err);
    ck_assert_msg(p != NULL, "%s", err.msg);
    return p;
}

START_TEST(test_scenario_render_keys)
{
    tu_use(
        parse("{\"catena\": 1, \"dimensions\": 3, \"time\": {\"dt\": 0.01, \"steps\": 4},"
              " \"bodies\": [{\"type\": \"rope\", \"name\": \"r\", \"from\": [0, 0, 0],"
              " \"to\": [1, 0, 0], \"segments\": 2, \"mass\": 1, \"color\": \"#A0b1C2\"}],"
              " \"output\": {\"every\": 2, \"trajectory\": [], \"render\": {\"every\": 4,"
              " \"size\": [320, 200], \"color_by\": \"tension\", \"range\": [-1, 5],"
              " \"line_width\": 1.5, \"point_radius\": \"world\", \"view\": {\"center\": [1, 2, 3],"
              " \"width\": 7}, \"yaw\": -45, \"pitch\": 60, \"level\": 6,"
              " \"contact_sheet\": {\"frames\": 9, \"columns\": 3, \"width\": 300}}}}"));
    const struct render_opts *o = scen->output.render;
    ck_assert_ptr_nonnull(o);
    ck_assert_double_eq(o->fps, 0);
    ck_assert_int_eq(o->every, 4);
    ck_assert_int_eq(o->width, 320);
    ck_assert_int_eq(o->height, 200);
    ck_assert_int_eq(o->color_by, RENDER_BY_TENSION);
    ck_assert(o->has_range && o->range_lo == -1 && o->range_hi == 5);
    ck_assert_double_eq(o->line_width, 1.5);
    ck_assert(o->point_world);
    ck_assert(o->has_view && o->view_width == 7 && o->view_center.z == 3);
    ck_assert_double_eq(o->yaw, -45);
    ck_assert_double_eq(o->pitch, 60);
    ck_assert_int_eq(o->level, 6);
    ck_assert(o->sheet.enabled && o->sheet.frames == 9 && o->sheet.columns == 3);
    ck_assert_int_eq(o->sheet.width, 300);
    ck_assert_uint_eq(scen->output.formats, FORMAT_NPY); /* frames need a recorded trajectory */
    ck_assert_uint_eq(m->bodies[0].color, 0xa0b1c2 | BODY_COLOR_SET);
}
END_TEST

START_TEST(test_scenario_render_defaults)
{
    tu_use(parse("{\"catena\": 1, \"time\": {\"dt\": 0.01, \"steps\": 4},"
                 " \"points\": [{\"p\": [0, 0], \"mass\": 1}]}"));
    ck_assert_ptr_null(scen->output.render); /* no output.render: no frames */
    scenario_destroy(scen);
    tu_use(parse("{\"catena\": 1, \"time\": {\"dt\": 0.01, \"steps\": 4},"
                 " \"points\": [{\"p\": [0, 0], \"mass\": 1}], \"output\": {\"render\": {}}}"));
    const struct render_opts d = render_opts_default();
    const struct render_opts *o = scen->output.render;
    ck_assert_ptr_nonnull(o);
    ck_assert(o->fps == d.fps && o->every == d.every && o->width == d.width &&
              o->height == d.height && o->color_by == d.color_by && !o->has_range &&
              o->line_width == d.line_width && o->point_radius == d.point_radius &&
              !o->point_world && !o->has_view && o->yaw == d.yaw && o->pitch == d.pitch &&
              o->level == d.level && !o->sheet.enabled);
    ck_assert_uint_eq(scen->output.formats, FORMAT_CSV); /* the trajectory asked for is kept */
    ck_assert_double_eq(d.fps, 30);
    ck_assert_int_eq(d.width, 800);
    ck_assert_int_eq(d.height, 600);
    ck_assert_int_eq(d.color_by, RENDER_BY_STRETCH);
    ck_assert_int_eq(d.level, 1);
}
END_TEST

START_TEST(test_scenario_render_null_timing)
{
    /* --fps over a scenario's every sets every to null, which reads as absent */
    const char *text = "{\"catena\": 1, \"time\": {\"dt\": 0.01, \"steps\": 4},"
                       " \"points\": [{\"p\": [0, 0], \"mass\": 1}],"
                       " \"output\": {\"render\": {\"every\": 2}}}";
    const struct scenario_override ov[] = {{"output.render.fps", "12"},
                                           {"output.render.every", "null"}};
    struct catena_error err;
    scen = scenario_parse("r.json", text, strlen(text), ov, 2, &err);
    ck_assert_msg(scen != NULL, "%s", err.msg);
    ck_assert_double_eq(scen->output.render->fps, 12);
    ck_assert_int_eq(scen->output.render->every, 0);
}
END_TEST

/* A 5 x 5 cloth 2 m across about the origin (2D, points 0.5 m apart, row 0 at y = 1), at
 * rest without gravity, cut at t = 0 through link 9: the structural link from (row 2,
 * col 1) at (-0.5, 0) to (row 2, col 2) at (0, 0). The two faces on that edge open. */
static const char cut_cloth_scenario[] =
    "{\"catena\": 1, \"name\": \"cut-cloth\", \"time\": {\"dt\": 0.01, \"steps\": 1},"
    " \"world\": {\"gravity\": [0, 0]},"
    " \"bodies\": [{\"type\": \"cloth\", \"name\": \"cloth\", \"rows\": 5, \"cols\": 5,"
    " \"size\": [2, 2], \"mass\": 1}],"
    " \"events\": [{\"time\": 0, \"cut\": {\"link\": \"cloth.9\"}}],"
    " \"output\": {\"trajectory\": [\"npy\"]}}";

START_TEST(test_cut_edges_outlined)
{
    /* 40 px/m about the origin: (x, y) m is pixel (100 + 40 x, 80 - 40 y). The faces on
     * the cut link, (r1 c1, r2 c1, r2 c2) and (r2 c1, r3 c2, r2 c2), are gone; the edges
     * that bordered them are the cloth's outline now, drawn as its rim is: the body's colour
     * at 0.7 (#0072b2 -> (0, 80, 125)) at the middle of a 3 px line. Same for the two halves
     * of the cut link, which no face borders any more. An edge inside the whole cloth stays
     * under the faces' fill. */
    tu_use(parse(cut_cloth_scenario));
    struct render_opts o = fixed_view(201, 161, 5.025);
    o.line_width = 3;
    run_and_render(&o);
    int w, h;
    unsigned char *px = frame(0, &w, &h);
    const unsigned char rim[3] = {0, 80, 125};
    const unsigned char fill[3] = {(0x00 + 255) / 2, (0x72 + 255) / 2, (0xb2 + 255) / 2};
    expect_rgb(at(px, w, 110, 40), rim, "the rim: row 0 at (0.25, 1)");
    expect_rgb(at(px, w, 80, 70), rim, "the opened edge r1 c1 - r2 c1 at (-0.5, 0.25)");
    expect_rgb(at(px, w, 100, 90), rim, "the opened edge r2 c2 - r3 c2 at (0, -0.25)");
    expect_rgb(at(px, w, 90, 70), rim, "the opened diagonal r1 c1 - r2 c2 at (-0.25, 0.25)");
    expect_rgb(at(px, w, 90, 90), rim, "the opened diagonal r2 c1 - r3 c2 at (-0.25, -0.25)");
    expect_rgb(at(px, w, 85, 80), rim, "the near half of the cut link at (-0.375, 0)");
    expect_rgb(at(px, w, 95, 80), rim, "the far half of the cut link at (-0.125, 0)");
    expect_rgb(at(px, w, 120, 90), fill, "the edge r2 c3 - r3 c3 inside at (0.5, -0.25)");
    free(px);
}
END_TEST

/* A straight rope of 4 links 1 m long, points of radius 0.1 m, held at both ends without
 * gravity, cut at t = 0 through the middle of link 1, at (-0.5, 0). */
static const char cut_radius_scenario[] =
    "{\"catena\": 1, \"name\": \"cut-radius\", \"time\": {\"dt\": 0.01, \"steps\": 1},"
    " \"world\": {\"gravity\": [0, 0]},"
    " \"bodies\": [{\"type\": \"rope\", \"name\": \"rope\", \"from\": [-2, 0],"
    " \"to\": [2, 0], \"segments\": 4, \"mass\": 1, \"radius\": 0.1,"
    " \"pins\": [\"first\", \"last\"]}],"
    " \"events\": [{\"time\": 0, \"cut\": {\"link\": \"rope.1\"}}],"
    " \"output\": {\"trajectory\": [\"npy\"]}}";

START_TEST(test_cut_ends_keep_radius)
{
    /* The cut's new ends take the radius of the ends they split from (0.1 m; reserved, they
     * had 0): topology.csv records it and discs of world size show it. At 40 px/m about the
     * origin the ends sit at pixel (80, 80): 3 px above, inside a 4 px disc and clear of the
     * 2 px line, is the disc's colour, the body's at 0.6 (#0072b2 -> (0, 68, 107)). */
    tu_use(parse(cut_radius_scenario));
    struct render_opts o = fixed_view(201, 161, 5.025);
    o.point_world = 1;
    run_and_render(&o);
    struct catena_error err;
    struct topology t;
    const size_t c = m->first_reserved_point;
    ck_assert_msg(topology_open(&t, m, dir, &err) == CATENA_OK, "%s", err.msg);
    ck_assert_double_eq(t.radius[c], 0);
    ck_assert_int_eq(topology_advance(&t, 0, &err), CATENA_OK);
    ck_assert_double_eq(t.radius[c], 0.1);
    ck_assert_double_eq(t.radius[c + 1], 0.1);
    topology_close(&t);
    int w, h;
    unsigned char *px = frame(0, &w, &h);
    const unsigned char disc[3] = {0, 68, 107};
    expect_rgb(at(px, w, 80, 77), disc, "above the new ends");
    expect_rgb(at(px, w, 80, 83), disc, "below the new ends");
    expect_rgb(at(px, w, 80, 75), background, "beyond the discs");
    free(px);
}
END_TEST

/* ---- timing ---- */

/* One point moving at 10 m/s along x without gravity, steps of 0.1 s: 1 m (20 px) a step;
 * recorded as JSON. */
static struct scenario *moving_point(long steps)
{
    struct scenario *sc =
        scenario_create(tu_chain(1, v3(-2, 0, 0), v3(-2, 0, 0), 1.0, 0, 0, 0.1, 1));
    ck_assert_ptr_nonnull(sc);
    struct model *c = sc->model;
    c->v0[0] = v3(10, 0, 0);
    c->gravity = v3(0, 0, 0);
    c->steps = steps;
    sc->output.formats = FORMAT_JSON;
    return sc;
}

/* The x of the darkest column's centre on row y (the point's disc). */
static double disc_x(const unsigned char *px, int w, int y)
{
    double sum = 0, wsum = 0;
    for (int x = 0; x < w; x++) {
        const double d = background[0] - at(px, w, x, y)[0];
        if (d > 0) {
            sum += d * x;
            wsum += d;
        }
    }
    ck_assert(wsum > 0);
    return sum / wsum;
}

START_TEST(test_interpolation_halfway)
{
    /* 20 fps over steps of 0.1 s: frame 1 (t = 0.05 s) is halfway between steps 0 and 1,
     * and the point there halfway between its positions: x = -1.5 m, pixel 70 */
    tu_use(moving_point(4));
    struct render_opts o = fixed_view(201, 161, 10.05);
    o.point_radius = 3;
    o.every = 0;
    o.fps = 20;
    const struct render_result res = run_and_render(&o);
    ck_assert_int_eq(res.frames, 9); /* 0.4 s at 20 fps, both ends included */
    int w, h;
    unsigned char *px = frame(0, &w, &h);
    /* the disc is symmetric about its centre, so the weighted centre is exact to rounding */
    ck_assert_double_eq_tol(disc_x(px, w, 80), 60, 1e-6);
    free(px);
    px = frame(1, &w, &h);
    ck_assert_double_eq_tol(disc_x(px, w, 80), 70, 1e-6);
    free(px);
    px = frame(2, &w, &h);
    ck_assert_double_eq_tol(disc_x(px, w, 80), 80, 1e-6);
    free(px);
}
END_TEST

START_TEST(test_every_frames)
{
    /* every 2 over 5 steps: steps 0, 2, 4 */
    tu_use(moving_point(5));
    struct render_opts o = fixed_view(201, 161, 10.05);
    o.point_radius = 3;
    o.every = 2;
    const struct render_result res = run_and_render(&o);
    ck_assert_int_eq(res.frames, 3);
    ck_assert(file_exists("frames/frame-000002.png"));
    ck_assert(!file_exists("frames/frame-000003.png"));
    int w, h;
    unsigned char *px = frame(1, &w, &h);
    ck_assert_double_eq_tol(disc_x(px, w, 80), 100, 1e-6); /* step 2: x = 0 */
    free(px);
}
END_TEST

START_TEST(test_stale_frames_removed)
{
    tu_use(moving_point(5));
    struct render_opts o = fixed_view(101, 81, 10);
    o.every = 1;
    run_and_render(&o);
    ck_assert(file_exists("frames/frame-000005.png"));
    o.every = 5;
    run_and_render(&o);
    ck_assert(file_exists("frames/frame-000001.png"));
    ck_assert(!file_exists("frames/frame-000002.png"));
}
END_TEST

/* ---- camera, sheet, bytes ---- */

START_TEST(test_fitted_camera_holds_the_run)
{
    /* the moving point crosses 4 m; fitted, the first and last frames both show its disc */
    tu_use(moving_point(4));
    struct render_opts o = render_opts_default();
    o.width = 200;
    o.height = 100;
    o.color_by = RENDER_BY_NONE;
    o.every = 1;
    o.fps = 0;
    run_and_render(&o);
    int w, h;
    for (long k = 0; k <= 4; k += 4) {
        unsigned char *px = frame(k, &w, &h);
        int dark = 0;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                dark += at(px, w, x, y)[0] < 100;
        ck_assert_msg(dark > 0, "frame %ld shows no point", k);
        free(px);
    }
}
END_TEST

START_TEST(test_contact_sheet_size)
{
    /* 6 tiles, 3 columns, 300 px: tiles (300 - 4 x 4) / 3 = 94 px wide, 94 x 81 / 101 = 75
     * high, with 4 px gaps: 298 x 162 */
    tu_use(moving_point(10));
    struct render_opts o = fixed_view(101, 81, 10);
    o.sheet = (struct render_sheet_opts){.enabled = 1, .frames = 6, .columns = 3, .width = 300};
    run_and_render(&o);
    int w = 0, h = 0;
    unsigned char *px = tu_read_png(dir, "contact-sheet.png", &w, &h);
    ck_assert_ptr_nonnull(px);
    ck_assert_int_eq(w, 298);
    ck_assert_int_eq(h, 162);
    free(px);
}
END_TEST

START_TEST(test_same_bytes)
{
    tu_use(tu_cloth(6, 1.0, 3));
    m->steps = 12;
    struct render_opts o = render_opts_default();
    o.width = 160;
    o.height = 120;
    o.sheet.enabled = 1;
    run_and_render(&o);
    size_t n1, n2, nsa, nsb;
    char *p = tu_path(dir, "frames/frame-000003.png"), *q = tu_path(dir, "contact-sheet.png");
    char *a = tu_read_file(p, &n1), *sa = tu_read_file(q, &nsa);
    run_and_render(&o);
    char *b = tu_read_file(p, &n2), *sb = tu_read_file(q, &nsb);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert_uint_eq(n1, n2);
    ck_assert_mem_eq(a, b, n1);
    ck_assert_uint_eq(nsa, nsb);
    ck_assert_mem_eq(sa, sb, nsa);
    free(a);
    free(b);
    free(sa);
    free(sb);
    free(p);
    free(q);
}
END_TEST

/* A damped pendulum recorded every 10 steps that stops once settled, which records its last
 * frame at the step it stops, off that grid. */
static const char settle_scenario[] =
    "{\"catena\": 1, \"name\": \"settle\", \"time\": {\"dt\": 0.008333333333333333,"
    " \"steps\": 2400, \"until_settled\": {\"speed\": 0.01, \"for\": 0.5}},"
    " \"solver\": {\"method\": \"xpbd\", \"damping\": 0.05},"
    " \"points\": [{\"p\": [0, 0], \"mass\": 0}, {\"p\": [1, 0], \"mass\": 1}],"
    " \"links\": [{\"a\": 0, \"b\": 1}],"
    " \"output\": {\"every\": 10, \"trajectory\": [\"csv\", \"npy\"]}}";

/* Every frame's step and time read from NPY are those CSV recorded. */
static void expect_same_steps(const char *npy, const char *csv)
{
    struct catena_error err;
    struct traj_reader *a = traj_read_open(npy, &err), *b = a ? traj_read_open(csv, &err) : NULL;
    ck_assert_msg(b, "%s", err.msg);
    ck_assert_int_eq(traj_read_info(a)->has_steps, 1);
    const struct traj_frame *fa, *fb;
    do {
        ck_assert_int_eq(traj_read_next(a, &fa, &err), CATENA_OK);
        ck_assert_int_eq(traj_read_next(b, &fb, &err), CATENA_OK);
        ck_assert((fa == NULL) == (fb == NULL));
        if (fa) {
            ck_assert_int_eq(fa->step, fb->step);
            ck_assert_double_eq(fa->time, fb->time);
        }
    } while (fa);
    traj_read_close(a);
    traj_read_close(b);
}

START_TEST(test_settled_frames_from_npy)
{
    /* NPY alone gives the last frame its true step (not index x every), so the frames drawn
     * from it are those drawn from CSV alone: at 12 fps (a frame every 10 steps) one per
     * recorded step up to the last multiple of 10, the same bytes */
    tu_use(parse(settle_scenario));
    struct catena_error err;
    struct run_result rr;
    const struct run_options ro = {.out_dir = dir, .progress = 0};
    ck_assert_int_eq(run_simulation(scen, &ro, &rr, &err), CATENA_OK);
    ck_assert_int_ge(rr.settled_step, 0);
    ck_assert_int_ne(rr.steps_done % 10, 0); /* else the test shows nothing */
    char *npy = tu_path(dir, "trajectory.npy"), *csv = tu_path(dir, "trajectory.csv");
    char *side = tu_path(dir, "trajectory-frames.npy");
    struct render_opts o = fixed_view(101, 81, 4);
    o.every = 0;
    o.fps = 12;
    char *out_npy = tu_path(dir, "from-npy"), *out_csv = tu_path(dir, "from-csv");
    struct render_result r1, r2;
    ck_assert_msg(render_run(scen, &o, dir, out_npy, 0, &r1, &err) == CATENA_OK, "%s", err.msg);
    ck_assert_int_eq(r1.frames, rr.steps_done / 10 + 1);
    expect_same_steps(npy, csv);
    ck_assert_int_eq(remove(npy), 0);
    ck_assert_int_eq(remove(side), 0);
    ck_assert_msg(render_run(scen, &o, dir, out_csv, 0, &r2, &err) == CATENA_OK, "%s", err.msg);
    ck_assert_int_eq(r2.frames, r1.frames);
    char name[64];
    size_t n1, n2;
    snprintf(name, sizeof name, "from-npy/frames/frame-%06ld.png", r1.frames - 1);
    char *p1 = tu_path(dir, name), *a = tu_read_file(p1, &n1);
    snprintf(name, sizeof name, "from-csv/frames/frame-%06ld.png", r1.frames - 1);
    char *p2 = tu_path(dir, name), *b = tu_read_file(p2, &n2);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert_uint_eq(n1, n2);
    ck_assert_mem_eq(a, b, n1);
    /* a run that ends on the grid writes its frames file all the same, so that its frames
     * are matched by step (catena compare) */
    ck_assert_int_eq(run_simulation(scen, &ro, &rr, &err), CATENA_OK);
    ck_assert(file_exists("trajectory-frames.npy"));
    scenario_destroy(scen);
    tu_use(parse(settle_scenario));
    m->settle_speed = 0;
    m->steps = 20;
    ck_assert_int_eq(run_simulation(scen, &ro, &rr, &err), CATENA_OK);
    ck_assert(file_exists("trajectory-frames.npy"));
    free(a);
    free(b);
    free(p1);
    free(p2);
    free(out_npy);
    free(out_csv);
    free(npy);
    free(csv);
    free(side);
}
END_TEST

START_TEST(test_mismatched_trajectory)
{
    /* a run of 2 points drawn with a model of 3: refused, nothing drawn */
    tu_use(held_link(-1, 1, 0, 2));
    struct catena_error err;
    struct run_result rr;
    const struct run_options ro = {.out_dir = dir, .progress = 0};
    ck_assert_int_eq(run_simulation(scen, &ro, &rr, &err), CATENA_OK);
    model_add_point(m, v3(0, 0, 0), v3(0, 0, 0), 1, 0, NULL);
    struct render_result res;
    const struct render_opts o = fixed_view(101, 81, 4);
    ck_assert_int_eq(render_run(scen, &o, dir, dir, 0, &res, &err), CATENA_EINPUT);
    ck_assert_msg(strstr(err.msg, "holds 2 points in 2D, but the scenario has 3 points in 2D"),
                  "%s", err.msg);
    ck_assert(!file_exists("frames/frame-000000.png"));
}
END_TEST

static Suite *render_suite(void)
{
    Suite *suite = suite_create("render");
    TCase *geo = tu_tcase(suite, "geometry and colour", tu_files_setup, tu_files_teardown);
    tcase_add_test(geo, test_size);
    tcase_add_test(geo, test_horizontal_link_rows);
    tcase_add_test(geo, test_point_pixel);
    tcase_add_test(geo, test_stretch_colour);
    tcase_add_test(geo, test_tension_colour);
    tcase_add_test(geo, test_body_colour);
    tcase_add_test(geo, test_broken_link_gone);
    tcase_add_test(geo, test_bend_link_not_drawn);
    tcase_add_test(geo, test_faces_filled);
    tcase_add_test(geo, test_depth_order);
    tcase_add_test(geo, test_obstacles_drawn);
    tcase_add_test(geo, test_area_filled);
    tcase_add_test(geo, test_topology_replay);
    tcase_add_test(geo, test_cut_opens_a_gap);
    tcase_add_test(geo, test_cut_edges_outlined);
    tcase_add_test(geo, test_cut_ends_keep_radius);

    TCase *sc = tu_tcase(suite, "scenario", tu_files_setup, tu_files_teardown);
    tcase_add_test(sc, test_scenario_render_keys);
    tcase_add_test(sc, test_scenario_render_defaults);
    tcase_add_test(sc, test_scenario_render_null_timing);

    TCase *timing = tu_tcase(suite, "timing and files", tu_files_setup, tu_files_teardown);
    tcase_add_test(timing, test_interpolation_halfway);
    tcase_add_test(timing, test_every_frames);
    tcase_add_test(timing, test_stale_frames_removed);
    tcase_add_test(timing, test_fitted_camera_holds_the_run);
    tcase_add_test(timing, test_contact_sheet_size);
    tcase_add_test(timing, test_same_bytes);
    tcase_add_test(timing, test_mismatched_trajectory);
    tcase_add_test(timing, test_settled_frames_from_npy);
    return suite;
}

int main(void)
{
    return tu_run(render_suite());
}
