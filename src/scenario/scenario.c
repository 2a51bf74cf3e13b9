/* Scenario files (format v1, catena-scenario(5)) -> model. The tree is parsed strictly,
 * the --set overrides are applied to it, then every section is checked against its key
 * table and read into the model. Global point indices: the points[] entries first, in
 * order (so points[i] is point i), then each body's points, body by body. */
#define _POSIX_C_SOURCE 200809L
#include "scenario/scenario.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fmt_double.h"
#include "scenario/sjson.h"
#include "scenario/loader.h"
#include "scenario/sref.h"
#include "core/sha256_hex.h"

#define FORMAT_VERSION 1

#define MAX_COUNT SCENARIO_MAX_COUNT

/* Memory a point and a link take in the model and the state, for the size message. */
#define POINT_BYTES (2 * sizeof(vec3) + 3 * sizeof(double) + sizeof(char *) + 2 * sizeof(vec3))
#define LINK_BYTES (sizeof(struct link) + 1)

/* The allowed keys, one table per object of the format: one key a line, so that
 * features add keys without touching their neighbours. */
// clang-format off
static const struct sjson_key top_keys[] = {
    {"catena", 1},
    {"name", 0},
    {"dimensions", 0},
    {"time", 1},
    {"solver", 0},
    {"world", 0},
    {"points", 0},
    {"links", 0},
    {"pins", 0},
    {"bodies", 0},
    {"output", 0},
    {"angles", 0},
    {"areas", 0},
    {"shapes", 0},
    {"attachments", 0},
    {"obstacles", 0},
    {"events", 0},
    {NULL, 0},
};
static const struct sjson_key time_keys[] = {
    {"dt", 1},
    {"steps", 1},
    {"substeps", 0},
    {"until_settled", 0},
    {NULL, 0},
};
static const struct sjson_key solver_keys[] = {
    {"method", 0},
    {"iterations", 0},
    {"order", 0},
    {"damping", 0},
    {"max_length_pass", 0},
    {"global", 0},
    {"collide_every", 0},
    {"shock_iterations", 0},
    {"threads", 0},
    {"kernel", 0},
    {NULL, 0},
};
static const struct sjson_key world_keys[] = {
    {"gravity", 0},
    {"wind", 0},
    {"gust", 0},
    {NULL, 0},
};
static const struct sjson_key output_keys[] = {
    {"trajectory", 0},
    {"every", 0},
    {"render", 0},
    {"metrics", 0},
    {"reports", 0},
    {NULL, 0},
};
static const struct sjson_key point_keys[] = {
    {"name", 0},
    {"p", 1},
    {"v", 0},
    {"mass", 1},
    {"radius", 0},
    {NULL, 0},
};
static const struct sjson_key link_keys[] = {
    {"a", 1},
    {"b", 1},
    {"rest", 0},
    {"stiffness", 0},
    {"break_stretch", 0},
    {"compliance", 0},
    {"EA", 0},
    {"kind", 0},
    {"break_force", 0},
    {NULL, 0},
};
static const struct sjson_key pin_keys[] = {
    {"point", 1},
    {"at", 0},
    {"motion", 0},
    {NULL, 0},
};

// clang-format on

/* Enum values as the file writes them, indexed by the model's enums. */
static const char *const method_names[] = {"verlet", "pbd", "xpbd", NULL};
static const char *const order_names[] = {"forward", "alternate", "colored", NULL};
static const char *const format_names[] = {"csv", "json", "npy", NULL}; /* bit i = 1 << i */

int scenario_oom(struct loader *ld)
{
    return error_set(ld->cx.err, CATENA_EFAIL, "%s: out of memory", ld->cx.label);
}

/* ---- names ---- */

static int name_chars_ok(const char *s, const char *extra)
{
    for (; *s; s++)
        if (!(('a' <= *s && *s <= 'z') || ('A' <= *s && *s <= 'Z') || ('0' <= *s && *s <= '9') ||
              strchr(extra, *s)))
            return 0;
    return 1;
}

/* A scenario name names its output directory runs/NAME. */
static int dir_name_ok(const char *s)
{
    return *s && *s != '.' && strlen(s) <= 255 && name_chars_ok(s, "._-");
}

