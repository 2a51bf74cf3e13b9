/* The solver's caches for one state: what a step reads besides the model and the physical
 * state, derived from them and kept so that a step allocates nothing. The tables of the
 * constraint families (solver/work.h), the batched kernel's gathered links and thread team
 * (solver/batch/), the contacts' scratch (solver/collide/), the direct projection's
 * workspace (solver/direct/) and the free bodies the sweeps keep the angular momentum of
 * (solver/momentum.h). Created and freed with the state (solver/state.c); refreshed
 * through one entry point when links, pins or masses change between steps
 * (solver_topology_changed, solver/solver.h). */
#ifndef CATENA_SOLVER_CACHE_H
#define CATENA_SOLVER_CACHE_H

#include "model/model.h"

struct solver_work;
struct solver_batch;
struct collide_work;
struct direct;
struct solver_momentum;

struct solver_cache {
    struct solver_work *work;         /* the families' tables: colours, shapes, volumes, paths */
    struct solver_batch *batch;       /* the batched link kernel; NULL: the simple kernel */
    struct collide_work *collide;     /* contacts and hashes; NULL without collisions */
    struct direct *direct;            /* the direct projection; NULL unless solver.global */
    struct solver_momentum *momentum; /* free bodies' angular momentum through the sweeps
                                         (solver/momentum.h); NULL under solver.global */
};

/* What changed between two steps (bits for solver_cache_changed). */
enum solver_change {
    SOLVER_CHANGED_LINKS = 1 << 0, /* rest lengths, stiffness, compliance or inverse masses:
                                      links are gathered again, max-length paths recomputed */
    SOLVER_CHANGED_ENDS = 1 << 1,  /* the points a link joins (a cut): adjacency rebuilt */
    SOLVER_CHANGED_FREE = 1 << 2,  /* which links live or which points are free (breaks, cuts,
                                      pins, releases): the direct projection's bodies */
    SOLVER_CHANGED_MOVED = 1 << 3, /* points moved by an event (teleport): the contacts the
                                      direct projection carries to the next substep are stale */
};

/* The caches for a state of m whose live links are alive[]; NULL when out of memory. */
struct solver_cache *solver_cache_create(const struct model *m, const unsigned char *alive);

/* NULL is a no-op. */
void solver_cache_destroy(struct solver_cache *c);

/* Brings every cache up to date with m and alive[] after the changes in `what` (enum
 * solver_change bits). Allocates nothing. */
void solver_cache_changed(struct solver_cache *c, const struct model *m, const unsigned char *alive,
                          unsigned what);

#endif
