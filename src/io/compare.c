/* catena compare: walks two trajectories frame by frame and records the largest absolute
 * and relative deviations and the first value outside tolerance, with numpy.isclose's test
 * |a - b| <= atol + rtol * |b| (B is the reference). Memory is two frames. */
#define _POSIX_C_SOURCE 200809L
#include "io/compare.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/fmt_double.h"

static const char *const component_name[3] = {"x", "y", "z"};

void compare_default_options(struct compare_options *opt)
{
    *opt = (struct compare_options){
        .atol = 1e-9,
        .rtol = 1e-9,
        .step_first = 0,
        .step_last = LONG_MAX,
        .point_first = 0,
        .point_last = LONG_MAX,
    };
}

static int cannot(struct catena_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int cannot(struct catena_error *err, const char *fmt, ...)
{
    char msg[1900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return error_set(err, CATENA_EINPUT, "cannot compare: %s", msg);
}

static int check_options(const struct compare_options *o, struct catena_error *err)
{
    if (!isfinite(o->atol) || o->atol < 0)
        return error_set(err, CATENA_EINPUT, "atol %g: expected a finite number >= 0", o->atol);
    if (!isfinite(o->rtol) || o->rtol < 0)
        return error_set(err, CATENA_EINPUT, "rtol %g: expected a finite number >= 0", o->rtol);
    if (o->step_first < 0 || o->step_first > o->step_last)
        return error_set(err, CATENA_EINPUT, "steps %ld to %ld: not a range of steps",
                         o->step_first, o->step_last);
    if (o->point_first < 0 || o->point_first > o->point_last)
        return error_set(err, CATENA_EINPUT, "points %ld to %ld: not a range of points",
                         o->point_first, o->point_last);
    return CATENA_OK;
}

/* Dimensions, point counts and the point range agree; fills the result's frame. */
static int check_shapes(const struct traj_info *ia, const struct traj_info *ib,
                        struct compare_result *res, struct catena_error *err)
{
    if (ia->dims != ib->dims)
        return cannot(err, "%s is %dD, %s is %dD", ia->path, ia->dims, ib->path, ib->dims);
    if (ia->npoints != ib->npoints)
        return cannot(err, "%s has %zu points, %s has %zu", ia->path, ia->npoints, ib->path,
                      ib->npoints);
    if ((size_t)res->opt.point_first >= ia->npoints)
        return cannot(err, "point %ld does not exist (the trajectories have %zu points, 0 to %zu)",
                      res->opt.point_first, ia->npoints, ia->npoints - 1);
    if ((size_t)res->opt.point_last >= ia->npoints)
        res->opt.point_last = (long)ia->npoints - 1;
    res->points = (size_t)(res->opt.point_last - res->opt.point_first + 1);
    res->dims = ia->dims;
    res->by_step = ia->has_steps && ib->has_steps;
    res->steps_known = ia->has_steps || ib->has_steps;
    /* Both counts known up front (NPY): a mismatch is found without reading the data. */
    if (!res->by_step && ia->nframes >= 0 && ib->nframes >= 0 && ia->nframes != ib->nframes &&
        res->opt.step_first == 0 && res->opt.step_last == LONG_MAX)
        return cannot(err, "%s has %ld frames, %s has %ld", ia->path, ia->nframes, ib->path,
                      ib->nframes);
    return CATENA_OK;
}

/* One of the two trajectories while they are walked. */
struct side {
    struct traj_reader *r;
    const struct traj_info *info;
    const struct traj_frame *f; /* the current frame; NULL past the end or the step range */
    long last_step;             /* step of the last frame read; -1 before the first */
};

static int next_frame(struct side *s, struct catena_error *err)
{
    if (traj_read_next(s->r, &s->f, err))
        return CATENA_EINPUT;
    if (s->f)
        s->last_step = s->f->step;
    return CATENA_OK;
}

/* The next frame whose step is in range (frames before it are skipped), or NULL. */
static int next_in_range(struct side *s, const struct compare_options *o, struct catena_error *err)
{
    do {
        if (next_frame(s, err))
            return CATENA_EINPUT;
    } while (s->f && s->f->step < o->step_first);
    if (s->f && s->f->step > o->step_last)
        s->f = NULL;
    return CATENA_OK;
}

/* By step: the next two frames in range, which must have the same step and time. Steps
 * increase strictly in both files and all earlier pairs matched, so the smaller of two
 * different steps is missing from the other file. */
static int pair_by_step(struct side *a, struct side *b, const struct compare_options *o,
                        struct catena_error *err)
{
    if (next_in_range(a, o, err) || next_in_range(b, o, err))
        return CATENA_EINPUT;
    if (!a->f && !b->f)
        return CATENA_OK;
    if (!a->f || !b->f) {
        struct side *end = a->f ? b : a, *more = a->f ? a : b;
        if (end->info->nframes < 0) /* stopped by the range, not by the end of its file */
            return cannot(err, "step %ld is in %s but not in %s", more->f->step, more->info->path,
                          end->info->path);
        return cannot(err, "%s ends at step %ld (%ld frames), %s goes on to step %ld",
                      end->info->path, end->last_step, end->info->nframes, more->info->path,
                      more->f->step);
    }
    if (a->f->step != b->f->step) {
        struct side *has = a->f->step < b->f->step ? a : b, *lacks = has == a ? b : a;
        return cannot(err, "step %ld is in %s but not in %s", has->f->step, has->info->path,
                      lacks->info->path);
    }
    double ta = a->f->time, tb = b->f->time;
    if (!isnan(ta) && !isnan(tb) && !(fabs(ta - tb) <= o->atol + o->rtol * fabs(tb))) {
        char sa[FMT_DOUBLE_SIZE], sb[FMT_DOUBLE_SIZE];
        fmt_double(sa, ta);
        fmt_double(sb, tb);
        return cannot(err, "step %ld is at time %s in %s but %s in %s", a->f->step, sa,
                      a->info->path, sb, b->info->path);
    }
    return CATENA_OK;
}

/* The step that names a pair matched by index: from the file that stores steps, else the
 * frame index. */
static long pair_step(const struct side *a, const struct side *b)
{
    return a->info->has_steps ? a->f->step : b->f->step;
}

/* By index: the next two frames in range, which must both exist. On a mismatch the longer
 * file is read to its end, to say how many frames each has. */
static int pair_by_index(struct side *a, struct side *b, const struct compare_options *o,
                         struct catena_error *err)
{
    for (;;) {
        if (next_frame(a, err) || next_frame(b, err))
            return CATENA_EINPUT;
        if (a->f && b->f) {
            long step = pair_step(a, b);
            if (step > o->step_last)
                a->f = b->f = NULL;
            if (step > o->step_last || step >= o->step_first)
                return CATENA_OK;
            continue;
        }
        if (!a->f && !b->f)
            return CATENA_OK;
        struct side *more = a->f ? a : b;
        do {
            if (next_frame(more, err))
                return CATENA_EINPUT;
        } while (more->f);
        return cannot(err, "%s has %ld frames, %s has %ld", a->info->path, a->info->nframes,
                      b->info->path, b->info->nframes);
    }
}

/* Equal, or both NaN: a file always compares equal to itself, diverged runs included. */
static int same(double a, double b)
{
    return a == b || (isnan(a) && isnan(b));
}

/* |a - b|, with a NaN against a number, or infinities that differ, infinitely far apart. */
static double deviation(double a, double b)
{
    if (same(a, b))
        return 0;
    double d = fabs(a - b);
    return isnan(d) ? INFINITY : d;
}

/* numpy.isclose(a, b, rtol, atol, equal_nan=True). */
static int within(double a, double b, const struct compare_options *o)
{
    if (same(a, b))
        return 1;
    if (!isfinite(a) || !isfinite(b))
        return 0;
    return fabs(a - b) <= o->atol + o->rtol * fabs(b);
}

/* Compares one pair of frames, point by point and component by component. */
static void compare_frames(const struct traj_frame *fa, const struct traj_frame *fb, long step,
                           struct compare_result *res)
{
    double time = isnan(fa->time) ? fb->time : fa->time;
    if (res->frames == 0)
        res->step_min = step;
    res->step_max = step;
    res->frames++;
    for (size_t p = (size_t)res->opt.point_first; p <= (size_t)res->opt.point_last; p++) {
        for (int k = 0; k < res->dims; k++) {
            double va = v3_comp(fa->x[p], k), vb = v3_comp(fb->x[p], k);
            double d = deviation(va, vb);
            double rel = vb != 0 && isfinite(vb) ? d / fabs(vb) : 0;
            int out = !within(va, vb, &res->opt);
            res->values++;
            res->outside += out;
            int first_out = out && res->outside == 1;
            if (d <= res->max_abs && rel <= res->max_rel && !first_out)
                continue;
            struct compare_at at = {fa->index, step, time, p, k, va, vb};
            if (d > res->max_abs) {
                res->max_abs = d;
                res->max_abs_at = at;
            }
            if (rel > res->max_rel) {
                res->max_rel = rel;
                res->max_rel_at = at;
            }
            if (first_out)
                res->first_outside = at;
        }
    }
}

/* "step 40 (t = 0.4 s), point 12, y" */
static void describe_at(char *buf, size_t size, const struct compare_result *res,
                        const struct compare_at *at)
{
    char t[FMT_DOUBLE_SIZE + 16] = "";
    if (!isnan(at->time)) {
        char num[FMT_DOUBLE_SIZE];
        fmt_double(num, at->time);
        snprintf(t, sizeof t, " (t = %s s)", num);
    }
    snprintf(buf, size, "%s %ld%s, point %zu, %s", res->steps_known ? "step" : "frame", at->step, t,
             at->point, component_name[at->component]);
}

int compare_traj(struct traj_reader *a, struct traj_reader *b, const struct compare_options *opt,
                 struct compare_result *res, struct catena_error *err)
{
    struct side sa = {a, traj_read_info(a), NULL, -1}, sb = {b, traj_read_info(b), NULL, -1};
    *res = (struct compare_result){.a = sa.info->path, .b = sb.info->path, .opt = *opt};
    if (check_options(opt, err) || check_shapes(sa.info, sb.info, res, err))
        return CATENA_EINPUT;
    for (;;) {
        int rc = res->by_step ? pair_by_step(&sa, &sb, &res->opt, err)
                              : pair_by_index(&sa, &sb, &res->opt, err);
        if (rc)
            return rc;
        if (!sa.f)
            break;
        compare_frames(sa.f, sb.f, pair_step(&sa, &sb), res);
    }
    if (res->frames == 0) {
        char range[64];
        if (opt->step_last == LONG_MAX)
            snprintf(range, sizeof range, "%ld or later", opt->step_first);
        else
            snprintf(range, sizeof range, "%ld to %ld", opt->step_first, opt->step_last);
        return cannot(err, "neither %s nor %s has a frame at steps %s", sa.info->path,
                      sb.info->path, range);
    }
    if (res->outside == 0)
        return CATENA_OK;
    char where[256];
    describe_at(where, sizeof where, res, &res->first_outside);
    return error_set(err, CATENA_EFAIL,
                     "%s and %s differ: %zu of %zu values outside tolerance, first at %s",
                     sa.info->path, sb.info->path, res->outside, res->values, where);
}

/* The place and the two values, ending a "max ..." or "outside ..." line. */
static void print_at(FILE *out, const struct compare_result *res, const struct compare_at *at)
{
    char where[256], va[FMT_DOUBLE_SIZE], vb[FMT_DOUBLE_SIZE];
    describe_at(where, sizeof where, res, at);
    fmt_double(va, at->a);
    fmt_double(vb, at->b);
    fprintf(out, " at %s: A %s, B %s\n", where, va, vb);
}

void compare_print(FILE *out, const struct compare_result *res)
{
    const struct compare_options *o = &res->opt;
    fprintf(out, "A: %s\nB: %s (reference)\n", res->a, res->b);
    fprintf(out, "compared: %zu frames (%s %ld to %ld, matched by %s), points %ld to %ld, ",
            res->frames, res->steps_known ? "steps" : "frames", res->step_min, res->step_max,
            res->by_step ? "step" : "index", o->point_first, o->point_last);
    fprintf(out, "%zu values\n", res->values);
    fprintf(out, "max |A-B|: %.6g", res->max_abs);
    if (res->max_abs > 0)
        print_at(out, res, &res->max_abs_at);
    else
        fputc('\n', out);
    fprintf(out, "max |A-B|/|B|: %.6g", res->max_rel);
    if (res->max_rel > 0)
        print_at(out, res, &res->max_rel_at);
    else
        fputc('\n', out);
    fprintf(out, "tolerance: |A-B| <= %g + %g*|B| (numpy.isclose)\n", o->atol, o->rtol);
    if (res->outside == 0) {
        fprintf(out, "within tolerance: all %zu values\n", res->values);
        return;
    }
    fprintf(out, "outside tolerance: %zu of %zu values, first", res->outside, res->values);
    print_at(out, res, &res->first_outside);
}

/* Adds item to obj, or clears *ok (and frees item) when either is missing: cJSON's
 * constructors return NULL when out of memory. */
static void add(cJSON *obj, const char *key, cJSON *item, int *ok)
{
    if (!obj || !item || !cJSON_AddItemToObject(obj, key, item)) {
        cJSON_Delete(item);
        *ok = 0;
    }
}

/* {"frame", "step", "time", "point", "component", "a", "b"}; null when there is no place.
 * JSON has no NaN or infinity: cJSON writes those as null. */
static cJSON *at_json(const struct compare_result *res, const struct compare_at *at, int valid,
                      int *ok)
{
    if (!valid)
        return cJSON_CreateNull();
    cJSON *j = cJSON_CreateObject();
    add(j, "frame", cJSON_CreateNumber((double)at->frame), ok);
    add(j, "step", res->steps_known ? cJSON_CreateNumber((double)at->step) : cJSON_CreateNull(),
        ok);
    add(j, "time", cJSON_CreateNumber(at->time), ok);
    add(j, "point", cJSON_CreateNumber((double)at->point), ok);
    add(j, "component", cJSON_CreateString(component_name[at->component]), ok);
    add(j, "a", cJSON_CreateNumber(at->a), ok);
    add(j, "b", cJSON_CreateNumber(at->b), ok);
    return j;
}

/* {"value": v, "at": place or null} */
static cJSON *max_json(const struct compare_result *res, double v, const struct compare_at *at,
                       int *ok)
{
    cJSON *j = cJSON_CreateObject();
    add(j, "value", cJSON_CreateNumber(v), ok);
    add(j, "at", at_json(res, at, v > 0, ok), ok);
    return j;
}

static cJSON *pair_json(double first, double last)
{
    double v[2] = {first, last};
    return cJSON_CreateDoubleArray(v, 2);
}

cJSON *compare_to_json(const struct compare_result *res)
{
    const struct compare_options *o = &res->opt;
    int ok = 1;
    cJSON *j = cJSON_CreateObject();
    add(j, "a", cJSON_CreateString(res->a), &ok);
    add(j, "b", cJSON_CreateString(res->b), &ok);
    add(j, "atol", cJSON_CreateNumber(o->atol), &ok);
    add(j, "rtol", cJSON_CreateNumber(o->rtol), &ok);
    add(j, "matched_by", cJSON_CreateString(res->by_step ? "step" : "index"), &ok);
    add(j, "frames", cJSON_CreateNumber((double)res->frames), &ok);
    add(j, res->steps_known ? "steps" : "frame_range",
        pair_json((double)res->step_min, (double)res->step_max), &ok);
    add(j, "points", pair_json((double)o->point_first, (double)o->point_last), &ok);
    add(j, "dimensions", cJSON_CreateNumber(res->dims), &ok);
    add(j, "values", cJSON_CreateNumber((double)res->values), &ok);
    add(j, "outside", cJSON_CreateNumber((double)res->outside), &ok);
    add(j, "within_tolerance", cJSON_CreateBool(res->outside == 0), &ok);
    add(j, "max_abs", max_json(res, res->max_abs, &res->max_abs_at, &ok), &ok);
    add(j, "max_rel", max_json(res, res->max_rel, &res->max_rel_at, &ok), &ok);
    add(j, "first_outside", at_json(res, &res->first_outside, res->outside > 0, &ok), &ok);
    if (!ok) {
        cJSON_Delete(j);
        return NULL;
    }
    return j;
}
