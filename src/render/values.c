/* The quantities links are coloured by, all from positions (and velocities) plus the model,
 * so a finished run needs nothing else stored. Tension is the force the link's remaining
 * error would exert in one XPBD projection (Macklin et al. 2016, eq. 18 with lambda from 0):
 * T = C / ((w_a + w_b) h^2 + alpha), C = length - rest, h = dt / substeps, alpha the
 * compliance. For a compliant link this tends to Hooke's law C / alpha; for a rigid one it is
 * the force that would close the residual stretch within one substep. */
#include "render/internal.h"

double render_link_value(const struct render_scene *sc, size_t i, const vec3 *x, const vec3 *v)
{
    const struct model *m = sc->m;
    const struct link *l = &sc->topo.links[i];
    const double *w = sc->topo.inv_mass;
    switch (sc->o->color_by) {
    case RENDER_BY_STRETCH:
        return v3_dist(x[l->a], x[l->b]) / l->rest;
    case RENDER_BY_TENSION: {
        const double h = m->dt / m->substeps;
        double c = v3_dist(x[l->a], x[l->b]) - l->rest;
        if (l->kind == LINK_TETHER && c < 0)
            c = 0; /* a slack tether pulls on nothing */
        const double d = (w[l->a] + w[l->b]) * h * h + l->compliance;
        return d > 0 ? c / d : 0;
    }
    case RENDER_BY_SPEED:
        return 0.5 * (v3_len(v[l->a]) + v3_len(v[l->b]));
    case RENDER_BY_NONE:
        break;
    }
    return 0;
}

const char *render_value_title(enum render_color_by by)
{
    switch (by) {
    case RENDER_BY_STRETCH:
        return "stretch-1";
    case RENDER_BY_TENSION:
        return "tension N";
    case RENDER_BY_SPEED:
        return "speed m/s";
    case RENDER_BY_NONE:
        break;
    }
    return NULL;
}

const char *render_color_by_name(enum render_color_by c)
{
    static const char *const names[] = {"stretch", "tension", "speed", "none"};
    return c <= RENDER_BY_NONE ? names[c] : "?";
}
