/* The sparse L D L^T factor of a graph component's matrix (solver/direct/ldl.h), in blocks of
 * a point's gdims x gdims unknowns: the Newton's H (3 x 3 blocks, 2 x 2 in 2D) or the scalar
 * matrix of solver.global_matrix "fixed" (1 x 1, solver/direct/fixed.c). Its pattern is the
 * points' links, and every block of it and of L is dense, so the factor is Davis's up-looking
 * algorithm ("Algorithm 849", ACM TOMS 31, 2005) on the points' graph, with a small dense product
 * for each block where the scalar algorithm did one multiply-add and an index load for each entry.
 * L is unit lower triangular in blocks and D block diagonal, each D block kept as its own L D L^T.
 * A factorisation asks stop_requested() every few points and gives up when a signal asks the run to
 * stop. */
#define _POSIX_C_SOURCE 200809L /* core/stop.h: struct sigaction */
#include "solver/direct/ldl.h"

#include <string.h>

#include "core/stop.h"
#include "solver/direct/internal.h"

#define POLL_POINTS 32    /* points factored between two looks at stop_requested() */
#define PIVOT_FLOOR 1e-14 /* a pivot rounding brings under this much of H's diagonal is held */
#define BLOCK static inline __attribute__((always_inline)) /* specialised for dims 1, 2, 3 */

/* Point p's rank among all graph points (its first unknown over dims). */
static uint32_t ordinal(const struct direct *d, uint32_t p)
{
    return d->uidx[p] / (uint32_t)d->gdims;
}

/* Runs body for each link l at point p to a point of the system numbered before p's rank j
 * (q: that point's rank). */
#define FOR_EARLIER(d, m, p, j, l, q, ...)                                                         \
    for (uint32_t s_ = (d)->adj_first[p]; s_ < (d)->adj_first[(p) + 1]; s_++) {                    \
        const uint32_t l = (d)->adj_link[s_];                                                      \
        if ((d)->owner[l] != OWNER_GRAPH)                                                          \
            continue;                                                                              \
        const uint32_t o_ = (m)->links[l].a == (p) ? (m)->links[l].b : (m)->links[l].a;            \
        if (o_ == (p) || !direct_in_system((d), o_) || ordinal((d), o_) >= (j))                    \
            continue;                                                                              \
        const uint32_t q = ordinal((d), o_);                                                       \
        __VA_ARGS__                                                                                \
    }

size_t direct_ldl_analyse(struct direct *d, const struct model *m, size_t c, size_t base)
{
    const uint32_t j0 = d->gcomp_pfirst[c], j1 = d->gcomp_pfirst[c + 1];
    for (uint32_t j = j0; j < j1; j++) {
        const uint32_t p = d->gpoint[j];
        d->bparent[j] = -1;
        d->bflag[j] = j;
        d->bcount[j] = 0;
        FOR_EARLIER(d, m, p, j, l, q, {
            for (uint32_t i = q; d->bflag[i] != j; i = (uint32_t)d->bparent[i]) {
                if (d->bparent[i] == -1)
                    d->bparent[i] = (int32_t)j;
                d->bcount[i]++;
                d->bflag[i] = j;
            }
        })
    }
    d->blp[j0] = base;
    for (uint32_t j = j0; j < j1; j++)
        d->blp[j + 1] = d->blp[j] + d->bcount[j];
    return d->blp[j1];
}

/* y += link l's block of the matrix between its ends: H's -(geo P + n n^T / a) (symmetric),
 * or the fixed matrix's -w. */
BLOCK void sub_coupling(const struct direct *d, uint32_t l, int dim, double *y)
{
    if (dim == 1) {
        y[0] -= d->lw[l];
        return;
    }
    const double nn[3] = {d->n[l].x, d->n[l].y, d->n[l].z};
    const double geo = d->lgeo[l], ia = 1.0 / d->la[l];
    for (int r = 0; r < dim; r++)
        for (int s = 0; s < dim; s++)
            y[r * dim + s] -= geo * ((r == s) - nn[r] * nn[s]) + nn[r] * nn[s] * ia;
}

/* y -= a b (dim x dim blocks, row-major), a row written out (the compiler does not unroll
 * the loop at -O2). */
