/* Reading trajectory.csv: the header "step,time,point,x,y[,z]", then rows grouped by step
 * with points 0..N-1 in order. N is learnt from the first frame, which is therefore read
 * at open (with one row of the second frame read ahead); later frames are exactly N rows. */
#define _POSIX_C_SOURCE 200809L
#include "io/traj_read_format.h"

#include "core/fmt_double.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum {
    CSV_LINE_MAX = 1024, /* a row of catena's is under 160 bytes */
    CSV_FIELDS_MAX = 6,
};

static const char *const column[CSV_FIELDS_MAX] = {"step", "time", "point", "x", "y", "z"};

struct csv_row {
    long step, point;
    double time;
    vec3 x;
};

struct csv_state {
    long line;           /* number of the line last read, 1-based */
    int nfields;         /* 3 + dims */
    struct csv_row next; /* first row of the next frame, read ahead while learning N */
    int has_next;
    long prev_step; /* step of the last complete frame; -1 before the first */
    char buf[CSV_LINE_MAX + 2];
};

/* Reads one line into s->buf without its newline; *eof at the end of the file. */
static int read_line(struct traj_reader *r, struct csv_state *s, int *eof, struct catena_error *err)
{
    *eof = 0;
    if (!fgets(s->buf, sizeof s->buf, r->fp)) {
        if (ferror(r->fp))
            return error_set(err, CATENA_EINPUT, "%s: read error: %s", r->path, strerror(errno));
        *eof = 1;
        return CATENA_OK;
    }
    s->line++;
    size_t n = strlen(s->buf);
    if (n == 0 || s->buf[n - 1] != '\n') {
        if (n > CSV_LINE_MAX)
            return error_set(err, CATENA_EINPUT, "%s:%ld: line longer than %d bytes", r->path,
                             s->line, CSV_LINE_MAX);
        if (!feof(r->fp))
            return error_set(err, CATENA_EINPUT, "%s:%ld: NUL byte in the line", r->path, s->line);
        /* catena ends every row with a newline: a last line without one was cut short. */
        return error_set(err, CATENA_EINPUT, "%s:%ld: truncated: the last line has no newline",
                         r->path, s->line);
    }
    s->buf[--n] = '\0';
    if (n > 0 && s->buf[n - 1] == '\r')
        s->buf[--n] = '\0';
    return CATENA_OK;
}

static int bad_field(struct traj_reader *r, struct csv_state *s, int col, const char *text,
                     const char *what, struct catena_error *err)
{
    char q[TRAJ_QUOTE_SIZE];
    return error_set(err, CATENA_EINPUT, "%s:%ld: %s: \"%s\" is not %s", r->path, s->line,
                     column[col], traj_read_quote(q, sizeof q, text), what);
}

static int parse_long(struct traj_reader *r, struct csv_state *s, int col, const char *text,
                      long *out, struct catena_error *err)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end || errno || v < 0)
        return bad_field(r, s, col, text, "an integer >= 0", err);
    *out = v;
    return CATENA_OK;
}

static int parse_double(struct traj_reader *r, struct csv_state *s, int col, const char *text,
                        double *out, struct catena_error *err)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end)
        return bad_field(r, s, col, text, "a number", err);
    *out = v;
    return CATENA_OK;
}

/* Splits s->buf at commas and parses the fields into *row. */
static int parse_row(struct traj_reader *r, struct csv_state *s, struct csv_row *row,
                     struct catena_error *err)
{
    char *field[CSV_FIELDS_MAX];
    int n = 0;
    for (char *p = s->buf;; p++) {
        if (n < CSV_FIELDS_MAX)
            field[n] = p;
        n++;
        p = strchr(p, ',');
        if (!p)
            break;
        *p = '\0';
    }
    if (n != s->nfields)
        return error_set(err, CATENA_EINPUT, "%s:%ld: expected %d fields, got %d", r->path, s->line,
                         s->nfields, n);
    double xyz[3] = {0, 0, 0};
    if (parse_long(r, s, 0, field[0], &row->step, err) ||
        parse_double(r, s, 1, field[1], &row->time, err) ||
        parse_long(r, s, 2, field[2], &row->point, err))
        return CATENA_EINPUT;
    for (int c = 3; c < n; c++)
        if (parse_double(r, s, c, field[c], &xyz[c - 3], err))
            return CATENA_EINPUT;
    row->x = v3(xyz[0], xyz[1], xyz[2]);
    return CATENA_OK;
}

/* The next row: the one read ahead, else a fresh line; *eof at the end of the file. */
static int next_row(struct traj_reader *r, struct csv_state *s, struct csv_row *row, int *eof,
                    struct catena_error *err)
{
    if (s->has_next) {
        s->has_next = 0;
        *row = s->next;
        *eof = 0;
        return CATENA_OK;
    }
    int rc = read_line(r, s, eof, err);
    if (rc || *eof)
        return rc;
    return parse_row(r, s, row, err);
}

