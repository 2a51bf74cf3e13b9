/* The solver cases of `catena bench`: a hanging chain of 1 000, 10 000 and 100 000 points
 * under verlet and xpbd, cloths of 100 x 100 and 316 x 316 points with structural, shear and
 * bend links, 1 000 ropes of 100 points, and a 1 000 x 1 000 cloth that only has to step
 * within memory. All at 20 iterations a step, colored order, batched kernel. Each repetition
 * times the same number of steps of catena on one thread, of the textbook loop in listing
 * order, and of catena on a team of threads, one after the other, so that a busy machine
 * slows all three alike. Checks: the team ends on the same bits as one thread, and the
 * textbook loop run in catena's order of links (its colours) ends on the same positions. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "core/clock.h"
#include "bench/bench_ref.h"
#include "scenario/build/build.h"
#include "model/model.h"
#include "solver/solver.h"
#include "solver/work.h"
#include "solver/state.h"

/* Projections per repetition: enough for a tenth of a second or so per case. */
#define WORK_FULL 2e7
#define WORK_QUICK 2e5

/* The textbook loop in catena's order may differ from catena by this much, m (the issue's
 * tolerance); written in the same rounding order, it does not differ at all. */
#define SAME_ORDER_TOLERANCE 1e-12

enum body_shape { CHAIN, CLOTH, ROPES };

struct solver_case {
    enum body_shape shape;
    long n; /* chain points, cloth side, or ropes */
    enum solver_method method;
    int quick_n; /* the size under --quick (0: skipped) */
};

/* bench_case.variant indexes this table. */
static const struct solver_case cases[] = {
    {CHAIN, 1000, METHOD_VERLET, 1000},   {CHAIN, 1000, METHOD_XPBD, 1000},
    {CHAIN, 10000, METHOD_VERLET, 10000}, {CHAIN, 10000, METHOD_XPBD, 10000},
    {CHAIN, 100000, METHOD_VERLET, 0},    {CHAIN, 100000, METHOD_XPBD, 0},
    {CLOTH, 100, METHOD_VERLET, 100},     {CLOTH, 316, METHOD_VERLET, 0},
    {ROPES, 1000, METHOD_VERLET, 100},    {CLOTH, 1000, METHOD_VERLET, 0},
};

static struct model *base_model(int dims, enum solver_method method)
{
    struct model *m = bench_model(dims);
    if (!m)
        return NULL;
    m->steps = 1;
    m->iterations = 20;
    m->method = method;
    return m;
}

/* A chain of n points 1 cm apart, pinned at both ends, starting straight and level. */
static int add_chain(struct model *m, long n)
{
    struct rope_def d = build_rope_def();
    d.name = "chain";
    d.from = v3(0, 0, 0);
    d.to = v3(0.01 * (double)(n - 1), 0, 0);
    d.segments = (uint32_t)(n - 1);
    d.mass = 0.05 * (double)n;
    d.shape = ROPE_STRAIGHT;
    d.compliance = m->method == METHOD_XPBD ? 1e-7 : 0; /* a stiff cable, m/N per link */
    if (build_rope(m, &d, m->gravity) < 0 || model_add_pin(m, 0, m->x0[0]) < 0 ||
        model_add_pin(m, (uint32_t)(n - 1), m->x0[n - 1]) < 0)
        return -1;
    return 0;
}

/* n ropes of 100 points, each pinned at its first point and starting level. */
static int add_ropes(struct model *m, long n)
{
    for (long r = 0; r < n; r++) {
        char name[24];
        snprintf(name, sizeof name, "rope%ld", r);
        struct rope_def d = build_rope_def();
        d.name = name;
        d.from = v3(0.05 * (double)r, 0, 0);
        d.to = v3(0.05 * (double)r + 0.99, 0, 0);
        d.segments = 99;
        d.shape = ROPE_STRAIGHT;
        const size_t first = m->npoints;
        if (build_rope(m, &d, m->gravity) < 0 ||
            model_add_pin(m, (uint32_t)first, m->x0[first]) < 0)
            return -1;
    }
    return 0;
}

static struct model *build(const struct solver_case *sc, long n)
{
    struct model *m = base_model(sc->shape == CLOTH ? 3 : 2, sc->method);
    if (!m)
        return NULL;
    const double cloth_mass = 1e-4 * (double)n * (double)n; /* 0.1 g a point */
    const int rc = sc->shape == CHAIN   ? add_chain(m, n)
                   : sc->shape == CLOTH ? bench_add_cloth(m, (uint32_t)n, cloth_mass, 2)
                                        : add_ropes(m, n);
    if (rc) {
        model_destroy(m);
        return NULL;
    }
    return m;
}

static void describe(const struct solver_case *sc, long n, const struct model *m, char *out,
                     size_t size)
{
    const char *method = model_method_name(sc->method);
    if (sc->shape == CHAIN)
        snprintf(out, size, "%ld points, %zu links, %s", n, m->nlinks, method);
    else if (sc->shape == CLOTH)
        snprintf(out, size, "%ldx%ld points, %zu links, %s", n, n, m->nlinks, method);
    else
        snprintf(out, size, "%ld ropes x 100 points, %zu links, %s", n, m->nlinks, method);
}

