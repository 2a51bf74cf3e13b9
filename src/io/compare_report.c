/* catena compare's report, from the result struct (io/compare.h): a few lines of text per
 * part, or one JSON object for --json. */
#define _POSIX_C_SOURCE 200809L
#include "io/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/fmt_double.h"

static const char *const component_name[3] = {"x", "y", "z"};

void compare_describe_at(char *buf, size_t size, const struct compare_result *res,
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

void compare_describe_part(const struct compare_result *res, enum compare_part part, char *buf,
                           size_t size)
{
    const struct compare_part_result *p = &res->part[part];
    const struct compare_options *o = &res->opt;
    if (!p->compared) {
        snprintf(buf, size, "not compared (%s)", p->why);
        return;
    }
    if (part == COMPARE_POSITIONS) {
        char extent[96];
        compare_extent_sentence(extent, sizeof extent, res, "A", "B");
        const char *sep = res->extent_differs ? "; " : "";
        if (res->outside == 0) {
            snprintf(buf, size, "all %zu values within tolerance%s%s", res->values, sep, extent);
            return;
        }
        char where[256];
        compare_describe_at(where, sizeof where, res, &res->first_outside);
        snprintf(buf, size, "%zu of %zu values outside tolerance, first at %s: A %s, B %s%s%s",
                 res->outside, res->values, where, p->first.a, p->first.b, sep, extent);
        return;
    }
    if (p->differ) {
        snprintf(buf, size, "%zu %s, first: %s: A %s, B %s", p->differ,
                 p->differ == 1 ? "difference" : "differences", p->first.what, p->first.a,
                 p->first.b);
        return;
    }
    if (part == COMPARE_EVENTS || part == COMPARE_TOPOLOGY)
        snprintf(buf, size, "%zu %s in each, all match (steps up to %ld apart)", p->nb,
                 part == COMPARE_EVENTS ? (p->nb == 1 ? "event" : "events")
                                        : (p->nb == 1 ? "change" : "changes"),
                 o->step_tol);
    else if (part == COMPARE_STATUS)
        snprintf(buf, size, "status and steps_done the same");
    else
        snprintf(buf, size, "all %zu final metrics within |A-B| <= %g + %g*|B|", p->nb,
                 o->metric_atol, o->metric_rtol);
}

/* The place and the two values, ending a "max ..." or "outside ..." line. */
static void print_at(FILE *out, const struct compare_result *res, const struct compare_at *at)
{
    char where[256], va[FMT_DOUBLE_SIZE], vb[FMT_DOUBLE_SIZE];
    compare_describe_at(where, sizeof where, res, at);
    fmt_double(va, at->a);
    fmt_double(vb, at->b);
    fprintf(out, " at %s: A %s, B %s\n", where, va, vb);
}

/* "(steps 0 to 600, matched by step; 20 frames of A at steps B lacks)" */
static void print_frames(FILE *out, const struct compare_result *res)
{
    fprintf(out, "compared: %zu frames (%s %ld to %ld, matched by %s", res->frames,
            res->steps_known ? "steps" : "frames", res->step_min, res->step_max,
            res->by_step ? "step" : "index");
    if (res->only_a)
        fprintf(out, "; %zu of A's at steps B lacks", res->only_a);
    if (res->only_b)
        fprintf(out, "; %zu of B's at steps A lacks", res->only_b);
    fprintf(out, "), points %ld to %ld, %zu values\n", res->opt.point_first, res->opt.point_last,
            res->values);
}

/* The positions' lines: what was compared, the largest deviations, the worst point and the
 * verdict. */
static void print_positions(FILE *out, const struct compare_result *res)
{
    const struct compare_options *o = &res->opt;
    print_frames(out, res);
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
    const struct compare_worst_point *w = &res->worst;
    if (w->max > 0)
        fprintf(out,
                "worst point: %zu, %.6g m from B at %s %ld, RMS %.6g m over the frames, outside "
                "tolerance in %zu of %zu frames\n",
                w->point, w->max, res->steps_known ? "step" : "frame", w->step, w->rms,
                w->frames_outside, res->frames);
    fprintf(out, "tolerance: |A-B| <= %g + %g*|B| (numpy.isclose)\n", o->atol, o->rtol);
    if (res->extent_differs) {
        char extent[96];
        compare_extent_sentence(extent, sizeof extent, res, "A", "B");
        fprintf(out, "extent: %s\n", extent);
    }
    if (res->outside == 0) {
        fprintf(out, "within tolerance: all %zu values\n", res->values);
        return;
    }
    fprintf(out, "outside tolerance: %zu of %zu values, first", res->outside, res->values);
    print_at(out, res, &res->first_outside);
}

void compare_print(FILE *out, const struct compare_result *res)
{
    fprintf(out, "A: %s\nB: %s (reference)\n", res->a, res->b);
    if (res->part[COMPARE_POSITIONS].compared)
        print_positions(out, res);
    else
        fprintf(out, "positions: not compared (%s)\n", res->part[COMPARE_POSITIONS].why);
    for (int k = COMPARE_EVENTS; k < COMPARE_NPARTS; k++) {
        char line[1024];
        compare_describe_part(res, k, line, sizeof line);
        fprintf(out, "%s: %s\n", compare_part_name(k), line);
    }
    const struct compare_part_result *m = &res->part[COMPARE_METRICS];
    if (m->compared && m->differ && m->worst > 0)
        fprintf(out, "worst metric: %s, |A-B|/|B| = %.6g: A %s, B %s\n", m->worst_at.what, m->worst,
                m->worst_at.a, m->worst_at.b);
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

/* {"point", "max", "step", "rms", "frames_outside"} or null when A equals B. */
static cJSON *worst_json(const struct compare_result *res, int *ok)
{
    const struct compare_worst_point *w = &res->worst;
    if (!(w->max > 0))
        return cJSON_CreateNull();
    cJSON *j = cJSON_CreateObject();
    add(j, "point", cJSON_CreateNumber((double)w->point), ok);
    add(j, "max", cJSON_CreateNumber(w->max), ok);
    add(j, "step", cJSON_CreateNumber((double)w->step), ok);
    add(j, "rms", cJSON_CreateNumber(w->rms), ok);
    add(j, "frames_outside", cJSON_CreateNumber((double)w->frames_outside), ok);
    return j;
}

/* {"step" (null for none), "what", "a", "b"} */
static cJSON *diff_json(const struct compare_diff *d, int *ok)
{
    cJSON *j = cJSON_CreateObject();
    add(j, "step", d->step >= 0 ? cJSON_CreateNumber((double)d->step) : cJSON_CreateNull(), ok);
    add(j, "what", cJSON_CreateString(d->what), ok);
    add(j, "a", cJSON_CreateString(d->a), ok);
    add(j, "b", cJSON_CreateString(d->b), ok);
    return j;
}

/* One part: {"compared", "why"} when left out; else {"compared", "a", "b", "differ",
 * "first"} (and "worst" for the metrics). */
static cJSON *part_json(const struct compare_result *res, int k, int *ok)
{
    const struct compare_part_result *p = &res->part[k];
    cJSON *j = cJSON_CreateObject();
    add(j, "compared", cJSON_CreateBool(p->compared), ok);
    if (!p->compared) {
        add(j, "why", cJSON_CreateString(p->why), ok);
        return j;
    }
    add(j, "a", cJSON_CreateNumber((double)p->na), ok);
    add(j, "b", cJSON_CreateNumber((double)p->nb), ok);
    add(j, "differ", cJSON_CreateNumber((double)p->differ), ok);
    add(j, "first", p->differ ? diff_json(&p->first, ok) : cJSON_CreateNull(), ok);
    if (k == COMPARE_METRICS) {
        cJSON *w = cJSON_CreateObject();
        add(w, "value", cJSON_CreateNumber(p->worst), ok);
        add(w, "at", p->worst > 0 ? diff_json(&p->worst_at, ok) : cJSON_CreateNull(), ok);
        add(j, "worst_rel", w, ok);
    }
    return j;
}

/* The positions' keys, at the top level as before the other parts existed. */
static void positions_json(cJSON *j, const struct compare_result *res, int *ok)
{
    const struct compare_options *o = &res->opt;
    add(j, "matched_by", cJSON_CreateString(res->by_step ? "step" : "index"), ok);
    add(j, "frames", cJSON_CreateNumber((double)res->frames), ok);
    add(j, "only_a", cJSON_CreateNumber((double)res->only_a), ok);
    add(j, "only_b", cJSON_CreateNumber((double)res->only_b), ok);
    add(j, res->steps_known ? "steps" : "frame_range",
        pair_json((double)res->step_min, (double)res->step_max), ok);
    add(j, "points", pair_json((double)o->point_first, (double)o->point_last), ok);
    add(j, "dimensions", cJSON_CreateNumber(res->dims), ok);
    add(j, "values", cJSON_CreateNumber((double)res->values), ok);
    add(j, "outside", cJSON_CreateNumber((double)res->outside), ok);
    add(j, "max_abs", max_json(res, res->max_abs, &res->max_abs_at, ok), ok);
    add(j, "max_rel", max_json(res, res->max_rel, &res->max_rel_at, ok), ok);
    add(j, "first_outside", at_json(res, &res->first_outside, res->outside > 0, ok), ok);
    add(j, "worst_point", worst_json(res, ok), ok);
    char extent[96];
    compare_extent_sentence(extent, sizeof extent, res, "A", "B");
    add(j, "extent", res->extent_differs ? cJSON_CreateString(extent) : cJSON_CreateNull(), ok);
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
    add(j, "step_tol", cJSON_CreateNumber((double)o->step_tol), &ok);
    add(j, "metric_atol", cJSON_CreateNumber(o->metric_atol), &ok);
    add(j, "metric_rtol", cJSON_CreateNumber(o->metric_rtol), &ok);
    if (res->part[COMPARE_POSITIONS].compared)
        positions_json(j, res, &ok);
    add(j, "within_tolerance", cJSON_CreateBool(!compare_differs(res)), &ok);
    cJSON *parts = cJSON_CreateObject();
    for (int k = 0; k < COMPARE_NPARTS; k++)
        add(parts, compare_part_name(k), part_json(res, k, &ok), &ok);
    add(j, "parts", parts, &ok);
    if (!ok) {
        cJSON_Delete(j);
        return NULL;
    }
    return j;
}
