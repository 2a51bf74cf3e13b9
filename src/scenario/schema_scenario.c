/* The scenario file's schema (catena-scenario(5)): the objects of the format as the loader's
 * section readers check them, their key tables, and what the keys hold (scenario/schema.h).
 * A new key goes in its reader's table and is in the schema at once (as any value until it
 * is described here); a new object needs its line here, or tests/schema.sh says which. */
#include <stdio.h>
#include <string.h>

#include "model/obstacle.h"
#include "model/pin_motion.h"
#include "scenario/bodies.h"
#include "scenario/check.h"
#include "scenario/loader.h"
#include "scenario/schema.h"

/* A NULL-terminated list of key tables, and of hold lists. */
#define TABLES(...)                                                                                \
    (const struct sjson_key *const[])                                                              \
    {                                                                                              \
        __VA_ARGS__, NULL                                                                          \
    }
#define HOLDS(...)                                                                                 \
    (const struct schema_key *const[])                                                             \
    {                                                                                              \
        __VA_ARGS__, NULL                                                                          \
    }

/* ---- small objects ---- */

static const struct schema_object until_settled = {
    .name = "until_settled",
    .tables = TABLES(scenario_settle_keys),
    .holds = HOLDS((const struct schema_key[]){
        {"speed", HOLD_NUMBER, NULL}, {"for", HOLD_NUMBER, NULL}, {NULL, HOLD_ANY, NULL}}),
};

static const struct schema_object gust = {
    .name = "gust",
    .tables = TABLES(scenario_gust_keys),
    .holds = HOLDS((const struct schema_key[]){{"amplitude", HOLD_NUMBER, NULL},
                                               {"frequency", HOLD_NUMBER, NULL},
                                               {NULL, HOLD_ANY, NULL}}),
};

/* The parameters of a family a body switches on: links (with break_stretch), or angles and
 * areas; also the constraint families' own. */
static const struct schema_key family_holds[] = {
    {"stiffness", HOLD_NUMBER, NULL},
    {"compliance", HOLD_NUMBER, NULL},
    {NULL, HOLD_ANY, NULL},
};
static const struct schema_object link_set = {
    .name = "link_set",
    .tables = TABLES(bodies_link_set_keys),
    .holds = HOLDS(family_holds, (const struct schema_key[]){{"break_stretch", HOLD_NUMBER, NULL},
                                                             {NULL, HOLD_ANY, NULL}}),
};
static const struct schema_object family_set = {
    .name = "family_set",
    .tables = TABLES(bodies_set_keys),
    .holds = HOLDS(family_holds),
};

/* Coulomb friction given as an object (a number gives mu for both). */
static const struct schema_object friction = {
    .name = "friction",
    .tables = TABLES(scenario_friction_keys),
    .holds = HOLDS((const struct schema_key[]){
        {"static", HOLD_NUMBER, NULL}, {"dynamic", HOLD_NUMBER, NULL}, {NULL, HOLD_ANY, NULL}}),
};

static const struct schema_object self_collision = {
    .name = "self_collision",
    .tables = TABLES(scenario_self_keys),
    .holds = HOLDS((const struct schema_key[]){{"radius", HOLD_NUMBER, NULL},
                                               {"friction", HOLD_MEASURE, &friction},
                                               {NULL, HOLD_ANY, NULL}}),
};

static const struct schema_object arc = {
    .name = "arc",
    .tables = TABLES(build_hair_arc_keys),
    .holds = HOLDS((const struct schema_key[]){{"center", HOLD_VECTOR, NULL},
                                               {"radius", HOLD_NUMBER, NULL},
                                               {"start", HOLD_NUMBER, NULL},
                                               {"end", HOLD_NUMBER, NULL},
                                               {NULL, HOLD_ANY, NULL}}),
};

/* ---- time, solver, world ---- */

static const struct schema_object time_ = {
    .name = "time",
    .tables = TABLES(scenario_time_keys),
    .holds = HOLDS((const struct schema_key[]){{"dt", HOLD_NUMBER, NULL},
                                               {"steps", HOLD_INTEGER, NULL},
                                               {"substeps", HOLD_INTEGER, NULL},
                                               {"until_settled", HOLD_OBJECT, &until_settled},
                                               {NULL, HOLD_ANY, NULL}}),
};

