/* summary.json: what ran (catena version, scenario hash, effective parameters, counts) and
 * how it ended (status, steps, simulated and wall time, speed, final metrics, the outcome of
 * each check, and for a diverged run the step and point where positions stopped being
 * finite, for a failed one why, warnings); io/rundir adds the manifest (run_id, files). */
#include "run/summary.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "core/json_out.h"
#include "io/traj.h"

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

static void add_parameters(cJSON *root, const struct scenario *sc, int *ok)
{
    const struct model *m = sc->model;
    cJSON *p = need(cJSON_AddObjectToObject(root, "parameters"), ok);
    need(json_out_add_number(p, "dimensions", m->dims), ok);
    need(json_out_add_number(p, "dt", m->dt), ok);
    need(json_out_add_number(p, "steps", (double)m->steps), ok);
    need(json_out_add_number(p, "substeps", m->substeps), ok);
    need(cJSON_AddStringToObject(p, "method", model_method_name(m->method)), ok);
    need(json_out_add_number(p, "iterations", m->iterations), ok);
    need(cJSON_AddStringToObject(p, "order", model_order_name(m->order)), ok);
    need(json_out_add_number(p, "damping", m->damping), ok);
    need(json_out_add_number(p, "damping_rate", model_damping_rate(m, m->damping)), ok);
    add_item(p, "max_length_pass", cJSON_CreateBool(m->max_length_pass), ok);
    add_item(p, "global", cJSON_CreateBool(m->global), ok);
    if (m->global && m->global_matrix == MATRIX_FIXED) /* the default is left unsaid */
        need(cJSON_AddStringToObject(p, "global_matrix", "fixed"), ok);
    need(json_out_add_number(p, "collide_every", m->collide_every), ok);
    need(json_out_add_number(p, "shock_iterations", m->shock_iterations), ok);
    const double g[3] = {m->gravity.x, m->gravity.y, m->gravity.z};
    cJSON *gravity = need(cJSON_AddArrayToObject(p, "gravity"), ok);
    for (int k = 0; k < m->dims; k++)
        add_item(gravity, NULL, json_out_number(g[k]), ok);
    need(json_out_add_number(p, "every", (double)sc->output.every), ok);
    cJSON *formats = need(cJSON_AddArrayToObject(p, "formats"), ok);
    for (unsigned bit = FORMAT_CSV; bit <= FORMAT_NPY; bit <<= 1)
        if (sc->output.formats & bit)
            add_item(formats, NULL, cJSON_CreateString(traj_format_name(bit)), ok);
}

/* "checks": how many passed, failed and were not judged, and each one's outcome. */
static void add_checks(cJSON *root, const struct scenario *sc, const struct run_result *r, int *ok)
{
    size_t count[3] = {0};
    for (size_t i = 0; i < r->nchecks; i++)
        count[r->checks[i].result]++;
    cJSON *cj = need(cJSON_AddObjectToObject(root, "checks"), ok);
    for (int k = CHECK_PASSED; k <= CHECK_UNDECIDED; k++)
        need(json_out_add_number(cj, checks_result_name((enum check_result)k), (double)count[k]),
             ok);
    cJSON *list = need(cJSON_AddArrayToObject(cj, "results"), ok);
    for (size_t i = 0; i < r->nchecks; i++) {
        const struct check_outcome *o = &r->checks[i];
        cJSON *e = cJSON_CreateObject();
        add_item(list, NULL, e, ok);
        need(cJSON_AddStringToObject(e, "name", o->check->name), ok);
        need(cJSON_AddStringToObject(e, "type", check_type_names[o->check->type]), ok);
        need(cJSON_AddStringToObject(e, "result", checks_result_name(o->result)), ok);
        if (o->step >= 0) {
            need(json_out_add_number(e, "step", (double)o->step), ok);
            need(json_out_add_number(e, "time", (double)o->step * sc->model->dt), ok);
            need(json_out_add_number(e, "value", o->value), ok);
        }
        if (o->largest_step >= 0) {
            need(json_out_add_number(e, "largest", o->largest), ok);
            need(json_out_add_number(e, "largest_step", (double)o->largest_step), ok);
        }
        need(cJSON_AddStringToObject(e, "message", o->message), ok);
    }
}

/* "warnings": [{"code": CODE, "message": MESSAGE}...] from each list in turn. */
static void add_warnings(cJSON *root, const struct warnings *a, const struct warnings *b, int *ok)
{
    cJSON *list = need(cJSON_AddArrayToObject(root, "warnings"), ok);
    const struct warnings *lists[2] = {a, b};
    for (int k = 0; k < 2 && list; k++)
        for (size_t i = 0; lists[k] && i < lists[k]->n; i++) {
            cJSON *o = need(cJSON_CreateObject(), ok);
            add_item(list, NULL, o, ok);
            if (!o)
                continue;
            need(cJSON_AddStringToObject(o, "code", lists[k]->list[i].code), ok);
            need(cJSON_AddStringToObject(o, "message", lists[k]->list[i].message), ok);
        }
}

