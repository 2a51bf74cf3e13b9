/* The drawing case of `catena bench`: 800 x 600 PNG frames of the 100 x 100 cloth, by catena's
 * renderer (render_run, as `catena render` does it) with the default options of
 * catena-scenario(5): 30 frames per simulated second, tension colours, PNG level 1. A run of
 * the cloth falling is recorded first (not timed); each repetition then draws it whole, both
 * of the renderer's passes over the trajectory, drawing, encoding and writing included.
 * Check: every frame the run should give is written. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "core/clock.h"
#include "scenario/build/build.h"
#include "render/render.h"
#include "run/run.h"

static struct scenario *cloth_scenario(long steps)
{
    struct scenario *sc = scenario_create(NULL);
    if (!sc)
        return NULL;
    struct model *m = sc->model;
    sc->output.formats = FORMAT_NPY;
    sc->output.metrics = 0;
    m->dims = 3;
    m->dt = 1.0 / 120;
    m->steps = steps;
    m->iterations = 10;
    m->order = ORDER_COLORED;
    if (bench_add_cloth(m, 100, 1.0, 2) < 0) {
        scenario_destroy(sc);
        return NULL;
    }
    return sc;
}

int bench_frames_case(const struct bench_case *c, const struct bench_options *o,
                      struct bench_result *r, struct catena_error *err)
{
    /* 2 s of fall, 60 frames; --quick: a tenth of a second, 4 frames */
    struct scenario *sc = cloth_scenario(o->quick ? 12 : 240);
    if (!sc)
        return error_set(err, CATENA_EFAIL, "%s: out of memory", c->name);
    const struct model *m = sc->model;
    const struct run_options ro = {.out_dir = o->dir};
    struct run_result rr;
    int rc = run_simulation(sc, &ro, &rr, err);
    const struct render_opts opts = render_opts_default();
    const long expected = render_frames_expected(sc, &opts);
    r->kind = BENCH_RENDER;
    r->reps = 3;
    snprintf(r->size, sizeof r->size, "%ld frames %dx%d of %zu points, %zu links", expected,
             opts.width, opts.height, m->npoints, m->nlinks);
    double t[3];
    long frames = 0;
    for (int rep = 0; rep < r->reps && rc == CATENA_OK; rep++) {
        struct render_result res;
        const double start = clock_monotonic_s();
        rc = render_run(sc, &opts, o->dir, o->dir, 0, &res, err);
        t[rep] = clock_monotonic_s() - start;
        frames = res.frames;
    }
    if (rc == CATENA_OK) {
        r->seconds = bench_median(t, r->reps);
        r->frames_per_s = (double)frames / r->seconds;
        r->ok = frames == expected && expected > 0;
        snprintf(r->check, sizeof r->check, "%ld of %ld frames written", frames, expected);
    }
    scenario_destroy(sc);
    return rc;
}
