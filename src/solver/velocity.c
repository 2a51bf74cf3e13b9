/* Velocities of points (solver/velocity.h): h is the substep, the interval the methods'
 * velocities are measured over. */
#include "solver/velocity.h"

#include "solver/state.h"

vec3 velocity_get(const struct model *m, const struct state *s, size_t i)
{
    if (m->method != METHOD_VERLET)
        return s->v[i];
    const double h = m->dt / m->substeps;
    return v3_scale(v3_sub(s->x[i], s->xprev[i]), 1.0 / h);
}

void velocity_set(const struct model *m, struct state *s, size_t i, vec3 v)
{
    const double h = m->dt / m->substeps;
    s->xprev[i] = v3_sub(s->x[i], v3_scale(v, h));
    if (m->method != METHOD_VERLET)
        s->v[i] = v;
}

void velocity_launch(const struct model *m, struct state *s, size_t i, vec3 v)
{
    const double h = m->dt / m->substeps;
    if (m->method != METHOD_VERLET) {
        velocity_set(m, s, i, v);
        return;
    }
    s->xprev[i] = v3_add(v3_sub(s->x[i], v3_scale(v, h)), v3_scale(m->gravity, 0.5 * h * h));
}
