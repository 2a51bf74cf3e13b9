/* compare --plot (analysis/compare_plot.h): the figure, its titles and the |A-B| chart over
 * time; the shapes panel is analysis/compare_plot_shapes.c. */
#define _POSIX_C_SOURCE 200809L
#include "analysis/compare_plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/compare_plot_internal.h"
#include "core/fmt_double.h"
#include "core/path.h"
#include "gfx/chart.h"
#include "gfx/png_write.h"
#include "io/run_file.h"
#include "io/topology.h"
#include "scenario/scenario.h"

const struct raster_color compare_plot_ink = {40, 40, 40, 255};
const struct raster_color compare_plot_a = {31, 119, 180, 255};    /* tab10 blue */
const struct raster_color compare_plot_b = {255, 127, 14, 255};    /* tab10 orange */
const struct raster_color compare_plot_worst = {214, 39, 40, 255}; /* tab10 red */

enum {
    FIG_W = 960,
    HEAD_H = 80, /* the lines naming A and B, and the verdict */
    ERR_H = 360, /* |A-B| over time */
    SHAPE_H = 600,
    TEXT_SCALE = 2,
};

/* "t = 1.58 s" or "" when the time is not known. */
static void time_text(char *buf, size_t size, double t)
{
    char num[FMT_DOUBLE_SIZE];
    if (isnan(t)) {
        buf[0] = '\0';
        return;
    }
    snprintf(num, sizeof num, "%.4g", t);
    snprintf(buf, size, " (t = %s s)", num);
}

void compare_plot_frame_name(char *buf, size_t size, const struct compare_result *res)
{
    const struct compare_frame_error *w = &res->series[res->worst_frame];
    char t[48];
    time_text(t, sizeof t, w->time);
    snprintf(buf, size, "%s %ld%s", res->steps_known ? "step" : "frame", w->step, t);
}

/* The two lines that name A and B, in their colours. */
static void draw_head(struct raster *r, const struct compare_result *res)
{
    static const struct raster_color none = {0, 0, 0, 0};
    char line[COMPARE_NAME_SIZE + 32];
    snprintf(line, sizeof line, "A: %s", res->a);
    raster_text(r, 16, 8, line, TEXT_SCALE, compare_plot_a, none);
    snprintf(line, sizeof line, "B: %s (reference)", res->b);
    raster_text(r, 16, 8 + 22, line, TEXT_SCALE, compare_plot_b, none);
    size_t n = (size_t)snprintf(line, sizeof line, "%s", compare_differs(res) ? "differ in" : "");
    for (int k = 0; k < COMPARE_NPARTS && n < sizeof line; k++) {
        const struct compare_part_result *p = &res->part[k];
        if (!p->compared || !p->differ)
            continue;
        n += (size_t)snprintf(line + n, sizeof line - n, "%s %s", n > 9 ? "," : "",
                              compare_part_name(k));
        if (k == COMPARE_POSITIONS && res->outside && n < sizeof line)
            n += (size_t)snprintf(line + n, sizeof line - n, " (%zu of %zu values)", res->outside,
                                  res->values);
    }
    if (!compare_differs(res))
        snprintf(line, sizeof line, "within tolerance: |A-B| <= %g + %g*|B|", res->opt.atol,
                 res->opt.rtol);
    raster_text(r, 16, 8 + 44, line, TEXT_SCALE,
                compare_differs(res) ? compare_plot_worst : compare_plot_ink, none);
}

/* |A-B| per common frame: the largest over the points and the root mean square. Times on
 * the x axis when both files store them, else steps (or frame indices). */
static void draw_errors(struct raster *r, const struct compare_result *res, int top)
{
    const size_t n = res->frames;
    double *x = malloc(n * sizeof *x), *ymax = malloc(n * sizeof *ymax),
           *yrms = malloc(n * sizeof *yrms);
    int times = 1;
    for (size_t i = 0; i < n; i++)
        times &= !isnan(res->series[i].time);
    for (size_t i = 0; x && ymax && yrms && i < n; i++) {
        const struct compare_frame_error *s = &res->series[i];
        x[i] = times ? s->time : (double)s->step;
        ymax[i] = s->max;
        yrms[i] = s->rms;
    }
    char title[512];
    if (res->worst.max > 0)
        snprintf(title, sizeof title,
                 "|A-B| over %zu common frames; largest %.3g m, point %zu, %s %ld", n,
                 res->worst.max, res->worst.point, res->steps_known ? "step" : "frame",
                 res->worst.step);
    else
        snprintf(title, sizeof title, "|A-B| over %zu common frames: A and B are the same", n);
    const struct chart_series series[2] = {
        {"max over the points", x, ymax, n, compare_plot_worst, n <= 60},
        {"RMS over the points", x, yrms, n, compare_plot_a, n <= 60},
    };
    const struct chart ch = {
        .title = title,
        .x = {.title = times              ? "time (s)"
                       : res->steps_known ? "step"
                                          : "frame"},
        .y = {.title = "|A-B| (m)"},
        .series = series,
        .nseries = x && ymax && yrms ? 2 : 0,
        .text_scale = TEXT_SCALE,
    };
    chart_draw(r, 0, top, FIG_W, ERR_H, &ch);
    free(x);
    free(ymax);
    free(yrms);
}

/* The links live at `step` in run_dir's scenario (replaying topology.csv), when it matches
 * the trajectories; none otherwise: the picture is still worth drawing without them. */
static void load_links(const char *run_dir, const struct compare_result *res, long step,
                       struct compare_plot_links *links)
{
    struct catena_error e;
    char *path = NULL;
    *links = (struct compare_plot_links){0};
    if (!run_dir || run_file_find(run_dir, "scenario.json", &path, &e) || !path)
        return;
    struct scenario *sc = scenario_load(path, NULL, 0, &e);
    free(path);
    const struct model *m = sc ? sc->model : NULL;
    struct topology t;
    if (!m || m->npoints != res->npoints || topology_open(&t, m, run_dir, &e)) {
        scenario_destroy(sc);
        return;
    }
    if (topology_advance(&t, (double)step, &e) == CATENA_OK &&
        (links->ab = malloc((m->nlinks ? m->nlinks : 1) * sizeof *links->ab)))
        for (size_t i = 0; i < m->nlinks; i++)
            if (t.alive[i] && t.links[i].a < res->npoints && t.links[i].b < res->npoints) {
                links->ab[links->n][0] = t.links[i].a;
                links->ab[links->n++][1] = t.links[i].b;
            }
    topology_close(&t);
    scenario_destroy(sc);
}

int compare_plot_write(const struct compare_result *res, const char *run_dir, const char *file,
                       struct catena_error *err)
{
    if (!res->series || !res->worst_a || !res->frames)
        return error_set(err, CATENA_EFAIL, "%s: nothing to draw (no frames compared)", file);
    struct raster *r = raster_create(FIG_W, HEAD_H + ERR_H + SHAPE_H, err);
    if (!r)
        return err->code;
    raster_clear(r, (struct raster_color){255, 255, 255, 255});
    draw_head(r, res);
    draw_errors(r, res, HEAD_H);
    struct compare_plot_links links;
    load_links(run_dir, res, res->series[res->worst_frame].step, &links);
    compare_plot_shapes(r, res, &links, 0, HEAD_H + ERR_H, FIG_W, SHAPE_H, TEXT_SCALE);
    free(links.ab);
    char *dir = path_dir(file);
    int rc = dir ? png_write_raster(r, dir, path_base(file), NULL, err)
                 : error_set(err, CATENA_EFAIL, "out of memory");
    free(dir);
    raster_destroy(r);
    return rc;
}
