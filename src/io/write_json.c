/* trajectory.json, streamed frame by frame and valid JSON once closed:
 * {"catena_trajectory":1,"name":..,"dimensions":D,"dt":..,"points":N,"every":K,
 *  "frames":[{"step":0,"time":0,"x":[[x,y],...]}, ...]} with one frame per line.
 * JSON has no NaN or infinity, so non-finite numbers are written as null. */
#include <math.h>
#include <string.h>

#include "core/fmt_double.h"
#include "io/traj_format.h"

static char *put_text(char *p, const char *text)
{
    size_t n = strlen(text);
    memcpy(p, text, n);
    return p + n;
}

static char *put_number(char *p, double v)
{
    return isfinite(v) ? p + fmt_double(p, v) : put_text(p, "null");
}

/* A JSON string: quotes, backslashes and control characters escaped, UTF-8 as is. */
static int put_string(struct traj_writer *w, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    if (!s)
        return traj_put(w, "null", 4);
    if (traj_put(w, "\"", 1))
        return -1;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        char *p = traj_room(w, 6);
        if (!p)
            return -1;
        if (c == '"' || c == '\\') {
            *p++ = '\\';
            *p++ = (char)c;
        } else if (c < 0x20) {
            p = put_text(p, "\\u00");
            *p++ = hex[c >> 4];
            *p++ = hex[c & 15];
        } else {
            *p++ = (char)c;
        }
        w->len = (size_t)(p - w->buf);
    }
    return traj_put(w, "\"", 1);
}

static int json_begin(struct traj_writer *w, const struct model *m, const char *name)
{
    static const char open[] = "{\"catena_trajectory\":1,\"name\":";
    if (traj_put(w, open, strlen(open)) || put_string(w, name))
        return -1;
    char *p = traj_room(w, TRAJ_ROW_MAX);
    if (!p)
        return -1;
    p = put_text(p, ",\"dimensions\":");
    p += fmt_long(p, m->dims);
    p = put_text(p, ",\"dt\":");
    p = put_number(p, m->dt);
    p = put_text(p, ",\"points\":");
    p += fmt_long(p, (long)m->npoints);
    p = put_text(p, ",\"every\":");
    p += fmt_long(p, w->every);
    p = put_text(p, ",\"frames\":[");
    w->len = (size_t)(p - w->buf);
    return 0;
}

static int json_frame(struct traj_writer *w, long step, double t, const vec3 *x)
{
    char *p = traj_room(w, TRAJ_ROW_MAX);
    if (!p)
        return -1;
    if (w->frames > 0)
        *p++ = ',';
    p = put_text(p, "\n{\"step\":");
    p += fmt_long(p, step);
    p = put_text(p, ",\"time\":");
    p = put_number(p, t);
    p = put_text(p, ",\"x\":[");
    w->len = (size_t)(p - w->buf);

    for (size_t i = 0; i < w->npoints; i++) {
        p = traj_room(w, TRAJ_ROW_MAX);
        if (!p)
            return -1;
        if (i > 0)
            *p++ = ',';
        *p++ = '[';
        p = put_number(p, x[i].x);
        *p++ = ',';
        p = put_number(p, x[i].y);
        if (w->dims == 3) {
            *p++ = ',';
            p = put_number(p, x[i].z);
        }
        *p++ = ']';
        w->len = (size_t)(p - w->buf);
    }
    return traj_put(w, "]}", 2);
}

static int json_end(struct traj_writer *w)
{
    return traj_put(w, "\n]}\n", 4);
}

const struct traj_format_ops traj_json_ops = {
    .name = "json",
    .begin = json_begin,
    .frame = json_frame,
    .end = json_end,
};
