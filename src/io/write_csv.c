/* trajectory.csv: a header "step,time,point,x,y[,z]", then one row per point per recorded
 * frame, numbers in the shortest form that reads back to the same double. */
#include <string.h>

#include "core/fmt_double.h"
#include "io/traj_format.h"

static int csv_begin(struct traj_writer *w, const struct model *m, const char *name)
{
    (void)m;
    (void)name;
    const char *header = w->dims == 3 ? "step,time,point,x,y,z\n" : "step,time,point,x,y\n";
    return traj_put(w, header, strlen(header));
}

static int csv_frame(struct traj_writer *w, long step, double t, const vec3 *x)
{
    /* "step,time," is the same on every row of a frame: format it once. */
    char prefix[2 * FMT_DOUBLE_SIZE];
    size_t plen = fmt_long(prefix, step);
    prefix[plen++] = ',';
    plen += fmt_double(prefix + plen, t);
    prefix[plen++] = ',';

    for (size_t i = 0; i < w->npoints; i++) {
        char *p = traj_room(w, TRAJ_ROW_MAX);
        if (!p)
            return -1;
        memcpy(p, prefix, plen);
        p += plen;
        p += fmt_long(p, (long)i);
        *p++ = ',';
        p += fmt_double(p, x[i].x);
        *p++ = ',';
        p += fmt_double(p, x[i].y);
        if (w->dims == 3) {
            *p++ = ',';
            p += fmt_double(p, x[i].z);
        }
        *p++ = '\n';
        w->len = (size_t)(p - w->buf);
    }
    return 0;
}

static int csv_end(struct traj_writer *w)
{
    (void)w;
    return 0;
}

const struct traj_format_ops traj_csv_ops = {
    .name = "csv",
    .begin = csv_begin,
    .frame = csv_frame,
    .end = csv_end,
};
