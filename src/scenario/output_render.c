/* The scenario's picture settings: output.render (frame timing, size, colours, camera, PNG
 * level, contact sheet; catena-scenario(5)). Every value is range-checked here, so rendering
 * itself never meets a bad option. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "gfx/raster.h"
#include "scenario/loader.h"
#include "scenario/output.h"

#define MIN_SIDE 16 /* px: smaller frames have no room for the overlay */

// clang-format off
const struct sjson_key scenario_render_keys[] = {
    {"fps", 0},
    {"every", 0},
    {"size", 0},
    {"color_by", 0},
    {"range", 0},
    {"line_width", 0},
    {"point_radius", 0},
    {"view", 0},
    {"yaw", 0},
    {"pitch", 0},
    {"level", 0},
    {"contact_sheet", 0},
    {NULL, 0},
};
const struct sjson_key scenario_view_keys[] = {
    {"center", 1},
    {"width", 1},
    {NULL, 0},
};
const struct sjson_key scenario_sheet_keys[] = {
    {"frames", 0},
    {"columns", 0},
    {"width", 0},
    {NULL, 0},
};
// clang-format on

/* Indexed by enum render_color_by. */
const char *const scenario_color_by_names[] = {"stretch", "tension", "speed", "none", NULL};

static const struct sjson_range FPS_RANGE = {0, 10000, 1, 0};
static const struct sjson_range WIDTH_RANGE = {0, 100, 1, 0};
static const struct sjson_range RADIUS_RANGE = {0, 100, 0, 0};
static const struct sjson_range YAW_RANGE = {-360, 360, 0, 0};
static const struct sjson_range PITCH_RANGE = {-90, 90, 0, 0};

/* obj[key], with null read as absent (how --fps and --every unset one another). */
static const cJSON *child_or_null(const cJSON *obj, const char *key)
{
    const cJSON *c = sjson_child(obj, key);
    return cJSON_IsNull(c) ? NULL : c;
}

/* fps and every: one or the other; every must pick recorded steps. */
static int read_timing(struct loader *ld, const cJSON *r, struct render_opts *o)
{
    const cJSON *fps = child_or_null(r, "fps"), *every = child_or_null(r, "every");
    long long k = 0;
    if (fps && every)
        return sjson_error(&ld->cx, "output.render.every",
                           "give \"fps\" or \"every\", not both (fps interpolates between "
                           "recorded steps; every draws recorded steps as they are)");
    if ((fps && sjson_number(&ld->cx, fps, "output.render.fps", &FPS_RANGE, &o->fps)) ||
        (every && sjson_integer(&ld->cx, every, "output.render.every", 1, SCENARIO_MAX_COUNT, &k)))
        return CATENA_EINPUT;
    if (!every)
        return 0;
    if (k % ld->out->every != 0)
        return sjson_error(&ld->cx, "output.render.every",
                           "must be a multiple of output.every, %ld, so that every frame is a "
                           "recorded step (got %lld)",
                           ld->out->every, k);
    o->every = (long)k;
    o->fps = 0;
    return 0;
}

/* size: [width, height] in pixels. */
static int read_size(struct loader *ld, const cJSON *r, struct render_opts *o)
{
    const cJSON *size = sjson_child(r, "size");
    if (!size)
        return 0;
    if (!cJSON_IsArray(size) || cJSON_GetArraySize(size) != 2)
        return sjson_error(
            &ld->cx, "output.render.size", "expected [width, height] in pixels, got %s",
            cJSON_IsArray(size) ? "another number of elements" : sjson_type_name(size));
    long long wh[2];
    int i = 0;
    for (const cJSON *e = size->child; e; e = e->next, i++) {
        char p[SJSON_PATH_MAX];
        if (sjson_integer(&ld->cx, e, sjson_path_index(p, "output.render.size", (size_t)i),
                          MIN_SIDE, RASTER_MAX_SIDE, &wh[i]))
            return CATENA_EINPUT;
    }
    o->width = (int)wh[0];
    o->height = (int)wh[1];
    return 0;
}

/* range: [lo, hi] with lo < hi, in the unit of color_by. */
static int read_range(struct loader *ld, const cJSON *r, struct render_opts *o)
{
    const cJSON *range = sjson_child(r, "range");
    vec3 v;
    if (!range)
        return 0;
    if (sjson_vector(&ld->cx, range, "output.render.range", 2, &v))
        return CATENA_EINPUT;
    if (!(v.x < v.y))
        return sjson_error(&ld->cx, "output.render.range",
                           "the first value must be less than the second (got [%g, %g])", v.x, v.y);
    o->has_range = 1;
    o->range_lo = v.x;
    o->range_hi = v.y;
    return 0;
}

/* point_radius: pixels, or "world" for each point's own radius. */
static int read_point_radius(struct loader *ld, const cJSON *r, struct render_opts *o)
{
    const cJSON *pr = sjson_child(r, "point_radius");
    if (cJSON_IsString(pr)) {
        if (strcmp(pr->valuestring, "world") != 0)
            return sjson_error(&ld->cx, "output.render.point_radius",
                               "expected a number of pixels or \"world\", got \"%s\"",
                               pr->valuestring);
        o->point_world = 1;
        return 0;
    }
    if (pr && !cJSON_IsNumber(pr))
        return sjson_error(&ld->cx, "output.render.point_radius",
                           "expected a number of pixels or \"world\", got %s", sjson_type_name(pr));
    return sjson_get_number(&ld->cx, r, "output.render", "point_radius", &RADIUS_RANGE,
                            &o->point_radius);
}

