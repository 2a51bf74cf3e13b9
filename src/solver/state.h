/* The dynamic state of a simulation (MuJoCo's mjData): what changes while stepping.
 * Created from a model; the solver reads the model and writes only the state. */
#ifndef CATENA_STATE_H
#define CATENA_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

struct solver_cache; /* solver/cache.h: what the solver derives and keeps for a step */

/* Positions beyond this many metres from the origin count as diverged
 * (solver_find_diverged): the model's bound, which no point may start beyond. */
#define SOLVER_ABSURD MODEL_ABSURD

struct state {
    size_t npoints, nlinks;
    vec3 *x;              /* [npoints] positions, m */
    vec3 *xprev;          /* [npoints] positions one substep ago (Verlet), m */
    unsigned char *alive; /* [nlinks] 1 while the link holds, 0 once broken */
    long step;            /* steps completed */
    double t;             /* simulated time, s (= step * dt) */

    /* Methods and constraint families (issue 3). */
    vec3 *v;                    /* [npoints] velocities, m/s (pbd, xpbd; verlet: x - xprev) */
    double *link_lambda;        /* [nlinks] XPBD multipliers of the last substep (< 0: tension) */
    double *angle_lambda;       /* [nangles] */
    double *area_lambda;        /* [nareas] */
    double *attach_lambda;      /* [nattachments] */
    uint32_t *broke;            /* [nlinks] the links that broke in the last step, ascending */
    size_t nbroke;              /* entries of broke[] */
    struct solver_cache *cache; /* the solver's tables, kernels and scratch (solver/cache.h) */
};

/* Allocates a state at t = 0 from the model's initial positions and velocities;
 * xprev is set so that Verlet reproduces constant acceleration exactly, v = v0 (0 where
 * pinned), multipliers 0, and the solver's tables (colouring, max-length paths, ...) are
 * prepared, so that stepping allocates nothing. The model's order, max_length_pass and
 * constraint topology must not change afterwards. NULL on OOM. */
struct state *state_create(const struct model *m);

/* NULL is a no-op. */
void state_destroy(struct state *s);

#endif
