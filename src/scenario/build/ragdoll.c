/* Ragdoll bodies: the 16-point 2D figure of Jakobsen (2001), seen from the front, its left
 * on the +x side. Proportions are fractions of the height after Drillis and Contini (1966);
 * segment masses and centres of mass after Winter, "Biomechanics and Motor Control of
 * Human Movement" (table 4.1). Bones are sticks; braces make the torso one rigid piece;
 * joints are 2D hinge limits (struct angle: the signed turn from a->b to b->c). The file
 * ends with the ragdoll's reader: its keys, pose and the names of its pinnable points. */
#include "scenario/build/build.h"

#include <stdio.h>

#include "scenario/bodies.h"

const char *const build_ragdoll_names[] = {
    "head",   "neck",       "chest",   "pelvis", "l_shoulder", "l_elbow",
    "l_hand", "r_shoulder", "r_elbow", "r_hand", "l_hip",      "l_knee",
    "l_foot", "r_hip",      "r_knee",  "r_foot", NULL};

/* Mass fractions of the points. Each limb segment's mass (Winter) is split between its
 * end points by the lever rule at its centre of mass, which keeps the segment's mass and
 * centre: upper arm 0.028 (centre 0.436 from the shoulder), forearm 0.016 (0.430), thigh
 * 0.100 (0.433), leg 0.0465 (0.433); the hand (0.006), foot (0.0145) and head with neck
 * (0.081) sit on their points; the trunk's 0.497 is spread over the seven torso points,
 * most of it on the chest and pelvis. The fractions sum to 1. */
static const double mass_fraction[RAG_NPOINTS] = {
    [RAG_HEAD] = 0.081,
    [RAG_NECK] = 0.07,
    [RAG_CHEST] = 0.2,
    [RAG_PELVIS] = 0.147,
    [RAG_L_SHOULDER] = 0.02 + 0.028 * 0.564,
    [RAG_L_ELBOW] = 0.028 * 0.436 + 0.016 * 0.570,
    [RAG_L_HAND] = 0.016 * 0.430 + 0.006,
    [RAG_R_SHOULDER] = 0.02 + 0.028 * 0.564,
    [RAG_R_ELBOW] = 0.028 * 0.436 + 0.016 * 0.570,
    [RAG_R_HAND] = 0.016 * 0.430 + 0.006,
    [RAG_L_HIP] = 0.02 + 0.100 * 0.567,
    [RAG_L_KNEE] = 0.100 * 0.433 + 0.0465 * 0.567,
    [RAG_L_FOOT] = 0.0465 * 0.433 + 0.0145,
    [RAG_R_HIP] = 0.02 + 0.100 * 0.567,
    [RAG_R_KNEE] = 0.100 * 0.433 + 0.0465 * 0.567,
    [RAG_R_FOOT] = 0.0465 * 0.433 + 0.0145,
};

/* Heights above the hip joints and half widths, as fractions of the height: shoulder
 * height 0.818, hip 0.530, ankle 0.039, chin 0.870 (so the head's centre is 0.935);
 * shoulders 0.26 apart, hip joints 0.10 apart. */
#define Y_HEAD (0.935 - 0.530)
#define Y_NECK (0.818 - 0.530)
#define Y_CHEST (0.720 - 0.530)
#define X_SHOULDER 0.13
#define X_HIP 0.05
#define UPPER_ARM 0.186
#define FOREARM 0.200 /* elbow to the middle of the hand */
#define THIGH 0.245
#define SHANK 0.246 /* knee to ankle */

