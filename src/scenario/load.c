/* Scenario files (format v1, catena-scenario(5)) -> scenario. The tree is parsed strictly,
 * the --set overrides are applied to it, then every section is checked against its key
 * table and read into the scenario by its reader (scenario/loader.h), in the order of
 * sections[] below. Global point indices: the points[] entries first, in order (so
 * points[i] is point i), then each body's points, body by body. */
#define _POSIX_C_SOURCE 200809L
#include "scenario/scenario.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/fmt_double.h"
#include "core/memory.h"
#include "core/sha256_hex.h"
#include "scenario/loader.h"
#include "scenario/setup_warnings.h"
#include "scenario/override.h"

#define FORMAT_VERSION 1

/* The allowed keys, one table per object of the format (here the top level's; each section's
 * beside its reader): one key a line, so that features add keys without touching their
 * neighbours. */
// clang-format off
const struct sjson_key scenario_top_keys[] = {
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
    {"checks", 0},
    {NULL, 0},
};
// clang-format on

/* ---- names ---- */

static int name_chars_ok(const char *s, const char *extra)
{
    for (; *s; s++)
        if (!(('a' <= *s && *s <= 'z') || ('A' <= *s && *s <= 'Z') || ('0' <= *s && *s <= '9') ||
              strchr(extra, *s)))
            return 0;
    return 1;
}

/* A scenario name names its output directory runs/NAME: not hidden, and not read as an
 * option by a command given it ("-rf"). */
static int dir_name_ok(const char *s)
{
    return *s && *s != '.' && *s != '-' && strlen(s) <= 255 && name_chars_ok(s, "._-");
}

#define DIR_NAME_RULE "use letters, digits, '.', '_' and '-', not starting with '.' or '-'"

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
    } else if (ld->default_name) {
        name = ld->default_name;
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
    if (!(ld->sc->provenance.name = strdup(name)))
        return loader_oom(ld);
    return 0;
}

/* ---- sections ---- */

static int read_version(struct loader *ld)
{
    const cJSON *v = sjson_child(ld->root, "catena");
    long long version;
    if (!v)
        return sjson_error(&ld->cx, "", "missing required key \"catena\"");
    if (sjson_integer(&ld->cx, v, "catena", -SCENARIO_MAX_COUNT, SCENARIO_MAX_COUNT, &version))
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
    if (sjson_get_integer(&ld->cx, ld->root, "", "dimensions", -SCENARIO_MAX_COUNT,
                          SCENARIO_MAX_COUNT, &dims))
        return CATENA_EINPUT;
    if (dims != 2 && dims != 3)
        return sjson_error(&ld->cx, "dimensions", "must be 2 or 3 (got %lld)", dims);
    ld->m->dims = (int)dims;
    return 0;
}

static int check_top(struct loader *ld)
{
    return sjson_check_object(&ld->cx, ld->root, "", scenario_top_keys);
}

/* Set-ups no shape can satisfy: warnings, not errors (scenario/setup_warnings.h). */
static int check_setup(struct loader *ld)
{
    return setup_warnings(ld->m, &ld->sc->warnings) ? loader_oom(ld) : 0;
}

static int check_has_points(struct loader *ld)
{
    if (ld->m->npoints == 0)
        return sjson_error(&ld->cx, "",
                           "the scenario has no points (add \"points\" or \"bodies\")");
    return 0;
}

/* The sections in order, one a line. Each reads what the ones before it have set: the
 * solver's limits after time, output.render after output.every, links after the pins so
 * that "auto" rest lengths measure the positions pins hold their points at, and so on. */
