/* The Newton step of solver/direct/tree.c, on components with loops (cloth, soft bodies), is
 * taken in its primal form: the links' multipliers are eliminated first, dl = -(c + J dx) / a,
 * which leaves the positions' system
 *     H dx = -g - J^T A^-1 c,   H = K + J^T A^-1 J  (K: masses and the tensions' stiffness),
 * symmetric positive definite, with dims unknowns a point instead of dims a point plus one a
 * link. Under solver.global_matrix "fixed" the same storage holds instead the scalar matrix
 * of solver/direct/fixed.c (gdims 1: one unknown a point, the same for every axis).
 * This file is its symbolic side: the storage, the order of the points (approximate
 * minimum degree), the pattern of H and the elimination tree and column counts of its L D L^T
 * factor (Davis, "Algorithm 849", ACM TOMS 31, 2005). Each component has its own system (its
 * unknowns are contiguous and its factor a block of the whole), so components can be solved apart.
 * Removing links only removes entries, so the factor of any later topology fits the storage
 * sized for all links at the start; that sizing is also where the cost of a body is estimated
 * (direct_graph_estimate). The numeric side, one Newton iteration, is solver/direct/newton.c. */
#include "solver/direct/graph.h"

#include "solver/direct/direct.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <suitesparse/amd.h>

#include "solver/direct/internal.h"
#include "solver/direct/ldl.h"

#define CONVERGED 1e-13   /* residual, relative to the longest link, that needs no step */
#define KEEP_FACTOR 1e-10 /* below this (same measure) any factor still contracts enough */

enum { WALK_COUNT, WALK_ROWS };

/* ---- the order (once, at creation) ------------------------------------------------------- */

static int by_key(const void *pa, const void *pb)
{
    const struct direct_keyed *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->point > b->point) - (a->point < b->point);
}

/* SuiteSparse's AMD order of the points [p0, p0 + n) on the distance links [l0, l1), numbered
 * from p0, into perm[n]: AMD's status, AMD_OK (or AMD_OK_BUT_JUMBLED: two links join the same
 * points), AMD_OUT_OF_MEMORY (also for our own arrays) or AMD_INVALID. */
static int amd_of(const struct model *m, size_t p0, size_t n, size_t l0, size_t l1, int32_t *perm)
{
    int32_t *ap = calloc(n + 1, sizeof *ap), *next = calloc(n + 1, sizeof *next);
    int32_t *ai = calloc(l1 - l0 + 1, sizeof *ai);
    int status = ap && next && ai ? AMD_OK : AMD_OUT_OF_MEMORY;
    /* each link once, in its end a's column: AMD orders the pattern of A + A^T */
    for (size_t i = l0; i < l1 && status == AMD_OK; i++)
        if (m->links[i].kind == LINK_DISTANCE && m->links[i].a - p0 >= n)
            status = AMD_INVALID; /* its column is not ours to count in (end b: AMD checks) */
        else if (m->links[i].kind == LINK_DISTANCE)
            ap[m->links[i].a - p0 + 1]++;
    if (status == AMD_OK) {
        for (size_t v = 0; v < n; v++)
            next[v] = ap[v + 1] += ap[v];
        for (size_t v = n; v-- > 0;)
            next[v] = ap[v];
        for (size_t i = l0; i < l1; i++)
            if (m->links[i].kind == LINK_DISTANCE)
                ai[next[m->links[i].a - p0]++] = (int32_t)(m->links[i].b - p0);
        status = amd_order((int)n, ap, ai, perm, NULL, NULL);
    }
    free(ap);
    free(next);
    free(ai);
    return status;
}

/* The points' order, gorder and grank: approximate minimum degree (Amestoy, Davis and Duff,
 * SuiteSparse's AMD) on the graph of every distance link. On the 40 x 40 and 100 x 100 cloths
 * with bend links its factor has 23 % and 23 % fewer blocks than recursive median splits of
 * the rest positions had, and its factorisation a third fewer block products. */