BLOCK void sub_product(double *y, const double *a, const double *b, int dim)
{
    if (dim == 1) {
        y[0] -= a[0] * b[0];
        return;
    }
    for (int r = 0; r < dim; r++) {
        const double *ar = a + r * dim;
        double *yr = y + r * dim;
        if (dim == 3) {
            yr[0] -= ar[0] * b[0] + ar[1] * b[3] + ar[2] * b[6];
            yr[1] -= ar[0] * b[1] + ar[1] * b[4] + ar[2] * b[7];
            yr[2] -= ar[0] * b[2] + ar[1] * b[5] + ar[2] * b[8];
        } else {
            yr[0] -= ar[0] * b[0] + ar[1] * b[2];
            yr[1] -= ar[0] * b[1] + ar[1] * b[3];
        }
    }
}

typedef double pair __attribute__((vector_size(16))); /* two lanes: the same sums as scalars */

/* Y(r) -= L(r, i) Y(i) for the rows r of column i, blocks q0..q1 of L (Y(i) in yi). For dims 3
 * the first two columns of a row are one pair of lanes: Y(i)'s rows stay in registers over
 * the column, and each lane adds in the order sub_product does, so the bits are the same. */
BLOCK void sub_column(struct direct *d, size_t q0, size_t q1, const double *yi, int dim)
{
    if (dim != 3) {
        const size_t bs = (size_t)(dim * dim);
        for (size_t q = q0; q < q1; q++)
            sub_product(d->by + bs * d->li[q], d->lx + bs * q, yi, dim);
        return;
    }
    pair b01[3];
    for (int k = 0; k < 3; k++)
        memcpy(&b01[k], yi + 3 * k, sizeof b01[k]);
    const double b2[3] = {yi[2], yi[5], yi[8]};
    for (size_t q = q0; q < q1; q++) {
        double *y = d->by + 9 * (size_t)d->li[q];
        const double *a = d->lx + 9 * q;
        for (int r = 0; r < 3; r++) {
            const double *ar = a + 3 * r;
            pair y01;
            memcpy(&y01, y + 3 * r, sizeof y01);
            y01 -= ar[0] * b01[0] + ar[1] * b01[1] + ar[2] * b01[2];
            memcpy(y + 3 * r, &y01, sizeof y01);
            y[3 * r + 2] -= ar[0] * b2[0] + ar[1] * b2[1] + ar[2] * b2[2];
        }
    }
}

/* The symmetric block a's own L D L^T (held pivots: PIVOT_FLOOR of diag, H's diagonal) into
 * f: L's strict lower part in f[3 i + k] and D in f[9 + k]. D's blocks are solved through it
 * rather than inverted, which with a rigid link's 1e10 stiffness beside a point's mass would
 * lose most digits of the soft directions. */
BLOCK void block_factor(const double *a, const double *diag, int dim, double *f)
{
    for (int k = 0; k < dim; k++) {
        double dk = a[k * dim + k];
        for (int j = 0; j < k; j++)
            dk -= f[3 * k + j] * f[3 * k + j] * f[9 + j];
        const double floor = PIVOT_FLOOR * diag[4 * k];
        f[9 + k] = dk > floor ? dk : floor;
        for (int i = k + 1; i < dim; i++) {
            double v = a[i * dim + k];
            for (int j = 0; j < k; j++)
                v -= f[3 * i + j] * f[3 * k + j] * f[9 + j];
            f[3 * i + k] = v / f[9 + k];
        }
    }
}

/* v = D^-1 v, D the block factored in f. */
BLOCK void block_solve(const double *f, int dim, double *v)
{
    for (int i = 1; i < dim; i++)
        for (int j = 0; j < i; j++)
            v[i] -= f[3 * i + j] * v[j];
    for (int i = 0; i < dim; i++)
        v[i] /= f[9 + i];
    for (int i = dim - 1; i-- > 0;)
        for (int j = i + 1; j < dim; j++)
            v[i] -= f[3 * j + i] * v[j];
}

/* Point rank j's row of L and its D block: Y = (L D)^-1 H(:, j) over the earlier points its
 * column reaches (found up the elimination tree, in topological order; j0: the component's
 * first rank), L(j, i) = Y(i)^T D(i)^-1, D(j) = H(j, j) - sum L(j, i) Y(i). */
