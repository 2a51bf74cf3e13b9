/* Settling: a quiet spell starts at the first step whose largest speed is below the
 * threshold and ends at the first that is not; kinematic points (pins, drags) are driven,
 * not settling, and do not count. */
#include "run/settle.h"

#include <math.h>

#include "solver/velocity.h"

double settle_max_speed(const struct model *m, const struct state *s)
{
    double max = 0.0;
    for (size_t i = 0; i < s->npoints; i++)
        if (m->inv_mass[i] != 0.0)
            max = fmax(max, v3_len(velocity_get(m, s, i)));
    return max;
}

int settle_update(struct settle *st, const struct model *m, const struct state *s)
{
    if (m->settle_speed <= 0.0)
        return 0;
    if (!(settle_max_speed(m, s) < m->settle_speed)) {
        st->quiet_from = -1;
        return 0;
    }
    if (st->quiet_from < 0)
        st->quiet_from = s->step;
    return (double)(s->step - st->quiet_from) * m->dt >= m->settle_for;
}
