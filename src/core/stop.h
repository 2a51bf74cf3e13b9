/* SIGINT and SIGTERM as a request to stop cleanly: while caught, a handler only notes the
 * signal, and long loops (stepping, drawing frames, reading trajectories, factorising) ask
 * stop_requested() at points where they can end with their files committed or removed. A
 * signal ignored on entry stays ignored (a shell starts background jobs with SIGINT
 * ignored). */
#ifndef CATENA_STOP_H
#define CATENA_STOP_H

#include <signal.h>

/* The handlers in place before stop_catch, restored by stop_restore. */
struct stop_handlers {
    struct sigaction old[2]; /* SIGINT, SIGTERM */
};

/* Catches SIGINT and SIGTERM (system calls they land in resume: SA_RESTART) and forgets any
 * signal noted before. */
void stop_catch(struct stop_handlers *h);

/* Puts back the handlers stop_catch found. */
void stop_restore(const struct stop_handlers *h);

/* The signal noted since stop_catch (SIGINT or SIGTERM), or 0. Async-signal-safe. */
int stop_requested(void);

/* "SIGINT", "SIGTERM", or "a signal", for messages. */
const char *stop_signal_name(int sig);

/* The exit status a process stopped by `sig` reports: 128 + sig (130 for SIGINT, 143 for
 * SIGTERM), as a shell does. */
int stop_exit_status(int sig);

#endif
