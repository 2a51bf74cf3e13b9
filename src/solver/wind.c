/* Wind drag on links: a slender body in a flow feels pressure drag from the flow normal to
 * it only (the independence principle of cross-flow drag, Hoerner 1965); the force is
 * F = drag * length * |vn| * vn with drag = rho C_d d / 2 in kg/m^2, split evenly between the
 * link's ends and integrated like gravity, as a displacement F w h^2. */
#include "solver/wind.h"

#include <math.h>

#define TWO_PI 6.283185307179586476925286766559

vec3 wind_at(const struct model *m, double t)
{
    const double gust = 1.0 + m->gust_amplitude * sin(TWO_PI * m->gust_frequency * t);
    return v3_scale(m->wind, gust);
}

static void drag_link(const struct model *m, struct state *s, size_t i, double drag, vec3 air,
                      double h)
{
    const struct link *l = &m->links[i];
    const vec3 d = v3_sub(s->x[l->b], s->x[l->a]);
    const double len = v3_len(d);
    if (len == 0.0)
        return;
    const vec3 t = v3_scale(d, 1.0 / len);
    const vec3 moved =
        v3_add(v3_sub(s->x[l->a], s->xprev[l->a]), v3_sub(s->x[l->b], s->xprev[l->b]));
    const vec3 rel = v3_sub(air, v3_scale(moved, 0.5 / h));
    const vec3 vn = v3_sub(rel, v3_scale(t, v3_dot(rel, t)));
    /* Half the force to each end, as a displacement (F / 2) w h^2. */
    const vec3 half = v3_scale(vn, 0.5 * drag * len * v3_len(vn) * h * h);
    if (m->inv_mass[l->a] != 0.0)
        s->x[l->a] = v3_add(s->x[l->a], v3_scale(half, m->inv_mass[l->a]));
    if (m->inv_mass[l->b] != 0.0)
        s->x[l->b] = v3_add(s->x[l->b], v3_scale(half, m->inv_mass[l->b]));
}

void wind_apply(const struct model *m, struct state *s, double h, double t)
{
    const vec3 air = wind_at(m, t);
    for (size_t b = 0; b < m->nbodies; b++) {
        const struct body *bd = &m->bodies[b];
        if (bd->drag <= 0.0)
            continue;
        /* Structural links only: shear and bend links span the same cloth again. Links are
         * taken in order, each seeing its neighbours' drag already added: a difference of
         * order (F h^2)^2, and no scratch array. */
        for (uint32_t k = 0; k < bd->nlinks; k++) {
            const size_t i = bd->first_link + k;
            if (s->alive[i] && m->links[i].role == ROLE_STRUCTURAL)
                drag_link(m, s, i, bd->drag, air, h);
        }
    }
}
