/* The direct projection's bookkeeping: the worst-case workspace, the symbolic analysis (which
 * links it owns, connected components, tree or graph, breadth-first elimination order) and one
 * iteration over all components. The numerics live in tree.c, trial.c, dense.c, search.c,
 * graph.c and newton.c. */
#include "solver/direct/direct.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "solver/pool.h"
#include "solver/direct/fixed.h"
#include "solver/direct/graph.h"
#include "solver/direct/contact.h"
#include "solver/direct/internal.h"
#include "solver/direct/newton.h"
#include "solver/direct/search.h"
#include "solver/direct/tree.h"

/* CSR of the links at each point, rebuilt by every analysis: a cut moves a link's end to a
 * new point. Cuts take the new point's link from the idle link reserved for them, so no
 * point ever has more links than at the start, the size the block storage has. */
static void build_adjacency(struct direct *d, const struct model *m)
{
    memset(d->adj_first, 0, (m->npoints + 1) * sizeof *d->adj_first);
    for (size_t i = 0; i < m->nlinks; i++) {
        d->adj_first[m->links[i].a + 1]++;
        d->adj_first[m->links[i].b + 1]++;
    }
    for (size_t p = 0; p < m->npoints; p++)
        d->adj_first[p + 1] += d->adj_first[p];
    uint32_t *fill = d->order; /* the analysis rewrites it next */
    memcpy(fill, d->adj_first, m->npoints * sizeof *fill);
    for (size_t i = 0; i < m->nlinks; i++) {
        d->adj_link[fill[m->links[i].a]++] = (uint32_t)i;
        d->adj_link[fill[m->links[i].b]++] = (uint32_t)i;
    }
}

/* A tree point's block links (its parent's and its pins') are some of its links, so its
 * factors (solver/direct/tree.c: l0, L, u0, U) fit in deg (1 + dims) + dims + dims^2 doubles
 * whatever later breaks and pins do. Returns that total; max_block is the largest degree. */
static size_t size_factors(struct direct *d)
{
    const size_t dim = (size_t)d->dims;
    size_t total = 0;
    d->max_block = 1;
    for (size_t p = 0; p < d->npoints; p++) {
        const size_t deg = d->adj_first[p + 1] - d->adj_first[p];
        total += (deg + dim) * (dim + 2);
        if (deg > d->max_block)
            d->max_block = deg;
    }
    return total;
}

/* direct_create; symbolic 1: only as far as the graph's symbolic analysis (for
 * direct_estimate), without the factor's storage. NULL with *status saying why. */
