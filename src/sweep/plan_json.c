/* DIR/plan.json (sweep/sweep.h): the expanded plan written down, so that `catena sweep collect`
 * and the emitted jobs work from exactly the runs that were planned; read back as strictly as
 * a sweep file. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "sweep/sweep.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/alloc.h"
#include "core/json_out.h"
#include "core/path.h"
#include "core/readfile.h"
#include "scenario/sjson.h"
#include "sweep/internal.h"

#define PLAN_VERSION 1

// clang-format off
static const struct sjson_key plan_keys[] = {
    {"catena_sweep_plan", 1},
    {"catena_version", 1},
    {"sweep", 1},
    {"base", 1},
    {"base_sha256", 1},
    {"set", 1},
    {"vary", 1},
    {"collect", 1},
    {"runs", 1},
    {NULL, 0},
};
static const struct sjson_key plan_run_keys[] = {
    {"name", 1},
    {"set", 1},
    {"values", 1},
    {NULL, 0},
};
// clang-format on

static cJSON *strings_json(char *const *s, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < n; i++) {
        cJSON *item = cJSON_CreateString(s[i]);
        if (!item || !cJSON_AddItemToArray(a, item)) {
            cJSON_Delete(item);
            cJSON_Delete(a);
            return NULL;
        }
    }
    return a;
}

static int add_to(cJSON *obj, const char *key, cJSON *item)
{
    if (obj && item && cJSON_AddItemToObject(obj, key, item))
        return 0;
    cJSON_Delete(item);
    return -1;
}

static cJSON *plan_json(const struct sweep_plan *p)
{
    cJSON *j = cJSON_CreateObject(), *runs = cJSON_CreateArray();
    int bad = add_to(j, "catena_sweep_plan", cJSON_CreateNumber(PLAN_VERSION)) ||
              add_to(j, "catena_version", cJSON_CreateString(p->version)) ||
              add_to(j, "sweep", cJSON_CreateString(p->sweep)) ||
              add_to(j, "base", cJSON_CreateString(p->base)) ||
              add_to(j, "base_sha256", cJSON_CreateString(p->base_sha256)) ||
              add_to(j, "set", strings_json(p->fixed, p->nfixed)) ||
              add_to(j, "vary", strings_json(p->paths, p->naxes)) ||
              add_to(j, "collect", strings_json(p->collect, p->ncollect)) ||
              add_to(j, "runs", runs);
    for (size_t i = 0; !bad && i < p->nruns; i++) {
        const struct sweep_run *r = &p->runs[i];
        cJSON *run = cJSON_CreateObject();
        bad = !run || !cJSON_AddItemToArray(runs, run);
        if (bad) {
            cJSON_Delete(run);
            break;
        }
        bad = add_to(run, "name", cJSON_CreateString(r->name)) ||
              add_to(run, "set", strings_json(r->set, p->naxes)) ||
              add_to(run, "values", strings_json(r->cells, p->naxes));
    }
    if (bad) {
        cJSON_Delete(j);
        return NULL;
    }
    return j;
}

int sweep_plan_write(const struct sweep_plan *p, const char *dir, struct catena_error *err)
{
    cJSON *j = plan_json(p);
    const int rc = j ? json_out_write(dir, "plan.json", j, err)
                     : error_set(err, CATENA_EFAIL, "%s/plan.json: out of memory", dir);
    cJSON_Delete(j);
    return rc;
}

/* parent[key]: an array of n strings (n = *count, or any when *count is SIZE_MAX). On
 * failure nothing is left allocated. */
static int read_strings(const struct sjson *cx, const cJSON *parent, const char *ppath,
                        const char *key, size_t *count, char ***out)
{
    char where[SJSON_PATH_MAX], at[SJSON_PATH_MAX];
    const cJSON *a = NULL;
    sjson_path_key(where, ppath, key);
    if (sjson_array(cx, parent, ppath, key, &a))
        return CATENA_EINPUT;
    const size_t n = (size_t)cJSON_GetArraySize(a);
    if (*count != SIZE_MAX && n != *count)
        return sjson_error(cx, where, "%zu strings, expected %zu", n, *count);
    char **v = alloc_array(n, sizeof *v);
    if (!v)
        return sweep_oom(cx->err, cx->label);
    size_t i = 0;
    int rc = 0;
    for (const cJSON *c = a->child; c && !rc; c = c->next, i++) {
        const char *s = NULL;
        if (!(rc = sjson_string(cx, c, sjson_path_index(at, where, i), &s)) && !(v[i] = strdup(s)))
            rc = sweep_oom(cx->err, cx->label);
    }
    if (rc) {
        sweep_strings_free(v, n);
        return rc;
    }
    *count = n;
    *out = v;
    return 0;
}

