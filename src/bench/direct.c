/* The direct projection's cases of `catena bench` (solver.global), each against its own
 * reference in the same repetitions:
 *  - global-chain-1k, global-chain-10k: the benchmark chain (N points of 1 kg, pins at
 *    (0, 0) and (10, 0), 12 m long, dt 1/120 s, released as a symmetric V at rest length,
 *    velocity damped by exp(-1 s^-1 dt) a step) with 4 global iterations a step, against the
 *    textbook Gauss-Seidel loop (bench/bench_ref.c) with 20; checked converged (stretch under
 *    1e-6): the 1000-point chain after every step, the 10 000-point one at the end.
 *  - global-cloth-40, global-cloth-100: an n x n cloth of 2 cm cells, 0.1 g a point, xpbd
 *    (structural and shear links 1e-7 m/N, bend links 1e-3), hanging from two corners of a
 *    slack top row (started on a cylinder, as cloth-curtain), 10 iterations a step, against
 *    catena's own Gauss-Seidel on the same model with the same iterations; checked: the
 *    global solve ends no more stretched than Gauss-Seidel.
 *  - global-fixed-cloth-40, global-fixed-cloth-100: the same cloths under solver.global_matrix
 *    "fixed" (solver/direct/fixed.c), the same check.
 *  - global-hair: 64 strands of 64 points, each hanging from its own pin: independent trees
 *    for the thread team (checked: the same bits as one thread).
 * ns/c.it is per point and iteration; "vs ref" is reference time over catena's. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/bench_ref.h"
#include "core/clock.h"
#include "model/model.h"
#include "scenario/build/build.h"
#include "solver/solver.h"
#include "solver/state.h"

/* Repetitions' work: enough for a tenth of a second or so each. */
#define POINT_ITERATIONS_FULL 4e6
#define POINT_ITERATIONS_QUICK 4e4
/* ... and at most about this much of one thread's time (the chains need less: unchanged). */
#define REP_SECONDS 1.0
#define SLOW_REPS 3

enum direct_shape { V_CHAIN = BENCH_V_CHAIN, CLOTH = BENCH_CLOTH, HAIR = BENCH_HAIR };

struct direct_case {
    enum direct_shape shape;
    long n, quick_n; /* chain points, cloth side or strands; under --quick (0: skipped) */
    int iterations, ref_iterations;
    int global; /* bench_direct_model's: 1 the Newton, 2 the fixed matrix */
};

static const struct direct_case cases[] = {
    {V_CHAIN, 1000, 1000, 4, 20, 1}, {V_CHAIN, 10000, 10000, 4, 20, 1},
    {CLOTH, 40, 12, 10, 10, 1},      {CLOTH, 100, 0, 10, 10, 1},
    {HAIR, 64, 8, 4, 4, 1},          {CLOTH, 40, 12, 10, 10, 2},
    {CLOTH, 100, 20, 10, 10, 2},
};

static struct model *v_chain(long n, int iterations)
{
    struct model *m = model_create();
    if (!m)
        return NULL;
    const long nl = n - 1, k = nl / 2;
    const double L = 12.0 / (double)nl, half = 5.0 - (nl % 2 ? L / 2 : 0.0);
    const double depth = sqrt((double)(k * k) * L * L - half * half);
    m->dt = 1.0 / 120.0;
    m->iterations = iterations;
    m->damping = exp(-m->dt);
    for (long i = 0; i < n; i++) {
        const long j = i <= k ? i : n - 1 - i;
        const double x = half * (double)j / (double)k, y = -depth * (double)j / (double)k;
        if (model_add_point(m, v3(i <= k ? x : 10.0 - x, y, 0), v3(0, 0, 0), 1.0, 0, NULL) < 0)
            goto fail;
    }
    for (long i = 0; i < nl; i++)
        if (model_add_link(m, (uint32_t)i, (uint32_t)i + 1, L) < 0)
            goto fail;
    if (model_add_pin(m, 0, m->x0[0]) < 0 || model_add_pin(m, (uint32_t)n - 1, m->x0[n - 1]) < 0)
        goto fail;
    return m;
fail:
    model_destroy(m);
    return NULL;
}