#define DIR_NAME_RULE "use letters, digits, '.', '_' and '-', not starting with '.'"

static int read_name(struct loader *ld)
{
    const char *name = NULL;
    if (sjson_get_string(&ld->cx, ld->root, "", "name", &name))
        return CATENA_EINPUT;
    char from_file[512], shown[SJSON_SHOW_SIZE];
    if (name) {
        if (!dir_name_ok(name))
            return sjson_error(&ld->cx, "name", "\"%s\" cannot be used as a directory name (%s)",
                               sjson_show(shown, name), DIR_NAME_RULE);
    } else {
        const char *base = strrchr(ld->cx.label, '/');
        base = base ? base + 1 : ld->cx.label;
        size_t n = strlen(base);
        if (n > 5 && strcmp(base + n - 5, ".json") == 0)
            n -= 5;
        snprintf(from_file, sizeof from_file, "%.*s", (int)n, base);
        if (!dir_name_ok(from_file))
            return sjson_error(&ld->cx, "name",
                               "the file name gives the name \"%s\", which cannot be used as a "
                               "directory name (%s); set \"name\"",
                               sjson_show(shown, from_file), DIR_NAME_RULE);
        name = from_file;
    }
    if (!(ld->m->name = strdup(name)))
        return scenario_oom(ld);
    return 0;
}

int scenario_add_name(struct loader *ld, const char *path, const char *name, enum sref_kind kind,
                      size_t index)
{
    struct sref_entry taken;
    const int r = sref_add(ld->names, name, kind, index, &taken);
    if (r < 0)
        return scenario_oom(ld);
    if (r == 0)
        return 0;
    const char *what = kind == SREF_POINT ? "point" : "body";
    char shown[SJSON_SHOW_SIZE];
    sjson_show(shown, name);
    const char *holder = taken.kind == SREF_POINT ? "points" : "bodies";
    if (taken.kind == kind)
        return sjson_error(&ld->cx, path, "duplicate %s name \"%s\" (also %s[%zu])", what, shown,
                           holder, taken.index);
    return sjson_error(&ld->cx, path, "\"%s\" is already the name of %s[%zu]", shown, holder,
                       taken.index);
}

/* ---- sections ---- */

static int read_version(struct loader *ld)
{
    const cJSON *v = sjson_child(ld->root, "catena");
    long long version;
    if (!v)
        return sjson_error(&ld->cx, "", "missing required key \"catena\"");
    if (sjson_integer(&ld->cx, v, "catena", -MAX_COUNT, MAX_COUNT, &version))
        return CATENA_EINPUT;
    if (version != FORMAT_VERSION)
        return sjson_error(&ld->cx, "catena",
                           "unsupported format version %lld (this catena reads version %d)",
                           version, FORMAT_VERSION);
    return 0;
}

static int read_dimensions(struct loader *ld)
{
    long long dims = 2;
    if (sjson_get_integer(&ld->cx, ld->root, "", "dimensions", -MAX_COUNT, MAX_COUNT, &dims))
        return CATENA_EINPUT;
    if (dims != 2 && dims != 3)
        return sjson_error(&ld->cx, "dimensions", "must be 2 or 3 (got %lld)", dims);
    ld->m->dims = (int)dims;
    return 0;
}

static int read_time(struct loader *ld)
{
    const cJSON *t;
    long long steps = 0, substeps = 1;
    if (sjson_object(&ld->cx, ld->root, "", "time", time_keys, &t) ||
        sjson_get_number(&ld->cx, t, "time", "dt", &SJSON_POSITIVE, &ld->m->dt) ||
        sjson_get_integer(&ld->cx, t, "time", "steps", 0, MAX_COUNT, &steps) ||
        sjson_get_integer(&ld->cx, t, "time", "substeps", 1, INT_MAX, &substeps))
        return CATENA_EINPUT;
    ld->m->steps = (long)steps;
    ld->m->substeps = (int)substeps;
    return 0;
}

