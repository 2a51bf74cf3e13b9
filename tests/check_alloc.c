/* No allocation in the step loop: this program replaces malloc, calloc and realloc with
 * counting wrappers around the C library's own (glibc's __libc_* entry points; elsewhere the
 * tests are skipped), so that every allocation made by catena, by the C library on its behalf
 * (stdio, qsort) and by the thread team is seen. Stepping a model with every constraint
 * family, every method and kernel and a thread team allocates nothing; a whole run allocates
 * the same whether it takes 10 steps or 200, writers and metrics included. */
#define _GNU_SOURCE
#include <check.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/build/build.h"
#include "model/model.h"
#include "run/run.h"
#include "solver/solver.h"
#include "solver/state.h"
#include "testutil.h"
#include "testutil_check.h"

/* Whether malloc can be counted here: glibc, and no sanitizer's allocator in the way. */
#if defined(__SANITIZE_ADDRESS__)
#define ALLOC_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ALLOC_SANITIZED 1
#endif
#endif
#if defined(__GLIBC__) && !defined(ALLOC_SANITIZED)
#define ALLOC_COUNTED 1
#endif

#ifdef ALLOC_COUNTED
extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);

static atomic_long allocations;

void *malloc(size_t n)
{
    atomic_fetch_add(&allocations, 1);
    return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
    atomic_fetch_add(&allocations, 1);
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
    atomic_fetch_add(&allocations, 1);
    return __libc_realloc(p, n);
}

void free(void *p)
{
    __libc_free(p);
}

/* A 3D cloth with every link family, a rope hanging from it by a tether, an angle limit, a
 * volume (a small icosphere), a shape group and a weld, breakable links, max-length pass. */
static struct model *scene(enum solver_method method, enum solver_order order,
                           enum solver_kernel kernel, int threads)
{
    struct model *m = model_create();
    ck_assert_ptr_nonnull(m);
    m->dims = 3;
    m->dt = 1.0 / 60;
    m->substeps = 2;
    m->iterations = 6;
    m->method = method;
    m->order = order;
    m->kernel = kernel;
    m->threads = threads;
    m->max_length_pass = 1;
    struct cloth_def c = build_cloth_def();
    c.name = "cloth";
    c.rows = 40;
    c.cols = 60; /* 2400 points, above the team's smallest share of links */
    c.dx = c.dy = 0.05;
    c.bend.on = 1;
    c.structural.compliance = method == METHOD_XPBD ? 1e-6 : 0;
    ck_assert_int_ge(build_cloth(m, &c), 0);
    model_add_pin(m, 0, m->x0[0]);
    model_add_pin(m, 59, m->x0[59]);
    for (size_t i = 0; i < 20; i++)
        m->links[i].break_stretch = 1.001;
    struct rope_def r = build_rope_def();
    r.name = "rope";
    r.from = v3(4, 1, 0);
    r.to = v3(5, 1, 0);
    r.segments = 20;
    r.shape = ROPE_STRAIGHT;
    r.bend.on = 1;
    const size_t first = m->npoints;
    ck_assert_int_ge(build_rope(m, &r, m->gravity), 0);
    model_add_pin(m, (uint32_t)first, m->x0[first]);
    model_add_angle(m, (uint32_t)first + 2, (uint32_t)first + 3, (uint32_t)first + 4, -0.3, 0.3);
    struct softbody_def sb = build_softbody_def();
    sb.name = "ball";
    sb.shape = SOFT_SPHERE;
    sb.subdivisions = 1;
    sb.center = v3(7, 1, 0);
    sb.size = 0.3;
    sb.area.on = 1;
    sb.shape_matching = 0.2;
    ck_assert_int_ge(build_softbody(m, &sb), 0);
    model_add_attachment(m, (uint32_t)(m->npoints - 1), (uint32_t)(first + 20));
    const long l = model_add_link(m, 0, (uint32_t)(first + 20), 6.0);
    m->links[l].kind = LINK_TETHER;
    return m;
}

/* Loop index: method (3) x order (3) x kernel and threads (simple; batched 1, 2 threads). */
START_TEST(test_steps_allocate_nothing)
{
    const enum solver_method method = (enum solver_method)(_i % 3);
    const enum solver_order order = (enum solver_order)(_i / 3 % 3);
    const int variant = _i / 9;
    struct model *m =
        scene(method, order, variant == 0 ? KERNEL_SIMPLE : KERNEL_BATCHED, variant == 2 ? 2 : 1);
    struct state *s = state_create(m);
    ck_assert_ptr_nonnull(s);
    solver_step(m, s); /* the first step may page in, but must not allocate either */
    const long before = atomic_load(&allocations);
    for (int k = 0; k < 60; k++)
        solver_step(m, s);
    ck_assert_int_eq(atomic_load(&allocations) - before, 0);
    size_t broken = 0;
    for (size_t i = 0; i < m->nlinks; i++)
        broken += !s->alive[i];
    ck_assert_msg(broken > 0, "links broke on the way (the breaking code ran)");
    state_destroy(s);
    model_destroy(m);
}
END_TEST

/* Allocations of a whole run of `steps` steps into a fresh directory. */
static long run_allocations(long steps)
{
    struct scenario *sc = scenario_create(scene(METHOD_XPBD, ORDER_COLORED, KERNEL_BATCHED, 2));
    ck_assert_ptr_nonnull(sc);
    sc->model->steps = steps;
    sc->output.every = 1;
    sc->output.formats = FORMAT_CSV | FORMAT_JSON | FORMAT_NPY;
    char *out_dir = tu_tmpdir();
    ck_assert_ptr_nonnull(out_dir);
    struct run_options o = {.out_dir = out_dir};
    struct run_result r;
    struct catena_error err;
    const long before = atomic_load(&allocations);
    ck_assert_msg(run_simulation(sc, &o, &r, &err) == CATENA_OK, "%s", err.msg);
    const long n = atomic_load(&allocations) - before;
    ck_assert_int_eq(r.steps_done, steps);
    tu_rmtree(out_dir);
    free(out_dir);
    scenario_destroy(sc);
    return n;
}

START_TEST(test_run_allocations_independent_of_steps)
{
    run_allocations(10); /* the C library sets some things up once (time zone, locale) */
    /* Runs long enough to end alike, so that the plausibility warnings (run/plausible.h),
     * which allocate, are the same: after 10 steps the weld that starts the ball away from
     * the rope still has the ball's spokes 53 % long (a max-stretch warning); by 100 it has
     * pulled them together. */
    const long ten = run_allocations(100), many = run_allocations(200);
    ck_assert_msg(ten > 0, "the counter sees the run's own allocations");
    ck_assert_int_eq(many, ten);
}
END_TEST

static Suite *alloc_suite(void)
{
    Suite *s = suite_create("alloc");
    TCase *tc = tcase_create("step loop");
    tcase_add_loop_test(tc, test_steps_allocate_nothing, 0, 27);
    tcase_add_test(tc, test_run_allocations_independent_of_steps);
    suite_add_tcase(s, tc);
    return s;
}
#endif

int main(void)
{
#ifndef ALLOC_COUNTED
    return 77; /* automake's "skipped": the counting wrappers need glibc's allocator */
#else
    return tu_run(alloc_suite());
#endif
}
