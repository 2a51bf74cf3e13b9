/* The scenario's pins[] (catena-scenario(5)): a point held where it is or at "at", or moved
 * by a motion that is a function of time alone (linear, sine, keyframes: model/pin_motion.h);
 * and the check, once the bodies' pins are in too, that no point is pinned twice. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "model/pin_motion.h"
#include "scenario/loader.h"

// clang-format off
const struct sjson_key scenario_pin_keys[] = {
    {"point", 1},
    {"at", 0},
    {"motion", 0},
    {NULL, 0},
};
const struct sjson_key scenario_linear_keys[] = {
    {"type", 1},
    {"velocity", 1},
    {NULL, 0},
};
const struct sjson_key scenario_sine_keys[] = {
    {"type", 1},
    {"axis", 1},
    {"amplitude", 1},
    {"frequency", 1},
    {"phase", 0},
    {NULL, 0},
};
const struct sjson_key scenario_keyframe_keys[] = {
    {"type", 1},
    {"times", 1},
    {"positions", 1},
    {NULL, 0},
};
// clang-format on

static int read_keyframes(struct loader *ld, const cJSON *mo, const char *path, struct pin *pin)
{
    char pt[SJSON_PATH_MAX], px[SJSON_PATH_MAX];
    const cJSON *times, *pos;
    if (sjson_array(&ld->cx, mo, path, "times", &times) ||
        sjson_array(&ld->cx, mo, path, "positions", &pos))
        return CATENA_EINPUT;
    sjson_path_key(pt, path, "times");
    sjson_path_key(px, path, "positions");
    const int n = cJSON_GetArraySize(times);
    if (n == 0)
        return sjson_error(&ld->cx, pt, "must list at least one time");
    if (cJSON_GetArraySize(pos) != n)
        return sjson_error(&ld->cx, px, "must list one position per time (%d, got %d)", n,
                           cJSON_GetArraySize(pos));
    pin->first_key = (uint32_t)ld->m->nkeys;
    pin->nkeys = (uint32_t)n;
    double last = -INFINITY;
    size_t k = 0;
    for (const cJSON *t = times->child, *x = pos->child; t; t = t->next, x = x->next, k++) {
        char p[SJSON_PATH_MAX];
        double tk = 0.0;
        vec3 xk;
        if (sjson_number(&ld->cx, t, sjson_path_index(p, pt, k), &SJSON_NONNEG, &tk))
            return CATENA_EINPUT;
        if (!(tk > last))
            return sjson_error(&ld->cx, p, "times must increase (this one is not after the last)");
        last = tk;
        if (sjson_vector(&ld->cx, x, sjson_path_index(p, px, k), ld->m->dims, &xk))
            return CATENA_EINPUT;
        if (model_add_key(ld->m, tk, xk) < 0)
            return loader_oom(ld);
    }
    /* Before its first key the pin holds the first position. */
    pin->t0 = ld->m->key_t[pin->first_key];
    pin->at = ld->m->key_x[pin->first_key];
    return 0;
}

/* pins[i].motion of the pin entry e at path, for the model's pin `pin` just added. */
static int read_motion(struct loader *ld, const cJSON *e, const char *path, size_t pin)
{
    char p[SJSON_PATH_MAX], pp[SJSON_PATH_MAX];
    const cJSON *mo = sjson_child(e, "motion");
    if (!mo)
        return 0;
    sjson_path_key(p, path, "motion");
    if (!cJSON_IsObject(mo))
        return sjson_error(&ld->cx, p, "expected an object, got %s", sjson_type_name(mo));
    const cJSON *t = sjson_child(mo, "type");
    if (!t)
        return sjson_error(&ld->cx, p, "missing required key \"type\"");
    int type = 0;
    if (sjson_enum(&ld->cx, t, sjson_path_key(pp, p, "type"), pin_motion_names + 1, &type))
        return CATENA_EINPUT;
    struct pin *pn = &ld->m->pins[pin];
    pn->motion = (uint8_t)(type + 1);
    static const struct sjson_key *const keys[] = {NULL, scenario_linear_keys, scenario_sine_keys,
                                                   scenario_keyframe_keys};
    if (sjson_check_object(&ld->cx, mo, p, keys[pn->motion]))
        return CATENA_EINPUT;
    switch ((enum pin_motion_type)pn->motion) {
    case MOTION_NONE:
        break;
    case MOTION_LINEAR:
        if (sjson_get_vector(&ld->cx, mo, p, "velocity", ld->m->dims, &pn->velocity))
            return CATENA_EINPUT;
        /* Where it is at the end of the run must be a number. */
        if (!v3_isfinite(pin_motion_at(ld->m, pn, ld->m->dt * (double)ld->m->steps)))
            return sjson_error(&ld->cx, sjson_path_key(pp, p, "velocity"),
                               "too large: the pin's position overflows within the run");
        break;
    case MOTION_SINE:
        if (loader_direction(ld, mo, p, "axis", &pn->axis) ||
            sjson_get_number(&ld->cx, mo, p, "amplitude", &SJSON_ANY, &pn->amplitude) ||
            sjson_get_number(&ld->cx, mo, p, "frequency", &SJSON_NONNEG, &pn->frequency) ||
            sjson_get_number(&ld->cx, mo, p, "phase", &SJSON_ANY, &pn->phase) ||
            loader_frequency(ld, sjson_path_key(pp, p, "frequency"), pn->frequency))
            return CATENA_EINPUT;
        break;
    case MOTION_KEYFRAMES:
        if (sjson_child(e, "at"))
            return sjson_error(&ld->cx, sjson_path_key(pp, path, "at"),
                               "a pin moving by keyframes starts at its first position (remove "
                               "\"at\")");
        if (read_keyframes(ld, mo, p, pn))
            return CATENA_EINPUT;
        break;
    }
    /* The point starts where its pin is at t = 0. */
    ld->m->x0[pn->point] = pin_motion_at(ld->m, pn, 0.0);
    return 0;
}

