/* Soft bodies (Jakobsen 2001; Mueller et al. 2007, sections 4.4 and 4.5): a closed ring of
 * points in a plane, or an icosphere (an icosahedron whose faces are split in four
 * `subdivisions` times, new points pushed out onto the sphere), with optional spokes from
 * a centre point, an area (ring) or volume (sphere) constraint held at pressure x rest,
 * and shape matching (Mueller et al. 2005) over all the points. The file ends with the soft
 * body's reader: its keys and which of them each shape takes. */
#include "scenario/build/build.h"

#include <stdio.h>
#include <stdlib.h>

#include "scenario/bodies.h"
#include "scenario/scenario.h"

struct softbody_def build_softbody_def(void)
{
    const struct build_set rigid = {.on = 1, .stiffness = 1.0};
    return (struct softbody_def){.shape = SOFT_RING,
                                 .size = 1.0,
                                 .points = 16,
                                 .u = v3(1, 0, 0),
                                 .v = v3(0, 1, 0),
                                 .mass = 1.0,
                                 .edges = rigid,
                                 .spokes = rigid,
                                 .area = {.on = 0, .stiffness = 1.0},
                                 .pressure = 1.0};
}

static uint32_t surface_points(const struct softbody_def *def)
{
    if (def->shape == SOFT_RING)
        return def->points;
    uint32_t n = 12;
    for (uint32_t s = 0; s < def->subdivisions; s++)
        n = 4 * n - 6; /* V' = V + E with E = 3 F / 2 = 3 (V - 2) */
    return n;
}

uint32_t build_softbody_points(const struct softbody_def *def)
{
    return surface_points(def) + (def->spokes.on ? 1u : 0u);
}

/* ---- the icosphere ---- */

/* An edge's midpoint, found again when the face on its other side is split. */
struct mid {
    uint32_t a, b; /* a < b; a == b marks an empty slot */
    uint32_t point;
};

struct sphere {
    struct model *m;
    vec3 center;
    double size, point_mass, radius;
    struct mid *mids; /* open addressing, a power of two at least twice the edges */
    size_t cap;
};

static long sphere_point(struct sphere *sp, vec3 dir)
{
    const vec3 x = v3_add(sp->center, v3_scale(dir, sp->size / v3_len(dir)));
    return model_add_point(sp->m, x, v3(0, 0, 0), sp->point_mass, sp->radius, NULL);
}

static long midpoint(struct sphere *sp, uint32_t a, uint32_t b)
{
    if (a > b) {
        const uint32_t t = a;
        a = b;
        b = t;
    }
    size_t i = (((size_t)a * 2654435761u) ^ b) & (sp->cap - 1);
    while (sp->mids[i].a != sp->mids[i].b && !(sp->mids[i].a == a && sp->mids[i].b == b))
        i = (i + 1) & (sp->cap - 1);
    if (sp->mids[i].a == a && sp->mids[i].b == b)
        return sp->mids[i].point;
    const vec3 c = v3_scale(v3_add(sp->m->x0[a], sp->m->x0[b]), 0.5);
    const long p = sphere_point(sp, v3_sub(c, sp->center));
    if (p >= 0)
        sp->mids[i] = (struct mid){.a = a, .b = b, .point = (uint32_t)p};
    return p;
}

/* Splits every face of tri[0..*n) in four into out, midpoints shared between neighbours. */
static int subdivide(struct sphere *sp, const uint32_t (*tri)[3], size_t n, uint32_t (*out)[3])
{
    for (size_t i = 0; i < sp->cap; i++)
        sp->mids[i] = (struct mid){0};
    for (size_t f = 0; f < n; f++) {
        const uint32_t *v = tri[f];
        const long ab = midpoint(sp, v[0], v[1]), bc = midpoint(sp, v[1], v[2]),
                   ca = midpoint(sp, v[2], v[0]);
        if (ab < 0 || bc < 0 || ca < 0)
            return -1;
        const uint32_t x = (uint32_t)ab, y = (uint32_t)bc, z = (uint32_t)ca;
        const uint32_t split[4][3] = {{v[0], x, z}, {x, v[1], y}, {z, y, v[2]}, {x, y, z}};
        for (size_t k = 0; k < 4; k++)
            for (size_t j = 0; j < 3; j++)
                out[4 * f + k][j] = split[k][j];
    }
    return 0;
}

