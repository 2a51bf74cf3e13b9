/* The scenario's obstacles[] (catena-scenario(5)): planes, spheres, boxes, capsules and
 * bounds, each with the keys its shape takes (any other shape key is refused by name), its
 * rotation (an angle in 2D; Euler angles or a quaternion in 3D), Coulomb friction and
 * restitution, and its bounding box for the broad phase. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/fmt_double.h"
#include "scenario/loader.h"

static const struct sjson_range UNIT_CLOSED = {0.0, 1.0, 0, 0}; /* 0 <= x <= 1 */

// clang-format off
const struct sjson_key scenario_obstacle_keys[] = {
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
// clang-format on

/* A key the shape needs; the message names the shape. */
static int need(struct loader *ld, const cJSON *e, const char *path, const char *key,
                const char *type)
{
    if (sjson_child(e, key))
        return 0;
    return sjson_error(&ld->cx, path, "missing required key \"%s\" (a %s needs it)", key, type);
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
    double c[4], len = 0.0, big = 0.0;
    int i = 0;
    for (const cJSON *e = q->child; e; e = e->next, i++) {
        char p[SJSON_PATH_MAX];
        if (sjson_number(&ld->cx, e, sjson_path_index(p, path, (size_t)i), &SJSON_ANY, &c[i]))
            return CATENA_EINPUT;
        len += c[i] * c[i];
        big = fmax(big, fabs(c[i]));
    }
    if (big == 0.0)
        return sjson_error(&ld->cx, path,
                           "must not be all zeros (a rotation needs a unit "
                           "quaternion; it is normalised)");
    /* Scaled by the largest component first when the sum of squares overflows or
     * underflows ([1e308, 1e308, 0, 0] is a rotation like [1, 1, 0, 0]). */
    if (!isfinite(len) || len < DBL_MIN) {
        len = 0.0;
        for (i = 0; i < 4; i++) {
            c[i] /= big;
            len += c[i] * c[i];
        }
    }
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
        if (loader_refuse(ld, e, path, "euler", "is for 3D scenarios (in 2D give \"angle\")") ||
            loader_refuse(ld, e, path, "quaternion",
                          "is for 3D scenarios (in 2D give \"angle\")") ||
            sjson_get_number(&ld->cx, e, path, "angle", &SJSON_ANY, &a))
            return CATENA_EINPUT;
        euler_rotation(v3(0, 0, a), o->rot);
        return 0;
    }
    if (loader_refuse(ld, e, path, "angle",
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

/* The keys that say where a shape is; each shape takes some of them. */
static const char *const shape_keys[] = {"point", "normal",     "center", "radius", "half", "angle",
                                         "euler", "quaternion", "a",      "b",      NULL};
static const char *const takes[][6] = {
    [OBSTACLE_PLANE] = {"point", "normal"},
    [OBSTACLE_SPHERE] = {"center", "radius"},
    [OBSTACLE_BOX] = {"center", "half", "angle", "euler", "quaternion"},
    [OBSTACLE_CAPSULE] = {"a", "b", "radius"},
    [OBSTACLE_BOUNDS] = {"center", "half", "angle", "euler", "quaternion"},
};

int scenario_obstacle_takes(int type, const char *key)
{
    int shape_key = 0;
    for (int k = 0; shape_keys[k]; k++)
        shape_key |= strcmp(shape_keys[k], key) == 0;
    for (int j = 0; shape_key && takes[type][j]; j++)
        if (strcmp(takes[type][j], key) == 0)
            return 1;
    return !shape_key;
}

/* The keys of each shape: required ones, and every other shape key refused. */
static int read_shape(struct loader *ld, const cJSON *e, const char *path, struct obstacle *o)
{
    const char *type = obstacle_type_names[o->type];
    for (int k = 0; shape_keys[k]; k++) {
        char why[128];
        snprintf(why, sizeof why, "a %s has no \"%s\"", type, shape_keys[k]);
        if (!scenario_obstacle_takes(o->type, shape_keys[k]) &&
            loader_refuse(ld, e, path, shape_keys[k], why))
            return CATENA_EINPUT;
    }
    switch ((enum obstacle_type)o->type) {
    case OBSTACLE_PLANE:
        return need(ld, e, path, "point", type) || need(ld, e, path, "normal", type) ||
               sjson_get_vector(&ld->cx, e, path, "point", ld->m->dims, &o->p) ||
               loader_direction(ld, e, path, "normal", &o->n);
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
    if (sjson_check_object(&ld->cx, e, path, scenario_obstacle_keys) ||
        sjson_enum(&ld->cx, sjson_child(e, "type"), sjson_path_key(p, path, "type"),
                   obstacle_type_names, &type))
        return CATENA_EINPUT;
    o.type = (uint8_t)type;
    if (read_shape(ld, e, path, &o) || loader_friction(ld, e, path, "friction", &o.friction) ||
        sjson_get_number(&ld->cx, e, path, "restitution", &UNIT_CLOSED, &o.restitution))
        return CATENA_EINPUT;
    obstacle_bounds(&o);
    return model_add_obstacle(ld->m, &o) < 0 ? loader_oom(ld) : 0;
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
