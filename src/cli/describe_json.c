/* What `catena validate --json` prints (see cli/describe.h): the description of
 * describe_scenario as one JSON object, numbers in their shortest exact form. */
#include "cli/describe.h"

#include "core/json_out.h"
#include "io/traj.h"
#include "model/obstacle.h"
#include "render/render.h"

/* Adds item to parent under key (to an array when key is NULL), freeing it and clearing *ok
 * when that fails: cJSON returns NULL when out of memory and takes a NULL parent quietly, so
 * one flag says whether the whole document is there. A container is filled before it is put
 * in its parent, since a failed put frees it. */
static void put(cJSON *parent, const char *key, cJSON *item, int *ok)
{
    const int added =
        key ? cJSON_AddItemToObject(parent, key, item) : cJSON_AddItemToArray(parent, item);
    if (!added || !item) {
        cJSON_Delete(added ? NULL : item);
        *ok = 0;
    }
}

/* [x, y] or [x, y, z]: the model's dimensions. */
static cJSON *vector(const struct model *m, vec3 v, int *ok)
{
    const double c[3] = {v.x, v.y, v.z};
    cJSON *a = cJSON_CreateArray();
    for (int k = 0; k < m->dims; k++)
        put(a, NULL, json_out_number(c[k]), ok);
    return a;
}

/* [first, last] of a range of n from first, or null when n is 0. */
static cJSON *range(size_t first, size_t n)
{
    if (n == 0)
        return cJSON_CreateNull();
    const double ends[2] = {(double)first, (double)(first + n - 1)};
    return cJSON_CreateDoubleArray(ends, 2);
}

static const char *body_type_name(enum body_type type)
{
    static const char *const names[] = {
        [BODY_ROPE] = "rope",         [BODY_CLOTH] = "cloth", [BODY_RAGDOLL] = "ragdoll",
        [BODY_SOFTBODY] = "softbody", [BODY_HAIR] = "hair",
    };
    return names[type];
}

/* points, links, pins, the other constraint families and the bodies. */
static void add_contents(cJSON *o, const struct model *m, int *ok)
{
    put(o, "points", cJSON_CreateNumber((double)m->npoints), ok);
    put(o, "links", cJSON_CreateNumber((double)m->nlinks), ok);
    put(o, "pins", cJSON_CreateNumber((double)m->npins), ok);
    put(o, "angles", cJSON_CreateNumber((double)m->nangles), ok);
    put(o, "areas", cJSON_CreateNumber((double)m->nareas), ok);
    put(o, "shapes", cJSON_CreateNumber((double)m->nshapes), ok);
    put(o, "attachments", cJSON_CreateNumber((double)m->nattachments), ok);
    put(o, "faces", cJSON_CreateNumber((double)m->nfaces), ok);
    cJSON *bodies = cJSON_CreateArray();
    for (size_t i = 0; i < m->nbodies; i++) {
        const struct body *b = &m->bodies[i];
        cJSON *e = cJSON_CreateObject();
        put(e, "name", cJSON_CreateString(b->name), ok);
        put(e, "type", cJSON_CreateString(body_type_name(b->type)), ok);
        put(e, "points", range(b->first_point, b->npoints), ok);
        put(e, "links", range(b->first_link, b->nlinks), ok);
        put(bodies, NULL, e, ok);
    }
    put(o, "bodies", bodies, ok);
}

/* time and solver. */
static void add_stepping(cJSON *o, const struct model *m, int *ok)
{
    cJSON *t = cJSON_CreateObject();
    put(t, "dt", json_out_number(m->dt), ok);
    put(t, "steps", cJSON_CreateNumber((double)m->steps), ok);
    put(t, "substeps", cJSON_CreateNumber(m->substeps), ok);
    put(t, "duration", json_out_number((double)m->steps * m->dt), ok);
    if (m->settle_speed > 0.0) {
        cJSON *s = cJSON_CreateObject();
        put(s, "speed", json_out_number(m->settle_speed), ok);
        put(s, "for", json_out_number(m->settle_for), ok);
        put(t, "until_settled", s, ok);
    }
    put(o, "time", t, ok);
    cJSON *s = cJSON_CreateObject();
    put(s, "method", cJSON_CreateString(model_method_name(m->method)), ok);
    put(s, "iterations", cJSON_CreateNumber(m->iterations), ok);
    put(s, "order", cJSON_CreateString(model_order_name(m->order)), ok);
    put(s, "damping", json_out_number(m->damping), ok);
    put(s, "max_length_pass", cJSON_CreateBool(m->max_length_pass), ok);
    put(s, "global", cJSON_CreateBool(m->global), ok);
    if (m->global_matrix == MATRIX_FIXED) /* the default is left unsaid */
        put(s, "global_matrix", cJSON_CreateString("fixed"), ok);
    put(s, "collide_every", cJSON_CreateNumber(m->collide_every), ok);
    put(s, "shock_iterations", cJSON_CreateNumber(m->shock_iterations), ok);
    put(s, "threads", cJSON_CreateNumber(m->threads), ok);
    put(o, "solver", s, ok);
}

