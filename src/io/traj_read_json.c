/* Reading trajectory.json ({"catena_trajectory":1, ..., "points":N, "frames":[{...}, ...]})
 * without holding the whole file: the outer object and the frames array are read by hand,
 * and each value in them goes through the JSON scanner (core/json_scan.h) one event at a
 * time, the positions straight into the frame. Memory is one value's text, whatever the
 * number of frames. */
#define _POSIX_C_SOURCE 200809L
#include "io/traj_read_format.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_scan.h"

enum {
    JSON_META_MAX = 1 << 20,    /* longest value outside the frames, bytes */
    JSON_POINT_MAX_BYTES = 256, /* generous text per point of a frame ("[x,y,z]" is < 80) */
};

enum { SEEN_VERSION = 1, SEEN_DIMENSIONS = 2, SEEN_POINTS = 4, SEEN_FRAMES = 8 };

/* The largest integer a double holds exactly; steps and point counts stay below it. */
#define EXACT_MAX 9007199254740992.0

struct json_state {
    struct json_scan sc;
    unsigned seen;  /* SEEN_* */
    long prev_step; /* -1 before the first frame */
    size_t x_cap;   /* points r->x has room for */
};

/* One frame as scanned: what it holds, judged once the frame is known to be JSON. */
struct frame_scan {
    int has_step, has_time, has_x; /* 0 absent, 1 read, -1 of the wrong type */
    double step, time;
    size_t points; /* in x */
    int bad;       /* a point of x is not an array of numbers: */
    size_t bad_i;  /* the first one, */
    int bad_k;     /* and its first non-number (-1: not an array of dims) */
};

static int syntax(struct traj_reader *r, size_t offset, struct catena_error *err, const char *fmt,
                  ...) __attribute__((format(printf, 4, 5)));

static int syntax(struct traj_reader *r, size_t offset, struct catena_error *err, const char *fmt,
                  ...)
{
    struct json_state *s = r->state;
    char msg[512];
    size_t line, col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    json_scan_where(&s->sc, offset, &line, &col);
    return error_set(err, CATENA_EINPUT, "%s:%zu:%zu: %s", r->path, line, col, msg);
}

/* The scanner stopped inside `what`. */
static int scan_failed(struct traj_reader *r, const char *what, struct catena_error *err)
{
    const struct json_scan *sc = &((struct json_state *)r->state)->sc;
    switch (sc->status) {
    case JSON_SCAN_TRUNCATED:
        return syntax(r, json_scan_length(sc), err, "truncated: end of file in %s", what);
    case JSON_SCAN_RANGE:
        return syntax(r, sc->at, err, "%s in %s", sc->what, what);
    case JSON_SCAN_TOO_LONG:
        return syntax(r, sc->at, err, "%s is longer than %zu bytes", what, sc->max_value);
    case JSON_SCAN_READ:
        return error_set(err, CATENA_EINPUT, "%s: read error: %s", r->path,
                         strerror(sc->read_errno));
    case JSON_SCAN_NOMEM:
        return error_set(err, CATENA_EINPUT, "%s: out of memory", r->path);
    default:
        return syntax(r, sc->at, err, "JSON syntax error in %s", what);
    }
}

/* The error for byte c (as json_scan_peek gives it) found where `expected` should be. */
static int unexpected(struct traj_reader *r, int c, const char *expected, const char *context,
                      struct catena_error *err)
{
    struct json_state *s = r->state;
    const size_t here = json_scan_offset(&s->sc);
    if (c == JSON_SCAN_ERROR)
        return scan_failed(r, context, err);
    if (c == JSON_SCAN_END)
        return syntax(r, here, err, "truncated: end of file %s", context);
    if (c >= 0x20 && c < 0x7f)
        return syntax(r, here, err, "expected %s %s, got '%c'", expected, context, c);
    return syntax(r, here, err, "expected %s %s, got byte 0x%02x", expected, context, c);
}

static int is_delimiter(int c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == ']' || c == '}';
}