BLOCK void factor_point(struct direct *d, const struct model *m, uint32_t j0, uint32_t j,
                        uint32_t j1, int dim)
{
    const size_t bs = (size_t)(dim * dim);
    const uint32_t p = d->gpoint[j];
    const double *h = d->kacc + 9 * (size_t)p;
    double dj[9];
    for (int r = 0; r < dim; r++)
        for (int s = 0; s < dim; s++)
            dj[r * dim + s] = h[3 * r + s];
    uint32_t top = j1;
    d->bflag[j] = j;
    d->bcount[j] = 0;
    FOR_EARLIER(d, m, p, j, l, q, {
        sub_coupling(d, l, dim, d->by + bs * q);
        uint32_t len = j0; /* the component's own stretch of bfill */
        for (uint32_t i = q; d->bflag[i] != j; i = (uint32_t)d->bparent[i]) {
            d->bfill[len++] = i;
            d->bflag[i] = j;
        }
        while (len > j0)
            d->bpattern[--top] = d->bfill[--len];
    })
    for (; top < j1; top++) {
        const uint32_t i = d->bpattern[top];
        double y[9], *yi = d->by + bs * i;
        memcpy(y, yi, bs * sizeof *y);
        memset(yi, 0, bs * sizeof *yi);
        const size_t q0 = d->blp[i], q1 = q0 + d->bcount[i];
        sub_column(d, q0, q1, y, dim);
        double *lji = d->lx + bs * q1;
        for (int r = 0; r < dim; r++) { /* row r of L(j, i) = (D(i)^-1 Y(i)'s column r)^T */
            double *v = lji + r * dim;
            for (int k = 0; k < dim; k++)
                v[k] = y[k * dim + r];
            block_solve(d->bdfac + BLOCK_FACTOR * i, dim, v);
        }
        sub_product(dj, lji, y, dim);
        d->li[q1] = j;
        d->bcount[i]++;
    }
    block_factor(dj, h, dim, d->bdfac + BLOCK_FACTOR * j);
}

BLOCK int factor_dims(struct direct *d, const struct model *m, size_t c, int dim)
{
    const uint32_t j0 = d->gcomp_pfirst[c], j1 = d->gcomp_pfirst[c + 1];
    for (uint32_t j = j0; j < j1; j++) {
        if ((j - j0) % POLL_POINTS == 0 && stop_requested())
            return -1;
        factor_point(d, m, j0, j, j1, dim);
    }
    d->gcomp_state[c].factorizations++;
    return 0;
}

int direct_ldl_factor(struct direct *d, const struct model *m, size_t c)
{
    if (d->gdims == 1)
        return factor_dims(d, m, c, 1);
    return d->gdims == 3 ? factor_dims(d, m, c, 3) : factor_dims(d, m, c, 2);
}

BLOCK void solve_dims(const struct direct *d, size_t c, double *x, int dim)
{
    const size_t bs = (size_t)(dim * dim), j0 = d->gcomp_pfirst[c], j1 = d->gcomp_pfirst[c + 1];
    for (size_t j = j0; j < j1; j++) { /* L */
        const double *xj = x + (size_t)dim * j;
        for (size_t q = d->blp[j]; q < d->blp[j] + d->bcount[j]; q++) {
            double *xr = x + (size_t)dim * d->li[q];
            const double *b = d->lx + bs * q;
            for (int r = 0; r < dim; r++)
                for (int s = 0; s < dim; s++)
                    xr[r] -= b[r * dim + s] * xj[s];
        }
    }
    for (size_t j = j0; j < j1; j++) /* D */
        block_solve(d->bdfac + BLOCK_FACTOR * j, dim, x + (size_t)dim * j);
    for (size_t j = j1; j-- > j0;) { /* L^T */
        double *xj = x + (size_t)dim * j;
        for (size_t q = d->blp[j]; q < d->blp[j] + d->bcount[j]; q++) {
            const double *xr = x + (size_t)dim * d->li[q], *b = d->lx + bs * q;
            for (int r = 0; r < dim; r++)
                for (int s = 0; s < dim; s++)
                    xj[s] -= b[r * dim + s] * xr[r];
        }
    }
}

void direct_ldl_solve(const struct direct *d, size_t c, double *x)
{
    if (d->gdims == 3)
        solve_dims(d, c, x, 3);
    else
        solve_dims(d, c, x, 2);
}

/* Whether L's column j + 1 (< j1) has column j's pattern less its first row, j + 1 (the
 * elimination tree's parent of j, whose pattern holds the rest of j's): then j and j + 1 are
 * in one supernode, and a pass over the rows below it serves all its columns. */
