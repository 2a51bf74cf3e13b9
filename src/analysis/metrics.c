/* Metrics of a state: constraint error and stretch over the live links, kinetic energy
 * m |v|^2 / 2 and potential energy -m g . x over the free points, the largest speed. */
#include "analysis/metrics.h"

#include <math.h>

#include "solver/distance.h"
#include "solver/solver.h"
#include "solver/velocity.h"

void metrics_compute(const struct model *m, const struct state *s, struct metrics *out)
{
    *out = (struct metrics){0};
    for (size_t i = 0; i < s->nlinks; i++) {
        if (!s->alive[i])
            continue;
        const double e = distance_error(m, s, i), r = distance_stretch(m, s, i);
        out->error_sum += e;
        out->error_max = fmax(out->error_max, e);
        out->max_stretch = fmax(out->max_stretch, r);
        out->live_links++;
    }
    for (size_t i = 0; i < s->npoints; i++) {
        if (m->inv_mass[i] == 0.0)
            continue;
        const vec3 v = velocity_get(m, s, i);
        const double v2 = v3_dot(v, v);
        out->kinetic += 0.5 * m->mass[i] * v2;
        out->potential -= m->mass[i] * v3_dot(m->gravity, s->x[i]);
        out->max_speed = fmax(out->max_speed, sqrt(v2));
    }
}
