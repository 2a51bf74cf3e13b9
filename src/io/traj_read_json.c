/* Reading trajectory.json ({"catena_trajectory":1, ..., "points":N, "frames":[{...}, ...]})
 * without holding the whole file: a small scanner walks the outer object and the frames
 * array, finds where each value ends, and hands that one value to cJSON. Memory is one
 * frame's text plus its cJSON tree, whatever the number of frames. */
#define _POSIX_C_SOURCE 200809L
#include "io/traj_read_format.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
    JSON_CHUNK = 1 << 16,       /* bytes read at a time */
    JSON_META_MAX = 1 << 20,    /* longest value outside the frames, bytes */
    JSON_POINT_MAX_BYTES = 256, /* generous text per point of a frame ("[x,y,z]" is < 80) */
    JSON_EOF = -1,
    JSON_ERR = -2,
};

enum { SEEN_VERSION = 1, SEEN_DIMENSIONS = 2, SEEN_POINTS = 4, SEEN_FRAMES = 8 };

struct json_state {
    char *buf;
    size_t cap, len, pos; /* buf[pos..len) is read but not consumed */
    long line, col;       /* position of buf[pos], 1-based */
    int eof;
    unsigned seen;    /* SEEN_* */
    size_t value_max; /* longest value accepted here, bytes */
    long prev_step;   /* -1 before the first frame */
};

