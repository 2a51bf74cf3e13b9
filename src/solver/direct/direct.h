/* The direct (global) projection of distance links (solver.global): each iteration is one
 * Newton step on the mass-weighted projection of the predicted positions onto the links of a
 * whole connected body, the KKT system [M + G, -J^T; -J, -a] (G: the geometric stiffness of
 * the tensions, Tournier et al. 2015; a = compliance / h^2 under XPBD, 0 for rigid links).
 * Its fixed point is the exact closest point, so a chain settles on the static equilibrium of
 * the discrete chain with no bias in dt or link order, and the iterations it needs do not grow
 * with the number of links.
 *  - Bodies without loops (chains, trees): eliminated from the leaves to the root in O(N)
 *    (Baraff 1996), solver/direct/tree.c (its line search's trial steps: trial.c).
 *  - Bodies with loops (cloth, soft bodies): a sparse LDL^T of the same system, in blocks of a
 *    point's unknowns (solver/direct/ldl.c) and in approximate minimum degree order
 *    (solver/direct/graph.c), kept across iterations while it contracts
 *    (solver/direct/newton.c).
 * Pinned points (W = 0) are not unknowns. The workspace belongs to the state: it is sized
 * once, and neither direct_analyse nor an iteration allocates. */
#ifndef CATENA_SOLVER_DIRECT_H
#define CATENA_SOLVER_DIRECT_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

struct direct;

/* Counters of the last iterations, for benchmarks and the man page's complexity claims. */
struct direct_stats {
    size_t tree_points, tree_links;          /* unknowns of the tree solver */
    size_t graph_links;                      /* links of components with loops */
    size_t graph_unknowns, graph_factor_nnz; /* their KKT system and its LDL^T factor */
    long factorizations;                     /* numeric factorisations since direct_begin */
};

/* A workspace for m's points and links; call direct_analyse before iterating. NULL on OOM. */
struct direct *direct_create(const struct model *m);

/* What one factorisation of the costliest body with loops would take, with every distance link
 * alive (the most any later topology needs), from the symbolic analysis alone: nothing the
 * size of the factor is allocated. */
struct direct_estimate {
    double flops;   /* floating-point operations of one factorisation */
    double entries; /* nonzeros of its factor (12 bytes each) */
    long body;      /* its body (index into m->bodies), or -1 for points outside bodies */
};

/* Why the direct projection cannot be set up. */
enum direct_status {
    DIRECT_OK = 0,
    DIRECT_NO_MEMORY,     /* an allocation, or SuiteSparse's AMD, ran out */
    DIRECT_TOO_LARGE,     /* past AMD's int indices: 2^31 - 1 points or 2^30 links */
    DIRECT_ORDER_INVALID, /* AMD refused the links' pattern: a bug; e->body names the body */
};

/* Fills e (all 0 and body -1 when no body has loops), or says why it cannot. */
enum direct_status direct_estimate(const struct model *m, struct direct_estimate *e);

/* NULL is a no-op. */
void direct_destroy(struct direct *d);

/* Sorts the live links into what the direct solver owns (distance links with a movable end:
 * any compliance under xpbd, stiffness 1 otherwise) and what it leaves to Gauss-Seidel, splits
 * them into connected components, and orders the trees for elimination. Run it again whenever
 * a link breaks or a pin changes; it allocates nothing. */
void direct_analyse(struct direct *d, const struct model *m, const unsigned char *alive);

/* 1 when the direct solver owns link i (the Gauss-Seidel pass must skip it). */
int direct_owns(const struct direct *d, size_t i);

/* Starts a substep: x holds the predicted positions (integrated, pins held), xstart those
 * the substep started from; others: whether anything else (a Gauss-Seidel pass, collisions)
 * may move points between two iterations. */
void direct_begin(struct direct *d, const vec3 *x, const vec3 *xstart, int others);

/* One iteration over every component, moving x. Displacements made by others between two
 * iterations (the Gauss-Seidel pass: tethers, collisions) are kept, not undone. h is the
 * substep, s. */
void direct_iterate(struct direct *d, const struct model *m, vec3 *x, double h, int last);

/* The live links the direct solver leaves to Gauss-Seidel, in link order (*n of them). */
const uint32_t *direct_leftover(const struct direct *d, size_t *n);

/* Copies the multipliers of the links it owns into lambda[nlinks] (N s^2, < 0 in tension). */
void direct_multipliers(const struct direct *d, double *lambda);

/* Contacts inside the solve of bodies with loops (solver/direct/newton.c): point p touches an
 * obstacle whose tangent plane n . x >= off holds it (n towards the free side), with Coulomb
 * friction f relative to from, where the point started the substep. The solve keeps it as
 * inequality rows, active while the normal force pushes: three rows that hold the point where
 * it started (projected on the plane) while the tangential force stays within mu_s times the
 * normal one, else one normal row and mu_k times its force against the slip. Handed over in
 * each substep; one not handed over in a whole substep is dropped. Points outside such
 * bodies: ignored. */
void direct_contact(struct direct *d, uint32_t p, vec3 n, double off, vec3 from, struct friction f);

/* Whether point p's contact is a row of the solve now: its friction is then the solve's. */
int direct_contact_held(const struct direct *d, uint32_t p);

/* Points were moved by something other than a step (a teleport): the contacts are dropped at
 * the next substep rather than carried over, since their planes no longer hold where the points
 * now are (one below its last plane would be lifted back onto it). */
void direct_contact_forget(struct direct *d);

/* The counters. */
const struct direct_stats *direct_get_stats(const struct direct *d);

#endif
