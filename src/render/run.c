/* Rendering a run in two passes over its recorded trajectory. The first pass finds what the
 * frames share: the extent of everything over the whole run (so the fitted camera never
 * moves), the colour range, and the last recorded step (so the frame count). The second
 * draws frame k at step position s_k = (k / fps) / dt between the recorded steps a <= s_k < b
 * as x = x_a + (s_k - a) / (b - a) (x_b - x_a), the render interpolation of fixed-step game
 * loops, so 120 Hz physics looks smooth at 30 fps; with `every` frames are recorded steps. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/outfile.h"
#include "gfx/png_write.h"
#include "core/progress.h"
#include "render/internal.h"
#include "render/range.h"
#include "render/video.h"
#include "io/traj_read.h"

/* ---- the recorded trajectory, two frames at a time ---- */

struct source {
    struct traj_reader *rd;
    const struct model *m;
    long every;    /* output.every */
    int has_steps; /* 0: NPY, whose frame i is step i * every */
    vec3 *a, *b;   /* positions recorded at steps sa < sb */
    long sa, sb;
    int has_b;
    vec3 *v; /* (x_b - x_a) / ((sb - sa) dt); the last pair's once b is past the end */
};

static void source_close(struct source *s)
{
    traj_read_close(s->rd);
    free(s->a);
    free(s->b);
    free(s->v);
    s->rd = NULL;
    s->a = s->b = s->v = NULL;
}

/* Reads the next recorded frame into dst; *got = 0 after the last. */
static int source_read(struct source *s, vec3 *dst, long *step, int *got, struct catena_error *err)
{
    const struct traj_frame *f;
    if (traj_read_next(s->rd, &f, err))
        return CATENA_EINPUT;
    *got = f != NULL;
    if (!f)
        return CATENA_OK;
    memcpy(dst, f->x, s->m->npoints * sizeof *dst);
    *step = s->has_steps ? f->step : f->index * s->every;
    return CATENA_OK;
}

static void source_velocity(struct source *s)
{
    const double inv = 1 / ((double)(s->sb - s->sa) * s->m->dt);
    for (size_t i = 0; i < s->m->npoints; i++)
        s->v[i] = v3_scale(v3_sub(s->b[i], s->a[i]), inv);
}

static int source_open(struct source *s, const struct render_scene *sc, const char *run_dir,
                       struct catena_error *err)
{
    const struct model *m = sc->m;
    *s = (struct source){.m = m, .every = sc->every};
    if (!(s->rd = traj_read_open(run_dir, err)))
        return CATENA_EINPUT;
    const struct traj_info *in = traj_read_info(s->rd);
    if (in->npoints != m->npoints || in->dims != m->dims) {
        error_set(err, CATENA_EINPUT,
                  "%s: holds %zu points in %dD, but the scenario has %zu points in %dD", in->path,
                  in->npoints, in->dims, m->npoints, m->dims);
        source_close(s);
        return CATENA_EINPUT;
    }
    s->has_steps = in->has_steps;
    s->a = calloc(m->npoints, sizeof *s->a);
    s->b = calloc(m->npoints, sizeof *s->b);
    s->v = calloc(m->npoints, sizeof *s->v);
    if (!s->a || !s->b || !s->v) {
        source_close(s);
        return error_set(err, CATENA_EFAIL, "out of memory for the trajectory");
    }
    int got = 0;
    if (source_read(s, s->a, &s->sa, &got, err) ||
        (got && source_read(s, s->b, &s->sb, &s->has_b, err))) {
        source_close(s);
        return CATENA_EINPUT;
    }
    if (!got) {
        error_set(err, CATENA_EINPUT, "%s: no frames to draw", in->path);
        source_close(s);
        return CATENA_EINPUT;
    }
    if (s->has_b)
        source_velocity(s);
    return CATENA_OK;
}

/* Moves on until sa <= step < sb, or a is the last recorded frame. */
static int source_seek(struct source *s, double step, struct catena_error *err)
{
    while (s->has_b && (double)s->sb <= step) {
        vec3 *t = s->a;
        s->a = s->b;
        s->b = t;
        s->sa = s->sb;
        if (source_read(s, s->b, &s->sb, &s->has_b, err))
            return CATENA_EINPUT;
        if (s->has_b)
            source_velocity(s);
    }
    return CATENA_OK;
}

/* ---- frame timing ---- */

static long frame_count(const struct render_opts *o, const struct model *m, long last)
{
    if (o->every > 0)
        return last / o->every + 1;
    /* the tolerance keeps a frame that lands on the last step within rounding */
    return (long)floor((double)last * m->dt * o->fps + 1e-6) + 1;
}

