/* Benchmark of the direct projection against Gauss-Seidel (scripts/bench-direct runs it), on
 * the models of `catena bench`'s global-* cases (bench/direct.c):
 *   bench_direct chain     the 1000-point V-start chain for 4 s: stretch and distance to
 *                          the exact discrete equilibrium, and CPU per step, for Gauss-Seidel
 *                          (20 and 100 iterations) and the direct projection (1, 2, 4, 10)
 *   bench_direct scaling   CPU per point and iteration of the direct projection at N = 1000 and
 *                          10 000, 4 iterations
 *   bench_direct cloth     the 40 x 40 (0.5 s) and 100 x 100 (5 steps) xpbd cloths: stretch, CPU
 * per step, Gauss-Seidel and direct at 10 iterations bench_direct accuracy  equal accuracy: the
 * fewest iterations (of a ladder) with which each solver ends below stretch 1e-3 and 1e-6, and its
 * CPU per step, on the chain (4 s) and the 40 x 40 cloth (0.5 s) Prints Markdown tables. Timings
 * are CPU seconds (the machine may be shared: compare the ratios); stretches are deterministic. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/catenary.h"
#include "bench/bench.h"
#include "core/clock.h"
#include "bench/bench_ref.h"
#include "solver/direct/direct.h"
#include "solver/solver.h"
#include "solver/state.h"

struct result {
    double stretch;  /* largest length/rest - 1 at the end */
    double distance; /* to the exact equilibrium, relative to the 10 m span; -1 without one */
    double ms;       /* CPU per step */
    size_t nnz;      /* entries of the factor of the bodies with loops */
    long factors;    /* their factorisations over the run (the last substep of each step) */
};

static struct model *model(int shape, long n, int global, int iterations)
{
    struct model *m = bench_direct_model(shape, n, global, iterations);
    if (!m) {
        fputs("bench_direct: out of memory\n", stderr);
        exit(1);
    }
    return m;
}

/* The exact equilibrium of the chain (links in order, ends pinned) into ref. */
static void chain_reference(const struct model *m, vec3 *ref)
{
    const size_t n = m->nlinks;
    double *rest = malloc(n * sizeof *rest), *mass = malloc(n * sizeof *mass);
    if (!rest || !mass)
        exit(1);
    for (size_t i = 0; i < n; i++) {
        rest[i] = m->links[i].rest;
        mass[i] = m->mass[i + 1];
    }
    const struct catenary_chain ch = {m->x0[0], m->x0[n], n, rest, NULL, mass, 9.81};
    struct catenary_chain_result res;
    struct catena_error err;
    if (catenary_chain_solve(&ch, ref, NULL, &res, &err)) {
        fprintf(stderr, "bench_direct: %s\n", err.msg);
        exit(1);
    }
    free(rest);
    free(mass);
}

/* Steps m, then measures; ref (npoints) may be NULL. */
static struct result run(struct model *m, long steps, const vec3 *ref)
{
    struct state *s = state_create(m);
    if (!s) {
        fputs("bench_direct: out of memory\n", stderr);
        exit(1);
    }
    const double t0 = clock_cpu_s();
    long factors = 0;
    for (long k = 0; k < steps; k++) {
        solver_step(m, s);
        if (s->cache->direct)
            factors += direct_get_stats(s->cache->direct)->factorizations;
    }
    struct result r = {solver_max_stretch(m, s) - 1.0, -1.0,
                       1e3 * (clock_cpu_s() - t0) / (double)steps, 0, factors};
    if (s->cache->direct)
        r.nnz = direct_get_stats(s->cache->direct)->graph_factor_nnz;
    if (ref) {
        struct catenary_stats st;
        catenary_stats_points(s->x, ref, m->npoints, 10.0, &st);
        r.distance = st.max_rel;
    }
    state_destroy(s);
    return r;
}

static void bench_chain(void)
{
    const struct {
        const char *name;
        int global, iterations;
    } rows[] = {{"Gauss–Seidel", 0, 20}, {"Gauss–Seidel", 0, 100}, {"direct", 1, 1},
                {"direct", 1, 2},        {"direct", 1, 4},         {"direct", 1, 10}};
    vec3 *ref = malloc(1000 * sizeof *ref);
    if (!ref)
        exit(1);
    puts("| solver | iterations | max stretch | distance to equilibrium / span | ms per step |");
    puts("| --- | --- | --- | --- | --- |");
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        struct model *m = model(BENCH_V_CHAIN, 1000, rows[k].global, rows[k].iterations);
        chain_reference(m, ref);
        const struct result r = run(m, 480, ref);
        printf("| %s | %d | %.2g | %.2g | %.3f |\n", rows[k].name, rows[k].iterations, r.stretch,
               r.distance, r.ms);
        model_destroy(m);
    }
    free(ref);
}

