/* The position-based step (Jakobsen, "Advanced Character Physics", 2001): per substep,
 * Verlet integration x' = x + (x - xprev) damping + g h^2, wind, pins, then Gauss-Seidel
 * sweeps of distance projections with collisions, then contact response; once per step,
 * breaks. Reads the model, writes only the state. */
#include "solver.h"

#include <math.h>

#include "collide.h"
#include "constraint_distance.h"
#include "pin_motion.h"
#include "wind.h"

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

/* Both x and xprev, from the pin's motion at the end and the start of the substep: the
 * point carries exactly the pin's velocity (none for a still pin) into constraints,
 * collisions and, once released, its own flight. */
static void hold_pins(const struct model *m, struct state *s, double t, double h)
{
    for (size_t p = 0; p < m->npins; p++) {
        const struct pin *pin = &m->pins[p];
        s->x[pin->point] = pin_motion_at(m, pin, t);
        s->xprev[pin->point] = pin_motion_at(m, pin, t - h);
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
        if (collide_due(m, it))
            collide_pass(m, s); /* collisions: on schedule, always on the last iteration */
    }
}

/* Checked after all relaxation, so a transient stretch mid-sweep never breaks a link. */
static void break_links(const struct model *m, struct state *s)
{
    for (size_t i = 0; i < s->nlinks; i++) {
        const struct link *l = &m->links[i];
        if (s->alive[i] && l->break_stretch > 0.0 &&
            v3_dist(s->x[l->a], s->x[l->b]) > l->break_stretch * l->rest)
            s->alive[i] = 0;
    }
}

void solver_step(const struct model *m, struct state *s)
{
    const double h = m->dt / m->substeps;
    for (int k = 0; k < m->substeps; k++) {
        const double t = (double)s->step * m->dt + (k + 1) * h; /* the substep's end */
        integrate(m, s, h);     /* integrate: advance free points under gravity */
        wind_apply(m, s, h, t); /* wind: drag on the links of bodies that have it */
        hold_pins(m, s, t, h);  /* pins: anchored points sit where their motion puts them */
        collide_begin(m, s);    /* contacts: forget the last substep's */
        relax_links(m, s);      /* constraints: Gauss-Seidel sweeps over live links */
        collide_respond(m, s);  /* contacts: friction and restitution */
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