static int read_solver(struct loader *ld)
{
    const cJSON *s;
    int method = (int)ld->m->method, order = (int)ld->m->order;
    long long iterations = ld->m->iterations;
    if (sjson_object(&ld->cx, ld->root, "", "solver", solver_keys, &s) ||
        sjson_get_enum(&ld->cx, s, "solver", "method", method_names, &method) ||
        sjson_get_integer(&ld->cx, s, "solver", "iterations", 1, INT_MAX, &iterations) ||
        sjson_get_enum(&ld->cx, s, "solver", "order", order_names, &order) ||
        sjson_get_number(&ld->cx, s, "solver", "damping", &SJSON_UNIT, &ld->m->damping))
        return CATENA_EINPUT;
    ld->m->method = (enum solver_method)method;
    ld->m->order = (enum solver_order)order;
    ld->m->iterations = (int)iterations;
    return 0;
}

static int read_world(struct loader *ld)
{
    const cJSON *w;
    if (sjson_object(&ld->cx, ld->root, "", "world", world_keys, &w) ||
        sjson_get_vector(&ld->cx, w, "world", "gravity", ld->m->dims, &ld->m->gravity))
        return CATENA_EINPUT;
    return 0;
}

static int read_output(struct loader *ld)
{
    const cJSON *o, *traj = NULL;
    long long every = ld->m->every;
    if (sjson_object(&ld->cx, ld->root, "", "output", output_keys, &o) ||
        sjson_array(&ld->cx, o, "output", "trajectory", &traj) ||
        sjson_get_integer(&ld->cx, o, "output", "every", 1, MAX_COUNT, &every))
        return CATENA_EINPUT;
    ld->m->every = (long)every;
    if (!traj)
        return 0;
    unsigned formats = 0;
    size_t i = 0;
    for (const cJSON *e = traj->child; e; e = e->next, i++) {
        char p[SJSON_PATH_MAX];
        int f = 0;
        if (sjson_enum(&ld->cx, e, sjson_path_index(p, "output.trajectory", i), format_names, &f))
            return CATENA_EINPUT;
        if (formats & (1u << f))
            return sjson_error(&ld->cx, p, "\"%s\" is listed twice", format_names[f]);
        formats |= 1u << f;
    }
    ld->m->formats = formats;
    return 0;
}

int scenario_check_size(struct loader *ld, const char *path, long long points, long long links)
{
    if (points <= ld->max_points)
        return 0;
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double size = (double)points * (double)POINT_BYTES + (double)links * (double)LINK_BYTES;
    size_t u = 0;
    while (size >= 1024 && u + 1 < sizeof units / sizeof *units) {
        size /= 1024;
        u++;
    }
    return sjson_error(&ld->cx, path,
                       "too many points: the scenario would need %lld points, about %.3g %s of "
                       "memory (the limit is %lld point%s; --max-points changes it)",
                       points, size, units[u], ld->max_points, ld->max_points == 1 ? "" : "s");
}

static int read_point(struct loader *ld, const cJSON *e, const char *path)
{
    const char *name = NULL;
    vec3 p = v3(0, 0, 0), v = v3(0, 0, 0);
    double mass = 0, radius = 0;
    char np[SJSON_PATH_MAX], shown[SJSON_SHOW_SIZE];
    if (sjson_check_object(&ld->cx, e, path, point_keys) ||
        sjson_get_string(&ld->cx, e, path, "name", &name) ||
        sjson_get_vector(&ld->cx, e, path, "p", ld->m->dims, &p) ||
        sjson_get_vector(&ld->cx, e, path, "v", ld->m->dims, &v) ||
        sjson_get_number(&ld->cx, e, path, "mass", &SJSON_NONNEG, &mass) ||
        sjson_get_number(&ld->cx, e, path, "radius", &SJSON_NONNEG, &radius))
        return CATENA_EINPUT;
    sjson_path_key(np, path, "name");
    if (name && !*name)
        return sjson_error(&ld->cx, np, "must not be empty");
    if (name && strchr(name, '.'))
        return sjson_error(&ld->cx, np,
                           "\"%s\" contains '.', which is reserved for body points (\"rope.3\")",
                           sjson_show(shown, name));
    const long i = model_add_point(ld->m, p, v, mass, radius, name);
    if (i < 0)
        return scenario_oom(ld);
    return name ? scenario_add_name(ld, np, ld->m->point_name[i], SREF_POINT, (size_t)i) : 0;
}

