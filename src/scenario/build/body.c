/* What the body generators share: links at their initial distance with a family's
 * parameters, and the body record that names the ranges a generator appended. */
#include "scenario/build/build.h"

long build_link(struct model *m, uint32_t a, uint32_t b, const struct build_set *set,
                enum link_role role)
{
    const long l = model_add_link(m, a, b, v3_dist(m->x0[a], m->x0[b]));
    if (l < 0)
        return -1;
    m->links[l].stiffness = set->stiffness;
    m->links[l].compliance = set->compliance;
    m->links[l].break_stretch = set->break_stretch;
    m->links[l].role = (uint8_t)role;
    return l;
}

void build_close_body(struct model *m, long b, size_t first_point, size_t first_link)
{
    struct body *body = &m->bodies[b];
    body->first_point = (uint32_t)first_point;
    body->npoints = (uint32_t)(m->npoints - first_point);
    body->first_link = (uint32_t)first_link;
    body->nlinks = (uint32_t)(m->nlinks - first_link);
}
