/* The scenario's events[] (catena-scenario(5)): what happens between steps (cut, release,
 * pin, drag, reel, velocity, impulse, set, teleport; run/events.h applies them), each at a
 * time or a step. Read last, after links[]: events refer to links, and each cut appends the
 * two points and the link it reserves. */
#include <limits.h>
#include <stdlib.h>

#include "scenario/loader.h"

static const struct sjson_range FRACTION_OPEN = {0.0, 1.0, 1, 1}; /* 0 < x < 1 */

// clang-format off
const struct sjson_key scenario_event_keys[] = {
    {"time", 0},
    {"step", 0},
    {"cut", 0},
    {"release", 0},
    {"pin", 0},
    {"drag", 0},
    {"reel", 0},
    {"velocity", 0},
    {"impulse", 0},
    {"set", 0},
    {"teleport", 0},
    {NULL, 0},
};
const struct sjson_key scenario_cut_keys[] = {
    {"link", 0},
    {"at", 0},
    {"near", 0},
    {"body", 0},
    {NULL, 0},
};
const struct sjson_key scenario_point_only_keys[] = {
    {"point", 1},
    {NULL, 0},
};
const struct sjson_key scenario_pin_event_keys[] = {
    {"point", 1},
    {"at", 0},
    {NULL, 0},
};
const struct sjson_key scenario_drag_keys[] = {
    {"point", 1},
    {"path", 1},
    {"duration", 1},
    {NULL, 0},
};
const struct sjson_key scenario_reel_keys[] = {
    {"link", 0},
    {"body", 0},
    {"rate", 1},
    {"to", 1},
    {NULL, 0},
};
const struct sjson_key scenario_velocity_keys[] = {
    {"point", 0},
    {"body", 0},
    {"v", 1},
    {NULL, 0},
};
const struct sjson_key scenario_impulse_keys[] = {
    {"point", 0},
    {"body", 0},
    {"j", 1},
    {NULL, 0},
};
const struct sjson_key scenario_teleport_keys[] = {
    {"point", 0},
    {"body", 0},
    {"by", 1},
    {NULL, 0},
};
const struct sjson_key scenario_set_keys[] = {
    {"gravity", 0},
    {"wind", 0},
    {"gust", 0},
    {"iterations", 0},
    {"damping", 0},
    {"damping_rate", 0},
    {"collide_every", 0},
    {NULL, 0},
};
// clang-format on

/* The event kinds as the file writes them (the key naming the kind), by enum event_kind. */
static const char *const kind_keys[] = {"cut",      "release", "pin", "drag",     "reel",
                                        "velocity", "impulse", "set", "teleport", NULL};

/* An event before its place in time order is known; seq keeps the file order. */
struct pending_event {
    struct event ev;
    size_t seq;
};

