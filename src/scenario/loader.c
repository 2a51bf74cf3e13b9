/* What the scenario's section readers share (see scenario/loader.h): the out-of-memory
 * message, the one table of point and body names, the point limit checked before anything is
 * allocated, pins with where they came from, and a few checks of keys that several sections
 * make in the same words. */
#include "scenario/loader.h"

#include <math.h>
#include <stdlib.h>

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