static const struct schema_object solver = {
    .name = "solver",
    .tables = TABLES(scenario_solver_keys),
    .holds = HOLDS((const struct schema_key[]){{"method", HOLD_ENUM, scenario_method_names},
                                               {"iterations", HOLD_INTEGER, NULL},
                                               {"order", HOLD_ENUM, scenario_order_names},
                                               {"damping", HOLD_NUMBER, NULL},
                                               {"damping_rate", HOLD_NUMBER, NULL},
                                               {"max_length_pass", HOLD_BOOLEAN, NULL},
                                               {"global", HOLD_BOOLEAN, NULL},
                                               {"global_matrix", HOLD_ENUM, scenario_matrix_names},
                                               {"collide_every", HOLD_INTEGER, NULL},
                                               {"shock_iterations", HOLD_INTEGER, NULL},
                                               {"threads", HOLD_INTEGER, NULL},
                                               {"kernel", HOLD_ENUM, scenario_kernel_names},
                                               {NULL, HOLD_ANY, NULL}}),
};

static const struct schema_object world = {
    .name = "world",
    .tables = TABLES(scenario_world_keys),
    .holds = HOLDS((const struct schema_key[]){{"gravity", HOLD_VECTOR, NULL},
                                               {"wind", HOLD_VECTOR, NULL},
                                               {"gust", HOLD_OBJECT, &gust},
                                               {NULL, HOLD_ANY, NULL}}),
};

/* ---- points, links, pins and the constraint families ---- */

static const struct schema_object point = {
    .name = "point",
    .tables = TABLES(scenario_point_keys),
    .holds = HOLDS((const struct schema_key[]){{"name", HOLD_STRING, NULL},
                                               {"p", HOLD_VECTOR, NULL},
                                               {"v", HOLD_VECTOR, NULL},
                                               {"mass", HOLD_NUMBER, NULL},
                                               {"radius", HOLD_NUMBER, NULL},
                                               {NULL, HOLD_ANY, NULL}}),
};

static const struct schema_object link = {
    .name = "link",
    .tables = TABLES(scenario_link_keys),
    .holds = HOLDS((const struct schema_key[]){{"a", HOLD_REF, NULL},
                                               {"b", HOLD_REF, NULL},
                                               {"stiffness", HOLD_NUMBER, NULL},
                                               {"break_stretch", HOLD_NUMBER, NULL},
                                               {"compliance", HOLD_NUMBER, NULL},
                                               {"EA", HOLD_NUMBER, NULL},
                                               {"kind", HOLD_ENUM, scenario_link_kind_names},
                                               {"break_force", HOLD_NUMBER, NULL},
                                               {NULL, HOLD_ANY, NULL}}),
};

static const struct schema_object motion_linear = {
    .name = "motion-linear",
    .tables = TABLES(scenario_linear_keys),
    .holds =
        HOLDS((const struct schema_key[]){{"velocity", HOLD_VECTOR, NULL}, {NULL, HOLD_ANY, NULL}}),
};
static const struct schema_object motion_sine = {
    .name = "motion-sine",
    .tables = TABLES(scenario_sine_keys),
    .holds = HOLDS((const struct schema_key[]){{"axis", HOLD_VECTOR, NULL},
                                               {"amplitude", HOLD_NUMBER, NULL},
                                               {"frequency", HOLD_NUMBER, NULL},
                                               {"phase", HOLD_NUMBER, NULL},
                                               {NULL, HOLD_ANY, NULL}}),
};
static const struct schema_object motion_keyframes = {
    .name = "motion-keyframes",
    .tables = TABLES(scenario_keyframe_keys),
    .holds = HOLDS((const struct schema_key[]){
        {"times", HOLD_NUMBERS, NULL}, {"positions", HOLD_VECTORS, NULL}, {NULL, HOLD_ANY, NULL}}),
};
/* pin_motion_names[0] is "none", which no file writes. */
static const struct schema_object motion = {
    .name = "motion",
    .by = "type",
    .values = pin_motion_names + 1,
    .variants =
        (const struct schema_object *const[]){&motion_linear, &motion_sine, &motion_keyframes},
};

static const struct schema_object pin = {
    .name = "pin",
    .tables = TABLES(scenario_pin_keys),
    .holds = HOLDS((const struct schema_key[]){{"point", HOLD_REF, NULL},
                                               {"at", HOLD_VECTOR, NULL},
                                               {"motion", HOLD_OBJECT, &motion},
                                               {NULL, HOLD_ANY, NULL}}),
};

