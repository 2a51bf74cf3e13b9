/* Link breaks (solver_breaks.h): by stretch, |x_b - x_a| > break_stretch rest, or by force,
 * the link's tension (distance_tension: XPBD's -lambda / h^2, else the stretch over the
 * compliance) above break_force. */
#include "solver_breaks.h"

#include "constraint_distance.h"

size_t breaks_check(const struct model *m, struct state *s, size_t begin, size_t end, uint32_t *out)
{
    size_t n = 0;
    for (size_t i = begin; i < end; i++) {
        const struct link *l = &m->links[i];
        if (!s->alive[i])
            continue;
        if ((l->break_stretch > 0.0 &&
             v3_dist(s->x[l->a], s->x[l->b]) > l->break_stretch * l->rest) ||
            (l->break_force > 0.0 && distance_tension(m, s, i) > l->break_force)) {
            s->alive[i] = 0;
            out[n++] = (uint32_t)i;
        }
    }
    return n;
}