static const enum ragdoll_point bones[RAGDOLL_BONES][2] = {
    {RAG_HEAD, RAG_NECK},       {RAG_NECK, RAG_CHEST},         {RAG_CHEST, RAG_PELVIS},
    {RAG_NECK, RAG_L_SHOULDER}, {RAG_L_SHOULDER, RAG_L_ELBOW}, {RAG_L_ELBOW, RAG_L_HAND},
    {RAG_NECK, RAG_R_SHOULDER}, {RAG_R_SHOULDER, RAG_R_ELBOW}, {RAG_R_ELBOW, RAG_R_HAND},
    {RAG_PELVIS, RAG_L_HIP},    {RAG_L_HIP, RAG_L_KNEE},       {RAG_L_KNEE, RAG_L_FOOT},
    {RAG_PELVIS, RAG_R_HIP},    {RAG_R_HIP, RAG_R_KNEE},       {RAG_R_KNEE, RAG_R_FOOT},
};

/* Triangles neck-chest-shoulder and chest-pelvis-hip on both sides, tied by the sides
 * shoulder-hip and the widths shoulder-shoulder, hip-hip: the torso cannot fold. */
static const enum ragdoll_point braces[RAGDOLL_BRACES][2] = {
    {RAG_L_SHOULDER, RAG_CHEST},      {RAG_R_SHOULDER, RAG_CHEST}, {RAG_L_HIP, RAG_CHEST},
    {RAG_R_HIP, RAG_CHEST},           {RAG_L_SHOULDER, RAG_L_HIP}, {RAG_R_SHOULDER, RAG_R_HIP},
    {RAG_L_SHOULDER, RAG_R_SHOULDER}, {RAG_L_HIP, RAG_R_HIP},
};

/* The joints, left side first; the right side's limits are the left's mirrored (negated
 * and swapped). Each limit is measured from a line of the rigid torso through the hinge,
 * the longest there is: the correction of a limit then moves the free limb more than the
 * braced torso, which would pull back, and 20 iterations hold the limits to ~2e-4 rad.
 * Turn angles on the left: the arm from the shoulder line (r_shoulder -> l_shoulder) is 0
 * held out, -pi/2 hanging, +pi/2 overhead; the thigh from the line neck -> l_hip, which
 * leans atan(0.05 / 0.288) = 9.85 degrees out from the vertical, is 0 at that lean; elbows
 * and knees are 0 straight and negative bent (hand or foot towards the midline). */
static const struct joint {
    enum ragdoll_point a, b, c;
    double min, max; /* rad */
} joints[RAGDOLL_JOINTS] = {
    {RAG_PELVIS, RAG_NECK, RAG_HEAD, -0.6, 0.6},              /* tilts 34 degrees either way */
    {RAG_R_SHOULDER, RAG_L_SHOULDER, RAG_L_ELBOW, -2.0, 1.6}, /* 25 across the body to overhead */
    {RAG_L_SHOULDER, RAG_R_SHOULDER, RAG_R_ELBOW, -1.6, 2.0}, /* mirrored */
    {RAG_L_SHOULDER, RAG_L_ELBOW, RAG_L_HAND, -2.6, 0.1},     /* bends 150, overstretches 6 */
    {RAG_R_SHOULDER, RAG_R_ELBOW, RAG_R_HAND, -0.1, 2.6},     /* mirrored */
    {RAG_NECK, RAG_L_HIP, RAG_L_KNEE, -0.6955, 0.6135},       /* 30 inwards to 45 outwards */
    {RAG_NECK, RAG_R_HIP, RAG_R_KNEE, -0.6135, 0.6955},       /* mirrored */
    {RAG_L_HIP, RAG_L_KNEE, RAG_L_FOOT, -2.4, 0.1},           /* bends 137, overstretches 6 */
    {RAG_R_HIP, RAG_R_KNEE, RAG_R_FOOT, -0.1, 2.4},           /* mirrored */
};

void build_ragdoll_joint(size_t j, enum ragdoll_point abc[3], double *min, double *max)
{
    abc[0] = joints[j].a;
    abc[1] = joints[j].b;
    abc[2] = joints[j].c;
    *min = joints[j].min;
    *max = joints[j].max;
}

struct ragdoll_def build_ragdoll_def(void)
{
    const struct build_set rigid = {.on = 1, .stiffness = 1.0};
    return (struct ragdoll_def){
        .height = 1.75, .mass = 70.0, .pose = POSE_STAND, .bones = rigid, .joints = rigid};
}

