/* The "bodies" section of a scenario: each body's type picks its key table and its reader and
 * builder (scenario/build/TYPE.c, through scenario/bodies.h). Every body is read and checked
 * (the point limit included) before any is built, so a bad body never leaves a half-grown
 * model; then each is built by its generator, its named points join the reference table,
 * and the points its "pins" name are pinned. */
#define _POSIX_C_SOURCE 200809L
#include "scenario/bodies.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/spell.h"

// clang-format off
/* What every body takes, in three runs that frame a type's own keys in the order messages
 * list them: head, the type's first keys, middle, its other keys, tail. */
const struct sjson_key bodies_head_keys[] = {
    {"name", 1},
    {"type", 1},
    {NULL, 0},
};
const struct sjson_key bodies_middle_keys[] = {
    {"mass", 1},
    {"pins", 0},
    {"stiffness", 0},
    {"compliance", 0},
    {"break_stretch", 0},
    {"radius", 0},
    {NULL, 0},
};
const struct sjson_key bodies_tail_keys[] = {
    {"self_collision", 0},
    {"drag", 0},
    {"color", 0},
    {NULL, 0},
};
/* The objects that switch a family on with its own parameters. */
const struct sjson_key bodies_link_set_keys[] = {
    {"stiffness", 0},
    {"compliance", 0},
    {"break_stretch", 0},
    {NULL, 0},
};
const struct sjson_key bodies_set_keys[] = {
    {"stiffness", 0},
    {"compliance", 0},
    {NULL, 0},
};
// clang-format on

const char *const bodies_end_pin_names[] = {"first", "last", NULL};

const char *const bodies_plane_names[] = {"xy", "xz", "yz", NULL};

/* Indexed by enum body_type. */
const struct body_kind *const bodies_kinds[] = {&build_rope_kind, &build_cloth_kind,
                                                &build_ragdoll_kind, &build_softbody_kind,
                                                &build_hair_kind};
const char *const bodies_kind_names[] = {"rope", "cloth", "ragdoll", "softbody", "hair", NULL};

/* ---- what every body has ---- */

/* name, mass, radius and the link parameters, read by every type. */
static int body_name_ok(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!(('a' <= *s && *s <= 'z') || ('A' <= *s && *s <= 'Z') || ('0' <= *s && *s <= '9') ||
              *s == '_' || *s == '-'))
            return 0;
    return 1;
}

int bodies_read_common(struct loader *ld, const cJSON *e, const char *path, struct body_plan *bp,
                       struct body_common *c)
{
    char p[SJSON_PATH_MAX];
    *c = (struct body_common){.mass = 1.0, .links = {.on = 1, .stiffness = 1.0}};
    if (sjson_get_string(&ld->cx, e, path, "name", &c->name))
        return CATENA_EINPUT;
    sjson_path_key(p, path, "name");
    char shown[SJSON_SHOW_SIZE];
    if (!body_name_ok(c->name))
        return sjson_error(&ld->cx, p,
                           "\"%s\" is not a valid body name (use letters, digits, '_' and '-')",
                           sjson_show(shown, c->name));
    bp->name = c->name;
    if (loader_add_name(ld, p, c->name, SREF_BODY, (size_t)(bp - ld->plans)) ||
        sjson_get_number(&ld->cx, e, path, "mass", &SJSON_POSITIVE, &c->mass) ||
        sjson_get_number(&ld->cx, e, path, "stiffness", &SJSON_UNIT, &c->links.stiffness) ||
        sjson_get_number(&ld->cx, e, path, "compliance", &SJSON_NONNEG, &c->links.compliance) ||
        sjson_get_number(&ld->cx, e, path, "break_stretch", &SJSON_ABOVE_ONE,
                         &c->links.break_stretch) ||
        sjson_get_number(&ld->cx, e, path, "radius", &SJSON_NONNEG, &c->radius))
        return CATENA_EINPUT;
    return 0;
}

