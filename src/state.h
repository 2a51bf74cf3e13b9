/* The dynamic state of a simulation (MuJoCo's mjData): what changes while stepping.
 * Created from a model; the solver reads the model and writes only the state. */
#ifndef CATENA_STATE_H
#define CATENA_STATE_H

#include <stddef.h>

#include "model.h"
#include "solver_direct.h"

struct state {
    size_t npoints, nlinks;
    vec3 *x;              /* [npoints] positions, m */
    vec3 *xprev;          /* [npoints] positions one substep ago (Verlet), m */
    unsigned char *alive; /* [nlinks] 1 while the link holds, 0 once broken */
    long step;            /* steps completed */
    double t;             /* simulated time, s (= step * dt) */
    struct direct *direct; /* the direct projection's workspace when m->global, else NULL */
};

/* Allocates a state at t = 0 from the model's initial positions and velocities;
 * xprev is set so that Verlet reproduces constant acceleration exactly. NULL on OOM. */
struct state *state_create(const struct model *m);

/* NULL is a no-op. */
void state_destroy(struct state *s);

#endif
