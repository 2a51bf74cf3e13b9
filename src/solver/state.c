/* The dynamic state (MuJoCo's mjData): positions, Verlet's previous positions, link flags,
 * step and time. xprev starts at x0 - v0 h + g h^2 / 2 so that the first Verlet substep
 * lands on x0 + v0 h + g h^2 / 2, which makes constant acceleration exact (Jakobsen 2001). */
#include "solver/state.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "solver/cache.h"

struct state *state_create(const struct model *m)
{
    struct state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->npoints = m->npoints;
    s->nlinks = m->nlinks;
    s->x = alloc_array(m->npoints, sizeof *s->x);
    s->xprev = alloc_array(m->npoints, sizeof *s->xprev);
    s->alive = alloc_array(m->nlinks, sizeof *s->alive);
    s->v = alloc_array(m->npoints, sizeof *s->v);
    s->link_lambda = alloc_array(m->nlinks, sizeof *s->link_lambda);
    s->angle_lambda = alloc_array(m->nangles, sizeof *s->angle_lambda);
    s->area_lambda = alloc_array(m->nareas, sizeof *s->area_lambda);
    s->attach_lambda = alloc_array(m->nattachments, sizeof *s->attach_lambda);
    s->broke = alloc_array(m->nlinks, sizeof *s->broke);
    if (!s->x || !s->xprev || !s->alive || !s->v || !s->link_lambda || !s->angle_lambda ||
        !s->area_lambda || !s->attach_lambda || !s->broke)
        goto fail;

    const double h = m->dt / m->substeps;
    const vec3 half_gh2 = v3_scale(m->gravity, 0.5 * h * h);
    for (size_t i = 0; i < m->npoints; i++) {
        s->x[i] = m->x0[i];
        /* A point with inverse mass 0 never moves, so it has no velocity to encode. */
        if (m->inv_mass[i] == 0.0) {
            s->xprev[i] = m->x0[i];
        } else {
            s->xprev[i] = v3_add(v3_sub(m->x0[i], v3_scale(m->v0[i], h)), half_gh2);
            s->v[i] = m->v0[i];
        }
    }
    memset(s->alive, 1, m->nlinks);
    /* Reserved links (the far halves of cuts) are dead until their cut. */
    memset(s->alive + m->first_reserved_link, 0, m->nreserved_links);
    s->cache = solver_cache_create(m, s->alive);
    if (!s->cache)
        goto fail;
    s->step = 0;
    s->t = 0.0;
    return s;

fail:
    state_destroy(s);
    return NULL;
}

void state_destroy(struct state *s)
{
    if (!s)
        return;
    free(s->x);
    free(s->xprev);
    free(s->alive);
    free(s->v);
    free(s->link_lambda);
    free(s->angle_lambda);
    free(s->area_lambda);
    free(s->attach_lambda);
    free(s->broke);
    solver_cache_destroy(s->cache);
    free(s);
}
