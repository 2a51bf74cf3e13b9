/* Distance constraints, projected one at a time (Gauss-Seidel; Jakobsen 2001, Mueller et al.
 * 2007). With C = |d| - L and n = d/|d|, d = x_b - x_a, the correction is split by inverse
 * mass, x_a += k w_a/(w_a+w_b) C n and x_b -= k w_b/(w_a+w_b) C n, so m_a dx_a + m_b dx_b = 0:
 * internal constraints never move the centre of mass. */
#include "constraint_distance.h"

void distance_project(const struct model *m, struct state *s, size_t i)
{
    const struct link *l = &m->links[i];
    const double wa = m->inv_mass[l->a], wb = m->inv_mass[l->b];
    const double w = wa + wb;
    if (!s->alive[i] || w == 0.0)
        return;
    const vec3 d = v3_sub(s->x[l->b], s->x[l->a]);
    const double len = v3_len(d);
    /* Coincident points have no direction to push along; leave them to the next sweep. */
    if (len == 0.0)
        return;
    const vec3 corr = v3_scale(d, l->stiffness * (len - l->rest) / (w * len));
    /* An immovable end is not written at all: x + 0 * corr would turn -0.0 into +0.0, and a
     * non-finite corr into NaN, and pins are promised to hold bit for bit. */
    if (wa != 0.0)
        s->x[l->a] = v3_add(s->x[l->a], v3_scale(corr, wa));
    if (wb != 0.0)
        s->x[l->b] = v3_sub(s->x[l->b], v3_scale(corr, wb));
}

double distance_stretch(const struct model *m, const struct state *s, size_t i)
{
    const struct link *l = &m->links[i];
    return v3_dist(s->x[l->a], s->x[l->b]) / l->rest;
}
