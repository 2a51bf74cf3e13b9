/* Helpers for the Check tests that need libcheck (unlike testutil.h): the fixture for a
 * scratch directory, scenarios written inline, test cases and the runner. The fixture for
 * models and states is in testutil_models.h. */
#ifndef CATENA_TESTUTIL_CHECK_H
#define CATENA_TESTUTIL_CHECK_H

#include <check.h>

#include "model/model.h"
#include "scenario/scenario.h"

/* The fresh directory a test writes into: tu_dir_setup makes it, tu_dir_teardown removes it
 * (a checked fixture). */
extern char *dir;
void tu_dir_setup(void);
void tu_dir_teardown(void);

/* A test case of s named name, under the checked fixture setup/teardown (NULL: none). */
TCase *tu_tcase(Suite *s, const char *name, void (*setup)(void), void (*teardown)(void));

/* Runs every test of s; the exit status make check wants. */
int tu_run(Suite *s);

/* Parses scenario text written printf-style with ' for " (one static buffer), failing the
 * test when the loader refuses it: the scenario, or only its model. */
struct scenario *tu_load_scenario(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
struct model *tu_load(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Steps m `steps` times in three states made with 1, 2 and 3 threads, side by side, failing
 * the test unless the three hold the same positions, byte for byte, after every step. */
void tu_assert_threads_same_bytes(struct model *m, long steps);

#endif
