/* Hair bodies: strands of equal point masses, rooted along a line or an arc, each a chain
 * of links with bend links to the point two ahead (the distance form of bending, Mueller
 * et al. 2007, section 4.4), which resists folding without any angle bookkeeping. Strands
 * start straight; which of their points are pinned is the scenario's ("roots" by default). */
#include "scenario/build/build.h"

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
