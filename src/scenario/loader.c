/* What the scenario's section readers share (see scenario/loader.h): the out-of-memory
 * message, the one table of point and body names, the point limit checked before anything is
 * allocated, pins with where they came from, and a few checks of keys that several sections
 * make in the same words, and Coulomb friction as obstacles and self-collision give it. */
#include "scenario/loader.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/fmt_double.h"
#include "core/memory.h"
#include "scenario/output.h"
#include "scenario/render_opts.h"

/* What a load and a run need, in bytes, per element and once. The model's arrays are counted
 * from their types; a run adds, per point, the state's positions, previous positions and
 * velocities (solver/state.c) and, per link, the state's alive flag and XPBD multiplier and
 * the batched kernel's gathered rest lengths, stiffnesses, inverse masses and indices
 * (solver/batch/). The resident peak of `catena run` is held within 25 % of loader_memory
 * by tests/check_memory.c, on ropes, cloths and a scenario of points listed one by one. */
#define MODEL_POINT_BYTES (2 * sizeof(vec3) + 3 * sizeof(double) + sizeof(char *))
#define RUN_POINT_BYTES (3 * sizeof(vec3))
#define RUN_LINK_BYTES (1 + sizeof(double))
#define BATCH_LINK_BYTES (4 * sizeof(double) + sizeof(uint32_t))
/* The colouring's link keys, adjacency and order while it is made (measured: 58 bytes a link
 * on a rope of 400 000 links). */
#define COLOR_LINK_BYTES 56
/* solver.global (solver/direct/): a link's arrays, counted (3D: direction, multipliers, the
 * fixed matrix's link, its share of the tree factors, ...), and a point's, the rest of the 649
 * bytes a point and link measured on a rope of 400 000 links (peak resident set with and
 * without it). The factor of a body with loops is not in it: its size is known only after the
 * symbolic analysis, which solver.global_limit bounds (catena-scenario(5)). */
#define DIRECT_LINK_BYTES 332
#define DIRECT_POINT_BYTES 317
/* The program itself, its libraries and the C library's arenas, measured (a run of one
 * point peaks at 3 MiB). */
#define BASE_BYTES (3.0 * 1024 * 1024)
/* cJSON keeps the effective scenario as text through a run (provenance.json): printed with
 * tabs and newlines, about this many times the file. */
#define PRINTED_TEXT_FACTOR 1.3

int loader_oom(struct loader *ld)
{
    return error_set(ld->cx.err, CATENA_EFAIL, "%s: out of memory", ld->cx.label);
}

int loader_add_name(struct loader *ld, const char *path, const char *name, enum sref_kind kind,
                    size_t index)
{
    struct sref_entry taken;
    const int r = sref_add(ld->names, name, kind, index, &taken);
    if (r < 0)
        return loader_oom(ld);
    if (r == 0)
        return 0;
    const char *what = kind == SREF_POINT ? "point" : "body";
    char shown[SJSON_SHOW_SIZE];
    sjson_show(shown, name);
    const char *holder = taken.kind == SREF_POINT ? "points" : "bodies";
    if (taken.kind == kind)
        return sjson_error(&ld->cx, path, "duplicate %s name \"%s\" (also %s[%zu])", what, shown,
                           holder, taken.index);
    return sjson_error(&ld->cx, path, "\"%s\" is already the name of %s[%zu]", shown, holder,
                       taken.index);
}

/* Drawing frames (render/run.c): two recorded frames, the velocities between them and the
 * frame drawn, per point; an RGBA canvas, and the contact sheet's (tiles of the frame's
 * shape, columns across its width). */
static double render_bytes(const struct render_opts *o, double points)
{
    const double canvas = 4.0 * o->width * o->height;
    double sheet = 0.0;
    if (o->sheet.enabled) {
        const double w = o->sheet.width > 0 ? o->sheet.width : o->width;
        const double rows = ceil((double)o->sheet.frames / o->sheet.columns);
        sheet = 4.0 * w * (rows * (w / o->sheet.columns) * o->height / o->width);
    }
    return points * 4.0 * (double)sizeof(vec3) + canvas + sheet;
}

/* Per link, what a run adds for the solver's options: the batched kernel's gathered arrays,
 * the colouring's tables with order "colored" (solver/color.c), and solver.global's arrays
 * (solver/direct/). */