static int syntax(struct traj_reader *r, long line, long col, struct catena_error *err,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int syntax(struct traj_reader *r, long line, long col, struct catena_error *err,
                  const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return error_set(err, CATENA_EINPUT, "%s:%ld:%ld: %s", r->path, line, col, msg);
}

/* Makes at least `need` unconsumed bytes available, unless the file ends first. */
static int fill(struct traj_reader *r, struct json_state *s, size_t need, struct catena_error *err)
{
    while (s->len - s->pos < need && !s->eof) {
        if (s->pos > 0) {
            memmove(s->buf, s->buf + s->pos, s->len - s->pos);
            s->len -= s->pos;
            s->pos = 0;
        }
        if (s->cap - s->len < JSON_CHUNK) {
            size_t ncap = s->cap ? 2 * s->cap : JSON_CHUNK;
            char *b = realloc(s->buf, ncap);
            if (!b)
                return error_set(err, CATENA_EINPUT, "%s: out of memory", r->path);
            s->buf = b;
            s->cap = ncap;
        }
        size_t n = fread(s->buf + s->len, 1, s->cap - s->len, r->fp);
        s->len += n;
        if (n == 0 && ferror(r->fp))
            return error_set(err, CATENA_EINPUT, "%s: read error: %s", r->path, strerror(errno));
        s->eof = n == 0;
    }
    return CATENA_OK;
}

/* The byte i places ahead, JSON_EOF past the end, JSON_ERR with err set. */
static int peek_at(struct traj_reader *r, size_t i, struct catena_error *err)
{
    struct json_state *s = r->state;
    if (s->len - s->pos <= i && fill(r, s, i + 1, err))
        return JSON_ERR;
    return s->len - s->pos > i ? (unsigned char)s->buf[s->pos + i] : JSON_EOF;
}

/* Line and column of the byte i places ahead. */
static void where(const struct json_state *s, size_t i, long *line, long *col)
{
    *line = s->line;
    *col = s->col;
    for (size_t k = 0; k < i; k++) {
        if (s->buf[s->pos + k] == '\n') {
            ++*line;
            *col = 1;
        } else {
            ++*col;
        }
    }
}

static void advance(struct json_state *s, size_t n)
{
    where(s, n, &s->line, &s->col);
    s->pos += n;
}

/* Skips white space; returns the next byte as peek_at does. */
static int skip_ws(struct traj_reader *r, struct catena_error *err)
{
    for (;;) {
        int c = peek_at(r, 0, err);
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            return c;
        advance(r->state, 1);
    }
}

/* The error for byte c found where `expected` should be. */
static int unexpected(struct traj_reader *r, int c, const char *expected, const char *context,
                      struct catena_error *err)
{
    struct json_state *s = r->state;
    if (c == JSON_ERR)
        return CATENA_EINPUT;
    if (c == JSON_EOF)
        return syntax(r, s->line, s->col, err, "truncated: end of file %s", context);
    if (c >= 0x20 && c < 0x7f)
        return syntax(r, s->line, s->col, err, "expected %s %s, got '%c'", expected, context, c);
    return syntax(r, s->line, s->col, err, "expected %s %s, got byte 0x%02x", expected, context, c);
}

static int is_delimiter(int c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == ']' || c == '}';
}

static int too_long(struct traj_reader *r, const char *what, struct catena_error *err)
{
    struct json_state *s = r->state;
    return syntax(r, s->line, s->col, err, "%s is longer than %zu bytes", what, s->value_max);
}

/* Length of the JSON value that starts here: up to its closing bracket or quote, or up
 * to the next delimiter for a number or literal. The syntax inside is left to cJSON. */
static int value_length(struct traj_reader *r, const char *what, size_t *n,
                        struct catena_error *err)
{
    struct json_state *s = r->state;
    int c = peek_at(r, 0, err);
    char context[64];
    snprintf(context, sizeof context, "%s %s", c == JSON_EOF ? "before" : "for", what);
    if (c < 0 || c == ':' || is_delimiter(c))
        return unexpected(r, c, "a value", context, err);
    if (c != '{' && c != '[' && c != '"') {
        size_t i = 1;
        while ((c = peek_at(r, i, err)) >= 0 && !is_delimiter(c))
            if (++i > s->value_max)
                return too_long(r, what, err);
        *n = i;
        return c == JSON_ERR ? CATENA_EINPUT : CATENA_OK;
    }
    int depth = 0, in_string = 0, escaped = 0;
    for (size_t i = 0;; i++) {
        if (i >= s->value_max)
            return too_long(r, what, err);
        c = peek_at(r, i, err);
        if (c == JSON_ERR)
            return CATENA_EINPUT;
        if (c == JSON_EOF) {
            long line, col;
            where(s, i, &line, &col);
            return syntax(r, line, col, err, "truncated: end of file in %s", what);
        }
        if (in_string) {
            if (escaped)
                escaped = 0;
            else if (c == '\\')
                escaped = 1;
            else if (c == '"' && (in_string = 0, depth == 0))
                return *n = i + 1, CATENA_OK;
        } else if (c == '"') {
            in_string = 1;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if ((c == '}' || c == ']') && --depth == 0) {
            return *n = i + 1, CATENA_OK;
        }
    }
}

/* Parses the value that starts here with cJSON and consumes it; the caller frees *out. */
static int parse_value(struct traj_reader *r, const char *what, cJSON **out,
                       struct catena_error *err)
{
    struct json_state *s = r->state;
    size_t n = 0;
    if (value_length(r, what, &n, err))
        return CATENA_EINPUT;
    const char *text = s->buf + s->pos, *end = NULL;
    cJSON *v = cJSON_ParseWithLengthOpts(text, n, &end, 0);
    if (!v || end != text + n) {
        cJSON_Delete(v);
        long line, col;
        where(s, end ? (size_t)(end - text) : 0, &line, &col);
        return syntax(r, line, col, err, "JSON syntax error in %s", what);
    }
    advance(s, n);
    *out = v;
    return CATENA_OK;
}

/* An integer in [lo, hi] (hi at most 2^53, where doubles stop being exact integers). */
static int get_integer(const cJSON *v, double lo, double hi, double *out)
{
    if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) || v->valuedouble < lo ||
        v->valuedouble > hi)
        return -1;
    *out = v->valuedouble;
    return 0;
}

/* One of the keys before "frames" (or after it); keys catena does not use are skipped. */
static int meta_value(struct traj_reader *r, const char *key, const cJSON *v,
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
    double d;
    if (bit == SEEN_VERSION && !cJSON_IsNumber(v))
        return error_set(err, CATENA_EINPUT, "%s: catena_trajectory: expected a version number",
                         r->path);
    if (bit == SEEN_VERSION && v->valuedouble != 1)
        return error_set(err, CATENA_EINPUT,
                         "%s: catena_trajectory: version %g is not supported (catena reads 1)",
                         r->path, v->valuedouble);
    if (bit == SEEN_DIMENSIONS) {
        if (get_integer(v, 2, 3, &d))
            return error_set(err, CATENA_EINPUT, "%s: dimensions: expected 2 or 3", r->path);
        r->info.dims = (int)d;
    }
    if (bit == SEEN_POINTS) {
        if (get_integer(v, 1, 9007199254740992.0, &d) || d > (double)(SIZE_MAX / sizeof(vec3)))
            return error_set(err, CATENA_EINPUT, "%s: points: expected an integer >= 1", r->path);
        r->info.npoints = (size_t)d;
    }
    return CATENA_OK;
}

/* Reads "key": value pairs until the "frames" array opens (*frames = 1, just after its
 * '[') or the object closes (*frames = 0). `first`: right after the '{'. */