static inline int twin(const struct direct *d, size_t j, size_t j1)
{
    return j + 1 < j1 && d->bcount[j] == d->bcount[j + 1] + 1 && d->li[d->blp[j]] == j + 1;
}

/* The most columns of a supernode solved in one pass: their values stay in registers (sixteen
 * under AVX); a wider supernode is taken in pieces of this many from its first column. */
#define SUPER_MAX 8

/* One unknown's three values and its zero, one AVX register (two SSE ones elsewhere). */
typedef double quad __attribute__((vector_size(32)));
#define LOAD4(q, p) memcpy(&(q), (p), sizeof(quad))
#define STORE4(p, q) memcpy((p), &(q), sizeof(quad))

/* The forward pass (L) over columns j..j + k - 1 of one supernode: their values in registers,
 * each updated by the earlier ones, then each row below the supernode (its last column's
 * rows) read and written once. Every value takes its subtractions in column order, as the
 * column-by-column pass would: the bits are a scalar solve's. */
BLOCK void forward_super(const struct direct *d, double *restrict x, size_t j, int k)
{
    const size_t *blp = d->blp;
    const double *restrict lx = d->lx;
    quad y[SUPER_MAX];
    const double *l[SUPER_MAX];
#pragma GCC unroll 8
    for (int i = 0; i < k; i++) {
        LOAD4(y[i], x + 4 * (j + (size_t)i));
        l[i] = lx + blp[j + (size_t)i] + (size_t)(k - 1 - i);
    }
#pragma GCC unroll 8
    for (int i = 0; i < k; i++)
#pragma GCC unroll 8
        for (int t = i + 1; t < k; t++)
            y[t] -= lx[blp[j + (size_t)i] + (size_t)(t - i - 1)] * y[i];
#pragma GCC unroll 8
    for (int i = 1; i < k; i++)
        STORE4(x + 4 * (j + (size_t)i), y[i]);
    const size_t q0 = blp[j + (size_t)k - 1], n = blp[j + (size_t)k] - q0;
    const uint32_t *restrict rows = d->li + q0;
    for (size_t q = 0; q < n; q++) {
        double *xr = x + 4 * (size_t)rows[q];
        quad v;
        LOAD4(v, xr);
#pragma GCC unroll 8
        for (int i = 0; i < k; i++)
            v -= l[i][q] * y[i];
        STORE4(xr, v);
    }
}

/* The backward pass (D^-1, then L^T) over the same columns: each column's sum over the rows
 * below the supernode, all of them in one read of those rows, then from the last column down
 * the supernode's own rows, in row order. A column's subtractions are not in the scalar order
 * (which takes its own supernode's rows first), so the bits are a scalar solve's only up to
 * round-off. */
BLOCK void backward_super(const struct direct *d, double *restrict x, size_t j, int k)
{
    const size_t *blp = d->blp;
    const double *restrict lx = d->lx;
    quad s[SUPER_MAX];
    const double *l[SUPER_MAX];
#pragma GCC unroll 8
    for (int i = 0; i < k; i++) {
        const double id = 1.0 / d->bdfac[BLOCK_FACTOR * (j + (size_t)i) + 9];
        LOAD4(s[i], x + 4 * (j + (size_t)i));
        s[i] = s[i] * id;
        l[i] = lx + blp[j + (size_t)i] + (size_t)(k - 1 - i);
    }
    const size_t q0 = blp[j + (size_t)k - 1], n = blp[j + (size_t)k] - q0;
    const uint32_t *restrict rows = d->li + q0;
    for (size_t q = 0; q < n; q++) {
        quad v;
        LOAD4(v, x + 4 * (size_t)rows[q]);
#pragma GCC unroll 8
        for (int i = 0; i < k; i++)
            s[i] -= l[i][q] * v;
    }
#pragma GCC unroll 8
    for (int i = k - 1; i >= 0; i--) {
#pragma GCC unroll 8
        for (int t = i + 1; t < k; t++)
            s[i] -= lx[blp[j + (size_t)i] + (size_t)(t - i - 1)] * s[t];
        STORE4(x + 4 * (j + (size_t)i), s[i]);
    }
}

/* Runs pass (forward_super or backward_super) on k columns from j, k a constant in each case
 * so that the columns' values stay in registers. */
