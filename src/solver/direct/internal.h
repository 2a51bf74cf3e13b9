/* Private to the direct (global) projection: the workspace shared by solver/direct/direct.c
 * (analysis and iteration), tree.c (O(N) elimination on trees), trial.c (a tree's trial
 * steps), search.c (how far a tree's step goes), graph.c (the system of bodies with loops)
 * newton.c (its Newton step), fixed.c (its ADMM iteration under solver.global_matrix "fixed")
 * and ldl.c (their sparse L D L^T). Everything is allocated by direct_create for the
 * worst case, so neither the analysis nor an iteration allocates. */
#ifndef CATENA_DIRECT_INTERNAL_H
#define CATENA_DIRECT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "solver/direct/direct.h"

/* How a tree point is eliminated (direct->tkind): by the general kernel, or in closed form
 * when it has a parent and at most one multiplier of its own, which is then none, its one
 * child's link or its one link to a pin. */
enum tree_kind { TREE_GENERAL, TREE_NONE, TREE_CHILD, TREE_PIN };

#define BLOCK_FACTOR 12 /* doubles of a D block's own factor: its L, 3 x 3, and D, 3 */

/* What solves a link (direct->owner). */
enum direct_owner {
    OWNER_NONE,  /* left to the Gauss-Seidel pass (direct_owns is 0) */
    OWNER_TREE,  /* a component without loops: solver/direct/tree.c */
    OWNER_GRAPH, /* a component with loops: solver/direct/graph.c */
};

/* A point and its sort key (its rank in the order). */
struct direct_keyed {
    double key;
    uint32_t point;
};

/* A link of a component with loops as solver/direct/fixed.c iterates it, in graph_link's
 * order: what it reads, flat, and its ADMM state. */
struct fixed_link {
    uint32_t a, b;      /* its ends */
    uint32_t link;      /* its index */
    unsigned char free; /* bit 0: a is an unknown, bit 1: b is */
    double rest, w, aw; /* rest length, m; weight, kg; compliance / h^2 times w */
    vec3 z, u;          /* split variable (the link's vector) and scaled dual, m */
    double wm;          /* w over the mean mass of its free ends */
};

/* A contact of a graph point with an obstacle, as solver/direct/newton.c's active-set rows: the
 * half-space n . x >= off that the collision pass handed over, with the obstacle's Coulomb
 * friction (solver/direct/contact.c). */
struct direct_contact {
    vec3 n;           /* normal towards the free side */
    double off;       /* the plane's offset, m */
    vec3 hold;        /* where a sticking contact holds the point: its substep start on the plane */
    double stat, dyn; /* mu_s, mu_k */
    vec3 lam;         /* the force it applies, N s^2 (normal part >= 0: it only pushes) */
    vec3 dlam;        /* the last step's part of it */
    vec3 slide;       /* sliding: the unit direction of the friction force */
    vec3 nf;          /* the normal the current factor was made with */
    unsigned char age;  /* 0: none; 1: renewed in this substep; 2: last substep's, a candidate */
    unsigned char row;  /* 0: no row; 1: a normal row (sliding); 2: three rows (sticking) */
    unsigned char frow; /* row when the current factor was made */
};

/* A component with loops between iterations. */
struct graph_comp {
    int factored;          /* 1 while the factor may serve the next iteration */
    double last_residual;  /* of the previous iteration of this substep, m */
    double converged;      /* a residual this small needs no step, m */
    double refactor_floor; /* nor, this small, a new factor, m */
    long factorizations;   /* since the substep began */
    int fresh;             /* "fixed": the substep's first iteration is next */
    int dual_pending;      /* "fixed": the last solve's dual step is left to the local step */
    double fixed_h;        /* "fixed": the substep its factor was made for, s (0: none) */
    double fixed_scale;    /* "fixed": the weights' scale, by residual balancing (0: 1) */
};

struct direct {
    int dims;               /* 2 or 3: unknowns per point */
    int gdims;              /* unknowns per point of the graphs' systems: dims, or 1 under
                               solver.global_matrix "fixed" (solver/direct/fixed.c) */
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
    int last;               /* the iteration is the substep's last */
    int others;             /* others may move points between iterations (direct_begin) */
    vec3 *n;                /* [nlinks] unit direction a -> b at the current iterate */
    double *len;            /* [nlinks] current length, m */
    vec3 *xpred;            /* [npoints] the predicted positions x* of this substep, m */
    vec3 *xlast;            /* [npoints] positions after the last direct iteration, m */
    vec3 *xstart;           /* [npoints] where this substep started, m */