/* The pose's limb directions, as angles from +x, for the left side (the right mirrors):
 * upper arm, forearm, thigh, shank. Standing: arms 10 degrees out, elbows bent 10, legs 5
 * out, knees straight; T: arms straight out. */
static void pose_angles(enum ragdoll_pose pose, double a[4])
{
    const double deg = 3.14159265358979323846 / 180.0;
    const double arm = pose == POSE_T ? 0.0 : -80 * deg;
    a[0] = arm;
    a[1] = pose == POSE_T ? arm : arm - 10 * deg;
    a[2] = -85 * deg;
    a[3] = -85 * deg;
}

/* The figure in its own frame: pelvis at the origin, y up, in units of the height. */
static void local_points(enum ragdoll_pose pose, vec3 p[RAG_NPOINTS])
{
    double a[4];
    pose_angles(pose, a);
    p[RAG_HEAD] = v3(0, Y_HEAD, 0);
    p[RAG_NECK] = v3(0, Y_NECK, 0);
    p[RAG_CHEST] = v3(0, Y_CHEST, 0);
    p[RAG_PELVIS] = v3(0, 0, 0);
    p[RAG_L_SHOULDER] = v3(X_SHOULDER, Y_NECK, 0);
    p[RAG_L_HIP] = v3(X_HIP, 0, 0);
    p[RAG_L_ELBOW] = v3_add(p[RAG_L_SHOULDER], v3(UPPER_ARM * cos(a[0]), UPPER_ARM * sin(a[0]), 0));
    p[RAG_L_HAND] = v3_add(p[RAG_L_ELBOW], v3(FOREARM * cos(a[1]), FOREARM * sin(a[1]), 0));
    p[RAG_L_KNEE] = v3_add(p[RAG_L_HIP], v3(THIGH * cos(a[2]), THIGH * sin(a[2]), 0));
    p[RAG_L_FOOT] = v3_add(p[RAG_L_KNEE], v3(SHANK * cos(a[3]), SHANK * sin(a[3]), 0));
    static const enum ragdoll_point left[] = {RAG_L_SHOULDER, RAG_L_ELBOW, RAG_L_HAND,
                                              RAG_L_HIP,      RAG_L_KNEE,  RAG_L_FOOT};
    static const enum ragdoll_point right[] = {RAG_R_SHOULDER, RAG_R_ELBOW, RAG_R_HAND,
                                               RAG_R_HIP,      RAG_R_KNEE,  RAG_R_FOOT};
    for (size_t k = 0; k < sizeof left / sizeof *left; k++)
        p[right[k]] = v3(-p[left[k]].x, p[left[k]].y, 0);
}

static int add_points(struct model *m, const struct ragdoll_def *def)
{
    vec3 p[RAG_NPOINTS];
    local_points(def->pose, p);
    const double c = cos(def->angle), s = sin(def->angle);
    char name[300];
    for (size_t k = 0; k < RAG_NPOINTS; k++) {
        const vec3 q = v3_scale(p[k], def->height);
        const vec3 x = v3_add(def->position, v3(c * q.x - s * q.y, s * q.x + c * q.y, 0));
        snprintf(name, sizeof name, "%s.%s", def->name, build_ragdoll_names[k]);
        if (model_add_point(m, x, v3(0, 0, 0), def->mass * mass_fraction[k], def->radius, name) < 0)
            return -1;
    }
    return 0;
}

/* 2D limits as they are; in 3D the cone angle (unsigned, min 0) up to the farther limit. */
static long add_joint(struct model *m, uint32_t first, const struct joint *j,
                      const struct build_set *set)
{
    double min = j->min, max = j->max;
    if (m->dims == 3) {
        max = fmax(fabs(min), fabs(max));
        min = 0.0;
    }
    const long a = model_add_angle(m, first + j->a, first + j->b, first + j->c, min, max);
    if (a < 0)
        return -1;
    m->angles[a].stiffness = set->stiffness;
    m->angles[a].compliance = set->compliance;
    return a;
}

