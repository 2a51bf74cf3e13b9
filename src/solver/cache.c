/* The solver's caches (solver/cache.h): made in dependency order (the batched kernel reads
 * the colours), freed in reverse, refreshed by what changed. */
#include "solver/cache.h"

#include <stdlib.h>

#include "solver/area.h"
#include "solver/batch/batch.h"
#include "solver/breaks.h"
#include "solver/collide/collide.h"
#include "solver/color.h"
#include "solver/direct/direct.h"
#include "solver/momentum.h"
#include "solver/shape.h"
#include "solver/tether.h"
#include "solver/work.h"

struct solver_cache *solver_cache_create(const struct model *m, const unsigned char *alive)
{
    struct solver_cache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->work = calloc(1, sizeof *c->work);
    if (!c->work || color_prepare(m, c->work) || shape_prepare(m, c->work) ||
        area_prepare(m, c->work) || tether_prepare(m, c->work) || breaks_prepare(m, c->work) ||
        batch_prepare(m, c->work, &c->batch) || collide_work_create(m, &c->collide))
        goto fail;
    if (m->global) {
        c->direct = direct_create(m);
        if (!c->direct)
            goto fail;
        direct_analyse(c->direct, m, alive);
    } else if (momentum_create(m, alive, &c->momentum)) {
        goto fail;
    }
    return c;

fail:
    solver_cache_destroy(c);
    return NULL;
}

void solver_cache_destroy(struct solver_cache *c)
{
    if (!c)
        return;
    direct_destroy(c->direct);
    momentum_destroy(c->momentum);
    collide_work_destroy(c->collide);
    batch_destroy(c->batch);
    solver_work_destroy(c->work);
    free(c);
}

void solver_cache_changed(struct solver_cache *c, const struct model *m, const unsigned char *alive,
                          unsigned what)
{
    if (what & SOLVER_CHANGED_ENDS)
        tether_relink(m, c->work);
    if (what & (SOLVER_CHANGED_LINKS | SOLVER_CHANGED_ENDS | SOLVER_CHANGED_FREE)) {
        tether_paths_changed(c->work);
        if (c->batch)
            batch_links_changed(c->batch);
    }
    if ((what & SOLVER_CHANGED_FREE) && c->direct)
        direct_analyse(c->direct, m, alive);
    if ((what & SOLVER_CHANGED_MOVED) && c->direct)
        direct_contact_forget(c->direct);
    if (c->momentum && (what & (SOLVER_CHANGED_LINKS | SOLVER_CHANGED_ENDS | SOLVER_CHANGED_FREE)))
        momentum_changed(c->momentum, m, alive);
}