long render_frames_expected(const struct scenario *scn, const struct render_opts *o)
{
    const struct model *m = scn->model;
    const long every = scn->output.every;
    return frame_count(o, m, every > 0 ? m->steps / every * every : 0);
}

/* The step position of frame k, and its time (s). */
static double frame_step(const struct render_opts *o, const struct model *m, long k, double *time)
{
    if (o->every > 0) {
        *time = (double)(k * o->every) * m->dt;
        return (double)(k * o->every);
    }
    *time = (double)k / o->fps;
    return *time / m->dt;
}

/* ---- pass 1: extent, colour range, length ---- */

struct scan {
    struct render_box box;
    vec3 lo, hi;                /* world bounding box of the points */
    struct render_range values; /* every value drawn, over all recorded steps */
    long last;                  /* last recorded step */
};

/* Adds recorded frame a to the extent, and its values to the colour range when a frame is
 * drawn from it (so the range costs no more than the frames, however often steps were
 * recorded); *next is the first frame not yet accounted for. */
static void scan_frame(const struct render_scene *sc, const struct source *s, struct scan *sn,
                       long *next)
{
    const struct model *m = sc->m;
    const struct render_camera *c = &sc->cam;
    const enum render_color_by by = sc->o->color_by;
    for (size_t i = 0; i < m->npoints; i++) {
        const double r = sc->topo.radius[i]; /* drawn at least its own size, as it is now */
        if (!sc->point_used[i] || !v3_isfinite(s->a[i]))
            continue;
        const vec3 x = s->a[i];
        render_box_add(&sn->box, render_camera_u(c, x), render_camera_v(c, x), r);
        sn->lo = v3(x.x < sn->lo.x ? x.x : sn->lo.x, x.y < sn->lo.y ? x.y : sn->lo.y,
                    x.z < sn->lo.z ? x.z : sn->lo.z);
        sn->hi = v3(x.x > sn->hi.x ? x.x : sn->hi.x, x.y > sn->hi.y ? x.y : sn->hi.y,
                    x.z > sn->hi.z ? x.z : sn->hi.z);
    }
    double t;
    const int drawn = !s->has_b || frame_step(sc->o, m, *next, &t) < (double)s->sb;
    while (s->has_b && frame_step(sc->o, m, *next, &t) < (double)s->sb)
        ++*next;
    sn->last = s->sa;
    if (!drawn)
        return;
    if (by == RENDER_BY_SPEED) {
        for (size_t i = 0; i < m->npoints; i++)
            if (sc->point_used[i])
                render_range_add(&sn->values, v3_len(s->v[i]));
    } else if (by != RENDER_BY_NONE) {
        for (size_t i = 0; i < m->nlinks; i++)
            if (m->links[i].role != ROLE_BEND && sc->topo.alive[i])
                render_range_add(&sn->values, render_link_value(sc, i, s->a, s->v));
    }
}

/* The percentiles the default colour range spans. */
#define RENDER_RANGE_LO 0.02
#define RENDER_RANGE_HI 0.98

static int scan_run(struct render_scene *sc, const char *run_dir, struct scan *sn,
                    struct catena_error *err)
{
    struct source s;
    sn->box = render_box_empty();
    sn->lo = v3(INFINITY, INFINITY, INFINITY);
    sn->hi = v3(-INFINITY, -INFINITY, -INFINITY);
    render_range_init(&sn->values, sc->o->color_by == RENDER_BY_STRETCH ? 1 : 0);
    sn->last = 0;
    if (render_scene_rewind(sc, run_dir, err) || source_open(&s, sc, run_dir, err))
        return err->code;
    int rc = CATENA_OK;
    long next = 0;
    for (;;) {
        if ((rc = render_scene_advance(sc, (double)s.sa, err)))
            break;
        scan_frame(sc, &s, sn, &next);
        if (!s.has_b || (rc = source_seek(&s, (double)s.sb, err)))
            break;
    }
    source_close(&s);
    return rc;
}

/* The colour range: the options', else the run's robust one (speeds from 0), widened when
 * (nearly) flat so the map stays defined and a resting chain shows the middle colour. */
