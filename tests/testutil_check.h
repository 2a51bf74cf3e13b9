/* Helpers for the Check tests that assert as they go (so they need libcheck, unlike
 * testutil.h): scenarios written inline, and the fixture for models and states. */
#ifndef CATENA_TESTUTIL_CHECK_H
#define CATENA_TESTUTIL_CHECK_H

#include "model.h"
#include "state.h"

/* The models and states a test builds into; tu_models_setup clears them and
 * tu_models_teardown frees them, even when an assertion fails (a checked fixture). */
extern struct model *m, *m2;
extern struct state *s, *s2;
void tu_models_setup(void);
void tu_models_teardown(void);

/* Parses scenario text written printf-style with ' for " (one static buffer), failing the
 * test when the loader refuses it. */
struct model *tu_load(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
