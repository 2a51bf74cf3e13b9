/* A run's directory (see run/run_dir.h): the names a run of a scenario may write, which the
 * running summary lists as pending so that a killed run's files are found by the next. */
#include "run/run_dir.h"

#include <cjson/cJSON.h>

#include "core/outfile.h"
#include "io/topology.h"
#include "run/summary.h"

/* The most names planned_outputs gives. */
#define MAX_PLANNED 16

/* The files a run of sc may write besides summary.json (frames have render.json). */
static size_t planned_outputs(const struct scenario *sc, const char *names[MAX_PLANNED])
{
    size_t n = 0;
    if (sc->provenance.json)
        names[n++] = "scenario.json";
    names[n++] = "model.json";
    if (sc->output.formats & FORMAT_CSV)
        names[n++] = "trajectory.csv";
    if (sc->output.formats & FORMAT_JSON)
        names[n++] = "trajectory.json";
    if (sc->output.formats & FORMAT_NPY) {
        names[n++] = "trajectory.npy";
        names[n++] = "trajectory-frames.npy";
    }
    names[n++] = "events.csv";
    if (sc->output.metrics)
        names[n++] = "metrics.csv";
    if (topology_can_change(sc->model))
        names[n++] = "topology.csv";
    if (sc->output.reports & REPORT_CATENARY) {
        names[n++] = "catenary.json";
        names[n++] = "catenary.txt";
        names[n++] = "catenary.png";
    }
    return n;
}

int run_dir_open(struct run_dir *d, const struct scenario *sc, const char *dir,
                 struct catena_error *err)
{
    *d = (struct run_dir){.lock = {.fd = -1}};
    const char *planned[MAX_PLANNED];
    const size_t n = planned_outputs(sc, planned);
    int rc = outfile_mkdirs(dir, err);
    if (rc == CATENA_OK)
        rc = dirlock_take(&d->lock, dir, err);
    cJSON *head = rc == CATENA_OK ? summary_head(sc) : NULL;
    if (rc == CATENA_OK && !head)
        rc = error_set(err, CATENA_EFAIL, "%s/summary.json: out of memory", dir);
    if (rc == CATENA_OK)
        rc = rundir_begin(&d->w, dir, RUNDIR_SUMMARY, planned, n, head, err);
    cJSON_Delete(head);
    if (rc != CATENA_OK)
        run_dir_close(d);
    return rc;
}

void run_dir_close(struct run_dir *d)
{
    rundir_writer_free(&d->w);
    dirlock_release(&d->lock);
}
