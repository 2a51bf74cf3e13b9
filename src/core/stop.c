/* SIGINT and SIGTERM as a request to stop (core/stop.h): one flag for the process, written
 * only by the handler. */
#define _POSIX_C_SOURCE 200809L
#include "core/stop.h"

#include <stddef.h>

static const int stop_signals[] = {SIGINT, SIGTERM};
#define NSTOP (sizeof stop_signals / sizeof stop_signals[0])

static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
    stop_signal = sig;
}

void stop_catch(struct stop_handlers *h)
{
    struct sigaction sa = {0};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART; /* a write the signal lands in resumes instead of failing */
    stop_signal = 0;
    for (size_t i = 0; i < NSTOP; i++) {
        sigaction(stop_signals[i], NULL, &h->old[i]);
        if (h->old[i].sa_handler != SIG_IGN)
            sigaction(stop_signals[i], &sa, NULL);
    }
}

void stop_restore(const struct stop_handlers *h)
{
    for (size_t i = 0; i < NSTOP; i++)
        sigaction(stop_signals[i], &h->old[i], NULL);
}

int stop_requested(void)
{
    return stop_signal;
}

const char *stop_signal_name(int sig)
{
    return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

int stop_exit_status(int sig)
{
    return 128 + sig;
}