static struct direct *create(const struct model *m, int symbolic, enum direct_status *status)
{
    *status = DIRECT_NO_MEMORY;
    struct direct *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    const size_t np = m->npoints, nl = m->nlinks;
    d->dims = m->dims;
    d->gdims = m->global_matrix == MATRIX_FIXED ? 1 : m->dims;
    d->npoints = np;
    d->nlinks = nl;
    d->adj_first = alloc_array(np + 1, sizeof *d->adj_first);
    d->adj_link = alloc_array(2 * nl, sizeof *d->adj_link);
    d->owner = alloc_array(nl, sizeof *d->owner);
    d->leftover = alloc_array(nl, sizeof *d->leftover);
    d->is_free = alloc_array(np, sizeof *d->is_free);
    d->alpha = alloc_array(nl, sizeof *d->alpha);
    d->lambda = alloc_array(nl, sizeof *d->lambda);
    d->n = alloc_array(nl, sizeof *d->n);
    d->len = alloc_array(nl, sizeof *d->len);
    d->xpred = alloc_array(np, sizeof *d->xpred);
    d->xlast = alloc_array(np, sizeof *d->xlast);
    d->xstart = alloc_array(np, sizeof *d->xstart);
    d->order = alloc_array(np, sizeof *d->order);
    d->parent = alloc_array(np, sizeof *d->parent);
    d->parent_link = alloc_array(np, sizeof *d->parent_link);
    d->npins = alloc_array(np, sizeof *d->npins);
    d->pin_link = alloc_array(2 * nl, sizeof *d->pin_link);
    d->tindex = alloc_array(np, sizeof *d->tindex);
    d->tparent = alloc_array(np, sizeof *d->tparent);
    d->tplink = alloc_array(np, sizeof *d->tplink);
    d->tpin_first = alloc_array(np + 1, sizeof *d->tpin_first);
    d->tpin = alloc_array(nl, sizeof *d->tpin);
    d->tchild_first = alloc_array(np, sizeof *d->tchild_first);
    d->tnchild = alloc_array(np, sizeof *d->tnchild);
    d->tkind = alloc_array(np, sizeof *d->tkind);
    d->tblink = alloc_array(np, sizeof *d->tblink);
    d->trow = alloc_array(4 * (np + 2), sizeof *d->trow);
    d->trr = alloc_array(np, sizeof *d->trr);
    d->tmass = alloc_array(np, sizeof *d->tmass);
    d->tcomp_first = alloc_array(np + 1, sizeof *d->tcomp_first);
    d->tcomp_kkt = alloc_array(np + 1, sizeof *d->tcomp_kkt);
    d->tcomp_floor = alloc_array(np + 1, sizeof *d->tcomp_floor);
    d->tcomp_kkt0 = alloc_array(np + 1, sizeof *d->tcomp_kkt0);
    d->tcomp_pending = calloc(np + 1, sizeof *d->tcomp_pending);
    d->tkacc = calloc(9 * (np + 2), sizeof *d->tkacc);
    d->tracc = calloc(3 * np + 1, sizeof *d->tracc);
    d->tgacc = calloc(3 * np + 1, sizeof *d->tgacc);
    d->tgtrial = calloc(3 * np + 1, sizeof *d->tgtrial);
    d->tfac_first = alloc_array(np + 1, sizeof *d->tfac_first);
    d->tplane = alloc_array(11 * (np + 2), sizeof *d->tplane);
    d->tdx = alloc_array(np, sizeof *d->tdx);
    d->kacc = alloc_array(9 * np, sizeof *d->kacc);
    d->racc = alloc_array(3 * np, sizeof *d->racc);
    d->dx = alloc_array(np, sizeof *d->dx);
    d->dlam = alloc_array(nl, sizeof *d->dlam);
    d->gpoint = alloc_array(np, sizeof *d->gpoint);
    d->graph_link = alloc_array(nl, sizeof *d->graph_link);
    if (m->nobstacles > 0 && !symbolic && !(d->contact = calloc(np + 1, sizeof *d->contact)))
        goto fail;
    if (!d->adj_first || !d->adj_link || !d->owner || !d->leftover || !d->is_free || !d->alpha ||
        !d->lambda || !d->n || !d->len || !d->xpred || !d->xlast || !d->xstart || !d->order ||
        !d->parent || !d->parent_link || !d->npins || !d->pin_link || !d->tindex || !d->tparent ||
        !d->tplink || !d->tpin_first || !d->tpin || !d->tchild_first || !d->tnchild || !d->trow ||
        !d->tkind || !d->tblink || !d->trr || !d->tmass || !d->tcomp_first || !d->tcomp_kkt ||
        !d->tcomp_floor || !d->tcomp_kkt0 || !d->tcomp_pending || !d->tkacc || !d->tracc ||
        !d->tgacc || !d->tgtrial || !d->tfac_first || !d->tplane || !d->tdx || !d->kacc ||
        !d->racc || !d->dx || !d->dlam || !d->gpoint || !d->graph_link)
        goto fail;
    build_adjacency(d, m);
    d->tfac = alloc_array(size_factors(d), sizeof *d->tfac);
    /* One chunk of components per member, four times over, so that a member the system does
     * not schedule holds up little; each chunk has its own scratch. */
    d->max_chunks = m->threads > 1 ? 4 * (size_t)m->threads : 1;
    d->scratch_size = d->max_block * (d->max_block + 16) + 16;
    d->scratch = alloc_array(d->max_chunks * d->scratch_size, sizeof *d->scratch);
    if (m->threads > 1 && !symbolic && !(d->pool = pool_create(m->threads, 1)))
        goto fail;
    if (!d->tfac || !d->scratch || (*status = direct_graph_create(d, m, symbolic)) != DIRECT_OK)
        goto fail;
    return d;

fail:
    direct_destroy(d);
    return NULL;
}

