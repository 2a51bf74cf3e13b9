/* Davis's up-looking L D L^T ("Algorithm 849", ACM TOMS 31, 2005), numeric side, over one
 * component's columns of the pattern solver/direct/graph.c analysed. A factorisation asks
 * stop_requested() every few columns and gives up when a signal asks the run to stop. */
#define _POSIX_C_SOURCE 200809L /* core/stop.h: struct sigaction */
#include "solver/direct/ldl.h"

#include "core/stop.h"
#include "solver/direct/internal.h"

#define POLL_COLUMNS 64 /* columns factored between two looks at stop_requested() */

/* Every pivot is positive; one that rounding brings under 1e-14 of its diagonal is held
 * there. */
int direct_ldl_factor(struct direct *d, size_t c)
{
    const size_t u0 = d->gcomp_ufirst[c], n = d->gcomp_ufirst[c + 1];
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
    return 0;
}

void direct_ldl_solve(const struct direct *d, size_t c, double *x)
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

/* direct_ldl_solve on k right-hand sides interleaved (x[k j + i]); k a constant where it is
 * inlined, so one pass over L serves all k. */
static inline void solve_k(const struct direct *d, size_t c, double *x, size_t k)
{
    const size_t u0 = d->gcomp_ufirst[c], n = d->gcomp_ufirst[c + 1];
    for (size_t j = u0; j < n; j++)
        for (size_t q = d->lp[j]; q < d->lp[j + 1]; q++) {
            const double l = d->lx[q];
            double *xi = x + k * d->li[q];
            for (size_t i = 0; i < k; i++)
                xi[i] -= l * x[k * j + i];
        }
    for (size_t j = u0; j < n; j++)
        for (size_t i = 0; i < k; i++)
            x[k * j + i] /= d->ld[j];
    for (size_t j = n; j-- > u0;) {
        double s[3] = {x[k * j], x[k * j + 1], k > 2 ? x[k * j + 2] : 0.0};
        for (size_t q = d->lp[j]; q < d->lp[j + 1]; q++) {
            const double l = d->lx[q], *xi = x + k * d->li[q];
            for (size_t i = 0; i < k; i++)
                s[i] -= l * xi[i];
        }
        for (size_t i = 0; i < k; i++)
            x[k * j + i] = s[i];
    }
}

void direct_ldl_solve_many(const struct direct *d, size_t c, double *x, int k)
{
    if (k == 3)
        solve_k(d, c, x, 3);
    else
        solve_k(d, c, x, 2);
}