static const struct schema_object angle = {
    .name = "angle",
    .tables = TABLES(scenario_angle_keys),
    .holds = HOLDS(family_holds, (const struct schema_key[]){{"a", HOLD_REF, NULL},
                                                             {"b", HOLD_REF, NULL},
                                                             {"c", HOLD_REF, NULL},
                                                             {"min", HOLD_NUMBER, NULL},
                                                             {"max", HOLD_NUMBER, NULL},
                                                             {NULL, HOLD_ANY, NULL}}),
};

static const struct schema_object area = {
    .name = "area",
    .tables = TABLES(scenario_area_keys),
    .holds = HOLDS(family_holds, (const struct schema_key[]){{"pressure", HOLD_NUMBER, NULL},
                                                             {NULL, HOLD_ANY, NULL}}),
};

static const struct schema_object shape = {
    .name = "shape",
    .tables = TABLES(scenario_shape_keys),
    .holds = HOLDS((const struct schema_key[]){
        {"body", HOLD_STRING, NULL}, {"stiffness", HOLD_NUMBER, NULL}, {NULL, HOLD_ANY, NULL}}),
};

static const struct schema_object attachment = {
    .name = "attachment",
    .tables = TABLES(scenario_attachment_keys),
    .holds = HOLDS(family_holds, (const struct schema_key[]){{"a", HOLD_REF, NULL},
                                                             {"b", HOLD_REF, NULL},
                                                             {NULL, HOLD_ANY, NULL}}),
};

/* ---- bodies: the type picks the keys (scenario/bodies.c) ---- */

static const struct schema_key body_holds[] = {
    {"name", HOLD_STRING, NULL},
    {"mass", HOLD_NUMBER, NULL},
    {"stiffness", HOLD_NUMBER, NULL},
    {"compliance", HOLD_NUMBER, NULL},
    {"break_stretch", HOLD_NUMBER, NULL},
    {"radius", HOLD_NUMBER, NULL},
    {"self_collision", HOLD_OBJECT, &self_collision},
    {"drag", HOLD_NUMBER, NULL},
    {"color", HOLD_STRING, NULL},
    {NULL, HOLD_ANY, NULL},
};

/* What each type's own keys hold, by enum body_type. */
static const struct schema_key *const type_holds[] = {
    (const struct schema_key[]){{"from", HOLD_VECTOR, NULL},
                                {"to", HOLD_VECTOR, NULL},
                                {"segments", HOLD_INTEGER, NULL},
                                {"length", HOLD_NUMBER, NULL},
                                {"shape", HOLD_ENUM, build_rope_shape_names},
                                {"bend", HOLD_SWITCH, &link_set},
                                {NULL, HOLD_ANY, NULL}},
    (const struct schema_key[]){{"rows", HOLD_INTEGER, NULL},
                                {"cols", HOLD_INTEGER, NULL},
                                {"spacing", HOLD_NUMBER, NULL},
                                {"size", HOLD_PAIR, NULL},
                                {"center", HOLD_VECTOR, NULL},
                                {"corner", HOLD_VECTOR, NULL},
                                {"plane", HOLD_ENUM, bodies_plane_names},
                                {"u", HOLD_VECTOR, NULL},
                                {"v", HOLD_VECTOR, NULL},
                                {"structural", HOLD_SWITCH, &link_set},
                                {"shear", HOLD_SWITCH, &link_set},
                                {"bend", HOLD_SWITCH, &link_set},
                                {NULL, HOLD_ANY, NULL}},
    (const struct schema_key[]){{"position", HOLD_VECTOR, NULL},
                                {"height", HOLD_NUMBER, NULL},
                                {"angle", HOLD_NUMBER, NULL},
                                {"pose", HOLD_ENUM, build_ragdoll_pose_names},
                                {"joints", HOLD_SWITCH, &family_set},
                                {NULL, HOLD_ANY, NULL}},
    (const struct schema_key[]){{"shape", HOLD_ENUM, build_softbody_shape_names},
                                {"center", HOLD_VECTOR, NULL},
                                {"shape_radius", HOLD_NUMBER, NULL},
                                {"points", HOLD_INTEGER, NULL},
                                {"subdivisions", HOLD_INTEGER, NULL},
                                {"plane", HOLD_ENUM, bodies_plane_names},
                                {"u", HOLD_VECTOR, NULL},
                                {"v", HOLD_VECTOR, NULL},
                                {"spokes", HOLD_SWITCH, &link_set},
                                {"area", HOLD_SWITCH, &family_set},
                                {"pressure", HOLD_NUMBER, NULL},
                                {"shape_matching", HOLD_NUMBER, NULL},
                                {NULL, HOLD_ANY, NULL}},
    (const struct schema_key[]){{"from", HOLD_VECTOR, NULL},
                                {"to", HOLD_VECTOR, NULL},
                                {"arc", HOLD_OBJECT, &arc},
                                {"direction", HOLD_VECTOR, NULL},
                                {"strands", HOLD_INTEGER, NULL},
                                {"points", HOLD_INTEGER, NULL},
                                {"length", HOLD_NUMBER, NULL},
                                {"bend", HOLD_SWITCH, &link_set},
                                {NULL, HOLD_ANY, NULL}},
};