int bodies_read_set(struct loader *ld, const cJSON *e, const char *path, const char *key,
                    const struct sjson_key *keys, struct build_set *set)
{
    char p[SJSON_PATH_MAX];
    const cJSON *v = sjson_child(e, key);
    sjson_path_key(p, path, key);
    if (!v)
        return 0;
    if (cJSON_IsBool(v)) {
        set->on = cJSON_IsTrue(v);
        return 0;
    }
    if (!cJSON_IsObject(v))
        return sjson_error(&ld->cx, p, "expected true, false or an object, got %s",
                           sjson_type_name(v));
    set->on = 1;
    if (sjson_check_object(&ld->cx, v, p, keys) ||
        sjson_get_number(&ld->cx, v, p, "stiffness", &SJSON_UNIT, &set->stiffness) ||
        sjson_get_number(&ld->cx, v, p, "compliance", &SJSON_NONNEG, &set->compliance) ||
        sjson_get_number(&ld->cx, v, p, "break_stretch", &SJSON_ABOVE_ONE, &set->break_stretch))
        return CATENA_EINPUT;
    return 0;
}

int bodies_read_count(struct loader *ld, const cJSON *e, const char *path, const char *key,
                      long long lo, long long hi, uint32_t *out)
{
    long long v = *out;
    if (sjson_get_integer(&ld->cx, e, path, key, lo, hi, &v))
        return CATENA_EINPUT;
    *out = (uint32_t)v;
    return 0;
}

int bodies_set_on(const cJSON *e, const char *key, int def)
{
    const cJSON *v = sjson_child(e, key);
    return v ? !cJSON_IsFalse(v) : def;
}

int bodies_add_points(struct loader *ld, const char *path, long long npoints, long long nlinks,
                      long long nfaces, long long *points)
{
    *points += npoints;
    return loader_check_size(ld, path, *points, nlinks, nfaces);
}

int bodies_read_plane(struct loader *ld, const cJSON *e, const char *path, vec3 *u, vec3 *v)
{
    static const vec3 axes[3][2] = {
        {{1, 0, 0}, {0, 1, 0}}, {{1, 0, 0}, {0, 0, 1}}, {{0, 1, 0}, {0, 0, 1}}};
    char p[SJSON_PATH_MAX];
    const int has_u = sjson_child(e, "u") != NULL, has_v = sjson_child(e, "v") != NULL;
    int plane = 0;
    if ((has_u && loader_either(ld, e, path, "u", "plane")) ||
        (has_v && loader_either(ld, e, path, "v", "plane")) ||
        sjson_get_enum(&ld->cx, e, path, "plane", bodies_plane_names, &plane))
        return CATENA_EINPUT;
    if (plane != 0 && ld->m->dims == 2)
        return sjson_error(&ld->cx, sjson_path_key(p, path, "plane"),
                           "\"%s\" needs \"dimensions\": 3 (a 2D scenario is the x-y plane)",
                           bodies_plane_names[plane]);
    *u = axes[plane][0];
    *v = axes[plane][1];
    if (!has_u && !has_v)
        return 0;
    if (!has_u || !has_v)
        return sjson_error(&ld->cx, path, "missing required key \"%s\" (it goes with \"%s\")",
                           has_u ? "v" : "u", has_u ? "u" : "v");
    if (sjson_get_vector(&ld->cx, e, path, "u", ld->m->dims, u) ||
        sjson_get_vector(&ld->cx, e, path, "v", ld->m->dims, v))
        return CATENA_EINPUT;
    /* Directions, normalised without overflow ([1e200, 0] is along x like [1, 0]). */
    vec3 uh, vh;
    if (v3_unit(*u, &uh))
        return sjson_error(&ld->cx, sjson_path_key(p, path, "u"), "must not be the zero vector");
    if (v3_unit(*v, &vh))
        return sjson_error(&ld->cx, sjson_path_key(p, path, "v"), "must not be the zero vector");
    /* Tolerate the rounding of typed unit vectors (0.7071...), not a real slant. */
    const double cosine = v3_dot(uh, vh);
    if (fabs(cosine) > 1e-9) {
        return sjson_error(&ld->cx, sjson_path_key(p, path, "v"),
                           "must be perpendicular to \"u\" (the angle between them is %.3g "
                           "degrees)",
                           acos(fmax(-1.0, fmin(1.0, cosine))) * 180.0 / 3.14159265358979323846);
    }
    *u = uh;
    *v = v3_sub(*v, v3_scale(uh, v3_dot(*v, uh)));
    v3_unit(*v, v); /* not zero: v is far from parallel to u */
    return 0;
}

