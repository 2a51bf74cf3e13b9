/* The "bodies" section of a scenario: one reader and one builder per body type, found by
 * the type's name in a table. Every body is read and checked (the point limit included)
 * before any is built, so a bad body never leaves a half-grown model; then each is built
 * by its generator (build_*.c), its named points join the reference table, and the points
 * its "pins" name are pinned. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fmt_double.h"
#include "scenario/loader.h"

// clang-format off
/* What every body takes, in three runs that frame a type's own keys in the order messages
 * list them: head, the type's first keys, middle, its other keys, tail. */
static const struct sjson_key head_keys[] = {
    {"name", 1},
    {"type", 1},
    {NULL, 0},
};
static const struct sjson_key middle_keys[] = {
    {"mass", 1},
    {"pins", 0},
    {"stiffness", 0},
    {"compliance", 0},
    {"break_stretch", 0},
    {"radius", 0},
    {NULL, 0},
};
static const struct sjson_key tail_keys[] = {
    {"self_collision", 0},
    {"drag", 0},
    {"color", 0},
    {NULL, 0},
};
static const struct sjson_key rope_keys[] = {
    {"from", 1},
    {"to", 1},
    {"segments", 1},
    {"length", 0},
    {NULL, 0},
};
static const struct sjson_key rope_more_keys[] = {
    {"shape", 0},
    {"bend", 0},
    {NULL, 0},
};
static const struct sjson_key cloth_keys[] = {
    {"rows", 1},
    {"cols", 1},
    {"spacing", 0},
    {"size", 0},
    {"center", 0},
    {"corner", 0},
    {"plane", 0},
    {"u", 0},
    {"v", 0},
    {NULL, 0},
};
static const struct sjson_key cloth_more_keys[] = {
    {"structural", 0},
    {"shear", 0},
    {"bend", 0},
    {NULL, 0},
};
static const struct sjson_key ragdoll_keys[] = {
    {"position", 0},
    {"height", 0},
    {"angle", 0},
    {"pose", 0},
    {NULL, 0},
};
static const struct sjson_key ragdoll_more_keys[] = {
    {"joints", 0},
    {NULL, 0},
};
static const struct sjson_key softbody_keys[] = {
    {"shape", 0},
    {"center", 0},
    {"shape_radius", 1},
    {"points", 0},
    {"subdivisions", 0},
    {"plane", 0},
    {"u", 0},
    {"v", 0},
    {NULL, 0},
};
static const struct sjson_key softbody_more_keys[] = {
    {"spokes", 0},
    {"area", 0},
    {"pressure", 0},
    {"shape_matching", 0},
    {NULL, 0},
};
static const struct sjson_key hair_keys[] = {
    {"from", 0},
    {"to", 0},
    {"arc", 0},
    {"direction", 0},
    {"strands", 1},
    {"points", 1},
    {"length", 1},
    {NULL, 0},
};
static const struct sjson_key hair_more_keys[] = {
    {"bend", 0},
    {NULL, 0},
};
static const struct sjson_key arc_keys[] = {
    {"center", 1},
    {"radius", 1},
    {"start", 1},
    {"end", 1},
    {NULL, 0},
};
/* The objects that switch a family on with its own parameters. */
static const struct sjson_key link_set_keys[] = {
    {"stiffness", 0},
    {"compliance", 0},
    {"break_stretch", 0},
    {NULL, 0},
};
static const struct sjson_key set_keys[] = {
    {"stiffness", 0},
    {"compliance", 0},
    {NULL, 0},
};
// clang-format on

/* Names a body's "pins" accept besides point indices; "first" and "last" come first. */
static const char *const rope_pin_names[] = {"first", "last", NULL};
static const char *const cloth_pin_names[] = {"first",       "last",    "top-row",
                                              "top-corners", "corners", NULL};
static const char *const ragdoll_pin_names[] = {
    "first",   "last",   "head",       "neck",    "chest",  "pelvis", "l_shoulder",
    "l_elbow", "l_hand", "r_shoulder", "r_elbow", "r_hand", "l_hip",  "l_knee",
    "l_foot",  "r_hip",  "r_knee",     "r_foot",  NULL};
