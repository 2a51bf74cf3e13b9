/* The scenario's "world" section (catena-scenario(5)): gravity, and the wind that drags on
 * the links of bodies with a drag (solver/wind.h), steady or gusting as
 * wind (1 + amplitude sin(2 pi frequency t)). */
#include "scenario/loader.h"

// clang-format off
const struct sjson_key scenario_world_keys[] = {
    {"gravity", 0},
    {"wind", 0},
    {"gust", 0},
    {NULL, 0},
};
const struct sjson_key scenario_gust_keys[] = {
    {"amplitude", 1},
    {"frequency", 1},
    {NULL, 0},
};
// clang-format on

int scenario_read_gust(struct loader *ld, const cJSON *g, const char *path, double *amplitude,
                       double *frequency)
{
    if (sjson_check_object(&ld->cx, g, path, scenario_gust_keys) ||
        sjson_get_number(&ld->cx, g, path, "amplitude", &SJSON_NONNEG, amplitude) ||
        sjson_get_number(&ld->cx, g, path, "frequency", &SJSON_POSITIVE, frequency))
        return CATENA_EINPUT;
    char p[SJSON_PATH_MAX];
    return loader_frequency(ld, sjson_path_key(p, path, "frequency"), *frequency);
}

int scenario_read_world(struct loader *ld)
{
    struct model *m = ld->m;
    const cJSON *w, *gust;
    if (sjson_object(&ld->cx, ld->root, "", "world", scenario_world_keys, &w) ||
        sjson_get_vector(&ld->cx, w, "world", "gravity", m->dims, &m->gravity) ||
        sjson_get_vector(&ld->cx, w, "world", "wind", m->dims, &m->wind))
        return CATENA_EINPUT;
    gust = sjson_child(w, "gust");
    if (gust && scenario_read_gust(ld, gust, "world.gust", &m->gust_amplitude, &m->gust_frequency))
        return CATENA_EINPUT;
    return scenario_check_world(ld, "world", m->gravity, m->wind, m->gust_amplitude);
}

int scenario_check_world(struct loader *ld, const char *path, vec3 gravity, vec3 wind,
                         double gust_amplitude)
{
    char p[SJSON_PATH_MAX];
    /* The drag squares the wind at its gust's peak. */
    return loader_magnitude(ld, sjson_path_key(p, path, "gravity"), gravity) ||
                   loader_magnitude(ld, sjson_path_key(p, path, "wind"), wind) ||
                   loader_magnitude(ld, sjson_path_key(p, path, "gust"),
                                    v3_scale(wind, 1.0 + gust_amplitude))
               ? CATENA_EINPUT
               : 0;
}