/* The 12 vertices (0, +-1, +-phi) and cyclic permutations, and the 20 faces, outward. */
static const uint32_t ico_faces[20][3] = {
    {0, 11, 5},  {0, 5, 1},  {0, 1, 7},  {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
    {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
    {3, 8, 9},   {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1},
};

/* Builds the sphere's points and leaves its faces in *faces (malloc'd, *nfaces of them),
 * as point indices of the model. */
static int sphere_mesh(struct model *m, const struct softbody_def *def, double point_mass,
                       uint32_t (**faces)[3], size_t *nfaces)
{
    const double t = (1.0 + sqrt(5.0)) / 2.0;
    const vec3 ico[12] = {v3(-1, t, 0), v3(1, t, 0), v3(-1, -t, 0), v3(1, -t, 0),
                          v3(0, -1, t), v3(0, 1, t), v3(0, -1, -t), v3(0, 1, -t),
                          v3(t, 0, -1), v3(t, 0, 1), v3(-t, 0, -1), v3(-t, 0, 1)};
    size_t n = 20;
    for (uint32_t s = 0; s < def->subdivisions; s++)
        n *= 4;
    struct sphere sp = {.m = m,
                        .center = def->center,
                        .size = def->size,
                        .point_mass = point_mass,
                        .radius = def->radius};
    while (sp.cap < 3 * n) /* the last level's edges are 3n/8: far under half full */
        sp.cap = sp.cap ? 2 * sp.cap : 64;
    uint32_t(*a)[3] = malloc(n * sizeof *a), (*b)[3] = malloc(n * sizeof *b);
    sp.mids = malloc(sp.cap * sizeof *sp.mids);
    if (!a || !b || !sp.mids)
        goto fail;
    const uint32_t first = (uint32_t)m->npoints;
    for (size_t k = 0; k < 12; k++)
        if (sphere_point(&sp, ico[k]) < 0)
            goto fail;
    size_t cur = 20;
    for (size_t f = 0; f < 20; f++)
        for (size_t j = 0; j < 3; j++)
            a[f][j] = first + ico_faces[f][j];
    for (uint32_t s = 0; s < def->subdivisions; s++, cur *= 4) {
        if (subdivide(&sp, (const uint32_t(*)[3])a, cur, b))
            goto fail;
        uint32_t(*t3)[3] = a;
        a = b;
        b = t3;
    }
    free(b);
    free(sp.mids);
    *faces = a;
    *nfaces = cur;
    return 0;
fail:
    free(a);
    free(b);
    free(sp.mids);
    return -1;
}

/* ---- the body ---- */

static int ring_points(struct model *m, const struct softbody_def *def, double point_mass)
{
    const double step = 2.0 * 3.14159265358979323846 / (double)def->points;
    for (uint32_t k = 0; k < def->points; k++) {
        const double a = step * (double)k;
        const vec3 x = v3_add(def->center, v3_add(v3_scale(def->u, def->size * cos(a)),
                                                  v3_scale(def->v, def->size * sin(a))));
        if (model_add_point(m, x, v3(0, 0, 0), point_mass, def->radius, NULL) < 0)
            return -1;
    }
    return 0;
}

/* The centre point, named so that scenarios can pin or link it. */
static long center_point(struct model *m, const struct softbody_def *def, double point_mass)
{
    char name[300];
    snprintf(name, sizeof name, "%s.center", def->name);
    return model_add_point(m, def->center, v3(0, 0, 0), point_mass, def->radius, name);
}

/* Ring edges k -> k+1 (closing back to 0), and its faces: a fan from the centre when there
 * is one, else from point 0. */
static int ring_topology(struct model *m, const struct softbody_def *def, uint32_t f, long c,
                         uint32_t body)
{
    const uint32_t n = def->points;
    for (uint32_t k = 0; def->edges.on && k < n; k++)
        if (build_link(m, f + k, f + (k + 1) % n, &def->edges, ROLE_STRUCTURAL) < 0)
            return -1;
    for (uint32_t k = 0; k < n; k++) {
        if (c >= 0 ? model_add_face(m, (uint32_t)c, f + k, f + (k + 1) % n, body) < 0
                   : k >= 1 && k + 1 < n && model_add_face(m, f, f + k, f + k + 1, body) < 0)
            return -1;
    }
    return 0;
}

/* Every mesh edge once: consistently oriented faces list each interior edge once each way. */
static int mesh_topology(struct model *m, const struct softbody_def *def,
                         const uint32_t (*faces)[3], size_t nfaces, uint32_t body)
{
    for (size_t i = 0; i < nfaces; i++)
        for (size_t j = 0; def->edges.on && j < 3; j++) {
            const uint32_t a = faces[i][j], b = faces[i][(j + 1) % 3];
            if (a < b && build_link(m, a, b, &def->edges, ROLE_STRUCTURAL) < 0)
                return -1;
        }
    for (size_t i = 0; i < nfaces; i++)
        if (model_add_face(m, faces[i][0], faces[i][1], faces[i][2], body) < 0)
            return -1;
    return 0;
}

static int add_area(struct model *m, const struct softbody_def *def, uint32_t f, size_t first_face)
{
    long a;
    if (def->shape == SOFT_RING) {
        uint32_t *ring = malloc(def->points * sizeof *ring);
        if (!ring)
            return -1;
        for (uint32_t k = 0; k < def->points; k++)
            ring[k] = f + k;
        a = model_add_area(m, ring, def->points);
        free(ring);
    } else {
        a = model_add_volume(m, (uint32_t)first_face, (uint32_t)(m->nfaces - first_face));
    }
    if (a < 0)
        return -1;
    m->areas[a].pressure = def->pressure;
    m->areas[a].stiffness = def->area.stiffness;
    m->areas[a].compliance = def->area.compliance;
    return 0;
}

static int add_shape(struct model *m, uint32_t f, uint32_t n, double stiffness)
{
    uint32_t *all = malloc(n * sizeof *all);
    if (!all)
        return -1;
    for (uint32_t k = 0; k < n; k++)
        all[k] = f + k;
    const long s = model_add_shape(m, all, n, stiffness);
    free(all);
    return s < 0 ? -1 : 0;
}

long build_softbody(struct model *m, const struct softbody_def *def)
{
    const long b = model_add_body(m, def->name, BODY_SOFTBODY);
    if (b < 0)
        return -1;
    const size_t first_point = m->npoints, first_link = m->nlinks, first_face = m->nfaces;
    const uint32_t f = (uint32_t)first_point, n = surface_points(def);
    const double point_mass = def->mass / (double)build_softbody_points(def);
    uint32_t(*faces)[3] = NULL;
    size_t nfaces = 0;
    long c = -1;
    if ((def->shape == SOFT_RING ? ring_points(m, def, point_mass)
                                 : sphere_mesh(m, def, point_mass, &faces, &nfaces)) ||
        (def->spokes.on && (c = center_point(m, def, point_mass)) < 0))
        goto fail;
    if (def->shape == SOFT_RING
            ? ring_topology(m, def, f, c, (uint32_t)b)
            : mesh_topology(m, def, (const uint32_t(*)[3])faces, nfaces, (uint32_t)b))
        goto fail;
    for (uint32_t k = 0; c >= 0 && k < n; k++)
        if (build_link(m, (uint32_t)c, f + k, &def->spokes, ROLE_SHEAR) < 0)
            goto fail;
    if ((def->area.on && add_area(m, def, f, first_face)) ||
        (def->shape_matching > 0 &&
         add_shape(m, f, (uint32_t)(m->npoints - first_point), def->shape_matching)))
        goto fail;
    free(faces);
    build_close_body(m, b, first_point, first_link);
    return b;
fail:
    free(faces);
    return -1;
}

/* ---- the soft body's reader (scenario/bodies.h) ---- */

// clang-format off
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
// clang-format on

const char *const build_softbody_shape_names[] = {"ring", "sphere", NULL};

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
    if (bodies_read_set(ld, e, path, "area", bodies_set_keys, &def->area) ||
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
    struct body_common c;
    int shape = SOFT_RING;
    *def = build_softbody_def();
    if (bodies_read_common(ld, e, path, p, &c) ||
        sjson_get_enum(&ld->cx, e, path, "shape", build_softbody_shape_names, &shape) ||
        bodies_read_count(ld, e, path, "points", 3, SCENARIO_MAX_POINTS, &def->points) ||
        bodies_read_count(ld, e, path, "subdivisions", 0, 7, &def->subdivisions))
        return CATENA_EINPUT;
    def->shape = (enum softbody_shape)shape;
    def->spokes = def->edges = c.links;
    if (bodies_read_set(ld, e, path, "spokes", bodies_link_set_keys, &def->spokes))
        return CATENA_EINPUT;
    p->npoints = build_softbody_points(def);
    /* Edges: the ring's n, or the mesh's 3/2 per face; spokes: one a point. */
    if (bodies_add_points(ld, path, p->npoints, 3LL * p->npoints, 2LL * p->npoints, points))
        return CATENA_EINPUT;
    def->name = c.name;
    def->mass = c.mass;
    def->radius = c.radius;
    if (sjson_get_vector(&ld->cx, e, path, "center", ld->m->dims, &def->center) ||
        sjson_get_number(&ld->cx, e, path, "shape_radius", &SJSON_POSITIVE, &def->size) ||
        read_softbody_area(ld, e, path, def) ||
        sjson_get_number(&ld->cx, e, path, "shape_matching", &SJSON_UNIT, &def->shape_matching) ||
        check_softbody_shape(ld, e, path, def) ||
        (def->shape == SOFT_RING && bodies_read_plane(ld, e, path, &def->u, &def->v)))
        return CATENA_EINPUT;
    return 0;
}

static long build_body(struct loader *ld, const struct body_plan *p)
{
    return build_softbody(ld->m, &p->def.softbody);
}

const struct body_kind build_softbody_kind = {
    .name = "softbody",
    .article = "a soft body",
    .keys = softbody_keys,
    .more_keys = softbody_more_keys,
    .pin_names = bodies_end_pin_names,
    .default_pin = -1,
    .read = read_softbody,
    .build = build_body,
    .pin_point = NULL,
};