/* Starts the value `what` (at most max bytes): its first event in *ev. */
static int value_begin(struct traj_reader *r, const char *what, size_t max, enum json_event *ev,
                       struct catena_error *err)
{
    struct json_state *s = r->state;
    const int c = json_scan_peek(&s->sc);
    if (c < 0 || c == ':' || is_delimiter(c)) {
        char context[64];
        snprintf(context, sizeof context, "%s %s", c == JSON_SCAN_END ? "before" : "for", what);
        return unexpected(r, c, "a value", context, err);
    }
    s->sc.max_value = max;
    if (json_scan_next(&s->sc, ev))
        return scan_failed(r, what, err);
    if (*ev == JSON_BEGIN_OBJECT || *ev == JSON_BEGIN_ARRAY || *ev == JSON_STRING)
        return CATENA_OK;
    /* A number or literal runs to a delimiter: "1a" is a broken value, not 1 then 'a'. */
    const size_t end = json_scan_offset(&s->sc);
    const int after = json_scan_peek(&s->sc);
    if (json_scan_offset(&s->sc) == end && after >= 0 && !is_delimiter(after))
        return syntax(r, end, err, "JSON syntax error in %s", what);
    return CATENA_OK;
}

/* An integer in [lo, hi] (hi at most 2^53, where doubles stop being exact integers). */
static int is_integer(double v, double lo, double hi)
{
    return v == floor(v) && v >= lo && v <= hi;
}

/* One of the keys before "frames" (or after it): v is its value's first event (num its
 * number); keys catena does not use are skipped. */
static int meta_value(struct traj_reader *r, const char *key, enum json_event v, double num,
                      struct catena_error *err)
{
    struct json_state *s = r->state;
    static const struct {
        const char *key;
        unsigned bit;
    } known[] = {{"catena_trajectory", SEEN_VERSION},
                 {"dimensions", SEEN_DIMENSIONS},
                 {"points", SEEN_POINTS},
                 {"frames", SEEN_FRAMES}};
    unsigned bit = 0;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(key, known[i].key) == 0)
            bit = known[i].bit;
    if (bit & s->seen)
        return error_set(err, CATENA_EINPUT, "%s: %s: duplicate key", r->path, key);
    s->seen |= bit;
    const int number = v == JSON_NUMBER;
    if (bit == SEEN_VERSION && !number)
        return error_set(err, CATENA_EINPUT, "%s: catena_trajectory: expected a version number",
                         r->path);
    if (bit == SEEN_VERSION && num != 1)
        return error_set(err, CATENA_EINPUT,
                         "%s: catena_trajectory: version %g is not supported (catena reads 1)",
                         r->path, num);
    if (bit == SEEN_DIMENSIONS) {
        if (!number || !is_integer(num, 2, 3))
            return error_set(err, CATENA_EINPUT, "%s: dimensions: expected 2 or 3", r->path);
        r->info.dims = (int)num;
    }
    if (bit == SEEN_POINTS) {
        if (!number || !is_integer(num, 1, EXACT_MAX) || num > (double)(SIZE_MAX / sizeof(vec3)))
            return error_set(err, CATENA_EINPUT, "%s: points: expected an integer >= 1", r->path);
        r->info.npoints = (size_t)num;
    }
    return CATENA_OK;
}

/* Reads a key of the trajectory object; name gets it as messages show it. */
static int read_key(struct traj_reader *r, char name[TRAJ_QUOTE_SIZE], struct catena_error *err)
{
    struct json_state *s = r->state;
    enum json_event ev;
    if (value_begin(r, "a key", JSON_META_MAX, &ev, err))
        return CATENA_EINPUT;
    /* The key names its value in messages: made printable, so that one stays on a line (the
     * quoted form shows at most the first TRAJ_QUOTE_SIZE bytes). */
    char key[TRAJ_QUOTE_SIZE];
    json_scan_string(&s->sc, key, sizeof key);
    traj_read_quote(name, TRAJ_QUOTE_SIZE, key);
    return CATENA_OK;
}

/* Reads "key": value pairs until the "frames" array opens (*frames = 1, just after its
 * '[') or the object closes (*frames = 0). `first`: right after the '{'. */
