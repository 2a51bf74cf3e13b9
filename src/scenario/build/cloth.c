/* Cloth bodies (Provot 1995; Jakobsen 2001): a grid of equal point masses joined by
 * structural links to the neighbours in its row and column, shear links along both
 * diagonals of every cell, and bend links to the points two apart, each family switchable.
 * Two triangles per cell carry the cloth's surface for rendering. */
#include "scenario/build/build.h"

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
