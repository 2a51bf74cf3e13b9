/* What the scenario's section readers share (see scenario/loader.h): the out-of-memory
 * message, the one table of point and body names, the point limit checked before anything is
 * allocated, pins with where they came from, and a few checks of keys that several sections
 * make in the same words, and Coulomb friction as obstacles and self-collision give it. */
#include "scenario/loader.h"

#include <math.h>
#include <stdlib.h>

#include "core/fmt_double.h"

/* Memory a point and a link take in the model and the state, for the size message. */
#define POINT_BYTES (2 * sizeof(vec3) + 3 * sizeof(double) + sizeof(char *) + 2 * sizeof(vec3))
#define LINK_BYTES (sizeof(struct link) + 1)

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

int loader_check_size(struct loader *ld, const char *path, long long points, long long links)
{
    if (points <= ld->max_points)
        return 0;
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double size = (double)points * (double)POINT_BYTES + (double)links * (double)LINK_BYTES;
    size_t u = 0;
    while (size >= 1024 && u + 1 < sizeof units / sizeof *units) {
        size /= 1024;
        u++;
    }
    return sjson_error(&ld->cx, path,
                       "too many points: the scenario would need %lld points, about %.3g %s of "
                       "memory (the limit is %lld point%s; --max-points changes it)",
                       points, size, units[u], ld->max_points, ld->max_points == 1 ? "" : "s");
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
    const double len = v3_len(*out);
    if (len == 0.0)
        return sjson_error(&ld->cx, sjson_path_key(p, path, key), "must not be the zero vector");
    *out = v3_scale(*out, 1.0 / len);
    return 0;
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
