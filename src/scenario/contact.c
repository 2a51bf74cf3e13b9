/* solver.shock_iterations: how many of a substep's last iterations are the contact phase, in
 * which points touching an obstacle are pins to the internal constraints (shock propagation,
 * Guendelman, Bridson and Fedkiw 2003; solver/solver.c, collide_frozen_masses). */
#include "scenario/loader.h"

int scenario_read_contact(struct loader *ld)
{
    struct model *m = ld->m;
    long long k = m->shock_iterations;
    /* Up to every iteration: the first has no contacts yet, so it is never held. */
    if (sjson_get_integer(&ld->cx, sjson_child(ld->root, "solver"), "solver", "shock_iterations", 0,
                          m->iterations, &k))
        return CATENA_EINPUT;
    m->shock_iterations = (int)k;
    return 0;
}
