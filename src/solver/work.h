/* The constraint families' tables and scratch, one of the solver's caches (solver/cache.h),
 * prepared with the state so that a step allocates nothing: the colouring of the links, each
 * shape group's canonical order and last rotation, the distinct vertices of each volume,
 * gradient scratch, the paths of the max-length pass and the links that can break. Each
 * family prepares its part in its own file (color.c, shape.c, area.c, tether.c, breaks.c). */
#ifndef CATENA_SOLVER_WORK_H
#define CATENA_SOLVER_WORK_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "core/vec.h"

/* A point waiting in the max-length pass's Dijkstra queue at path length d. */
struct tether_heap_entry {
    double d;
    uint32_t p;
};

struct solver_work {
    /* solver/color.c: the links grouped by colour (no two of a group share a point); only
     * for the colored order */
    uint32_t *link_order;  /* [nlinks] colour 0's links, then colour 1's, ... */
    uint32_t *color_start; /* [ncolors + 1] where each colour starts in link_order */
    size_t ncolors;

    /* solver/shape.c */
    uint32_t *shape_perm; /* [nshape_index] each group's entries sorted by initial position */
    vec3 *shape_rest;     /* [nshape_index] rest offsets, summed in that order */
    double *shape_q;      /* [4 * nshapes] 3D: the rotation found last time (w, x, y, z) */

    /* solver/area.c: for areas[j] that are volumes, the distinct vertices of its faces
     * in order of first appearance, and for each face vertex its place in that list */
    uint32_t *vol_start;  /* [nareas + 1] into vol_point */
    uint32_t *vol_point;  /* the distinct vertices */
    uint32_t *slot_start; /* [nareas + 1] into face_slot (3 per face) */
    uint32_t *face_slot;  /* index into the volume's vertices */
    vec3 *grad;           /* [largest polygon or vertex list] gradient scratch */

    /* solver/tether.c: the max-length pass (allocated only when the model asks for it) */
    uint32_t *adj_start; /* [npoints + 1] CSR of the structural links at each point */
    uint32_t *adj;       /* [2 * nlinks] link indices */
    uint32_t *anchor;    /* [npoints] nearest pinned point along live links, or UINT32_MAX */
    double *reach;       /* [npoints] sum of rest lengths along that path, m */
    struct tether_heap_entry *heap; /* Dijkstra's queue: at most one entry per relaxation */
    int tether_stale;               /* 1: anchor and reach must be recomputed (links broke) */

    /* solver/breaks.c: the links that can break, ascending */
    uint32_t *breakable;
    size_t nbreakable;
};

/* Frees the tables; NULL is a no-op. */
void solver_work_destroy(struct solver_work *w);

#endif
