/* A one-line progress display for a terminal: step/steps, steps per second and time left,
 * redrawn in place at most PROGRESS_INTERVAL apart and erased at the end. The caller
 * passes the clock, so the display never reads time itself and costs nothing between draws. */
#ifndef CATENA_PROGRESS_H
#define CATENA_PROGRESS_H

#include <stdio.h>

#define PROGRESS_INTERVAL 0.1 /* s between redraws: often enough to look live */

struct progress {
    FILE *fp;         /* a terminal (the caller checks) */
    long total;       /* steps in the run */
    double start;     /* monotonic clock at progress_start, s */
    double drawn;     /* monotonic clock at the last redraw, s */
    int visible;      /* 1 while a line is on screen */
    const char *unit; /* what is counted: "step" unless the caller sets another word */
};

/* Starts a display for a run of total steps at clock time now (s). Draws nothing yet. */
void progress_start(struct progress *p, FILE *fp, long total, double now);

/* Redraws the line for step done at clock time now, unless the last draw is too recent. */
void progress_update(struct progress *p, long step, double now);

/* Redraws the line as text (the caller's own wording: a sweep's "run 3/10 ...") at clock time
 * now, unless the last draw is too recent; force draws anyway (a count just changed). */
void progress_show(struct progress *p, double now, const char *text, int force);

/* Seconds as "1h02m03s", "2m03s" or "3s" ("?" when not finite or huge: no estimate yet) in buf
 * of at least 32 bytes. */
void progress_duration(char *buf, size_t size, double seconds);

/* Erases the line, leaving the cursor at the start of an empty line. */
void progress_end(struct progress *p);

#endif
