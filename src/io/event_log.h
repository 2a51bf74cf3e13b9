/* events.csv: one row per thing that happened in a run, in the order it happened:
 * "step,time,kind,link,point_a,point_b,stretch,force". Fields that do not apply to a kind
 * are empty. Written through an outfile, so the file appears only when complete. */
#ifndef CATENA_WRITE_EVENTS_H
#define CATENA_WRITE_EVENTS_H

#include "core/error.h"
#include "core/outfile.h"

/* events.csv's first line (without its newline). */
#define EVENT_LOG_HEADER "step,time,kind,link,point_a,point_b,stretch,force"

/* One row; link, a, b < 0 and non-finite stretch, force are written empty. */
struct event_row {
    long step;
    double time;
    const char *kind;
    long link, a, b;
    double stretch, force;
};

struct event_log {
    struct outfile out;
    int open;
};

/* Opens DIR/events.csv and writes the header. */
int event_log_open(struct event_log *lg, const char *dir, struct catena_error *err);

/* Appends a row (nothing when the log is not open); write errors surface at commit. */
void event_log_write(struct event_log *lg, const struct event_row *r);

/* Commits the file; a log never opened commits nothing. */
int event_log_commit(struct event_log *lg, struct catena_error *err);

/* Drops the file. Safe on a log never opened or already committed. */
void event_log_abort(struct event_log *lg);

#endif