/* ---- pins ---- */

/* "\"first\", \"last\" or a point index" for a type's names. */
static void pin_list(const char *const *names, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (size_t k = 0; names[k] && len < size; k++)
        len += (size_t)snprintf(buf + len, size - len, "%s\"%s\"", k ? ", " : "", names[k]);
    if (len < size)
        snprintf(buf + len, size - len, " or a point index");
}

/* One entry of a body's "pins": *name gets a name's position in the type's list, or -1
 * with *index the local point index. */
static int pin_entry(struct loader *ld, const cJSON *e, const char *path, const struct body_plan *p,
                     int *name, uint32_t *index)
{
    const char *const *names = p->kind->pin_names;
    char list[1024];
    *name = -1;
    if (cJSON_IsString(e)) {
        const char *hint = NULL;
        for (int k = 0; names[k]; k++) {
            if (strcmp(e->valuestring, names[k]) == 0) {
                *name = k;
                return 0;
            }
            if (!hint && spell_is_close(e->valuestring, names[k]))
                hint = names[k];
        }
        char shown[SJSON_SHOW_SIZE];
        sjson_show(shown, e->valuestring);
        if (hint)
            return sjson_error(&ld->cx, path, "\"%s\" is not a point of %s (did you mean \"%s\"?)",
                               shown, p->kind->article, hint);
        pin_list(names, list, sizeof list);
        return sjson_error(&ld->cx, path, "expected %s, got \"%s\"", list, shown);
    }
    if (!cJSON_IsNumber(e)) {
        pin_list(names, list, sizeof list);
        return sjson_error(&ld->cx, path, "expected %s, got %s", list, sjson_type_name(e));
    }
    long long k = 0;
    if (sjson_integer(&ld->cx, e, path, -SCENARIO_MAX_COUNT, SCENARIO_MAX_COUNT, &k))
        return CATENA_EINPUT;
    if (k < 0 || k >= p->npoints)
        return sjson_error(&ld->cx, path, "point %lld does not exist (%s has %u points)", k,
                           p->name, p->npoints);
    *index = (uint32_t)k;
    return 0;
}

/* The j-th local point an entry pins, or -1 past its last. */
static long pin_point(const struct body_plan *p, int name, uint32_t index, size_t j)
{
    if (name < 0 || name == PIN_FIRST)
        return j == 0 ? (long)(name < 0 ? index : 0) : -1;
    if (name == PIN_LAST)
        return j == 0 ? (long)p->npoints - 1 : -1;
    return p->kind->pin_point(p, name, j);
}

static int check_pins(struct loader *ld, const cJSON *e, const char *path, struct body_plan *p)
{
    char pp[SJSON_PATH_MAX], pe[SJSON_PATH_MAX];
    if (sjson_array(&ld->cx, e, path, "pins", &p->pins))
        return CATENA_EINPUT;
    sjson_path_key(pp, path, "pins");
    size_t k = 0;
    for (const cJSON *x = p->pins ? p->pins->child : NULL; x; x = x->next, k++) {
        int name;
        uint32_t index;
        if (pin_entry(ld, x, sjson_path_index(pe, pp, k), p, &name, &index))
            return CATENA_EINPUT;
    }
    return 0;
}

/* Pins every point entry k of body i names. */
static int pin_entry_points(struct loader *ld, const struct body_plan *p, size_t i, size_t k,
                            int name, uint32_t index)
{
    const uint32_t first = ld->m->bodies[i].first_point;
    long local;
    for (size_t j = 0; (local = pin_point(p, name, index, j)) >= 0; j++) {
        const uint32_t point = first + (uint32_t)local;
        if (loader_add_pin(ld, point, ld->m->x0[point], (long)i, k))
            return CATENA_EFAIL;
    }
    return 0;
}