struct direct *direct_create(const struct model *m)
{
    enum direct_status status;
    return create(m, 0, &status); /* solver_check's estimate has already said why not */
}

enum direct_status direct_estimate(const struct model *m, struct direct_estimate *e)
{
    enum direct_status status;
    struct direct *d = create(m, 1, &status);
    if (!d) {
        *e = (struct direct_estimate){0.0, 0.0, -1};
        if (status == DIRECT_ORDER_INVALID)
            e->body = direct_graph_invalid_body(m);
        return status;
    }
    direct_graph_estimate(d, m, e);
    direct_destroy(d);
    return DIRECT_OK;
}

void direct_destroy(struct direct *d)
{
    if (!d)
        return;
    free(d->adj_first);
    free(d->adj_link);
    free(d->owner);
    free(d->leftover);
    free(d->is_free);
    free(d->alpha);
    free(d->lambda);
    free(d->n);
    free(d->len);
    free(d->xpred);
    free(d->xlast);
    free(d->xstart);
    free(d->order);
    free(d->parent);
    free(d->parent_link);
    free(d->npins);
    free(d->pin_link);
    free(d->tindex);
    free(d->tparent);
    free(d->tplink);
    free(d->tpin_first);
    free(d->tpin);
    free(d->tchild_first);
    free(d->tnchild);
    free(d->tkind);
    free(d->tblink);
    free(d->trow);
    free(d->trr);
    free(d->tmass);
    free(d->tcomp_first);
    free(d->tcomp_kkt);
    free(d->tcomp_floor);
    free(d->tcomp_kkt0);
    free(d->tcomp_pending);
    free(d->tkacc);
    free(d->tracc);
    free(d->tgacc);
    free(d->tgtrial);
    free(d->tfac_first);
    free(d->tfac);
    free(d->tplane);
    free(d->tdx);
    free(d->kacc);
    free(d->racc);
    free(d->dx);
    free(d->dlam);
    free(d->gpoint);
    free(d->scratch);
    pool_destroy(d->pool);
    free(d->graph_link);
    free(d->contact);
    direct_graph_destroy(d);
    free(d);
}

/* Distance links with a movable end. Verlet and PBD links softer than 1 are a fraction of a
 * projection per iteration by definition, which only Gauss-Seidel gives meaning to. */
static int is_owned(const struct model *m, const unsigned char *alive, const unsigned char *is_free,
                    size_t i)
{
    const struct link *l = &m->links[i];
    return alive[i] && l->kind == LINK_DISTANCE && l->a != l->b &&
           (is_free[l->a] || is_free[l->b]) && (m->method == METHOD_XPBD || l->stiffness >= 1.0);
}

static uint32_t other_end(const struct model *m, size_t link, size_t p)
{
    const struct link *l = &m->links[link];
    return l->a == p ? l->b : l->a;
}

/* Breadth-first search from root over owned links between free points, appending the
 * component's points to d->order. Returns 1 when it has a loop (a second path to a point). */
static int visit_component(struct direct *d, const struct model *m, uint32_t root,
                           unsigned char *seen)
{
    int loop = 0;
    size_t head = d->ntree;
    d->order[d->ntree++] = root;
    seen[root] = 1;
    d->parent[root] = -1;
    d->parent_link[root] = -1;
    while (head < d->ntree) {
        const uint32_t p = d->order[head++];
        d->npins[p] = 0;
        for (uint32_t k = d->adj_first[p]; k < d->adj_first[p + 1]; k++) {
            const uint32_t l = d->adj_link[k];
            if (d->owner[l] == OWNER_NONE)
                continue;
            const uint32_t q = other_end(m, l, p);
            if (!d->is_free[q]) {
                d->pin_link[d->adj_first[p] + d->npins[p]++] = l;
            } else if (!seen[q]) {
                seen[q] = 1;
                d->parent[q] = (int32_t)p;
                d->parent_link[q] = (int32_t)l;
                d->order[d->ntree++] = q;
            } else if ((int32_t)l != d->parent_link[p]) {
                loop = 1; /* a second path to q, or a second link to the parent */
            }
        }
    }
    return loop;
}