/* world, obstacles and events by kind, and the points and links cuts reserve. */
static void add_world(cJSON *o, const struct model *m, int *ok)
{
    static const char *const event[] = {"cut",      "release", "pin", "drag",    "reel",
                                        "velocity", "impulse", "set", "teleport"};
    cJSON *w = cJSON_CreateObject();
    put(w, "gravity", vector(m, m->gravity, ok), ok);
    put(w, "wind", vector(m, m->wind, ok), ok);
    put(o, "world", w, ok);
    cJSON *obs = cJSON_CreateObject();
    for (int k = 0; obstacle_type_names[k]; k++) {
        size_t n = 0;
        for (size_t i = 0; i < m->nobstacles; i++)
            n += m->obstacles[i].type == k;
        put(obs, obstacle_type_names[k], cJSON_CreateNumber((double)n), ok);
    }
    put(o, "obstacles", obs, ok);
    cJSON *ev = cJSON_CreateObject();
    for (int k = 0; k < (int)(sizeof event / sizeof *event); k++) {
        size_t n = 0; /* the releases that end drags are the drags' own */
        for (size_t i = 0; i < m->nevents; i++)
            n += (int)m->events[i].kind == k && !m->events[i].ends_drag;
        put(ev, event[k], cJSON_CreateNumber((double)n), ok);
    }
    put(o, "events", ev, ok);
    cJSON *r = cJSON_CreateObject();
    put(r, "points", range(m->first_reserved_point, m->nreserved_points), ok);
    put(r, "links", range(m->first_reserved_link, m->nreserved_links), ok);
    put(o, "reserved", r, ok);
}

/* The files a run writes, its frames, and the frames it would draw. */
static void add_output(cJSON *o, const struct scenario *sc, int *ok)
{
    static const enum output_format formats[] = {FORMAT_CSV, FORMAT_JSON, FORMAT_NPY};
    const struct scenario_output *out = &sc->output;
    char name[32];
    cJSON *files = cJSON_CreateArray();
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
        if (out->formats & formats[i]) {
            snprintf(name, sizeof name, "trajectory.%s", traj_format_name(formats[i]));
            put(files, NULL, cJSON_CreateString(name), ok);
        }
    const char *always[] = {out->metrics ? "metrics.csv" : NULL, "events.csv", "scenario.json",
                            "summary.json"};
    for (size_t i = 0; i < sizeof always / sizeof *always; i++)
        if (always[i])
            put(files, NULL, cJSON_CreateString(always[i]), ok);
    if (out->reports & REPORT_CATENARY) {
        put(files, NULL, cJSON_CreateString("catenary.json"), ok);
        put(files, NULL, cJSON_CreateString("catenary.txt"), ok);
    }
    put(o, "outputs", files, ok);
    put(o, "every", cJSON_CreateNumber((double)out->every), ok);
    const long frames = out->every > 0 ? sc->model->steps / out->every + 1 : 1;
    put(o, "frames", cJSON_CreateNumber((double)frames), ok);
    const struct render_opts *ro = out->render;
    if (!ro) {
        put(o, "render", cJSON_CreateNull(), ok);
        return;
    }
    cJSON *r = cJSON_CreateObject();
    if (ro->every > 0)
        put(r, "every", cJSON_CreateNumber((double)ro->every), ok);
    else
        put(r, "fps", json_out_number(ro->fps), ok);
    const double size[2] = {ro->width, ro->height};
    put(r, "size", cJSON_CreateDoubleArray(size, 2), ok);
    put(r, "color_by", cJSON_CreateString(render_color_by_name(ro->color_by)), ok);
    put(r, "contact_sheet", cJSON_CreateBool(ro->sheet.enabled), ok);
    put(r, "frames", cJSON_CreateNumber((double)render_frames_expected(sc, ro)), ok);
    put(o, "render", r, ok);
}

cJSON *describe_scenario_json(const struct scenario *sc)
{
    const struct scenario_provenance *from = &sc->provenance;
    cJSON *o = cJSON_CreateObject();
    int ok = o != NULL;
    put(o, "file", cJSON_CreateString(from->source ? from->source : ""), &ok);
    put(o, "valid", cJSON_CreateTrue(), &ok);
    put(o, "name", cJSON_CreateString(from->name ? from->name : ""), &ok);
    put(o, "sha256", cJSON_CreateString(from->sha256), &ok);
    put(o, "dimensions", cJSON_CreateNumber(sc->model->dims), &ok);
    add_contents(o, sc->model, &ok);
    add_stepping(o, sc->model, &ok);
    add_world(o, sc->model, &ok);
    add_output(o, sc, &ok);
    if (ok)
        return o;
    cJSON_Delete(o);
    return NULL;
}