long build_ragdoll(struct model *m, const struct ragdoll_def *def)
{
    const long b = model_add_body(m, def->name, BODY_RAGDOLL);
    if (b < 0)
        return -1;
    const size_t first_point = m->npoints, first_link = m->nlinks;
    const uint32_t f = (uint32_t)first_point;
    if (add_points(m, def))
        return -1;
    for (size_t k = 0; k < RAGDOLL_BONES; k++)
        if (build_link(m, f + bones[k][0], f + bones[k][1], &def->bones, ROLE_STRUCTURAL) < 0)
            return -1;
    for (size_t k = 0; k < RAGDOLL_BRACES; k++)
        if (build_link(m, f + braces[k][0], f + braces[k][1], &def->bones, ROLE_SHEAR) < 0)
            return -1;
    for (size_t k = 0; def->joints.on && k < RAGDOLL_JOINTS; k++)
        if (add_joint(m, f, &joints[k], &def->joints) < 0)
            return -1;
    build_close_body(m, b, first_point, first_link);
    return b;
}

/* ---- the ragdoll's reader (scenario/bodies.h) ---- */

// clang-format off
static const struct sjson_key ragdoll_keys[] = {
    {"position", 0},
    {"height", 0},
    {"angle", 0},
    {"pose", 0},
    {NULL, 0},
};
static const struct sjson_key ragdoll_more_keys[] = {
    {"joints", 0},
    {NULL, 0},
};
// clang-format on

static const char *const ragdoll_pin_names[] = {
    "first",   "last",   "head",       "neck",    "chest",  "pelvis", "l_shoulder",
    "l_elbow", "l_hand", "r_shoulder", "r_elbow", "r_hand", "l_hip",  "l_knee",
    "l_foot",  "r_hip",  "r_knee",     "r_foot",  NULL};
const char *const build_ragdoll_pose_names[] = {"stand", "t", NULL};

static int read_ragdoll(struct loader *ld, const cJSON *e, const char *path, struct body_plan *p,
                        long long *points)
{
    struct ragdoll_def *def = &p->def.ragdoll;
    struct body_common c;
    int pose = POSE_STAND;
    *def = build_ragdoll_def();
    if (bodies_read_common(ld, e, path, p, &c) ||
        bodies_add_points(ld, path, RAG_NPOINTS, RAGDOLL_BONES + RAGDOLL_BRACES, 0, points) ||
        sjson_get_vector(&ld->cx, e, path, "position", ld->m->dims, &def->position) ||
        sjson_get_number(&ld->cx, e, path, "height", &SJSON_POSITIVE, &def->height) ||
        sjson_get_number(&ld->cx, e, path, "angle", &SJSON_ANY, &def->angle) ||
        sjson_get_enum(&ld->cx, e, path, "pose", build_ragdoll_pose_names, &pose) ||
        bodies_read_set(ld, e, path, "joints", bodies_set_keys, &def->joints))
        return CATENA_EINPUT;
    p->npoints = RAG_NPOINTS;
    def->name = c.name;
    def->mass = c.mass;
    def->radius = c.radius;
    def->bones = c.links;
    def->pose = (enum ragdoll_pose)pose;
    return 0;
}

static long build_body(struct loader *ld, const struct body_plan *p)
{
    return build_ragdoll(ld->m, &p->def.ragdoll);
}

static long pin_point(const struct body_plan *p, int name, size_t j)
{
    (void)p;
    return j == 0 ? (long)(name - PIN_OWN) : -1;
}

const struct body_kind build_ragdoll_kind = {
    .name = "ragdoll",
    .article = "a ragdoll",
    .keys = ragdoll_keys,
    .more_keys = ragdoll_more_keys,
    .pin_names = ragdoll_pin_names,
    .default_pin = -1,
    .read = read_ragdoll,
    .build = build_body,
    .pin_point = pin_point,
};
