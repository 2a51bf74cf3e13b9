/* The batched link kernel against the simple one (solver.kernel), and threads against one
 * thread (solver.threads): the same projections in the same order must give the same bits,
 * for every method and order, in 2D and 3D, with pins, tethers, breaks, substeps, other
 * constraint families, four-wide AVX lanes or without them, and one to three threads. Each
 * comparison checks that the path it means to test really ran (lanes, a shared step). */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/build/build.h"
#include "model/model.h"
#include "scenario/scenario.h"
#include "solver/solver.h"
#include "solver/batch/batch.h"
#include "solver/momentum.h"
#include "solver/work.h"
#include "solver/state.h"
#include "testutil_check.h"

/* A variant of the batched kernel to compare with the simple one. */
struct variant {
    int threads;
    int avx; /* 0: force the scalar loop */
};

static const struct variant variants[] = {{1, 1}, {1, 0}, {2, 1}, {3, 1}, {2, 0}};
#define NVARIANTS (sizeof variants / sizeof variants[0])

/* A rows x cols cloth dx apart with every link family (bend stiffness 0.5), tilted back from
 * its top row at y = 2 and pinned at the top corners. */
static void add_cloth(struct model *m, uint32_t rows, uint32_t cols, double dx, double compliance)
{
    struct cloth_def c = build_cloth_def();
    c.name = "cloth";
    c.rows = rows;
    c.cols = cols;
    c.dx = c.dy = dx;
    c.u = v3(1, 0, 0);
    c.v = v3(0, 0.3, -0.95393920141694566);
    c.corner = v3(0, 2, 0);
    c.mass = 2;
    c.bend.on = 1;
    c.bend.stiffness = 0.5;
    c.structural.compliance = c.shear.compliance = c.bend.compliance = compliance;
    ck_assert_int_ge(build_cloth(m, &c), 0);
    model_add_pin(m, 0, m->x0[0]);
    model_add_pin(m, cols - 1, m->x0[cols - 1]);
}

/* An empty model of dims dimensions stepping 1/60 s in substeps substeps of iterations
 * iterations each, under method and order. */
static struct model *empty_model(int dims, enum solver_method method, enum solver_order order,
                                 int substeps, int iterations)
{
    struct model *m = model_create();
    ck_assert_ptr_nonnull(m);
    m->dims = dims;
    m->dt = 1.0 / 60;
    m->substeps = substeps;
    m->iterations = iterations;
    m->method = method;
    m->order = order;
    return m;
}

/* 3D: a cloth with every link family, pinned at two corners, one breakable row, and a rope
 * hanging from it by a tether; 2D: three ropes (independent runs for the threads), one with
 * bend links and an angle limit, one with a tether and breakable links. */
static struct model *scene(int dims, enum solver_method method, enum solver_order order)
{
    struct model *m = empty_model(dims, method, order, 2, 7);
    m->damping = method == METHOD_VERLET ? 0.99 : 0.9;
    const double compliance = method == METHOD_XPBD ? 1e-5 : 0.0;
    if (dims == 3) {
        add_cloth(m, 9, 11, 0.1, compliance);
        for (size_t i = 0; i < 10; i++) /* the top row, which carries the cloth */
            m->links[i].break_stretch = 1.001;
    }
    for (int r = 0; r < (dims == 3 ? 1 : 3); r++) {
        struct rope_def d = build_rope_def();
        d.name = r == 0 ? "a" : r == 1 ? "b" : "c";
        d.from = v3(3.0 + r, 1.0, 0);
        d.to = v3(3.5 + r, 0.2 - 0.1 * r, dims == 3 ? 0.3 : 0);
        d.segments = 17 + 4 * (uint32_t)r;
        d.length = 1.3;
        d.mass = 0.5 + r;
        d.compliance = compliance;
        d.shape = ROPE_SAG;
        d.bend.on = r == 1;
        d.bend.stiffness = 0.3;
        d.bend.compliance = compliance * 10;
        const size_t first = m->npoints;
        ck_assert_int_ge(build_rope(m, &d, m->gravity), 0);
        model_add_pin(m, (uint32_t)first, m->x0[first]);
        if (r == 1)
            model_add_angle(m, (uint32_t)first + 3, (uint32_t)first + 4, (uint32_t)first + 5, -0.2,
                            0.2);
        if (r == 2)
            for (size_t i = m->nlinks - 6; i < m->nlinks; i++)
                m->links[i].break_stretch = 1.01;
    }
    /* A tether from the first rope's end to a fixed point far enough to go slack at times. */
    const long anchor = model_add_point(m, v3(3.2, -0.6, 0), v3(0, 0, 0), 0, 0, NULL);
    const long l = model_add_link(m, (uint32_t)anchor, (uint32_t)(m->npoints - 2), 1.0);
    ck_assert_int_ge(l, 0);
    m->links[l].kind = LINK_TETHER;
    return m;
}

