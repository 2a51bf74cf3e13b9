/* The Newton step of solver/direct/tree.c for components with loops (cloth, soft bodies): the same
 * KKT system [K, -J^T; -J, -a] over their points and links, solved by a sparse LDL^T
 * factorisation. Rigid links get a = 1e-10 (w_a + w_b) in the matrix only, which makes it
 * quasi-definite, so LDL^T exists in any order without pivoting (Vanderbei 1995); the
 * right-hand side is exact, so the fixed point is unchanged. Nodes (points and links) are
 * ordered once by geometric nested dissection of their rest positions (recursive median
 * splits; the nodes of one half next to the other half separate them and go last), which
 * keeps the fill of a cloth near O(N log N). Symbolic and numeric factorisation follow
 * Davis's up-looking LDL ("Algorithm 849", ACM TOMS 31, 2005). Removing links only removes
 * entries, so the factor of any later topology fits the storage sized for all links. A factor
 * is kept across iterations and steps while the iteration still contracts, as a simplified
 * Newton method: the fixed point depends only on the residuals, never on the matrix. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver/direct/graph.h"

#include "solver/direct/internal.h"
#include "solver/direct/newton.h"

#define ND_LEAF 16          /* node sets this small keep the order they come in */
#define RIGID_EPS 1e-10     /* regularisation of rigid links, relative to w_a + w_b */
#define REFACTOR_RATIO 0.25 /* refactor when an iteration shrinks the residual less */
#define CONVERGED 1e-13     /* residual, relative to the longest link, that needs no step */
#define KEEP_FACTOR 1e-10   /* below this (same measure) any factor still contracts enough */

enum { WALK_COUNT, WALK_ROWS, WALK_VALUES };

/* ---- nested dissection (once, at creation) ---------------------------------------------- */

struct keyed {
    double key;
    uint32_t node;
};

static int by_key(const void *pa, const void *pb)
{
    const struct keyed *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->node > b->node) - (a->node < b->node);
}

/* A point at its initial position, a link at its initial midpoint. */
static vec3 node_position(const struct model *m, uint32_t v)
{
    if (v < m->npoints)
        return m->x0[v];
    const struct link *l = &m->links[v - m->npoints];
    return v3_scale(v3_add(m->x0[l->a], m->x0[l->b]), 0.5);
}

static int longest_axis(const struct model *m, const uint32_t *set, size_t n)
{
    vec3 lo = node_position(m, set[0]), hi = lo;
    for (size_t k = 1; k < n; k++) {
        const vec3 c = node_position(m, set[k]);
        lo = v3(fmin(lo.x, c.x), fmin(lo.y, c.y), fmin(lo.z, c.z));
        hi = v3(fmax(hi.x, c.x), fmax(hi.y, c.y), fmax(hi.z, c.z));
    }
    const vec3 e = v3_sub(hi, lo);
    return e.x >= e.y && e.x >= e.z ? 0 : e.y >= e.z ? 1 : 2;
}

/* 1 when node v shares a matrix entry with a node stamped s: a link with its ends, a point
 * with its links and with the points they join it to. */
static int touches(const struct direct *d, const struct model *m, uint32_t v, const uint32_t *mark,
                   uint32_t s)
{
    if (v >= m->npoints) {
        const struct link *l = &m->links[v - m->npoints];
        return mark[l->a] == s || mark[l->b] == s;
    }
    for (uint32_t k = d->adj_first[v]; k < d->adj_first[v + 1]; k++) {
        const uint32_t l = d->adj_link[k];
        const struct link *lk = &m->links[l];
        if (mark[m->npoints + l] == s || mark[lk->a == v ? lk->b : lk->a] == s)
            return 1;
    }
    return 0;
}

/* Reorders set[0..n) as [left half, right half, separator], each half recursively. */
static void dissect(const struct direct *d, const struct model *m, uint32_t *set, size_t n,
                    uint32_t *mark, uint32_t *stamp, struct keyed *keys, uint32_t *tmp)
{
    if (n <= ND_LEAF)
        return;
    const int axis = longest_axis(m, set, n);
    for (size_t k = 0; k < n; k++)
        keys[k] = (struct keyed){v3_comp(node_position(m, set[k]), axis), set[k]};
    qsort(keys, n, sizeof *keys, by_key);
    const size_t half = n / 2;
    const uint32_t s = ++*stamp;
    for (size_t k = half; k < n; k++)
        mark[keys[k].node] = s;
    size_t nl = 0, nsep = 0;
    for (size_t k = 0; k < half; k++) {
        if (touches(d, m, keys[k].node, mark, s))
            tmp[nsep++] = keys[k].node;
        else
            set[nl++] = keys[k].node;
    }
    for (size_t k = half; k < n; k++)
        set[nl + k - half] = keys[k].node;
    memcpy(set + n - nsep, tmp, nsep * sizeof *tmp);
    dissect(d, m, set, nl, mark, stamp, keys, tmp);
    dissect(d, m, set + nl, n - half, mark, stamp, keys, tmp);
}

