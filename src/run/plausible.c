/* Plausibility warnings at the end of a run (run/plausible.h). */
#include "run/plausible.h"

#include <math.h>

#include "analysis/metrics.h"
#include "solver/angle.h"
#include "solver/distance.h"

/* Whether something in m can add energy while it runs. */
static int adds_energy(const struct model *m)
{
    if (m->nevents > 0 || v3_dot(m->wind, m->wind) > 0 || m->gust_amplitude != 0)
        return 1;
    for (size_t i = 0; i < m->npins; i++)
        if (m->pins[i].motion != MOTION_NONE)
            return 1;
    for (size_t i = 0; i < m->nareas; i++)
        if (m->areas[i].pressure != 1)
            return 1;
    return 0;
}

/* Whether every live link starts within PLAUSIBLE_REST_TOLERANCE of its rest length (a
 * tether may be slack), every weld within that fraction of the mean rest length (1 m without
 * links) of holding its points together, and every angle within PLAUSIBLE_REST_TOLERANCE rad
 * of its limits: a constraint that starts violated does work when it is first projected. */
static int at_rest(const struct model *m, const struct state *s)
{
    double mean = 0;
    size_t live = 0;
    for (size_t i = 0; i < s->nlinks; i++) {
        if (!s->alive[i])
            continue;
        const double r = distance_stretch(m, s, i) - 1;
        if (r > PLAUSIBLE_REST_TOLERANCE ||
            (m->links[i].kind != LINK_TETHER && r < -PLAUSIBLE_REST_TOLERANCE))
            return 0;
        mean += m->links[i].rest;
        live++;
    }
    mean = live ? mean / (double)live : 1;
    for (size_t i = 0; i < m->nattachments; i++) {
        const struct attachment *a = &m->attachments[i];
        if (v3_dist(s->x[a->a], s->x[a->b]) > PLAUSIBLE_REST_TOLERANCE * mean)
            return 0;
    }
    for (size_t i = 0; i < m->nangles; i++) {
        const double t = angle_value(m, s, i);
        if (t < m->angles[i].min - PLAUSIBLE_REST_TOLERANCE ||
            t > m->angles[i].max + PLAUSIBLE_REST_TOLERANCE)
            return 0;
    }
    return 1;
}

/* The free points' lowest and highest heights along -gravity (0 and 0 without gravity),
 * grown into [*lo, *hi]. */
static void heights(const struct model *m, const struct state *s, double *lo, double *hi)
{
    const double g = sqrt(v3_dot(m->gravity, m->gravity));
    for (size_t i = 0; i < s->npoints && g > 0; i++) {
        if (m->inv_mass[i] == 0.0 || !v3_isfinite(s->x[i]))
            continue;
        const double h = -v3_dot(m->gravity, s->x[i]) / g;
        *lo = fmin(*lo, h);
        *hi = fmax(*hi, h);
    }
}

void plausible_begin(struct plausible *p, const struct model *m, const struct state *s)
{
    struct metrics mt;
    metrics_compute(m, s, &mt);
    *p = (struct plausible){.closed = !adds_energy(m) && at_rest(m, s),
                            .energy = mt.kinetic + mt.potential,
                            .kinetic = mt.kinetic,
                            .lo = INFINITY,
                            .hi = -INFINITY};
    heights(m, s, &p->lo, &p->hi);
}

/* Whether link i is meant not to stretch. */
static int rigid(const struct model *m, size_t i)
{
    const struct link *l = &m->links[i];
    return m->method == METHOD_XPBD ? l->compliance == 0 : l->stiffness >= 1;
}

static int check_stretch(const struct model *m, const struct state *s, struct warnings *w)
{
    size_t worst = 0, over = 0, nrigid = 0;
    double max = 0;
    for (size_t i = 0; i < s->nlinks; i++) {
        if (!s->alive[i] || !rigid(m, i))
            continue;
        const double r = distance_stretch(m, s, i);
        nrigid++;
        over += r > PLAUSIBLE_MAX_STRETCH;
        if (r > max) {
            max = r;
            worst = i;
        }
    }
    if (!over)
        return 0;
    char a[64], b[64];
    const struct link *l = &m->links[worst];
    return warnings_add(w, "max-stretch",
                        "link %zu (%s to %s) ends %.0f %% longer than its rest length, and %zu "
                        "of %zu rigid links more than %.0f %%: the iterations did not converge "
                        "(more iterations or substeps, or compliance if it is meant to stretch)",
                        worst, model_point_label(m, l->a, a, sizeof a),
                        model_point_label(m, l->b, b, sizeof b), 100 * (max - 1), over, nrigid,
                        100 * (PLAUSIBLE_MAX_STRETCH - 1));
}

static int check_energy(const struct plausible *p, const struct model *m, const struct state *s,
                        struct warnings *w)
{
    if (!p->closed)
        return 0;
    struct metrics mt;
    metrics_compute(m, s, &mt);
    double lo = p->lo, hi = p->hi, mass = 0;
    heights(m, s, &lo, &hi);
    for (size_t i = 0; i < s->npoints; i++)
        mass += m->inv_mass[i] != 0.0 ? m->mass[i] : 0;
    const double span = hi > lo ? hi - lo : 0;
    const double stake = p->kinetic + mass * sqrt(v3_dot(m->gravity, m->gravity)) * span;
    const double end = mt.kinetic + mt.potential, growth = end - p->energy;
    /* 1e-12 J: round-off, when nothing is at stake (no gravity, at rest) */
    if (!(growth > PLAUSIBLE_ENERGY_GROWTH * stake && growth > 1e-12))
        return 0;
    return warnings_add(w, "energy-grew",
                        "kinetic plus potential energy grew from %.6g J to %.6g J, by %.3g J "
                        "(%.0f %% of the %.3g J at stake), though nothing in the scenario adds "
                        "energy: the solver made it (points that start inside an obstacle, or "
                        "too few substeps)",
                        p->energy, end, growth, stake > 0 ? 100 * growth / stake : INFINITY, stake);
}

int plausible_end(const struct plausible *p, const struct model *lm, const struct state *s,
                  struct warnings *w)
{
    return check_stretch(lm, s, w) || check_energy(p, lm, s, w) ? -1 : 0;
}