    /* Trees: points in breadth-first order, each component's root first; k indexes them. */
    size_t ntree;           /* tree points in order[] */
    uint32_t *order;        /* [npoints] point of tree index k */
    int32_t *parent;        /* [npoints] by point: parent point in the search, -1 at a root */
    int32_t *parent_link;   /* [npoints] by point: link to the parent, -1 at a root */
    uint32_t *npins;        /* [npoints] by point: links to immovable points, in pin_link */
    uint32_t *pin_link;     /* [2 nlinks] slots adj_first[p].. of point p */
    uint32_t *tindex;       /* [npoints] by point: its tree index k */
    int32_t *tparent;       /* [npoints] tree index of k's parent, -1 at a root */
    int32_t *tplink;        /* [npoints] k's link to its parent, -1 at a root */
    uint32_t *tpin_first;   /* [npoints + 1] k's links to pinned points: tpin[tpin_first[k]..] */
    uint32_t *tpin;         /* [nlinks] */
    uint32_t *tchild_first; /* [npoints] k's children are tchild_first[k] + [0, tnchild[k]) */
    uint32_t *tnchild;      /* [npoints] */
    unsigned char *tkind;   /* [npoints] enum tree_kind of k */
    uint32_t *tblink;       /* [npoints] the link of k's one multiplier (TREE_CHILD, TREE_PIN) */
    double *tmass;          /* [npoints] mass of order[k], kg */
    size_t ntcomp;          /* tree components */
    uint32_t *tcomp_first;  /* [npoints + 1] component c is k in [tcomp_first[c], [c+1]) */
    double *tcomp_kkt;      /* [npoints] c's KKT residual where its last step ended, m^2 */
    double *tcomp_floor;    /* [npoints] what rounding leaves of it, m^2 */
    double *tcomp_kkt0;     /* [npoints] where the unchecked step started, m^2 */
    unsigned char *tcomp_pending; /* [npoints] c's last step (tdx, dlam) is still unchecked */
    double *tkacc, *tracc;        /* [9 (npoints + 2)], [3 npoints]: what k's children pass on
                                     to it (in the plane, tkacc holds what k passes on, in
                                     blocks of two points: plane.h) */
    double *tgacc, *tgtrial;      /* [3 npoints]: the children's shares of k's residual g */
    double *trow, *trr; /* [4 (npoints + 2)], [npoints]: k's parent link's row for the parent's
                           block (Jacobian at the parent, compliance) and its right side
                           (in the plane the right side is also the row's third, and
                           the rows are stored in blocks of two points: plane.h) */
    size_t *tfac_first; /* [npoints + 1] offsets of k's factors in tfac */
    double *tfac;       /* l0, L, u0, U of each tree point (solver/direct/tree.c) */
    double *tplane;     /* [11 (npoints + 2)] in the plane, the plane kernels' factors
                           instead, in blocks of two points (solver/direct/plane.h) */
    vec3 *tdx;          /* [npoints] the Newton step of tree index k */
    double *dlam;       /* [nlinks] the Newton step's multiplier part */
    double *scratch;    /* [max_chunks scratch_size] a block's dense work (tree.c),
                           one for each chunk of components */
    size_t scratch_size, max_chunks;
    struct solver_pool *pool; /* the thread team (solver.threads > 1), or NULL */
    size_t max_block;         /* most block links a point can have */
    vec3 *dx;                 /* [npoints] the graph's Newton step, by point */
    double *kacc;             /* [9 npoints] the graph's stiffness block of each point */
    double *racc;             /* [3 npoints] its residual part */