/* A state of m; avx 0 forces the scalar loop. Teams share even these small scenes. */
static struct state *make_state(const struct model *m, int avx)
{
    struct state *s = state_create(m);
    ck_assert_ptr_nonnull(s);
    if (s->cache->batch && !avx)
        s->cache->batch->avx = 0;
    if (s->cache->batch)
        s->cache->batch->min_share = 0;
    return s;
}

static struct state *run(const struct model *m, int avx, long steps)
{
    struct state *s = make_state(m, avx);
    for (long k = 0; k < steps; k++)
        solver_step(m, s);
    return s;
}

static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Positions (x, y and, in 3D, z; in 2D the batched kernel never writes z), previous
 * positions, velocities, multipliers and live links agree bit for bit. */
static void assert_same(const struct model *m, const struct state *a, const struct state *b,
                        const char *what)
{
    for (size_t i = 0; i < m->npoints; i++) {
        ck_assert_msg(same_bits(a->x[i].x, b->x[i].x) && same_bits(a->x[i].y, b->x[i].y) &&
                          (m->dims == 2 || same_bits(a->x[i].z, b->x[i].z)),
                      "%s: point %zu differs", what, i);
        ck_assert_msg(same_bits(a->v[i].x, b->v[i].x) && same_bits(a->v[i].y, b->v[i].y),
                      "%s: velocity %zu differs", what, i);
        ck_assert_msg(same_bits(a->xprev[i].x, b->xprev[i].x) &&
                          same_bits(a->xprev[i].y, b->xprev[i].y),
                      "%s: previous position %zu differs", what, i);
    }
    for (size_t i = 0; i < m->nlinks; i++) {
        ck_assert_msg(a->alive[i] == b->alive[i], "%s: link %zu alive differs", what, i);
        ck_assert_msg(same_bits(a->link_lambda[i], b->link_lambda[i]), "%s: lambda %zu differs",
                      what, i);
    }
}

/* Loop index: method (3) x order (3) x dims (2). */
START_TEST(test_batched_matches_simple)
{
    const enum solver_method method = (enum solver_method)(_i % 3);
    const enum solver_order order = (enum solver_order)(_i / 3 % 3);
    const int dims = _i / 9 ? 3 : 2;
    const long steps = 60;
    struct model *m = scene(dims, method, order);
    m->kernel = KERNEL_SIMPLE;
    struct state *ref = run(m, 1, steps);
    size_t broken = 0;
    for (size_t i = 0; i < m->nlinks; i++)
        broken += !ref->alive[i];
    ck_assert_msg(broken > 0, "the scene breaks links");
    m->kernel = KERNEL_BATCHED;
    for (size_t v = 0; v < NVARIANTS; v++) {
        m->threads = variants[v].threads;
        struct state *s = run(m, variants[v].avx, steps);
        const struct solver_batch *b = s->cache->batch;
        ck_assert_ptr_nonnull(b);
        /* the team shares the step: colours always, runs of the three 2D ropes too */
        if (m->threads > 1 && (order == ORDER_COLORED || dims == 2))
            ck_assert_msg(b->parallel, "variant %zu shares the links", v);
        char what[64];
        snprintf(what, sizeof what, "threads %d, avx %d", variants[v].threads, variants[v].avx);
        assert_same(m, ref, s, what);
        state_destroy(s);
    }
    state_destroy(ref);
    model_destroy(m);
}
END_TEST

/* 64 pendulums pinned at -0 in every coordinate, numbered pivot, bob, pivot, ..., so that the
 * four-wide kernels take their links four at a time (each part of the points holds four): a
 * pinned end keeps its -0, as under the simple kernel, which never writes it; the kernels'
 * masks for ends of inverse mass 0 see to that (x - (-0) would be +0). Loop index: dims 2, 3. */
