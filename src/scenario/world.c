/* Scenario sections of the world (issue 4): obstacles[], events[], pins[].motion,
 * world.wind and world.gust, time.until_settled, solver.collide_every, and the bodies'
 * self_collision and drag. Each reader checks ranges and names the JSON path in errors. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/collide/collide.h"
#include "core/fmt_double.h"
#include "model/pin_motion.h"
#include "scenario/loader.h"

/* Times within this fraction of a step of a step boundary count as on it, so that 0.5 s at
 * dt = 1/120 is step 60 even when 0.5 / (1/120) rounds to 60.000000000000007. */
#define STEP_SLACK 1e-6

/* Integer keys stop where JSON's doubles stop being exact. */
#define MAX_COUNT 9007199254740992LL

static const struct sjson_range UNIT_CLOSED = {0.0, 1.0, 0, 0};   /* 0 <= x <= 1 */
static const struct sjson_range FRACTION_OPEN = {0.0, 1.0, 1, 1}; /* 0 < x < 1 */

// clang-format off
static const struct sjson_key settle_keys[] = {
    {"speed", 1},
    {"for", 0},
    {NULL, 0},
};
static const struct sjson_key gust_keys[] = {
    {"amplitude", 1},
    {"frequency", 1},
    {NULL, 0},
};
static const struct sjson_key self_keys[] = {
    {"radius", 1},
    {NULL, 0},
};
static const struct sjson_key obstacle_keys[] = {
    {"type", 1},
    {"point", 0},
    {"normal", 0},
    {"center", 0},
    {"radius", 0},
    {"half", 0},
    {"angle", 0},
    {"euler", 0},
    {"quaternion", 0},
    {"a", 0},
    {"b", 0},
    {"friction", 0},
    {"restitution", 0},
    {NULL, 0},
};
static const struct sjson_key linear_keys[] = {
    {"type", 1},
    {"velocity", 1},
    {NULL, 0},
};
static const struct sjson_key sine_keys[] = {
    {"type", 1},
    {"axis", 1},
    {"amplitude", 1},
    {"frequency", 1},
    {"phase", 0},
    {NULL, 0},
};
static const struct sjson_key keyframe_keys[] = {
    {"type", 1},
    {"times", 1},
    {"positions", 1},
    {NULL, 0},
};
static const struct sjson_key event_keys[] = {
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
static const struct sjson_key cut_keys[] = {
    {"link", 0},
    {"at", 0},
    {"near", 0},
    {"body", 0},
    {NULL, 0},
};
static const struct sjson_key point_only_keys[] = {
    {"point", 1},
    {NULL, 0},
};
static const struct sjson_key pin_event_keys[] = {
    {"point", 1},
    {"at", 0},
    {NULL, 0},
};
static const struct sjson_key drag_keys[] = {
    {"point", 1},
    {"path", 1},
    {"duration", 1},
    {NULL, 0},
};
static const struct sjson_key reel_keys[] = {
    {"link", 0},
    {"body", 0},
    {"rate", 1},
    {"to", 1},
    {NULL, 0},
};
static const struct sjson_key velocity_keys[] = {
    {"point", 0},
    {"body", 0},
    {"v", 1},
    {NULL, 0},
};
static const struct sjson_key impulse_keys[] = {
    {"point", 0},
    {"body", 0},
    {"j", 1},
    {NULL, 0},
};
static const struct sjson_key teleport_keys[] = {
    {"point", 0},
    {"body", 0},
    {"by", 1},
    {NULL, 0},
};
static const struct sjson_key set_keys[] = {
    {"gravity", 0},
    {"wind", 0},
    {"gust", 0},
    {"iterations", 0},
    {"damping", 0},
    {"collide_every", 0},
    {NULL, 0},
};
// clang-format on

/* The event kinds as the file writes them (the key naming the kind), by enum event_kind. */
static const char *const kind_keys[] = {"cut",      "release", "pin", "drag",     "reel",
                                        "velocity", "impulse", "set", "teleport", NULL};

/* ---- settings: time.until_settled, solver.collide_every, world.wind and world.gust ---- */

static int read_gust(struct loader *ld, const cJSON *g, const char *path, double *amplitude,
                     double *frequency)
{
    return sjson_check_object(&ld->cx, g, path, gust_keys) ||
           sjson_get_number(&ld->cx, g, path, "amplitude", &SJSON_NONNEG, amplitude) ||
           sjson_get_number(&ld->cx, g, path, "frequency", &SJSON_POSITIVE, frequency);
}

int scenario_read_world_settings(struct loader *ld)
{
    struct model *m = ld->m;
    const cJSON *t = sjson_child(ld->root, "time"), *w = sjson_child(ld->root, "world");
    const cJSON *settle = NULL, *gust = sjson_child(w, "gust");
    long long every = m->collide_every;
    if (sjson_object(&ld->cx, t, "time", "until_settled", settle_keys, &settle) ||
        sjson_get_integer(&ld->cx, sjson_child(ld->root, "solver"), "solver", "collide_every", 1,
                          MAX_COUNT, &every) ||
        sjson_get_vector(&ld->cx, w, "world", "wind", m->dims, &m->wind) ||
        (gust && read_gust(ld, gust, "world.gust", &m->gust_amplitude, &m->gust_frequency)))
        return CATENA_EINPUT;
    /* Every k-th iteration with k past the count is just the first and the last. */
    m->collide_every = every > m->iterations ? m->iterations : (int)every;
    if (!settle)
        return 0;
    m->settle_for = 1.0;
    return sjson_get_number(&ld->cx, settle, "time.until_settled", "speed", &SJSON_POSITIVE,
                            &m->settle_speed) ||
                   sjson_get_number(&ld->cx, settle, "time.until_settled", "for", &SJSON_NONNEG,
                                    &m->settle_for)
               ? CATENA_EINPUT
               : 0;
}

/* ---- obstacles ---- */

/* A vector that must not be zero (a normal, an axis), returned unit length. */
static int read_direction(struct loader *ld, const cJSON *e, const char *path, const char *key,
                          vec3 *out)
{
    char p[SJSON_PATH_MAX];
    if (sjson_get_vector(&ld->cx, e, path, key, ld->m->dims, out))
        return CATENA_EINPUT;
    const double len = v3_len(*out);
    if (len == 0.0)
        return sjson_error(&ld->cx, sjson_path_key(p, path, key), "must not be the zero vector");
    *out = v3_scale(*out, 1.0 / len);
    return 0;
}

/* A key the shape needs; the message names the shape. */
static int need(struct loader *ld, const cJSON *e, const char *path, const char *key,
                const char *type)
{
    if (sjson_child(e, key))
        return 0;
    return sjson_error(&ld->cx, path, "missing required key \"%s\" (a %s needs it)", key, type);
}

/* A key the shape does not take. */
static int refuse(struct loader *ld, const cJSON *e, const char *path, const char *key,
                  const char *why)
{
    char p[SJSON_PATH_MAX];
    if (!sjson_child(e, key))
        return 0;
    return sjson_error(&ld->cx, sjson_path_key(p, path, key), "%s", why);
}

static void set_identity(double R[3][3])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            R[i][j] = i == j;
}