static enum direct_status order(struct direct *d, const struct model *m)
{
    const size_t np = d->npoints;
    if (np > INT32_MAX || 2 * m->nlinks > INT32_MAX)
        return DIRECT_TOO_LARGE; /* AMD's int indices */
    int32_t *perm = calloc(np + 1, sizeof *perm);
    const int status = perm ? amd_of(m, 0, np, 0, m->nlinks, perm) : AMD_OUT_OF_MEMORY;
    for (size_t k = 0; k < np && status >= AMD_OK; k++) {
        d->gorder[k] = (uint32_t)perm[k];
        d->grank[perm[k]] = (uint32_t)k;
    }
    free(perm);
    if (status == AMD_INVALID)
        return DIRECT_ORDER_INVALID;
    return status >= AMD_OK ? DIRECT_OK : DIRECT_NO_MEMORY;
}

long direct_graph_invalid_body(const struct model *m)
{
    for (size_t b = 0; b < m->nbodies; b++) {
        const struct body *bd = &m->bodies[b];
        int32_t *perm = calloc((size_t)bd->npoints + 1, sizeof *perm);
        const int status = perm ? amd_of(m, bd->first_point, bd->npoints, bd->first_link,
                                         (size_t)bd->first_link + bd->nlinks, perm)
                                : AMD_OUT_OF_MEMORY;
        free(perm);
        if (status == AMD_INVALID)
            return (long)b;
    }
    return -1;
}

/* ---- the system ------------------------------------------------------------------------- */

struct walker {
    int mode;
    size_t q; /* next entry */
};

static void emit(struct direct *d, struct walker *w, size_t col, uint32_t row)
{
    if (w->mode == WALK_COUNT)
        d->ap[col + 1]++;
    else
        d->ai[w->q++] = row;
}

/* Column c0 + r of point p: the rest of its own block above the diagonal, and the blocks of
 * its neighbours numbered before it. */
static void walk_point_column(struct direct *d, const struct model *m, struct walker *w, uint32_t p,
                              int r)
{
    const size_t c0 = d->uidx[p];
    for (int r2 = 0; r2 < r; r2++)
        emit(d, w, c0 + (size_t)r, (uint32_t)(c0 + (size_t)r2));
    for (uint32_t s = d->adj_first[p]; s < d->adj_first[p + 1]; s++) {
        const uint32_t l = d->adj_link[s];
        if (d->owner[l] != OWNER_GRAPH)
            continue;
        const uint32_t q = m->links[l].a == p ? m->links[l].b : m->links[l].a;
        if (q == p || !direct_in_system(d, q) || d->uidx[q] >= c0)
            continue;
        for (int r2 = 0; r2 < d->gdims; r2++)
            emit(d, w, c0 + (size_t)r, d->uidx[q] + (uint32_t)r2);
    }
}

/* Every strictly upper entry of component c, column by column: counts them into ap, or
 * writes their rows into ai. */
static void walk(struct direct *d, const struct model *m, size_t c, int mode)
{
    struct walker w = {mode, d->ap[d->gcomp_ufirst[c]]};
    for (uint32_t k = d->gcomp_pfirst[c]; k < d->gcomp_pfirst[c + 1]; k++) {
        const uint32_t p = d->gpoint[k];
        for (int r = 0; r < d->gdims; r++)
            walk_point_column(d, m, &w, p, r);
    }
}

/* Elimination tree and column counts of component c's L (Davis's ldl_symbolic); its columns
 * start at lp[u0] = base. Returns the next free entry of L, or the flops it takes in *flops. */
static size_t symbolic(struct direct *d, size_t c, size_t base, double *flops)
{
    const size_t u0 = d->gcomp_ufirst[c], u1 = d->gcomp_ufirst[c + 1];
    for (size_t k = u0; k < u1; k++) {
        d->etree[k] = -1;
        d->lflag[k] = (uint32_t)k;
        d->lnz[k] = 0;
        for (uint32_t q = d->ap[k]; q < d->ap[k + 1]; q++)
            for (uint32_t i = d->ai[q]; d->lflag[i] != k; i = (uint32_t)d->etree[i]) {
                if (d->etree[i] == -1)
                    d->etree[i] = (int32_t)k;
                d->lnz[i]++;
                d->lflag[i] = (uint32_t)k;
            }
    }
    d->lp[u0] = base;
    double fl = 0.0;
    for (size_t k = u0; k < u1; k++) {
        d->lp[k + 1] = d->lp[k] + d->lnz[k];
        fl += (double)d->lnz[k] * ((double)d->lnz[k] + 3.0);
    }
    if (flops)
        *flops = fl;
    return d->lp[u1];
}