#define BODY_TYPES (sizeof type_holds / sizeof *type_holds)

/* Filled by body_variants from the types' tables (struct body_kind), which are not constant
 * expressions: head, the type's keys, middle, its other keys, tail, as scenario/bodies.c
 * joins them. */
static const struct sjson_key *body_tables[BODY_TYPES][6];
static struct schema_key pins_holds[BODY_TYPES][2];
static struct schema_object body_types[BODY_TYPES];
static const struct schema_key *body_type_holds[BODY_TYPES][4];
static const struct schema_object *body_type_list[BODY_TYPES];
static char body_type_names[BODY_TYPES][32];

static const struct schema_object body = {
    .name = "body",
    .by = "type",
    .values = bodies_kind_names,
    .variants = body_type_list,
};

/* Fills the types' objects; -1 when a type has no line in type_holds. */
static int body_variants(void)
{
    size_t n = 0;
    while (bodies_kind_names[n])
        n++;
    if (n != BODY_TYPES)
        return -1;
    for (size_t i = 0; i < BODY_TYPES; i++) {
        const struct body_kind *k = bodies_kinds[i];
        const struct sjson_key *const t[] = {bodies_head_keys, k->keys,          bodies_middle_keys,
                                             k->more_keys,     bodies_tail_keys, NULL};
        memcpy(body_tables[i], t, sizeof t);
        pins_holds[i][0] = (struct schema_key){"pins", HOLD_PICKS, k->pin_names};
        pins_holds[i][1] = (struct schema_key){NULL, HOLD_ANY, NULL};
        snprintf(body_type_names[i], sizeof body_type_names[i], "body-%s", bodies_kind_names[i]);
        const struct schema_key *const holds[] = {body_holds, type_holds[i], pins_holds[i], NULL};
        memcpy(body_type_holds[i], holds, sizeof holds);
        body_types[i] = (struct schema_object){
            .name = body_type_names[i], .tables = body_tables[i], .holds = body_type_holds[i]};
        body_type_list[i] = &body_types[i];
    }
    return 0;
}

/* ---- obstacles: one table, each shape takes its own keys (scenario/obstacles.c) ---- */

static const struct schema_key obstacle_holds[] = {
    {"point", HOLD_VECTOR, NULL},       {"normal", HOLD_VECTOR, NULL},
    {"center", HOLD_VECTOR, NULL},      {"radius", HOLD_NUMBER, NULL},
    {"half", HOLD_VECTOR, NULL},        {"angle", HOLD_NUMBER, NULL},
    {"euler", HOLD_VECTOR, NULL},       {"a", HOLD_VECTOR, NULL},
    {"b", HOLD_VECTOR, NULL},           {"friction", HOLD_MEASURE, &friction},
    {"restitution", HOLD_NUMBER, NULL}, {NULL, HOLD_ANY, NULL},
};

#define OBSTACLE(type)                                                                             \
    {                                                                                              \
        .name = "obstacle-" type, .tables = TABLES(scenario_obstacle_keys),                        \
        .holds = HOLDS(obstacle_holds)                                                             \
    }
static const struct schema_object obstacle_types[] = {
    OBSTACLE("plane"), OBSTACLE("sphere"), OBSTACLE("box"), OBSTACLE("capsule"), OBSTACLE("bounds"),
};

static const struct schema_object obstacle = {
    .name = "obstacle",
    .by = "type",
    .values = obstacle_type_names,
    .variants = (const struct schema_object *const[]){&obstacle_types[0], &obstacle_types[1],
                                                      &obstacle_types[2], &obstacle_types[3],
                                                      &obstacle_types[4]},
    .takes = scenario_obstacle_takes,
};

/* ---- events: the key of the one action names its object (scenario/events.c) ---- */

/* An action's object: its table and what its keys hold ("point" a point, "body" a body's
 * name, wherever they appear). */