// clang-format off
static int (*const sections[])(struct loader *) = {
    read_version,
    check_top,
    read_name,
    read_dimensions,
    scenario_read_time,
    scenario_read_solver,
    scenario_read_world,
    scenario_read_obstacles,
    scenario_read_output,
    scenario_read_render,
    scenario_read_points,
    scenario_read_bodies,
    scenario_read_body_extras,
    check_has_points,
    scenario_read_pins,
    scenario_check_pins,
    scenario_read_links,
    scenario_read_constraints, /* right after links: it reads links[] again */
    scenario_read_reports,     /* after the pins: the catenary report needs a hanging rope */
    scenario_read_events,      /* cuts append the points and links they reserve */
    scenario_read_checks,      /* after the points and events: a check may name any point */
    scenario_check_model,      /* what the model derives, checked once it is whole */
    check_setup,               /* last: the whole model, for contradictions */
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

/* Keeps the overrides as "PATH=VALUE" in the provenance, so summary.json says exactly what
 * ran (catena sweep compares them to decide whether a finished run can be reused). */
static int record_overrides(struct scenario_provenance *p, const struct scenario_override *ov,
                            size_t nov)
{
    if (nov == 0)
        return 0;
    if (!(p->overrides = calloc(nov, sizeof *p->overrides)))
        return -1;
    for (; p->noverrides < nov; p->noverrides++) {
        const struct scenario_override *o = &ov[p->noverrides];
        const size_t n = strlen(o->path) + strlen(o->value) + 2;
        char *s = malloc(n);
        if (!s)
            return -1;
        snprintf(s, n, "%s=%s", o->path, o->value);
        p->overrides[p->noverrides] = s;
    }
    return 0;
}

/* The overrides' paths as messages write them ("points.3.mass" as "points[3].mass") with the
 * names of the options that gave them, for sjson_error; each origin's path and name share one
 * allocation, which starts at path. */
static struct sjson_origin *make_origins(const struct scenario_options *o, size_t *n)
{
    struct sjson_origin *origins = calloc(o->nov ? o->nov : 1, sizeof *origins);
    *n = 0;
    for (size_t i = 0; origins && i < o->nov; i++) {
        const struct scenario_override *ov = &o->ov[i];
        if (!o->names[i])
            continue;
        const size_t size = 2 * strlen(ov->path) + strlen(o->names[i]) + 220;
        char *text = malloc(size), *w = text;
        if (!text) {
            while ((*n)--)
                free((char *)origins[*n].path);
            free(origins);
            return NULL;
        }
        for (const char *c = ov->path; *c; c += strcspn(c, ".") + (c[strcspn(c, ".")] == '.')) {
            const int len = (int)strcspn(c, "."), index = strspn(c, "0123456789") >= (size_t)len;
            if (index)
                w += sprintf(w, "[%.*s]", len, c);
            else
                w += sprintf(w, "%s%.*s", c == ov->path ? "" : ".", len, c);
        }
        origins[*n].path = text;
        origins[*n].name = ++w;
        if (strcmp(o->names[i], "--set") == 0)
            snprintf(w, (size_t)(text + size - w), "--set %s=%.200s", ov->path, ov->value);
        else
            snprintf(w, (size_t)(text + size - w), "%s", o->names[i]);
        (*n)++;
    }
    return origins;
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

/* Keeps the effective scenario's text in the provenance: the tree after the overrides, with
 * the name taken from the file name written out, so that the text alone loads to the same
 * scenario under the same name. */
static int keep_effective_text(struct loader *ld, cJSON *root)
{
    struct scenario_provenance *p = &ld->sc->provenance;
    if (!sjson_child(root, "name") && !cJSON_AddStringToObject(root, "name", p->name))
        return loader_oom(ld);
    if (numbers_exact(root))
        return loader_oom(ld);
    if (!(p->json = cJSON_Print(root)))
        return loader_oom(ld);
    return 0;
}

/* The file's solver.method and solver.damping, as written, before any override. */
static void file_solver(struct loader *ld, const cJSON *root)
{
    const cJSON *s = sjson_child(root, "solver");
    const cJSON *method = s ? sjson_child(s, "method") : NULL;
    const cJSON *damping = s ? sjson_child(s, "damping") : NULL;
    static const char *const names[] = {"verlet", "pbd", "xpbd"};
    ld->file_method = method ? -1 : METHOD_VERLET;
    for (int k = 0; k < 3 && cJSON_IsString(method); k++)
        if (strcmp(method->valuestring, names[k]) == 0)
            ld->file_method = k;
    ld->file_damping = cJSON_IsNumber(damping) ? damping->valuedouble : NAN;
}

struct scenario *scenario_parse(const char *label, const char *text, size_t len,
                                const struct scenario_override *ov, size_t nov,
                                struct catena_error *err)
{
    struct scenario_options o = scenario_options_default();
    o.ov = ov;
    o.nov = nov;
    return scenario_parse_opts(label, text, len, &o, err);
}

struct scenario *scenario_parse_opts(const char *label, const char *text, size_t len,
                                     const struct scenario_options *o, struct catena_error *err)
{
    struct loader ld = {.cx = {.label = label, .err = err},
                        .max_points = o->max_points,
                        .default_name = o->default_name,
                        .max_memory = o->max_memory,
                        .points_expected = o->points_expected};
    struct sjson_origin *origins = NULL;
    cJSON *root = NULL;
    struct sjson_cost cost;
    error_clear(err);
    if (!(root = sjson_parse(label, text, len, o->max_memory, &cost, err)))
        return NULL;
    ld.text_bytes = cost.text;
    /* Numbers are kept as text too for provenance (numbers_exact): a node and a string. */
    ld.tree_bytes = cost.tree + cost.numbers * 112.0;
    ld.root = root;
    if (o->names && !(origins = make_origins(o, &ld.cx.norigins))) {
        error_set(err, CATENA_EFAIL, "out of memory");
        goto fail;
    }
    ld.cx.origins = origins;
    if (!cJSON_IsObject(root)) {
        sjson_error(&ld.cx, "", "expected a JSON object at the top level, got %s",
                    sjson_type_name(root));
        goto fail;
    }
    file_solver(&ld, root);
    for (size_t i = 0; i < o->nov; i++)
        if (scenario_override_apply(root, &o->ov[i], err))
            goto fail;
    if (!(ld.sc = scenario_create(NULL)) || !(ld.names = sref_create()) ||
        !(ld.sc->provenance.source = strdup(label)) ||
        record_overrides(&ld.sc->provenance, o->ov, o->nov)) {
        loader_oom(&ld);
        goto fail;
    }
    ld.m = ld.sc->model;
    ld.out = &ld.sc->output;
    sha256_hex(text, len, ld.sc->provenance.sha256);
    if (read_scenario(&ld) || keep_effective_text(&ld, root))
        goto fail;
    goto done;
fail:
    scenario_destroy(ld.sc);
    ld.sc = NULL;
done:
    sref_destroy(ld.names);
    free(ld.plans);
    free(ld.origins);
    for (size_t i = 0; i < ld.cx.norigins; i++)
        free((char *)origins[i].path);
    free(origins);
    cJSON_Delete(root);
    return ld.sc;
}

struct scenario *scenario_load(const char *path, const struct scenario_override *ov, size_t nov,
                               struct catena_error *err)
{
    struct scenario_options o = scenario_options_default();
    o.ov = ov;
    o.nov = nov;
    return scenario_load_opts(path, &o, err);
}

static int too_big(const char *path, double bytes, double max_memory, struct catena_error *err)
{
    if (max_memory <= 0 || 2 * bytes <= max_memory)
        return CATENA_OK;
    char size[32], limit[32];
    return error_set(err, CATENA_EINPUT,
                     "%s: %s of text is too much to read within the memory limit of %s "
                     "(--max-memory, by default the machine's memory)",
                     path, memory_format(size, bytes), memory_format(limit, max_memory));
}

/* A scenario is a file, or a pipe: a device (/dev/zero) would be read until memory runs
 * out. A file whose text alone is past half the memory limit (it is copied once while read)
 * is refused before a byte is read; a pipe, once it has given that much. */
static int check_source(FILE *f, const char *path, double max_memory, struct catena_error *err)
{
    struct stat st;
    if (fstat(fileno(f), &st) != 0)
        return error_set(err, CATENA_EINPUT, "%s: cannot read: %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode))
        return error_set(err, CATENA_EINPUT, "%s: is a directory, not a scenario file", path);
    if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
        return error_set(err, CATENA_EINPUT,
                         "%s: not a regular file (a device or a socket), so not a scenario", path);
    return S_ISREG(st.st_mode) ? too_big(path, (double)st.st_size, max_memory, err) : CATENA_OK;
}

struct scenario *scenario_load_opts(const char *path, const struct scenario_options *o,
                                    struct catena_error *err)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0;
    if (!f)
        goto unreadable;
    if (check_source(f, path, o->max_memory, err)) {
        fclose(f);
        return NULL;
    }
    for (;;) {
        if (too_big(path, (double)len, o->max_memory, err)) {
            fclose(f);
            free(buf);
            return NULL;
        }
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
    struct scenario *sc = scenario_parse_opts(path, buf, len, o, err);
    free(buf);
    return sc;
unreadable:
    free(buf);
    error_set(err, CATENA_EINPUT, "%s: cannot read: %s", path, strerror(errno));
    return NULL;
}
