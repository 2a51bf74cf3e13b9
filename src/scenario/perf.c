/* How the solver runs rather than what it computes: solver.threads (the team that shares the
 * links of each step) and solver.kernel (batched or simple link loop). Neither changes a
 * result: every combination gives the same bits (tests/check_batch.c). */
#include "scenario/loader.h"

/* More threads than this would only wait on each other's barriers. */
#define SCENARIO_MAX_THREADS 64

static const char *const kernel_names[] = {"batched", "simple", NULL};

int scenario_read_perf(struct loader *ld)
{
    const cJSON *s = sjson_child(ld->root, "solver");
    long long threads = ld->m->threads;
    int kernel = (int)ld->m->kernel;
    if (sjson_get_integer(&ld->cx, s, "solver", "threads", 1, SCENARIO_MAX_THREADS, &threads) ||
        sjson_get_enum(&ld->cx, s, "solver", "kernel", kernel_names, &kernel))
        return CATENA_EINPUT;
    ld->m->threads = (int)threads;
    ld->m->kernel = (enum solver_kernel)kernel;
    return 0;
}