static int cmp_pending(const void *a, const void *b)
{
    const struct pending_event *x = a, *y = b;
    if (x->ev.step != y->ev.step)
        return x->ev.step < y->ev.step ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Exactly one of two keys (say "point" or "body"); returns which (0 or 1). */
static int one_of(struct loader *ld, const cJSON *e, const char *path, const char *k0,
                  const char *k1, int *which)
{
    const int has0 = sjson_child(e, k0) != NULL, has1 = sjson_child(e, k1) != NULL;
    if (loader_either(ld, e, path, k0, k1))
        return CATENA_EINPUT;
    if (!has0 && !has1)
        return sjson_error(&ld->cx, path, "missing \"%s\" or \"%s\"", k0, k1);
    *which = has1;
    return 0;
}

static int read_point_ref(struct loader *ld, const cJSON *e, const char *path, uint32_t *out)
{
    char p[SJSON_PATH_MAX];
    return sref_resolve(ld->names, ld->m, &ld->cx, sjson_child(e, "point"),
                        sjson_path_key(p, path, "point"), out);
}

/* "point" or "body" into ev->target and ev->index. */
static int read_target(struct loader *ld, const cJSON *e, const char *path, struct event *ev)
{
    char p[SJSON_PATH_MAX];
    int body = 0;
    if (one_of(ld, e, path, "point", "body", &body))
        return CATENA_EINPUT;
    ev->target = body ? TARGET_BODY : TARGET_POINT;
    if (body)
        return sref_resolve_body(ld->names, &ld->cx, sjson_child(e, "body"),
                                 sjson_path_key(p, path, "body"), &ev->index);
    return read_point_ref(ld, e, path, &ev->index);
}

/* A point that a release frees must have a mass to move with. */
static int check_releasable(struct loader *ld, const char *path, uint32_t point, const char *what)
{
    char p[SJSON_PATH_MAX], d[300];
    if (ld->m->mass[point] > 0.0)
        return 0;
    return sjson_error(&ld->cx, sjson_path_key(p, path, "point"),
                       "%s has mass 0 (held still for good), so it cannot be %s",
                       sref_describe(ld->m, point, d, sizeof d), what);
}

static int read_cut(struct loader *ld, const cJSON *e, const char *path, struct event *ev)
{
    char p[SJSON_PATH_MAX];
    int near = 0;
    if (sjson_check_object(&ld->cx, e, path, scenario_cut_keys) ||
        one_of(ld, e, path, "link", "near", &near))
        return CATENA_EINPUT;
    if (!near) {
        ev->target = TARGET_LINK;
        ev->a = 0.5;
        if (loader_refuse(ld, e, path, "body", "goes with \"near\" (a link is already one link)") ||
            sref_resolve_link(ld->names, ld->m, &ld->cx, sjson_child(e, "link"),
                              sjson_path_key(p, path, "link"), &ev->index) ||
            sjson_get_number(&ld->cx, e, path, "at", &FRACTION_OPEN, &ev->a))
            return CATENA_EINPUT;
        /* Bend and shear links only shadow the fabric: they go with the structural link. */
        if (ld->m->links[ev->index].role != ROLE_STRUCTURAL)
            return sjson_error(&ld->cx, p,
                               "link %u is a %s link; cut a structural one (the %s links across "
                               "it go with it)",
                               ev->index,
                               ld->m->links[ev->index].role == ROLE_BEND ? "bend" : "shear",
                               "bend and shear");
        return 0;
    }
    ev->target = TARGET_NEAR;
    ev->index = UINT32_MAX;
    const cJSON *b = sjson_child(e, "body");
    return loader_refuse(ld, e, path, "at",
                         "goes with \"link\" (\"near\" cuts at the nearest point)") ||
           sjson_get_vector(&ld->cx, e, path, "near", ld->m->dims, &ev->v) ||
           (b &&
            sref_resolve_body(ld->names, &ld->cx, b, sjson_path_key(p, path, "body"), &ev->index));
}

static int read_drag(struct loader *ld, const cJSON *e, const char *path, struct event *ev)
{
    char p[SJSON_PATH_MAX];
    const cJSON *pathv;
    double duration = 0.0;
    if (sjson_check_object(&ld->cx, e, path, scenario_drag_keys) ||
        read_point_ref(ld, e, path, &ev->index) ||
        check_releasable(ld, path, ev->index, "dragged (a drag ends by releasing it)") ||
        sjson_array(&ld->cx, e, path, "path", &pathv) ||
        sjson_get_number(&ld->cx, e, path, "duration", &SJSON_POSITIVE, &duration))
        return CATENA_EINPUT;
    sjson_path_key(p, path, "path");
    const int n = cJSON_GetArraySize(pathv);
    if (n == 0)
        return sjson_error(&ld->cx, p, "must list at least one position");
    const double t0 = (double)ev->step * ld->m->dt;
    ev->target = TARGET_POINT;
    ev->a = duration;
    ev->pin = (struct pin){.point = ev->index,
                           .motion = MOTION_KEYFRAMES,
                           .t0 = t0,
                           .first_key = (uint32_t)ld->m->nkeys,
                           .nkeys = (uint32_t)n};
    /* Evenly timed: the k-th position is reached at t0 + duration k / n. */
    int k = 0;
    for (const cJSON *x = pathv->child; x; x = x->next, k++) {
        char pk[SJSON_PATH_MAX];
        vec3 xk;
        if (sjson_vector(&ld->cx, x, sjson_path_index(pk, p, (size_t)k), ld->m->dims, &xk))
            return CATENA_EINPUT;
        if (model_add_key(ld->m, t0 + duration * (k + 1) / n, xk) < 0)
            return loader_oom(ld);
    }
    return 0;
}

static int read_reel(struct loader *ld, const cJSON *e, const char *path, struct event *ev)
{
    char p[SJSON_PATH_MAX];
    int body = 0;
    if (sjson_check_object(&ld->cx, e, path, scenario_reel_keys) ||
        one_of(ld, e, path, "link", "body", &body))
        return CATENA_EINPUT;
    ev->target = body ? TARGET_BODY : TARGET_LINK;
    if (body ? sref_resolve_body(ld->names, &ld->cx, sjson_child(e, "body"),
                                 sjson_path_key(p, path, "body"), &ev->index)
             : sref_resolve_link(ld->names, ld->m, &ld->cx, sjson_child(e, "link"),
                                 sjson_path_key(p, path, "link"), &ev->index))
        return CATENA_EINPUT;
    char shown[SJSON_SHOW_SIZE];
    if (body && ld->m->bodies[ev->index].nlinks == 0)
        return sjson_error(&ld->cx, p, "body \"%s\" has no links to reel",
                           sjson_show(shown, ld->m->bodies[ev->index].name));
    if (sjson_get_number(&ld->cx, e, path, "rate", &SJSON_ANY, &ev->a) ||
        sjson_get_number(&ld->cx, e, path, "to", &SJSON_POSITIVE, &ev->b))
        return CATENA_EINPUT;
    if (ev->a == 0.0)
        return sjson_error(&ld->cx, sjson_path_key(p, path, "rate"),
                           "must not be 0 (m/s: negative shortens, positive lengthens)");
    return 0;
}

static int read_set(struct loader *ld, const cJSON *e, const char *path, struct event *ev)
{
    char p[SJSON_PATH_MAX];
    long long iterations = 1, every = 1;
    const cJSON *gust = sjson_child(e, "gust");
    double rate = -1;
    ev->damping = 1.0;
    if (sjson_check_object(&ld->cx, e, path, scenario_set_keys) ||
        sjson_get_vector(&ld->cx, e, path, "gravity", ld->m->dims, &ev->gravity) ||
        sjson_get_vector(&ld->cx, e, path, "wind", ld->m->dims, &ev->wind) ||
        (gust && scenario_read_gust(ld, gust, sjson_path_key(p, path, "gust"), &ev->gust_amplitude,
                                    &ev->gust_frequency)) ||
        sjson_get_integer(&ld->cx, e, path, "iterations", 1, INT_MAX, &iterations) ||
        loader_either(ld, e, path, "damping", "damping_rate") ||
        sjson_get_number(&ld->cx, e, path, "damping", &SJSON_UNIT, &ev->damping) ||
        sjson_get_number(&ld->cx, e, path, "damping_rate", &SJSON_NONNEG, &rate) ||
        sjson_get_integer(&ld->cx, e, path, "collide_every", 1, SCENARIO_MAX_COUNT, &every))
        return CATENA_EINPUT;
    if (rate >= 0) { /* as solver.damping_rate: the same meaning under every method */
        ev->damping = model_damping_of_rate(ld->m, rate);
        ev->set |= SET_DAMPING;
    }
    static const char *const keys[] = {"gravity",    "wind",    "gust",
                                       "iterations", "damping", "collide_every"};
    for (unsigned k = 0; k < sizeof keys / sizeof *keys; k++)
        if (sjson_child(e, keys[k]))
            ev->set |= 1u << k;
    if (!ev->set)
        return sjson_error(&ld->cx, path,
                           "nothing to set (give gravity, wind, gust, iterations, damping, "
                           "damping_rate or collide_every)");
    ev->iterations = (int)iterations;
    ev->collide_every = every > INT_MAX ? INT_MAX : (int)every;
    return scenario_check_world(ld, path, ev->gravity, ev->wind, ev->gust_amplitude);
}

/* The largest inverse mass among an event's target points. */
static double target_inv_mass(const struct model *m, const struct event *ev)
{
    if (ev->target != TARGET_BODY)
        return m->inv_mass[ev->index];
    const struct body *b = &m->bodies[ev->index];
    double w = 0.0;
    for (uint32_t k = 0; k < b->npoints; k++)
        w = fmax(w, m->inv_mass[b->first_point + k]);
    return w;
}

/* What an event's values become in a run, which must stay finite: a velocity times the
 * substep (the step it makes), an impulse over the lightest target's mass (the velocity it
 * gives), a reel's rate over the whole run (the length it adds). */
static int check_values(struct loader *ld, const cJSON *e, const char *path, const struct event *ev)
{
    char p[SJSON_PATH_MAX];
    const struct model *m = ld->m;
    const double h = m->dt / m->substeps, run = m->dt * (double)m->steps;
    const char *key = NULL;
    if (ev->kind == EVENT_VELOCITY && !v3_isfinite(v3_scale(ev->v, h)))
        key = "v";
    else if (ev->kind == EVENT_IMPULSE &&
             !v3_isfinite(v3_scale(v3_scale(ev->v, target_inv_mass(m, ev)), h)))
        key = "j";
    else if (ev->kind == EVENT_REEL && !isfinite(ev->a * run))
        key = "rate";
    if (!key || !sjson_child(e, key))
        return 0;
    return sjson_error(&ld->cx, sjson_path_key(p, path, key),
                       "too large: what it makes of the points' motion in a step overflows");
}

/* The body of event kind `kind` at path. */
static int read_kind(struct loader *ld, const cJSON *e, const char *path, struct event *ev)
{
    switch ((enum event_kind)ev->kind) {
    case EVENT_CUT:
        return read_cut(ld, e, path, ev);
    case EVENT_RELEASE:
        ev->target = TARGET_POINT;
        return sjson_check_object(&ld->cx, e, path, scenario_point_only_keys) ||
               read_point_ref(ld, e, path, &ev->index) ||
               check_releasable(ld, path, ev->index, "released");
    case EVENT_PIN:
        ev->target = TARGET_POINT;
        ev->has_at = sjson_child(e, "at") != NULL;
        return sjson_check_object(&ld->cx, e, path, scenario_pin_event_keys) ||
               read_point_ref(ld, e, path, &ev->index) ||
               sjson_get_vector(&ld->cx, e, path, "at", ld->m->dims, &ev->v);
    case EVENT_DRAG:
        return read_drag(ld, e, path, ev);
    case EVENT_REEL:
        return read_reel(ld, e, path, ev);
    case EVENT_VELOCITY:
        return sjson_check_object(&ld->cx, e, path, scenario_velocity_keys) ||
               read_target(ld, e, path, ev) ||
               sjson_get_vector(&ld->cx, e, path, "v", ld->m->dims, &ev->v);
    case EVENT_IMPULSE:
        return sjson_check_object(&ld->cx, e, path, scenario_impulse_keys) ||
               read_target(ld, e, path, ev) ||
               sjson_get_vector(&ld->cx, e, path, "j", ld->m->dims, &ev->v);
    case EVENT_SET:
        return read_set(ld, e, path, ev);
    case EVENT_TELEPORT:
        return sjson_check_object(&ld->cx, e, path, scenario_teleport_keys) ||
               read_target(ld, e, path, ev) ||
               sjson_get_vector(&ld->cx, e, path, "by", ld->m->dims, &ev->v);
    }
    return 0;
}

/* "time" (s, the first step boundary at or after it) or "step". */
static int read_when(struct loader *ld, const cJSON *e, const char *path, long *step)
{
    int by_step = 0;
    if (one_of(ld, e, path, "time", "step", &by_step))
        return CATENA_EINPUT;
    if (by_step) {
        long long k = 0;
        if (sjson_get_integer(&ld->cx, e, path, "step", 0, SCENARIO_MAX_COUNT, &k))
            return CATENA_EINPUT;
        *step = (long)k;
        return 0;
    }
    double t = 0.0;
    if (sjson_get_number(&ld->cx, e, path, "time", &SJSON_NONNEG, &t))
        return CATENA_EINPUT;
    *step = loader_time_step(ld, t);
    return 0;
}

static int read_event(struct loader *ld, const cJSON *e, const char *path, struct event *ev)
{
    char p[SJSON_PATH_MAX];
    *ev = (struct event){0};
    if (sjson_check_object(&ld->cx, e, path, scenario_event_keys) ||
        read_when(ld, e, path, &ev->step))
        return CATENA_EINPUT;
    int found = -1;
    for (int k = 0; kind_keys[k]; k++) {
        if (!sjson_child(e, kind_keys[k]))
            continue;
        if (found >= 0)
            return sjson_error(&ld->cx, sjson_path_key(p, path, kind_keys[k]),
                               "an event does one thing: \"%s\" is given too (make two events)",
                               kind_keys[found]);
        found = k;
    }
    if (found < 0)
        return sjson_error(&ld->cx, path,
                           "missing what happens: one of \"cut\", \"release\", \"pin\", "
                           "\"drag\", \"reel\", \"velocity\", \"impulse\", \"set\" or "
                           "\"teleport\"");
    ev->kind = (uint8_t)found;
    const cJSON *body = sjson_child(e, kind_keys[found]);
    sjson_path_key(p, path, kind_keys[found]);
    if (!cJSON_IsObject(body))
        return sjson_error(&ld->cx, p, "expected an object, got %s", sjson_type_name(body));
    return read_kind(ld, body, p, ev) || check_values(ld, body, p, ev) ? CATENA_EINPUT : 0;
}

/* Two idle points (mass 0, no links) and one dead link for each cut: the point count never
 * changes during a run, as fixed-shape outputs (NPY) need. The points wait where the cut
 * will most likely fall: the link's midpoint at t = 0, or the "near" point. */
static int reserve_cut(struct loader *ld, struct event *ev)
{
    struct model *m = ld->m;
    vec3 at = ev->v;
    if (ev->target == TARGET_LINK) {
        const struct link *l = &m->links[ev->index];
        at = v3_scale(v3_add(m->x0[l->a], m->x0[l->b]), 0.5);
    }
    const long c = model_add_point(m, at, v3(0, 0, 0), 0.0, 0.0, NULL);
    const long d = c < 0 ? -1 : model_add_point(m, at, v3(0, 0, 0), 0.0, 0.0, NULL);
    const long l = d < 0 ? -1 : model_add_link(m, (uint32_t)c, (uint32_t)d, 1.0);
    if (l < 0)
        return loader_oom(ld);
    ev->reserved_point = (uint32_t)c;
    ev->reserved_link = (uint32_t)l;
    m->nreserved_points += 2;
    m->nreserved_links++;
    return 0;
}

int scenario_read_events(struct loader *ld)
{
    const cJSON *evs;
    struct model *m = ld->m;
    if (sjson_array(&ld->cx, ld->root, "", "events", &evs))
        return CATENA_EINPUT;
    m->first_reserved_point = m->npoints;
    m->first_reserved_link = m->nlinks;
    const size_t n = (size_t)cJSON_GetArraySize(evs);
    if (n == 0)
        return 0;
    /* A drag adds its own release at its end: room for two per event. */
    struct pending_event *pe = calloc(2 * n, sizeof *pe);
    if (!pe)
        return loader_oom(ld);
    size_t count = 0, i = 0;
    int rc = 0;
    for (const cJSON *e = evs->child; e && !rc; e = e->next, i++) {
        char p[SJSON_PATH_MAX];
        struct event ev;
        if ((rc = read_event(ld, e, sjson_path_index(p, "events", i), &ev)))
            break;
        pe[count++] = (struct pending_event){ev, 2 * i};
        if (ev.kind == EVENT_DRAG) {
            const long end = ev.step + loader_time_step(ld, ev.a);
            const struct event rel = {.step = end,
                                      .kind = EVENT_RELEASE,
                                      .target = TARGET_POINT,
                                      .index = ev.index,
                                      .ends_drag = 1};
            pe[count++] = (struct pending_event){rel, 2 * i + 1};
        }
    }
    /* Points and links are reserved only once every reference has been resolved against
     * the scenario's own points, so no event can name a reserved one. */
    for (size_t k = 0; k < count && !rc; k++)
        if (pe[k].ev.kind == EVENT_CUT)
            rc = reserve_cut(ld, &pe[k].ev);
    if (!rc) {
        qsort(pe, count, sizeof *pe, cmp_pending);
        for (size_t k = 0; k < count && !rc; k++)
            if (model_add_event(m, &pe[k].ev) < 0)
                rc = loader_oom(ld);
    }
    free(pe);
    return rc;
}