int scenario_read_pins(struct loader *ld)
{
    const cJSON *pins;
    if (sjson_array(&ld->cx, ld->root, "", "pins", &pins))
        return CATENA_EINPUT;
    size_t i = 0;
    for (const cJSON *e = pins ? pins->child : NULL; e; e = e->next, i++) {
        char p[SJSON_PATH_MAX], pp[SJSON_PATH_MAX];
        uint32_t point = 0;
        sjson_path_index(p, "pins", i);
        if (sjson_check_object(&ld->cx, e, p, scenario_pin_keys) ||
            sref_resolve(ld->names, ld->m, &ld->cx, sjson_child(e, "point"),
                         sjson_path_key(pp, p, "point"), &point))
            return CATENA_EINPUT;
        vec3 at = ld->m->x0[point];
        if (sjson_get_vector(&ld->cx, e, p, "at", ld->m->dims, &at))
            return CATENA_EINPUT;
        int rc = loader_add_pin(ld, point, at, -1, i);
        if (!rc)
            rc = read_motion(ld, e, p, ld->m->npins - 1);
        if (rc)
            return rc;
    }
    return 0;
}

static void pin_origin_path(const struct pin_origin *o, char p[SJSON_PATH_MAX])
{
    if (o->body < 0)
        snprintf(p, SJSON_PATH_MAX, "pins[%zu].point", o->entry);
    else
        snprintf(p, SJSON_PATH_MAX, "bodies[%ld].pins[%zu]", o->body, o->entry);
}

struct pin_order {
    uint32_t point;
    size_t order; /* index among the model's pins */
};

static int cmp_pin_order(const void *a, const void *b)
{
    const struct pin_order *x = a, *y = b;
    if (x->point != y->point)
        return x->point < y->point ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* A point pinned twice is an error at the second pin, in the order pins were read. */
int scenario_check_pins(struct loader *ld)
{
    const size_t n = ld->m->npins;
    if (n < 2)
        return 0;
    struct pin_order *o = malloc(n * sizeof *o);
    if (!o)
        return loader_oom(ld);
    for (size_t i = 0; i < n; i++)
        o[i] = (struct pin_order){.point = ld->m->pins[i].point, .order = i};
    qsort(o, n, sizeof *o, cmp_pin_order);
    /* Within a point's group (sorted by order) the second pin is the first offender. */
    size_t second = n, first = n;
    for (size_t i = 1; i < n; i++) {
        const int starts_group = i == 1 || o[i - 2].point != o[i - 1].point;
        if (o[i].point == o[i - 1].point && starts_group && o[i].order < second) {
            second = o[i].order;
            first = o[i - 1].order;
        }
    }
    free(o);
    if (second == n)
        return 0;
    char p[SJSON_PATH_MAX], earlier[SJSON_PATH_MAX], what[300];
    pin_origin_path(&ld->origins[second], p);
    pin_origin_path(&ld->origins[first], earlier);
    sref_describe(ld->m, ld->m->pins[second].point, what, sizeof what);
    return sjson_error(&ld->cx, p, "%s is already pinned by %s", what, earlier);
}
