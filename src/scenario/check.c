/* The scenario's checks[] (catena-scenario(5), scenario/check.h): each check an object with
 * a "type", an optional "name" and the keys of its type, one key table per type so that a
 * key of another type is refused with the list of this one's. Times become steps as event
 * times do (the first step at or after them). */
#define _POSIX_C_SOURCE 200809L
#include "scenario/check.h"

#include <stdlib.h>
#include <string.h>

#include "scenario/loader.h"
#include "scenario/scenario.h"

const char *const check_type_names[] = {
    "max_stretch", "no_break", "settled", "energy", "inside", NULL,
};

const char *const scenario_check_at_names[] = {"every_step", "end", NULL};

// clang-format off
const struct sjson_key scenario_check_max_stretch_keys[] = {
    {"name", 0},
    {"type", 1},
    {"limit", 1},
    {"at", 0},
    {NULL, 0},
};
const struct sjson_key scenario_check_no_break_keys[] = {
    {"name", 0},
    {"type", 1},
    {NULL, 0},
};
const struct sjson_key scenario_check_settled_keys[] = {
    {"name", 0},
    {"type", 1},
    {"by", 1},
    {"speed", 1},
    {NULL, 0},
};
const struct sjson_key scenario_check_energy_keys[] = {
    {"name", 0},
    {"type", 1},
    {"max_gain", 1},
    {"from", 0},
    {NULL, 0},
};
const struct sjson_key scenario_check_inside_keys[] = {
    {"name", 0},
    {"type", 1},
    {"point", 1},
    {"min", 1},
    {"max", 1},
    {"time", 0},
    {"step", 0},
    {NULL, 0},
};
// clang-format on

/* Indexed by enum check_type. */
static const struct sjson_key *const type_keys[CHECK_TYPES] = {
    scenario_check_max_stretch_keys, scenario_check_no_break_keys, scenario_check_settled_keys,
    scenario_check_energy_keys,      scenario_check_inside_keys,
};

void check_free_all(struct scenario_checks *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->list[i].name);
    free(c->list);
    *c = (struct scenario_checks){0};
}

/* e[key], a time in s, as the first step at or after it; absent leaves *step as it is. A time
 * after the last step is no error: a run made shorter (--steps, a sweep) leaves the check
 * undecided. */
static int read_time(struct loader *ld, const cJSON *e, const char *path, const char *key,
                     long *step)
{
    double t = -1.0;
    if (sjson_get_number(&ld->cx, e, path, key, &SJSON_NONNEG, &t))
        return CATENA_EINPUT;
    if (t >= 0.0)
        *step = loader_time_step(ld, t);
    return 0;
}

/* inside: the point, the box (min <= max in every component), and when: "time", "step" or
 * neither (the end). */
static int read_inside(struct loader *ld, const cJSON *e, const char *path, struct check *c)
{
    static const char axis[] = "xyz";
    char p[SJSON_PATH_MAX];
    const int dims = ld->m->dims;
    if (sref_resolve(ld->names, ld->m, &ld->cx, sjson_child(e, "point"),
                     sjson_path_key(p, path, "point"), &c->point) ||
        sjson_get_vector(&ld->cx, e, path, "min", dims, &c->min) ||
        sjson_get_vector(&ld->cx, e, path, "max", dims, &c->max))
        return CATENA_EINPUT;
    const double lo[3] = {c->min.x, c->min.y, c->min.z}, hi[3] = {c->max.x, c->max.y, c->max.z};
    for (int k = 0; k < dims; k++)
        if (lo[k] > hi[k])
            return sjson_error(&ld->cx, sjson_path_key(p, path, "max"),
                               "must be at least \"min\" in every component (%c: %g < %g)", axis[k],
                               hi[k], lo[k]);
    long long step = -1;
    if (loader_either(ld, e, path, "time", "step") ||
        sjson_get_integer(&ld->cx, e, path, "step", 0, SCENARIO_MAX_COUNT, &step) ||
        read_time(ld, e, path, "time", &c->step))
        return CATENA_EINPUT;
    if (step >= 0)
        c->step = (long)step;
    c->at_end = !sjson_child(e, "time") && !sjson_child(e, "step");
    return 0;
}

