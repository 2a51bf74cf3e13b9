/* The per-point stages of a substep (solver/points.h): Verlet integration (Jakobsen 2001:
 * x' = x + (x - xprev) damping + g h^2), PBD's prediction (Mueller et al. 2007: v += g h,
 * p* = x + v h) and its velocity update v = keep (p* - x) / h; and the scan for diverged
 * points. */
#include "solver/points.h"

#include <math.h>

#include "solver/state.h"

/* Verlet with per-substep damping; velocity is implicit in x - xprev. */
static void integrate(const struct model *m, struct state *s, double h, size_t begin, size_t end)
{
    const vec3 gh2 = v3_scale(m->gravity, h * h);
    for (size_t i = begin; i < end; i++) {
        if (m->inv_mass[i] == 0.0)
            continue;
        const vec3 x = s->x[i];
        s->x[i] = v3_add(v3_add(x, v3_scale(v3_sub(x, s->xprev[i]), m->damping)), gh2);
        s->xprev[i] = x;
    }
}

/* PBD's prediction (Mueller et al. 2007, steps 5 and 7): v += g h, p* = x + v h; xprev keeps
 * x for the velocity update. */
static void predict(const struct model *m, struct state *s, double h, size_t begin, size_t end)
{
    const vec3 gh = v3_scale(m->gravity, h);
    for (size_t i = begin; i < end; i++) {
        if (m->inv_mass[i] == 0.0)
            continue;
        s->v[i] = v3_add(s->v[i], gh);
        s->xprev[i] = s->x[i];
        s->x[i] = v3_add(s->x[i], v3_scale(s->v[i], h));
    }
}

void points_advance(const struct model *m, struct state *s, double h, size_t begin, size_t end)
{
    if (m->method == METHOD_VERLET)
        integrate(m, s, h, begin, end);
    else
        predict(m, s, h, begin, end);
}

/* Whatever the projections did to a point becomes its velocity. keep = damping^h makes
 * damping the fraction of velocity kept per second whatever the step. Damping here rather
 * than after gravity (Mueller et al.'s step 6) leaves a point at rest unchanged, so the
 * static equilibrium does not depend on the damping: damped after gravity, a hanging load
 * would feel g keep instead of g. */
void points_velocities(const struct model *m, struct state *s, double h, double keep, size_t begin,
                       size_t end)
{
    if (m->method == METHOD_VERLET)
        return;
    const double f = keep / h;
    for (size_t i = begin; i < end; i++)
        if (m->inv_mass[i] != 0.0)
            s->v[i] = v3_scale(v3_sub(s->x[i], s->xprev[i]), f);
}

long points_find_diverged(const struct state *s, size_t begin, size_t end)
{
    for (size_t i = begin; i < end; i++) {
        const vec3 x = s->x[i];
        if (!v3_isfinite(x) || fabs(x.x) > SOLVER_ABSURD || fabs(x.y) > SOLVER_ABSURD ||
            fabs(x.z) > SOLVER_ABSURD)
            return (long)i;
    }
    return -1;
}