START_TEST(test_pinned_negative_zero)
{
    if (!batch_avx_usable())
        return;
    const int dims = 2 + _i;
    struct model *m = empty_model(dims, METHOD_VERLET, ORDER_COLORED, 1, 5);
    const vec3 nz = v3(-0.0, -0.0, -0.0);
    for (int k = 0; k < 64; k++) {
        const long pivot = model_add_point(m, nz, v3(0, 0, 0), 1, 0, NULL);
        const vec3 at = v3(0.3 - 0.01 * k, -0.4 + 0.005 * k, dims == 3 ? 0.2 - 0.01 * k : 0);
        const long bob = model_add_point(m, at, v3(0, 0, 0), 1, 0, NULL);
        ck_assert_int_ge(model_add_link(m, (uint32_t)pivot, (uint32_t)bob, 0.45), 0);
        ck_assert_int_ge(model_add_pin(m, (uint32_t)pivot, nz), 0);
    }
    m->kernel = KERNEL_SIMPLE;
    struct state *ref = run(m, 1, 30);
    m->kernel = KERNEL_BATCHED;
    struct state *s = run(m, 1, 30);
    ck_assert(s->cache->batch->lanes);
    assert_same(m, ref, s, "pendulums");
    ck_assert(signbit(s->x[0].x) && signbit(s->x[0].y));
    state_destroy(s);
    state_destroy(ref);
    model_destroy(m);
}
END_TEST

/* Links whose ends change between steps (an event's cut) void the team's split and the lanes:
 * the step runs one link at a time on one thread and still matches the simple kernel. */
START_TEST(test_changed_ends_run_alone)
{
    struct model *m = scene(2, METHOD_VERLET, ORDER_COLORED);
    m->kernel = KERNEL_SIMPLE;
    struct state *simple = state_create(m);
    m->kernel = KERNEL_BATCHED;
    m->threads = 2;
    struct state *s = make_state(m, 1);
    ck_assert_ptr_nonnull(simple);
    ck_assert_ptr_nonnull(s);
    for (int k = 0; k < 30; k++) {
        if (k == 10) { /* move a link's end to a point of another rope: links of one colour meet */
            m->links[3].b = m->links[40].a;
            solver_topology_changed(m, s, SOLVER_CHANGED_LINKS | SOLVER_CHANGED_ENDS);
            /* the simple kernel's state too: which points form free bodies (whose angular
             * momentum the sweeps keep, solver/momentum.h) changed with the link */
            solver_topology_changed(m, simple, SOLVER_CHANGED_LINKS | SOLVER_CHANGED_ENDS);
        }
        solver_step(m, s);
        solver_step(m, simple);
        ck_assert_int_eq(s->cache->batch->parallel, k < 10);
        ck_assert_int_eq(s->cache->batch->lanes, k < 10 && s->cache->batch->avx);
    }
    assert_same(m, simple, s, "after the change");
    state_destroy(s);
    state_destroy(simple);
    model_destroy(m);
}
END_TEST

/* A cloth (with bend links) falling onto a tilted plane with friction under the contact phase
 * (solver.shock_iterations 3 of 8): the last iterations of each substep hold the touching
 * points (inverse mass 0) for the links too, so links with both ends held are skipped, under
 * xpbd without touching their multipliers, in the scalar loop, the leftovers and the lanes
 * alike. Loop index: method (3) x order (3). */
static struct model *landing(enum solver_method method, enum solver_order order)
{
    static const char *const methods[] = {"verlet", "pbd", "xpbd"};
    static const char *const orders[] = {"forward", "alternate", "colored"};
    return tu_load(
        "{\"catena\": 1, \"dimensions\": 3, \"time\": {\"dt\": %.17g, \"steps\": 45, "
        "\"substeps\": 2}, \"solver\": {\"method\": \"%s\", \"order\": \"%s\", "
        "\"iterations\": 8, \"shock_iterations\": 3, \"damping\": 0.99}, "
        "\"bodies\": [{\"type\": \"cloth\", \"name\": \"c\", \"rows\": 13, \"cols\": 14, "
        "\"size\": [1.3, 1.2], \"center\": [0, 0.4, 0], \"plane\": \"xz\", \"mass\": 1, "
        "\"radius\": 0.02, \"compliance\": 1e-6, \"bend\": {\"compliance\": 1e-3}}], "
        "\"obstacles\": [{\"type\": \"plane\", \"point\": [0, 0, 0], "
        "\"normal\": [0.3, 1, 0.1], \"friction\": 0.5, \"restitution\": 0.2}]}",
        1.0 / 60.0, methods[method], orders[order]);
}

