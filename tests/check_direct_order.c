/* What solver.global says when SuiteSparse's AMD ordering fails. This program defines its own
 * amd_order, which the linker takes before libamd's, so catena's calls land here and fail as
 * each test tells them: out of memory is said as such and suggests Gauss-Seidel; invalid input
 * is said to be a bug in catena and names the body whose links AMD refused; an order that
 * works (here the identity) still gives the estimate. Neither failure can be caused from a
 * scenario: AMD runs out of memory only past the machine's, and refuses only a pattern with
 * an index out of range, which the loader never lets through. */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include <suitesparse/amd.h>

#include "core/error.h"
#include "model/model.h"
#include "scenario/scenario.h"
#include "solver/solver.h"
#include "testutil.h"
#include "testutil_check.h"

static int amd_result; /* what the next calls of amd_order return */
static int amd_calls;

int amd_order(int n, const int Ap[], const int Ai[], int P[], double Control[], double Info[])
{
    (void)Ap;
    (void)Ai;
    (void)Control;
    (void)Info;
    amd_calls++;
    for (int k = 0; k < n; k++)
        P[k] = k;
    return amd_result;
}

static struct model *m;

static void setup(void)
{
    m = tu_model_of(tu_cloth(6, 1.0, 2));
    ck_assert_ptr_nonnull(m);
    m->global = 1;
    amd_calls = 0;
}

static void teardown(void)
{
    model_destroy(m);
}

START_TEST(test_order_out_of_memory)
{
    amd_result = AMD_OUT_OF_MEMORY;
    struct catena_error err;
    ck_assert_int_eq(solver_check(m, &err), CATENA_EFAIL);
    ck_assert_msg(strstr(err.msg, "solver.global: out of memory") && strstr(err.msg, "36 points") &&
                      strstr(err.msg, "Gauss-Seidel") && !strstr(err.msg, "bug"),
                  "%s", err.msg);
    ck_assert_int_eq(amd_calls, 1);
}
END_TEST

START_TEST(test_order_invalid_is_a_bug)
{
    amd_result = AMD_INVALID;
    struct catena_error err;
    ck_assert_int_eq(solver_check(m, &err), CATENA_EFAIL);
    ck_assert_msg(strstr(err.msg, "internal error") && strstr(err.msg, "bug in catena") &&
                      strstr(err.msg, "body 'cloth'") && strstr(err.msg, "AMD_INVALID") &&
                      !strstr(err.msg, "out of memory"),
                  "%s", err.msg);
    ck_assert_int_eq(amd_calls, 2); /* the whole graph, then the body's own links */
}
END_TEST

START_TEST(test_order_ok_estimates)
{
    amd_result = AMD_OK;
    struct catena_error err;
    ck_assert_int_eq(solver_check(m, &err), CATENA_OK);
    m->global_limit = 1.0; /* the identity order's factor still costs more than one operation */
    ck_assert_int_eq(solver_check(m, &err), CATENA_EINPUT);
    ck_assert_msg(strstr(err.msg, "body 'cloth'") && strstr(err.msg, "solver.global_limit"), "%s",
                  err.msg);
}
END_TEST

static Suite *order_suite(void)
{
    Suite *su = suite_create("direct_order");
    TCase *tc = tu_tcase(su, "amd", setup, teardown);
    tcase_add_test(tc, test_order_out_of_memory);
    tcase_add_test(tc, test_order_invalid_is_a_bug);
    tcase_add_test(tc, test_order_ok_estimates);
    return su;
}

int main(void)
{
    return tu_run(order_suite());
}