/* R = Rz(c) Ry(b) Rx(a): about x first, then y, then z, all about the fixed world axes. */
static void euler_rotation(vec3 e, double R[3][3])
{
    const double ca = cos(e.x), sa = sin(e.x), cb = cos(e.y), sb = sin(e.y), cc = cos(e.z),
                 sc = sin(e.z);
    const double M[3][3] = {{cc * cb, cc * sb * sa - sc * ca, cc * sb * ca + sc * sa},
                            {sc * cb, sc * sb * sa + cc * ca, sc * sb * ca - cc * sa},
                            {-sb, cb * sa, cb * ca}};
    memcpy(R, M, sizeof M);
}

/* Unit quaternion [w, x, y, z] to a rotation matrix. */
static void quaternion_rotation(const double q[4], double R[3][3])
{
    const double w = q[0], x = q[1], y = q[2], z = q[3];
    const double M[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                            {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                            {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
    memcpy(R, M, sizeof M);
}

static int read_quaternion(struct loader *ld, const cJSON *q, const char *path, double R[3][3])
{
    if (!cJSON_IsArray(q) || cJSON_GetArraySize(q) != 4)
        return sjson_error(&ld->cx, path, "expected an array of 4 numbers [w, x, y, z]");
    double c[4], len = 0.0;
    int i = 0;
    for (const cJSON *e = q->child; e; e = e->next, i++) {
        char p[SJSON_PATH_MAX];
        if (sjson_number(&ld->cx, e, sjson_path_index(p, path, (size_t)i), &SJSON_ANY, &c[i]))
            return CATENA_EINPUT;
        len += c[i] * c[i];
    }
    if (len == 0.0)
        return sjson_error(&ld->cx, path,
                           "must not be all zeros (a rotation needs a unit "
                           "quaternion; it is normalised)");
    for (i = 0; i < 4; i++)
        c[i] /= sqrt(len);
    quaternion_rotation(c, R);
    return 0;
}

/* A box's or bounds' rotation: "angle" in 2D; "euler" or "quaternion" in 3D. */
static int read_rotation(struct loader *ld, const cJSON *e, const char *path, struct obstacle *o)
{
    char p[SJSON_PATH_MAX];
    set_identity(o->rot);
    if (ld->m->dims == 2) {
        double a = 0.0;
        if (refuse(ld, e, path, "euler", "is for 3D scenarios (in 2D give \"angle\")") ||
            refuse(ld, e, path, "quaternion", "is for 3D scenarios (in 2D give \"angle\")") ||
            sjson_get_number(&ld->cx, e, path, "angle", &SJSON_ANY, &a))
            return CATENA_EINPUT;
        euler_rotation(v3(0, 0, a), o->rot);
        return 0;
    }
    if (refuse(ld, e, path, "angle",
               "is for 2D scenarios (in 3D give \"euler\" or \"quaternion\")"))
        return CATENA_EINPUT;
    const cJSON *eu = sjson_child(e, "euler"), *q = sjson_child(e, "quaternion");
    if (eu && q)
        return sjson_error(&ld->cx, sjson_path_key(p, path, "quaternion"),
                           "give either \"euler\" or \"quaternion\", not both");
    if (q)
        return read_quaternion(ld, q, sjson_path_key(p, path, "quaternion"), o->rot);
    vec3 angles = v3(0, 0, 0);
    if (sjson_get_vector(&ld->cx, e, path, "euler", 3, &angles))
        return CATENA_EINPUT;
    euler_rotation(angles, o->rot);
    return 0;
}

/* Half extents, each > 0; in 2D the box is unbounded along z. */
static int read_half(struct loader *ld, const cJSON *e, const char *path, vec3 *half)
{
    char p[SJSON_PATH_MAX];
    if (sjson_get_vector(&ld->cx, e, path, "half", ld->m->dims, half))
        return CATENA_EINPUT;
    const double h[3] = {half->x, half->y, half->z};
    for (int k = 0; k < ld->m->dims; k++)
        if (!(h[k] > 0.0)) {
            char got[FMT_DOUBLE_SIZE];
            fmt_double(got, h[k]);
            char ph[SJSON_PATH_MAX];
            sjson_path_index(p, sjson_path_key(ph, path, "half"), (size_t)k);
            return sjson_error(&ld->cx, p, "must be greater than 0 (got %s)", got);
        }
    if (ld->m->dims == 2)
        half->z = INFINITY;
    return 0;
}

/* The keys of each shape: required ones, and every other shape key refused. */
static int read_shape(struct loader *ld, const cJSON *e, const char *path, struct obstacle *o)
{
    static const char *const shape_keys[] = {"point", "normal", "center", "radius",
                                             "half",  "angle",  "euler",  "quaternion",
                                             "a",     "b",      NULL};
    static const char *const takes[][6] = {
        [OBSTACLE_PLANE] = {"point", "normal"},
        [OBSTACLE_SPHERE] = {"center", "radius"},
        [OBSTACLE_BOX] = {"center", "half", "angle", "euler", "quaternion"},
        [OBSTACLE_CAPSULE] = {"a", "b", "radius"},
        [OBSTACLE_BOUNDS] = {"center", "half", "angle", "euler", "quaternion"},
    };
    const char *type = collide_type_names[o->type];
    for (int k = 0; shape_keys[k]; k++) {
        int ok = 0;
        for (int j = 0; takes[o->type][j]; j++)
            ok |= strcmp(takes[o->type][j], shape_keys[k]) == 0;
        char why[128];
        snprintf(why, sizeof why, "a %s has no \"%s\"", type, shape_keys[k]);
        if (!ok && refuse(ld, e, path, shape_keys[k], why))
            return CATENA_EINPUT;
    }
    switch ((enum obstacle_type)o->type) {
    case OBSTACLE_PLANE:
        return need(ld, e, path, "point", type) || need(ld, e, path, "normal", type) ||
               sjson_get_vector(&ld->cx, e, path, "point", ld->m->dims, &o->p) ||
               read_direction(ld, e, path, "normal", &o->n);
    case OBSTACLE_SPHERE:
        return need(ld, e, path, "center", type) || need(ld, e, path, "radius", type) ||
               sjson_get_vector(&ld->cx, e, path, "center", ld->m->dims, &o->p) ||
               sjson_get_number(&ld->cx, e, path, "radius", &SJSON_POSITIVE, &o->r);
    case OBSTACLE_CAPSULE:
        return need(ld, e, path, "a", type) || need(ld, e, path, "b", type) ||
               need(ld, e, path, "radius", type) ||
               sjson_get_vector(&ld->cx, e, path, "a", ld->m->dims, &o->p) ||
               sjson_get_vector(&ld->cx, e, path, "b", ld->m->dims, &o->q) ||
               sjson_get_number(&ld->cx, e, path, "radius", &SJSON_POSITIVE, &o->r);
    case OBSTACLE_BOX:
    case OBSTACLE_BOUNDS:
        return need(ld, e, path, "center", type) || need(ld, e, path, "half", type) ||
               sjson_get_vector(&ld->cx, e, path, "center", ld->m->dims, &o->p) ||
               read_half(ld, e, path, &o->half) || read_rotation(ld, e, path, o);
    }
    return 0;
}

static int read_obstacle(struct loader *ld, const cJSON *e, const char *path)
{
    struct obstacle o = {0};
    int type = 0;
    char p[SJSON_PATH_MAX];
    if (sjson_check_object(&ld->cx, e, path, obstacle_keys) ||
        sjson_enum(&ld->cx, sjson_child(e, "type"), sjson_path_key(p, path, "type"),
                   collide_type_names, &type))
        return CATENA_EINPUT;
    o.type = (uint8_t)type;
    if (read_shape(ld, e, path, &o) ||
        sjson_get_number(&ld->cx, e, path, "friction", &UNIT_CLOSED, &o.friction) ||
        sjson_get_number(&ld->cx, e, path, "restitution", &UNIT_CLOSED, &o.restitution))
        return CATENA_EINPUT;
    collide_obstacle_bounds(&o);
    return model_add_obstacle(ld->m, &o) < 0 ? scenario_oom(ld) : 0;
}

int scenario_read_obstacles(struct loader *ld)
{
    const cJSON *obs;
    if (sjson_array(&ld->cx, ld->root, "", "obstacles", &obs))
        return CATENA_EINPUT;
    size_t i = 0;
    for (const cJSON *e = obs ? obs->child : NULL; e; e = e->next, i++) {
        char p[SJSON_PATH_MAX];
        const int rc = read_obstacle(ld, e, sjson_path_index(p, "obstacles", i));
        if (rc)
            return rc;
    }
    return 0;
}

/* ---- bodies[].self_collision and bodies[].drag ---- */

/* Self-collision radius: two radii must fit in the shortest link, or linked neighbours
 * (or, on a straight rope, segments two apart) would be pushed apart by design. */
static int read_self(struct loader *ld, const cJSON *sc, const char *path, struct body *b)
{
    if (sjson_check_object(&ld->cx, sc, path, self_keys) ||
        sjson_get_number(&ld->cx, sc, path, "radius", &SJSON_POSITIVE, &b->self_radius))
        return CATENA_EINPUT;
    double shortest = INFINITY;
    for (uint32_t k = 0; k < b->nlinks; k++) {
        const struct link *l = &ld->m->links[b->first_link + k];
        if (l->role == ROLE_STRUCTURAL)
            shortest = fmin(shortest, l->rest);
    }
    if (isfinite(shortest) && 2.0 * b->self_radius >= shortest) {
        char p[SJSON_PATH_MAX], s[FMT_DOUBLE_SIZE], got[FMT_DOUBLE_SIZE];
        fmt_double(s, 0.5 * shortest);
        fmt_double(got, b->self_radius);
        return sjson_error(&ld->cx, sjson_path_key(p, path, "radius"),
                           "must be less than half the body's shortest link, %s (got %s)", s, got);
    }
    return 0;
}

int scenario_read_body_world(struct loader *ld)
{
    const cJSON *bodies = sjson_child(ld->root, "bodies");
    size_t i = 0;
    for (const cJSON *e = bodies ? bodies->child : NULL; e; e = e->next, i++) {
        char p[SJSON_PATH_MAX], pp[SJSON_PATH_MAX];
        struct body *b = &ld->m->bodies[i];
        const cJSON *sc = sjson_child(e, "self_collision");
        sjson_path_index(p, "bodies", i);
        if (sjson_get_number(&ld->cx, e, p, "drag", &SJSON_NONNEG, &b->drag) ||
            (sc && read_self(ld, sc, sjson_path_key(pp, p, "self_collision"), b)))
            return CATENA_EINPUT;
    }
    return 0;
}

/* ---- pins[].motion ---- */

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
            return scenario_oom(ld);
    }
    /* Before its first key the pin holds the first position. */
    pin->t0 = ld->m->key_t[pin->first_key];
    pin->at = ld->m->key_x[pin->first_key];
    return 0;
}

int scenario_read_pin_motion(struct loader *ld, const cJSON *e, const char *path, size_t pin)
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
    static const struct sjson_key *const keys[] = {NULL, linear_keys, sine_keys, keyframe_keys};
    if (sjson_check_object(&ld->cx, mo, p, keys[pn->motion]))
        return CATENA_EINPUT;
    switch ((enum pin_motion_type)pn->motion) {
    case MOTION_NONE:
        break;
    case MOTION_LINEAR:
        if (sjson_get_vector(&ld->cx, mo, p, "velocity", ld->m->dims, &pn->velocity))
            return CATENA_EINPUT;
        break;
    case MOTION_SINE:
        if (read_direction(ld, mo, p, "axis", &pn->axis) ||
            sjson_get_number(&ld->cx, mo, p, "amplitude", &SJSON_ANY, &pn->amplitude) ||
            sjson_get_number(&ld->cx, mo, p, "frequency", &SJSON_NONNEG, &pn->frequency) ||
            sjson_get_number(&ld->cx, mo, p, "phase", &SJSON_ANY, &pn->phase))
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

/* ---- events[] ---- */

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
    if (has0 && has1) {
        char p[SJSON_PATH_MAX];
        return sjson_error(&ld->cx, sjson_path_key(p, path, k1),
                           "give either \"%s\" or \"%s\", not both", k0, k1);
    }
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
    if (sjson_check_object(&ld->cx, e, path, cut_keys) ||
        one_of(ld, e, path, "link", "near", &near))
        return CATENA_EINPUT;
    if (!near) {
        ev->target = TARGET_LINK;
        ev->a = 0.5;
        if (refuse(ld, e, path, "body", "goes with \"near\" (a link is already one link)") ||
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
    return refuse(ld, e, path, "at", "goes with \"link\" (\"near\" cuts at the nearest point)") ||
           sjson_get_vector(&ld->cx, e, path, "near", ld->m->dims, &ev->v) ||
           (b &&
            sref_resolve_body(ld->names, &ld->cx, b, sjson_path_key(p, path, "body"), &ev->index));
}

static int read_drag(struct loader *ld, const cJSON *e, const char *path, struct event *ev)
{
    char p[SJSON_PATH_MAX];
    const cJSON *pathv;
    double duration = 0.0;
    if (sjson_check_object(&ld->cx, e, path, drag_keys) ||
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
            return scenario_oom(ld);
    }
    return 0;
}

static int read_reel(struct loader *ld, const cJSON *e, const char *path, struct event *ev)
{
    char p[SJSON_PATH_MAX];
    int body = 0;
    if (sjson_check_object(&ld->cx, e, path, reel_keys) ||
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
    ev->damping = 1.0;
    if (sjson_check_object(&ld->cx, e, path, set_keys) ||
        sjson_get_vector(&ld->cx, e, path, "gravity", ld->m->dims, &ev->gravity) ||
        sjson_get_vector(&ld->cx, e, path, "wind", ld->m->dims, &ev->wind) ||
        (gust && read_gust(ld, gust, sjson_path_key(p, path, "gust"), &ev->gust_amplitude,
                           &ev->gust_frequency)) ||
        sjson_get_integer(&ld->cx, e, path, "iterations", 1, INT_MAX, &iterations) ||
        sjson_get_number(&ld->cx, e, path, "damping", &SJSON_UNIT, &ev->damping) ||
        sjson_get_integer(&ld->cx, e, path, "collide_every", 1, MAX_COUNT, &every))
        return CATENA_EINPUT;
    static const char *const keys[] = {"gravity",    "wind",    "gust",
                                       "iterations", "damping", "collide_every"};
    for (unsigned k = 0; k < sizeof keys / sizeof *keys; k++)
        if (sjson_child(e, keys[k]))
            ev->set |= 1u << k;
    if (!ev->set)
        return sjson_error(&ld->cx, path,
                           "nothing to set (give gravity, wind, gust, iterations, damping or "
                           "collide_every)");
    ev->iterations = (int)iterations;
    ev->collide_every = every > INT_MAX ? INT_MAX : (int)every;
    return 0;
}

/* The body of event kind `kind` at path. */
static int read_kind(struct loader *ld, const cJSON *e, const char *path, struct event *ev)
{
    switch ((enum event_kind)ev->kind) {
    case EVENT_CUT:
        return read_cut(ld, e, path, ev);
    case EVENT_RELEASE:
        ev->target = TARGET_POINT;
        return sjson_check_object(&ld->cx, e, path, point_only_keys) ||
               read_point_ref(ld, e, path, &ev->index) ||
               check_releasable(ld, path, ev->index, "released");
    case EVENT_PIN:
        ev->target = TARGET_POINT;
        ev->has_at = sjson_child(e, "at") != NULL;
        return sjson_check_object(&ld->cx, e, path, pin_event_keys) ||
               read_point_ref(ld, e, path, &ev->index) ||
               sjson_get_vector(&ld->cx, e, path, "at", ld->m->dims, &ev->v);
    case EVENT_DRAG:
        return read_drag(ld, e, path, ev);
    case EVENT_REEL:
        return read_reel(ld, e, path, ev);
    case EVENT_VELOCITY:
        return sjson_check_object(&ld->cx, e, path, velocity_keys) ||
               read_target(ld, e, path, ev) ||
               sjson_get_vector(&ld->cx, e, path, "v", ld->m->dims, &ev->v);
    case EVENT_IMPULSE:
        return sjson_check_object(&ld->cx, e, path, impulse_keys) || read_target(ld, e, path, ev) ||
               sjson_get_vector(&ld->cx, e, path, "j", ld->m->dims, &ev->v);
    case EVENT_SET:
        return read_set(ld, e, path, ev);
    case EVENT_TELEPORT:
        return sjson_check_object(&ld->cx, e, path, teleport_keys) ||
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
        if (sjson_get_integer(&ld->cx, e, path, "step", 0, MAX_COUNT, &k))
            return CATENA_EINPUT;
        *step = (long)k;
        return 0;
    }
    double t = 0.0;
    if (sjson_get_number(&ld->cx, e, path, "time", &SJSON_NONNEG, &t))
        return CATENA_EINPUT;
    const double q = t / ld->m->dt;
    *step = q > (double)MAX_COUNT ? (long)MAX_COUNT : (long)ceil(q - STEP_SLACK);
    return 0;
}

static int read_event(struct loader *ld, const cJSON *e, const char *path, struct event *ev)
{
    char p[SJSON_PATH_MAX];
    *ev = (struct event){0};
    if (sjson_check_object(&ld->cx, e, path, event_keys) || read_when(ld, e, path, &ev->step))
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
    return read_kind(ld, body, p, ev);
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
        return scenario_oom(ld);
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
        return scenario_oom(ld);
    size_t count = 0, i = 0;
    int rc = 0;
    for (const cJSON *e = evs->child; e && !rc; e = e->next, i++) {
        char p[SJSON_PATH_MAX];
        struct event ev;
        if ((rc = read_event(ld, e, sjson_path_index(p, "events", i), &ev)))
            break;
        pe[count++] = (struct pending_event){ev, 2 * i};
        if (ev.kind == EVENT_DRAG) {
            const long end = ev.step + (long)ceil(ev.a / m->dt - STEP_SLACK);
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
                rc = scenario_oom(ld);
    }
    free(pe);
    return rc;
}
