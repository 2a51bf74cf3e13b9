/* Child processes, at most N at a time: job i is a program run with its own arguments, its
 * standard output and error going to a log file and its standard input reading nothing.
 * Jobs start in index order; the caller hears of each end through a callback. SIGINT and
 * SIGTERM stop the pool: no job starts after one, the running ones get the signal (a kill
 * aimed at this process alone would not reach them) and are waited for. The parent sleeps in
 * sigsuspend (pselect, when it has a progress line to redraw) with SIGCHLD, SIGINT and
 * SIGTERM blocked otherwise, so that a child's end or a stop request is never missed between
 * a check and the wait.
 *
 * Glossary
 *   job   one child process to run: argv and a log file
 *   slot  room for a running job; there are `jobs` of them */
#ifndef CATENA_PROCPOOL_H
#define CATENA_PROCPOOL_H

#include <stddef.h>

#include "core/error.h"

/* What job i runs: argv[0] is the program (looked up in PATH when it has no '/'), argv is
 * NULL-terminated; log is created (or truncated) to take its output. */
struct procpool_job {
    char **argv;
    char *log;
};

struct procpool_options {
    size_t n;  /* jobs 0 .. n-1 */
    int slots; /* at most this many at a time, at least 1 */
    /* Fills *job for job i just before it starts: 0 to start it, 1 to skip it (it never runs
     * and done is not called), else an error code with err set: job i does not start, nor
     * any after it, and done hears of it with code -1. */
    int (*prepare)(void *ctx, size_t i, struct procpool_job *job, struct catena_error *err);
    /* Frees what prepare put in *job, once the child has started (or could not); may be
     * NULL. */
    void (*release)(void *ctx, size_t i, struct procpool_job *job);
    /* Job i ended with code: its exit status, 128 + N when killed by signal N, or -1 when it
     * could not start (why says why; NULL otherwise). */
    void (*done)(void *ctx, size_t i, int code, const struct catena_error *why);
    /* Called about every tick_s seconds while jobs run (to redraw a progress line); may be
     * NULL, and then the pool sleeps until a job ends. */
    void (*tick)(void *ctx);
    double tick_s;
    void *ctx;
};

/* Runs the jobs until all have ended, a stop signal came or a job could not start. Returns
 * how many jobs were started or skipped (those after it were not), and in *stop_signal the
 * signal that stopped the pool, or 0. */
size_t procpool_run(const struct procpool_options *o, int *stop_signal);

/* The processors this process may run on (sched_getaffinity), at least 1. */
int procpool_cpus(void);

#endif