static int members(struct traj_reader *r, int first, int *frames, struct catena_error *err)
{
    struct json_state *s = r->state;
    for (;;) {
        int c = skip_ws(r, err);
        if (first && c == '}') {
            advance(s, 1);
            return *frames = 0, CATENA_OK;
        }
        first = 0;
        if (c != '"')
            return unexpected(r, c, "a key", "in the trajectory object", err);
        cJSON *key = NULL, *v = NULL;
        if (parse_value(r, "a key", &key, err))
            return CATENA_EINPUT;
        /* The key names its value in messages: made printable, so that one stays on a line. */
        char name[TRAJ_QUOTE_SIZE];
        traj_read_quote(name, sizeof name, key->valuestring);
        cJSON_Delete(key);
        if ((c = skip_ws(r, err)) != ':')
            return unexpected(r, c, "':'", "after a key", err);
        advance(s, 1);
        c = skip_ws(r, err);
        if (strcmp(name, "frames") == 0) {
            if (meta_value(r, name, NULL, err))
                return CATENA_EINPUT;
            if (c != '[')
                return unexpected(r, c, "'['", "to open frames", err);
            advance(s, 1);
            return *frames = 1, CATENA_OK;
        }
        int rc = parse_value(r, name, &v, err) || meta_value(r, name, v, err);
        cJSON_Delete(v);
        if (rc)
            return CATENA_EINPUT;
        if ((c = skip_ws(r, err)) == '}') {
            advance(s, 1);
            return *frames = 0, CATENA_OK;
        }
        if (c != ',')
            return unexpected(r, c, "',' or '}'", "in the trajectory object", err);
        advance(s, 1);
    }
}

/* The point count and dimensions must be known before the first frame arrives. */
static int check_meta(struct traj_reader *r, struct catena_error *err)
{
    struct json_state *s = r->state;
    const char *missing = !(s->seen & SEEN_VERSION)      ? "catena_trajectory"
                          : !(s->seen & SEEN_DIMENSIONS) ? "dimensions"
                          : !(s->seen & SEEN_POINTS)     ? "points"
                                                         : NULL;
    if (missing)
        return error_set(err, CATENA_EINPUT, "%s: %s: missing before \"frames\"", r->path, missing);
    size_t per_point = JSON_POINT_MAX_BYTES;
    s->value_max = r->info.npoints > (SIZE_MAX - JSON_META_MAX) / per_point
                       ? SIZE_MAX
                       : JSON_META_MAX + r->info.npoints * per_point;
    return CATENA_OK;
}

/* Reads x[i] of a frame: an array of dims numbers (null, for a non-finite value, as NAN). */
static int point_value(struct traj_reader *r, const char *what, size_t i, const cJSON *p,
                       struct catena_error *err)
{
    int dims = r->info.dims;
    if (!cJSON_IsArray(p) || cJSON_GetArraySize(p) != dims)
        return error_set(err, CATENA_EINPUT, "%s: %s.x[%zu]: expected an array of %d numbers",
                         r->path, what, i, dims);
    double c[3] = {0, 0, 0};
    int k = 0;
    for (const cJSON *e = p->child; e; e = e->next, k++) {
        if (!cJSON_IsNumber(e) && !cJSON_IsNull(e))
            return error_set(err, CATENA_EINPUT, "%s: %s.x[%zu][%d]: expected a number", r->path,
                             what, i, k);
        c[k] = cJSON_IsNumber(e) ? e->valuedouble : NAN;
    }
    r->x[i] = v3(c[0], c[1], c[2]);
    return CATENA_OK;
}

