/* The position-based step (Jakobsen, "Advanced Character Physics", 2001): per substep,
 * Verlet integration x' = x + (x - xprev) damping + g h^2, pins, then Gauss-Seidel sweeps
 * of distance projections; once per step, breaks. Reads the model, writes only the state. */
#include "solver.h"

#include <math.h>

#include "constraint_distance.h"
#include "solver_direct.h"

/* Verlet with per-substep damping; velocity is implicit in x - xprev. */
static void integrate(const struct model *m, struct state *s, double h)
{
    const vec3 gh2 = v3_scale(m->gravity, h * h);
    for (size_t i = 0; i < s->npoints; i++) {
        if (m->inv_mass[i] == 0.0)
            continue;
        const vec3 x = s->x[i];
        s->x[i] = v3_add(v3_add(x, v3_scale(v3_sub(x, s->xprev[i]), m->damping)), gh2);
        s->xprev[i] = x;
    }
}

/* Both x and xprev, so a pin never carries a velocity into the next substep. */
static void hold_pins(const struct model *m, struct state *s)
{
    for (size_t p = 0; p < m->npins; p++) {
        const struct pin *pin = &m->pins[p];
        s->x[pin->point] = pin->at;
        s->xprev[pin->point] = pin->at;
    }
}

/* Alternating the sweep direction spreads a correction both ways along a chain instead of
 * always favouring the end that is visited first. */
static void relax_links(const struct model *m, struct state *s)
{
    for (int it = 0; it < m->iterations; it++) {
        if (m->order == ORDER_ALTERNATE && it % 2 == 1) {
            for (size_t i = s->nlinks; i-- > 0;)
                distance_project(m, s, i);
        } else {
            for (size_t i = 0; i < s->nlinks; i++)
                distance_project(m, s, i);
        }
    }
}

/* solver.global: each iteration is one global solve of the links the direct projection owns,
 * then one Gauss-Seidel sweep over the rest (tethers, soft links), so what only Gauss-Seidel
 * handles still sees every iteration. */
static void relax_global(const struct model *m, struct state *s, double h)
{
    direct_begin(s->direct, s->x);
    for (int it = 0; it < m->iterations; it++) {
        direct_iterate(s->direct, m, s->x, h);
        const int backward = m->order == ORDER_ALTERNATE && it % 2 == 1;
        for (size_t k = 0; k < s->nlinks; k++) {
            const size_t i = backward ? s->nlinks - 1 - k : k;
            if (!direct_owns(s->direct, i))
                distance_project(m, s, i);
        }
    }
}

/* Checked after all relaxation, so a transient stretch mid-sweep never breaks a link. */
static void break_links(const struct model *m, struct state *s)
{
    int broke = 0;
    for (size_t i = 0; i < s->nlinks; i++) {
        const struct link *l = &m->links[i];
        if (s->alive[i] && l->break_stretch > 0.0 &&
            v3_dist(s->x[l->a], s->x[l->b]) > l->break_stretch * l->rest) {
            s->alive[i] = 0;
            broke = 1;
        }
    }
    if (broke && s->direct) /* the topology changed: components and orders with it */
        direct_analyse(s->direct, m, s->alive);
}

void solver_step(const struct model *m, struct state *s)
{
    const double h = m->dt / m->substeps;
    for (int k = 0; k < m->substeps; k++) {
        integrate(m, s, h); /* integrate: advance free points under gravity */
        hold_pins(m, s);    /* pins: anchored points sit at their anchors */
        if (s->direct)
            relax_global(m, s, h); /* constraints: global solves, Gauss-Seidel for the rest */
        else
            relax_links(m, s); /* constraints: Gauss-Seidel sweeps over live links */
    }
    break_links(m, s); /* breaks: once per step, after every substep */
    s->step++;         /* time: multiplied, not summed, so it does not drift */
    s->t = (double)s->step * m->dt;
}

long solver_find_diverged(const struct state *s)
{
    for (size_t i = 0; i < s->npoints; i++) {
        const vec3 x = s->x[i];
        if (!v3_isfinite(x) || fabs(x.x) > SOLVER_ABSURD || fabs(x.y) > SOLVER_ABSURD ||
            fabs(x.z) > SOLVER_ABSURD)
            return (long)i;
    }
    return -1;
}

double solver_max_stretch(const struct model *m, const struct state *s)
{
    double max = 0.0;
    for (size_t i = 0; i < s->nlinks; i++)
        if (s->alive[i]) {
            const double r = distance_stretch(m, s, i);
            if (r > max)
                max = r;
        }
    return max;
}
