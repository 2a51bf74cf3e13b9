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

/* direct_ldl_solve on three right-hand sides interleaved (x[3 j + i]): one pass over L serves
 * all three, their values in registers. */
static void solve3(const struct direct *d, size_t c, double *restrict x)
{
    const size_t u0 = d->gcomp_ufirst[c], n = d->gcomp_ufirst[c + 1];
    const size_t *lp = d->lp;
    const uint32_t *restrict li = d->li;
    const double *restrict lx = d->lx;
    for (size_t j = u0; j < n; j++) {
        const double y0 = x[3 * j], y1 = x[3 * j + 1], y2 = x[3 * j + 2];
        for (size_t q = lp[j]; q < lp[j + 1]; q++) {
            double *xi = x + 3 * (size_t)li[q];
            const double l = lx[q];
            xi[0] -= l * y0;
            xi[1] -= l * y1;
            xi[2] -= l * y2;
        }
    }
    for (size_t j = n; j-- > u0;) {
        const double id = 1.0 / d->ld[j];
        double s0 = x[3 * j] * id, s1 = x[3 * j + 1] * id, s2 = x[3 * j + 2] * id;
        for (size_t q = lp[j]; q < lp[j + 1]; q++) {
            const double *xi = x + 3 * (size_t)li[q];
            const double l = lx[q];
            s0 -= l * xi[0];
            s1 -= l * xi[1];
            s2 -= l * xi[2];
        }
        x[3 * j] = s0;
        x[3 * j + 1] = s1;
        x[3 * j + 2] = s2;
    }
}

/* The same for two (2D). */
static void solve2(const struct direct *d, size_t c, double *restrict x)
{
    const size_t u0 = d->gcomp_ufirst[c], n = d->gcomp_ufirst[c + 1];
    const size_t *lp = d->lp;
    const uint32_t *restrict li = d->li;
    const double *restrict lx = d->lx;
    for (size_t j = u0; j < n; j++) {
        const double y0 = x[2 * j], y1 = x[2 * j + 1];
        for (size_t q = lp[j]; q < lp[j + 1]; q++) {
            double *xi = x + 2 * (size_t)li[q];
            xi[0] -= lx[q] * y0;
            xi[1] -= lx[q] * y1;
        }
    }
    for (size_t j = n; j-- > u0;) {
        const double id = 1.0 / d->ld[j];
        double s0 = x[2 * j] * id, s1 = x[2 * j + 1] * id;
        for (size_t q = lp[j]; q < lp[j + 1]; q++) {
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
