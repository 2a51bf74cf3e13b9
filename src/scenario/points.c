/* The scenario's points[] and links[] (catena-scenario(5)): points given one by one, which
 * come first in the global numbering (points[i] is point i), and links between any two
 * points, named by index, name or "body.k". Links are read after the pins, so that an
 * "auto" rest length measures the positions the pins hold its points at; their physics
 * (compliance, kind, break_force) is scenario/constraints.c's. */
#include <string.h>

#include "scenario/loader.h"

// clang-format off
const struct sjson_key scenario_point_keys[] = {
    {"name", 0},
    {"p", 1},
    {"v", 0},
    {"mass", 1},
    {"radius", 0},
    {NULL, 0},
};
const struct sjson_key scenario_link_keys[] = {
    {"a", 1},
    {"b", 1},
    {"rest", 0},
    {"stiffness", 0},
    {"break_stretch", 0},
    {"compliance", 0},
    {"EA", 0},
    {"kind", 0},
    {"break_force", 0},
    {NULL, 0},
};
// clang-format on

static int read_point(struct loader *ld, const cJSON *e, const char *path)
{
    const char *name = NULL;
    vec3 p = v3(0, 0, 0), v = v3(0, 0, 0);
    double mass = 0, radius = 0;
    char np[SJSON_PATH_MAX], shown[SJSON_SHOW_SIZE];
    if (sjson_check_object(&ld->cx, e, path, scenario_point_keys) ||
        sjson_get_string(&ld->cx, e, path, "name", &name) ||
        sjson_get_vector(&ld->cx, e, path, "p", ld->m->dims, &p) ||
        sjson_get_vector(&ld->cx, e, path, "v", ld->m->dims, &v) ||
        sjson_get_number(&ld->cx, e, path, "mass", &SJSON_NONNEG, &mass) ||
        sjson_get_number(&ld->cx, e, path, "radius", &SJSON_NONNEG, &radius))
        return CATENA_EINPUT;
    sjson_path_key(np, path, "name");
    if (name && !*name)
        return sjson_error(&ld->cx, np, "must not be empty");
    if (name && strchr(name, '.'))
        return sjson_error(&ld->cx, np,
                           "\"%s\" contains '.', which is reserved for body points (\"rope.3\")",
                           sjson_show(shown, name));
    const long i = model_add_point(ld->m, p, v, mass, radius, name);
    if (i < 0)
        return loader_oom(ld);
    return name ? loader_add_name(ld, np, ld->m->point_name[i], SREF_POINT, (size_t)i) : 0;
}

int scenario_read_points(struct loader *ld)
{
    const cJSON *points;
    if (sjson_array(&ld->cx, ld->root, "", "points", &points))
        return CATENA_EINPUT;
    if (!points)
        return 0;
    if (loader_check_size(ld, "points", cJSON_GetArraySize(points), 0, 0))
        return CATENA_EINPUT;
    size_t i = 0;
    for (const cJSON *e = points->child; e; e = e->next, i++) {
        char p[SJSON_PATH_MAX];
        if (read_point(ld, e, sjson_path_index(p, "points", i)))
            return CATENA_EINPUT;
    }
    ld->points_listed = ld->m->npoints;
    return 0;
}

/* rest: a number > 0, or "auto" (the default) for the initial distance. */
static int read_rest(struct loader *ld, const cJSON *e, const char *path, uint32_t a, uint32_t b,
                     double *rest)
{
    char p[SJSON_PATH_MAX], shown[SJSON_SHOW_SIZE];
    const cJSON *r = sjson_child(e, "rest");
    sjson_path_key(p, path, "rest");
    if (cJSON_IsNumber(r))
        return sjson_number(&ld->cx, r, p, &SJSON_POSITIVE, rest);
    if (r && !(cJSON_IsString(r) && strcmp(r->valuestring, "auto") == 0)) {
        if (cJSON_IsString(r))
            return sjson_error(&ld->cx, p, "expected a number or \"auto\", got \"%s\"",
                               sjson_show(shown, r->valuestring));
        return sjson_error(&ld->cx, p, "expected a number or \"auto\", got %s", sjson_type_name(r));
    }
    *rest = v3_dist(ld->m->x0[a], ld->m->x0[b]);
    if (*rest > 0)
        return 0;
    char da[300], db[300];
    sref_describe(ld->m, a, da, sizeof da);
    sref_describe(ld->m, b, db, sizeof db);
    return sjson_error(&ld->cx, p,
                       "\"auto\" gives 0: %s and %s start at the same position (give the rest "
                       "length)",
                       da, db);
}

static int read_link(struct loader *ld, const cJSON *e, const char *path)
{
    char pa[SJSON_PATH_MAX], pb[SJSON_PATH_MAX], what[300];
    uint32_t a = 0, b = 0;
    double rest = 0, stiffness = 1.0, break_stretch = 0.0;
    if (sjson_check_object(&ld->cx, e, path, scenario_link_keys) ||
        sref_resolve(ld->names, ld->m, &ld->cx, sjson_child(e, "a"), sjson_path_key(pa, path, "a"),
                     &a) ||
        sref_resolve(ld->names, ld->m, &ld->cx, sjson_child(e, "b"), sjson_path_key(pb, path, "b"),
                     &b))
        return CATENA_EINPUT;
    if (a == b)
        return sjson_error(&ld->cx, pb, "%s is also \"a\" (a link joins two different points)",
                           sref_describe(ld->m, b, what, sizeof what));
    if (read_rest(ld, e, path, a, b, &rest) ||
        sjson_get_number(&ld->cx, e, path, "stiffness", &SJSON_UNIT, &stiffness) ||
        sjson_get_number(&ld->cx, e, path, "break_stretch", &SJSON_ABOVE_ONE, &break_stretch))
        return CATENA_EINPUT;
    const long l = model_add_link(ld->m, a, b, rest);
    if (l < 0)
        return loader_oom(ld);
    ld->m->links[l].stiffness = stiffness;
    ld->m->links[l].break_stretch = break_stretch;
    return 0;
}

int scenario_read_links(struct loader *ld)
{
    const cJSON *links;
    if (sjson_array(&ld->cx, ld->root, "", "links", &links))
        return CATENA_EINPUT;
    size_t i = 0;
    ld->links_first = ld->links_end = ld->m->nlinks;
    for (const cJSON *e = links ? links->child : NULL; e; e = e->next, i++) {
        char p[SJSON_PATH_MAX];
        const int rc = read_link(ld, e, sjson_path_index(p, "links", i));
        if (rc)
            return rc;
        ld->links_end = ld->m->nlinks;
    }
    return 0;
}