/* Pins what the body's (checked) "pins" entries name, or its type's default. */
static int pin_body(struct loader *ld, const struct body_plan *p, size_t i)
{
    if (!p->pins)
        return p->kind->default_pin < 0 ? 0
                                        : pin_entry_points(ld, p, i, 0, p->kind->default_pin, 0);
    size_t k = 0;
    for (const cJSON *x = p->pins->child; x; x = x->next, k++) {
        int name;
        uint32_t index = 0;
        pin_entry(ld, x, "", p, &name, &index); /* checked by check_pins */
        if (pin_entry_points(ld, p, i, k, name, index))
            return CATENA_EFAIL;
    }
    return 0;
}

/* ---- the section ---- */

/* The most keys a body type takes, the shared ones included, and the end marker. */
enum { BODY_KEYS_MAX = 40 };

/* A type's whole key table in keys[BODY_KEYS_MAX]: head, its keys, middle, its more keys,
 * tail. */
static void body_keys(const struct body_kind *kind, struct sjson_key *keys)
{
    const struct sjson_key *const runs[] = {bodies_head_keys, kind->keys, bodies_middle_keys,
                                            kind->more_keys, bodies_tail_keys};
    size_t n = 0;
    for (size_t r = 0; r < sizeof runs / sizeof *runs; r++)
        for (const struct sjson_key *k = runs[r]; k->name && n + 1 < BODY_KEYS_MAX; k++)
            keys[n++] = *k;
    keys[n] = (struct sjson_key){NULL, 0};
}

/* bodies[i]: its type picks the key table and the reader. */
static int read_body(struct loader *ld, const cJSON *e, const char *path, struct body_plan *p,
                     long long *points)
{
    char k[SJSON_PATH_MAX];
    int type = 0;
    if (!cJSON_IsObject(e))
        return sjson_error(&ld->cx, path, "expected an object, got %s", sjson_type_name(e));
    const cJSON *t = sjson_child(e, "type");
    if (!t)
        return sjson_error(&ld->cx, path, "missing required key \"type\"");
    if (sjson_enum(&ld->cx, t, sjson_path_key(k, path, "type"), bodies_kind_names, &type))
        return CATENA_EINPUT;
    p->kind = bodies_kinds[type];
    struct sjson_key keys[BODY_KEYS_MAX];
    body_keys(p->kind, keys);
    if (sjson_check_object(&ld->cx, e, path, keys) || p->kind->read(ld, e, path, p, points) ||
        check_pins(ld, e, path, p))
        return CATENA_EINPUT;
    return 0;
}

/* Builds body i, adds its named points ("fig.head") to the reference table, pins it. */
static int build_body(struct loader *ld, const struct body_plan *p, size_t i)
{
    char path[SJSON_PATH_MAX];
    const long b = p->kind->build(ld, p);
    if (b < 0)
        return loader_oom(ld);
    const struct body *body = &ld->m->bodies[b];
    sjson_path_index(path, "bodies", i);
    for (uint32_t k = body->first_point; k < body->first_point + body->npoints; k++)
        if (ld->m->point_name[k] && loader_add_name(ld, path, ld->m->point_name[k], SREF_POINT, k))
            return CATENA_EFAIL;
    return pin_body(ld, p, i);
}

int scenario_read_bodies(struct loader *ld)
{
    const cJSON *bodies;
    if (sjson_array(&ld->cx, ld->root, "", "bodies", &bodies))
        return CATENA_EINPUT;
    if (!bodies)
        return loader_check_memory(ld, "points");
    const size_t n = (size_t)cJSON_GetArraySize(bodies);
    if (!(ld->plans = calloc(n ? n : 1, sizeof *ld->plans)))
        return loader_oom(ld);
    long long points = (long long)ld->m->npoints;
    size_t i = 0;
    for (const cJSON *e = bodies->child; e; e = e->next, i++) {
        char p[SJSON_PATH_MAX];
        if (read_body(ld, e, sjson_path_index(p, "bodies", i), &ld->plans[i], &points))
            return CATENA_EINPUT;
    }
    /* Every body is planned: what they all need is known before any is built. */
    if (loader_check_memory(ld, "bodies"))
        return CATENA_EINPUT;
    for (i = 0; i < n; i++) {
        const int rc = build_body(ld, &ld->plans[i], i);
        if (rc)
            return rc;
    }
    return 0;
}
