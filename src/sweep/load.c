/* Sweep files -> plans: the file is checked like a scenario (strict JSON, known keys, JSON
 * paths in messages), its value lists are expanded as a product (the first path varies
 * slowest, like nested loops) or zipped, each run is named by its values, and the base
 * scenario is loaded with each run's overrides so that a bad value stops the sweep before
 * anything runs. The plan is written down and read back by sweep/plan_json.c. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "sweep/sweep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "config.h"
#include "core/alloc.h"
#include "core/path.h"
#include "core/readfile.h"
#include "core/spell.h"
#include "model/model.h"
#include "scenario/scenario.h"
#include "scenario/sjson.h"
#include "sweep/internal.h"

// clang-format off
const struct sjson_key sweep_keys[] = {
    {"description", 0},
    {"base", 1},
    {"set", 0},
    {"vary", 1},
    {"mode", 0},
    {"collect", 0},
    {NULL, 0},
};
// clang-format on

enum sweep_mode { MODE_PRODUCT, MODE_ZIP };
const char *const sweep_mode_names[] = {"product", "zip", NULL};

/* The files a collect path may read: FILE.PATH. */
static const char *const collect_files[] = {"summary", "catenary", "metrics", NULL};

/* Allocates the plan's arrays for naxes paths, ncollect collect paths and nruns runs. */
static int plan_alloc(struct sweep_plan *p, size_t naxes, size_t ncollect, size_t nruns)
{
    p->paths = alloc_array(naxes, sizeof *p->paths);
    p->collect = alloc_array(ncollect, sizeof *p->collect);
    p->runs = alloc_array(nruns, sizeof *p->runs);
    if (!p->paths || !p->collect || !p->runs)
        return -1;
    p->naxes = naxes;
    p->ncollect = ncollect;
    p->nruns = nruns;
    for (size_t i = 0; i < nruns; i++) {
        p->runs[i].set = alloc_array(naxes, sizeof *p->runs[i].set);
        p->runs[i].cells = alloc_array(naxes, sizeof *p->runs[i].cells);
        if (!p->runs[i].set || !p->runs[i].cells)
            return -1;
    }
    return 0;
}

/* ---- reading a sweep file ---- */

/* One varied path and its values. */
struct axis {
    const char *path;
    const cJSON *values; /* a non-empty array */
    size_t n;
    char *label; /* the shortest tail of the path that tells it from the others */
};

/* The last k dot-separated components of path (all of it when it has fewer). */
static const char *path_tail(const char *path, size_t k)
{
    const char *p = path + strlen(path);
    while (p > path) {
        if (p[-1] == '.' && --k == 0)
            break;
        p--;
    }
    return p;
}

/* Labels: "iterations" for solver.iterations, unless another path ends the same way, then
 * as many components as it takes ("0.mass" and "1.mass" for points.0.mass, points.1.mass);
 * at least two when the last is an index ("gravity.1" for world.gravity.1). */
static int make_labels(struct axis *ax, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        /* An index alone says nothing: "gravity.1", not "1". */
        const char *last = path_tail(ax[i].path, 1);
        size_t k = strspn(last, "0123456789") == strlen(last) ? 2 : 1;
        for (;;) {
            const char *t = path_tail(ax[i].path, k);
            int clash = 0;
            for (size_t j = 0; j < n && !clash; j++)
                clash = j != i && strcmp(path_tail(ax[j].path, k), t) == 0;
            if (!clash || t == ax[i].path)
                break;
            k++;
        }
        if (!(ax[i].label = strdup(path_tail(ax[i].path, k))))
            return -1;
    }
    return 0;
}

/* A dotted path as --set takes it: no empty component, and no '=' (which would end it). */
static int check_path(const struct sjson *cx, const char *where, const char *path)
{
    if (!*path)
        return sjson_error(cx, where, "empty path");
    if (strchr(path, '='))
        return sjson_error(cx, where, "'=' in a path (PATH=VALUE would end the path there)");
    for (const char *c = path;; c++) {
        const size_t n = strcspn(c, ".");
        if (n == 0)
            return sjson_error(cx, where, "empty component in \"%s\"", path);
        c += n;
        if (!*c)
            return 0;
    }
}

/* Member c of obj (at key): a dotted path, not given twice; where gets its place. */
static int check_member(const struct sjson *cx, const char *key, const cJSON *obj, const cJSON *c,
                        char where[SJSON_PATH_MAX])
{
    sjson_path_key(where, key, c->string);
    if (check_path(cx, where, c->string))
        return CATENA_EINPUT;
    for (const cJSON *d = obj->child; d != c; d = d->next)
        if (strcmp(d->string, c->string) == 0)
            return sjson_error(cx, where, "duplicate key");
    return 0;
}