static void set_range(struct render_scene *sc, const struct scan *sn)
{
    const struct render_opts *o = sc->o;
    if (o->has_range) {
        sc->lo = o->range_lo;
        sc->hi = o->range_hi;
        return;
    }
    double lo = sn->values.offset, hi = lo;
    render_range_get(&sn->values, RENDER_RANGE_LO, RENDER_RANGE_HI, &lo, &hi);
    if (o->color_by == RENDER_BY_SPEED)
        lo = 0;
    const double span = 1e-6 * fmax(1, fmax(fabs(lo), fabs(hi)));
    if (hi - lo < span) {
        const double mid = 0.5 * (lo + hi);
        lo = mid - 0.5 * span;
        hi = mid + 0.5 * span;
    }
    sc->lo = lo;
    sc->hi = hi;
}

static void set_camera(struct render_scene *sc, const struct scan *sn)
{
    const struct render_opts *o = sc->o;
    render_overlay_layout(sc);
    if (o->has_view) {
        render_camera_view(&sc->cam, o->view_center, o->view_width);
        return;
    }
    const double pad = (o->point_world ? 0 : o->point_radius) + o->line_width + 4;
    struct render_box box = sn->box;
    render_obstacles_frame(sc, &box);
    render_camera_fit(&sc->cam, &box, sc->ov.fit, pad);
}

/* ---- pass 2: frames ---- */

/* Removes DIR/frame-NNNNNN.png left by an earlier render, so frames/ holds one sequence. */
static int remove_stale_frames(const char *dir, struct catena_error *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return CATENA_OK;
    int rc = CATENA_OK;
    for (struct dirent *e; rc == CATENA_OK && (e = readdir(d));) {
        const char *n = e->d_name;
        if (strncmp(n, "frame-", 6) != 0 || strspn(n + 6, "0123456789") < 6 ||
            strcmp(n + 6 + strspn(n + 6, "0123456789"), ".png") != 0)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, n);
        if (unlink(path) != 0)
            rc = error_set(err, CATENA_EFAIL, "%s: cannot remove an old frame", path);
    }
    closedir(d);
    return rc;
}

struct job {
    struct render_scene *sc;
    struct raster *r;
    struct render_sheet *sheet;
    int ntiles;
    vec3 *x; /* [npoints] interpolated positions */
    char *frames_dir;
    const char *video_path;     /* NULL: PNG files in frames_dir */
    struct render_video *video; /* ffmpeg, while the frames are piped to it */
    int video_failed;           /* a frame could not be piped */
    long nframes, last;
};

static void interpolate(const struct source *s, double step, vec3 *x)
{
    const double alpha = s->has_b ? (step - (double)s->sa) / (double)(s->sb - s->sa) : 0;
    if (alpha == 0) {
        memcpy(x, s->a, s->m->npoints * sizeof *x);
        return;
    }
    for (size_t i = 0; i < s->m->npoints; i++)
        x[i] = v3_add(s->a[i], v3_scale(v3_sub(s->b[i], s->a[i]), alpha));
}

/* Frame k: to ffmpeg, or to frames/frame-NNNNNN.png. */
static int emit_frame(struct job *j, const struct png_write_opts *po, long k,
                      struct catena_error *err)
{
    if (j->video) {
        const int rc = render_video_frame(j->video, j->r, err);
        j->video_failed = rc != CATENA_OK;
        return rc;
    }
    char name[32];
    snprintf(name, sizeof name, "frame-%06ld.png", k);
    return png_write_raster(j->r, j->frames_dir, name, po, err);
}

static int draw_frames(struct job *j, const char *run_dir, int progress, struct catena_error *err)
{
    const struct render_opts *o = j->sc->o;
    const struct model *m = j->sc->m;
    struct png_write_opts po = png_write_defaults();
    struct progress pg;
    struct source s = {0};
    int rc = render_scene_rewind(j->sc, run_dir, err), tile = 0;
    if (rc == CATENA_OK)
        rc = source_open(&s, j->sc, run_dir, err);
    po.level = o->level;
    po.nosync = 1; /* an fsync per frame took 2 to 3 times as long as drawing and encoding it */
    if (progress) {
        progress_start(&pg, stderr, j->nframes, clock_monotonic_s());
        pg.unit = "frame";
    }
    for (long k = 0; rc == CATENA_OK && k < j->nframes; k++) {
        struct render_frame f = {.x = j->x, .v = s.v};
        f.step = fmin(frame_step(o, m, k, &f.time), (double)j->last);
        if ((rc = source_seek(&s, f.step, err)) || (rc = render_scene_advance(j->sc, f.step, err)))
            break;
        interpolate(&s, f.step, j->x);
        render_scene_draw(j->sc, j->r, &f);
        rc = emit_frame(j, &po, k, err);
        while (rc == CATENA_OK && j->sheet && tile < j->ntiles &&
               render_sheet_frame(tile, j->ntiles, j->nframes) == k) {
            char label[48];
            snprintf(label, sizeof label, "t=%.3g s", f.time);
            render_sheet_add(j->sheet, tile++, j->r, label);
        }
        if (progress)
            progress_update(&pg, k + 1, clock_monotonic_s());
    }
    if (progress)
        progress_end(&pg);
    if (s.rd)
        source_close(&s);
    return rc;
}

