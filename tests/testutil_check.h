/* Helpers for the Check tests that need libcheck (unlike testutil.h): the fixtures for a
 * scratch directory and for models and states, scenarios written inline, test cases and
 * the runner. */
#ifndef CATENA_TESTUTIL_CHECK_H
#define CATENA_TESTUTIL_CHECK_H

#include <check.h>

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

/* The fresh directory a test writes into: tu_dir_setup makes it, tu_dir_teardown removes it
 * (a checked fixture). tu_files_setup and tu_files_teardown do both fixtures' work, the
 * directory's and the models'. */
extern char *dir;
void tu_dir_setup(void);
void tu_dir_teardown(void);
void tu_files_setup(void);
void tu_files_teardown(void);

/* A test case of s named name, under the checked fixture setup/teardown (NULL: none). */
TCase *tu_tcase(Suite *s, const char *name, void (*setup)(void), void (*teardown)(void));

/* Runs every test of s; the exit status make check wants. */
int tu_run(Suite *s);

/* Parses scenario text written printf-style with ' for " (one static buffer), failing the
 * test when the loader refuses it: the scenario, or only its model. */
struct scenario *tu_load_scenario(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
struct model *tu_load(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