/* Links with both ends on the plane at the end of a step: held together in the contact
 * phase. */
static size_t links_held(const struct model *m, const struct state *s)
{
    const struct obstacle *o = &m->obstacles[0];
    size_t n = 0;
    for (size_t i = 0; i < m->nlinks; i++) {
        const uint32_t e[2] = {m->links[i].a, m->links[i].b};
        int on = 1;
        for (int k = 0; k < 2; k++) /* 1e-9 m: a push-out's rounding */
            on &= v3_dot(v3_sub(s->x[e[k]], o->p), o->n) - m->radius[e[k]] <= 1e-9;
        n += on;
    }
    return n;
}

START_TEST(test_contact_phase_matches_simple)
{
    const enum solver_method method = (enum solver_method)(_i % 3);
    const enum solver_order order = (enum solver_order)(_i / 3);
    struct model *m = landing(method, order);
    m->kernel = KERNEL_SIMPLE;
    struct state *ref = run(m, 1, m->steps);
    ck_assert_uint_gt(links_held(m, ref), m->nlinks / 2); /* it lies on the plane */
    m->kernel = KERNEL_BATCHED;
    for (size_t v = 0; v < NVARIANTS; v++) {
        m->threads = variants[v].threads;
        struct state *s = run(m, variants[v].avx, m->steps);
        const struct solver_batch *b = s->cache->batch;
        ck_assert_ptr_nonnull(b);
        if (order == ORDER_COLORED && variants[v].avx)
            ck_assert_int_eq(b->lanes, b->avx); /* the runs took the colours */
        char what[64];
        snprintf(what, sizeof what, "contact phase, threads %d, avx %d", variants[v].threads,
                 variants[v].avx);
        assert_same(m, ref, s, what);
        state_destroy(s);
    }
    state_destroy(ref);
    model_destroy(m);
}
END_TEST

#if CATENA_BATCH_AVX
/* The comparisons above go through the kinds of run where the processor has AVX2: the ropes
 * and the 3D cloth's columns give stride runs, the bend links pairs runs, and the tethers and
 * leftovers listed links (test_cloth_runs has even runs); links that broke leave the runs they
 * were in. */
START_TEST(test_runs_cover_kinds)
{
    if (!batch_avx_usable())
        return;
    for (int dims = 2; dims <= 3; dims++) {
        struct model *m = scene(dims, METHOD_VERLET, ORDER_COLORED);
        struct state *s = make_state(m, 1);
        size_t links[RUN_EVEN + 1] = {0};
        int broke = 0;
        for (int k = 0; k < 60; k++) {
            solver_step(m, s);
            broke |= s->nbroke > 0;
        }
        const struct solver_batch *b = s->cache->batch;
        ck_assert(b->lanes);
        for (size_t r = 0; r < b->nrun; r++) {
            links[b->run[r].kind] += b->run[r].n;
            for (uint32_t i = 0; i < b->run[r].n; i++) /* no dead link in a run */
                ck_assert(s->alive[b->link[b->run[r].j + i]]);
        }
        ck_assert_msg(broke, "links broke during the run");
        ck_assert_uint_gt(links[RUN_LISTED], 0);
        ck_assert_uint_gt(links[RUN_PAIRS], 0);
        ck_assert_uint_gt(links[RUN_STRIDE], 0);
        state_destroy(s);
        model_destroy(m);
    }
}
END_TEST

/* A 32 x 32 cloth with every link family, pinned at two corners, whose runs include every
 * kind (listed, stride, pairs, even) on one thread and on two: the batched kernel ends on
 * the simple kernel's bits after 20 steps. Loop index: verlet, xpbd. */