static int read_view(struct loader *ld, const cJSON *r, struct render_opts *o)
{
    const cJSON *view;
    if (sjson_object(&ld->cx, r, "output.render", "view", scenario_view_keys, &view))
        return CATENA_EINPUT;
    if (!view)
        return 0;
    if (sjson_get_vector(&ld->cx, view, "output.render.view", "center", ld->m->dims,
                         &o->view_center) ||
        sjson_get_number(&ld->cx, view, "output.render.view", "width", &SJSON_POSITIVE,
                         &o->view_width))
        return CATENA_EINPUT;
    o->has_view = 1;
    return 0;
}

/* yaw and pitch turn a 3D camera; a 2D scene has only one side to look at. */
static int read_angles(struct loader *ld, const cJSON *r, struct render_opts *o)
{
    static const char *const keys[] = {"yaw", "pitch"};
    for (int i = 0; i < 2; i++) {
        char p[SJSON_PATH_MAX];
        if (ld->m->dims == 2 && sjson_child(r, keys[i]))
            return sjson_error(&ld->cx, sjson_path_key(p, "output.render", keys[i]),
                               "only for 3D scenarios (\"dimensions\" is 2)");
    }
    return sjson_get_number(&ld->cx, r, "output.render", "yaw", &YAW_RANGE, &o->yaw) ||
           sjson_get_number(&ld->cx, r, "output.render", "pitch", &PITCH_RANGE, &o->pitch);
}

/* contact_sheet: true, false, or {frames, columns, width}. */
static int read_sheet(struct loader *ld, const cJSON *r, struct render_opts *o)
{
    const cJSON *cs = sjson_child(r, "contact_sheet");
    struct render_sheet_opts *s = &o->sheet;
    long long frames = s->frames, columns = s->columns, width = s->width;
    if (!cs)
        return 0;
    if (cJSON_IsBool(cs)) {
        s->enabled = cJSON_IsTrue(cs);
        return 0;
    }
    if (!cJSON_IsObject(cs))
        return sjson_error(&ld->cx, "output.render.contact_sheet",
                           "expected true, false or an object, got %s", sjson_type_name(cs));
    if (sjson_check_object(&ld->cx, cs, "output.render.contact_sheet", scenario_sheet_keys) ||
        sjson_get_integer(&ld->cx, cs, "output.render.contact_sheet", "frames", 1,
                          RENDER_SHEET_MAX_FRAMES, &frames) ||
        sjson_get_integer(&ld->cx, cs, "output.render.contact_sheet", "columns", 1,
                          RENDER_SHEET_MAX_FRAMES, &columns) ||
        sjson_get_integer(&ld->cx, cs, "output.render.contact_sheet", "width", MIN_SIDE,
                          RASTER_MAX_SIDE, &width))
        return CATENA_EINPUT;
    s->enabled = 1;
    s->frames = (int)frames;
    s->columns = (int)columns;
    s->width = (int)width;
    return 0;
}

/* A sheet's tiles must be at least MIN_SIDE wide. */
static int check_sheet(struct loader *ld, const struct render_opts *o)
{
    const struct render_sheet_opts *s = &o->sheet;
    const int width = s->width ? s->width : o->width;
    const int columns = s->columns < s->frames ? s->columns : s->frames;
    if (!s->enabled || width / columns >= MIN_SIDE)
        return 0;
    return sjson_error(&ld->cx, "output.render.contact_sheet",
                       "a sheet %d px wide has no room for %d columns (tiles need %d px)", width,
                       columns, MIN_SIDE);
}

int scenario_read_render(struct loader *ld)
{
    const cJSON *out = sjson_child(ld->root, "output"), *r;
    int color_by = RENDER_BY_STRETCH;
    long long level = 1;
    if (sjson_object(&ld->cx, out, "output", "render", scenario_render_keys, &r))
        return CATENA_EINPUT;
    if (!r)
        return 0;
    struct render_opts o = render_opts_default();
    if (read_timing(ld, r, &o) || read_size(ld, r, &o) ||
        sjson_get_enum(&ld->cx, r, "output.render", "color_by", scenario_color_by_names,
                       &color_by) ||
        read_range(ld, r, &o) ||
        sjson_get_number(&ld->cx, r, "output.render", "line_width", &WIDTH_RANGE, &o.line_width) ||
        read_point_radius(ld, r, &o) || read_view(ld, r, &o) || read_angles(ld, r, &o) ||
        sjson_get_integer(&ld->cx, r, "output.render", "level", 0, 9, &level) ||
        read_sheet(ld, r, &o) || check_sheet(ld, &o))
        return CATENA_EINPUT;
    o.color_by = (enum render_color_by)color_by;
    o.level = (int)level;
    if (scenario_output_enable_render(ld->out, ld->cx.err))
        return CATENA_EFAIL;
    *ld->out->render = o;
    return 0;
}
