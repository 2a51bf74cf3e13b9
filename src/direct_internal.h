/* Private to the direct (global) projection: the workspace shared by solver_direct.c (analysis
 * and iteration), direct_tree.c (O(N) elimination on trees) and direct_cg.c (conjugate gradient
 * on graphs with loops). Everything is allocated by direct_create for the worst case, so
 * neither the analysis nor an iteration allocates. */
#ifndef CATENA_DIRECT_INTERNAL_H
#define CATENA_DIRECT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "solver_direct.h"

/* What solves a link (direct->owner). */
enum direct_owner {
    OWNER_NONE,  /* left to the Gauss-Seidel pass (direct_owns is 0) */
    OWNER_TREE,  /* a component without loops: direct_tree.c */
    OWNER_GRAPH, /* a component with loops: direct_cg.c */
};

struct direct {
    int dims;                /* 2 or 3: unknowns per point */
    size_t npoints, nlinks;  /* sizes of the model it was made for */
    uint32_t *adj_first;     /* [npoints + 1] CSR of the links at each point */
    uint32_t *adj_link;      /* [2 nlinks] */
    unsigned char *owner;    /* [nlinks] enum direct_owner */
    unsigned char *is_free;  /* [npoints] inverse mass > 0 */
    double *alpha;           /* [nlinks] compliance (xpbd) or 0, m/N */
    double *lambda;          /* [nlinks] accumulated multiplier, N s^2 (tree: kept as warm start) */
    vec3 *n;                 /* [nlinks] unit direction a -> b at the current iterate */
    double *len;             /* [nlinks] current length, m */
    vec3 *xpred;             /* [npoints] the predicted positions x* of this substep, m */
    vec3 *xlast;             /* [npoints] positions after the last direct iteration, m */

    /* Trees: points in breadth-first order, each component's root first. */
    size_t ntree;            /* tree points in order[] */
    uint32_t *order;         /* [npoints] */
    int32_t *parent;         /* [npoints] parent point, -1 at a root */
    int32_t *parent_link;    /* [npoints] link to the parent, -1 at a root */
    uint32_t *npins;         /* [npoints] tree links to immovable points, listed in pin_link */
    uint32_t *pin_link;      /* [2 nlinks] slots adj_first[p].. of point p */
    size_t *block_first;     /* [npoints + 1] offsets of each point's stored factors */
    double *block;           /* Y (nb x dims) and z (nb) per point, nb = dims + 1 + pins */
    double *kacc;            /* [9 npoints] effective stiffness block of each point */
    double *racc;            /* [3 npoints] x part of each point's right-hand side */
    vec3 *dx;                /* [npoints] the Newton step */
    double *scratch;         /* one dense block and its right-hand sides */
    size_t max_block;        /* largest nb */

    /* Graphs: the links they own and the conjugate-gradient vectors over them. */
    size_t ngraph;
    uint32_t *graph_link;    /* [nlinks] */
    double *cg_r, *cg_z, *cg_p, *cg_q, *cg_dl; /* [nlinks] */
    vec3 *cg_u;              /* [npoints] W J^T p */

    struct direct_stats stats;
};

/* One Newton step on the tree components (direct_tree.c); d->n and d->len are current. */
void direct_tree_iterate(struct direct *d, const struct model *m, vec3 *x, double h);

/* One fast-projection step on the graph components (direct_cg.c); d->n and d->len are
 * current. */
void direct_cg_iterate(struct direct *d, const struct model *m, vec3 *x, double h);

#endif
