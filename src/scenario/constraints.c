/* Scenario sections of the constraint families (catena-scenario(5)): the links' compliance,
 * EA, kind and break_force, and the top-level angles[], areas[], shapes[] and attachments[].
 * Read after links[], so every point and body exists and links[i] is the model's link
 * first + i. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/fmt_double.h"
#include "core/spell.h"
#include "scenario/loader.h"

static const double DEG = 3.14159265358979323846 / 180.0;

// clang-format off
static const struct sjson_key angle_keys[] = {
    {"a", 1},
    {"b", 1},
    {"c", 1},
    {"min", 0},
    {"max", 0},
    {"stiffness", 0},
    {"compliance", 0},
    {NULL, 0},
};
static const struct sjson_key area_keys[] = {
    {"points", 1},
    {"pressure", 0},
    {"stiffness", 0},
    {"compliance", 0},
    {NULL, 0},
};
static const struct sjson_key shape_keys[] = {
    {"points", 0},
    {"body", 0},
    {"stiffness", 0},
    {NULL, 0},
};
static const struct sjson_key attachment_keys[] = {
    {"a", 1},
    {"b", 1},
    {"stiffness", 0},
    {"compliance", 0},
    {NULL, 0},
};
// clang-format on

static const char *const kind_names[] = {"distance", "tether", NULL}; /* enum link_kind */

/* links[i]: compliance or EA (alpha = rest / EA), kind, break_force. */
static int read_link_physics(struct loader *ld, const cJSON *e, const char *path, struct link *l)
{
    char p[SJSON_PATH_MAX];
    int kind = LINK_DISTANCE;
    double ea = 0;
    if (sjson_get_number(&ld->cx, e, path, "compliance", &SJSON_NONNEG, &l->compliance) ||
        sjson_get_number(&ld->cx, e, path, "EA", &SJSON_POSITIVE, &ea) ||
        sjson_get_enum(&ld->cx, e, path, "kind", kind_names, &kind) ||
        sjson_get_number(&ld->cx, e, path, "break_force", &SJSON_POSITIVE, &l->break_force))
        return CATENA_EINPUT;
    if (ea > 0 && sjson_child(e, "compliance"))
        return sjson_error(&ld->cx, sjson_path_key(p, path, "EA"),
                           "give either \"compliance\" or \"EA\", not both");
    if (ea > 0)
        l->compliance = l->rest / ea;
    l->kind = (uint8_t)kind;
    if (l->break_force > 0 && ld->m->method != METHOD_XPBD && l->compliance == 0)
        return sjson_error(&ld->cx, sjson_path_key(p, path, "break_force"),
                           "needs \"compliance\" or \"EA\" with method \"%s\", which measures "
                           "the tension as stretch / compliance (or use method \"xpbd\")",
                           model_method_name(ld->m->method));
    return 0;
}

static int read_links_physics(struct loader *ld)
{
    const cJSON *links = sjson_child(ld->root, "links");
    const size_t first = ld->m->nlinks - (size_t)cJSON_GetArraySize(links);
    size_t i = 0;
    for (const cJSON *e = links ? links->child : NULL; e; e = e->next, i++) {
        char p[SJSON_PATH_MAX];
        if (read_link_physics(ld, e, sjson_path_index(p, "links", i), &ld->m->links[first + i]))
            return CATENA_EINPUT;
    }
    return 0;
}

/* Point references a, b (and c) of one entry; all different. */
static int read_refs(struct loader *ld, const cJSON *e, const char *path, const char *const *keys,
                     size_t n, uint32_t *out)
{
    char p[SJSON_PATH_MAX], what[300];
    for (size_t k = 0; k < n; k++) {
        sjson_path_key(p, path, keys[k]);
        if (sref_resolve(ld->names, ld->m, &ld->cx, sjson_child(e, keys[k]), p, &out[k]))
            return CATENA_EINPUT;
        for (size_t j = 0; j < k; j++)
            if (out[j] == out[k])
                return sjson_error(&ld->cx, p, "%s is also \"%s\" (the points must differ)",
                                   sref_describe(ld->m, out[k], what, sizeof what), keys[j]);
    }
    return 0;
}

struct list_entry {
    uint32_t point, pos;
};