static double run_link_bytes(const struct model *m)
{
    return (double)RUN_LINK_BYTES + (m->kernel == KERNEL_BATCHED ? BATCH_LINK_BYTES : 0.0) +
           (m->order == ORDER_COLORED ? COLOR_LINK_BYTES : 0.0) +
           (m->global ? DIRECT_LINK_BYTES : 0.0);
}

double loader_memory(const struct loader *ld, double points, double links, double faces)
{
    const double model = points * (double)MODEL_POINT_BYTES + links * (double)sizeof(struct link) +
                         faces * (double)sizeof(struct face);
    const double point_bytes = (double)RUN_POINT_BYTES + (ld->m->global ? DIRECT_POINT_BYTES : 0.0);
    double run =
        points * point_bytes + links * run_link_bytes(ld->m) + PRINTED_TEXT_FACTOR * ld->text_bytes;
    if (ld->out->render)
        run += render_bytes(ld->out->render, points);
    const double load = ld->text_bytes + ld->tree_bytes;
    return BASE_BYTES + model + (run > load ? run : load);
}

/* "about 1.2 GiB of memory (N points, M links)" for the refusals. */
static void need_text(const struct loader *ld, long long points, long long links, char *buf,
                      size_t size)
{
    char need[32];
    memory_format(need,
                  loader_memory(ld, (double)points, (double)links, (double)ld->planned_faces));
    snprintf(buf, size, "about %s of memory (%lld points, %lld links)", need, points, links);
}

int loader_check_size(struct loader *ld, const char *path, long long points, long long links,
                      long long faces)
{
    ld->planned_points = points;
    ld->planned_links += links;
    ld->planned_faces += faces;
    if (ld->points_expected > 0 && points > ld->points_expected)
        return sjson_error(&ld->cx, path,
                           "the scenario would make %lld points or more, but the trajectory "
                           "of its run holds %lld: not the run of this scenario",
                           points, ld->points_expected);
    if (points <= ld->max_points)
        return 0;
    char bytes[32];
    memory_format(bytes, loader_memory(ld, (double)points, (double)ld->planned_links,
                                       (double)ld->planned_faces));
    return sjson_error(&ld->cx, path,
                       "too many points: the scenario would need %lld points, about %s of memory "
                       "(the limit is %lld point%s; --max-points changes it)",
                       points, bytes, ld->max_points, ld->max_points == 1 ? "" : "s");
}

int loader_check_memory(struct loader *ld, const char *path)
{
    const cJSON *links = sjson_child(ld->root, "links");
    const long long built = (long long)ld->m->npoints,
                    points = ld->planned_points > built ? ld->planned_points : built,
                    nlinks =
                        ld->planned_links + (cJSON_IsArray(links) ? cJSON_GetArraySize(links) : 0);
    if (ld->max_memory <= 0 || loader_memory(ld, (double)points, (double)nlinks,
                                             (double)ld->planned_faces) <= ld->max_memory)
        return 0;
    char need[128], limit[32];
    need_text(ld, points, nlinks, need, sizeof need);
    return sjson_error(&ld->cx, path,
                       "the scenario would need %s, more than the limit of %s (--max-memory, "
                       "by default the machine's memory)",
                       need, memory_format(limit, ld->max_memory));
}

int loader_add_pin(struct loader *ld, uint32_t point, vec3 at, long body, size_t entry)
{
    if (ld->m->npins == ld->origin_cap) {
        const size_t cap = ld->origin_cap ? 2 * ld->origin_cap : 16;
        struct pin_origin *o = realloc(ld->origins, cap * sizeof *o);
        if (!o)
            return loader_oom(ld);
        ld->origins = o;
        ld->origin_cap = cap;
    }
    ld->origins[ld->m->npins] = (struct pin_origin){.body = body, .entry = entry};
    return model_add_pin(ld->m, point, at) < 0 ? loader_oom(ld) : 0;
}

int loader_direction(struct loader *ld, const cJSON *e, const char *path, const char *key,
                     vec3 *out)
{
    char p[SJSON_PATH_MAX];
    if (sjson_get_vector(&ld->cx, e, path, key, ld->m->dims, out))
        return CATENA_EINPUT;
    if (v3_unit(*out, out))
        return sjson_error(&ld->cx, sjson_path_key(p, path, key), "must not be the zero vector");
    return 0;
}

