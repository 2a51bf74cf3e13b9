/* Distance constraints, projected one at a time (Gauss-Seidel; Jakobsen 2001, Mueller et al.
 * 2007, Macklin et al. 2016). With C = |d| - L and n = d/|d|, d = x_b - x_a, the correction is
 * split by inverse mass, x_a += w_a n s and x_b -= w_b n s with s = k C / (w_a + w_b) (or the
 * XPBD multiplier), so m_a dx_a + m_b dx_b = 0: internal constraints never move the centre of
 * mass. */
#include "solver/distance.h"

#include <math.h>

void distance_pair(const struct constraint_ctx *cx, struct state *s, uint32_t a, uint32_t b,
                   double rest, int tether, double stiffness, double compliance, double *lambda)
{
    const double wa = cx->w[a], wb = cx->w[b];
    const double w = wa + wb;
    if (w == 0.0)
        return;
    const vec3 d = v3_sub(s->x[b], s->x[a]);
    const double len = v3_len(d);
    /* Coincident points have no direction to push along; leave them to the next sweep. A
     * tether at or below its rest length is slack and pushes nothing. */
    if (len == 0.0 || (tether && len <= rest))
        return;
    const double r = constraint_step(cx, len - rest, w, len, stiffness, compliance, lambda);
    const vec3 corr = v3_scale(d, -r);
    /* An immovable end is not written at all: x + 0 * corr would turn -0.0 into +0.0, and a
     * non-finite corr into NaN, and pins are promised to hold bit for bit. */
    if (wa != 0.0)
        s->x[a] = v3_add(s->x[a], v3_scale(corr, wa));
    if (wb != 0.0)
        s->x[b] = v3_sub(s->x[b], v3_scale(corr, wb));
}

static inline void solve_link(const struct constraint_ctx *cx, const struct model *m,
                              struct state *s, size_t i)
{
    const struct link *l = &m->links[i];
    if (s->alive[i])
        distance_pair(cx, s, l->a, l->b, l->rest, l->kind == LINK_TETHER, l->stiffness,
                      l->compliance, &s->link_lambda[i]);
}

void distance_project(const struct model *m, struct state *s, size_t i)
{
    const struct constraint_ctx cx = constraint_ctx_make(m);
    solve_link(&cx, m, s, i);
}

void distance_relax_range(const struct constraint_ctx *cx, const struct model *m, struct state *s,
                          size_t begin, size_t end, int backward)
{
    if (backward) {
        for (size_t i = end; i-- > begin;)
            solve_link(cx, m, s, i);
    } else {
        for (size_t i = begin; i < end; i++)
            solve_link(cx, m, s, i);
    }
}

void distance_relax_list(const struct constraint_ctx *cx, const struct model *m, struct state *s,
                         const uint32_t *list, size_t n)
{
    for (size_t k = 0; k < n; k++)
        solve_link(cx, m, s, list[k]);
}

double distance_stretch(const struct model *m, const struct state *s, size_t i)
{
    const struct link *l = &m->links[i];
    return v3_dist(s->x[l->a], s->x[l->b]) / l->rest;
}

double distance_error(const struct model *m, const struct state *s, size_t i)
{
    const struct link *l = &m->links[i];
    const double e = v3_dist(s->x[l->a], s->x[l->b]) - l->rest;
    return l->kind == LINK_TETHER && e < 0.0 ? 0.0 : fabs(e);
}

double distance_tension(const struct model *m, const struct state *s, size_t i)
{
    const struct link *l = &m->links[i];
    if (m->method == METHOD_XPBD) {
        const double h = m->dt / m->substeps;
        return -s->link_lambda[i] / (h * h);
    }
    if (l->compliance == 0.0)
        return NAN;
    const double e = v3_dist(s->x[l->a], s->x[l->b]) - l->rest;
    return l->kind == LINK_TETHER && e < 0.0 ? 0.0 : e / l->compliance;
}
