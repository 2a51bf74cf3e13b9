/* Clocks in seconds, as doubles: progress displays, run times in summaries, benchmarks. */
#ifndef CATENA_CLOCK_H
#define CATENA_CLOCK_H

/* Monotonic seconds: wall time that clock adjustments do not disturb (CLOCK_MONOTONIC). Only
 * differences mean anything. */
double clock_monotonic_s(void);

/* Processor time of this process, all threads, s (CLOCK_PROCESS_CPUTIME_ID). */
double clock_cpu_s(void);

#endif
