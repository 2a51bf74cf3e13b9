/* What bounds the four-wide link kernel on this processor (README, Speed; issue 8's
 * arithmetic): one stride run of links whose points and values stay in the L1 cache (a cloth
 * column, or one colour of a chain with the points in the lanes' order), timed through the
 * kernels catena uses (batch_avx_stiff3, batch_avx_stiff2), then through the same loops
 * without their square roots and divisions (tests/bench_kernel_probe.c: what the loads,
 * other arithmetic and stores cost alone), and the square root and division by themselves,
 * four lanes at a time with nothing waiting for them. The clock comes from a chain of dependent
 * additions, 3 cycles each on this processor family. Medians of 7 timings.
 *
 * Usage: make tests/bench_kernel && tests/bench_kernel [points] (default 512). */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/bench.h"
#include "core/clock.h"
#include "solver/batch/batch.h"

void probe_stiff2(struct solver_batch *b, const double *inv_mass, const struct batch_run *r);
void probe_stiff3(struct solver_batch *b, const double *inv_mass, const struct batch_run *r);

#define TIMINGS 7

typedef void (*kernel)(struct solver_batch *b, const double *inv_mass, const struct batch_run *r);

/* Seconds per addition in a chain of n dependent ones. */
__attribute__((target("avx2"))) static double add_chain(long n)
{
    __m256d s = _mm256_set1_pd(1.0);
    const __m256d one = _mm256_set1_pd(1e-9);
    const double t0 = clock_monotonic_s();
    for (long i = 0; i < n; i++) {
        s = _mm256_add_pd(s, one);
        __asm__ volatile("" : "+x"(s));
    }
    const double t = clock_monotonic_s() - t0;
    __asm__ volatile("" ::"x"(s));
    return t / (double)n;
}

/* Seconds per lane of one four-wide square root and one division, eight of each in flight. */
__attribute__((target("avx2"))) static double sqrt_div(long n)
{
    __m256d x[8];
    const __m256d one = _mm256_set1_pd(1.0);
    for (int k = 0; k < 8; k++)
        x[k] = _mm256_set1_pd(1.5 + 0.1 * k);
    const double t0 = clock_monotonic_s();
    for (long i = 0; i < n; i++)
        for (int k = 0; k < 4; k++) {
            x[k] = _mm256_sqrt_pd(x[k]);
            x[k + 4] = _mm256_div_pd(one, x[k + 4]);
            __asm__ volatile("" : "+x"(x[k]), "+x"(x[k + 4]));
        }
    const double t = clock_monotonic_s() - t0;
    for (int k = 0; k < 8; k++)
        __asm__ volatile("" ::"x"(x[k]));
    return t / ((double)n * 16); /* 4 of each, 4 lanes */
}

/* One stride run of n links (k, k + n) over 2n points, 1 cm apart down a column and stretched
 * 1 %, so that every projection moves its ends. */
static void make_run(struct solver_batch *b, double *w, size_t n, struct batch_run *r)
{
    for (size_t i = 0; i < 2 * n; i++) {
        b->px[i] = 0.0101 * (double)(i % n);
        b->py[i] = i < n ? 0.0 : -0.0101;
        b->pz[i] = 0.0;
        w[i] = 1.0;
    }
    for (size_t j = 0; j < n; j++) {
        b->ends[j].a = (uint32_t)j;
        b->ends[j].b = (uint32_t)(j + n);
        b->rest[j] = 0.01;
        b->param[j] = 1.0;
    }
    *r = (struct batch_run){0, (uint32_t)n, 0, (int32_t)n, RUN_STRIDE};
}

/* Nanoseconds a link through kernel k on the run. */
static double time_kernel(kernel k, size_t points)
{
    const size_t n = points / 2;
    struct solver_batch b = {0};
    double *w = malloc(points * sizeof *w);
    b.px = malloc(points * sizeof *b.px);
    b.py = malloc(points * sizeof *b.py);
    b.pz = malloc(points * sizeof *b.pz);
    b.ends = malloc(n * sizeof *b.ends);
    b.rest = malloc(n * sizeof *b.rest);
    b.param = malloc(n * sizeof *b.param);
    b.lambda = calloc(n, sizeof *b.lambda);
    if (!w || !b.px || !b.py || !b.pz || !b.ends || !b.rest || !b.param || !b.lambda) {
        fprintf(stderr, "bench_kernel: out of memory\n");
        exit(1);
    }
    struct batch_run r;
    double t[TIMINGS];
    const long reps = (long)(2e7 / (double)n);
    for (int i = 0; i < TIMINGS; i++) {
        make_run(&b, w, n, &r);
        const double t0 = clock_monotonic_s();
        for (long k2 = 0; k2 < reps; k2++)
            k(&b, w, &r);
        t[i] = 1e9 * (clock_monotonic_s() - t0) / ((double)reps * (double)n);
    }
    free(w);
    free(b.px);
    free(b.py);
    free(b.pz);
    free(b.ends);
    free(b.rest);
    free(b.param);
    free(b.lambda);
    return bench_median(t, TIMINGS);
}

int main(int argc, char **argv)
{
    const long points = argc > 1 ? atol(argv[1]) : 512;
    if (points < 16 || points % 8 != 0) {
        fprintf(stderr, "usage: bench_kernel [points: a multiple of 8, at least 16]\n");
        return 2;
    }
    if (!batch_avx_usable()) {
        fprintf(stderr, "bench_kernel: this processor has no AVX2\n");
        return 1;
    }
    double add[TIMINGS], sd[TIMINGS];
    for (int i = 0; i < TIMINGS; i++) {
        add[i] = add_chain(50000000);
        sd[i] = sqrt_div(5000000);
    }
    const double ns_add = 1e9 * bench_median(add, TIMINGS);
    printf("clock: %.2f GHz (a dependent addition takes %.3f ns, 3 cycles)\n", 3.0 / ns_add,
           ns_add);
    printf("square root + division alone, four lanes: %.2f ns a lane\n",
           1e9 * bench_median(sd, TIMINGS));
    printf("%ld points in one run (%ld links), ns a link:\n", points, points / 2);
    printf("  3D (batch_avx_stiff3): %.2f, without square roots and divisions %.2f\n",
           time_kernel(batch_avx_stiff3, (size_t)points),
           time_kernel(probe_stiff3, (size_t)points));
    printf("  2D (batch_avx_stiff2): %.2f, without square roots and divisions %.2f\n",
           time_kernel(batch_avx_stiff2, (size_t)points),
           time_kernel(probe_stiff2, (size_t)points));
    return 0;
}
