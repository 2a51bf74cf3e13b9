/* Hair bodies: strands of equal point masses, rooted along a line or an arc, each a chain
 * of links with bend links to the point two ahead (the distance form of bending, Mueller
 * et al. 2007, section 4.4), which resists folding without any angle bookkeeping. Strands
 * start straight; which of their points are pinned is the scenario's ("roots" by default).
 * The file ends with the hair's reader: its keys, roots and pin names. */
#include "scenario/build/build.h"

#include "scenario/bodies.h"
#include "scenario/scenario.h"

struct hair_def build_hair_def(void)
{
    const struct build_set rigid = {.on = 1, .stiffness = 1.0};
    return (struct hair_def){.to = v3(1, 0, 0),
                             .arc_radius = 1.0,
                             .strands = 1,
                             .points = 10,
                             .length = 0.3,
                             .mass = 0.01,
                             .links = rigid,
                             .bend = rigid};
}

/* Down along gravity (or -y without gravity). */
static vec3 down(vec3 gravity)
{
    const double g = v3_len(gravity);
    return g > 0 ? v3_scale(gravity, 1.0 / g) : v3(0, -1, 0);
}

void build_hair_root(const struct hair_def *def, uint32_t s, vec3 gravity, vec3 *root, vec3 *dir)
{
    /* One strand sits in the middle of its curve; more spread from end to end. */
    const double t = def->strands == 1 ? 0.5 : (double)s / (double)(def->strands - 1);
    if (def->arc) {
        const double a = def->start + t * (def->end - def->start);
        const vec3 out = v3(cos(a), sin(a), 0);
        *root = v3_add(def->center, v3_scale(out, def->arc_radius));
        *dir = def->has_direction ? def->direction : out;
    } else {
        *root = v3_add(def->from, v3_scale(v3_sub(def->to, def->from), t));
        *dir = def->has_direction ? def->direction : down(gravity);
    }
}

long build_hair(struct model *m, const struct hair_def *def, vec3 gravity)
{
    const uint32_t k = def->strands, n = def->points;
    const double point_mass = def->mass / ((double)k * (double)n);
    const double seg = def->length / (double)(n - 1);
    const long b = model_add_body(m, def->name, BODY_HAIR);
    if (b < 0)
        return -1;
    const size_t first_point = m->npoints, first_link = m->nlinks;
    for (uint32_t s = 0; s < k; s++) {
        vec3 root, dir;
        build_hair_root(def, s, gravity, &root, &dir);
        for (uint32_t j = 0; j < n; j++)
            if (model_add_point(m, v3_add(root, v3_scale(dir, seg * (double)j)), v3(0, 0, 0),
                                point_mass, def->radius, NULL) < 0)
                return -1;
    }
    for (uint32_t s = 0; s < k; s++) {
        const uint32_t f = (uint32_t)first_point + s * n;
        for (uint32_t j = 0; def->links.on && j + 1 < n; j++)
            if (build_link(m, f + j, f + j + 1, &def->links, ROLE_STRUCTURAL) < 0)
                return -1;
        for (uint32_t j = 0; def->bend.on && j + 2 < n; j++)
            if (build_link(m, f + j, f + j + 2, &def->bend, ROLE_BEND) < 0)
                return -1;
    }
    build_close_body(m, b, first_point, first_link);
    m->bodies[b].grid_cols = n;
    return b;
}

/* ---- the hair's reader (scenario/bodies.h) ---- */

// clang-format off
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
const struct sjson_key build_hair_arc_keys[] = {
    {"center", 1},
    {"radius", 1},
    {"start", 1},
    {"end", 1},
    {NULL, 0},
};
// clang-format on

static const char *const hair_pin_names[] = {"first",         "last", "roots",
                                             "clamped-roots", "tips", NULL};

/* The roots: "from" and "to", or "arc": {center, radius, start, end}. */
static int read_hair_roots(struct loader *ld, const cJSON *e, const char *path,
                           struct hair_def *def)
{
    char p[SJSON_PATH_MAX];
    const cJSON *arc = sjson_child(e, "arc");
    const int has_from = sjson_child(e, "from") != NULL, has_to = sjson_child(e, "to") != NULL;
    if (arc) {
        if ((has_from && loader_either(ld, e, path, "from", "arc")) ||
            (has_to && loader_either(ld, e, path, "to", "arc")) ||
            sjson_object(&ld->cx, e, path, "arc", build_hair_arc_keys, &arc))
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
    struct body_common c;
    char k[SJSON_PATH_MAX];
    *def = build_hair_def();
    if (bodies_read_common(ld, e, path, p, &c) ||
        bodies_read_count(ld, e, path, "strands", 1, SCENARIO_MAX_POINTS, &def->strands) ||
        bodies_read_count(ld, e, path, "points", 2, SCENARIO_MAX_POINTS, &def->points))
        return CATENA_EINPUT;
    const long long strands = def->strands, n = strands * def->points;
    if (bodies_add_points(ld, path, n,
                          (n - strands) + (bodies_set_on(e, "bend", 1) ? n - 2 * strands : 0), 0,
                          points))
        return CATENA_EINPUT;
    p->npoints = def->strands * def->points;
    def->name = c.name;
    def->mass = c.mass;
    def->radius = c.radius;
    def->links = def->bend = c.links;
    if (read_hair_roots(ld, e, path, def) ||
        sjson_get_number(&ld->cx, e, path, "length", &SJSON_POSITIVE, &def->length) ||
        sjson_get_vector(&ld->cx, e, path, "direction", ld->m->dims, &def->direction) ||
        bodies_read_set(ld, e, path, "bend", bodies_link_set_keys, &def->bend))
        return CATENA_EINPUT;
    if (sjson_child(e, "direction")) {
        if (v3_unit(def->direction, &def->direction))
            return sjson_error(&ld->cx, sjson_path_key(k, path, "direction"),
                               "must not be the zero vector");
        def->has_direction = 1;
    }
    return 0;
}

static long build_body(struct loader *ld, const struct body_plan *p)
{
    return build_hair(ld->m, &p->def.hair, ld->m->gravity);
}

static long pin_point(const struct body_plan *p, int name, size_t j)
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

const struct body_kind build_hair_kind = {
    .name = "hair",
    .article = "hair",
    .keys = hair_keys,
    .more_keys = hair_more_keys,
    .pin_names = hair_pin_names,
    .default_pin = PIN_OWN,
    .read = read_hair,
    .build = build_body,
    .pin_point = pin_point,
};