#define EVENT_OBJECT(id, table, ...)                                                               \
    static const struct schema_object id = {                                                       \
        .name = #id,                                                                               \
        .tables = TABLES(table),                                                                   \
        .holds = HOLDS((const struct schema_key[]){__VA_ARGS__, {NULL, HOLD_ANY, NULL}}),          \
    }
#define POINT                                                                                      \
    {                                                                                              \
        "point", HOLD_REF, NULL                                                                    \
    }
#define BODY                                                                                       \
    {                                                                                              \
        "body", HOLD_STRING, NULL                                                                  \
    }

EVENT_OBJECT(cut, scenario_cut_keys, {"link", HOLD_REF, NULL}, {"at", HOLD_NUMBER, NULL},
             {"near", HOLD_VECTOR, NULL}, BODY);
EVENT_OBJECT(release, scenario_point_only_keys, POINT);
EVENT_OBJECT(pin_event, scenario_pin_event_keys, POINT, {"at", HOLD_VECTOR, NULL});
EVENT_OBJECT(drag, scenario_drag_keys, POINT, {"path", HOLD_VECTORS, NULL},
             {"duration", HOLD_NUMBER, NULL});
EVENT_OBJECT(reel, scenario_reel_keys, {"link", HOLD_REF, NULL}, BODY, {"rate", HOLD_NUMBER, NULL},
             {"to", HOLD_NUMBER, NULL});
EVENT_OBJECT(velocity, scenario_velocity_keys, POINT, BODY, {"v", HOLD_VECTOR, NULL});
EVENT_OBJECT(impulse, scenario_impulse_keys, POINT, BODY, {"j", HOLD_VECTOR, NULL});
EVENT_OBJECT(teleport, scenario_teleport_keys, POINT, BODY, {"by", HOLD_VECTOR, NULL});

static const struct schema_object set_event = {
    .name = "set_event",
    .tables = TABLES(scenario_set_keys),
    .holds = HOLDS((const struct schema_key[]){{"gravity", HOLD_VECTOR, NULL},
                                               {"wind", HOLD_VECTOR, NULL},
                                               {"gust", HOLD_OBJECT, &gust},
                                               {"iterations", HOLD_INTEGER, NULL},
                                               {"damping", HOLD_NUMBER, NULL},
                                               {"damping_rate", HOLD_NUMBER, NULL},
                                               {"collide_every", HOLD_INTEGER, NULL},
                                               {NULL, HOLD_ANY, NULL}}),
};

static const struct schema_object event = {
    .name = "event",
    .tables = TABLES(scenario_event_keys),
    .holds = HOLDS((const struct schema_key[]){{"time", HOLD_NUMBER, NULL},
                                               {"step", HOLD_INTEGER, NULL},
                                               {"cut", HOLD_OBJECT, &cut},
                                               {"release", HOLD_OBJECT, &release},
                                               {"pin", HOLD_OBJECT, &pin_event},
                                               {"drag", HOLD_OBJECT, &drag},
                                               {"reel", HOLD_OBJECT, &reel},
                                               {"velocity", HOLD_OBJECT, &velocity},
                                               {"impulse", HOLD_OBJECT, &impulse},
                                               {"set", HOLD_OBJECT, &set_event},
                                               {"teleport", HOLD_OBJECT, &teleport},
                                               {NULL, HOLD_ANY, NULL}}),
};

/* ---- checks: the type picks the keys (scenario/check.c) ---- */

#define CHECK_OBJECT(id, table, ...)                                                               \
    static const struct schema_object id = {                                                       \
        .name = "check-" #id,                                                                      \
        .tables = TABLES(table),                                                                   \
        .holds = HOLDS((const struct schema_key[]){{"name", HOLD_STRING, NULL}, __VA_ARGS__}),     \
    }
#define END                                                                                        \
    {                                                                                              \
        NULL, HOLD_ANY, NULL                                                                       \
    }

CHECK_OBJECT(max_stretch, scenario_check_max_stretch_keys, {"limit", HOLD_NUMBER, NULL},
             {"at", HOLD_ENUM, scenario_check_at_names}, END);
CHECK_OBJECT(no_break, scenario_check_no_break_keys, END);
CHECK_OBJECT(settled, scenario_check_settled_keys, {"by", HOLD_NUMBER, NULL},
             {"speed", HOLD_NUMBER, NULL}, END);