int loader_magnitude(struct loader *ld, const char *path, vec3 v)
{
    if (isfinite(v3_dot(v, v)))
        return 0;
    return sjson_error(&ld->cx, path,
                       "its length overflows (components must stay below about 1e154 in "
                       "magnitude)");
}

int loader_frequency(struct loader *ld, const char *path, double f)
{
    const double run = ld->m->dt * (double)(ld->m->steps > 0 ? ld->m->steps : 1);
    if (isfinite(6.283185307179586 * f * run))
        return 0;
    return sjson_error(&ld->cx, path,
                       "%g Hz is too high: the phase 2 pi f t overflows within the run's %g s", f,
                       run);
}

int loader_refuse(struct loader *ld, const cJSON *e, const char *path, const char *key,
                  const char *why)
{
    char p[SJSON_PATH_MAX];
    if (!sjson_child(e, key))
        return 0;
    return sjson_error(&ld->cx, sjson_path_key(p, path, key), "%s", why);
}

int loader_get_bool(struct loader *ld, const cJSON *obj, const char *path, const char *key,
                    int *out)
{
    char p[SJSON_PATH_MAX];
    const cJSON *it = sjson_child(obj, key);
    if (!it)
        return 0;
    if (!cJSON_IsBool(it))
        return sjson_error(&ld->cx, sjson_path_key(p, path, key), "expected true or false, got %s",
                           sjson_type_name(it));
    *out = cJSON_IsTrue(it);
    return 0;
}

int loader_either(struct loader *ld, const cJSON *e, const char *path, const char *a, const char *b)
{
    char p[SJSON_PATH_MAX];
    if (sjson_child(e, a) && sjson_child(e, b))
        return sjson_error(&ld->cx, sjson_path_key(p, path, b),
                           "give either \"%s\" or \"%s\", not both", a, b);
    return 0;
}

/* Times within this fraction of a step of a step boundary count as on it, so that 0.5 s at
 * dt = 1/120 is step 60 even when 0.5 / (1/120) rounds to 60.000000000000007. */
#define STEP_SLACK 1e-6

long loader_time_step(const struct loader *ld, double t)
{
    const double q = t / ld->m->dt;
    return q > (double)SCENARIO_MAX_COUNT ? (long)SCENARIO_MAX_COUNT : (long)ceil(q - STEP_SLACK);
}

// clang-format off
const struct sjson_key scenario_friction_keys[] = {
    {"static", 1},
    {"dynamic", 1},
    {NULL, 0},
};
// clang-format on

int loader_friction(struct loader *ld, const cJSON *e, const char *path, const char *key,
                    struct friction *out)
{
    const cJSON *f = sjson_child(e, key);
    char p[SJSON_PATH_MAX];
    if (!f)
        return 0;
    sjson_path_key(p, path, key);
    if (cJSON_IsNumber(f)) {
        if (sjson_number(&ld->cx, f, p, &SJSON_NONNEG, &out->stat))
            return CATENA_EINPUT;
        out->dyn = out->stat;
        return 0;
    }
    if (!cJSON_IsObject(f))
        return sjson_error(&ld->cx, p,
                           "expected a number or an object {\"static\", \"dynamic\"}, got %s",
                           sjson_type_name(f));
    struct friction r;
    if (sjson_check_object(&ld->cx, f, p, scenario_friction_keys) ||
        sjson_get_number(&ld->cx, f, p, "static", &SJSON_NONNEG, &r.stat) ||
        sjson_get_number(&ld->cx, f, p, "dynamic", &SJSON_NONNEG, &r.dyn))
        return CATENA_EINPUT;
    if (r.dyn > r.stat) {
        char pd[SJSON_PATH_MAX], d[FMT_DOUBLE_SIZE], st[FMT_DOUBLE_SIZE];
        fmt_double(d, r.dyn);
        fmt_double(st, r.stat);
        return sjson_error(&ld->cx, sjson_path_key(pd, p, "dynamic"),
                           "must not exceed \"static\", %s (got %s)", st, d);
    }
    *out = r;
    return 0;
}
