/* The Newton step of solver/direct/tree.c for components with loops (cloth, soft bodies), in
 * its primal form: the links' multipliers are eliminated first, dl = -(c + J dx) / a, which
 * leaves the positions' system
 *     H dx = -g - J^T A^-1 c,   H = K + J^T A^-1 J  (K: masses and the tensions' stiffness),
 * symmetric positive definite, with dims unknowns a point instead of dims a point plus one a
 * link. Rigid links get a = 1e-10 (w_a + w_b) in this elimination only, a penalty whose
 * error the next iteration's residual corrects, so the fixed point is the exact one. H is
 * factored as L D L^T by Davis's up-looking algorithm ("Algorithm 849", ACM TOMS 31, 2005)
 * in nested-dissection order of the points (recursive median splits of their rest
 * positions; the points of one half next to the other half separate them and go last),
 * which keeps a cloth's fill near O(N log N). Each component has its own system (its
 * unknowns are contiguous and its factor a block of the whole), so components can be solved
 * apart. Removing links only removes entries, so the factor of any later topology fits the
 * storage sized for all links at the start; that sizing is also where the cost of a body is
 * estimated (direct_graph_estimate). A factor is kept across iterations and steps while the
 * iteration still contracts, as a simplified Newton method: the fixed point depends only on
 * the residuals, never on the matrix. A factorisation asks stop_requested() every few
 * columns and gives up when a signal asks the run to stop. */
#define _POSIX_C_SOURCE 200809L /* core/stop.h: struct sigaction */
#include "solver/direct/graph.h"

#include "solver/direct/direct.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/stop.h"
#include "solver/direct/internal.h"
#include "solver/direct/search.h"
#include "solver/direct/tree.h"

#define ND_LEAF 16          /* point sets this small keep the order they come in */
#define RIGID_EPS 1e-10     /* regularisation of rigid links, relative to w_a + w_b */
#define REFACTOR_RATIO 0.25 /* refactor when an iteration shrinks the residual less */
#define CONVERGED 1e-13     /* residual, relative to the longest link, that needs no step */
#define KEEP_FACTOR 1e-10   /* below this (same measure) any factor still contracts enough */
#define POLL_COLUMNS 64     /* columns factored between two looks at stop_requested() */

enum { WALK_COUNT, WALK_ROWS, WALK_VALUES };

/* ---- nested dissection (once, at creation) ---------------------------------------------- */

static int by_key(const void *pa, const void *pb)
{
    const struct direct_keyed *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->point > b->point) - (a->point < b->point);
}

static int longest_axis(const struct model *m, const uint32_t *set, size_t n)
{
    vec3 lo = m->x0[set[0]], hi = lo;
    for (size_t k = 1; k < n; k++) {
        const vec3 c = m->x0[set[k]];
        lo = v3(fmin(lo.x, c.x), fmin(lo.y, c.y), fmin(lo.z, c.z));
        hi = v3(fmax(hi.x, c.x), fmax(hi.y, c.y), fmax(hi.z, c.z));
    }
    const vec3 e = v3_sub(hi, lo);
    return e.x >= e.y && e.x >= e.z ? 0 : e.y >= e.z ? 1 : 2;
}

/* 1 when point v has a link to a point stamped s. */
static int touches(const struct direct *d, const struct model *m, uint32_t v, const uint32_t *mark,
                   uint32_t s)
{
    for (uint32_t k = d->adj_first[v]; k < d->adj_first[v + 1]; k++) {
        const struct link *l = &m->links[d->adj_link[k]];
        if (mark[l->a == v ? l->b : l->a] == s)
            return 1;
    }
    return 0;
}

