/* The models-and-states fixture (see testutil_models.h). */
#include "testutil_models.h"

#include <stddef.h>

#include "testutil_check.h"

struct model *m, *m2;
struct state *s, *s2;
struct scenario *scen;

void tu_models_setup(void)
{
    m = m2 = NULL;
    s = s2 = NULL;
    scen = NULL;
}

void tu_models_teardown(void)
{
    state_destroy(s);
    state_destroy(s2);
    if (scen && m == scen->model)
        m = NULL; /* freed with the scenario */
    scenario_destroy(scen);
    model_destroy(m);
    model_destroy(m2);
}

void tu_use(struct scenario *sc)
{
    ck_assert_ptr_nonnull(sc);
    scen = sc;
    m = sc->model;
}

void tu_files_setup(void)
{
    tu_dir_setup();
    tu_models_setup();
}

void tu_files_teardown(void)
{
    tu_models_teardown();
    tu_dir_teardown();
}
