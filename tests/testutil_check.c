/* Test helpers that assert through Check (see testutil_check.h). */
#include "testutil_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"
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