/* Numbers the points of each component in their order: uidx, and gcomp_ufirst. */
static void number(struct direct *d)
{
    size_t nu = 0;
    for (size_t c = 0; c < d->ngcomp; c++) {
        d->gcomp_ufirst[c] = nu;
        /* grank orders the component's points; gpoint lists them in that order */
        for (uint32_t k = d->gcomp_pfirst[c]; k < d->gcomp_pfirst[c + 1]; k++) {
            d->uidx[d->gpoint[k]] = (uint32_t)nu;
            nu += (size_t)d->gdims;
        }
    }
    d->gcomp_ufirst[d->ngcomp] = nu;
    d->nu = nu;
}

/* The pattern of every component: ap, and ai unless rows is 0. Returns the entries, or
 * SIZE_MAX past cap. */
static size_t pattern(struct direct *d, const struct model *m, size_t cap, int rows)
{
    memset(d->ap, 0, (d->nu + 1) * sizeof *d->ap);
    struct walker w = {WALK_COUNT, 0};
    for (size_t c = 0; c < d->ngcomp; c++)
        for (uint32_t k = d->gcomp_pfirst[c]; k < d->gcomp_pfirst[c + 1]; k++)
            for (int r = 0; r < d->gdims; r++)
                walk_point_column(d, m, &w, d->gpoint[k], r);
    for (size_t j = 0; j < d->nu; j++)
        d->ap[j + 1] += d->ap[j];
    if (d->ap[d->nu] > cap)
        return SIZE_MAX;
    for (size_t c = 0; c < d->ngcomp && rows; c++)
        walk(d, m, c, WALK_ROWS);
    return d->ap[d->nu];
}

/* Sorts gpoint[first..last) by their rank in the order. */
static void sort_by_rank(const struct direct *d, uint32_t first, uint32_t last,
                         struct direct_keyed *keys)
{
    const size_t n = last - first;
    for (size_t k = 0; k < n; k++)
        keys[k] =
            (struct direct_keyed){(double)d->grank[d->gpoint[first + k]], d->gpoint[first + k]};
    qsort(keys, n, sizeof *keys, by_key);
    for (size_t k = 0; k < n; k++)
        d->gpoint[first + k] = keys[k].point;
}

