/* Tests of solver.global_matrix "fixed" (solver/direct/fixed.c), the ADMM iteration with one
 * constant matrix for bodies with loops: it converges to the Newton's solution (rigid and
 * compliant links), factors its matrix once per topology, and ends far less stretched than
 * Gauss-Seidel at equal iterations, in 3D and 2D. Models built in code. */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "solver/direct/direct.h"
#include "solver/solver.h"
#include "solver/state.h"
#include "testutil.h"
#include "testutil_check.h"
#include "testutil_direct.h"

static struct model *m;
static struct state *s, *s2;

static void setup(void)
{
    m = NULL;
    s = s2 = NULL;
}

static void teardown(void)
{
    state_destroy(s);
    state_destroy(s2);
    model_destroy(m);
}

/* Ten steps of a falling 12 x 12 curtain (_i 0: rigid links, 1: xpbd, compliance 1e-4 m/N):
 * the fixed matrix after 30 000 iterations a step lands where the Newton lands after 40,
 * within 1e-6 m (its points move ~1e-3 m a step). The fixed iteration converges linearly:
 * 1000 iterations leave 1.5e-4 m (rigid) and 7.3e-6 m (compliant), 10 000 8.2e-6 and under
 * 1e-8, 30 000 2.5e-7 (rigid); so the gap is its convergence, not another solution. */
START_TEST(test_fixed_converges_to_newton)
{
    m = tu_curtain(12, 0.05, 0);
    ck_assert_ptr_nonnull(m);
    if (_i == 1) {
        m->method = METHOD_XPBD;
        for (size_t i = 0; i < m->nlinks; i++)
            m->links[i].compliance = 1e-4;
    }
    m->iterations = 40;
    s = state_create(m);
    m->global_matrix = MATRIX_FIXED;
    m->iterations = 30000;
    s2 = state_create(m);
    ck_assert_ptr_nonnull(s);
    ck_assert_ptr_nonnull(s2);
    for (int k = 0; k < 10; k++) {
        const double gap = tu_step_newton_fixed(m, s, s2, 30000);
        ck_assert_msg(gap < 1e-6, "step %d: %g m apart", k, gap);
        ck_assert_double_gt(tu_max_moved(m, s), 1e-4); /* it did move */
    }
    if (_i == 1)
        ck_assert_double_gt(tu_max_strain(m, s2), 1e-4); /* the compliance is felt */
}
END_TEST

/* The matrix is factored on the first step; after that only when residual balancing
 * rescales the weights (at most once a step) or a link is removed. */
START_TEST(test_fixed_factors_once)
{
    m = tu_curtain(10, 0.05, 0);
    ck_assert_ptr_nonnull(m);
    m->global_matrix = MATRIX_FIXED;
    s = state_create(m);
    ck_assert_ptr_nonnull(s);
    solver_step(m, s);
    ck_assert_int_eq(direct_get_stats(s->cache->direct)->factorizations, 1);
    long total = 0;
    for (int k = 0; k < 240; k++) {
        solver_step(m, s);
        const long f = direct_get_stats(s->cache->direct)->factorizations;
        ck_assert_int_le(f, 1);
        total += f;
    }
    ck_assert_msg(total <= 24, "%ld factorisations in 240 steps", total); /* measured 2 */
    s->alive[5] = 0;
    solver_topology_changed(m, s, SOLVER_CHANGED_LINKS | SOLVER_CHANGED_FREE);
    solver_step(m, s);
    ck_assert_int_eq(direct_get_stats(s->cache->direct)->factorizations, 1);
    ck_assert_uint_eq(direct_get_stats(s->cache->direct)->graph_unknowns, m->npoints - 2);
}
END_TEST

/* A falling 30 x 30 curtain of rigid links, 10 iterations a step, 1 s: the fixed matrix
 * leaves it 17 % stretched at worst, Gauss-Seidel 123 % (the bounds leave room for rounding
 * and for changes of the weights that keep it several times better). */
START_TEST(test_fixed_beats_gauss_seidel)
{
    m = tu_curtain(30, 1.0 / 29.0, 0);
    ck_assert_ptr_nonnull(m);
    m->global_matrix = MATRIX_FIXED;
    s = state_create(m);
    m->global = 0;
    s2 = state_create(m);
    ck_assert_ptr_nonnull(s);
    ck_assert_ptr_nonnull(s2);
    for (int k = 0; k < 120; k++) {
        m->global = 1;
        solver_step(m, s);
        m->global = 0;
        solver_step(m, s2);
    }
    const double fixed = tu_max_strain(m, s), gs = tu_max_strain(m, s2);
    ck_assert_msg(fixed < 0.25, "fixed %g", fixed); /* measured 0.17 */
    ck_assert_msg(gs > 1.0, "Gauss-Seidel %g", gs); /* measured 1.23 */
}
END_TEST

/* The 2D path (two unknowns a point, right-hand sides in a stride of two): a 6 x 6 cloth in
 * the xy plane, 0.5 m across, whose shear links make it a truss, pinned at one top corner and
 * swinging down under gravity for 30 steps (its far corner moves 0.28 m), xpbd with compliance
 * 1e-5 m/N. The fixed matrix at 500 iterations a step lands within 1e-6 m of the Newton at 40
 * (measured 2e-14 m), both hold every link within 1e-3 (the compliance under tensions of a few
 * newtons: measured 2.9e-4), and the pin holds exactly. The same truss of rigid links is
 * tests/check_direct.c's test_rigid_truss_plane. */
START_TEST(test_fixed_2d_truss)
{
    m = tu_truss_2d();
    ck_assert_ptr_nonnull(m);
    m->method = METHOD_XPBD;
    for (size_t i = 0; i < m->nlinks; i++)
        m->links[i].compliance = 1e-5;
    ck_assert_int_eq(tu_newton_fixed_states(m, &s, &s2), 0);
    double swing = 0.0;
    for (int k = 0; k < 30; k++) {
        const double gap = tu_step_newton_fixed(m, s, s2, 500);
        swing = fmax(swing, tu_max_moved(m, s2));
        ck_assert_msg(gap < 1e-6, "step %d: %g m apart", k, gap);
        ck_assert_double_lt(tu_max_strain(m, s), 1e-3);
        ck_assert_double_lt(tu_max_strain(m, s2), 1e-3);
        ck_assert(s2->x[0].x == 0.0 && s2->x[0].y == 0.0 && s->x[0].x == 0.0 && s->x[0].y == 0.0);
    }
    ck_assert_double_gt(swing, 0.2); /* it did swing: 0.28 m */
}
END_TEST

static Suite *fixed_suite(void)
{
    Suite *su = suite_create("direct_fixed");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_fixed_converges_to_newton, 0, 2);
    tcase_add_test(tc, test_fixed_factors_once);
    tcase_add_test(tc, test_fixed_beats_gauss_seidel);
    tcase_add_test(tc, test_fixed_2d_truss);
    suite_add_tcase(su, tc);
    return su;
}

int main(void)
{
    return tu_run(fixed_suite());
}