CHECK_OBJECT(energy, scenario_check_energy_keys, {"max_gain", HOLD_NUMBER, NULL},
             {"from", HOLD_NUMBER, NULL}, END);
CHECK_OBJECT(inside, scenario_check_inside_keys, POINT, {"min", HOLD_VECTOR, NULL},
             {"max", HOLD_VECTOR, NULL}, {"time", HOLD_NUMBER, NULL}, {"step", HOLD_INTEGER, NULL},
             END);

static const struct schema_object check = {
    .name = "check",
    .by = "type",
    .values = check_type_names,
    .variants =
        (const struct schema_object *const[]){&max_stretch, &no_break, &settled, &energy, &inside},
};

/* ---- output ---- */

static const struct schema_object view = {
    .name = "view",
    .tables = TABLES(scenario_view_keys),
    .holds = HOLDS((const struct schema_key[]){
        {"center", HOLD_VECTOR, NULL}, {"width", HOLD_NUMBER, NULL}, {NULL, HOLD_ANY, NULL}}),
};

static const struct schema_object contact_sheet = {
    .name = "contact_sheet",
    .tables = TABLES(scenario_sheet_keys),
    .holds = HOLDS((const struct schema_key[]){{"frames", HOLD_INTEGER, NULL},
                                               {"columns", HOLD_INTEGER, NULL},
                                               {"width", HOLD_INTEGER, NULL},
                                               {NULL, HOLD_ANY, NULL}}),
};

static const struct schema_object render = {
    .name = "render",
    .tables = TABLES(scenario_render_keys),
    .holds = HOLDS((const struct schema_key[]){{"fps", HOLD_NUMBER, NULL},
                                               {"every", HOLD_INTEGER, NULL},
                                               {"size", HOLD_PAIR, NULL},
                                               {"color_by", HOLD_ENUM, scenario_color_by_names},
                                               {"range", HOLD_PAIR, NULL},
                                               {"line_width", HOLD_NUMBER, NULL},
                                               {"view", HOLD_OBJECT, &view},
                                               {"yaw", HOLD_NUMBER, NULL},
                                               {"pitch", HOLD_NUMBER, NULL},
                                               {"level", HOLD_INTEGER, NULL},
                                               {"contact_sheet", HOLD_SWITCH, &contact_sheet},
                                               {NULL, HOLD_ANY, NULL}}),
};

static const struct schema_object output = {
    .name = "output",
    .tables = TABLES(scenario_output_keys),
    .holds = HOLDS((const struct schema_key[]){{"trajectory", HOLD_ENUMS, scenario_format_names},
                                               {"every", HOLD_INTEGER, NULL},
                                               {"render", HOLD_OBJECT, &render},
                                               {"metrics", HOLD_BOOLEAN, NULL},
                                               {"reports", HOLD_ENUMS, scenario_report_names},
                                               {NULL, HOLD_ANY, NULL}}),
};

/* ---- the file ---- */

static const struct schema_object scenario = {
    .name = "scenario",
    .tables = TABLES(scenario_top_keys),
    .holds = HOLDS((const struct schema_key[]){{"catena", HOLD_INTEGER, NULL},
                                               {"name", HOLD_STRING, NULL},
                                               {"dimensions", HOLD_INTEGER, NULL},
                                               {"time", HOLD_OBJECT, &time_},
                                               {"solver", HOLD_OBJECT, &solver},
                                               {"world", HOLD_OBJECT, &world},
                                               {"points", HOLD_OBJECTS, &point},
                                               {"links", HOLD_OBJECTS, &link},
                                               {"pins", HOLD_OBJECTS, &pin},
                                               {"bodies", HOLD_OBJECTS, &body},
                                               {"output", HOLD_OBJECT, &output},
                                               {"angles", HOLD_OBJECTS, &angle},
                                               {"areas", HOLD_OBJECTS, &area},
                                               {"shapes", HOLD_OBJECTS, &shape},
                                               {"attachments", HOLD_OBJECTS, &attachment},
                                               {"obstacles", HOLD_OBJECTS, &obstacle},
                                               {"events", HOLD_OBJECTS, &event},
                                               {"checks", HOLD_OBJECTS, &check},
                                               {NULL, HOLD_ANY, NULL}}),
};

cJSON *scenario_schema(struct catena_error *err)
{
    if (body_variants()) {
        error_set(err, CATENA_EFAIL, "schema: body: a body type has no line in type_holds");
        return NULL;
    }
    return schema_document(&scenario, "catena scenario, format 1 (catena-scenario(5))", err);
}