/* Reorders set[0..n) as [left half, right half, separator], each half recursively. */
static void dissect(const struct direct *d, const struct model *m, uint32_t *set, size_t n,
                    uint32_t *mark, uint32_t *stamp, struct direct_keyed *keys, uint32_t *tmp)
{
    if (n <= ND_LEAF)
        return;
    const int axis = longest_axis(m, set, n);
    for (size_t k = 0; k < n; k++)
        keys[k] = (struct direct_keyed){v3_comp(m->x0[set[k]], axis), set[k]};
    qsort(keys, n, sizeof *keys, by_key);
    const size_t half = n / 2;
    const uint32_t s = ++*stamp;
    for (size_t k = half; k < n; k++)
        mark[keys[k].point] = s;
    size_t nl = 0, nsep = 0;
    for (size_t k = 0; k < half; k++) {
        if (touches(d, m, keys[k].point, mark, s))
            tmp[nsep++] = keys[k].point;
        else
            set[nl++] = keys[k].point;
    }
    for (size_t k = half; k < n; k++)
        set[nl + k - half] = keys[k].point;
    memcpy(set + n - nsep, tmp, nsep * sizeof *tmp);
    dissect(d, m, set, nl, mark, stamp, keys, tmp);
    dissect(d, m, set + nl, n - half, mark, stamp, keys, tmp);
}

/* ---- the system ------------------------------------------------------------------------- */

static int in_system(const struct direct *d, uint32_t p)
{
    return d->uidx[p] != UINT32_MAX;
}

/* The penalty a link's multiplier is eliminated with: its compliance / h^2, or for a rigid
 * link RIGID_EPS (w_a + w_b) over its free ends. */
static double link_a(const struct direct *d, const struct model *m, uint32_t l, double ih2)
{
    const double a = d->alpha[l] * ih2;
    if (a > 0.0)
        return a;
    const struct link *lk = &m->links[l];
    return RIGID_EPS * (m->inv_mass[lk->a] + m->inv_mass[lk->b]);
}

struct walker {
    int mode;
    size_t q; /* next entry */
};

static void emit(struct direct *d, struct walker *w, size_t col, uint32_t row, double value)
{
    if (w->mode == WALK_COUNT)
        d->ap[col + 1]++;
    else if (w->mode == WALK_ROWS)
        d->ai[w->q++] = row;
    else
        d->ax[w->q++] = value;
}

/* The coupling block of link l between its ends, -(geo P + n n^T / a), entry (r2, r). */
static double coupling(const struct direct *d, uint32_t l, int r2, int r)
{
    const double nr = v3_comp(d->n[l], r), nr2 = v3_comp(d->n[l], r2);
    return -(d->lgeo[l] * ((r2 == r) - nr * nr2) + nr * nr2 / d->la[l]);
}

/* Column c0 + r of point p: the rest of its own block above the diagonal, and the blocks of
 * its neighbours numbered before it. */
static void walk_point_column(struct direct *d, const struct model *m, struct walker *w, uint32_t p,
                              int r)
{
    const size_t c0 = d->uidx[p];
    const double *k = d->kacc + 9 * (size_t)p;
    for (int r2 = 0; r2 < r; r2++)
        emit(d, w, c0 + (size_t)r, (uint32_t)(c0 + (size_t)r2), k[r2 * 3 + r]);
    for (uint32_t s = d->adj_first[p]; s < d->adj_first[p + 1]; s++) {
        const uint32_t l = d->adj_link[s];
        if (d->owner[l] != OWNER_GRAPH)
            continue;
        const uint32_t q = m->links[l].a == p ? m->links[l].b : m->links[l].a;
        if (q == p || !in_system(d, q) || d->uidx[q] >= c0)
            continue;
        for (int r2 = 0; r2 < d->dims; r2++)
            emit(d, w, c0 + (size_t)r, d->uidx[q] + (uint32_t)r2,
                 w->mode == WALK_VALUES ? coupling(d, l, r2, r) : 0.0);
    }
}

/* Every strictly upper entry of component c, column by column: counts them into ap, writes
 * their rows into ai, or their values into ax (and the diagonal into adiag). */