/* Checks one parsed frame and copies it into r->frame and r->x. */
static int frame_value(struct traj_reader *r, const char *what, const cJSON *f,
                       struct catena_error *err)
{
    struct json_state *s = r->state;
    if (!cJSON_IsObject(f))
        return error_set(err, CATENA_EINPUT, "%s: %s: expected an object", r->path, what);
    const cJSON *step = cJSON_GetObjectItemCaseSensitive(f, "step");
    const cJSON *time = cJSON_GetObjectItemCaseSensitive(f, "time");
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(f, "x");
    double d;
    if (get_integer(step, 0, 9007199254740992.0, &d))
        return error_set(err, CATENA_EINPUT, "%s: %s.step: %s", r->path, what,
                         step ? "expected an integer >= 0" : "missing");
    if (s->prev_step >= 0 && (long)d <= s->prev_step)
        return error_set(err, CATENA_EINPUT,
                         "%s: %s.step: %ld after step %ld (steps must increase)", r->path, what,
                         (long)d, s->prev_step);
    if (!cJSON_IsNumber(time) && !cJSON_IsNull(time))
        return error_set(err, CATENA_EINPUT, "%s: %s.time: %s", r->path, what,
                         time ? "expected a number" : "missing");
    if (!cJSON_IsArray(x))
        return error_set(err, CATENA_EINPUT, "%s: %s.x: %s", r->path, what,
                         x ? "expected an array of points" : "missing");
    if ((size_t)cJSON_GetArraySize(x) != r->info.npoints)
        return error_set(err, CATENA_EINPUT, "%s: %s.x: expected %zu points, got %d", r->path, what,
                         r->info.npoints, cJSON_GetArraySize(x));
    if (!r->x && !(r->x = malloc(r->info.npoints * sizeof *r->x)))
        return error_set(err, CATENA_EINPUT, "%s: out of memory", r->path);
    size_t i = 0;
    for (const cJSON *p = x->child; p; p = p->next, i++)
        if (point_value(r, what, i, p, err))
            return CATENA_EINPUT;
    s->prev_step = (long)d;
    r->frame.step = (long)d;
    r->frame.time = cJSON_IsNumber(time) ? time->valuedouble : NAN;
    return CATENA_OK;
}

/* Parses the frame that starts here (frames[r->nread]). */
static int read_frame(struct traj_reader *r, struct catena_error *err)
{
    char what[48];
    snprintf(what, sizeof what, "frames[%ld]", r->nread);
    cJSON *f = NULL;
    int rc = parse_value(r, what, &f, err) || frame_value(r, what, f, err);
    cJSON_Delete(f);
    return rc ? CATENA_EINPUT : CATENA_OK;
}

/* After the outer object's '}', only white space may follow. */
static int check_end(struct traj_reader *r, struct catena_error *err)
{
    struct json_state *s = r->state;
    int c = skip_ws(r, err);
    if (c == JSON_ERR)
        return CATENA_EINPUT;
    if (!(s->seen & SEEN_FRAMES))
        return error_set(err, CATENA_EINPUT, "%s: frames: missing", r->path);
    if (c != JSON_EOF)
        return syntax(r, s->line, s->col, err, "unexpected data after the trajectory object");
    return CATENA_OK;
}

static int json_open(struct traj_reader *r, struct catena_error *err)
{
    struct json_state *s = calloc(1, sizeof *s);
    if (!s)
        return error_set(err, CATENA_EINPUT, "%s: out of memory", r->path);
    r->state = s;
    s->line = s->col = 1;
    s->prev_step = -1;
    s->value_max = JSON_META_MAX;
    r->info.has_steps = 1;
    int c = skip_ws(r, err), frames;
    if (c == JSON_EOF && s->len == 0)
        return error_set(err, CATENA_EINPUT, "%s: empty file", r->path);
    if (c != '{')
        return unexpected(r, c, "'{'", "to open the trajectory object", err);
    advance(s, 1);
    if (members(r, 1, &frames, err))
        return CATENA_EINPUT;
    if (!frames)
        return check_end(r, err);
    if (check_meta(r, err))
        return CATENA_EINPUT;
    if ((c = skip_ws(r, err)) == ']')
        return error_set(err, CATENA_EINPUT, "%s: no frames", r->path);
    if (read_frame(r, err))
        return CATENA_EINPUT;
    r->pending = 1;
    return CATENA_OK;
}

static int json_next(struct traj_reader *r, int *more, struct catena_error *err)
{
    struct json_state *s = r->state;
    int c = skip_ws(r, err), frames;
    *more = c == ',';
    if (c == ',') {
        advance(s, 1);
        skip_ws(r, err);
        return read_frame(r, err);
    }
    if (c != ']')
        return unexpected(r, c, "',' or ']'", "after a frame", err);
    advance(s, 1);
    if ((c = skip_ws(r, err)) == ',') {
        advance(s, 1);
        if (members(r, 0, &frames, err))
            return CATENA_EINPUT;
    } else if (c == '}') {
        advance(s, 1);
    } else {
        return unexpected(r, c, "',' or '}'", "after frames", err);
    }
    return check_end(r, err);
}

static void json_close(struct traj_reader *r)
{
    struct json_state *s = r->state;
    if (s)
        free(s->buf);
    free(s);
}

const struct traj_read_ops traj_read_json_ops = {
    .open = json_open,
    .next = json_next,
    .close = json_close,
};