static int members(struct traj_reader *r, int first, int *frames, struct catena_error *err)
{
    struct json_scan *sc = &((struct json_state *)r->state)->sc;
    for (;;) {
        int c = json_scan_peek(sc);
        if (first && c == '}') {
            json_scan_take(sc);
            return *frames = 0, CATENA_OK;
        }
        first = 0;
        if (c != '"')
            return unexpected(r, c, "a key", "in the trajectory object", err);
        char name[TRAJ_QUOTE_SIZE];
        if (read_key(r, name, err))
            return CATENA_EINPUT;
        if ((c = json_scan_peek(sc)) != ':')
            return unexpected(r, c, "':'", "after a key", err);
        json_scan_take(sc);
        c = json_scan_peek(sc);
        if (strcmp(name, "frames") == 0) {
            if (meta_value(r, name, JSON_NULL, 0, err))
                return CATENA_EINPUT;
            if (c != '[')
                return unexpected(r, c, "'['", "to open frames", err);
            json_scan_take(sc);
            return *frames = 1, CATENA_OK;
        }
        enum json_event ev;
        if (value_begin(r, name, JSON_META_MAX, &ev, err))
            return CATENA_EINPUT;
        const double num = sc->number;
        if (json_scan_skip(sc, ev))
            return scan_failed(r, name, err);
        if (meta_value(r, name, ev, num, err))
            return CATENA_EINPUT;
        if ((c = json_scan_peek(sc)) == '}') {
            json_scan_take(sc);
            return *frames = 0, CATENA_OK;
        }
        if (c != ',')
            return unexpected(r, c, "',' or '}'", "in the trajectory object", err);
        json_scan_take(sc);
    }
}

/* The point count and dimensions must be known before the first frame arrives. */
static int check_meta(struct traj_reader *r, struct catena_error *err)
{
    const struct json_state *s = r->state;
    const char *missing = !(s->seen & SEEN_VERSION)      ? "catena_trajectory"
                          : !(s->seen & SEEN_DIMENSIONS) ? "dimensions"
                          : !(s->seen & SEEN_POINTS)     ? "points"
                                                         : NULL;
    if (missing)
        return error_set(err, CATENA_EINPUT, "%s: %s: missing before \"frames\"", r->path, missing);
    return CATENA_OK;
}

/* Longest text a frame may have: its points and as much again as the metadata. */
static size_t frame_max(const struct traj_reader *r)
{
    const size_t per_point = JSON_POINT_MAX_BYTES;
    return r->info.npoints > (SIZE_MAX - JSON_META_MAX) / per_point
               ? SIZE_MAX
               : JSON_META_MAX + r->info.npoints * per_point;
}

/* Room in r->x for point i (< npoints), grown as points arrive, so that a header claiming
 * more points than the frames hold allocates nothing for them. */
static int room_for(struct traj_reader *r, size_t i, struct catena_error *err)
{
    struct json_state *s = r->state;
    if (i < s->x_cap)
        return CATENA_OK;
    size_t cap = s->x_cap ? 2 * s->x_cap : 1024;
    if (cap > r->info.npoints)
        cap = r->info.npoints;
    vec3 *x = realloc(r->x, cap * sizeof *x);
    if (!x)
        return error_set(err, CATENA_EINPUT, "%s: out of memory", r->path);
    r->x = x;
    s->x_cap = cap;
    return CATENA_OK;
}

/* Reads point i of x, whose first event is ev: an array of dims numbers (null, for a
 * non-finite value, reads as NAN). A point of another shape is noted in f. */
static int read_point(struct traj_reader *r, struct frame_scan *f, size_t i, enum json_event ev,
                      struct catena_error *err)
{
    struct json_scan *sc = &((struct json_state *)r->state)->sc;
    double c[3] = {0, 0, 0};
    int k = 0, bad_k = -1;
    if (ev != JSON_BEGIN_ARRAY) {
        if (json_scan_skip(sc, ev))
            return CATENA_EINPUT;
        k = -1;
    }
    while (k >= 0) {
        if (json_scan_next(sc, &ev))
            return CATENA_EINPUT;
        if (ev == JSON_END_ARRAY)
            break;
        if (ev == JSON_NUMBER || ev == JSON_NULL) {
            if (k < 3)
                c[k] = ev == JSON_NUMBER ? sc->number : NAN;
        } else {
            if (bad_k < 0)
                bad_k = k;
            if (json_scan_skip(sc, ev))
                return CATENA_EINPUT;
        }
        k++;
    }
    if (k != r->info.dims || bad_k >= 0) {
        if (!f->bad)
            f->bad = 1, f->bad_i = i, f->bad_k = k != r->info.dims ? -1 : bad_k;
        return CATENA_OK;
    }
    if (i >= r->info.npoints)
        return CATENA_OK;
    if (room_for(r, i, err))
        return -1;
    r->x[i] = v3(c[0], c[1], c[2]);
    return CATENA_OK;
}