static int cmp_list_entry(const void *pa, const void *pb)
{
    const struct list_entry *a = pa, *b = pb;
    if (a->point != b->point)
        return a->point < b->point ? -1 : 1;
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* The first point listed twice: *at the later position, *was the earlier; 0 when none. */
static int find_repeat(const uint32_t *pts, size_t n, size_t *at, size_t *was,
                       struct list_entry *tmp)
{
    for (size_t i = 0; i < n; i++)
        tmp[i] = (struct list_entry){.point = pts[i], .pos = (uint32_t)i};
    qsort(tmp, n, sizeof *tmp, cmp_list_entry);
    *at = n;
    for (size_t i = 1; i < n; i++)
        if (tmp[i].point == tmp[i - 1].point && tmp[i].pos < *at) {
            *at = tmp[i].pos;
            *was = tmp[i - 1].pos;
        }
    return *at < n;
}

/* e.points: an array of at least `least` distinct point references, into a new array. */
static int read_point_list(struct loader *ld, const cJSON *e, const char *path, size_t least,
                           uint32_t **out, size_t *n)
{
    char p[SJSON_PATH_MAX], pi[SJSON_PATH_MAX], what[300];
    const cJSON *arr;
    *out = NULL;
    if (sjson_array(&ld->cx, e, path, "points", &arr))
        return CATENA_EINPUT;
    sjson_path_key(p, path, "points");
    *n = (size_t)cJSON_GetArraySize(arr);
    if (*n < least)
        return sjson_error(&ld->cx, p, "needs at least %zu points (got %zu)", least, *n);
    uint32_t *pts = malloc(*n * sizeof *pts);
    struct list_entry *tmp = malloc(*n * sizeof *tmp);
    if (!pts || !tmp) {
        free(pts);
        free(tmp);
        return loader_oom(ld);
    }
    size_t i = 0, at = 0, was = 0;
    int rc = 0;
    for (const cJSON *it = arr->child; it && !rc; it = it->next, i++)
        rc = sref_resolve(ld->names, ld->m, &ld->cx, it, sjson_path_index(pi, p, i), &pts[i]);
    if (!rc && find_repeat(pts, *n, &at, &was, tmp))
        rc = sjson_error(&ld->cx, sjson_path_index(pi, p, at), "%s is already %s[%zu]",
                         sref_describe(ld->m, pts[at], what, sizeof what), p, was);
    free(tmp);
    if (rc) {
        free(pts);
        return rc;
    }
    *out = pts;
    return 0;
}

/* The entries of top-level array `key`, each read by fn. */
static int read_array(struct loader *ld, const char *key,
                      int (*fn)(struct loader *, const cJSON *, const char *))
{
    const cJSON *arr;
    if (sjson_array(&ld->cx, ld->root, "", key, &arr))
        return CATENA_EINPUT;
    size_t i = 0;
    for (const cJSON *e = arr ? arr->child : NULL; e; e = e->next, i++) {
        char p[SJSON_PATH_MAX];
        const int rc = fn(ld, e, sjson_path_index(p, key, i));
        if (rc)
            return rc;
    }
    return 0;
}

/* Degrees in the file, radians in the model: 2D a signed turn in [-180, 180], 3D a cone
 * angle in [0, 180]. */
static int read_angle(struct loader *ld, const cJSON *e, const char *path)
{
    static const char *const keys[] = {"a", "b", "c"};
    const int flat = ld->m->dims == 2;
    const struct sjson_range range = {flat ? -180 : 0, 180, 0, 0};
    char p[SJSON_PATH_MAX], lo_s[FMT_DOUBLE_SIZE], hi_s[FMT_DOUBLE_SIZE];
    uint32_t pt[3];
    double lo = range.lo, hi = 180, stiffness = 1, compliance = 0;
    if (sjson_check_object(&ld->cx, e, path, angle_keys) || read_refs(ld, e, path, keys, 3, pt) ||
        sjson_get_number(&ld->cx, e, path, "min", &range, &lo) ||
        sjson_get_number(&ld->cx, e, path, "max", &range, &hi) ||
        sjson_get_number(&ld->cx, e, path, "stiffness", &SJSON_UNIT, &stiffness) ||
        sjson_get_number(&ld->cx, e, path, "compliance", &SJSON_NONNEG, &compliance))
        return CATENA_EINPUT;
    if (hi < lo) {
        fmt_double(lo_s, lo);
        fmt_double(hi_s, hi);
        return sjson_error(&ld->cx, sjson_path_key(p, path, "max"),
                           "must be at least \"min\", %s (got %s)", lo_s, hi_s);
    }
    const long i = model_add_angle(ld->m, pt[0], pt[1], pt[2], lo * DEG, hi * DEG);
    if (i < 0)
        return loader_oom(ld);
    ld->m->angles[i].stiffness = stiffness;
    ld->m->angles[i].compliance = compliance;
    return 0;
}

static int read_area(struct loader *ld, const cJSON *e, const char *path)
{
    char p[SJSON_PATH_MAX];
    uint32_t *pts = NULL;
    size_t n = 0;
    double pressure = 1, stiffness = 1, compliance = 0;
    if (ld->m->dims != 2)
        return sjson_error(&ld->cx, path, "areas are 2D polygons (this scenario has 3 dimensions)");
    if (sjson_check_object(&ld->cx, e, path, area_keys) ||
        sjson_get_number(&ld->cx, e, path, "pressure", &SJSON_POSITIVE, &pressure) ||
        sjson_get_number(&ld->cx, e, path, "stiffness", &SJSON_UNIT, &stiffness) ||
        sjson_get_number(&ld->cx, e, path, "compliance", &SJSON_NONNEG, &compliance) ||
        read_point_list(ld, e, path, 3, &pts, &n))
        return CATENA_EINPUT;
    const long i = model_add_area(ld->m, pts, n);
    free(pts);
    if (i < 0)
        return loader_oom(ld);
    struct area *ar = &ld->m->areas[i];
    double perimeter = 0;
    for (size_t k = 0; k < n; k++)
        perimeter += v3_dist(ld->m->x0[ld->m->area_index[ar->first + k]],
                             ld->m->x0[ld->m->area_index[ar->first + (k + 1) % n]]);
    /* Below 1e-12 of the perimeter squared the polygon is a line up to rounding. */
    if (fabs(ar->rest) <= 1e-12 * perimeter * perimeter)
        return sjson_error(&ld->cx, sjson_path_key(p, path, "points"),
                           "the polygon encloses no area at the start (list its points in order "
                           "around it)");
    ar->pressure = pressure;
    ar->stiffness = stiffness;
    ar->compliance = compliance;
    return 0;
}

/* shapes[i].body: every point of the named body. */
static int body_points(struct loader *ld, const cJSON *e, const char *path, uint32_t **pts,
                       size_t *n)
{
    char p[SJSON_PATH_MAX];
    const char *name = NULL;
    sjson_path_key(p, path, "body");
    if (sjson_get_string(&ld->cx, e, path, "body", &name))
        return CATENA_EINPUT;
    const struct sref_entry *en = sref_find(ld->names, name, strlen(name));
    char shown[SJSON_SHOW_SIZE];
    sjson_show(shown, name);
    if (!en || en->kind != SREF_BODY) {
        for (size_t b = 0; b < ld->m->nbodies; b++)
            if (spell_is_close(name, ld->m->bodies[b].name))
                return sjson_error(&ld->cx, p, "there is no body \"%s\" (did you mean \"%s\"?)",
                                   shown, ld->m->bodies[b].name);
        return sjson_error(&ld->cx, p, "there is no body \"%s\"", shown);
    }
    const struct body *b = &ld->m->bodies[en->index];
    if (b->npoints < 2)
        return sjson_error(&ld->cx, p, "body \"%s\" has %u point (a shape needs at least 2)", shown,
                           b->npoints);
    if (!(*pts = malloc(b->npoints * sizeof **pts)))
        return loader_oom(ld);
    for (uint32_t k = 0; k < b->npoints; k++)
        (*pts)[k] = b->first_point + k;
    *n = b->npoints;
    return 0;
}

static int read_shape(struct loader *ld, const cJSON *e, const char *path)
{
    uint32_t *pts = NULL;
    size_t n = 0;
    double stiffness = 1;
    if (sjson_check_object(&ld->cx, e, path, shape_keys) ||
        sjson_get_number(&ld->cx, e, path, "stiffness", &SJSON_UNIT, &stiffness))
        return CATENA_EINPUT;
    const int has_points = sjson_child(e, "points") != NULL,
              has_body = sjson_child(e, "body") != NULL;
    if (has_points == has_body)
        return sjson_error(&ld->cx, path, "give either \"points\" or \"body\"%s",
                           has_points ? ", not both" : "");
    if (has_points ? read_point_list(ld, e, path, 2, &pts, &n) : body_points(ld, e, path, &pts, &n))
        return CATENA_EINPUT;
    const long i = model_add_shape(ld->m, pts, n, stiffness);
    free(pts);
    return i < 0 ? loader_oom(ld) : 0;
}

static int read_attachment(struct loader *ld, const cJSON *e, const char *path)
{
    static const char *const keys[] = {"a", "b"};
    uint32_t pt[2];
    double stiffness = 1, compliance = 0;
    if (sjson_check_object(&ld->cx, e, path, attachment_keys) ||
        read_refs(ld, e, path, keys, 2, pt) ||
        sjson_get_number(&ld->cx, e, path, "stiffness", &SJSON_UNIT, &stiffness) ||
        sjson_get_number(&ld->cx, e, path, "compliance", &SJSON_NONNEG, &compliance))
        return CATENA_EINPUT;
    const long i = model_add_attachment(ld->m, pt[0], pt[1]);
    if (i < 0)
        return loader_oom(ld);
    ld->m->attachments[i].stiffness = stiffness;
    ld->m->attachments[i].compliance = compliance;
    return 0;
}

int scenario_read_constraints(struct loader *ld)
{
    int rc = read_links_physics(ld);
    if (!rc)
        rc = read_array(ld, "angles", read_angle);
    if (!rc)
        rc = read_array(ld, "areas", read_area);
    if (!rc)
        rc = read_array(ld, "shapes", read_shape);
    if (!rc)
        rc = read_array(ld, "attachments", read_attachment);
    return rc;
}