START_TEST(test_cloth_runs)
{
    if (!batch_avx_usable())
        return;
    struct model *m = empty_model(3, _i ? METHOD_XPBD : METHOD_VERLET, ORDER_COLORED, 1, 4);
    add_cloth(m, 32, 32, 0.05, _i ? 1e-6 : 0.0);
    m->kernel = KERNEL_SIMPLE;
    struct state *ref = run(m, 1, 20);
    m->kernel = KERNEL_BATCHED;
    for (int threads = 1; threads <= 2; threads++) {
        m->threads = threads;
        struct state *s = run(m, 1, 20);
        const struct solver_batch *b = s->cache->batch;
        ck_assert(b->lanes);
        size_t links[RUN_EVEN + 1] = {0};
        for (size_t r = 0; r < b->nrun; r++)
            links[b->run[r].kind] += b->run[r].n;
        for (int k = RUN_LISTED; k <= RUN_EVEN; k++)
            ck_assert_msg(links[k] > 0, "%d threads: runs of kind %d", threads, k);
        assert_same(m, ref, s, threads == 1 ? "one thread" : "two threads");
        state_destroy(s);
    }
    state_destroy(ref);
    model_destroy(m);
}
END_TEST

/* Sixteen separate ropes in 2D and nothing but links: the team's parts hold whole ropes
 * (b->bodies), so each member goes through every iteration of its own parts without
 * waiting. Three ropes break. */
static struct model *ropes(enum solver_method method)
{
    struct model *m = empty_model(2, method, ORDER_COLORED, 2, 7);
    for (int r = 0; r < 16; r++) {
        struct rope_def d = build_rope_def();
        char name[8];
        snprintf(name, sizeof name, "r%d", r);
        d.name = name;
        d.from = v3(0.3 * r, 1.0, 0);
        d.to = v3(0.3 * r + 1.0, 0.8, 0);
        d.segments = 20;
        d.compliance = method == METHOD_XPBD ? 1e-5 : 0.0;
        const size_t first = m->npoints;
        ck_assert_int_ge(build_rope(m, &d, m->gravity), 0);
        model_add_pin(m, (uint32_t)first, m->x0[first]);
        if (r == 5 || r == 11 || r == 13) { /* the top link; in the same step, in three ranges */
            m->links[m->nlinks - 20].break_stretch = 1.0001;
            /* held at the other end too, so that what is left hangs from it rather than
             * falling free (a free body ends the whole-substep jobs: solver/momentum.h) */
            model_add_pin(m, (uint32_t)m->npoints - 1, m->x0[m->npoints - 1]);
        }
    }
    return m;
}

/* How a team shares the lanes, each against the simple kernel: separate ropes in one job per
 * substep without waits (b->bodies); the cloth in one job per substep with a wait between
 * colours; the cloth again after its iterations grow beyond what one job holds (an event's
 * solver.iterations), one job per iteration; the cloth under wind, which reads neighbours
 * between the advance and the links. Where a substep is one job, that job advances the
 * points and updates their velocities too, part by part (batch_substep). The first pin
 * moves, so its points' x, xprev and v change every substep. Loop index: method. */
