/* Names of how a run ended (run/result.h), as summary.json and messages write them, and the
 * release of what a result owns. */
#include "run/result.h"

#include <stdlib.h>

const char *run_status_name(enum run_status status)
{
    switch (status) {
    case RUN_OK:
        return "ok";
    case RUN_DIVERGED:
        return "diverged";
    case RUN_INTERRUPTED:
        return "interrupted";
    case RUN_FAILED:
        return "failed";
    }
    return "?";
}

void run_result_free(struct run_result *r)
{
    free(r->checks);
    r->checks = NULL;
    r->nchecks = r->checks_failed = 0;
}