/* Searches the tree in order[first..ntree) again from its centre (the middle of a longest
 * path, found by two searches): its branches, then as long as each other, are eliminated
 * interleaved, so the processor works on two independent chains of dependent arithmetic at
 * once instead of one twice as long (a chain's iteration then costs ~half). */
static void root_at_centre(struct direct *d, const struct model *m, size_t first,
                           unsigned char *seen)
{
    uint32_t root = d->order[d->ntree - 1]; /* breadth first: the last is a farthest point */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t k = first; k < d->ntree; k++)
            seen[d->order[k]] = 0;
        d->ntree = first;
        visit_component(d, m, root, seen);
        if (pass == 1)
            break;
        uint32_t end = d->order[d->ntree - 1];
        size_t len = 0;
        for (uint32_t p = end; d->parent[p] >= 0; p = (uint32_t)d->parent[p])
            len++;
        for (size_t i = 0; i < len / 2; i++)
            end = (uint32_t)d->parent[end];
        root = end;
    }
}

/* Hands a component with loops (order[first..ntree)) to the sparse factorisation: its
 * links, and its points as the next component's. */
static void move_to_graph(struct direct *d, size_t first)
{
    d->gcomp_pfirst[d->ngcomp] = (uint32_t)d->ngpoint;
    d->gcomp_lfirst[d->ngcomp] = (uint32_t)d->ngraph;
    for (size_t k = first; k < d->ntree; k++) {
        const uint32_t p = d->order[k];
        d->gpoint[d->ngpoint++] = p;
        for (uint32_t s = d->adj_first[p]; s < d->adj_first[p + 1]; s++) {
            const uint32_t l = d->adj_link[s];
            if (d->owner[l] != OWNER_TREE)
                continue;
            d->owner[l] = OWNER_GRAPH;
            d->graph_link[d->ngraph++] = l;
        }
    }
    d->gcomp_lfirst[d->ngcomp + 1] = (uint32_t)d->ngraph;
    d->gcomp_pfirst[++d->ngcomp] = (uint32_t)d->ngpoint;
    d->ntree = first;
}

/* The tree solver's view of order[0..ntree): each point's parent as a tree index, its block
 * links (the link to its parent first, then those to pins), its mass and where its factors
 * go (solver/direct/tree.c). */
static void number_trees(struct direct *d, const struct model *m)
{
    const size_t dim = (size_t)d->dims;
    for (size_t k = 0; k < d->ntree; k++) {
        d->tindex[d->order[k]] = (uint32_t)k;
        d->tnchild[k] = 0;
    }
    d->tpin_first[0] = 0;
    for (size_t k = 0; k < d->ntree; k++) {
        const uint32_t p = d->order[k];
        d->tparent[k] = d->parent[p] < 0 ? -1 : (int32_t)d->tindex[d->parent[p]];
        d->tplink[k] = d->parent_link[p];
        if (d->tparent[k] >= 0 && d->tnchild[d->tparent[k]]++ == 0)
            d->tchild_first[d->tparent[k]] = (uint32_t)k; /* breadth first: siblings adjacent */
        uint32_t np = d->tpin_first[k];
        for (uint32_t i = 0; i < d->npins[p]; i++)
            d->tpin[np++] = d->pin_link[d->adj_first[p] + i];
        d->tpin_first[k + 1] = np;
        d->tmass[k] = 1.0 / m->inv_mass[p];
    }
    d->tfac_first[0] = 0;
    for (size_t k = 0; k < d->ntree; k++) {
        const size_t nb = d->tpin_first[k + 1] - d->tpin_first[k] + d->tnchild[k];
        const int pin = d->tpin_first[k + 1] > d->tpin_first[k];
        d->tkind[k] = d->tparent[k] < 0 || nb > 1 ? TREE_GENERAL
                      : nb == 0                   ? TREE_NONE
                      : pin                       ? TREE_PIN
                                                  : TREE_CHILD;
        d->tblink[k] = d->tkind[k] == TREE_PIN     ? d->tpin[d->tpin_first[k]]
                       : d->tkind[k] == TREE_CHILD ? (uint32_t)d->tplink[d->tchild_first[k]]
                                                   : UINT32_MAX;
        d->tfac_first[k + 1] = d->tfac_first[k] + (nb + dim) * (dim + 2);
    }
}