/* catena_version and scenario: what summary.json says from the start. */
static void add_head(cJSON *root, const struct scenario *sc, int *ok)
{
    const struct scenario_provenance *from = &sc->provenance;
    need(cJSON_AddStringToObject(root, "catena_version", PACKAGE_VERSION), ok);
    cJSON *sj = need(cJSON_AddObjectToObject(root, "scenario"), ok);
    need(add_string_or_null(sj, "name", from->name), ok);
    need(add_string_or_null(sj, "file", from->source), ok);
    need(cJSON_AddStringToObject(sj, "sha256", from->sha256), ok);
    cJSON *ov = need(cJSON_AddArrayToObject(sj, "overrides"), ok);
    for (size_t i = 0; i < from->noverrides; i++)
        add_item(ov, NULL, cJSON_CreateString(from->overrides[i]), ok);
}

cJSON *summary_head(const struct scenario *sc)
{
    int ok = 1;
    cJSON *root = need(cJSON_CreateObject(), &ok);
    add_head(root, sc, &ok);
    if (!ok) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

static cJSON *build(const struct scenario *sc, const struct run_result *r, const struct warnings *w,
                    const char *error)
{
    const struct model *m = sc->model;
    int ok = 1;
    cJSON *root = need(cJSON_CreateObject(), &ok);
    add_head(root, sc, &ok);
    add_parameters(root, sc, &ok);

    cJSON *counts = need(cJSON_AddObjectToObject(root, "counts"), &ok);
    need(json_out_add_number(counts, "points", (double)m->npoints), &ok);
    need(json_out_add_number(counts, "links", (double)m->nlinks), &ok);
    need(json_out_add_number(counts, "angles", (double)m->nangles), &ok);
    need(json_out_add_number(counts, "areas", (double)m->nareas), &ok);
    need(json_out_add_number(counts, "shapes", (double)m->nshapes), &ok);
    need(json_out_add_number(counts, "attachments", (double)m->nattachments), &ok);
    need(json_out_add_number(counts, "pins", (double)m->npins), &ok);
    need(json_out_add_number(counts, "bodies", (double)m->nbodies), &ok);
    need(json_out_add_number(counts, "obstacles", (double)m->nobstacles), &ok);

    need(cJSON_AddStringToObject(root, "status", run_status_name(r->status)), &ok);
    need(json_out_add_number(root, "steps_done", (double)r->steps_done), &ok);
    need(json_out_add_number(root, "time", (double)r->steps_done * m->dt), &ok);
    need(json_out_add_number(root, "wall_time", r->wall_s), &ok);
    double speed = r->wall_s > 0 ? (double)r->steps_done / r->wall_s : 0.0;
    need(json_out_add_number(root, "steps_per_second", speed), &ok);

    if (m->settle_speed > 0.0)
        need(r->settled_step >= 0
                 ? json_out_add_number(root, "settled_step", (double)r->settled_step)
                 : cJSON_AddNullToObject(root, "settled_step"),
             &ok);
    cJSON *events = need(cJSON_AddObjectToObject(root, "events"), &ok);
    for (int k = 0; k < LOG_KINDS; k++)
        need(json_out_add_number(events, events_log_names[k], (double)r->events[k]), &ok);

    cJSON *final = need(cJSON_AddObjectToObject(root, "final"), &ok);
    need(json_out_add_number(final, "max_stretch", r->max_stretch), &ok);
    need(json_out_add_number(final, "live_links", (double)r->live_links), &ok);
    need(json_out_add_number(final, "error_sum", r->final.error_sum), &ok);
    need(json_out_add_number(final, "error_max", r->final.error_max), &ok);
    need(json_out_add_number(final, "kinetic", r->final.kinetic), &ok);
    need(json_out_add_number(final, "potential", r->final.potential), &ok);
    need(json_out_add_number(final, "max_speed", r->final.max_speed), &ok);

    if (sc->checks.n > 0)
        add_checks(root, sc, r, &ok);

    if (r->status == RUN_DIVERGED) {
        /* The run checks positions after each step, so steps_done includes the step that
         * diverged (0 when the initial positions already were not finite). */
        cJSON *dv = need(cJSON_AddObjectToObject(root, "diverged"), &ok);
        need(json_out_add_number(dv, "step", (double)r->steps_done), &ok);
        char buf[256];
        const char *label = r->diverged_point >= 0
                                ? model_point_label(m, (size_t)r->diverged_point, buf, sizeof buf)
                                : NULL;
        need(add_string_or_null(dv, "point", label), &ok);
    }
    if (r->status == RUN_FAILED)
        need(add_string_or_null(root, "error", error), &ok);
    add_warnings(root, &sc->warnings, w, &ok);
    if (!ok) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

int summary_write(struct rundir_writer *out, const struct scenario *sc, const struct run_result *r,
                  const struct warnings *w, const char *error, struct catena_error *err)
{
    cJSON *root = build(sc, r, w, error);
    const int rc = root ? rundir_finish(out, root, err)
                        : error_set(err, CATENA_EFAIL, "%s/summary.json: out of memory", out->dir);
    cJSON_Delete(root);
    return rc;
}