static int read_type_keys(struct loader *ld, const cJSON *e, const char *path, struct check *c)
{
    int at = 0;
    switch (c->type) {
    case CHECK_MAX_STRETCH:
        if (sjson_get_number(&ld->cx, e, path, "limit", &SJSON_POSITIVE, &c->limit) ||
            sjson_get_enum(&ld->cx, e, path, "at", scenario_check_at_names, &at))
            return CATENA_EINPUT;
        c->at_end = at == 1;
        return 0;
    case CHECK_NO_BREAK:
        return 0;
    case CHECK_SETTLED:
        return sjson_get_number(&ld->cx, e, path, "speed", &SJSON_POSITIVE, &c->limit) ||
               read_time(ld, e, path, "by", &c->step);
    case CHECK_ENERGY:
        return sjson_get_number(&ld->cx, e, path, "max_gain", &SJSON_NONNEG, &c->limit) ||
               read_time(ld, e, path, "from", &c->step);
    case CHECK_INSIDE:
        return read_inside(ld, e, path, c);
    case CHECK_TYPES:
        break;
    }
    return 0;
}

/* "name": a non-empty string without control characters (it goes into messages and
 * reports), different from the names before it; the type's name unless given. */
static int read_name(struct loader *ld, const cJSON *e, const char *path, size_t i)
{
    struct check *c = &ld->sc->checks.list[i];
    const char *name = check_type_names[c->type];
    char p[SJSON_PATH_MAX], shown[SJSON_SHOW_SIZE];
    if (sjson_get_string(&ld->cx, e, path, "name", &name))
        return CATENA_EINPUT;
    for (const unsigned char *s = (const unsigned char *)name; *s; s++)
        if (*s < 0x20 || *s == 0x7f)
            return sjson_error(&ld->cx, sjson_path_key(p, path, "name"),
                               "a check's name cannot hold control characters");
    if (!*name)
        return sjson_error(&ld->cx, sjson_path_key(p, path, "name"), "must not be empty");
    for (size_t k = 0; k < i; k++) {
        if (strcmp(ld->sc->checks.list[k].name, name) != 0)
            continue;
        if (sjson_child(e, "name"))
            return sjson_error(&ld->cx, sjson_path_key(p, path, "name"),
                               "duplicate check name \"%s\" (also checks[%zu])",
                               sjson_show(shown, name), k);
        return sjson_error(&ld->cx, path,
                           "checks[%zu] is named \"%s\" too; give this one a \"name\"", k,
                           sjson_show(shown, name));
    }
    if (!(c->name = strdup(name)))
        return loader_oom(ld);
    return 0;
}

static int read_check(struct loader *ld, const cJSON *e, const char *path, size_t i)
{
    struct check *c = &ld->sc->checks.list[i];
    char p[SJSON_PATH_MAX];
    int type = 0;
    if (!cJSON_IsObject(e))
        return sjson_error(&ld->cx, path, "expected an object, got %s", sjson_type_name(e));
    if (!sjson_child(e, "type"))
        return sjson_error(&ld->cx, path, "missing required key \"type\"");
    if (sjson_enum(&ld->cx, sjson_child(e, "type"), sjson_path_key(p, path, "type"),
                   check_type_names, &type))
        return CATENA_EINPUT;
    *c = (struct check){.type = (enum check_type)type};
    if (sjson_check_object(&ld->cx, e, path, type_keys[type]) || read_type_keys(ld, e, path, c))
        return CATENA_EINPUT;
    return read_name(ld, e, path, i);
}

int scenario_read_checks(struct loader *ld)
{
    const cJSON *list = NULL;
    if (sjson_array(&ld->cx, ld->root, "", "checks", &list))
        return CATENA_EINPUT;
    const int n = list ? cJSON_GetArraySize(list) : 0;
    if (n == 0)
        return 0;
    struct scenario_checks *cs = &ld->sc->checks;
    if (!(cs->list = calloc((size_t)n, sizeof *cs->list)))
        return loader_oom(ld);
    size_t i = 0;
    for (const cJSON *e = list->child; e; e = e->next, i++) {
        char p[SJSON_PATH_MAX];
        /* counted as it goes, so that check_free_all frees what was read */
        cs->n = i + 1;
        const int rc = read_check(ld, e, sjson_path_index(p, "checks", i), i);
        if (rc)
            return rc;
    }
    return 0;
}