START_TEST(test_team_modes)
{
    if (!batch_avx_usable())
        return;
    const enum solver_method method = (enum solver_method)_i;
    for (int shape = 0; shape < 4; shape++) {
        struct model *m = shape == 0 ? ropes(method) : scene(3, method, ORDER_COLORED);
        m->pins[0].motion = MOTION_SINE;
        m->pins[0].axis = v3(0.6, 0.8, 0);
        m->pins[0].amplitude = 0.05;
        m->pins[0].frequency = 2;
        if (shape == 3)
            m->bodies[0].drag = 0.5;
        m->kernel = KERNEL_SIMPLE;
        struct state *ref = state_create(m);
        m->kernel = KERNEL_BATCHED;
        /* The breaks of every step in the order s->broke lists them (each link breaks once). */
        uint32_t *ref_log = calloc(m->nlinks, sizeof *ref_log),
                 *log = calloc(m->nlinks, sizeof *log);
        size_t ref_logged[40], nref = 0;
        ck_assert(ref_log && log);
        for (int threads = 2; threads <= 3; threads++) {
            m->threads = threads;
            m->iterations = 7;
            struct state *s = make_state(m, 1);
            size_t nlog = 0, most = 0;
            int whole = 0;
            for (int k = 0; k < 40; k++) {
                if (shape == 2 && k == 20)
                    m->iterations = 40;
                if (threads == 2) {
                    solver_step(m, ref);
                    memcpy(ref_log + nref, ref->broke, ref->nbroke * sizeof *ref->broke);
                    ref_logged[k] = nref += ref->nbroke;
                }
                /* Until a rope or a piece of cloth breaks free: the sweeps then restore its
                 * angular momentum (solver/momentum.h), reading the positions between
                 * iterations, and a substep is no longer one job (from the next gather). */
                const int free = momentum_active(s->cache->momentum);
                solver_step(m, s);
                memcpy(log + nlog, s->broke, s->nbroke * sizeof *s->broke);
                nlog += s->nbroke;
                most = s->nbroke > most ? s->nbroke : most;
                ck_assert_uint_eq(nlog, ref_logged[k]);
                const struct solver_batch *b = s->cache->batch;
                ck_assert(b->parallel && b->lanes);
                ck_assert_int_eq(b->hold, !free);
                ck_assert_int_eq(b->bodies, shape == 0);
                const int ready = batch_substep_ready(m, s);
                ck_assert_int_eq(ready,
                                 !free && (shape < 2 || (shape == 2 && m->iterations == 7)));
                whole += ready;
            }
            /* whole substeps ran (not under wind, and not once anything broke free) */
            ck_assert_msg(shape == 3 || whole >= 5, "shape %d: %d whole steps", shape, whole);
            size_t broken = 0;
            for (size_t i = 0; i < m->nlinks; i++)
                broken += !s->alive[i];
            ck_assert_msg(broken > 0, "links broke");
            /* the ropes: several ranges of the team's break check list theirs in one step */
            ck_assert_uint_ge(most, shape == 0 ? 3 : 1);
            ck_assert_msg(memcmp(log, ref_log, nlog * sizeof *log) == 0,
                          "the same breaks in order");
            char what[64];
            snprintf(what, sizeof what, "shape %d, threads %d", shape, threads);
            assert_same(m, ref, s, what);
            state_destroy(s);
        }
        free(ref_log);
        free(log);
        state_destroy(ref);
        model_destroy(m);
    }
}
END_TEST

#endif

/* A team scans for diverged points range by range (solver_find_diverged) and finds the
 * first, as one pass does: none, one late, one in each of two ranges, and a point far out. */
START_TEST(test_team_finds_diverged)
{
    struct model *m = scene(3, METHOD_PBD, ORDER_COLORED);
    m->threads = 3;
    struct state *s = make_state(m, 1);
    solver_step(m, s);
    ck_assert(s->cache->batch->parallel);
    ck_assert_int_eq(solver_find_diverged(s), -1);
    const size_t late = m->npoints - 2, early = m->npoints / 5;
    s->x[late].z = NAN;
    ck_assert_int_eq(solver_find_diverged(s), (long)late);
    s->x[early].y = 2 * SOLVER_ABSURD;
    ck_assert_int_eq(solver_find_diverged(s), (long)early);
    s->x[early].y = 0.0;
    s->x[early + 1].x = INFINITY;
    ck_assert_int_eq(solver_find_diverged(s), (long)early + 1);
    state_destroy(s);
    model_destroy(m);
}
END_TEST

#if CATENA_BATCH_AVX
/* The four-wide lanes run where the processor has AVX (otherwise nothing to compare). */
START_TEST(test_lanes_run)
{
    if (!batch_avx_usable())
        return;
    struct model *m = scene(3, METHOD_XPBD, ORDER_COLORED);
    struct state *s = state_create(m);
    ck_assert_int_eq(s->cache->batch->avx, 1);
    state_destroy(s);
    model_destroy(m);
}
END_TEST
#endif

static Suite *batch_suite(void)
{
    Suite *s = suite_create("batch");
    TCase *tc = tcase_create("kernels");
    tcase_add_loop_test(tc, test_batched_matches_simple, 0, 18);
    tcase_add_loop_test(tc, test_pinned_negative_zero, 0, 2);
    tcase_add_test(tc, test_changed_ends_run_alone);
    tcase_add_loop_test(tc, test_contact_phase_matches_simple, 0, 9);
    tcase_add_test(tc, test_team_finds_diverged);
#if CATENA_BATCH_AVX
    tcase_add_test(tc, test_lanes_run);
    tcase_add_test(tc, test_runs_cover_kinds);
    tcase_add_loop_test(tc, test_cloth_runs, 0, 2);
    tcase_add_loop_test(tc, test_team_modes, 0, 3);
#endif
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(batch_suite());
}
