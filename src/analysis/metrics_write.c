/* metrics.csv (analysis/metrics.h): one row of metrics_compute per recorded step, through an outfile
 * so that the file appears only when complete. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/fmt_double.h"
#include "analysis/metrics.h"
#include "core/outfile.h"

struct metrics_writer {
    struct outfile out;
};

static const char header[] =
    "step,time,error_sum,error_max,max_stretch,kinetic,potential,max_speed,live_links\n";

struct metrics_writer *metrics_open(const char *dir, struct catena_error *err)
{
    struct metrics_writer *w = calloc(1, sizeof *w);
    if (!w) {
        error_set(err, CATENA_EFAIL, "%s/metrics.csv: out of memory", dir);
        return NULL;
    }
    if (outfile_open(&w->out, dir, "metrics.csv", err)) {
        free(w);
        return NULL;
    }
    fputs(header, w->out.fp);
    return w;
}

int metrics_record(struct metrics_writer *w, const struct model *m, const struct state *s,
                   struct catena_error *err)
{
    struct metrics mt;
    metrics_compute(m, s, &mt);
    const double cols[] = {s->t,       mt.error_sum, mt.error_max, mt.max_stretch,
                           mt.kinetic, mt.potential, mt.max_speed};
    char row[16 * FMT_DOUBLE_SIZE];
    size_t n = fmt_long(row, s->step);
    for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++) {
        row[n++] = ',';
        n += fmt_double(row + n, cols[k]);
    }
    row[n++] = ',';
    n += fmt_long(row + n, (long)mt.live_links);
    row[n++] = '\n';
    errno = 0;
    if (fwrite(row, 1, n, w->out.fp) != n)
        return error_set(err, CATENA_EFAIL, "%s: cannot write: %s", w->out.path,
                         strerror(errno ? errno : EIO));
    return CATENA_OK;
}

int metrics_close(struct metrics_writer *w, struct catena_error *err)
{
    const int rc = outfile_commit(&w->out, err);
    free(w);
    return rc;
}

void metrics_abort(struct metrics_writer *w)
{
    if (!w)
        return;
    outfile_abort(&w->out);
    free(w);
}