void direct_analyse(struct direct *d, const struct model *m, const unsigned char *alive)
{
    build_adjacency(d, m);
    for (size_t p = 0; p < d->npoints; p++)
        d->is_free[p] = m->inv_mass[p] > 0.0;
    for (size_t i = 0; i < d->nlinks; i++) {
        const int owned = is_owned(m, alive, d->is_free, i);
        d->owner[i] = owned ? OWNER_TREE : OWNER_NONE;
        d->alpha[i] = m->method == METHOD_XPBD ? m->links[i].compliance : 0.0;
        if (!owned)
            d->lambda[i] = 0.0;
    }
    /* seen[] borrows the Newton step's array: every iteration writes it before reading. */
    unsigned char *seen = (unsigned char *)d->dx;
    memset(seen, 0, d->npoints);
    d->ntree = d->ngraph = d->ntcomp = d->ngcomp = d->ngpoint = 0;
    d->gcomp_pfirst[0] = 0;
    d->gcomp_lfirst[0] = 0;
    d->tcomp_first[0] = 0;
    for (size_t p = 0; p < d->npoints; p++) {
        if (seen[p] || !d->is_free[p])
            continue;
        const size_t first = d->ntree;
        if (visit_component(d, m, (uint32_t)p, seen)) {
            move_to_graph(d, first);
        } else if (d->ntree == first + 1 && d->npins[p] == 0) {
            d->ntree = first; /* a lone point: nothing to solve */
        } else {
            if (d->ntree > first + 2)
                root_at_centre(d, m, first, seen);
            d->tcomp_first[++d->ntcomp] = (uint32_t)d->ntree;
        }
    }
    number_trees(d, m);
    direct_graph_analyse(d, m);
    d->cold = 0;
    for (size_t i = 0; i < d->nlinks; i++)
        if (d->owner[i] != OWNER_NONE && d->lambda[i] == 0.0)
            d->cold = 1;
    d->nleftover = 0;
    for (size_t i = 0; i < d->nlinks; i++)
        if (alive[i] && d->owner[i] == OWNER_NONE)
            d->leftover[d->nleftover++] = (uint32_t)i;
    d->stats.tree_points = d->ntree;
    d->stats.tree_links = 0;
    for (size_t i = 0; i < d->nlinks; i++)
        d->stats.tree_links += d->owner[i] == OWNER_TREE;
    d->stats.graph_links = d->ngraph;
}

int direct_owns(const struct direct *d, size_t i)
{
    return d->owner[i] != OWNER_NONE;
}

void direct_begin(struct direct *d, const vec3 *x, const vec3 *xstart, int others)
{
    d->others = others;
    if (d->cold) /* only a cold start reads where the substep started */
        memcpy(d->xstart, xstart, d->npoints * sizeof *x);
    memcpy(d->xpred, x, d->npoints * sizeof *x);
    if (others || d->ngpoint) /* only they read where the last iteration left the points */
        memcpy(d->xlast, x, d->npoints * sizeof *x);
    direct_newton_begin(d);
    direct_contact_begin(d, xstart);
    for (size_t c = 0; c < d->ntcomp; c++) {
        d->tcomp_kkt[c] = INFINITY; /* a new prediction: nothing measured yet */
        d->tcomp_pending[c] = 0;
    }
    d->stats.factorizations = 0;
    for (size_t c = 0; c < d->ngcomp; c++) {
        d->gcomp_state[c].factorizations = 0;
        d->gcomp_state[c].fresh = 1;
    }
}

/* What moved the points of tree component c since its last iteration (a tether, an angle
 * limit, a collision) becomes part of their prediction, or the Newton step, which drives
 * x - x* into the span of the links' forces, would pull them back and the two would fight.
 * Returns whether anything moved. */
static int absorb_moves(struct direct *d, const vec3 *x, size_t c)
{
    int moved = 0;
    for (size_t k = d->tcomp_first[c]; k < d->tcomp_first[c + 1]; k++) {
        const uint32_t p = d->order[k];
        const vec3 v = v3_sub(x[p], d->xlast[p]);
        if (v.x != 0.0 || v.y != 0.0 || v.z != 0.0) {
            d->xpred[p] = v3_add(d->xpred[p], v);
            moved = 1;
        }
    }
    return moved;
}

