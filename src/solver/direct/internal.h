/* Private to the direct (global) projection: the workspace shared by solver/direct/direct.c
 * (analysis and iteration), newton.c (what both Newton steps share), tree.c (O(N) elimination
 * on trees) and graph.c (sparse LDL^T on bodies with loops). Everything is allocated by
 * direct_create for the worst case, so neither the analysis nor an iteration allocates. */
#ifndef CATENA_DIRECT_INTERNAL_H
#define CATENA_DIRECT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "solver/direct/direct.h"

/* What solves a link (direct->owner). */
enum direct_owner {
    OWNER_NONE,  /* left to the Gauss-Seidel pass (direct_owns is 0) */
    OWNER_TREE,  /* a component without loops: solver/direct/tree.c */
    OWNER_GRAPH, /* a component with loops: solver/direct/graph.c */
};

struct direct {
    int dims;               /* 2 or 3: unknowns per point */
    size_t npoints, nlinks; /* sizes of the model it was made for */
    uint32_t *adj_first;    /* [npoints + 1] CSR of the links at each point */
    uint32_t *adj_link;     /* [2 nlinks] */
    unsigned char *owner;   /* [nlinks] enum direct_owner */
    uint32_t *leftover;     /* [nlinks] live links owned by none, in link order */
    size_t nleftover;
    unsigned char *is_free; /* [npoints] inverse mass > 0 */
    double *alpha;          /* [nlinks] compliance (xpbd) or 0, m/N */
    double *lambda;         /* [nlinks] accumulated multiplier, N s^2, kept as the next start */
    int cold;               /* some owned link has no multiplier yet */
    vec3 *n;                /* [nlinks] unit direction a -> b at the current iterate */
    double *len;            /* [nlinks] current length, m */
    vec3 *xpred;            /* [npoints] the predicted positions x* of this substep, m */
    vec3 *xlast;            /* [npoints] positions after the last direct iteration, m */
    vec3 *xstart;           /* [npoints] where this substep started, m */

    /* Trees: points in breadth-first order, each component's root first. */
    size_t ntree;         /* tree points in order[] */
    uint32_t *order;      /* [npoints] */
    int32_t *parent;      /* [npoints] parent point, -1 at a root */
    int32_t *parent_link; /* [npoints] link to the parent, -1 at a root */
    uint32_t *npins;      /* [npoints] tree links to immovable points, listed in pin_link */
    uint32_t *pin_link;   /* [2 nlinks] slots adj_first[p].. of point p */
    size_t *block_first;  /* [npoints + 1] offsets of each point's stored factors */
    double *block;        /* Y (nb x dims) and z (nb) per point, nb = dims + 1 + pins */
    double *kacc;         /* [9 npoints] effective stiffness block of each point */
    double *racc;         /* [3 npoints] x part of each point's right-hand side */
    vec3 *dx;             /* [npoints] the Newton step */
    double *dlam;         /* [nlinks] its multiplier part */
    double *scratch;      /* one dense block and its right-hand sides */
    size_t max_block;     /* largest nb */

    /* Graphs: the same Newton step by a sparse LDL^T of the KKT matrix (solver/direct/graph.c).
     * Nodes are points (0..npoints) and links (npoints + l); unknowns follow node_order. */
    size_t ngraph;        /* links of components with loops */
    uint32_t *graph_link; /* [nlinks] */
    uint32_t *gpoint;     /* [npoints] their free points */
    size_t ngpoint;
    uint32_t *node_order;     /* [npoints + nlinks] nested dissection of every node, made once */
    uint32_t *uidx;           /* [npoints + nlinks] a node's first unknown, UINT32_MAX if none */
    size_t nu;                /* unknowns of the current system */
    uint32_t *ap, *ai;        /* [max unknowns + 1], [max entries]: strictly upper part by column */
    double *ax, *adiag, *rhs; /* [max entries], [max unknowns], [max unknowns] */
    int32_t *etree;           /* [max unknowns] elimination tree */
    uint32_t *lnz, *lflag, *lfill, *lpattern; /* [max unknowns] column counts and work */
    size_t *lp;                               /* [max unknowns + 1] column starts of L */
    uint32_t *li;                             /* [max nnz(L)] */
    double *lx, *ld, *ly;                     /* [max nnz(L)] L; [max unknowns] D and work */
    size_t entry_cap, l_cap;                  /* room in ai/ax and li/lx */
    int factored;                             /* 1 while the factor may serve the next iteration */
    double gs_moved;       /* the most Gauss-Seidel moved a graph point since the last
                              iteration, m */
    double last_residual;  /* of the previous iteration of this substep, m */
    double converged;      /* a residual this small needs no step, m */
    double refactor_floor; /* nor, this small, a new factor, m */

    struct direct_stats stats;
};

#endif