enum direct_status direct_graph_create(struct direct *d, const struct model *m, int symbolic_only)
{
    const size_t np = d->npoints, nl = d->nlinks;
    const size_t umax = (size_t)d->dims * np;
    d->gorder = calloc(np + 1, sizeof *d->gorder);
    d->grank = calloc(np + 1, sizeof *d->grank);
    d->gkeys = calloc(np + 1, sizeof *d->gkeys);
    d->uidx = calloc(np + 1, sizeof *d->uidx);
    d->gcomp_pfirst = calloc(np + 2, sizeof *d->gcomp_pfirst);
    d->gcomp_ufirst = calloc(np + 2, sizeof *d->gcomp_ufirst);
    d->gcomp_lfirst = calloc(np + 2, sizeof *d->gcomp_lfirst);
    d->gcomp_state = calloc(np + 1, sizeof *d->gcomp_state);
    d->lgeo = calloc(nl + 1, sizeof *d->lgeo);
    d->la = calloc(nl + 1, sizeof *d->la);
    d->lc = calloc(nl + 1, sizeof *d->lc);
    d->nf = calloc(nl + 1, sizeof *d->nf);
    d->laf = calloc(nl + 1, sizeof *d->laf);
    d->lw = calloc(nl + 1, sizeof *d->lw);
    d->flink = calloc(nl + 1, sizeof *d->flink);
    d->ap = calloc(umax + 1, sizeof *d->ap);
    /* umax, or the fixed matrix's stride of 4: each unknown's four values one aligned AVX
     * vector (solver/direct/ldl.c), never split across two cache lines */
    const size_t rhs_bytes = (4 * np + 4) * sizeof *d->rhs;
    d->rhs = aligned_alloc(32, rhs_bytes);
    if (d->rhs)
        memset(d->rhs, 0, rhs_bytes);
    d->etree = calloc(umax + 1, sizeof *d->etree);
    d->lnz = calloc(umax + 1, sizeof *d->lnz);
    d->lflag = calloc(umax + 1, sizeof *d->lflag);
    d->lp = calloc(umax + 1, sizeof *d->lp);
    d->bparent = calloc(np + 1, sizeof *d->bparent);
    d->bcount = calloc(np + 1, sizeof *d->bcount);
    d->bflag = calloc(np + 1, sizeof *d->bflag);
    d->bfill = calloc(np + 1, sizeof *d->bfill);
    d->bpattern = calloc(np + 1, sizeof *d->bpattern);
    d->blp = calloc(np + 1, sizeof *d->blp);
    d->by = calloc(9 * np + 1, sizeof *d->by);
    d->bdfac = calloc(BLOCK_FACTOR * np + 1, sizeof *d->bdfac);
    if (!d->gorder || !d->grank || !d->gkeys || !d->uidx || !d->gcomp_pfirst || !d->gcomp_ufirst ||
        !d->gcomp_lfirst || !d->gcomp_state || !d->lgeo || !d->la || !d->lc || !d->nf || !d->laf ||
        !d->lw || !d->flink || !d->ap || !d->rhs || !d->etree || !d->lnz || !d->lflag || !d->lp ||
        !d->bparent || !d->bcount || !d->bflag || !d->bfill || !d->bpattern || !d->blp || !d->by ||
        !d->bdfac)
        return DIRECT_NO_MEMORY;
    const enum direct_status ordered = order(d, m);
    if (ordered != DIRECT_OK)
        return ordered;
    /* The capacity: every point and every distance link in one system. */
    for (size_t i = 0; i < nl; i++)
        d->owner[i] = m->links[i].kind == LINK_DISTANCE ? OWNER_GRAPH : OWNER_NONE;
    d->ngcomp = 1;
    d->gcomp_pfirst[0] = 0;
    d->gcomp_pfirst[1] = (uint32_t)np;
    memcpy(d->gpoint, d->gorder, np * sizeof *d->gpoint);
    number(d);
    const size_t entries = pattern(d, m, SIZE_MAX, 0);
    d->entry_cap = entries;
    d->ai = calloc(entries + 1, sizeof *d->ai);
    if (!d->ai)
        return DIRECT_NO_MEMORY;
    pattern(d, m, entries, 1);
    const size_t lcap = symbolic(d, 0, 0, NULL);
    d->l_cap = lcap;
    if (symbolic_only)
        return DIRECT_OK; /* lnz and the points' order stay for direct_graph_estimate */
    d->li = calloc(lcap + 1, sizeof *d->li);
    d->lx = calloc(lcap + 1, sizeof *d->lx);
    d->ngcomp = 0;
    d->nu = 0;
    memset(d->owner, OWNER_NONE, nl);
    return d->li && d->lx ? DIRECT_OK : DIRECT_NO_MEMORY;
}

/* Point p's share of the factorisation: its columns' operations and entries. */
static void point_cost(const struct direct *d, uint32_t p, double *flops, double *entries)
{
    for (int r = 0; r < d->gdims; r++) {
        const double n = (double)d->lnz[d->uidx[p] + (uint32_t)r];
        *flops += n * (n + 3.0); /* column k of L: lnz[k] entries, lnz[k] (lnz[k] + 3) ops */
        *entries += n;
    }
}