#define SUPER_CASES(pass, d, x, j, k)                                                              \
    switch (k) {                                                                                   \
    case 1:                                                                                        \
        pass(d, x, j, 1);                                                                          \
        break;                                                                                     \
    case 2:                                                                                        \
        pass(d, x, j, 2);                                                                          \
        break;                                                                                     \
    case 3:                                                                                        \
        pass(d, x, j, 3);                                                                          \
        break;                                                                                     \
    case 4:                                                                                        \
        pass(d, x, j, 4);                                                                          \
        break;                                                                                     \
    case 5:                                                                                        \
        pass(d, x, j, 5);                                                                          \
        break;                                                                                     \
    case 6:                                                                                        \
        pass(d, x, j, 6);                                                                          \
        break;                                                                                     \
    case 7:                                                                                        \
        pass(d, x, j, 7);                                                                          \
        break;                                                                                     \
    default:                                                                                       \
        pass(d, x, j, SUPER_MAX);                                                                  \
        break;                                                                                     \
    }

/* The fixed matrix's solve (gdims 1) on three right-hand sides interleaved in a stride of four
 * (x[4 j + i], the fourth lane zero): one pass over L serves all three, each unknown's values
 * one vector, supernode by supernode (a run of twin columns, in pieces of SUPER_MAX: from its
 * first column forward, from its last backward, so that a supernode of two is one piece both
 * ways, as it was), D^-1 folded into the pass over L^T. */
BLOCK void solve3_super(const struct direct *d, size_t c, double *restrict x)
{
    const size_t j0 = d->gcomp_pfirst[c], j1 = d->gcomp_pfirst[c + 1];
    for (size_t j = j0; j < j1;) {
        size_t e = j + 1;
        while (twin(d, e - 1, j1))
            e++;
        for (; j < e; j += SUPER_MAX)
            SUPER_CASES(forward_super, d, x, j, e - j < SUPER_MAX ? (int)(e - j) : SUPER_MAX)
        j = e;
    }
    for (size_t e = j1; e > j0;) {
        size_t b = e - 1;
        while (b > j0 && twin(d, b - 1, j1))
            b--;
        for (size_t top = e; top > b;) {
            const size_t j = top - b > SUPER_MAX ? top - SUPER_MAX : b;
            SUPER_CASES(backward_super, d, x, j, (int)(top - j))
            top = j;
        }
        e = b;
    }
}

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
/* The same with each unknown's four lanes in one AVX register, on processors that have it:
 * the same operations in the same order, so the same bits. */
__attribute__((target("avx"))) static void solve3_avx(const struct direct *d, size_t c, double *x)
{
    solve3_super(d, c, x);
}
#endif

static void solve3(const struct direct *d, size_t c, double *x)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    if (__builtin_cpu_supports("avx")) {
        solve3_avx(d, c, x);
        return;
    }
#endif
    solve3_super(d, c, x);
}

/* The same for two (2D). */
static void solve2(const struct direct *d, size_t c, double *restrict x)
{
    const size_t j0 = d->gcomp_pfirst[c], j1 = d->gcomp_pfirst[c + 1];
    const size_t *blp = d->blp;
    const uint32_t *restrict li = d->li;
    const double *restrict lx = d->lx;
    for (size_t j = j0; j < j1; j++) {
        const double y0 = x[2 * j], y1 = x[2 * j + 1];
        for (size_t q = blp[j]; q < blp[j + 1]; q++) {
            double *xi = x + 2 * (size_t)li[q];
            xi[0] -= lx[q] * y0;
            xi[1] -= lx[q] * y1;
        }
    }
    for (size_t j = j1; j-- > j0;) {
        const double id = 1.0 / d->bdfac[BLOCK_FACTOR * j + 9];
        double s0 = x[2 * j] * id, s1 = x[2 * j + 1] * id;
        for (size_t q = blp[j]; q < blp[j + 1]; q++) {
            s0 -= lx[q] * x[2 * (size_t)li[q]];
            s1 -= lx[q] * x[2 * (size_t)li[q] + 1];
        }
        x[2 * j] = s0;
        x[2 * j + 1] = s1;
    }
}

void direct_ldl_solve_many(const struct direct *d, size_t c, double *x, int k)
{
    if (k == 3)
        solve3(d, c, x);
    else
        solve2(d, c, x);
}
