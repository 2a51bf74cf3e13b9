/* catena compare, positions: walks two trajectories frame by frame, pairing the frames of the
 * steps both record, and records the largest absolute and relative deviations, the first
 * value outside tolerance (numpy.isclose's test |a - b| <= atol + rtol * |b|, B the
 * reference), the point that strays furthest and, when asked, |A-B| per frame and both
 * frames where it peaks. Memory is two frames and a few numbers per point. */
#define _POSIX_C_SOURCE 200809L
#include "io/compare.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/fmt_double.h"
#include "core/range.h"

static const char *const part_names[COMPARE_NPARTS] = {"positions", "events", "topology", "status",
                                                       "metrics"};

void compare_default_options(struct compare_options *opt)
{
    *opt = (struct compare_options){
        .atol = 1e-9,
        .rtol = 1e-9,
        .step_first = 0,
        .step_last = RANGE_OPEN,
        .point_first = 0,
        .point_last = RANGE_OPEN,
        .step_tol = 0,
        .metric_atol = 1e-9,
        .metric_rtol = 1e-9,
        .parts = COMPARE_ALL,
    };
}

const char *compare_part_name(enum compare_part part)
{
    return part_names[part];
}

int compare_parse_parts(const char *option, const char *text, unsigned *parts,
                        struct catena_error *err)
{
    *parts = 0;
    for (const char *p = text;; p++) {
        const size_t n = strcspn(p, ",");
        int k = 0;
        while (k < COMPARE_NPARTS && !(strlen(part_names[k]) == n && !strncmp(p, part_names[k], n)))
            k++;
        if (k == COMPARE_NPARTS)
            return error_set(err, CATENA_EINPUT,
                             "%s: unknown part '%.*s' (valid: positions, events, topology, "
                             "status, metrics)",
                             option, (int)n, p);
        *parts |= 1u << k;
        p += n;
        if (!*p)
            return CATENA_OK;
    }
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

static int tolerance_ok(double v)
{
    return isfinite(v) && v >= 0;
}

int compare_check_options(const struct compare_options *o, struct catena_error *err)
{
    if (!tolerance_ok(o->atol) || !tolerance_ok(o->rtol) || !tolerance_ok(o->metric_atol) ||
        !tolerance_ok(o->metric_rtol))
        return error_set(err, CATENA_EINPUT,
                         "tolerances atol %g, rtol %g, metric atol %g, metric rtol %g: "
                         "expected finite numbers >= 0",
                         o->atol, o->rtol, o->metric_atol, o->metric_rtol);
    if (o->step_first < 0 || o->step_first > o->step_last)
        return error_set(err, CATENA_EINPUT, "steps %ld to %ld: not a range of steps",
                         o->step_first, o->step_last);
    if (o->point_first < 0 || o->point_first > o->point_last)
        return error_set(err, CATENA_EINPUT, "points %ld to %ld: not a range of points",
                         o->point_first, o->point_last);
    if (o->step_tol < 0)
        return error_set(err, CATENA_EINPUT, "step tolerance %ld: expected a count >= 0",
                         o->step_tol);
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
    res->npoints = ia->npoints;
    res->dims = ia->dims;
    res->by_step = ia->has_steps && ib->has_steps;
    res->steps_known = ia->has_steps || ib->has_steps;
    /* Both counts known up front (NPY): a mismatch is found without reading the data. */
    if (!res->by_step && ia->nframes >= 0 && ib->nframes >= 0 && ia->nframes != ib->nframes &&
        res->opt.step_first == 0 && res->opt.step_last == RANGE_OPEN)
        return cannot(err, "%s has %ld frames, %s has %ld", ia->path, ia->nframes, ib->path,
                      ib->nframes);
    return CATENA_OK;
}

/* One of the two trajectories while they are walked. */
struct side {
    struct traj_reader *r;
    const struct traj_info *info;
    const struct traj_frame *f; /* the current frame; NULL past the end or the step range */
    struct compare_extent *ext; /* the steps it records in the range */
};

static int next_frame(struct side *s, struct catena_error *err)
{
    return traj_read_next(s->r, &s->f, err) ? CATENA_EINPUT : CATENA_OK;
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
    struct compare_extent *e = s->ext;
    if (s->f && e) {
        if (e->frames++ == 0)
            e->first = s->f->step;
        else if (s->f->step - e->last > e->gap)
            e->gap = s->f->step - e->last;
        e->last = s->f->step;
    }
    return CATENA_OK;
}

/* Counts s's frames left in range into *only; s->f ends NULL. */
static int count_rest(struct side *s, const struct compare_options *o, size_t *only,
                      struct catena_error *err)
{
    while (s->f) {
        (*only)++;
        if (next_in_range(s, o, err))
            return CATENA_EINPUT;
    }
    return CATENA_OK;
}

/* By step: advances both sides to the next step both record (steps increase strictly in
 * both files), counting the frames passed over; both frames NULL when none is left. A
 * common step must be at the same time in both. */
static int pair_by_step(struct side *a, struct side *b, struct compare_result *res,
                        struct catena_error *err)
{
    const struct compare_options *o = &res->opt;
    if (next_in_range(a, o, err) || next_in_range(b, o, err))
        return CATENA_EINPUT;
    while (a->f && b->f && a->f->step != b->f->step) {
        struct side *behind = a->f->step < b->f->step ? a : b;
        (*(behind == a ? &res->only_a : &res->only_b))++;
        if (next_in_range(behind, o, err))
            return CATENA_EINPUT;
    }
    if (!a->f || !b->f) {
        if (count_rest(a, o, &res->only_a, err) || count_rest(b, o, &res->only_b, err))
            return CATENA_EINPUT;
        return CATENA_OK;
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

/* What the walk keeps per point compared: the largest |A-B|, where, the sum of its squares
 * over the frames and the frames where it is outside tolerance. */
struct point_stats {
    double max, sumsq;
    long step;
    size_t outside;
};

/* Records one value: the largest deviations and the first outside. Returns 1 when it is
 * outside tolerance. */
static int compare_value(struct compare_result *res, const struct traj_frame *fa, long step,
                         double time, size_t p, int k, double va, double vb, double d)
{
    double rel = vb != 0 && isfinite(vb) ? d / fabs(vb) : 0;
    int out = !within(va, vb, &res->opt);
    res->values++;
    res->outside += out;
    int first_out = out && res->outside == 1;
    if (d <= res->max_abs && rel <= res->max_rel && !first_out)
        return out;
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
    return out;
}

/* Keeps |A-B| of this frame in the series, and both frames when it is the worst so far (the
 * last of equal maxima: the last frame when A equals B). */
static int keep_frame(struct compare_result *res, const struct traj_frame *fa,
                      const struct traj_frame *fb, long step, double time, double max, double sumsq)
{
    struct compare_frame_error *s = realloc(res->series, (res->frames + 1) * sizeof *s);
    if (!s)
        return -1;
    res->series = s;
    s[res->frames] = (struct compare_frame_error){step, time, max, sqrt(sumsq / res->points)};
    if (res->frames == 0 || max >= s[res->worst_frame].max) { /* the last of equal ones */
        res->worst_frame = res->frames;
        memcpy(res->worst_a, fa->x, res->npoints * sizeof *res->worst_a);
        memcpy(res->worst_b, fb->x, res->npoints * sizeof *res->worst_b);
    }
    return 0;
}

/* Compares one pair of frames, point by point and component by component; -1 when out of
 * memory for the series. */
static int compare_frames(const struct traj_frame *fa, const struct traj_frame *fb, long step,
                          struct compare_result *res, struct point_stats *ps)
{
    double time = isnan(fa->time) ? fb->time : fa->time, fmax = 0, fsumsq = 0;
    for (size_t i = 0; i < res->points; i++) {
        const size_t p = (size_t)res->opt.point_first + i;
        double sq = 0;
        int out = 0;
        for (int k = 0; k < res->dims; k++) {
            double va = v3_comp(fa->x[p], k), vb = v3_comp(fb->x[p], k);
            double d = deviation(va, vb);
            sq += d * d;
            out |= compare_value(res, fa, step, time, p, k, va, vb, d);
        }
        const double dist = sqrt(sq);
        if (dist > ps[i].max || (ps[i].max == 0 && ps[i].step < 0)) {
            ps[i].max = dist;
            ps[i].step = step;
        }
        ps[i].sumsq += sq;
        ps[i].outside += out;
        fmax = fmax < dist ? dist : fmax;
        fsumsq += sq;
    }
    if (res->opt.keep_series && keep_frame(res, fa, fb, step, time, fmax, fsumsq))
        return -1;
    if (res->frames == 0)
        res->step_min = step;
    res->step_max = step;
    res->frames++;
    return CATENA_OK;
}

/* The point with the largest |A-B| (the first of equals), once every frame is in. */
static void find_worst_point(struct compare_result *res, const struct point_stats *ps)
{
    size_t w = 0;
    for (size_t i = 1; i < res->points; i++)
        if (ps[i].max > ps[w].max)
            w = i;
    res->worst = (struct compare_worst_point){
        .point = (size_t)res->opt.point_first + w,
        .max = ps[w].max,
        .step = ps[w].step,
        .rms = sqrt(ps[w].sumsq / (double)res->frames),
        .frames_outside = ps[w].outside,
    };
}

/* The positions' entry of res->part: the verdict in the words the other parts use. */
static void positions_part(struct compare_result *res)
{
    struct compare_part_result *p = &res->part[COMPARE_POSITIONS];
    *p = (struct compare_part_result){.compared = 1, .na = res->values, .nb = res->values};
    p->differ = res->outside + (res->extent_differs != 0);
    if (!res->outside && res->extent_differs) {
        compare_extent_sentence(p->first.what, sizeof p->first.what, res, "A", "B");
        snprintf(p->first.a, sizeof p->first.a, "steps %ld to %ld", res->extent_a.first,
                 res->extent_a.last);
        snprintf(p->first.b, sizeof p->first.b, "steps %ld to %ld", res->extent_b.first,
                 res->extent_b.last);
        p->first.step =
            res->extent_a.last < res->extent_b.last ? res->extent_a.last : res->extent_b.last;
    }
    if (!res->outside)
        return;
    const struct compare_at *at = &res->first_outside;
    compare_describe_at(p->first.what, sizeof p->first.what, res, at);
    p->first.step = at->step;
    fmt_double(p->first.a, at->a);
    fmt_double(p->first.b, at->b);
}

/* Walks both files, pair by pair. */
static int walk(struct side *sa, struct side *sb, struct compare_result *res,
                struct point_stats *ps, struct catena_error *err)
{
    for (;;) {
        int rc =
            res->by_step ? pair_by_step(sa, sb, res, err) : pair_by_index(sa, sb, &res->opt, err);
        if (rc)
            return rc;
        if (!sa->f)
            return CATENA_OK;
        if (compare_frames(sa->f, sb->f, pair_step(sa, sb), res, ps))
            return error_set(err, CATENA_EFAIL, "out of memory");
    }
}

/* Whether one trajectory stops (or starts) a whole recording interval before the other:
 * had it run on, it would have recorded the other's frame there. A run recorded every 10
 * steps that ends at step 600 and the same run recorded every 5 that ends at 605 agree; a
 * run of 380 steps and one of 400 do not. */
static void check_extent(struct compare_result *res)
{
    const struct compare_extent *a = &res->extent_a, *b = &res->extent_b;
    const long ga = a->gap > 0 ? a->gap : 1, gb = b->gap > 0 ? b->gap : 1;
    res->extent_differs = b->last >= a->last + ga     ? 'a'
                          : a->last >= b->last + gb   ? 'b'
                          : b->first <= a->first - ga ? 'A'
                          : a->first <= b->first - gb ? 'B'
                                                      : 0;
}

void compare_extent_sentence(char *buf, size_t size, const struct compare_result *res,
                             const char *na, const char *nb)
{
    const struct compare_extent *a = &res->extent_a, *b = &res->extent_b;
    const int ends = res->extent_differs == 'a' || res->extent_differs == 'b';
    const int first_is_a = res->extent_differs == 'a' || res->extent_differs == 'A';
    const struct compare_extent *s = first_is_a ? a : b, *o = first_is_a ? b : a;
    const char *ns = first_is_a ? na : nb, *no = first_is_a ? nb : na;
    if (!res->extent_differs)
        snprintf(buf, size, "%s", "");
    else if (ends)
        snprintf(buf, size, "%s ends at step %ld, %s goes on to step %ld", ns, s->last, no,
                 o->last);
    else
        snprintf(buf, size, "%s starts at step %ld, %s at step %ld", ns, s->first, no, o->first);
}

/* Nothing in common: which steps each file has in the range. */
static int nothing_in_common(const struct compare_result *res, struct catena_error *err)
{
    const struct compare_options *o = &res->opt;
    if (res->only_a && res->only_b)
        return cannot(err, "%s and %s have no step in common (%zu and %zu frames in the range)",
                      res->a, res->b, res->only_a, res->only_b);
    char range[64];
    if (o->step_last == RANGE_OPEN)
        snprintf(range, sizeof range, "%ld or later", o->step_first);
    else
        snprintf(range, sizeof range, "%ld to %ld", o->step_first, o->step_last);
    if (res->only_a || res->only_b)
        return cannot(err, "%s has no frame at steps %s", res->only_a ? res->b : res->a, range);
    return cannot(err, "neither %s nor %s has a frame at steps %s", res->a, res->b, range);
}

int compare_traj(struct traj_reader *a, struct traj_reader *b, const struct compare_options *opt,
                 struct compare_result *res, struct catena_error *err)
{
    struct side sa = {a, traj_read_info(a), NULL, NULL}, sb = {b, traj_read_info(b), NULL, NULL};
    *res = (struct compare_result){.opt = *opt};
    snprintf(res->a, sizeof res->a, "%s", sa.info->path);
    snprintf(res->b, sizeof res->b, "%s", sb.info->path);
    sa.ext = &res->extent_a;
    sb.ext = &res->extent_b;
    for (int k = COMPARE_EVENTS; k < COMPARE_NPARTS; k++)
        snprintf(res->part[k].why, sizeof res->part[k].why, "two trajectories, not two runs");
    if (compare_check_options(opt, err) || check_shapes(sa.info, sb.info, res, err))
        return CATENA_EINPUT;
    struct point_stats *ps = calloc(res->points, sizeof *ps);
    if (res->opt.keep_series) {
        res->worst_a = malloc(res->npoints * sizeof *res->worst_a);
        res->worst_b = malloc(res->npoints * sizeof *res->worst_b);
    }
    if (!ps || (res->opt.keep_series && (!res->worst_a || !res->worst_b))) {
        free(ps);
        return error_set(err, CATENA_EFAIL, "out of memory");
    }
    for (size_t i = 0; i < res->points; i++)
        ps[i].step = -1;
    int rc = walk(&sa, &sb, res, ps, err);
    if (rc == CATENA_OK && res->frames == 0)
        rc = nothing_in_common(res, err);
    if (rc == CATENA_OK)
        find_worst_point(res, ps);
    free(ps);
    if (rc)
        return rc;
    if (res->by_step)
        check_extent(res);
    positions_part(res);
    if (res->outside == 0 && !res->extent_differs)
        return CATENA_OK;
    char extent[2 * COMPARE_NAME_SIZE + 64], where[256];
    compare_extent_sentence(extent, sizeof extent, res, res->a, res->b);
    if (res->outside == 0)
        return error_set(err, CATENA_EFAIL, "%s and %s differ: %s", res->a, res->b, extent);
    compare_describe_at(where, sizeof where, res, &res->first_outside);
    return error_set(
        err, CATENA_EFAIL, "%s and %s differ: %zu of %zu values outside tolerance, first at %s%s%s",
        res->a, res->b, res->outside, res->values, where, res->extent_differs ? "; " : "", extent);
}

int compare_differs(const struct compare_result *res)
{
    for (int k = 0; k < COMPARE_NPARTS; k++)
        if (res->part[k].compared && res->part[k].differ)
            return 1;
    return 0;
}

void compare_result_free(struct compare_result *res)
{
    free(res->series);
    free(res->worst_a);
    free(res->worst_b);
    res->series = NULL;
    res->worst_a = res->worst_b = NULL;
}