void direct_graph_estimate(const struct direct *d, const struct model *m, struct direct_estimate *e)
{
    *e = (struct direct_estimate){0.0, 0.0, -1};
    double flops_all = 0.0, entries_all = 0.0, flops_in = 0.0, entries_in = 0.0;
    for (size_t p = 0; p < d->npoints; p++)
        point_cost(d, (uint32_t)p, &flops_all, &entries_all);
    for (size_t b = 0; b < m->nbodies; b++) {
        double flops = 0.0, entries = 0.0;
        for (uint32_t i = 0; i < m->bodies[b].npoints; i++)
            point_cost(d, m->bodies[b].first_point + i, &flops, &entries);
        flops_in += flops;
        entries_in += entries;
        if (flops > e->flops)
            *e = (struct direct_estimate){flops, entries, (long)b};
    }
    if (flops_all - flops_in > e->flops) /* the points outside bodies, as one more */
        *e = (struct direct_estimate){flops_all - flops_in, entries_all - entries_in, -1};
}

void direct_graph_destroy(struct direct *d)
{
    free(d->gorder);
    free(d->grank);
    free(d->gkeys);
    free(d->uidx);
    free(d->gcomp_pfirst);
    free(d->gcomp_ufirst);
    free(d->gcomp_lfirst);
    free(d->gcomp_state);
    free(d->lgeo);
    free(d->la);
    free(d->lc);
    free(d->nf);
    free(d->laf);
    free(d->lw);
    free(d->flink);
    free(d->bparent);
    free(d->bcount);
    free(d->bflag);
    free(d->bfill);
    free(d->bpattern);
    free(d->blp);
    free(d->by);
    free(d->bdfac);
    free(d->ap);
    free(d->ai);
    free(d->rhs);
    free(d->etree);
    free(d->lnz);
    free(d->lflag);
    free(d->lp);
    free(d->li);
    free(d->lx);
}

/* A cut can join links that were never near each other, and the factor then need more room
 * than was set aside at the start; rather than allocate between steps, the bodies with loops
 * are left to Gauss-Seidel. */
static void give_up(struct direct *d)
{
    for (size_t k = 0; k < d->ngraph; k++)
        d->owner[d->graph_link[k]] = OWNER_NONE;
    d->ngraph = d->ngpoint = d->nu = d->ngcomp = 0;
    d->stats.graph_unknowns = d->stats.graph_factor_nnz = 0;
}

void direct_graph_analyse(struct direct *d, const struct model *m)
{
    for (size_t v = 0; v < d->npoints; v++)
        d->uidx[v] = UINT32_MAX;
    for (size_t k = 0; k < d->ngpoint; k++)
        d->uidx[d->gpoint[k]] = 0;
    for (size_t c = 0; c < d->ngcomp; c++)
        sort_by_rank(d, d->gcomp_pfirst[c], d->gcomp_pfirst[c + 1], d->gkeys);
    number(d);
    if (pattern(d, m, d->entry_cap, 1) == SIZE_MAX) {
        give_up(d);
        return;
    }
    size_t base = 0, blocks = 0;
    for (size_t c = 0; c < d->ngcomp; c++) {
        base = symbolic(d, c, base, NULL);
        blocks = direct_ldl_analyse(d, m, c, blocks);
        if (base > d->l_cap || blocks * (size_t)(d->gdims * d->gdims) > d->l_cap) {
            give_up(d);
            return;
        }
        struct graph_comp *gc = &d->gcomp_state[c];
        double longest = 0.0;
        for (uint32_t k = d->gcomp_pfirst[c]; k < d->gcomp_pfirst[c + 1]; k++) {
            const uint32_t p = d->gpoint[k];
            for (uint32_t s = d->adj_first[p]; s < d->adj_first[p + 1]; s++)
                if (d->owner[d->adj_link[s]] == OWNER_GRAPH)
                    longest = fmax(longest, m->links[d->adj_link[s]].rest);
        }
        gc->converged = CONVERGED * longest;
        gc->refactor_floor = KEEP_FACTOR * longest;
        gc->factored = 0;
        gc->last_residual = INFINITY;
    }
    d->stats.graph_unknowns = d->nu;
    d->stats.graph_factor_nnz = d->lp[d->nu];
}