/* Reads x after its '['. Returns CATENA_OK, CATENA_EINPUT for the scanner's error, or -1
 * with err set (out of memory). */
static int read_points(struct traj_reader *r, struct frame_scan *f, struct catena_error *err)
{
    struct json_scan *sc = &((struct json_state *)r->state)->sc;
    enum json_event ev;
    for (;;) {
        if (json_scan_next(sc, &ev))
            return CATENA_EINPUT;
        if (ev == JSON_END_ARRAY)
            return CATENA_OK;
        int rc = read_point(r, f, f->points++, ev, err);
        if (rc)
            return rc;
    }
}

/* Reads the members of a frame after its '{' into f and r->x. The first occurrence of a key
 * counts (as cJSON's lookup has it); others are skipped. */
static int scan_frame(struct traj_reader *r, struct frame_scan *f, struct catena_error *err)
{
    struct json_scan *sc = &((struct json_state *)r->state)->sc;
    enum json_event ev;
    for (;;) {
        if (json_scan_next(sc, &ev))
            return CATENA_EINPUT;
        if (ev == JSON_END_OBJECT)
            return CATENA_OK;
        int *seen = json_scan_string_is(sc, "step")   ? &f->has_step
                    : json_scan_string_is(sc, "time") ? &f->has_time
                    : json_scan_string_is(sc, "x")    ? &f->has_x
                                                      : NULL;
        if (seen && *seen)
            seen = NULL;
        if (json_scan_next(sc, &ev))
            return CATENA_EINPUT;
        if (seen == &f->has_x && ev == JSON_BEGIN_ARRAY) {
            f->has_x = 1;
            int rc = read_points(r, f, err);
            if (rc)
                return rc;
            continue;
        }
        if (seen == &f->has_step || seen == &f->has_time) {
            const int ok = ev == JSON_NUMBER || (seen == &f->has_time && ev == JSON_NULL);
            *(seen == &f->has_step ? &f->step : &f->time) = ev == JSON_NUMBER ? sc->number : NAN;
            *seen = ok ? 1 : -1;
        } else if (seen) {
            *seen = -1;
        }
        if (json_scan_skip(sc, ev))
            return CATENA_EINPUT;
    }
}

/* Judges a scanned frame in a fixed order (step, time, x, its points) and hands it out. */
static int frame_value(struct traj_reader *r, const char *what, const struct frame_scan *f,
                       struct catena_error *err)
{
    struct json_state *s = r->state;
    if (f->has_step != 1 || !is_integer(f->step, 0, EXACT_MAX))
        return error_set(err, CATENA_EINPUT, "%s: %s.step: %s", r->path, what,
                         f->has_step ? "expected an integer >= 0" : "missing");
    if (s->prev_step >= 0 && (long)f->step <= s->prev_step)
        return error_set(err, CATENA_EINPUT,
                         "%s: %s.step: %ld after step %ld (steps must increase)", r->path, what,
                         (long)f->step, s->prev_step);
    if (f->has_time != 1)
        return error_set(err, CATENA_EINPUT, "%s: %s.time: %s", r->path, what,
                         f->has_time ? "expected a number" : "missing");
    if (f->has_x != 1)
        return error_set(err, CATENA_EINPUT, "%s: %s.x: %s", r->path, what,
                         f->has_x ? "expected an array of points" : "missing");
    if (f->points != r->info.npoints)
        return error_set(err, CATENA_EINPUT, "%s: %s.x: expected %zu points, got %zu", r->path,
                         what, r->info.npoints, f->points);
    if (f->bad && f->bad_k < 0)
        return error_set(err, CATENA_EINPUT, "%s: %s.x[%zu]: expected an array of %d numbers",
                         r->path, what, f->bad_i, r->info.dims);
    if (f->bad)
        return error_set(err, CATENA_EINPUT, "%s: %s.x[%zu][%d]: expected a number", r->path, what,
                         f->bad_i, f->bad_k);
    s->prev_step = (long)f->step;
    r->frame.step = (long)f->step;
    r->frame.time = f->time;
    r->frame.x = r->x;
    return CATENA_OK;
}