static int read_vary(const struct sjson *cx, const cJSON *vary, struct axis **out, size_t *nout)
{
    if (!cJSON_IsObject(vary))
        return sjson_error(cx, "vary", "expected an object, got %s", sjson_type_name(vary));
    const size_t n = (size_t)cJSON_GetArraySize(vary);
    if (n == 0)
        return sjson_error(cx, "vary",
                           "no paths to vary (give at least one, e.g. "
                           "\"solver.iterations\": [5, 10, 20])");
    struct axis *ax = calloc(n, sizeof *ax);
    if (!ax)
        return sweep_oom(cx->err, cx->label);
    *out = ax;
    *nout = n;
    size_t i = 0;
    for (const cJSON *c = vary->child; c; c = c->next, i++) {
        char where[SJSON_PATH_MAX];
        if (check_member(cx, "vary", vary, c, where))
            return CATENA_EINPUT;
        if (!cJSON_IsArray(c))
            return sjson_error(cx, where, "expected an array of values, got %s",
                               sjson_type_name(c));
        ax[i] = (struct axis){.path = c->string, .values = c, .n = (size_t)cJSON_GetArraySize(c)};
        if (ax[i].n == 0)
            return sjson_error(cx, where, "no values (give at least one)");
    }
    return make_labels(ax, n) ? sweep_oom(cx->err, cx->label) : 0;
}

/* "set": overrides every run shares, in the file's order; a path may not be varied too. */
static int read_fixed(const struct sjson *cx, const cJSON *root, const cJSON *vary,
                      struct sweep_plan *p)
{
    const cJSON *set = sjson_child(root, "set");
    if (!set)
        return 0;
    if (!cJSON_IsObject(set))
        return sjson_error(cx, "set", "expected an object of PATH: VALUE, got %s",
                           sjson_type_name(set));
    const size_t n = (size_t)cJSON_GetArraySize(set);
    if (!(p->fixed = alloc_array(n, sizeof *p->fixed)))
        return sweep_oom(cx->err, cx->label);
    for (const cJSON *c = set->child; c; c = c->next) {
        char where[SJSON_PATH_MAX];
        if (check_member(cx, "set", set, c, where))
            return CATENA_EINPUT;
        if (sjson_child(vary, c->string))
            return sjson_error(cx, where, "also in vary (a path is either set or varied)");
        char *value = sweep_value_set(c);
        const size_t len = strlen(c->string) + (value ? strlen(value) : 0) + 2;
        char *o = value ? malloc(len) : NULL;
        if (o)
            snprintf(o, len, "%s=%s", c->string, value);
        free(value);
        if (!o)
            return sweep_oom(cx->err, cx->label);
        p->fixed[p->nfixed++] = o;
    }
    return 0;
}

static int read_collect(const struct sjson *cx, const cJSON *root, struct sweep_plan *p)
{
    const cJSON *arr = NULL;
    if (sjson_array(cx, root, "", "collect", &arr))
        return CATENA_EINPUT;
    size_t i = 0;
    for (const cJSON *c = arr ? arr->child : NULL; c; c = c->next, i++) {
        char where[SJSON_PATH_MAX];
        const char *s = NULL;
        int file = 0;
        sjson_path_index(where, "collect", i);
        if (sjson_string(cx, c, where, &s) || check_path(cx, where, s))
            return CATENA_EINPUT;
        const size_t n = strcspn(s, ".");
        for (file = 0; collect_files[file]; file++)
            if (strlen(collect_files[file]) == n && strncmp(s, collect_files[file], n) == 0)
                break;
        if (!collect_files[file]) {
            char word[64];
            snprintf(word, sizeof word, "%.*s", (int)(n < 63 ? n : 63), s);
            const char *hint = NULL;
            for (int k = 0; collect_files[k] && !hint; k++)
                if (spell_is_close(word, collect_files[k]))
                    hint = collect_files[k];
            if (hint)
                return sjson_error(cx, where, "\"%s\": unknown file \"%s\" (did you mean \"%s\"?)",
                                   s, word, hint);
            return sjson_error(cx, where,
                               "\"%s\": unknown file \"%s\" (valid: summary, catenary, metrics)", s,
                               word);
        }
        if (!s[n])
            return sjson_error(cx, where, "\"%s\": a file alone; name a value in it, e.g. %s", s,
                               file == 2 ? "metrics.max_stretch" : "summary.wall_time");
        if (file == 2 && strchr(s + n + 1, '.'))
            return sjson_error(
                cx, where, "\"%s\": metrics takes a column name (metrics.COLUMN), not a path", s);
        for (size_t j = 0; j < i; j++)
            if (strcmp(p->collect[j], s) == 0)
                return sjson_error(cx, where, "\"%s\" is already collected (collect[%zu])", s, j);
        if (!(p->collect[i] = strdup(s)))
            return sweep_oom(cx->err, cx->label);
    }
    return 0;
}