/* ---- the system ------------------------------------------------------------------------- */

static int in_system(const struct direct *d, uint32_t node)
{
    return d->uidx[node] != UINT32_MAX;
}

/* -J of link l at point p: -n at its end b, +n at its end a. */
static double minus_jac(const struct direct *d, const struct model *m, uint32_t l, uint32_t p,
                        int i)
{
    return m->links[l].b == p ? -v3_comp(d->n[l], i) : v3_comp(d->n[l], i);
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

/* Column c0 + r of point p: the rest of its own block, its neighbours' blocks (-G) and its
 * links' rows (-J), those numbered before it. */
static void walk_point_column(struct direct *d, const struct model *m, struct walker *w, uint32_t p,
                              int r)
{
    const size_t c0 = d->uidx[p];
    const double *k = d->kacc + 9 * (size_t)p;
    for (int r2 = 0; r2 < r; r2++)
        emit(d, w, c0 + (size_t)r, (uint32_t)(c0 + (size_t)r2), k[r2 * 3 + r]);
    for (uint32_t s = d->adj_first[p]; s < d->adj_first[p + 1]; s++) {
        const uint32_t l = d->adj_link[s], node = (uint32_t)m->npoints + l;
        if (!in_system(d, node))
            continue;
        const uint32_t q = m->links[l].a == p ? m->links[l].b : m->links[l].a;
        if (q != p && in_system(d, q) && d->uidx[q] < c0) {
            const double c = w->mode == WALK_VALUES ? direct_newton_geo(d, l) : 0.0;
            for (int r2 = 0; r2 < d->dims; r2++)
                emit(d, w, c0 + (size_t)r, d->uidx[q] + (uint32_t)r2,
                     -c * ((r2 == r) - v3_comp(d->n[l], r2) * v3_comp(d->n[l], r)));
        }
        if (d->uidx[node] < c0)
            emit(d, w, c0 + (size_t)r, d->uidx[node],
                 w->mode == WALK_VALUES ? minus_jac(d, m, l, p, r) : 0.0);
    }
}

/* Column of link l: the -J rows of its ends numbered before it. */
static void walk_link_column(struct direct *d, const struct model *m, struct walker *w, uint32_t l)
{
    const size_t c = d->uidx[m->npoints + l];
    const uint32_t ends[2] = {m->links[l].a, m->links[l].b};
    for (int e = 0; e < 2; e++) {
        const uint32_t p = ends[e];
        if (!in_system(d, p) || d->uidx[p] > c)
            continue;
        for (int r = 0; r < d->dims; r++)
            emit(d, w, c, d->uidx[p] + (uint32_t)r,
                 w->mode == WALK_VALUES ? minus_jac(d, m, l, p, r) : 0.0);
    }
}

/* Every strictly upper entry, column by column in unknown order: counts them into ap, writes
 * their rows into ai, or their values into ax (and the diagonal into adiag). */
static void walk(struct direct *d, const struct model *m, int mode, double ih2)
{
    struct walker w = {mode, 0};
    if (mode == WALK_COUNT)
        memset(d->ap, 0, (d->nu + 1) * sizeof *d->ap);
    for (size_t k = 0; k < d->npoints + d->nlinks; k++) {
        const uint32_t v = d->node_order[k];
        if (!in_system(d, v))
            continue;
        if (v < m->npoints) {
            for (int r = 0; r < d->dims; r++) {
                walk_point_column(d, m, &w, v, r);
                if (mode == WALK_VALUES)
                    d->adiag[d->uidx[v] + (uint32_t)r] = d->kacc[9 * (size_t)v + (size_t)(4 * r)];
            }
        } else {
            const uint32_t l = v - (uint32_t)m->npoints;
            walk_link_column(d, m, &w, l);
            if (mode == WALK_VALUES) {
                const struct link *lk = &m->links[l];
                const double a = d->alpha[l] * ih2;
                d->adiag[d->uidx[v]] =
                    -(a > 0.0 ? a : RIGID_EPS * (m->inv_mass[lk->a] + m->inv_mass[lk->b]));
            }
        }
    }
    if (mode == WALK_COUNT)
        for (size_t j = 0; j < d->nu; j++)
            d->ap[j + 1] += d->ap[j];
}

/* Elimination tree and column counts of L (Davis's ldl_symbolic); returns nnz(L). */
static size_t symbolic(struct direct *d)
{
    const size_t n = d->nu;
    for (size_t k = 0; k < n; k++) {
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
    d->lp[0] = 0;
    for (size_t k = 0; k < n; k++)
        d->lp[k + 1] = d->lp[k] + d->lnz[k];
    return d->lp[n];
}

/* Numbers the nodes that are in the system (uidx) in node_order; returns the unknowns. */
static size_t number(struct direct *d, const struct model *m)
{
    size_t nu = 0;
    for (size_t k = 0; k < d->npoints + d->nlinks; k++) {
        const uint32_t v = d->node_order[k];
        if (d->uidx[v] == UINT32_MAX)
            continue;
        d->uidx[v] = (uint32_t)nu;
        nu += v < m->npoints ? (size_t)d->dims : 1;
    }
    return nu;
}

int direct_graph_create(struct direct *d, const struct model *m)
{
    const size_t nodes = d->npoints + d->nlinks;
    const size_t umax = (size_t)d->dims * d->npoints + d->nlinks;
    d->node_order = calloc(nodes ? nodes : 1, sizeof *d->node_order);
    d->uidx = calloc(nodes ? nodes : 1, sizeof *d->uidx);
    d->ap = calloc(umax + 1, sizeof *d->ap);
    d->adiag = calloc(umax ? umax : 1, sizeof *d->adiag);
    d->rhs = calloc(umax ? umax : 1, sizeof *d->rhs);
    d->etree = calloc(umax ? umax : 1, sizeof *d->etree);
    d->lnz = calloc(umax ? umax : 1, sizeof *d->lnz);
    d->lflag = calloc(umax ? umax : 1, sizeof *d->lflag);
    d->lfill = calloc(umax ? umax : 1, sizeof *d->lfill);
    d->lpattern = calloc(umax ? umax : 1, sizeof *d->lpattern);
    d->lp = calloc(umax + 1, sizeof *d->lp);
    d->ld = calloc(umax ? umax : 1, sizeof *d->ld);
    d->ly = calloc(umax ? umax : 1, sizeof *d->ly);
    uint32_t *mark = calloc(nodes ? nodes : 1, sizeof *mark);
    struct keyed *keys = calloc(nodes ? nodes : 1, sizeof *keys);
    if (!d->node_order || !d->uidx || !d->ap || !d->adiag || !d->rhs || !d->etree || !d->lnz ||
        !d->lflag || !d->lfill || !d->lpattern || !d->lp || !d->ld || !d->ly || !mark || !keys) {
        free(mark);
        free(keys);
        return -1;
    }
    uint32_t stamp = 0;
    for (size_t v = 0; v < nodes; v++)
        d->node_order[v] = (uint32_t)v;
    dissect(d, m, d->node_order, nodes, mark, &stamp, keys, d->lpattern);
    free(mark);
    free(keys);
    /* Every point and link in one system: a superset of any the analysis will make. */
    memset(d->uidx, 0, nodes * sizeof *d->uidx);
    d->nu = number(d, m);
    walk(d, m, WALK_COUNT, 0.0);
    const size_t entries = d->ap[d->nu];
    d->entry_cap = entries;
    d->ai = calloc(entries ? entries : 1, sizeof *d->ai);
    d->ax = calloc(entries ? entries : 1, sizeof *d->ax);
    if (!d->ai || !d->ax)
        return -1;
    walk(d, m, WALK_ROWS, 0.0);
    const size_t lcap = symbolic(d);
    d->l_cap = lcap;
    d->li = calloc(lcap ? lcap : 1, sizeof *d->li);
    d->lx = calloc(lcap ? lcap : 1, sizeof *d->lx);
    d->nu = 0;
    return d->li && d->lx ? 0 : -1;
}

void direct_graph_destroy(struct direct *d)
{
    free(d->node_order);
    free(d->uidx);
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
    d->ngraph = d->ngpoint = d->nu = 0;
    d->stats.graph_unknowns = d->stats.graph_factor_nnz = 0;
}

void direct_graph_analyse(struct direct *d, const struct model *m)
{
    const size_t nodes = d->npoints + d->nlinks;
    for (size_t v = 0; v < nodes; v++)
        d->uidx[v] = UINT32_MAX;
    for (size_t k = 0; k < d->ngraph; k++) {
        const uint32_t l = d->graph_link[k];
        d->uidx[d->npoints + l] = 0;
        if (d->is_free[m->links[l].a])
            d->uidx[m->links[l].a] = 0;
        if (d->is_free[m->links[l].b])
            d->uidx[m->links[l].b] = 0;
    }
    d->nu = number(d, m);
    d->ngpoint = 0;
    for (size_t v = 0; v < d->npoints; v++)
        if (in_system(d, (uint32_t)v))
            d->gpoint[d->ngpoint++] = (uint32_t)v;
    walk(d, m, WALK_COUNT, 0.0);
    if (d->ap[d->nu] > d->entry_cap) {
        give_up(d);
        return;
    }
    walk(d, m, WALK_ROWS, 0.0);
    if (symbolic(d) > d->l_cap) {
        give_up(d);
        return;
    }
    double longest = 0.0;
    for (size_t k = 0; k < d->ngraph; k++)
        longest = fmax(longest, m->links[d->graph_link[k]].rest);
    d->converged = CONVERGED * longest;
    d->refactor_floor = KEEP_FACTOR * longest;
    d->stats.graph_unknowns = d->nu;
    d->stats.graph_factor_nnz = d->lp[d->nu];
    d->factored = 0;
}

/* Davis's ldl_numeric. Quasi-definiteness fixes the sign of every pivot (+ for a point's
 * unknowns, - for a link's); one that rounding brings within 1e-14 of zero relative to its
 * diagonal is held there with that sign. */
static void factor(struct direct *d, const struct model *m, double ih2)
{
    const size_t n = d->nu;
    walk(d, m, WALK_VALUES, ih2);
    for (size_t k = 0; k < n; k++) {
        d->ly[k] = 0.0;
        size_t top = n;
        d->lflag[k] = (uint32_t)k;
        d->lnz[k] = 0;
        for (uint32_t q = d->ap[k]; q < d->ap[k + 1]; q++) {
            uint32_t i = d->ai[q];
            d->ly[i] += d->ax[q];
            size_t len = 0;
            for (; d->lflag[i] != k; i = (uint32_t)d->etree[i]) {
                d->lfill[len++] = i;
                d->lflag[i] = (uint32_t)k;
            }
            while (len > 0)
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
        const double floor = 1e-14 * fabs(d->adiag[k]);
        if (d->adiag[k] > 0.0)
            d->ld[k] = dk > floor ? dk : floor;
        else
            d->ld[k] = dk < -floor ? dk : -floor;
    }
    d->factored = 1;
    d->stats.factorizations++;
}

/* x = (L D L^T)^-1 x. */
static void solve(const struct direct *d, double *x)
{
    const size_t n = d->nu;
    for (size_t j = 0; j < n; j++)
        for (size_t q = d->lp[j]; q < d->lp[j + 1]; q++)
            x[d->li[q]] -= d->lx[q] * x[j];
    for (size_t j = 0; j < n; j++)
        x[j] /= d->ld[j];
    for (size_t j = n; j-- > 0;)
        for (size_t q = d->lp[j]; q < d->lp[j + 1]; q++)
            x[j] -= d->lx[q] * x[d->li[q]];
}

/* The right-hand side [-g; C + a l] into d->rhs (kacc and racc assembled by the caller);
 * returns the residual's size in metres, max(|W g|, |C + a l|). */
static double residual(struct direct *d, const struct model *m, double ih2)
{
    double size = 0.0;
    for (size_t v = 0; v < d->npoints; v++) {
        if (!in_system(d, (uint32_t)v))
            continue;
        for (int r = 0; r < d->dims; r++) {
            const double g = d->racc[3 * v + (size_t)r];
            d->rhs[d->uidx[v] + (uint32_t)r] = g;
            size = fmax(size, fabs(g) * m->inv_mass[v]);
        }
    }
    for (size_t k = 0; k < d->ngraph; k++) {
        const uint32_t l = d->graph_link[k];
        const double c = d->len[l] - m->links[l].rest + d->alpha[l] * ih2 * d->lambda[l];
        d->rhs[d->uidx[d->npoints + l]] = c;
        size = fmax(size, fabs(c));
    }
    return size;
}

void direct_graph_iterate(struct direct *d, const struct model *m, vec3 *x, double h, int move)
{
    if (d->ngraph == 0)
        return;
    const double ih2 = 1.0 / (h * h);
    for (size_t k = 0; k < d->ngpoint; k++)
        direct_newton_assemble(d, m, x, d->gpoint[k], OWNER_GRAPH);
    const double size = residual(d, m, ih2);
    if (size <= d->converged)
        return; /* at round-off already: a step would only stir it */
    /* A factor that no longer contracts is renewed, unless what the Gauss-Seidel pass moved
     * since the last iteration accounts for the residual: no factor would help then. */
    if (!d->factored || (size > d->refactor_floor && size > REFACTOR_RATIO * d->last_residual &&
                         d->gs_moved < size))
        factor(d, m, ih2);
    d->last_residual = size;
    solve(d, d->rhs);
    for (size_t k = 0; k < d->ngpoint; k++) {
        const uint32_t v = d->gpoint[k];
        const double *u = d->rhs + d->uidx[v];
        d->dx[v] = v3(u[0], u[1], d->dims == 3 ? u[2] : 0.0);
    }
    for (size_t k = 0; k < d->ngraph; k++) {
        const uint32_t l = d->graph_link[k];
        d->dlam[l] = d->rhs[d->uidx[d->npoints + l]];
    }
    direct_newton_apply(d, x, d->gpoint, d->ngpoint, OWNER_GRAPH, move);
}
