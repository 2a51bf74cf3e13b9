/* Test helpers that assert through Check (see testutil_check.h). */
#include "testutil_check.h"

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "scenario.h"

struct model *m, *m2;
struct state *s, *s2;

void tu_models_setup(void)
{
    m = m2 = NULL;
    s = s2 = NULL;
}

void tu_models_teardown(void)
{
    state_destroy(s);
    state_destroy(s2);
    model_destroy(m);
    model_destroy(m2);
}

struct model *tu_load(const char *fmt, ...)
{
    static char buf[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    for (char *p = buf; *p; p++)
        if (*p == '\'')
            *p = '"';
    struct catena_error err;
    struct model *r = scenario_parse("test.json", buf, strlen(buf), NULL, 0, &err);
    ck_assert_msg(r != NULL, "scenario refused: %s", err.msg);
    return r;
}
