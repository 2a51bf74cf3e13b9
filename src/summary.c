/* summary.json: what ran (catena version, scenario hash, effective parameters, counts) and
 * how it ended (status, steps, simulated and wall time, speed, final metrics, and for a
 * diverged run the step and point where positions stopped being finite). */
#include "summary.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "outfile.h"
#include "traj.h"

/* cJSON's Add* calls return NULL on OOM and take a NULL parent quietly, so each result
 * goes through need(), which remembers that something is missing. */
static cJSON *need(cJSON *item, int *ok)
{
    if (!item)
        *ok = 0;
    return item;
}

/* Adds item under key (or to an array when key is NULL), freeing it if that fails. */
static void add_item(cJSON *parent, const char *key, cJSON *item, int *ok)
{
    int added = key ? cJSON_AddItemToObject(parent, key, item) : cJSON_AddItemToArray(parent, item);
    if (!added) {
        cJSON_Delete(item);
        *ok = 0;
    }
}

static cJSON *add_string_or_null(cJSON *obj, const char *key, const char *s)
{
    return s ? cJSON_AddStringToObject(obj, key, s) : cJSON_AddNullToObject(obj, key);
}

static void add_parameters(cJSON *root, const struct model *m, int *ok)
{
    cJSON *p = need(cJSON_AddObjectToObject(root, "parameters"), ok);
    need(cJSON_AddNumberToObject(p, "dimensions", m->dims), ok);
    need(cJSON_AddNumberToObject(p, "dt", m->dt), ok);
    need(cJSON_AddNumberToObject(p, "steps", (double)m->steps), ok);
    need(cJSON_AddNumberToObject(p, "substeps", m->substeps), ok);
    need(cJSON_AddStringToObject(p, "method", model_method_name(m->method)), ok);
    need(cJSON_AddNumberToObject(p, "iterations", m->iterations), ok);
    need(cJSON_AddStringToObject(p, "order", model_order_name(m->order)), ok);
    need(cJSON_AddNumberToObject(p, "damping", m->damping), ok);
    add_item(p, "max_length_pass", cJSON_CreateBool(m->max_length_pass), ok);
    add_item(p, "global", cJSON_CreateBool(m->global), ok);

    need(cJSON_AddNumberToObject(p, "collide_every", m->collide_every), ok);
    double g[3] = {m->gravity.x, m->gravity.y, m->gravity.z};
    add_item(p, "gravity", cJSON_CreateDoubleArray(g, m->dims), ok);
    need(cJSON_AddNumberToObject(p, "every", (double)m->every), ok);
    cJSON *formats = need(cJSON_AddArrayToObject(p, "formats"), ok);
    for (unsigned bit = FORMAT_CSV; bit <= FORMAT_NPY; bit <<= 1)
        if (m->formats & bit)
            add_item(formats, NULL, cJSON_CreateString(traj_format_name(bit)), ok);
}