/* The number of runs, or an error when the lists do not combine or are too many. */
static int count_runs(const struct sjson *cx, const struct axis *ax, size_t n, enum sweep_mode mode,
                      size_t *out)
{
    size_t runs = mode == MODE_ZIP ? ax[0].n : 1;
    for (size_t i = 0; i < n; i++) {
        if (mode == MODE_ZIP && ax[i].n != ax[0].n) {
            char where[SJSON_PATH_MAX];
            return sjson_error(cx, sjson_path_key(where, "vary", ax[i].path),
                               "%zu values, but vary.%s has %zu (mode \"zip\" pairs the "
                               "lists element by element, so they need the same length)",
                               ax[i].n, ax[0].path, ax[0].n);
        }
        if (mode == MODE_PRODUCT) {
            if (ax[i].n > SWEEP_MAX_RUNS / runs)
                return sjson_error(cx, "vary",
                                   "the product has more than %d runs (a sweep may have at most "
                                   "that many)",
                                   SWEEP_MAX_RUNS);
            runs *= ax[i].n;
        }
    }
    if (runs > SWEEP_MAX_RUNS)
        return sjson_error(cx, "vary", "%zu runs, more than the %d a sweep may have", runs,
                           SWEEP_MAX_RUNS);
    *out = runs;
    return 0;
}

/* The value of axis a in run r. */
static const cJSON *run_value(const struct axis *ax, size_t n, enum sweep_mode mode, size_t r,
                              size_t a)
{
    if (mode == MODE_ZIP)
        return cJSON_GetArrayItem(ax[a].values, (int)r);
    /* Mixed radix, the last axis fastest: r = ((i0 * n1) + i1) * n2 + i2 ... */
    size_t stride = 1;
    for (size_t k = a + 1; k < n; k++)
        stride *= ax[k].n;
    return cJSON_GetArrayItem(ax[a].values, (int)((r / stride) % ax[a].n));
}

/* "label=value,label=value" (sweep/name.c). */
static char *run_name(const struct axis *ax, size_t n, enum sweep_mode mode, size_t r)
{
    struct strbuf b = {0};
    for (size_t a = 0; a < n; a++) {
        if (a)
            strbuf_str(&b, ",");
        sweep_name_add(&b, ax[a].label, run_value(ax, n, mode, r, a));
    }
    return sweep_name_take(&b);
}

static int expand(const struct sjson *cx, const struct axis *ax, enum sweep_mode mode,
                  struct sweep_plan *p)
{
    for (size_t a = 0; a < p->naxes; a++)
        if (!(p->paths[a] = strdup(ax[a].path)))
            return sweep_oom(cx->err, cx->label);
    for (size_t r = 0; r < p->nruns; r++) {
        struct sweep_run *run = &p->runs[r];
        for (size_t a = 0; a < p->naxes; a++) {
            const cJSON *v = run_value(ax, p->naxes, mode, r, a);
            char *set = sweep_value_set(v);
            const size_t n = strlen(ax[a].path) + (set ? strlen(set) : 0) + 2;
            run->cells[a] = sweep_value_cell(v);
            run->set[a] = set ? malloc(n) : NULL;
            if (run->set[a])
                snprintf(run->set[a], n, "%s=%s", ax[a].path, set);
            free(set);
            if (!run->cells[a] || !run->set[a])
                return sweep_oom(cx->err, cx->label);
        }
        if (!(run->name = run_name(ax, p->naxes, mode, r)))
            return sweep_oom(cx->err, cx->label);
        for (size_t q = 0; q < r; q++)
            if (strcmp(p->runs[q].name, run->name) == 0)
                return sjson_error(cx, "vary",
                                   "runs %zu and %zu would both be named %s (is a value listed "
                                   "twice?)",
                                   q, r, run->name);
    }
    return 0;
}

/* Loads the base scenario with each run's overrides, as catena run will. */
static int validate_runs(const struct sjson *cx, struct sweep_plan *p)
{
    const size_t nov = p->nfixed + p->naxes;
    struct scenario_override *ov = calloc(nov, sizeof *ov);
    char **paths = alloc_array(p->nfixed, sizeof *paths);
    int rc = 0;
    if (!ov || !paths)
        rc = sweep_oom(cx->err, cx->label);
    /* "PATH=VALUE" split at its first '=': check_path lets no '=' into a path. */
    for (size_t f = 0; !rc && f < p->nfixed; f++) {
        const char *eq = strchr(p->fixed[f], '=');
        if (!(paths[f] = strndup(p->fixed[f], (size_t)(eq - p->fixed[f]))))
            rc = sweep_oom(cx->err, cx->label);
        else
            ov[f] = (struct scenario_override){paths[f], eq + 1};
    }
    for (size_t r = 0; r < p->nruns && !rc; r++) {
        for (size_t a = 0; a < p->naxes; a++)
            ov[p->nfixed + a] = (struct scenario_override){
                p->paths[a], p->runs[r].set[a] + strlen(p->paths[a]) + 1};
        struct catena_error lerr;
        struct scenario *sc = scenario_load(p->base, ov, nov, &lerr);
        if (!sc) {
            rc = error_set(cx->err, lerr.code, "%s: run %s: %s", cx->label, p->runs[r].name,
                           lerr.msg);
        } else {
            if (r == 0)
                memcpy(p->base_sha256, sc->provenance.sha256, sizeof p->base_sha256);
            scenario_destroy(sc);
        }
    }
    sweep_strings_free(paths, p->nfixed);
    free(ov);
    return rc;
}