static struct model *cloth(long n, int iterations)
{
    struct model *m = bench_model(3);
    if (!m)
        return NULL;
    m->iterations = iterations;
    m->method = METHOD_XPBD;
    m->damping = 0.5;
    struct cloth_def d = build_cloth_def();
    d.name = "cloth";
    d.rows = d.cols = (uint32_t)n;
    d.dx = d.dy = 0.02;
    d.mass = 1e-4 * (double)(n * n);
    d.bend.on = 1;
    d.structural.compliance = d.shear.compliance = 1e-7;
    d.bend.compliance = 1e-3;
    if (build_cloth(m, &d) < 0)
        goto fail;
    const double r = (double)(n - 1) * 0.02 / 2.5; /* a cylinder: the top row slack */
    for (long row = 0; row < n; row++)
        for (long col = 0; col < n; col++) {
            const double th = (double)col * 0.02 / r;
            m->x0[row * n + col] = v3(r * sin(th), -(double)row * 0.02, r * (1 - cos(th)));
        }
    if (model_add_pin(m, 0, m->x0[0]) < 0 || model_add_pin(m, (uint32_t)n - 1, m->x0[n - 1]) < 0)
        goto fail;
    return m;
fail:
    model_destroy(m);
    return NULL;
}

static struct model *hair(long strands, int iterations)
{
    struct model *m = bench_model(3);
    if (!m)
        return NULL;
    m->iterations = iterations;
    for (long s = 0; s < strands; s++) {
        struct rope_def d = build_rope_def();
        char name[32];
        snprintf(name, sizeof name, "strand%ld", s);
        d.name = name;
        d.from = v3(0.01 * (double)(s % 8), 0, 0.01 * (double)(s / 8));
        d.to = v3_add(d.from, v3(0.63, -0.1, 0));
        d.segments = 63;
        d.length = 0.7;
        d.shape = ROPE_SAG;
        const size_t first = m->npoints;
        if (build_rope(m, &d, m->gravity) < 0 ||
            model_add_pin(m, (uint32_t)first, m->x0[first]) < 0)
            goto fail;
    }
    return m;
fail:
    model_destroy(m);
    return NULL;
}

struct model *bench_direct_model(int shape, long n, int global, int iterations)
{
    struct model *m = shape == V_CHAIN ? v_chain(n, iterations)
                      : shape == CLOTH ? cloth(n, iterations)
                                       : hair(n, iterations);
    if (m) {
        m->global = global != 0;
        m->global_matrix = global == 2 ? MATRIX_FIXED : MATRIX_NEWTON;
        m->steps = 1;
    }
    return m;
}

struct runs {
    struct model *m, *ref_model;
    struct state *one, *team, *gs;
    struct bench_ref *ref;
};

static void runs_free(struct runs *r)
{
    state_destroy(r->one);
    state_destroy(r->team);
    state_destroy(r->gs);
    bench_ref_destroy(r->ref);
    model_destroy(r->m);
    model_destroy(r->ref_model);
}

/* The global model, its team, and the reference: the textbook loop for chains, catena's own
 * Gauss-Seidel for the others. */
static int runs_make(const struct direct_case *dc, long n, const struct bench_options *o,
                     struct runs *r)
{
    memset(r, 0, sizeof *r);
    r->m = bench_direct_model(dc->shape, n, dc->global, dc->iterations);
    r->ref_model = bench_direct_model(dc->shape, n, 0, dc->ref_iterations);
    if (!r->m || !r->ref_model)
        return -1;
    r->one = state_create(r->m);
    r->m->threads = o->threads;
    r->team = state_create(r->m);
    r->m->threads = 1;
    if (dc->shape == V_CHAIN)
        r->ref = bench_ref_create(r->ref_model, NULL);
    else
        r->gs = state_create(r->ref_model);
    return r->one && r->team && (r->ref || r->gs) ? 0 : -1;
}

/* Caps a repetition's steps at REP_SECONDS of one thread's solving, from one step's time t
 * (at least 2 steps), and takes SLOW_REPS repetitions when a repetition still lasts longer
 * than that. */
static void size_by_time(double t, long *steps, int *reps)
{
    const double most = ceil(REP_SECONDS / fmax(t, 1e-9));
    if ((double)*steps > most)
        *steps = (long)fmax(2.0, most);
    if ((double)*steps * t > REP_SECONDS && *reps > SLOW_REPS)
        *reps = SLOW_REPS;
}