static cJSON *build(const struct model *m, const struct run_result *r)
{
    int ok = 1;
    cJSON *root = need(cJSON_CreateObject(), &ok);
    need(cJSON_AddStringToObject(root, "catena_version", PACKAGE_VERSION), &ok);

    cJSON *sc = need(cJSON_AddObjectToObject(root, "scenario"), &ok);
    need(add_string_or_null(sc, "name", m->name), &ok);
    need(add_string_or_null(sc, "file", m->source), &ok);
    need(cJSON_AddStringToObject(sc, "sha256", m->sha256), &ok);
    cJSON *ov = need(cJSON_AddArrayToObject(sc, "overrides"), &ok);
    for (size_t i = 0; i < m->noverrides; i++)
        add_item(ov, NULL, cJSON_CreateString(m->overrides[i]), &ok);

    add_parameters(root, m, &ok);

    cJSON *counts = need(cJSON_AddObjectToObject(root, "counts"), &ok);
    need(cJSON_AddNumberToObject(counts, "points", (double)m->npoints), &ok);
    need(cJSON_AddNumberToObject(counts, "links", (double)m->nlinks), &ok);
    need(cJSON_AddNumberToObject(counts, "angles", (double)m->nangles), &ok);
    need(cJSON_AddNumberToObject(counts, "areas", (double)m->nareas), &ok);
    need(cJSON_AddNumberToObject(counts, "shapes", (double)m->nshapes), &ok);
    need(cJSON_AddNumberToObject(counts, "attachments", (double)m->nattachments), &ok);
    need(cJSON_AddNumberToObject(counts, "pins", (double)m->npins), &ok);
    need(cJSON_AddNumberToObject(counts, "bodies", (double)m->nbodies), &ok);
    need(cJSON_AddNumberToObject(counts, "obstacles", (double)m->nobstacles), &ok);

    need(cJSON_AddStringToObject(root, "status", run_status_name(r->status)), &ok);
    need(cJSON_AddNumberToObject(root, "steps_done", (double)r->steps_done), &ok);
    need(cJSON_AddNumberToObject(root, "time", (double)r->steps_done * m->dt), &ok);
    need(cJSON_AddNumberToObject(root, "wall_time", r->wall_s), &ok);
    double speed = r->wall_s > 0 ? (double)r->steps_done / r->wall_s : 0.0;
    need(cJSON_AddNumberToObject(root, "steps_per_second", speed), &ok);

    if (m->settle_speed > 0.0)
        need(r->settled_step >= 0
                 ? cJSON_AddNumberToObject(root, "settled_step", (double)r->settled_step)
                 : cJSON_AddNullToObject(root, "settled_step"),
             &ok);
    cJSON *events = need(cJSON_AddObjectToObject(root, "events"), &ok);
    for (int k = 0; k < LOG_KINDS; k++)
        need(cJSON_AddNumberToObject(events, events_log_names[k], (double)r->events[k]), &ok);

    cJSON *final = need(cJSON_AddObjectToObject(root, "final"), &ok);
    need(cJSON_AddNumberToObject(final, "max_stretch", r->max_stretch), &ok);
    need(cJSON_AddNumberToObject(final, "live_links", (double)r->live_links), &ok);
    need(cJSON_AddNumberToObject(final, "error_sum", r->final.error_sum), &ok);
    need(cJSON_AddNumberToObject(final, "error_max", r->final.error_max), &ok);
    need(cJSON_AddNumberToObject(final, "kinetic", r->final.kinetic), &ok);
    need(cJSON_AddNumberToObject(final, "potential", r->final.potential), &ok);
    need(cJSON_AddNumberToObject(final, "max_speed", r->final.max_speed), &ok);

    if (r->status == RUN_DIVERGED) {
        /* The run checks positions after each step, so steps_done includes the step that
         * diverged (0 when the initial positions already were not finite). */
        cJSON *dv = need(cJSON_AddObjectToObject(root, "diverged"), &ok);
        need(cJSON_AddNumberToObject(dv, "step", (double)r->steps_done), &ok);
        char buf[256];
        const char *label = r->diverged_point >= 0
                                ? model_point_label(m, (size_t)r->diverged_point, buf, sizeof buf)
                                : NULL;
        need(add_string_or_null(dv, "point", label), &ok);
    }
    if (!ok) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

int summary_write(const char *dir, const struct model *m, const struct run_result *r,
                  struct catena_error *err)
{
    cJSON *root = build(m, r);
    char *text = root ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (!text)
        return error_set(err, CATENA_EFAIL, "%s/summary.json: out of memory", dir);
    struct outfile f;
    int rc = outfile_open(&f, dir, "summary.json", err);
    if (rc == CATENA_OK) {
        fputs(text, f.fp);
        fputc('\n', f.fp);
        rc = outfile_commit(&f, err);
    }
    free(text);
    return rc;
}