static const char *const hair_pin_names[] = {"first",         "last", "roots",
                                             "clamped-roots", "tips", NULL};

enum { PIN_FIRST, PIN_LAST, PIN_OWN }; /* PIN_OWN: the first of a type's own names */

static const char *const rope_shape_names[] = {"catenary", "sag", "straight", NULL};
static const char *const plane_names[] = {"xy", "xz", "yz", NULL};
static const char *const pose_names[] = {"stand", "t", NULL};
static const char *const softbody_shape_names[] = {"ring", "sphere", NULL};

/* A body checked and waiting to be built. */
struct body_plan {
    const struct body_kind *kind;
    union {
        struct rope_def rope;
        struct cloth_def cloth;
        struct ragdoll_def ragdoll;
        struct softbody_def softbody;
        struct hair_def hair;
    } def;
    const char *name;  /* the body's name */
    uint32_t npoints;  /* the points it will have, to check pin indices against */
    const cJSON *pins; /* its "pins" array, or NULL for the type's default */
};

/* A body type: its own keys (before and after the shared middle ones), its pins, its reader (fills
 * plan->def and plan->npoints, adds the body's points to *points and refuses too many) and its
 * builder (returns the body index or -1 when out of memory). pin_point gives the j-th local point
 * of a pin name at or after PIN_OWN, or -1 past the last. */
struct body_kind {
    const char *name;
    const char *article; /* for messages: "a rope" */
    const struct sjson_key *keys, *more_keys;
    const char *const *pin_names;
    int default_pin; /* pinned when "pins" is absent, or -1 */
    int (*read)(struct loader *ld, const cJSON *e, const char *path, struct body_plan *p,
                long long *points);
    long (*build)(struct loader *ld, const struct body_plan *p);
    long (*pin_point)(const struct body_plan *p, int name, size_t j);
};

/* ---- what every body has ---- */

/* name, mass, radius and the link parameters, read by every type. */
struct common {
    const char *name;
    double mass, radius;
    struct build_set links; /* on, with the body's stiffness, compliance, break_stretch */
};

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

static int read_common(struct loader *ld, const cJSON *e, const char *path, struct body_plan *bp,
                       struct common *c)
{
    char p[SJSON_PATH_MAX];
    *c = (struct common){.mass = 1.0, .links = {.on = 1, .stiffness = 1.0}};
    if (sjson_get_string(&ld->cx, e, path, "name", &c->name))
        return CATENA_EINPUT;
    sjson_path_key(p, path, "name");
    char shown[SJSON_SHOW_SIZE];
    if (!body_name_ok(c->name))
        return sjson_error(&ld->cx, p,
                           "\"%s\" is not a valid body name (use letters, digits, '_' and '-')",
                           sjson_show(shown, c->name));
    bp->name = c->name;
    if (scenario_add_name(ld, p, c->name, SREF_BODY, (size_t)(bp - ld->plans)) ||
        sjson_get_number(&ld->cx, e, path, "mass", &SJSON_POSITIVE, &c->mass) ||
        sjson_get_number(&ld->cx, e, path, "stiffness", &SJSON_UNIT, &c->links.stiffness) ||
        sjson_get_number(&ld->cx, e, path, "compliance", &SJSON_NONNEG, &c->links.compliance) ||
        sjson_get_number(&ld->cx, e, path, "break_stretch", &SJSON_ABOVE_ONE,
                         &c->links.break_stretch) ||
        sjson_get_number(&ld->cx, e, path, "radius", &SJSON_NONNEG, &c->radius))
        return CATENA_EINPUT;
    return 0;
}

/* A family switch: false (none), true (the defaults in *set) or an object of parameters
 * over those defaults. An absent key leaves *set as it is. */
