/* Benchmark of the direct projection against Gauss-Seidel (scripts/bench-direct runs it):
 *   bench_direct chain    N = 1000 hanging chain (span 10 m, length 12 m, dt 1/120 s, 4 s):
 *                         max stretch and distance to the exact discrete equilibrium
 *   bench_direct scaling  cost per step of the direct solver, N = 1000 vs 10 000
 *   bench_direct cloth    100 x 100 curtain pinned at two corners, hanging from its rest
 *                         shape for 0.5 s: max stretch and cost per step
 * Prints Markdown tables. Timings are CPU seconds (clock()); the rest is deterministic. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/catenary.h"
#include "solver/solver.h"
#include "solver/direct/direct.h"
#include "solver/state.h"
#include "testutil_direct.h"

struct result {
    double stretch;         /* largest length/rest - 1 over the last step */
    double distance;        /* to the reference, relative to the span; -1 without one */
    double ms;              /* CPU per step */
    struct direct_stats st; /* the direct solver's counters after the last step */
};

/* Runs m for `steps`, then measures. ref (npoints) may be NULL. */
static struct result run(struct model *m, long steps, const vec3 *ref, double span)
{
    struct state *s = state_create(m);
    if (!s) {
        fputs("bench_direct: out of memory\n", stderr);
        exit(1);
    }
    const clock_t t0 = clock();
    for (long k = 0; k < steps; k++)
        solver_step(m, s);
    struct result r = {solver_max_stretch(m, s) - 1.0,
                       -1.0,
                       1e3 * (double)(clock() - t0) / CLOCKS_PER_SEC / (double)steps,
                       {0}};
    if (s->cache->direct)
        r.st = *direct_get_stats(s->cache->direct);
    if (ref) {
        struct catenary_stats st;
        catenary_stats_points(s->x, ref, m->npoints, span, &st);
        r.distance = st.max_rel;
    }
    state_destroy(s);
    return r;
}

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

static struct model *chain(size_t n, int global, int iterations)
{
    struct model *m = tu_arc_chain(n, 10.0, 12.0, 1.0 / 120.0, 0.92);
    if (!m)
        exit(1);
    m->global = global;
    m->iterations = iterations;
    return m;
}

static void bench_chain(void)
{
    const size_t n = 1000;
    const struct {
        const char *name;
        int global, iterations;
    } rows[] = {{"Gauss-Seidel", 0, 20}, {"Gauss-Seidel", 0, 100}, {"direct", 1, 10}};
    vec3 *ref = malloc((n + 1) * sizeof *ref);
    if (!ref)
        exit(1);
    puts("| solver | iterations | max stretch | distance to equilibrium / span | ms per step |");
    puts("|---|---|---|---|---|");
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        struct model *m = chain(n, rows[k].global, rows[k].iterations);
        chain_reference(m, ref);
        const struct result r = run(m, 480, ref, 10.0);
        printf("| %s | %d | %.2e | %.2e | %.2f |\n", rows[k].name, rows[k].iterations, r.stretch,
               r.distance, r.ms);
        model_destroy(m);
    }
    free(ref);
}

static void bench_scaling(void)
{
    double ms[2];
    const size_t n[2] = {1000, 10000};
    puts("| N | ms per step (direct, 10 iterations) | unknown points |");
    puts("|---|---|---|");
    for (int k = 0; k < 2; k++) {
        struct model *m = chain(n[k], 1, 10);
        const struct result r = run(m, 240, NULL, 10.0);
        ms[k] = r.ms;
        printf("| %zu | %.2f | %zu |\n", n[k], ms[k], r.st.tree_points);
        model_destroy(m);
    }
    printf("\nratio N = 10 000 / N = 1000: %.1f (linear: 10, bound: 12)\n", ms[1] / ms[0]);
}

static void bench_cloth(void)
{
    const struct {
        const char *name;
        int global, iterations;
    } rows[] = {{"Gauss-Seidel", 0, 10},
                {"Gauss-Seidel", 0, 100},
                {"Gauss-Seidel", 0, 1000},
                {"direct", 1, 10}};
    puts("| solver | iterations | max stretch | ms per step | KKT unknowns | nnz(L) | "
         "factorisations in the last step |");
    puts("|---|---|---|---|---|---|---|");
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        struct model *m = tu_curtain(100, 0.01, 1);
        if (!m)
            exit(1);
        m->global = rows[k].global;
        m->iterations = rows[k].iterations;
        const struct result r = run(m, 60, NULL, 1.0);
        printf("| %s | %d | %.2e | %.1f | %zu | %zu | %ld |\n", rows[k].name, rows[k].iterations,
               r.stretch, r.ms, r.st.graph_unknowns, r.st.graph_factor_nnz, r.st.factorizations);
        model_destroy(m);
    }
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "chain") == 0)
        bench_chain();
    else if (argc == 2 && strcmp(argv[1], "scaling") == 0)
        bench_scaling();
    else if (argc == 2 && strcmp(argv[1], "cloth") == 0)
        bench_cloth();
    else {
        fputs("usage: bench_direct chain|scaling|cloth\n", stderr);
        return 2;
    }
    return 0;
}
