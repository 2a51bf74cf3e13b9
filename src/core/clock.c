/* Clocks in seconds (see core/clock.h). */
#define _POSIX_C_SOURCE 200809L
#include "core/clock.h"

#include <time.h>

static double seconds(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double clock_monotonic_s(void)
{
    return seconds(CLOCK_MONOTONIC);
}

double clock_cpu_s(void)
{
    return seconds(CLOCK_PROCESS_CPUTIME_ID);
}