static int read_points(struct loader *ld)
{
    const cJSON *points;
    if (sjson_array(&ld->cx, ld->root, "", "points", &points))
        return CATENA_EINPUT;
    if (!points)
        return 0;
    if (scenario_check_size(ld, "points", cJSON_GetArraySize(points), 0))
        return CATENA_EINPUT;
    size_t i = 0;
    for (const cJSON *e = points->child; e; e = e->next, i++) {
        char p[SJSON_PATH_MAX];
        if (read_point(ld, e, sjson_path_index(p, "points", i)))
            return CATENA_EINPUT;
    }
    return 0;
}

int scenario_add_pin(struct loader *ld, uint32_t point, vec3 at, long body, size_t entry)
{
    if (ld->m->npins == ld->origin_cap) {
        const size_t cap = ld->origin_cap ? 2 * ld->origin_cap : 16;
        struct pin_origin *o = realloc(ld->origins, cap * sizeof *o);
        if (!o)
            return scenario_oom(ld);
        ld->origins = o;
        ld->origin_cap = cap;
    }
    ld->origins[ld->m->npins] = (struct pin_origin){.body = body, .entry = entry};
    return model_add_pin(ld->m, point, at) < 0 ? scenario_oom(ld) : 0;
}

static int read_pins(struct loader *ld)
{
    const cJSON *pins;
    if (sjson_array(&ld->cx, ld->root, "", "pins", &pins))
        return CATENA_EINPUT;
    size_t i = 0;
    for (const cJSON *e = pins ? pins->child : NULL; e; e = e->next, i++) {
        char p[SJSON_PATH_MAX], pp[SJSON_PATH_MAX];
        uint32_t point = 0;
        sjson_path_index(p, "pins", i);
        if (sjson_check_object(&ld->cx, e, p, pin_keys) ||
            sref_resolve(ld->names, ld->m, &ld->cx, sjson_child(e, "point"),
                         sjson_path_key(pp, p, "point"), &point))
            return CATENA_EINPUT;
        vec3 at = ld->m->x0[point];
        if (sjson_get_vector(&ld->cx, e, p, "at", ld->m->dims, &at))
            return CATENA_EINPUT;
        int rc = scenario_add_pin(ld, point, at, -1, i);
        if (!rc)
            rc = scenario_read_pin_motion(ld, e, p, ld->m->npins - 1);
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
static int check_duplicate_pins(struct loader *ld)
{
    const size_t n = ld->m->npins;
    if (n < 2)
        return 0;
    struct pin_order *o = malloc(n * sizeof *o);
    if (!o)
        return scenario_oom(ld);
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

/* rest: a number > 0, or "auto" (the default) for the initial distance. */
static int read_rest(struct loader *ld, const cJSON *e, const char *path, uint32_t a, uint32_t b,
                     double *rest)
{
    char p[SJSON_PATH_MAX], shown[SJSON_SHOW_SIZE];
    const cJSON *r = sjson_child(e, "rest");
    sjson_path_key(p, path, "rest");
    if (cJSON_IsNumber(r))
        return sjson_number(&ld->cx, r, p, &SJSON_POSITIVE, rest);
    if (r && !(cJSON_IsString(r) && strcmp(r->valuestring, "auto") == 0)) {
        if (cJSON_IsString(r))
            return sjson_error(&ld->cx, p, "expected a number or \"auto\", got \"%s\"",
                               sjson_show(shown, r->valuestring));
        return sjson_error(&ld->cx, p, "expected a number or \"auto\", got %s", sjson_type_name(r));
    }
    *rest = v3_dist(ld->m->x0[a], ld->m->x0[b]);
    if (*rest > 0)
        return 0;
    char da[300], db[300];
    sref_describe(ld->m, a, da, sizeof da);
    sref_describe(ld->m, b, db, sizeof db);
    return sjson_error(&ld->cx, p,
                       "\"auto\" gives 0: %s and %s start at the same position (give the rest "
                       "length)",
                       da, db);
}

static int read_link(struct loader *ld, const cJSON *e, const char *path)
{
    char pa[SJSON_PATH_MAX], pb[SJSON_PATH_MAX], what[300];
    uint32_t a = 0, b = 0;
    double rest = 0, stiffness = 1.0, break_stretch = 0.0;
    if (sjson_check_object(&ld->cx, e, path, link_keys) ||
        sref_resolve(ld->names, ld->m, &ld->cx, sjson_child(e, "a"), sjson_path_key(pa, path, "a"),
                     &a) ||
        sref_resolve(ld->names, ld->m, &ld->cx, sjson_child(e, "b"), sjson_path_key(pb, path, "b"),
                     &b))
        return CATENA_EINPUT;
    if (a == b)
        return sjson_error(&ld->cx, pb, "%s is also \"a\" (a link joins two different points)",
                           sref_describe(ld->m, b, what, sizeof what));
    if (read_rest(ld, e, path, a, b, &rest) ||
        sjson_get_number(&ld->cx, e, path, "stiffness", &SJSON_UNIT, &stiffness) ||
        sjson_get_number(&ld->cx, e, path, "break_stretch", &SJSON_ABOVE_ONE, &break_stretch))
        return CATENA_EINPUT;
    const long l = model_add_link(ld->m, a, b, rest);
    if (l < 0)
        return scenario_oom(ld);
    ld->m->links[l].stiffness = stiffness;
    ld->m->links[l].break_stretch = break_stretch;
    return 0;
}

static int read_links(struct loader *ld)
{
    const cJSON *links;
    if (sjson_array(&ld->cx, ld->root, "", "links", &links))
        return CATENA_EINPUT;
    size_t i = 0;
    for (const cJSON *e = links ? links->child : NULL; e; e = e->next, i++) {
        char p[SJSON_PATH_MAX];
        const int rc = read_link(ld, e, sjson_path_index(p, "links", i));
        if (rc)
            return rc;
    }
    return 0;
}

static int check_top(struct loader *ld)
{
    return sjson_check_object(&ld->cx, ld->root, "", top_keys);
}

static int check_has_points(struct loader *ld)
{
    if (ld->m->npoints == 0)
        return sjson_error(&ld->cx, "",
                           "the scenario has no points (add \"points\" or \"bodies\")");
    return 0;
}

/* The sections in order, one a line. Pins come before links so that "auto" rest lengths
 * measure the positions pins hold their points at. */
// clang-format off
static int (*const sections[])(struct loader *) = {
    read_version,
    check_top,
    read_name,
    read_dimensions,
    read_time,
    read_solver,
    scenario_read_perf,
    read_world,
    scenario_read_world_settings,
    scenario_read_contact,
    scenario_read_obstacles,
    read_output,
    read_points,
    scenario_read_bodies,
    scenario_read_body_world,
    check_has_points,
    read_pins,
    check_duplicate_pins,
    read_links,
    scenario_read_render,
    scenario_read_body_colors,
    scenario_read_constraints, /* right after read_links: it reads links[] again */
    scenario_read_direct,
    scenario_read_reports,
    scenario_read_events,      /* last: cuts append the points and links they reserve */
};
// clang-format on

static int read_scenario(struct loader *ld)
{
    for (size_t i = 0; i < sizeof sections / sizeof *sections; i++) {
        const int rc = sections[i](ld);
        if (rc)
            return rc;
    }
    return 0;
}

struct scenario_options scenario_options_default(void)
{
    return (struct scenario_options){.max_points = SCENARIO_MAX_POINTS};
}

/* Keeps the overrides as "PATH=VALUE" in the model, so summary.json says exactly what ran
 * (catena sweep compares them to decide whether a finished run can be reused). */
static int record_overrides(struct model *m, const struct scenario_override *ov, size_t nov)
{
    if (nov == 0)
        return 0;
    if (!(m->overrides = calloc(nov, sizeof *m->overrides)))
        return -1;
    for (; m->noverrides < nov; m->noverrides++) {
        const struct scenario_override *o = &ov[m->noverrides];
        const size_t n = strlen(o->path) + strlen(o->value) + 2;
        char *s = malloc(n);
        if (!s)
            return -1;
        snprintf(s, n, "%s=%s", o->path, o->value);
        m->overrides[m->noverrides] = s;
    }
    return 0;
}

/* Replaces every number under item by raw text in fmt_double's shortest round-trip form:
 * cJSON prints some doubles with 15 digits when they come within an ulp, not bit for bit. */
static int numbers_exact(cJSON *item)
{
    for (cJSON *e = item->child, *next; e; e = next) {
        next = e->next;
        if (!cJSON_IsNumber(e)) {
            if (numbers_exact(e))
                return -1;
            continue;
        }
        char buf[FMT_DOUBLE_SIZE];
        fmt_double(buf, e->valuedouble);
        cJSON *raw = cJSON_CreateRaw(buf);
        if (!raw)
            return -1;
        raw->string = e->string; /* the member's key moves over (NULL in arrays) */
        e->string = NULL;
        cJSON_ReplaceItemViaPointer(item, e, raw);
    }
    return 0;
}

/* Keeps the effective scenario's text in the model: the tree after the overrides, with the
 * name taken from the file name written out, so that the text alone loads to the same model
 * under the same name. */
static int keep_effective_text(struct loader *ld, cJSON *root)
{
    if (!sjson_child(root, "name") && !cJSON_AddStringToObject(root, "name", ld->m->name))
        return scenario_oom(ld);
    if (numbers_exact(root))
        return scenario_oom(ld);
    if (!(ld->m->scenario_json = cJSON_Print(root)))
        return scenario_oom(ld);
    return 0;
}

struct model *scenario_parse(const char *label, const char *text, size_t len,
                             const struct scenario_override *ov, size_t nov,
                             struct catena_error *err)
{
    struct scenario_options o = scenario_options_default();
    o.ov = ov;
    o.nov = nov;
    return scenario_parse_opts(label, text, len, &o, err);
}

struct model *scenario_parse_opts(const char *label, const char *text, size_t len,
                                  const struct scenario_options *o, struct catena_error *err)
{
    struct loader ld = {.cx = {.label = label, .err = err}, .max_points = o->max_points};
    cJSON *root = NULL;
    error_clear(err);
    if (!(root = sjson_parse(label, text, len, err)))
        return NULL;
    ld.root = root;
    if (!cJSON_IsObject(root)) {
        sjson_error(&ld.cx, "", "expected a JSON object at the top level, got %s",
                    sjson_type_name(root));
        goto fail;
    }
    for (size_t i = 0; i < o->nov; i++)
        if (scenario_override_apply(root, &o->ov[i], err))
            goto fail;
    if (!(ld.m = model_create()) || !(ld.names = sref_create()) ||
        !(ld.m->source = strdup(label)) || record_overrides(ld.m, o->ov, o->nov)) {
        scenario_oom(&ld);
        goto fail;
    }
    sha256_hex(text, len, ld.m->sha256);
    if (read_scenario(&ld) || keep_effective_text(&ld, root))
        goto fail;
    goto done;
fail:
    model_destroy(ld.m);
    ld.m = NULL;
done:
    sref_destroy(ld.names);
    free(ld.plans);
    free(ld.origins);
    cJSON_Delete(root);
    return ld.m;
}

struct model *scenario_load(const char *path, const struct scenario_override *ov, size_t nov,
                            struct catena_error *err)
{
    struct scenario_options o = scenario_options_default();
    o.ov = ov;
    o.nov = nov;
    return scenario_load_opts(path, &o, err);
}

struct model *scenario_load_opts(const char *path, const struct scenario_options *o,
                                 struct catena_error *err)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0;
    if (!f)
        goto unreadable;
    for (;;) {
        if (len == cap) {
            cap = cap ? 2 * cap : 65536;
            char *b = realloc(buf, cap);
            if (!b) {
                fclose(f);
                free(buf);
                error_set(err, CATENA_EFAIL, "%s: out of memory", path);
                return NULL;
            }
            buf = b;
        }
        const size_t r = fread(buf + len, 1, cap - len, f);
        len += r;
        if (r == 0)
            break;
    }
    if (ferror(f)) {
        const int e = errno;
        fclose(f);
        errno = e;
        goto unreadable;
    }
    fclose(f);
    struct model *m = scenario_parse_opts(path, buf, len, o, err);
    free(buf);
    return m;
unreadable:
    free(buf);
    error_set(err, CATENA_EINPUT, "%s: cannot read: %s", path, strerror(errno));
    return NULL;
}