int bench_direct_case(const struct bench_case *c, const struct bench_options *o,
                      struct bench_result *r, struct catena_error *err)
{
    const struct direct_case *dc = &cases[c->variant];
    const long n = o->quick ? dc->quick_n : dc->n;
    struct runs rs;
    if (runs_make(dc, n, o, &rs)) {
        runs_free(&rs);
        return error_set(err, CATENA_EFAIL, "%s: out of memory", c->name);
    }
    const struct model *m = rs.m;
    r->kind = BENCH_SOLVER;
    snprintf(r->size, sizeof r->size, "%zu points, %zu links, %d vs %d it.", m->npoints, m->nlinks,
             dc->iterations, dc->ref_iterations);
    const double work = (double)m->npoints * dc->iterations;
    long steps = (long)fmax(2, (o->quick ? POINT_ITERATIONS_QUICK : POINT_ITERATIONS_FULL) / work);
    r->reps = o->quick ? 3 : 7;
    r->threads = o->threads;
    /* The check first, untimed: the stretch after every step of the first repetition's worth,
     * from the start (the violent part of a V start). Its first step also sizes the case: a
     * solver that takes a second a step (the global cloths) gets a few steps and repetitions,
     * not the hours its point-iterations would ask. */
    double worst = 0.0;
    struct state *check = state_create(m);
    for (long k = 0; check && k < steps; k++) {
        const double start = clock_monotonic_s();
        solver_step(m, check);
        if (k == 0)
            size_by_time(clock_monotonic_s() - start, &steps, &r->reps);
        worst = fmax(worst, solver_max_stretch(m, check) - 1.0);
    }
    state_destroy(check);
    double one[8], ref[8], team[8], one_cpu[8], team_cpu[8];
    for (int rep = 0; rep < r->reps; rep++) {
        double start = clock_monotonic_s(), cpu = clock_cpu_s();
        for (long k = 0; k < steps; k++)
            solver_step(m, rs.one);
        one[rep] = clock_monotonic_s() - start;
        one_cpu[rep] = clock_cpu_s() - cpu;
        start = clock_monotonic_s();
        for (long k = 0; k < steps; k++)
            if (rs.ref)
                bench_ref_step(rs.ref);
            else
                solver_step(rs.ref_model, rs.gs);
        ref[rep] = clock_monotonic_s() - start;
        start = clock_monotonic_s();
        cpu = clock_cpu_s();
        for (long k = 0; k < steps; k++)
            solver_step(m, rs.team);
        team[rep] = clock_monotonic_s() - start;
        team_cpu[rep] = clock_cpu_s() - cpu;
    }
    r->seconds = bench_median(one, r->reps);
    r->ns_per_cit = 1e9 * r->seconds / ((double)steps * work);
    r->steps_per_s = (double)steps / r->seconds;
    r->ref_seconds = bench_median(ref, r->reps);
    r->ratio = r->ref_seconds / r->seconds;
    r->team_seconds = bench_median(team, r->reps);
    r->speedup = r->seconds / r->team_seconds;
    r->team_cpu = bench_median(team_cpu, r->reps) / bench_median(one_cpu, r->reps);
    const int same = !memcmp(rs.one->x, rs.team->x, m->npoints * sizeof *rs.one->x);
    const double gs = rs.gs ? solver_max_stretch(rs.ref_model, rs.gs) - 1.0 : 0.0;
    const double last = solver_max_stretch(m, rs.one) - 1.0;
    /* the 1000-point chain converged every step, the 10 000-point one (whose first steps move
     * points several links' lengths) at the end; cloth no more stretched than Gauss-Seidel */
    const int good = dc->shape == V_CHAIN ? (n <= 1000 ? worst : last) < 1e-6
                     : dc->shape == CLOTH ? last <= gs
                                          : 1;
    r->ok = solver_find_diverged(rs.one) < 0 && same && good;
    if (dc->shape == CLOTH)
        snprintf(r->check, sizeof r->check, "%d threads %s; stretch %.2g (Gauss-Seidel %.2g)",
                 r->threads, same ? "same bits" : "DIFFERENT BITS", last, gs);
    else
        snprintf(r->check, sizeof r->check, "%d threads %s; stretch %.2g at worst, %.2g last",
                 r->threads, same ? "same bits" : "DIFFERENT BITS", worst, last);
    runs_free(&rs);
    return CATENA_OK;
}
