/* Names of how a run ended (run/result.h), as summary.json and messages write them. */
#include "run/result.h"

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