static void bench_scaling(void)
{
    puts("| N | ms per step (direct, 4 iterations) | ns per point and iteration | textbook "
         "Gauss–Seidel, 20 iterations, ms per step |");
    puts("| --- | --- | --- | --- |");
    const long n[2] = {1000, 10000};
    for (int k = 0; k < 2; k++) {
        struct model *m = model(BENCH_V_CHAIN, n[k], 1, 4);
        const struct result r = run(m, 240, NULL);
        struct model *g = model(BENCH_V_CHAIN, n[k], 0, 20);
        struct bench_ref *ref = bench_ref_create(g, NULL);
        if (!ref)
            exit(1);
        const double t0 = clock_cpu_s();
        for (int s = 0; s < 240; s++)
            bench_ref_step(ref);
        const double ms = 1e3 * (clock_cpu_s() - t0) / 240.0;
        printf("| %ld | %.3f | %.0f | %.3f |\n", n[k], r.ms, 1e6 * r.ms / (4.0 * (double)n[k]), ms);
        bench_ref_destroy(ref);
        model_destroy(g);
        model_destroy(m);
    }
}

/* solvers: 0 Gauss-Seidel, 1 the Newton, 2 the fixed matrix; first, the first of them; the
 * 100 x 100 cloth for steps100 steps (the 40 x 40 for 30). */
static void bench_cloth(int first, int iterations, long steps100)
{
    static const char *const names[] = {"Gauss–Seidel", "direct, Newton", "direct, fixed"};
    puts("| cloth | solver | iterations | max stretch | ms per step | factor entries | "
         "factorisations |");
    puts("| --- | --- | --- | --- | --- | --- | --- |");
    const long n[2] = {40, 100};
    for (int k = 0; k < 2; k++)
        for (int global = 0; global < 3; global++) {
            if (global > 0 && global < first)
                continue;
            struct model *m = model(BENCH_CLOTH, n[k], global, iterations);
            const struct result r = run(m, n[k] > 40 ? steps100 : 30, NULL);
            printf("| %ld x %ld | %s | %d | %.2g | %.3f | %zu | %ld |\n", n[k], n[k], names[global],
                   iterations, r.stretch, r.ms, r.nnz, r.factors);
            model_destroy(m);
        }
}

/* The fewest iterations of ladder[] with which the solver ends below each stretch. */
static void accuracy_row(const char *body, int shape, long n, long steps, int global,
                         const int *ladder, size_t nladder)
{
    const double target[2] = {1e-3, 1e-6};
    char cell[2][64];
    int found[2] = {0, 0};
    for (size_t k = 0; k < nladder && !(found[0] && found[1]); k++) {
        struct model *m = model(shape, n, global, ladder[k]);
        const struct result r = run(m, steps, NULL);
        for (int t = 0; t < 2; t++)
            if (!found[t] && r.stretch < target[t]) {
                snprintf(cell[t], sizeof cell[t], "%d it., %.3g ms", ladder[k], r.ms);
                found[t] = 1;
            }
        model_destroy(m);
    }
    for (int t = 0; t < 2; t++)
        if (!found[t])
            snprintf(cell[t], sizeof cell[t], "not within %d it.", ladder[nladder - 1]);
    printf("| %s | %s | %s | %s |\n", body, global ? "direct" : "Gauss–Seidel", cell[0], cell[1]);
}

static void bench_accuracy(void)
{
    static const int gs[] = {10, 20, 50, 100, 200, 500, 1000, 2000};
    static const int direct[] = {1, 2, 3, 4, 6, 10};
    puts("| body | solver | stretch < 1e-3: iterations, CPU per step | stretch < 1e-6 |");
    puts("| --- | --- | --- | --- |");
    accuracy_row("chain, 1000 points, 4 s", BENCH_V_CHAIN, 1000, 480, 0, gs, 8);
    accuracy_row("chain, 1000 points, 4 s", BENCH_V_CHAIN, 1000, 480, 1, direct, 6);
    accuracy_row("cloth 40 x 40, 0.5 s", BENCH_CLOTH, 40, 30, 0, gs, 6);
    accuracy_row("cloth 40 x 40, 0.5 s", BENCH_CLOTH, 40, 30, 1, direct, 6);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* each row as it is measured */
    if (argc == 2 && strcmp(argv[1], "chain") == 0)
        bench_chain();
    else if (argc == 2 && strcmp(argv[1], "scaling") == 0)
        bench_scaling();
    else if (argc == 2 && strcmp(argv[1], "cloth") == 0)
        bench_cloth(1, 10, 5);
    else if (argc >= 2 && strcmp(argv[1], "fixed") == 0)
        bench_cloth(2, argc > 2 ? atoi(argv[2]) : 10, 30);
    else if (argc == 2 && strcmp(argv[1], "accuracy") == 0)
        bench_accuracy();
    else {
        fputs("usage: bench_direct chain|scaling|cloth|accuracy\n", stderr);
        return 2;
    }
    return 0;
}
