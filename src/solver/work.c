/* Creation and teardown of the solver's tables (solver/work.h); the families fill them. */
#include "solver/work.h"

#include <stdlib.h>

#include "solver/batch/batch.h"
#include "solver/breaks.h"

struct solver_work *solver_work_create(const struct model *m)
{
    struct solver_work *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    if (solver_color_prepare(m, w) || shape_prepare(m, w) || area_prepare(m, w) ||
        solver_tether_prepare(m, w) || breaks_prepare(m, w) || batch_prepare(m, w)) {
        solver_work_destroy(w);
        return NULL;
    }
    return w;
}

void solver_work_destroy(struct solver_work *w)
{
    if (!w)
        return;
    free(w->link_order);
    free(w->color_start);
    free(w->shape_perm);
    free(w->shape_rest);
    free(w->shape_q);
    free(w->vol_start);
    free(w->vol_point);
    free(w->slot_start);
    free(w->face_slot);
    free(w->grad);
    free(w->adj_start);
    free(w->adj);
    free(w->anchor);
    free(w->reach);
    free(w->heap);
    free(w->breakable);
    batch_destroy(w->batch);
    free(w);
}