/* Checks a row that opens a frame and starts the frame with it. */
static int start_frame(struct traj_reader *r, struct csv_state *s, const struct csv_row *row,
                       struct catena_error *err)
{
    if (s->prev_step >= 0 && row->step == s->prev_step)
        return error_set(err, CATENA_EINPUT, "%s:%ld: frame at step %ld has more than %zu points",
                         r->path, s->line, row->step, r->info.npoints);
    if (s->prev_step >= 0 && row->step < s->prev_step)
        return error_set(err, CATENA_EINPUT,
                         "%s:%ld: step %ld after step %ld (steps must increase)", r->path, s->line,
                         row->step, s->prev_step);
    if (row->point != 0)
        return error_set(err, CATENA_EINPUT,
                         "%s:%ld: expected point 0 to start the frame at step %ld, got %ld",
                         r->path, s->line, row->step, row->point);
    r->frame.step = row->step;
    r->frame.time = row->time;
    r->x[0] = row->x;
    return CATENA_OK;
}

/* Checks a row that continues the frame as its point `count`. */
static int continue_frame(struct traj_reader *r, struct csv_state *s, const struct csv_row *row,
                          size_t count, struct catena_error *err)
{
    if (row->point != (long)count)
        return error_set(err, CATENA_EINPUT,
                         "%s:%ld: expected point %zu of the frame at step %ld, got %ld", r->path,
                         s->line, count, row->step, row->point);
    /* Times within a frame are one value printed N times: any difference is damage. */
    if (memcmp(&row->time, &r->frame.time, sizeof row->time) != 0) {
        char now[FMT_DOUBLE_SIZE], before[FMT_DOUBLE_SIZE];
        fmt_double(now, row->time);
        fmt_double(before, r->frame.time);
        return error_set(err, CATENA_EINPUT,
                         "%s:%ld: time %s differs from %s earlier in the frame at step %ld",
                         r->path, s->line, now, before, row->step);
    }
    r->x[count] = row->x;
    return CATENA_OK;
}

/* Reads the first frame, growing r->x, until the step changes (that row is kept for the
 * next frame) or the file ends; its length is the point count. */
static int read_first_frame(struct traj_reader *r, struct csv_state *s, struct catena_error *err)
{
    size_t cap = 0, count = 0;
    for (;;) {
        struct csv_row row;
        int eof;
        if (next_row(r, s, &row, &eof, err))
            return CATENA_EINPUT;
        if (eof && count == 0)
            return error_set(err, CATENA_EINPUT, "%s: no frames", r->path);
        if (eof || (count > 0 && row.step != r->frame.step)) {
            s->next = row;
            s->has_next = !eof;
            break;
        }
        if (count == cap) {
            size_t ncap = cap ? 2 * cap : 64;
            vec3 *x = realloc(r->x, ncap * sizeof *x);
            if (!x)
                return error_set(err, CATENA_EINPUT, "%s:%ld: out of memory", r->path, s->line);
            r->x = x;
            cap = ncap;
        }
        if (count == 0 ? start_frame(r, s, &row, err) : continue_frame(r, s, &row, count, err))
            return CATENA_EINPUT;
        count++;
    }
    r->info.npoints = count;
    s->prev_step = r->frame.step;
    return CATENA_OK;
}

static int csv_open(struct traj_reader *r, struct catena_error *err)
{
    struct csv_state *s = calloc(1, sizeof *s);
    if (!s)
        return error_set(err, CATENA_EINPUT, "%s: out of memory", r->path);
    r->state = s;
    s->prev_step = -1;
    char q[TRAJ_QUOTE_SIZE];
    int eof;
    if (read_line(r, s, &eof, err))
        return CATENA_EINPUT;
    if (eof)
        return error_set(err, CATENA_EINPUT, "%s: empty file", r->path);
    if (strcmp(s->buf, "step,time,point,x,y") == 0)
        r->info.dims = 2;
    else if (strcmp(s->buf, "step,time,point,x,y,z") == 0)
        r->info.dims = 3;
    else
        return error_set(err, CATENA_EINPUT,
                         "%s:1: expected the header \"step,time,point,x,y\" or "
                         "\"step,time,point,x,y,z\", got \"%s\"",
                         r->path, traj_read_quote(q, sizeof q, s->buf));
    s->nfields = 3 + r->info.dims;
    r->info.has_steps = 1;
    if (read_first_frame(r, s, err))
        return CATENA_EINPUT;
    r->pending = 1;
    return CATENA_OK;
}

static int csv_next(struct traj_reader *r, int *more, struct catena_error *err)
{
    struct csv_state *s = r->state;
    size_t n = r->info.npoints;
    for (size_t count = 0; count < n; count++) {
        struct csv_row row;
        int eof;
        if (next_row(r, s, &row, &eof, err))
            return CATENA_EINPUT;
        if (eof && count == 0) {
            *more = 0;
            return CATENA_OK;
        }
        if (eof)
            return error_set(err, CATENA_EINPUT,
                             "%s:%ld: truncated: frame at step %ld has %zu of %zu points", r->path,
                             s->line, r->frame.step, count, n);
        if (count > 0 && row.step != r->frame.step)
            return error_set(err, CATENA_EINPUT, "%s:%ld: frame at step %ld has %zu of %zu points",
                             r->path, s->line, r->frame.step, count, n);
        if (count == 0 ? start_frame(r, s, &row, err) : continue_frame(r, s, &row, count, err))
            return CATENA_EINPUT;
    }
    s->prev_step = r->frame.step;
    *more = 1;
    return CATENA_OK;
}

static void csv_close(struct traj_reader *r)
{
    free(r->state);
}

const struct traj_read_ops traj_read_csv_ops = {
    .open = csv_open,
    .next = csv_next,
    .close = csv_close,
};