/* One iteration of tree component c (after a cold start, first the multipliers' estimate:
 * see direct_iterate). */
static void iterate_tree(struct direct *d, const struct model *m, vec3 *x, double h, size_t c,
                         int cold, double *scratch)
{
    int moved = d->others && absorb_moves(d, x, c);
    if (cold) {
        direct_search_tree(d, m, d->xstart, c, h, 0, 1, scratch);
        moved = 1;
    }
    direct_search_tree(d, m, x, c, h, 1, moved, scratch);
    for (size_t k = d->tcomp_first[c]; k < d->tcomp_first[c + 1] && d->others; k++)
        d->xlast[d->order[k]] = x[d->order[k]];
}

/* One iteration's work, split in chunks of components for the thread team. */
struct job {
    struct direct *d;
    const struct model *m;
    vec3 *x;
    double h;
    int cold;
    size_t nchunks;
};

/* Chunk j: components [j C / nchunks, (j + 1) C / nchunks) of the C, trees then graphs, with
 * the chunk's own scratch. Components share nothing, so the team changes no bit. */
static void run_chunk(void *ctx, size_t j)
{
    const struct job *jb = ctx;
    struct direct *d = jb->d;
    const size_t ncomp = d->ntcomp + d->ngcomp;
    double *scratch = d->scratch + j * d->scratch_size;
    for (size_t c = j * ncomp / jb->nchunks; c < (j + 1) * ncomp / jb->nchunks; c++) {
        if (c < d->ntcomp)
            iterate_tree(d, jb->m, jb->x, jb->h, c, jb->cold, scratch);
        else if (jb->m->global_matrix == MATRIX_FIXED)
            direct_fixed_component(d, jb->m, c - d->ntcomp, jb->x, jb->h);
        else
            direct_newton_component(d, jb->m, c - d->ntcomp, jb->x, jb->h, jb->cold);
    }
}

void direct_iterate(struct direct *d, const struct model *m, vec3 *x, double h, int last)
{
    /* Without multipliers there is no geometric stiffness, and the plain step that is left
     * overshoots on fine chains (15 % stretch at 10 000 links). So an iteration after a cold
     * start first estimates them: the forces along the links that best explain the
     * predicted displacement, at the substep's start, where the links' directions are still
     * those at rest (at x* they may have turned by radians). Then it takes its step, so that
     * even one iteration a step projects the first step. */
    const int cold = d->cold;
    d->cold = 0;
    d->last = last;
    d->gs_moved = 0.0;
    for (size_t k = 0; k < d->ngpoint; k++) {
        const uint32_t p = d->gpoint[k];
        const vec3 moved = v3_sub(x[p], d->xlast[p]);
        d->xpred[p] = v3_add(d->xpred[p], moved);
        d->gs_moved = fmax(d->gs_moved, v3_len(moved));
    }
    const size_t ncomp = d->ntcomp + d->ngcomp;
    struct job jb = {d, m, x, h, cold, ncomp < d->max_chunks ? ncomp : d->max_chunks};
    if (jb.nchunks > 0) {
        const size_t group_start[1] = {0};
        pool_run(jb.nchunks > 1 ? d->pool : NULL, jb.nchunks, group_start, 1, run_chunk, &jb);
    }
    for (size_t k = 0; k < d->ngpoint; k++)
        d->xlast[d->gpoint[k]] = x[d->gpoint[k]];
    d->stats.factorizations = 0;
    for (size_t c = 0; c < d->ngcomp; c++)
        d->stats.factorizations += d->gcomp_state[c].factorizations;
}

const uint32_t *direct_leftover(const struct direct *d, size_t *n)
{
    *n = d->nleftover;
    return d->leftover;
}

void direct_multipliers(const struct direct *d, double *lambda)
{
    for (size_t i = 0; i < d->nlinks; i++)
        if (d->owner[i] != OWNER_NONE)
            lambda[i] = d->lambda[i];
}

const struct direct_stats *direct_get_stats(const struct direct *d)
{
    return &d->stats;
}