/* The base path as the sweep file gives it, made absolute from the sweep file's directory. */
static int resolve_base(const struct sjson *cx, const char *sweep_abs, const char *base,
                        struct sweep_plan *p)
{
    char *joined = NULL;
    if (base[0] != '/') {
        const char *slash = strrchr(sweep_abs, '/');
        char *dir = strndup(sweep_abs, slash ? (size_t)(slash - sweep_abs) : 0);
        joined = dir ? path_join(*dir ? dir : "/", base) : NULL;
        free(dir);
        if (!joined)
            return sweep_oom(cx->err, cx->label);
    }
    const char *path = joined ? joined : base;
    int rc = 0;
    if (!(p->base = realpath(path, NULL))) {
        const int e = errno;
        rc = e == ENOMEM
                 ? sweep_oom(cx->err, cx->label)
                 : sjson_error(cx, "base", "cannot read \"%s\" (%s): %s", base, path, strerror(e));
    }
    free(joined);
    return rc;
}

struct sweep_plan *sweep_load(const char *path, struct catena_error *err)
{
    struct sjson cx = {.label = path, .err = err};
    struct sweep_plan *p = calloc(1, sizeof *p);
    struct axis *ax = NULL;
    size_t nax = 0, len = 0;
    int e = 0, mode = MODE_PRODUCT;
    cJSON *root = NULL;
    char *text = NULL;
    error_clear(err);
    if (!p) {
        sweep_oom(err, path);
        return NULL;
    }
    if (!(text = readfile(path, &len, &e))) {
        error_set(err, e == ENOMEM ? CATENA_EFAIL : CATENA_EINPUT, "%s: cannot read: %s", path,
                  readfile_strerror(e));
        goto fail;
    }
    if (!(root = sjson_parse(path, text, len, 0, NULL, err)))
        goto fail;
    const cJSON *base = sjson_child(root, "base"), *desc = sjson_child(root, "description");
    const cJSON *arr = NULL;
    const char *base_path = NULL, *ignored = NULL;
    size_t ncollect = 0, nruns = 0;
    if (!cJSON_IsObject(root)) {
        sjson_error(&cx, "", "expected a JSON object at the top level, got %s",
                    sjson_type_name(root));
        goto fail;
    }
    if (sjson_check_object(&cx, root, "", sweep_keys) ||
        (desc && sjson_string(&cx, desc, "description", &ignored)) ||
        sjson_string(&cx, base, "base", &base_path) ||
        sjson_get_enum(&cx, root, "", "mode", sweep_mode_names, &mode) ||
        read_vary(&cx, sjson_child(root, "vary"), &ax, &nax) ||
        sjson_array(&cx, root, "", "collect", &arr) ||
        count_runs(&cx, ax, nax, (enum sweep_mode)mode, &nruns))
        goto fail;
    if (!*base_path) {
        sjson_error(&cx, "base", "empty path (name the scenario file to sweep)");
        goto fail;
    }
    ncollect = arr ? (size_t)cJSON_GetArraySize(arr) : 0;
    if (plan_alloc(p, nax, ncollect, nruns) || !(p->version = strdup(PACKAGE_VERSION))) {
        sweep_oom(err, path);
        goto fail;
    }
    if (!(p->sweep = realpath(path, NULL))) {
        error_set(err, CATENA_EINPUT, "%s: cannot resolve: %s", path, strerror(errno));
        goto fail;
    }
    if (read_fixed(&cx, root, sjson_child(root, "vary"), p) || read_collect(&cx, root, p) ||
        resolve_base(&cx, p->sweep, base_path, p) || expand(&cx, ax, (enum sweep_mode)mode, p) ||
        validate_runs(&cx, p))
        goto fail;
    goto done;
fail:
    sweep_plan_destroy(p);
    p = NULL;
done:
    for (size_t i = 0; i < nax; i++)
        free(ax[i].label);
    free(ax);
    cJSON_Delete(root);
    free(text);
    return p;
}
