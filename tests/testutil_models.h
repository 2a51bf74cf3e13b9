/* The Check fixture for the tests that build models and states into shared globals (kept
 * apart from testutil_check.h so that the other tests may name their own locals m and s). */
#ifndef CATENA_TESTUTIL_MODELS_H
#define CATENA_TESTUTIL_MODELS_H

#include "model/model.h"
#include "scenario/scenario.h"
#include "solver/state.h"

/* The models, states and scenario a test builds into; tu_models_setup clears them and
 * tu_models_teardown frees them, even when an assertion fails (a checked fixture). */
extern struct model *m, *m2;
extern struct state *s, *s2;
extern struct scenario *scen;
void tu_models_setup(void);
void tu_models_teardown(void);

/* Makes sc (not NULL) the test's scenario, and m its model: the scenario owns it. */
void tu_use(struct scenario *sc);

/* tu_files_setup and tu_files_teardown do both fixtures' work: the directory's
 * (tu_dir_setup in testutil_check.h) and the models'. */
void tu_files_setup(void);
void tu_files_teardown(void);

#endif