    /* Graphs: the same Newton step by a sparse L D L^T of the positions' system H
     * (solver/direct/graph.c, newton.c), one block of unknowns a component. */
    size_t ngraph;        /* links of components with loops */
    uint32_t *graph_link; /* [nlinks] */
    uint32_t *gpoint;     /* [npoints] their free points, component by component */
    size_t ngpoint;
    size_t ngcomp;                  /* components with loops */
    uint32_t *gcomp_pfirst;         /* [npoints + 1] c's points: gpoint[gcomp_pfirst[c]..] */
    size_t *gcomp_ufirst;           /* [npoints + 1] c's unknowns: [gcomp_ufirst[c], [c+1]) */
    uint32_t *gcomp_lfirst;         /* [npoints + 1] c's links: graph_link[gcomp_lfirst[c]..] */
    struct graph_comp *gcomp_state; /* [npoints] */
    uint32_t *gorder, *grank;       /* [npoints] the order of all points, made once */
    struct direct_keyed *gkeys;     /* [npoints] sorting work */
    uint32_t *uidx;                 /* [npoints] a point's first unknown, UINT32_MAX if none */
    size_t nu;                      /* unknowns of the current systems */
    double *lgeo, *la, *lc;         /* [nlinks] tension stiffness, penalty a, C + a l */
    vec3 *nf;                       /* [nlinks] directions the current factor was made with */
    double *laf;                    /* [nlinks] and penalties */
    double *lw;                     /* [nlinks] "fixed": the link's weight in the matrix, kg */
    struct fixed_link *flink;       /* [nlinks] "fixed": graph_link[j]'s record, by j */
    uint32_t *ap, *ai;              /* [max unknowns + 1], [max entries]: strictly upper part */
    double *rhs;                    /* [max unknowns] */
    int32_t *etree;                 /* [max unknowns] elimination tree */
    uint32_t *lnz, *lflag;          /* [max unknowns] column counts and work */
    size_t *lp;                     /* [max unknowns + 1] column starts of L */
    uint32_t *li;                   /* [max nnz(L)] */
    double *lx;                     /* [max nnz(L)] L */
    size_t entry_cap, l_cap;        /* room in ai and li/lx */
    struct direct_contact *contact; /* [npoints] by point (solver/direct/contact.c) */
    double gs_moved; /* the most Gauss-Seidel moved a graph point since the last iteration, m */
    /* The factor in blocks of a point's unknowns (solver/direct/ldl.c), by point rank j (the
     * index into gpoint): L's column j is the blocks li[blp[j]..] (row ranks) of
     * gdims x gdims values at lx + gdims^2 blp[j].. */
    int32_t *bparent;                            /* [npoints] elimination tree of the points */
    uint32_t *bcount, *bflag, *bfill, *bpattern; /* [npoints] column counts and work */
    size_t *blp;                                 /* [npoints + 1] */
    double *by;                                  /* [9 npoints] work */
    double *bdfac; /* [BLOCK_FACTOR npoints] D's blocks, each factored (solver/direct/ldl.c) */

    struct direct_stats stats;
};

/* Whether point p has unknowns in the graphs' systems (a free point of a component with loops). */
static inline int direct_in_system(const struct direct *d, uint32_t p)
{
    return d->uidx[p] != UINT32_MAX;
}

/* Component i of point p's step in the graphs' last solve, held in rhs (0 for a pinned point
 * or z in 2D). */
static inline double direct_step_of(const struct direct *d, uint32_t p, int i)
{
    return direct_in_system(d, p) && i < d->dims ? d->rhs[d->uidx[p] + (uint32_t)i] : 0.0;
}

/* Point p's step in the graphs' last solve, as a vector. */
static inline vec3 direct_step(const struct direct *d, uint32_t p)
{
    return v3(direct_step_of(d, p, 0), direct_step_of(d, p, 1), direct_step_of(d, p, 2));
}

/* Runs body for each link l of graph component c once (lk_: the link), from its end a, or from
 * b when a is pinned. */
#define FOR_GRAPH_LINKS(d, m, c, l, ...)                                                           \
    for (uint32_t k_ = (d)->gcomp_pfirst[c]; k_ < (d)->gcomp_pfirst[(c) + 1]; k_++) {              \
        const uint32_t p_ = (d)->gpoint[k_];                                                       \
        for (uint32_t s_ = (d)->adj_first[p_]; s_ < (d)->adj_first[p_ + 1]; s_++) {                \
            const uint32_t l = (d)->adj_link[s_];                                                  \
            const struct link *lk_ = &(m)->links[l];                                               \
            if ((d)->owner[l] != OWNER_GRAPH || (lk_->a != p_ && direct_in_system((d), lk_->a)))   \
                continue;                                                                          \
            __VA_ARGS__                                                                            \
        }                                                                                          \
    }

#endif