/* Reads the frame that starts here (frames[r->nread]). A syntax error anywhere in it comes
 * before what its values say, as when the frame was parsed whole. */
static int read_frame(struct traj_reader *r, struct catena_error *err)
{
    struct json_state *s = r->state;
    char what[48];
    snprintf(what, sizeof what, "frames[%ld]", r->nread);
    struct frame_scan f = {0};
    enum json_event ev;
    if (value_begin(r, what, frame_max(r), &ev, err))
        return CATENA_EINPUT;
    if (ev != JSON_BEGIN_OBJECT) {
        if (json_scan_skip(&s->sc, ev))
            return scan_failed(r, what, err);
        return error_set(err, CATENA_EINPUT, "%s: %s: expected an object", r->path, what);
    }
    int rc = scan_frame(r, &f, err);
    if (rc == CATENA_EINPUT)
        return scan_failed(r, what, err);
    return rc ? CATENA_EINPUT : frame_value(r, what, &f, err);
}

/* After the outer object's '}', only white space may follow. */
static int check_end(struct traj_reader *r, struct catena_error *err)
{
    struct json_state *s = r->state;
    int c = json_scan_peek(&s->sc);
    if (c == JSON_SCAN_ERROR)
        return scan_failed(r, "the trajectory object", err);
    if (!(s->seen & SEEN_FRAMES))
        return error_set(err, CATENA_EINPUT, "%s: frames: missing", r->path);
    if (c != JSON_SCAN_END)
        return syntax(r, json_scan_offset(&s->sc), err,
                      "unexpected data after the trajectory object");
    return CATENA_OK;
}

static int json_open(struct traj_reader *r, struct catena_error *err)
{
    struct json_state *s = malloc(sizeof *s);
    if (!s)
        return error_set(err, CATENA_EINPUT, "%s: out of memory", r->path);
    r->state = s;
    json_scan_file(&s->sc, r->fp, JSON_SCAN_RAW_CONTROL);
    s->seen = 0;
    s->prev_step = -1;
    s->x_cap = 0;
    r->info.has_steps = 1;
    int c = json_scan_peek(&s->sc), frames;
    if (c == JSON_SCAN_END) /* nothing but white space */
        return error_set(err, CATENA_EINPUT, "%s: empty file", r->path);
    if (c != '{')
        return unexpected(r, c, "'{'", "to open the trajectory object", err);
    json_scan_take(&s->sc);
    if (members(r, 1, &frames, err))
        return CATENA_EINPUT;
    if (!frames)
        return check_end(r, err);
    if (check_meta(r, err))
        return CATENA_EINPUT;
    if ((c = json_scan_peek(&s->sc)) == ']')
        return error_set(err, CATENA_EINPUT, "%s: no frames", r->path);
    if (read_frame(r, err))
        return CATENA_EINPUT;
    r->pending = 1;
    return CATENA_OK;
}

static int json_next(struct traj_reader *r, int *more, struct catena_error *err)
{
    struct json_scan *sc = &((struct json_state *)r->state)->sc;
    int c = json_scan_peek(sc), frames;
    *more = c == ',';
    if (c == ',') {
        json_scan_take(sc);
        return read_frame(r, err);
    }
    if (c != ']')
        return unexpected(r, c, "',' or ']'", "after a frame", err);
    json_scan_take(sc);
    if ((c = json_scan_peek(sc)) == ',') {
        json_scan_take(sc);
        if (members(r, 0, &frames, err))
            return CATENA_EINPUT;
    } else if (c == '}') {
        json_scan_take(sc);
    } else {
        return unexpected(r, c, "',' or '}'", "after frames", err);
    }
    return check_end(r, err);
}

static void json_close(struct traj_reader *r)
{
    struct json_state *s = r->state;
    if (s)
        json_scan_free(&s->sc);
    free(s);
}

const struct traj_read_ops traj_read_json_ops = {
    .open = json_open,
    .next = json_next,
    .close = json_close,
};