static int setup_job(struct job *j, const struct scenario *scn, const struct render_opts *o,
                     const char *run_dir, const char *out_dir, struct catena_error *err)
{
    const struct model *m = scn->model;
    if (!(j->sc = render_scene_create(scn, o, err)))
        return err->code;
    struct scan sn;
    if (scan_run(j->sc, run_dir, &sn, err))
        return err->code;
    set_range(j->sc, &sn);
    j->sc->world_lo = sn.lo;
    j->sc->world_hi = sn.hi;
    set_camera(j->sc, &sn);
    j->last = sn.last;
    j->nframes = frame_count(o, m, sn.last);
    j->ntiles = (int)(o->sheet.frames < j->nframes ? o->sheet.frames : j->nframes);
    const size_t n = strlen(out_dir) + sizeof "/frames";
    if (!(j->frames_dir = malloc(n)) || !(j->x = calloc(m->npoints ? m->npoints : 1, sizeof *j->x)))
        return error_set(err, CATENA_EFAIL, "out of memory");
    snprintf(j->frames_dir, n, "%s/frames", out_dir);
    if (!(j->r = raster_create(o->width, o->height, err)))
        return err->code;
    if (o->sheet.enabled &&
        !(j->sheet = render_sheet_create(&o->sheet, j->ntiles, o->width, o->height, err)))
        return err->code;
    if (j->video_path) /* the frames go to ffmpeg; out_dir is for the contact sheet */
        return o->sheet.enabled ? outfile_mkdirs(out_dir, err) : CATENA_OK;
    if (outfile_mkdirs(j->frames_dir, err) || remove_stale_frames(j->frames_dir, err))
        return err->code;
    return CATENA_OK;
}

/* The video's frame rate: fps, or with `every` the recorded steps played in real time. */
static double video_fps(const struct render_opts *o, const struct model *m)
{
    return o->every > 0 ? 1 / ((double)o->every * m->dt) : o->fps;
}

/* render_run and render_run_video: video NULL draws PNG frames. */
static int render(const struct scenario *scn, const struct render_opts *o, const char *run_dir,
                  const char *out_dir, const char *video, int progress, struct render_result *res,
                  struct catena_error *err)
{
    const double start = clock_monotonic_s();
    struct job j = {.video_path = video};
    error_clear(err);
    *res = (struct render_result){0};
    int rc = video ? render_video_check(video, err) : CATENA_OK;
    if (rc == CATENA_OK)
        rc = setup_job(&j, scn, o, run_dir, out_dir, err);
    if (rc == CATENA_OK && video &&
        !(j.video = render_video_open(video, o->width, o->height, video_fps(o, scn->model), err)))
        rc = err->code;
    if (rc == CATENA_OK)
        rc = draw_frames(&j, run_dir, progress, err);
    /* after a frame ffmpeg did not take, close says how ffmpeg ended; after another error
     * there is nothing to keep */
    if (j.video && (rc == CATENA_OK || j.video_failed))
        rc = render_video_close(j.video, err);
    else
        render_video_abort(j.video);
    if (rc == CATENA_OK && j.sheet)
        rc = render_sheet_write(j.sheet, out_dir, o->level, err);
    if (rc == CATENA_OK)
        res->frames = j.nframes;
    res->wall_s = clock_monotonic_s() - start;
    render_sheet_destroy(j.sheet);
    raster_destroy(j.r);
    free(j.x);
    free(j.frames_dir);
    render_scene_destroy(j.sc);
    return rc;
}

int render_run(const struct scenario *scn, const struct render_opts *o, const char *run_dir,
               const char *out_dir, int progress, struct render_result *res,
               struct catena_error *err)
{
    return render(scn, o, run_dir, out_dir, NULL, progress, res, err);
}

int render_run_video(const struct scenario *scn, const struct render_opts *o, const char *run_dir,
                     const char *video, const char *out_dir, int progress,
                     struct render_result *res, struct catena_error *err)
{
    return render(scn, o, run_dir, out_dir, video, progress, res, err);
}