/* Largest distance between the two position sets, over the coordinates the model has. */
static double max_diff(const struct model *m, const struct state *s, const struct bench_ref *r)
{
    double worst = 0;
    for (size_t i = 0; i < m->npoints; i++) {
        const double d[3] = {fabs(s->x[i].x - r->p[i].x), fabs(s->x[i].y - r->p[i].y),
                             m->dims == 3 ? fabs(s->x[i].z - r->p[i].z) : 0.0};
        for (int k = 0; k < 3; k++)
            if (!(d[k] <= worst)) /* NaN counts as a difference */
                worst = d[k];
    }
    return worst;
}

static int same_positions(const struct model *m, const struct state *a, const struct state *b)
{
    for (size_t i = 0; i < m->npoints; i++)
        if (memcmp(&a->x[i], &b->x[i], (size_t)m->dims * sizeof(double)) != 0)
            return 0;
    return 1;
}

/* The textbook loop in the order catena relaxes the links (its colours) against catena, for
 * a few steps from the start. */
static int check_same_order(const struct model *m, long steps, double *diff)
{
    struct state *s = state_create(m);
    struct bench_ref *ref = s ? bench_ref_create(m, s->cache->work->link_order) : NULL;
    if (!ref) {
        state_destroy(s);
        return -1;
    }
    for (long k = 0; k < steps; k++) {
        solver_step(m, s);
        bench_ref_step(ref);
    }
    *diff = max_diff(m, s, ref);
    bench_ref_destroy(ref);
    state_destroy(s);
    return 0;
}

struct timing {
    double one[8], ref[8], team[8], one_cpu[8], team_cpu[8];
};

int bench_solver_case(const struct bench_case *c, const struct bench_options *o,
                      struct bench_result *r, struct catena_error *err)
{
    const struct solver_case *sc = &cases[c->variant];
    const long n = o->quick ? sc->quick_n : sc->n;
    const int memory_only = sc->shape == CLOTH && sc->n == 1000;
    struct model *m = build(sc, n);
    if (!m)
        return error_set(err, CATENA_EFAIL, "%s: out of memory building the model", c->name);
    r->kind = BENCH_SOLVER;
    describe(sc, n, m, r->size, sizeof r->size);
    const double work = (double)m->nlinks * m->iterations * m->substeps;
    const long steps = memory_only ? 2 : (long)fmax(1, (o->quick ? WORK_QUICK : WORK_FULL) / work);
    r->reps = memory_only ? 1 : o->quick ? 3 : 5;
    r->threads = memory_only ? 0 : o->threads;

    struct state *one = state_create(m);
    m->threads = r->threads ? r->threads : 1;
    struct state *team = memory_only ? NULL : state_create(m);
    m->threads = 1;
    struct bench_ref *ref = memory_only ? NULL : bench_ref_create(m, NULL);
    if (!one || (!memory_only && (!team || !ref))) {
        state_destroy(one);
        state_destroy(team);
        bench_ref_destroy(ref);
        model_destroy(m);
        return error_set(err, CATENA_EFAIL, "%s: out of memory", c->name);
    }
    struct timing t;
    for (int rep = 0; rep < r->reps; rep++) {
        double start = clock_monotonic_s(), cpu = clock_cpu_s();
        for (long k = 0; k < steps; k++)
            solver_step(m, one);
        t.one[rep] = clock_monotonic_s() - start;
        t.one_cpu[rep] = clock_cpu_s() - cpu;
        if (memory_only)
            continue;
        start = clock_monotonic_s();
        for (long k = 0; k < steps; k++)
            bench_ref_step(ref);
        t.ref[rep] = clock_monotonic_s() - start;
        start = clock_monotonic_s();
        cpu = clock_cpu_s();
        for (long k = 0; k < steps; k++)
            solver_step(m, team);
        t.team[rep] = clock_monotonic_s() - start;
        t.team_cpu[rep] = clock_cpu_s() - cpu;
    }
    r->seconds = bench_median(t.one, r->reps);
    r->ns_per_cit = 1e9 * r->seconds / ((double)steps * work);
    r->steps_per_s = (double)steps / r->seconds;
    r->ok = solver_find_diverged(one) < 0;
    if (memory_only) {
        snprintf(r->check, sizeof r->check, "%s", r->ok ? "stepped" : "diverged");
    } else {
        r->ref_seconds = bench_median(t.ref, r->reps);
        r->ratio = r->ref_seconds / r->seconds;
        r->team_seconds = bench_median(t.team, r->reps);
        r->speedup = r->seconds / r->team_seconds;
        r->team_cpu = bench_median(t.team_cpu, r->reps) / bench_median(t.one_cpu, r->reps);
        /* Both states took the same steps from the same start. */
        const int same = same_positions(m, one, team);
        double diff = 0;
        if (check_same_order(m, o->quick ? 2 : 10, &diff)) {
            r->ok = 0;
            snprintf(r->check, sizeof r->check, "out of memory for the check");
        } else {
            r->ok = r->ok && same && diff <= SAME_ORDER_TOLERANCE;
            snprintf(r->check, sizeof r->check, "%d threads %s; textbook loop in its order: %s",
                     r->threads, same ? "same bits" : "DIFFERENT BITS",
                     diff == 0 ? "same bits" : "differs");
            if (diff != 0) {
                const size_t len = strlen(r->check);
                snprintf(r->check + len, sizeof r->check - len, " by %.3g m", diff);
            }
        }
    }
    state_destroy(one);
    state_destroy(team);
    bench_ref_destroy(ref);
    model_destroy(m);
    return CATENA_OK;
}
