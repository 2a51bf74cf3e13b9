/* events.csv rows with the writers' number formats: integers in decimal, doubles in the
 * shortest form that reads back to the same bits. */
#include "io/event_log.h"

#include <math.h>
#include <string.h>

#include "core/fmt_double.h"

#define HEADER EVENT_LOG_HEADER "\n"

int event_log_open(struct event_log *lg, const char *dir, struct catena_error *err)
{
    *lg = (struct event_log){0};
    const int rc = outfile_open(&lg->out, dir, "events.csv", err);
    if (rc)
        return rc;
    lg->open = 1;
    fputs(HEADER, lg->out.fp);
    return 0;
}

static char *put_long(char *p, long v)
{
    if (v >= 0)
        p += fmt_long(p, v);
    *p++ = ',';
    return p;
}

static char *put_double(char *p, double v)
{
    if (isfinite(v))
        p += fmt_double(p, v);
    return p;
}

void event_log_write(struct event_log *lg, const struct event_row *r)
{
    if (!lg->open)
        return;
    char row[8 * FMT_DOUBLE_SIZE + 64];
    char *p = row;
    p = put_long(p, r->step);
    p = put_double(p, r->time);
    *p++ = ',';
    const size_t n = strlen(r->kind);
    memcpy(p, r->kind, n);
    p += n;
    *p++ = ',';
    p = put_long(p, r->link);
    p = put_long(p, r->a);
    p = put_long(p, r->b);
    p = put_double(p, r->stretch);
    *p++ = ',';
    p = put_double(p, r->force);
    *p++ = '\n';
    fwrite(row, 1, (size_t)(p - row), lg->out.fp);
}

int event_log_commit(struct event_log *lg, struct catena_error *err)
{
    if (!lg->open)
        return 0;
    lg->open = 0;
    return outfile_commit(&lg->out, err);
}

void event_log_abort(struct event_log *lg)
{
    if (lg->open)
        outfile_abort(&lg->out);
    lg->open = 0;
}
