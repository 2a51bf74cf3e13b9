/* Cloth bodies (Provot 1995; Jakobsen 2001): a grid of equal point masses joined by
 * structural links to the neighbours in its row and column, shear links along both
 * diagonals of every cell, and bend links to the points two apart, each family switchable.
 * Two triangles per cell carry the cloth's surface for rendering. The file ends with the
 * cloth's reader: its keys, spacing or size, placement and pin names. */
#include "scenario/build/build.h"

#include "scenario/bodies.h"
#include "scenario/scenario.h"

struct cloth_def build_cloth_def(void)
{
    const struct build_set rigid = {.on = 1, .stiffness = 1.0};
    return (struct cloth_def){.rows = 2,
                              .cols = 2,
                              .u = v3(1, 0, 0),
                              .v = v3(0, 1, 0),
                              .dx = 1.0,
                              .dy = 1.0,
                              .mass = 1.0,
                              .structural = rigid,
                              .shear = rigid,
                              .bend = {.on = 0, .stiffness = 1.0}};
}

/* Links from every point to the one dr rows and dc columns on, where it exists. */
static int grid_links(struct model *m, const struct cloth_def *def, uint32_t first, uint32_t dr,
                      int dc, const struct build_set *set, enum link_role role)
{
    const uint32_t rows = def->rows, cols = def->cols;
    for (uint32_t r = 0; r + dr < rows; r++)
        for (uint32_t c = 0; c < cols; c++) {
            const long c2 = (long)c + dc;
            if (c2 < 0 || c2 >= (long)cols)
                continue;
            const uint32_t a = first + r * cols + c, b = first + (r + dr) * cols + (uint32_t)c2;
            if (build_link(m, a, b, set, role) < 0)
                return -1;
        }
    return 0;
}

long build_cloth(struct model *m, const struct cloth_def *def)
{
    const uint32_t rows = def->rows, cols = def->cols;
    const double point_mass = def->mass / ((double)rows * (double)cols);
    const long b = model_add_body(m, def->name, BODY_CLOTH);
    if (b < 0)
        return -1;
    const size_t first_point = m->npoints, first_link = m->nlinks;
    const uint32_t f = (uint32_t)first_point;
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t c = 0; c < cols; c++) {
            const vec3 x = v3_add(def->corner, v3_sub(v3_scale(def->u, (double)c * def->dx),
                                                      v3_scale(def->v, (double)r * def->dy)));
            if (model_add_point(m, x, v3(0, 0, 0), point_mass, def->radius, NULL) < 0)
                return -1;
        }
    const struct build_set *st = &def->structural, *sh = &def->shear, *bd = &def->bend;
    if ((st->on && (grid_links(m, def, f, 0, 1, st, ROLE_STRUCTURAL) ||
                    grid_links(m, def, f, 1, 0, st, ROLE_STRUCTURAL))) ||
        (sh->on && (grid_links(m, def, f, 1, 1, sh, ROLE_SHEAR) ||
                    grid_links(m, def, f, 1, -1, sh, ROLE_SHEAR))) ||
        (bd->on && (grid_links(m, def, f, 0, 2, bd, ROLE_BEND) ||
                    grid_links(m, def, f, 2, 0, bd, ROLE_BEND))))
        return -1;
    /* (r,c), (r+1,c), (r+1,c+1) turns from -v to u - v: counter-clockwise about u x v. */
    for (uint32_t r = 0; r + 1 < rows; r++)
        for (uint32_t c = 0; c + 1 < cols; c++) {
            const uint32_t p = f + r * cols + c, below = p + cols;
            if (model_add_face(m, p, below, below + 1, (uint32_t)b) < 0 ||
                model_add_face(m, p, below + 1, p + 1, (uint32_t)b) < 0)
                return -1;
        }
    build_close_body(m, b, first_point, first_link);
    m->bodies[b].grid_cols = cols;
    return b;
}

/* ---- the cloth's reader (scenario/bodies.h) ---- */

// clang-format off
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
// clang-format on

static const char *const cloth_pin_names[] = {"first",       "last",    "top-row",
                                              "top-corners", "corners", NULL};

/* "spacing": one number for both directions; "size": [width, height], the grid's extent. */
static int read_cloth_spacing(struct loader *ld, const cJSON *e, const char *path,
                              struct cloth_def *def)
{
    char p[SJSON_PATH_MAX], pi[SJSON_PATH_MAX];
    const cJSON *size = sjson_child(e, "size");
    if (!sjson_child(e, "spacing") && !size)
        return sjson_error(&ld->cx, path, "missing required key \"spacing\" (or give \"size\")");
    if (loader_either(ld, e, path, "spacing", "size") ||
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
    struct body_common c;
    *def = build_cloth_def();
    if (bodies_read_common(ld, e, path, p, &c) ||
        bodies_read_count(ld, e, path, "rows", 2, SCENARIO_MAX_POINTS, &def->rows) ||
        bodies_read_count(ld, e, path, "cols", 2, SCENARIO_MAX_POINTS, &def->cols))
        return CATENA_EINPUT;
    const long long r = def->rows, cl = def->cols;
    const long long links = (bodies_set_on(e, "structural", 1) ? r * (cl - 1) + cl * (r - 1) : 0) +
                            (bodies_set_on(e, "shear", 1) ? 2 * (r - 1) * (cl - 1) : 0) +
                            (bodies_set_on(e, "bend", 0) ? r * (cl - 2) + cl * (r - 2) : 0);
    if (bodies_add_points(ld, path, r * cl, links, 2 * (r - 1) * (cl - 1), points))
        return CATENA_EINPUT;
    p->npoints = def->rows * def->cols;
    def->name = c.name;
    def->mass = c.mass;
    def->radius = c.radius;
    def->structural = def->shear = def->bend = c.links;
    def->bend.on = 0;
    vec3 center = v3(0, 0, 0);
    if (read_cloth_spacing(ld, e, path, def) || loader_either(ld, e, path, "center", "corner") ||
        sjson_get_vector(&ld->cx, e, path, "center", ld->m->dims, &center) ||
        sjson_get_vector(&ld->cx, e, path, "corner", ld->m->dims, &def->corner) ||
        bodies_read_plane(ld, e, path, &def->u, &def->v) ||
        bodies_read_set(ld, e, path, "structural", bodies_link_set_keys, &def->structural) ||
        bodies_read_set(ld, e, path, "shear", bodies_link_set_keys, &def->shear) ||
        bodies_read_set(ld, e, path, "bend", bodies_link_set_keys, &def->bend))
        return CATENA_EINPUT;
    if (!sjson_child(e, "corner")) {
        const double w = def->dx * (double)(def->cols - 1), h = def->dy * (double)(def->rows - 1);
        def->corner = v3_add(center, v3_sub(v3_scale(def->v, 0.5 * h), v3_scale(def->u, 0.5 * w)));
    }
    return 0;
}

static long build_body(struct loader *ld, const struct body_plan *p)
{
    return build_cloth(ld->m, &p->def.cloth);
}

static long pin_point(const struct body_plan *p, int name, size_t j)
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

const struct body_kind build_cloth_kind = {
    .name = "cloth",
    .article = "a cloth",
    .keys = cloth_keys,
    .more_keys = cloth_more_keys,
    .pin_names = cloth_pin_names,
    .default_pin = -1,
    .read = read_cloth,
    .build = build_body,
    .pin_point = pin_point,
};