static int read_set(struct loader *ld, const cJSON *e, const char *path, const char *key,
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

/* An integer count lo..hi; absent leaves *out. */
static int read_count(struct loader *ld, const cJSON *e, const char *path, const char *key,
                      long long lo, long long hi, uint32_t *out)
{
    long long v = *out;
    if (sjson_get_integer(&ld->cx, e, path, key, lo, hi, &v))
        return CATENA_EINPUT;
    *out = (uint32_t)v;
    return 0;
}

/* Adds a body's points to the running total and refuses a scenario past the limit. */
static int add_points(struct loader *ld, const char *path, long long npoints, long long nlinks,
                      long long *points)
{
    *points += npoints;
    return scenario_check_size(ld, path, *points, nlinks);
}

/* Two keys that exclude each other: an error at the second when both are there. */
static int either(struct loader *ld, const cJSON *e, const char *path, const char *a, const char *b)
{
    char p[SJSON_PATH_MAX];
    if (sjson_child(e, a) && sjson_child(e, b))
        return sjson_error(&ld->cx, sjson_path_key(p, path, b),
                           "give either \"%s\" or \"%s\", not both", a, b);
    return 0;
}

/* The plane of a cloth or ring: "plane": "xy" | "xz" | "yz" (the two axes u and v), or
 * "u" and "v" given as perpendicular vectors; both come out unit length. */
static int read_plane(struct loader *ld, const cJSON *e, const char *path, vec3 *u, vec3 *v)
{
    static const vec3 axes[3][2] = {
        {{1, 0, 0}, {0, 1, 0}}, {{1, 0, 0}, {0, 0, 1}}, {{0, 1, 0}, {0, 0, 1}}};
    char p[SJSON_PATH_MAX];
    const int has_u = sjson_child(e, "u") != NULL, has_v = sjson_child(e, "v") != NULL;
    int plane = 0;
    if ((has_u && either(ld, e, path, "u", "plane")) ||
        (has_v && either(ld, e, path, "v", "plane")) ||
        sjson_get_enum(&ld->cx, e, path, "plane", plane_names, &plane))
        return CATENA_EINPUT;
    if (plane != 0 && ld->m->dims == 2)
        return sjson_error(&ld->cx, sjson_path_key(p, path, "plane"),
                           "\"%s\" needs \"dimensions\": 3 (a 2D scenario is the x-y plane)",
                           plane_names[plane]);
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
    const double lu = v3_len(*u), lv = v3_len(*v);
    if (lu == 0)
        return sjson_error(&ld->cx, sjson_path_key(p, path, "u"), "must not be the zero vector");
    if (lv == 0)
        return sjson_error(&ld->cx, sjson_path_key(p, path, "v"), "must not be the zero vector");
    /* Tolerate the rounding of typed unit vectors (0.7071...), not a real slant. */
    const double cosine = v3_dot(*u, *v) / (lu * lv);
    if (fabs(cosine) > 1e-9) {
        return sjson_error(&ld->cx, sjson_path_key(p, path, "v"),
                           "must be perpendicular to \"u\" (the angle between them is %.3g "
                           "degrees)",
                           acos(fmax(-1.0, fmin(1.0, cosine))) * 180.0 / 3.14159265358979323846);
    }
    *u = v3_scale(*u, 1.0 / lu);
    *v = v3_sub(*v, v3_scale(*u, v3_dot(*v, *u)));
    *v = v3_scale(*v, 1.0 / v3_len(*v));
    return 0;
}

/* ---- rope ---- */

/* Checks the rope's geometry: distinct ends, a length that the segments and the shape can
 * take. */
static int check_rope_length(struct loader *ld, const char *path, const struct rope_def *def,
                             int has_length)
{
    char p[SJSON_PATH_MAX], chord_s[FMT_DOUBLE_SIZE], len_s[FMT_DOUBLE_SIZE];
    const double chord = v3_dist(def->from, def->to);
    if (chord == 0)
        return sjson_error(&ld->cx, sjson_path_key(p, path, "to"),
                           "must differ from \"from\" (a rope needs two distinct ends)");
    if (!has_length)
        return 0;
    fmt_double(chord_s, chord);
    fmt_double(len_s, def->length);
    sjson_path_key(p, path, "length");
    /* A length typed as the rounded chord may fall an ulp short of it, or over it. */
    if (def->length < chord * (1 - 1e-12))
        return sjson_error(&ld->cx, p,
                           "must be at least the distance from \"from\" to \"to\", %s (got %s)",
                           chord_s, len_s);
    if (def->shape == ROPE_STRAIGHT && def->length > chord * (1 + 1e-12))
        return sjson_error(&ld->cx, p,
                           "a \"straight\" rope's length must be the distance from \"from\" to "
                           "\"to\", %s (got %s)",
                           chord_s, len_s);
    if (def->segments == 1 && def->length > chord * (1 + 1e-12))
        return sjson_error(&ld->cx, p,
                           "a rope of 1 segment cannot sag: its length must be the distance "
                           "from \"from\" to \"to\", %s (got %s)",
                           chord_s, len_s);
    return 0;
}

static int read_rope(struct loader *ld, const cJSON *e, const char *path, struct body_plan *p,
                     long long *points)
{
    struct rope_def *def = &p->def.rope;
    struct common c;
    long long segments = 0;
    int shape = ROPE_CATENARY;
    char k[SJSON_PATH_MAX];
    *def = build_rope_def();
    if (read_common(ld, e, path, p, &c) ||
        sjson_get_integer(&ld->cx, e, path, "segments", 1, SCENARIO_MAX_COUNT, &segments) ||
        add_points(ld, sjson_path_key(k, path, "segments"), segments + 1, segments, points))
        return CATENA_EINPUT;
    def->name = c.name;
    def->mass = c.mass;
    def->radius = c.radius;
    def->stiffness = c.links.stiffness;
    def->compliance = c.links.compliance;
    def->break_stretch = c.links.break_stretch;
    def->bend = (struct build_set){.on = 0, .stiffness = 1.0};
    def->segments = (uint32_t)segments;
    p->npoints = def->segments + 1;
    if (sjson_get_vector(&ld->cx, e, path, "from", ld->m->dims, &def->from) ||
        sjson_get_vector(&ld->cx, e, path, "to", ld->m->dims, &def->to) ||
        sjson_get_number(&ld->cx, e, path, "length", &SJSON_POSITIVE, &def->length) ||
        sjson_get_enum(&ld->cx, e, path, "shape", rope_shape_names, &shape))
        return CATENA_EINPUT;
    def->shape = (enum rope_shape)shape;
    struct build_set bend = c.links;
    bend.on = 0;
    if (read_set(ld, e, path, "bend", link_set_keys, &bend) ||
        check_rope_length(ld, path, def, sjson_child(e, "length") != NULL))
        return CATENA_EINPUT;
    def->bend = bend;
    return 0;
}

static long build_rope_body(struct loader *ld, const struct body_plan *p)
{
    return build_rope(ld->m, &p->def.rope, ld->m->gravity);
}

/* ---- cloth ---- */

/* "spacing": one number for both directions; "size": [width, height], the grid's extent. */
static int read_cloth_spacing(struct loader *ld, const cJSON *e, const char *path,
                              struct cloth_def *def)
{
    char p[SJSON_PATH_MAX], pi[SJSON_PATH_MAX];
    const cJSON *size = sjson_child(e, "size");
    if (!sjson_child(e, "spacing") && !size)
        return sjson_error(&ld->cx, path, "missing required key \"spacing\" (or give \"size\")");
    if (either(ld, e, path, "spacing", "size") ||
        sjson_get_number(&ld->cx, e, path, "spacing", &SJSON_POSITIVE, &def->dx))
        return CATENA_EINPUT;
    def->dy = def->dx;
    if (!size)
        return 0;
    vec3 wh; /* checks that it is 2 numbers; then each must be positive */
    double ext[2];
    if (sjson_vector(&ld->cx, size, sjson_path_key(p, path, "size"), 2, &wh))
        return CATENA_EINPUT;
    for (size_t k = 0; k < 2; k++)
        if (sjson_number(&ld->cx, cJSON_GetArrayItem(size, (int)k), sjson_path_index(pi, p, k),
                         &SJSON_POSITIVE, &ext[k]))
            return CATENA_EINPUT;
    def->dx = ext[0] / (double)(def->cols - 1);
    def->dy = ext[1] / (double)(def->rows - 1);
    return 0;
}

static int read_cloth(struct loader *ld, const cJSON *e, const char *path, struct body_plan *p,
                      long long *points)
{
    struct cloth_def *def = &p->def.cloth;
    struct common c;
    *def = build_cloth_def();
    if (read_common(ld, e, path, p, &c) ||
        read_count(ld, e, path, "rows", 2, SCENARIO_MAX_POINTS, &def->rows) ||
        read_count(ld, e, path, "cols", 2, SCENARIO_MAX_POINTS, &def->cols))
        return CATENA_EINPUT;
    const long long r = def->rows, cl = def->cols;
    const long long links = 4 * r * cl; /* structural, shear and bend: under 4 a point */
    if (add_points(ld, path, r * cl, links, points))
        return CATENA_EINPUT;
    p->npoints = def->rows * def->cols;
    def->name = c.name;
    def->mass = c.mass;
    def->radius = c.radius;
    def->structural = def->shear = def->bend = c.links;
    def->bend.on = 0;
    vec3 center = v3(0, 0, 0);
    if (read_cloth_spacing(ld, e, path, def) || either(ld, e, path, "center", "corner") ||
        sjson_get_vector(&ld->cx, e, path, "center", ld->m->dims, &center) ||
        sjson_get_vector(&ld->cx, e, path, "corner", ld->m->dims, &def->corner) ||
        read_plane(ld, e, path, &def->u, &def->v) ||
        read_set(ld, e, path, "structural", link_set_keys, &def->structural) ||
        read_set(ld, e, path, "shear", link_set_keys, &def->shear) ||
        read_set(ld, e, path, "bend", link_set_keys, &def->bend))
        return CATENA_EINPUT;
    if (!sjson_child(e, "corner")) {
        const double w = def->dx * (double)(def->cols - 1), h = def->dy * (double)(def->rows - 1);
        def->corner = v3_add(center, v3_sub(v3_scale(def->v, 0.5 * h), v3_scale(def->u, 0.5 * w)));
    }
    return 0;
}

static long build_cloth_body(struct loader *ld, const struct body_plan *p)
{
    return build_cloth(ld->m, &p->def.cloth);
}

static long cloth_pin_point(const struct body_plan *p, int name, size_t j)
{
    const size_t rows = p->def.cloth.rows, cols = p->def.cloth.cols;
    const size_t corners[4] = {0, cols - 1, (rows - 1) * cols, rows * cols - 1};
    switch (name - PIN_OWN) {
    case 0: /* top-row */
        return j < cols ? (long)j : -1;
    case 1: /* top-corners */
        return j < 2 ? (long)corners[j] : -1;
    default: /* corners */
        return j < 4 ? (long)corners[j] : -1;
    }
}

/* ---- ragdoll ---- */

static int read_ragdoll(struct loader *ld, const cJSON *e, const char *path, struct body_plan *p,
                        long long *points)
{
    struct ragdoll_def *def = &p->def.ragdoll;
    struct common c;
    int pose = POSE_STAND;
    *def = build_ragdoll_def();
    if (read_common(ld, e, path, p, &c) ||
        add_points(ld, path, RAG_NPOINTS, RAGDOLL_BONES + RAGDOLL_BRACES, points) ||
        sjson_get_vector(&ld->cx, e, path, "position", ld->m->dims, &def->position) ||
        sjson_get_number(&ld->cx, e, path, "height", &SJSON_POSITIVE, &def->height) ||
        sjson_get_number(&ld->cx, e, path, "angle", &SJSON_ANY, &def->angle) ||
        sjson_get_enum(&ld->cx, e, path, "pose", pose_names, &pose) ||
        read_set(ld, e, path, "joints", set_keys, &def->joints))
        return CATENA_EINPUT;
    p->npoints = RAG_NPOINTS;
    def->name = c.name;
    def->mass = c.mass;
    def->radius = c.radius;
    def->bones = c.links;
    def->pose = (enum ragdoll_pose)pose;
    return 0;
}

static long build_ragdoll_body(struct loader *ld, const struct body_plan *p)
{
    return build_ragdoll(ld->m, &p->def.ragdoll);
}

static long ragdoll_pin_point(const struct body_plan *p, int name, size_t j)
{
    (void)p;
    return j == 0 ? (long)(name - PIN_OWN) : -1;
}

/* ---- soft body ---- */

/* The keys that only one of the shapes takes. */
static int check_softbody_shape(struct loader *ld, const cJSON *e, const char *path,
                                const struct softbody_def *def)
{
    static const char *const ring_only[] = {"points", "plane", "u", "v", NULL};
    char p[SJSON_PATH_MAX];
    if (def->shape == SOFT_RING) {
        if (sjson_child(e, "subdivisions"))
            return sjson_error(&ld->cx, sjson_path_key(p, path, "subdivisions"),
                               "only a \"sphere\" is subdivided (this body is a \"ring\")");
        if (def->area.on && ld->m->dims == 3)
            return sjson_error(
                &ld->cx, sjson_path_key(p, path, sjson_child(e, "area") ? "area" : "pressure"),
                "a ring's area constraint needs \"dimensions\": 2 (in 3D a "
                "\"sphere\" holds its volume)");
        return 0;
    }
    if (ld->m->dims == 2)
        return sjson_error(&ld->cx, sjson_path_key(p, path, "shape"),
                           "a \"sphere\" needs \"dimensions\": 3 (in 2D use a \"ring\")");
    for (size_t k = 0; ring_only[k]; k++)
        if (sjson_child(e, ring_only[k]))
            return sjson_error(&ld->cx, sjson_path_key(p, path, ring_only[k]),
                               "only a \"ring\" has this key (this body is a \"sphere\")");
    return 0;
}

/* "area": a switch; "pressure": a number that implies the area constraint. */
static int read_softbody_area(struct loader *ld, const cJSON *e, const char *path,
                              struct softbody_def *def)
{
    char p[SJSON_PATH_MAX];
    const cJSON *pressure = sjson_child(e, "pressure");
    if (read_set(ld, e, path, "area", set_keys, &def->area) ||
        sjson_get_number(&ld->cx, e, path, "pressure", &SJSON_POSITIVE, &def->pressure))
        return CATENA_EINPUT;
    if (pressure && sjson_child(e, "area") && !def->area.on)
        return sjson_error(&ld->cx, sjson_path_key(p, path, "pressure"),
                           "acts through the area constraint, which \"area\": false turns off");
    if (pressure)
        def->area.on = 1;
    return 0;
}

static int read_softbody(struct loader *ld, const cJSON *e, const char *path, struct body_plan *p,
                         long long *points)
{
    struct softbody_def *def = &p->def.softbody;
    struct common c;
    int shape = SOFT_RING;
    *def = build_softbody_def();
    if (read_common(ld, e, path, p, &c) ||
        sjson_get_enum(&ld->cx, e, path, "shape", softbody_shape_names, &shape) ||
        read_count(ld, e, path, "points", 3, SCENARIO_MAX_POINTS, &def->points) ||
        read_count(ld, e, path, "subdivisions", 0, 7, &def->subdivisions))
        return CATENA_EINPUT;
    def->shape = (enum softbody_shape)shape;
    def->spokes = def->edges = c.links;
    if (read_set(ld, e, path, "spokes", link_set_keys, &def->spokes))
        return CATENA_EINPUT;
    p->npoints = build_softbody_points(def);
    /* Edges: the ring's n, or the mesh's 3/2 per face; spokes: one a point. */
    if (add_points(ld, path, p->npoints, 3LL * p->npoints, points))
        return CATENA_EINPUT;
    def->name = c.name;
    def->mass = c.mass;
    def->radius = c.radius;
    if (sjson_get_vector(&ld->cx, e, path, "center", ld->m->dims, &def->center) ||
        sjson_get_number(&ld->cx, e, path, "shape_radius", &SJSON_POSITIVE, &def->size) ||
        read_softbody_area(ld, e, path, def) ||
        sjson_get_number(&ld->cx, e, path, "shape_matching", &SJSON_UNIT, &def->shape_matching) ||
        check_softbody_shape(ld, e, path, def) ||
        (def->shape == SOFT_RING && read_plane(ld, e, path, &def->u, &def->v)))
        return CATENA_EINPUT;
    return 0;
}

static long build_softbody_body(struct loader *ld, const struct body_plan *p)
{
    return build_softbody(ld->m, &p->def.softbody);
}

/* ---- hair ---- */

/* The roots: "from" and "to", or "arc": {center, radius, start, end}. */
static int read_hair_roots(struct loader *ld, const cJSON *e, const char *path,
                           struct hair_def *def)
{
    char p[SJSON_PATH_MAX];
    const cJSON *arc = sjson_child(e, "arc");
    const int has_from = sjson_child(e, "from") != NULL, has_to = sjson_child(e, "to") != NULL;
    if (arc) {
        if ((has_from && either(ld, e, path, "from", "arc")) ||
            (has_to && either(ld, e, path, "to", "arc")) ||
            sjson_object(&ld->cx, e, path, "arc", arc_keys, &arc))
            return CATENA_EINPUT;
        sjson_path_key(p, path, "arc");
        def->arc = 1;
        if (sjson_get_vector(&ld->cx, arc, p, "center", ld->m->dims, &def->center) ||
            sjson_get_number(&ld->cx, arc, p, "radius", &SJSON_POSITIVE, &def->arc_radius) ||
            sjson_get_number(&ld->cx, arc, p, "start", &SJSON_ANY, &def->start) ||
            sjson_get_number(&ld->cx, arc, p, "end", &SJSON_ANY, &def->end))
            return CATENA_EINPUT;
        char pe[SJSON_PATH_MAX];
        if (def->strands > 1 && def->start == def->end)
            return sjson_error(&ld->cx, sjson_path_key(pe, p, "end"),
                               "must differ from \"start\" (the strands would share one root)");
        return 0;
    }
    if (!has_from)
        return sjson_error(&ld->cx, path, "missing required key \"from\" (or give \"arc\")");
    if (!has_to)
        return sjson_error(&ld->cx, path, "missing required key \"to\" (it goes with \"from\")");
    if (sjson_get_vector(&ld->cx, e, path, "from", ld->m->dims, &def->from) ||
        sjson_get_vector(&ld->cx, e, path, "to", ld->m->dims, &def->to))
        return CATENA_EINPUT;
    if (def->strands > 1 && v3_dist(def->from, def->to) == 0)
        return sjson_error(&ld->cx, sjson_path_key(p, path, "to"),
                           "must differ from \"from\" (the strands would share one root)");
    return 0;
}

static int read_hair(struct loader *ld, const cJSON *e, const char *path, struct body_plan *p,
                     long long *points)
{
    struct hair_def *def = &p->def.hair;
    struct common c;
    char k[SJSON_PATH_MAX];
    *def = build_hair_def();
    if (read_common(ld, e, path, p, &c) ||
        read_count(ld, e, path, "strands", 1, SCENARIO_MAX_POINTS, &def->strands) ||
        read_count(ld, e, path, "points", 2, SCENARIO_MAX_POINTS, &def->points))
        return CATENA_EINPUT;
    const long long n = (long long)def->strands * def->points;
    if (add_points(ld, path, n, 2 * n, points))
        return CATENA_EINPUT;
    p->npoints = def->strands * def->points;
    def->name = c.name;
    def->mass = c.mass;
    def->radius = c.radius;
    def->links = def->bend = c.links;
    if (read_hair_roots(ld, e, path, def) ||
        sjson_get_number(&ld->cx, e, path, "length", &SJSON_POSITIVE, &def->length) ||
        sjson_get_vector(&ld->cx, e, path, "direction", ld->m->dims, &def->direction) ||
        read_set(ld, e, path, "bend", link_set_keys, &def->bend))
        return CATENA_EINPUT;
    if (sjson_child(e, "direction")) {
        const double l = v3_len(def->direction);
        if (l == 0)
            return sjson_error(&ld->cx, sjson_path_key(k, path, "direction"),
                               "must not be the zero vector");
        def->direction = v3_scale(def->direction, 1.0 / l);
        def->has_direction = 1;
    }
    return 0;
}

static long build_hair_body(struct loader *ld, const struct body_plan *p)
{
    return build_hair(ld->m, &p->def.hair, ld->m->gravity);
}

static long hair_pin_point(const struct body_plan *p, int name, size_t j)
{
    const size_t k = p->def.hair.strands, n = p->def.hair.points;
    switch (name - PIN_OWN) {
    case 0: /* roots */
        return j < k ? (long)(j * n) : -1;
    case 1: /* clamped-roots: the first two points of each strand */
        return j < 2 * k ? (long)((j / 2) * n + j % 2) : -1;
    default: /* tips */
        return j < k ? (long)(j * n + n - 1) : -1;
    }
}

/* ---- the table ---- */

/* Indexed by enum body_type. */
static const struct body_kind kinds[] = {
    {"rope", "a rope", rope_keys, rope_more_keys, rope_pin_names, -1, read_rope, build_rope_body,
     NULL},
    {"cloth", "a cloth", cloth_keys, cloth_more_keys, cloth_pin_names, -1, read_cloth,
     build_cloth_body, cloth_pin_point},
    {"ragdoll", "a ragdoll", ragdoll_keys, ragdoll_more_keys, ragdoll_pin_names, -1, read_ragdoll,
     build_ragdoll_body, ragdoll_pin_point},
    {"softbody", "a soft body", softbody_keys, softbody_more_keys, rope_pin_names, -1,
     read_softbody, build_softbody_body, NULL},
    {"hair", "hair", hair_keys, hair_more_keys, hair_pin_names, PIN_OWN, read_hair, build_hair_body,
     hair_pin_point},
};
static const char *const kind_names[] = {"rope", "cloth", "ragdoll", "softbody", "hair", NULL};

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
            if (!hint && sjson_is_close(e->valuestring, names[k]))
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
        if (scenario_add_pin(ld, point, ld->m->x0[point], (long)i, k))
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
    const struct sjson_key *const runs[] = {head_keys, kind->keys, middle_keys, kind->more_keys,
                                            tail_keys};
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
    if (sjson_enum(&ld->cx, t, sjson_path_key(k, path, "type"), kind_names, &type))
        return CATENA_EINPUT;
    p->kind = &kinds[type];
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
        return scenario_oom(ld);
    const struct body *body = &ld->m->bodies[b];
    sjson_path_index(path, "bodies", i);
    for (uint32_t k = body->first_point; k < body->first_point + body->npoints; k++)
        if (ld->m->point_name[k] &&
            scenario_add_name(ld, path, ld->m->point_name[k], SREF_POINT, k))
            return CATENA_EFAIL;
    return pin_body(ld, p, i);
}

int scenario_read_bodies(struct loader *ld)
{
    const cJSON *bodies;
    if (sjson_array(&ld->cx, ld->root, "", "bodies", &bodies))
        return CATENA_EINPUT;
    if (!bodies)
        return 0;
    const size_t n = (size_t)cJSON_GetArraySize(bodies);
    if (!(ld->plans = calloc(n ? n : 1, sizeof *ld->plans)))
        return scenario_oom(ld);
    long long points = (long long)ld->m->npoints;
    size_t i = 0;
    for (const cJSON *e = bodies->child; e; e = e->next, i++) {
        char p[SJSON_PATH_MAX];
        if (read_body(ld, e, sjson_path_index(p, "bodies", i), &ld->plans[i], &points))
            return CATENA_EINPUT;
    }
    for (i = 0; i < n; i++) {
        const int rc = build_body(ld, &ld->plans[i], i);
        if (rc)
            return rc;
    }
    return 0;
}
