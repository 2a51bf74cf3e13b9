/* Test helpers that assert through Check (see testutil_check.h). */
#include "testutil_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"
#include "solver/solver.h"
#include "solver/state.h"
#include "testutil.h"

char *dir;

void tu_dir_setup(void)
{
    dir = tu_tmpdir();
    ck_assert_ptr_nonnull(dir);
}

void tu_dir_teardown(void)
{
    tu_rmtree(dir);
    free(dir);
}

TCase *tu_tcase(Suite *s, const char *name, void (*setup)(void), void (*teardown)(void))
{
    TCase *tc = tcase_create(name);
    if (setup || teardown)
        tcase_add_checked_fixture(tc, setup, teardown);
    suite_add_tcase(s, tc);
    return tc;
}

int tu_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

static struct scenario *vload(const char *fmt, va_list ap)
{
    static char buf[8192];
    vsnprintf(buf, sizeof buf, fmt, ap);
    for (char *p = buf; *p; p++)
        if (*p == '\'')
            *p = '"';
    struct catena_error err;
    struct scenario *sc = scenario_parse("test.json", buf, strlen(buf), NULL, 0, &err);
    ck_assert_msg(sc != NULL, "scenario refused: %s", err.msg);
    return sc;
}

struct scenario *tu_load_scenario(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    struct scenario *sc = vload(fmt, ap);
    va_end(ap);
    return sc;
}

struct model *tu_load(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    struct scenario *sc = vload(fmt, ap);
    va_end(ap);
    return tu_model_of(sc);
}

void tu_assert_threads_same_bytes(struct model *m, long steps)
{
    struct state *st[3];
    for (int t = 0; t < 3; t++) {
        m->threads = t + 1;
        st[t] = state_create(m);
        ck_assert_ptr_nonnull(st[t]);
    }
    for (long k = 0; k < steps; k++)
        for (int t = 0; t < 3; t++) {
            solver_step(m, st[t]);
            if (t > 0)
                ck_assert_mem_eq(st[t]->x, st[0]->x, m->npoints * sizeof *st[0]->x);
        }
    for (int t = 0; t < 3; t++)
        state_destroy(st[t]);
}