static void walk(struct direct *d, const struct model *m, size_t c, int mode)
{
    struct walker w = {mode, d->ap[d->gcomp_ufirst[c]]};
    for (uint32_t k = d->gcomp_pfirst[c]; k < d->gcomp_pfirst[c + 1]; k++) {
        const uint32_t p = d->gpoint[k];
        for (int r = 0; r < d->dims; r++) {
            walk_point_column(d, m, &w, p, r);
            if (mode == WALK_VALUES)
                d->adiag[d->uidx[p] + (uint32_t)r] = d->kacc[9 * (size_t)p + (size_t)(4 * r)];
        }
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

/* Numbers the points of each component in dissection order: uidx, and gcomp_ufirst. */
static void number(struct direct *d)
{
    size_t nu = 0;
    for (size_t c = 0; c < d->ngcomp; c++) {
        d->gcomp_ufirst[c] = nu;
        /* grank orders the component's points; gpoint lists them in that order */
        for (uint32_t k = d->gcomp_pfirst[c]; k < d->gcomp_pfirst[c + 1]; k++) {
            d->uidx[d->gpoint[k]] = (uint32_t)nu;
            nu += (size_t)d->dims;
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
            for (int r = 0; r < d->dims; r++)
                walk_point_column(d, m, &w, d->gpoint[k], r);
    for (size_t j = 0; j < d->nu; j++)
        d->ap[j + 1] += d->ap[j];
    if (d->ap[d->nu] > cap)
        return SIZE_MAX;
    for (size_t c = 0; c < d->ngcomp && rows; c++)
        walk(d, m, c, WALK_ROWS);
    return d->ap[d->nu];
}

/* Sorts gpoint[first..last) by their rank in the dissection order. */
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

int direct_graph_create(struct direct *d, const struct model *m, int symbolic_only)
{
    const size_t np = d->npoints, nl = d->nlinks;
    const size_t umax = (size_t)d->dims * np;
    d->gorder = calloc(np + 1, sizeof *d->gorder);
    d->grank = calloc(np + 1, sizeof *d->grank);
    d->gkeys = calloc(np + 1, sizeof *d->gkeys);
    d->uidx = calloc(np + 1, sizeof *d->uidx);
    d->gcomp_pfirst = calloc(np + 2, sizeof *d->gcomp_pfirst);
    d->gcomp_ufirst = calloc(np + 2, sizeof *d->gcomp_ufirst);
    d->gcomp_state = calloc(np + 1, sizeof *d->gcomp_state);
    d->lgeo = calloc(nl + 1, sizeof *d->lgeo);
    d->la = calloc(nl + 1, sizeof *d->la);
    d->lc = calloc(nl + 1, sizeof *d->lc);
    d->nf = calloc(nl + 1, sizeof *d->nf);
    d->laf = calloc(nl + 1, sizeof *d->laf);
    d->ap = calloc(umax + 1, sizeof *d->ap);
    d->adiag = calloc(umax + 1, sizeof *d->adiag);
    d->rhs = calloc(umax + 1, sizeof *d->rhs);
    d->etree = calloc(umax + 1, sizeof *d->etree);
    d->lnz = calloc(umax + 1, sizeof *d->lnz);
    d->lflag = calloc(umax + 1, sizeof *d->lflag);
    d->lfill = calloc(umax + 1, sizeof *d->lfill);
    d->lpattern = calloc(umax + 1, sizeof *d->lpattern);
    d->lp = calloc(umax + 1, sizeof *d->lp);
    d->ld = calloc(umax + 1, sizeof *d->ld);
    d->ly = calloc(umax + 1, sizeof *d->ly);
    uint32_t *mark = calloc(np + 1, sizeof *mark);
    if (!d->gorder || !d->grank || !d->gkeys || !d->uidx || !d->gcomp_pfirst || !d->gcomp_ufirst ||
        !d->gcomp_state || !d->lgeo || !d->la || !d->lc || !d->nf || !d->laf || !d->ap ||
        !d->adiag || !d->rhs || !d->etree || !d->lnz || !d->lflag || !d->lfill || !d->lpattern ||
        !d->lp || !d->ld || !d->ly || !mark) {
        free(mark);
        return -1;
    }
    uint32_t stamp = 0;
    for (size_t v = 0; v < np; v++)
        d->gorder[v] = (uint32_t)v;
    dissect(d, m, d->gorder, np, mark, &stamp, d->gkeys, d->lpattern);
    free(mark);
    for (size_t k = 0; k < np; k++)
        d->grank[d->gorder[k]] = (uint32_t)k;
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
    d->ax = calloc(entries + 1, sizeof *d->ax);
    if (!d->ai || !d->ax)
        return -1;
    pattern(d, m, entries, 1);
    const size_t lcap = symbolic(d, 0, 0, NULL);
    d->l_cap = lcap;
    if (symbolic_only)
        return 0; /* lnz and the points' order stay for direct_graph_estimate */
    d->li = calloc(lcap + 1, sizeof *d->li);
    d->lx = calloc(lcap + 1, sizeof *d->lx);
    d->ngcomp = 0;
    d->nu = 0;
    memset(d->owner, OWNER_NONE, nl);
    return d->li && d->lx ? 0 : -1;
}

/* Point p's share of the factorisation: its columns' operations and entries. */
static void point_cost(const struct direct *d, uint32_t p, double *flops, double *entries)
{
    for (int r = 0; r < d->dims; r++) {
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
    free(d->gcomp_state);
    free(d->lgeo);
    free(d->la);
    free(d->lc);
    free(d->nf);
    free(d->laf);
    free(d->ap);
    free(d->ai);
    free(d->ax);
    free(d->adiag);
    free(d->rhs);
    free(d->etree);
    free(d->lnz);
    free(d->lflag);
    free(d->lfill);
    free(d->lpattern);
    free(d->lp);
    free(d->li);
    free(d->lx);
    free(d->ld);
    free(d->ly);
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
    size_t base = 0;
    for (size_t c = 0; c < d->ngcomp; c++) {
        base = symbolic(d, c, base, NULL);
        if (base > d->l_cap) {
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

/* Runs body for each link l of component c once (lk_: the link), from its end a, or from b
 * when a is pinned. */
#define FOR_LINKS(d, m, c, l, ...)                                                                 \
    for (uint32_t k_ = (d)->gcomp_pfirst[c]; k_ < (d)->gcomp_pfirst[(c) + 1]; k_++) {              \
        const uint32_t p_ = (d)->gpoint[k_];                                                       \
        for (uint32_t s_ = (d)->adj_first[p_]; s_ < (d)->adj_first[p_ + 1]; s_++) {                \
            const uint32_t l = (d)->adj_link[s_];                                                  \
            const struct link *lk_ = &(m)->links[l];                                               \
            if ((d)->owner[l] != OWNER_GRAPH || (lk_->a != p_ && in_system((d), lk_->a)))          \
                continue;                                                                          \
            __VA_ARGS__                                                                            \
        }                                                                                          \
    }

/* Davis's ldl_numeric over component c's columns. Every pivot of H is positive; one that
 * rounding brings under 1e-14 of its diagonal is held there. Returns -1 when a signal asked
 * the run to stop (the factor is then unusable). */
static int factor(struct direct *d, const struct model *m, size_t c)
{
    const size_t u0 = d->gcomp_ufirst[c], n = d->gcomp_ufirst[c + 1];
    FOR_LINKS(d, m, c, l, {
        d->nf[l] = d->n[l];
        d->laf[l] = d->la[l];
    })
    walk(d, m, c, WALK_VALUES);
    for (size_t k = u0; k < n; k++) {
        if ((k - u0) % POLL_COLUMNS == 0 && stop_requested())
            return -1;
        d->ly[k] = 0.0;
        size_t top = n;
        d->lflag[k] = (uint32_t)k;
        d->lnz[k] = 0;
        for (uint32_t q = d->ap[k]; q < d->ap[k + 1]; q++) {
            uint32_t i = d->ai[q];
            d->ly[i] += d->ax[q];
            size_t len = u0; /* this component's own stretch of lfill, as of every array */
            for (; d->lflag[i] != k; i = (uint32_t)d->etree[i]) {
                d->lfill[len++] = i;
                d->lflag[i] = (uint32_t)k;
            }
            while (len > u0)
                d->lpattern[--top] = d->lfill[--len];
        }
        double dk = d->adiag[k];
        for (; top < n; top++) {
            const uint32_t i = d->lpattern[top];
            const double yi = d->ly[i];
            d->ly[i] = 0.0;
            const size_t end = d->lp[i] + d->lnz[i];
            for (size_t q = d->lp[i]; q < end; q++)
                d->ly[d->li[q]] -= d->lx[q] * yi;
            const double lki = yi / d->ld[i];
            dk -= lki * yi;
            d->li[end] = (uint32_t)k;
            d->lx[end] = lki;
            d->lnz[i]++;
        }
        const double floor = 1e-14 * d->adiag[k];
        d->ld[k] = dk > floor ? dk : floor;
    }
    d->gcomp_state[c].factorizations++;
    return 0;
}

/* x = (L D L^T)^-1 x over component c's unknowns. */
static void solve(const struct direct *d, size_t c, double *x)
{
    const size_t u0 = d->gcomp_ufirst[c], n = d->gcomp_ufirst[c + 1];
    for (size_t j = u0; j < n; j++)
        for (size_t q = d->lp[j]; q < d->lp[j + 1]; q++)
            x[d->li[q]] -= d->lx[q] * x[j];
    for (size_t j = u0; j < n; j++)
        x[j] /= d->ld[j];
    for (size_t j = n; j-- > u0;)
        for (size_t q = d->lp[j]; q < d->lp[j + 1]; q++)
            x[j] -= d->lx[q] * x[d->li[q]];
}

/* Component c's links at x: direction, length, C + a l, tension stiffness and penalty; each
 * point's diagonal block of H in kacc and its right-hand side -g - J^T A^-1 c in rhs.
 * Returns the residual's size in metres, max(|W g|, |C + a l|). */
static double assemble(struct direct *d, const struct model *m, size_t c, const vec3 *x, double ih2)
{
    const int dim = d->dims;
    double size = 0.0;
    for (uint32_t k = d->gcomp_pfirst[c]; k < d->gcomp_pfirst[c + 1]; k++) {
        const uint32_t p = d->gpoint[k];
        const double mass = 1.0 / m->inv_mass[p];
        double *kb = d->kacc + 9 * (size_t)p, *g = d->racc + 3 * (size_t)p;
        memset(kb, 0, 9 * sizeof *kb);
        const vec3 e = v3_sub(x[p], d->xpred[p]);
        g[0] = mass * e.x;
        g[1] = mass * e.y;
        g[2] = mass * e.z;
        for (int i = 0; i < dim; i++)
            kb[4 * i] = mass;
    }
    for (uint32_t k = d->gcomp_pfirst[c]; k < d->gcomp_pfirst[c + 1]; k++) {
        const uint32_t p = d->gpoint[k];
        for (uint32_t s = d->adj_first[p]; s < d->adj_first[p + 1]; s++) {
            const uint32_t l = d->adj_link[s];
            const struct link *lk = &m->links[l];
            /* each link once: from its end a, or from b when a is pinned */
            if (d->owner[l] != OWNER_GRAPH || (lk->a != p && in_system(d, lk->a)))
                continue;
            const vec3 v = v3_sub(x[lk->b], x[lk->a]);
            const double len = v3_len(v);
            d->n[l] = len > 0.0 ? v3_scale(v, 1.0 / len) : v3(1, 0, 0);
            d->len[l] = len;
            const double lam = d->lambda[l];
            d->lc[l] = len - lk->rest + d->alpha[l] * ih2 * lam;
            d->lgeo[l] = lam < 0.0 && len > 0.0 ? -lam / len : 0.0;
            d->la[l] = link_a(d, m, l, ih2);
            size = fmax(size, fabs(d->lc[l]));
            const double nn[3] = {d->n[l].x, d->n[l].y, d->n[l].z};
            const uint32_t ends[2] = {lk->a, lk->b};
            for (int e = 0; e < 2; e++) {
                const uint32_t q = ends[e];
                if (!in_system(d, q))
                    continue;
                const double sgn = e ? 1.0 : -1.0; /* J at b is +n, at a -n */
                double *kb = d->kacc + 9 * (size_t)q, *g = d->racc + 3 * (size_t)q;
                for (int i = 0; i < dim; i++) {
                    g[i] -= sgn * nn[i] * lam;
                    for (int j = 0; j < dim; j++)
                        kb[i * 3 + j] +=
                            d->lgeo[l] * ((i == j) - nn[i] * nn[j]) + nn[i] * nn[j] / d->la[l];
                }
            }
        }
    }
    for (uint32_t k = d->gcomp_pfirst[c]; k < d->gcomp_pfirst[c + 1]; k++) {
        const uint32_t p = d->gpoint[k];
        const double *g = d->racc + 3 * (size_t)p;
        for (int i = 0; i < dim; i++)
            size = fmax(size, fabs(g[i]) * m->inv_mass[p]);
    }
    return size;
}

/* The right-hand side -g - J_f^T A_f^-1 c, J_f and A_f those the factor was made with: the
 * positions' part of the KKT system with the factor's matrix, whose multipliers' part the
 * step then takes from the same J_f (a factor kept over iterations is a simplified Newton
 * method of the whole KKT system, never a mix of two). */
static void right_side(struct direct *d, const struct model *m, size_t c)
{
    const int dim = d->dims;
    for (uint32_t k = d->gcomp_pfirst[c]; k < d->gcomp_pfirst[c + 1]; k++) {
        const uint32_t p = d->gpoint[k];
        for (int i = 0; i < dim; i++)
            d->rhs[d->uidx[p] + (uint32_t)i] = -d->racc[3 * (size_t)p + (size_t)i];
    }
    FOR_LINKS(d, m, c, l, {
        const double s = d->lc[l] / d->laf[l];
        for (int i = 0; i < dim; i++) {
            const double f = v3_comp(d->nf[l], i) * s;
            if (in_system(d, lk_->b))
                d->rhs[d->uidx[lk_->b] + (uint32_t)i] -= f;
            if (in_system(d, lk_->a))
                d->rhs[d->uidx[lk_->a] + (uint32_t)i] += f;
        }
    })
}

/* Component i of point p's step in the last solve (0 for a pinned point or z in 2D). */
static double step_of(const struct direct *d, uint32_t p, int i)
{
    return in_system(d, p) && i < d->dims ? d->rhs[d->uidx[p] + (uint32_t)i] : 0.0;
}

/* The measures of component c at x + alpha dx, l + alpha dl (racc is their g's scratch). */
static struct direct_measure graph_measure(struct direct *d, const struct model *m, size_t c,
                                           const vec3 *x, double alpha, double ih2)
{
    struct direct_measure r = {0, 0, 0, 0};
    for (uint32_t k = d->gcomp_pfirst[c]; k < d->gcomp_pfirst[c + 1]; k++) {
        const uint32_t p = d->gpoint[k];
        const double mass = 1.0 / m->inv_mass[p];
        double *g = d->racc + 3 * (size_t)p;
        for (int i = 0; i < 3; i++) {
            const double e = v3_comp(x[p], i) + alpha * step_of(d, p, i) - v3_comp(d->xpred[p], i);
            g[i] = mass * e;
            r.f += 0.5 * mass * e * e;
        }
    }
    FOR_LINKS(d, m, c, l, {
        vec3 xa = x[lk_->a], xb = x[lk_->b];
        xa = v3_add(
            xa, v3_scale(v3(step_of(d, lk_->a, 0), step_of(d, lk_->a, 1), step_of(d, lk_->a, 2)),
                         alpha));
        xb = v3_add(
            xb, v3_scale(v3(step_of(d, lk_->b, 0), step_of(d, lk_->b, 1), step_of(d, lk_->b, 2)),
                         alpha));
        const vec3 v = v3_sub(xb, xa);
        const double len = v3_len(v), lam = d->lambda[l] + alpha * d->dlam[l];
        const vec3 n = len > 0.0 ? v3_scale(v, 1.0 / len) : v3(1, 0, 0);
        const double cl = len - lk_->rest + d->alpha[l] * ih2 * lam;
        r.kkt += cl * cl;
        r.c1 += fabs(cl);
        for (int i = 0; i < 3; i++) {
            if (in_system(d, lk_->b))
                d->racc[3 * (size_t)lk_->b + (size_t)i] -= v3_comp(n, i) * lam;
            if (in_system(d, lk_->a))
                d->racc[3 * (size_t)lk_->a + (size_t)i] += v3_comp(n, i) * lam;
        }
    })
    for (uint32_t k = d->gcomp_pfirst[c]; k < d->gcomp_pfirst[c + 1]; k++) {
        const uint32_t p = d->gpoint[k];
        const double *g = d->racc + 3 * (size_t)p, w = m->inv_mass[p];
        r.kkt += (g[0] * g[0] + g[1] * g[1] + g[2] * g[2]) * w * w;
    }
    return r;
}

/* How far to take component c's step (solver/direct/search.c's rule). */
static double graph_search(struct direct *d, const struct model *m, size_t c, const vec3 *x,
                           double ih2, const struct direct_merit *mt)
{
    double alpha = 1.0, best = 1.0, best_value = INFINITY;
    for (int t = 0; t <= DIRECT_BACKTRACKS; t++, alpha *= 0.5) {
        const struct direct_measure r = graph_measure(d, m, c, x, alpha, ih2);
        const double v = mt->exact ? r.f + mt->mu * r.c1 : r.kkt;
        if (v <= mt->start + DIRECT_ARMIJO * alpha * mt->slope)
            return alpha;
        if (v < best_value) {
            best_value = v;
            best = alpha;
        }
    }
    return best;
}

/* One Newton step on graph component c. */
static void iterate_component(struct direct *d, const struct model *m, size_t c, vec3 *x,
                              double ih2, int move)
{
    struct graph_comp *gc = &d->gcomp_state[c];
    const double size = assemble(d, m, c, x, ih2);
    if (size <= gc->converged)
        return; /* at round-off already: a step would only stir it */
    /* A factor that no longer contracts is renewed, unless what the Gauss-Seidel pass moved
     * since the last iteration accounts for the residual: no factor would help then. */
    if (!gc->factored || (size > gc->refactor_floor && size > REFACTOR_RATIO * gc->last_residual &&
                          d->gs_moved < size)) {
        gc->factored = factor(d, m, c) == 0;
        if (!gc->factored)
            return; /* a signal: the run stops after this step */
    }
    gc->last_residual = size;
    right_side(d, m, c);
    solve(d, c, d->rhs);
    const int dim = d->dims;
    /* dl = -(c + J_f dx) / a_f, link by link, from the points' steps */
    double fslope = 0.0, mu = 0.0;
    FOR_LINKS(d, m, c, l, {
        double jdx = 0.0;
        for (int i = 0; i < dim; i++)
            jdx += v3_comp(d->nf[l], i) * (step_of(d, lk_->b, i) - step_of(d, lk_->a, i));
        d->dlam[l] = -(d->lc[l] + jdx) / d->laf[l];
        mu = fmax(mu, fabs(d->lambda[l] + d->dlam[l]));
    })
    double alpha = 1.0;
    if (move && d->last) {
        const struct direct_measure r0 = graph_measure(d, m, c, x, 0.0, ih2);
        for (uint32_t k = d->gcomp_pfirst[c]; k < d->gcomp_pfirst[c + 1]; k++) {
            const uint32_t p = d->gpoint[k];
            for (int i = 0; i < dim; i++)
                fslope += (v3_comp(x[p], i) - v3_comp(d->xpred[p], i)) * step_of(d, p, i) /
                          m->inv_mass[p];
        }
        struct direct_merit mt = {d->last, r0.kkt, -2.0 * r0.kkt, PENALTY * mu, 0.0};
        if (mt.exact) {
            mt.start = r0.f + mt.mu * r0.c1;
            mt.slope = fslope - mt.mu * r0.c1;
        }
        alpha = graph_search(d, m, c, x, ih2, &mt);
    }
    for (uint32_t k = d->gcomp_pfirst[c]; k < d->gcomp_pfirst[c + 1] && move; k++) {
        const uint32_t p = d->gpoint[k];
        x[p] =
            v3_add(x[p], v3_scale(v3(step_of(d, p, 0), step_of(d, p, 1), step_of(d, p, 2)), alpha));
    }
    FOR_LINKS(d, m, c, l, { d->lambda[l] += alpha * d->dlam[l]; })
}

void direct_graph_component(struct direct *d, const struct model *m, size_t c, vec3 *x, double h,
                            int cold)
{
    const double ih2 = 1.0 / (h * h);
    if (cold && !stop_requested())
        iterate_component(d, m, c, d->xstart, ih2, 0);
    if (!stop_requested())
        iterate_component(d, m, c, x, ih2, 1); /* a signal: the run stops after this step */
}

void direct_graph_begin(struct direct *d)
{
    for (size_t c = 0; c < d->ngcomp; c++)
        d->gcomp_state[c].last_residual = INFINITY; /* a factor kept from the last substep is
                                                       tried first */
}
