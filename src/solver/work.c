/* Teardown of the families' tables (solver/work.h); each family fills its own part. */
#include "solver/work.h"

#include <stdlib.h>

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
    free(w);
}
