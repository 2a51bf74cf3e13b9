/* The drawing case of `catena bench`: 800 x 600 PNG frames of the 100 x 100 cloth. catena's
 * frame renderer (render*.c) is not part of this tree yet, so the case draws what a frame
 * of the cloth costs with the parts it is made of: the rasteriser (raster.c) clears the
 * canvas and draws every structural link as an anti-aliased line coloured by its stretch
 * (viridis), png_write.c encodes the frame and writes it through outfile (fsync included).
 * Check: every frame file exists. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "build.h"
#include "colormap.h"
#include "png_write.h"
#include "raster.h"
#include "solver.h"
#include "state.h"

#define FRAMES_FULL 30
#define FRAMES_QUICK 2
#define WIDTH 800
#define HEIGHT 600

static struct model *cloth_model(void)
{
    struct model *m = model_create();
    if (!m)
        return NULL;
    m->dims = 3;
    m->dt = 1.0 / 60;
    m->iterations = 10;
    m->order = ORDER_COLORED;
    struct cloth_def d = build_cloth_def();
    d.name = "cloth";
    d.rows = d.cols = 100;
    d.dx = d.dy = 0.02;
    d.bend.on = 1;
    if (build_cloth(m, &d) < 0 || model_add_pin(m, 0, m->x0[0]) < 0 ||
        model_add_pin(m, 99, m->x0[99]) < 0) {
        model_destroy(m);
        return NULL;
    }
    return m;
}

/* One frame: the x-y view of the cloth fitted into the canvas with a margin. */
static void draw(struct raster *r, const struct model *m, const struct state *s)
{
    raster_clear(r, (struct raster_color){250, 250, 248, 255});
    double lo_x = s->x[0].x, hi_x = lo_x, lo_y = s->x[0].y, hi_y = lo_y;
    for (size_t i = 1; i < m->npoints; i++) {
        lo_x = s->x[i].x < lo_x ? s->x[i].x : lo_x;
        hi_x = s->x[i].x > hi_x ? s->x[i].x : hi_x;
        lo_y = s->x[i].y < lo_y ? s->x[i].y : lo_y;
        hi_y = s->x[i].y > hi_y ? s->x[i].y : hi_y;
    }
    const double sx = (WIDTH - 40) / (hi_x - lo_x + 1e-9),
                 sy = (HEIGHT - 40) / (hi_y - lo_y + 1e-9);
    const double k = sx < sy ? sx : sy;
    for (size_t i = 0; i < m->nlinks; i++) {
        const struct link *l = &m->links[i];
        if (l->role != ROLE_STRUCTURAL)
            continue;
        const vec3 a = s->x[l->a], b = s->x[l->b];
        const double stretch = v3_dist(a, b) / l->rest;
        const struct raster_color c = colormap_color(&colormap_viridis, (stretch - 0.99) / 0.04);
        raster_line(r, 20 + (a.x - lo_x) * k, 20 + (hi_y - a.y) * k, 20 + (b.x - lo_x) * k,
                    20 + (hi_y - b.y) * k, 1.5, RASTER_CAP_ROUND, c);
    }
}

int bench_render_case(const struct bench_case *c, const struct bench_options *o,
                      struct bench_result *r, struct catena_error *err)
{
    const long frames = o->quick ? FRAMES_QUICK : FRAMES_FULL;
    struct model *m = cloth_model();
    struct state *s = m ? state_create(m) : NULL;
    struct raster *canvas = s ? raster_create(WIDTH, HEIGHT, err) : NULL;
    if (!canvas) {
        state_destroy(s);
        model_destroy(m);
        return error_set(err, CATENA_EFAIL, "%s: out of memory", c->name);
    }
    for (int k = 0; k < 60; k++)
        solver_step(m, s);
    r->kind = BENCH_RENDER;
    r->reps = 3;
    snprintf(r->size, sizeof r->size, "%ld frames %dx%d, %zu points (raster + png_write)", frames,
             WIDTH, HEIGHT, m->npoints);
    double t[3];
    int rc = CATENA_OK, all = 1;
    for (int rep = 0; rep < r->reps && rc == CATENA_OK; rep++) {
        const double start = bench_clock();
        for (long f = 0; f < frames && rc == CATENA_OK; f++) {
            char name[32];
            snprintf(name, sizeof name, "frame-%06ld.png", f);
            draw(canvas, m, s);
            rc = png_write_raster(canvas, o->dir, name, NULL, err);
        }
        t[rep] = bench_clock() - start;
        for (long f = 0; f < frames; f++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/frame-%06ld.png", o->dir, f);
            struct stat st;
            all = all && stat(path, &st) == 0 && st.st_size > 0;
            remove(path);
        }
    }
    if (rc == CATENA_OK) {
        r->seconds = bench_median(t, r->reps);
        r->frames_per_s = (double)frames / r->seconds;
        r->ok = all;
        snprintf(r->check, sizeof r->check, "%s", all ? "every frame written" : "FRAMES MISSING");
    }
    raster_destroy(canvas);
    state_destroy(s);
    model_destroy(m);
    return rc;
}