static int read_plan_runs(const struct sjson *cx, const cJSON *root, struct sweep_plan *p)
{
    const cJSON *runs = NULL;
    if (sjson_array(cx, root, "", "runs", &runs))
        return CATENA_EINPUT;
    const size_t n = (size_t)cJSON_GetArraySize(runs);
    if (!(p->runs = alloc_array(n, sizeof *p->runs)))
        return sweep_oom(cx->err, cx->label);
    size_t i = 0;
    for (const cJSON *c = runs->child; c; c = c->next, i++) {
        char where[SJSON_PATH_MAX];
        const char *name = NULL;
        size_t nset = p->naxes, ncells = p->naxes;
        struct sweep_run *r = &p->runs[i];
        sjson_path_index(where, "runs", i);
        p->nruns = i + 1; /* so that destroy frees what was read */
        if (sjson_check_object(cx, c, where, plan_run_keys) ||
            sjson_get_string(cx, c, where, "name", &name) ||
            read_strings(cx, c, where, "set", &nset, &r->set) ||
            read_strings(cx, c, where, "values", &ncells, &r->cells))
            return CATENA_EINPUT;
        if (!sweep_name_safe(name)) {
            char at[SJSON_PATH_MAX];
            return sjson_error(cx, sjson_path_key(at, where, "name"),
                               "\"%s\" is not a run name (letters, digits and . _ + - %% = , "
                               "only, not starting with a dot)",
                               name);
        }
        for (size_t a = 0; a < p->naxes; a++) {
            const size_t len = strlen(p->paths[a]);
            if (strncmp(r->set[a], p->paths[a], len) != 0 || r->set[a][len] != '=') {
                char at[SJSON_PATH_MAX], set[SJSON_PATH_MAX];
                sjson_path_key(set, where, "set");
                return sjson_error(cx, sjson_path_index(at, set, a),
                                   "\"%s\" does not set vary[%zu] (%s)", r->set[a], a, p->paths[a]);
            }
        }
        if (!(r->name = strdup(name)))
            return sweep_oom(cx->err, cx->label);
    }
    return 0;
}

struct sweep_plan *sweep_plan_read(const char *dir, struct catena_error *err)
{
    char *path = path_join(dir, "plan.json"), *text = NULL;
    struct sweep_plan *p = calloc(1, sizeof *p);
    struct sjson cx = {.label = path, .err = err};
    cJSON *root = NULL;
    size_t len = 0, naxes = SIZE_MAX, ncollect = SIZE_MAX, nfixed = SIZE_MAX;
    long long version = 0;
    const char *s[4] = {NULL};
    int e = 0;
    error_clear(err);
    if (!path || !p) {
        sweep_oom(err, dir);
        goto fail;
    }
    if (!(text = readfile(path, &len, &e))) {
        error_set(err, CATENA_EINPUT, "%s: cannot read: %s (is %s a sweep directory?)", path,
                  readfile_strerror(e), dir);
        goto fail;
    }
    if (!(root = sjson_parse(path, text, len, 0, NULL, err)))
        goto fail;
    if (!cJSON_IsObject(root)) {
        sjson_error(&cx, "", "expected a JSON object, got %s", sjson_type_name(root));
        goto fail;
    }
    if (sjson_check_object(&cx, root, "", plan_keys) ||
        sjson_get_integer(&cx, root, "", "catena_sweep_plan", PLAN_VERSION, PLAN_VERSION,
                          &version) ||
        sjson_get_string(&cx, root, "", "catena_version", &s[0]) ||
        sjson_get_string(&cx, root, "", "sweep", &s[1]) ||
        sjson_get_string(&cx, root, "", "base", &s[2]) ||
        sjson_get_string(&cx, root, "", "base_sha256", &s[3]) ||
        read_strings(&cx, root, "", "vary", &naxes, &p->paths))
        goto fail;
    p->naxes = naxes;
    if (read_strings(&cx, root, "", "set", &nfixed, &p->fixed))
        goto fail;
    p->nfixed = nfixed;
    for (size_t f = 0; f < p->nfixed; f++) {
        const char *eq = strchr(p->fixed[f], '=');
        if (!eq || eq == p->fixed[f]) {
            char at[SJSON_PATH_MAX];
            sjson_error(&cx, sjson_path_index(at, "set", f), "\"%s\" is not PATH=VALUE",
                        p->fixed[f]);
            goto fail;
        }
    }
    if (read_strings(&cx, root, "", "collect", &ncollect, &p->collect))
        goto fail;
    p->ncollect = ncollect;
    if (read_plan_runs(&cx, root, p))
        goto fail;
    if (strlen(s[3]) != 64) {
        sjson_error(&cx, "base_sha256", "expected 64 hexadecimal digits");
        goto fail;
    }
    memcpy(p->base_sha256, s[3], 65);
    if (!(p->version = strdup(s[0])) || !(p->sweep = strdup(s[1])) || !(p->base = strdup(s[2]))) {
        sweep_oom(err, path);
        goto fail;
    }
    goto done;
fail:
    sweep_plan_destroy(p);
    p = NULL;
done:
    cJSON_Delete(root);
    free(text);
    free(path);
    return p;
}
