/* Link breaks (solver/breaks.h): by stretch, |x_b - x_a| > break_stretch rest, or by force,
 * the link's tension (distance_tension: XPBD's -lambda / h^2, else the stretch over the
 * compliance) above break_force. */
#include "solver/breaks.h"

#include <stdlib.h>

#include "solver/distance.h"
#include "solver/work.h"
#include "solver/cache.h"
#include "solver/state.h"

/* Whether link i may break: it has a threshold, or it is reserved for a cut, which gives it
 * the thresholds of the link it halves. */
static int may_break(const struct model *m, size_t i)
{
    const struct link *l = &m->links[i];
    return l->break_stretch > 0.0 || l->break_force > 0.0 ||
           (m->nreserved_links > 0 && i >= m->first_reserved_link);
}

int breaks_prepare(const struct model *m, struct solver_work *w)
{
    for (size_t i = 0; i < m->nlinks; i++)
        w->nbreakable += may_break(m, i);
    w->breakable = malloc((w->nbreakable ? w->nbreakable : 1) * sizeof *w->breakable);
    if (!w->breakable)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < m->nlinks; i++)
        if (may_break(m, i))
            w->breakable[n++] = (uint32_t)i;
    return 0;
}

size_t breaks_check(const struct model *m, struct state *s, size_t begin, size_t end, uint32_t *out)
{
    size_t n = 0;
    for (size_t k = begin; k < end; k++) {
        const uint32_t i = s->cache->work->breakable[k];
        const struct link *l = &m->links[i];
        if (!s->alive[i])
            continue;
        if ((l->break_stretch > 0.0 &&
             v3_dist(s->x[l->a], s->x[l->b]) > l->break_stretch * l->rest) ||
            (l->break_force > 0.0 && distance_tension(m, s, i) > l->break_force)) {
            s->alive[i] = 0;
            out[n++] = i;
        }
    }
    return n;
}
