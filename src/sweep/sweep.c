/* Sweep files -> plans: the file is checked like a scenario (strict JSON, known keys, JSON
 * paths in messages), its value lists are expanded as a product (the first path varies
 * slowest, like nested loops) or zipped, each run is named by its values, and the base
 * scenario is loaded with each run's overrides so that a bad value stops the sweep before
 * anything runs. The plan round-trips through DIR/plan.json for `catena sweep collect`. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "sweep/sweep.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "config.h"
#include "core/fmt_double.h"
#include "core/json_out.h"
#include "model/model.h"
#include "scenario/scenario.h"
#include "scenario/sjson.h"
#include "core/sha256_hex.h"
#include "sweep/internal.h"

/* Run names longer than this end in a hash of the full name instead (file names stop at
 * 255 bytes, and a run directory's files add their own names to the path). */
#define NAME_MAX_LEN 200
#define NAME_HASH_HEX 16

#define PLAN_VERSION 1

// clang-format off
static const struct sjson_key sweep_keys[] = {
    {"description", 0},
    {"base", 1},
    {"set", 0},
    {"vary", 1},
    {"mode", 0},
    {"collect", 0},
    {NULL, 0},
};
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

enum sweep_mode { MODE_PRODUCT, MODE_ZIP };
static const char *const mode_names[] = {"product", "zip", NULL};

/* The files a collect path may read: FILE.PATH. */
static const char *const collect_files[] = {"summary", "catenary", "metrics", NULL};

/* ---- small helpers ---- */

char *sweep_read_file(const char *path, size_t *len, int *errnum)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0, cap = 0;
    if (!f) {
        *errnum = errno;
        return NULL;
    }
    for (;;) {
        if (cap - n < 2) {
            cap = cap ? 2 * cap : 4096;
            char *b = realloc(buf, cap);
            if (!b) {
                *errnum = ENOMEM;
                goto fail;
            }
            buf = b;
        }
        const size_t r = fread(buf + n, 1, cap - n - 1, f);
        n += r;
        if (r == 0)
            break;
    }
    if (ferror(f)) {
        *errnum = EIO;
        goto fail;
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
fail:
    fclose(f);
    free(buf);
    return NULL;
}

char *sweep_join(const char *a, const char *b)
{
    const size_t na = strlen(a), n = na + strlen(b) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s%s", a, na && a[na - 1] != '/' ? "/" : "", b);
    return p;
}

/* A growing string; out of memory is remembered and reported once at the end. */
struct sbuf {
    char *s;
    size_t len, cap;
    int oom;
};

static void sb_add(struct sbuf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->s, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void sb_str(struct sbuf *b, const char *s)
{
    sb_add(b, s, strlen(s));
}

/* The string, or NULL (freeing it) when something did not fit in memory. */
static char *sb_take(struct sbuf *b)
{
    if (b->oom || !b->s) {
        free(b->s);
        return b->oom ? NULL : strdup("");
    }
    return b->s;
}

/* Bytes kept as they are in run names; every other byte is written %XX, so names stay
 * file-system and shell safe and two different values never give the same name. */
static int name_byte_ok(unsigned char c)
{
    return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') || c == '.' ||
           c == '_' || c == '+' || c == '-';
}

static void sb_encoded(struct sbuf *b, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char esc[4];
        /* A leading dot would hide the directory, and "." or ".." would not be one. */
        if (name_byte_ok(*p) && !(*p == '.' && b->len == 0)) {
            sb_add(b, (const char *)p, 1);
            continue;
        }
        snprintf(esc, sizeof esc, "%%%02X", *p);
        sb_add(b, esc, 3);
    }
}

/* ---- values ---- */

char *sweep_value_cell(const cJSON *v)
{
    if (cJSON_IsNumber(v)) {
        char num[FMT_DOUBLE_SIZE];
        fmt_double(num, v->valuedouble);
        return strdup(num);
    }
    if (cJSON_IsString(v))
        return strdup(v->valuestring);
    return cJSON_PrintUnformatted(v);
}

/* A value as --set takes it: the same, except that a string which would read as JSON
 * ("5", "true") is quoted so that it stays a string. */
static char *value_set(const cJSON *v)
{
    if (cJSON_IsString(v)) {
        const char *end = NULL;
        cJSON *parsed = cJSON_ParseWithOpts(v->valuestring, &end, 1);
        cJSON_Delete(parsed);
        if (parsed)
            return cJSON_PrintUnformatted(v);
    }
    return sweep_value_cell(v);
}

/* ---- plans ---- */

static void strings_free(char **s, size_t n)
{
    if (!s)
        return;
    for (size_t i = 0; i < n; i++)
        free(s[i]);
    free(s);
}

void sweep_plan_destroy(struct sweep_plan *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->nruns; i++) {
        free(p->runs[i].name);
        strings_free(p->runs[i].set, p->naxes);
        strings_free(p->runs[i].cells, p->naxes);
    }
    free(p->runs);
    strings_free(p->paths, p->naxes);
    strings_free(p->fixed, p->nfixed);
    strings_free(p->collect, p->ncollect);
    free(p->sweep);
    free(p->base);
    free(p->version);
    free(p);
}

/* Allocates the plan's arrays for naxes paths, ncollect collect paths and nruns runs. */
static int plan_alloc(struct sweep_plan *p, size_t naxes, size_t ncollect, size_t nruns)
{
    p->paths = calloc(naxes ? naxes : 1, sizeof *p->paths);
    p->collect = calloc(ncollect ? ncollect : 1, sizeof *p->collect);
    p->runs = calloc(nruns ? nruns : 1, sizeof *p->runs);
    if (!p->paths || !p->collect || !p->runs)
        return -1;
    p->naxes = naxes;
    p->ncollect = ncollect;
    p->nruns = nruns;
    for (size_t i = 0; i < nruns; i++) {
        p->runs[i].set = calloc(naxes ? naxes : 1, sizeof *p->runs[i].set);
        p->runs[i].cells = calloc(naxes ? naxes : 1, sizeof *p->runs[i].cells);
        if (!p->runs[i].set || !p->runs[i].cells)
            return -1;
    }
    return 0;
}

static int oom(struct catena_error *err, const char *file)
{
    return error_set(err, CATENA_EFAIL, "%s: out of memory", file);
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
        return oom(cx->err, cx->label);
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
    return make_labels(ax, n) ? oom(cx->err, cx->label) : 0;
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
    if (!(p->fixed = calloc(n ? n : 1, sizeof *p->fixed)))
        return oom(cx->err, cx->label);
    for (const cJSON *c = set->child; c; c = c->next) {
        char where[SJSON_PATH_MAX];
        if (check_member(cx, "set", set, c, where))
            return CATENA_EINPUT;
        if (sjson_child(vary, c->string))
            return sjson_error(cx, where, "also in vary (a path is either set or varied)");
        char *value = value_set(c);
        const size_t len = strlen(c->string) + (value ? strlen(value) : 0) + 2;
        char *o = value ? malloc(len) : NULL;
        if (o)
            snprintf(o, len, "%s=%s", c->string, value);
        free(value);
        if (!o)
            return oom(cx->err, cx->label);
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
                if (sjson_is_close(word, collect_files[k]))
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
            return oom(cx->err, cx->label);
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

/* A value in a run name: as in sweep.csv, except that an array is its elements joined by
 * '_' ([0, -9.81] is "0_-9.81"), easier to read than its JSON once encoded. */
static void sb_name_value(struct sbuf *b, const cJSON *v)
{
    if (cJSON_IsArray(v)) {
        for (const cJSON *e = v->child; e; e = e->next) {
            if (e != v->child)
                sb_str(b, "_");
            sb_name_value(b, e);
        }
        return;
    }
    char *cell = sweep_value_cell(v);
    if (!cell)
        b->oom = 1;
    else
        sb_encoded(b, cell);
    free(cell);
}

/* "label=value,label=value", encoded; a hash replaces the tail of a name too long. */
static char *run_name(const struct axis *ax, size_t n, enum sweep_mode mode, size_t r)
{
    struct sbuf b = {0};
    for (size_t a = 0; a < n; a++) {
        if (a)
            sb_str(&b, ",");
        sb_encoded(&b, ax[a].label);
        sb_str(&b, "=");
        sb_name_value(&b, run_value(ax, n, mode, r, a));
    }
    if (!b.oom && b.len > NAME_MAX_LEN) {
        char hex[SHA256_HEX_SIZE];
        sha256_hex(b.s, b.len, hex);
        snprintf(b.s + NAME_MAX_LEN - NAME_HASH_HEX - 1, NAME_HASH_HEX + 2, ",%.*s", NAME_HASH_HEX,
                 hex);
        b.len = NAME_MAX_LEN;
    }
    return sb_take(&b);
}

static int expand(const struct sjson *cx, const struct axis *ax, enum sweep_mode mode,
                  struct sweep_plan *p)
{
    for (size_t a = 0; a < p->naxes; a++)
        if (!(p->paths[a] = strdup(ax[a].path)))
            return oom(cx->err, cx->label);
    for (size_t r = 0; r < p->nruns; r++) {
        struct sweep_run *run = &p->runs[r];
        for (size_t a = 0; a < p->naxes; a++) {
            const cJSON *v = run_value(ax, p->naxes, mode, r, a);
            char *set = value_set(v);
            const size_t n = strlen(ax[a].path) + (set ? strlen(set) : 0) + 2;
            run->cells[a] = sweep_value_cell(v);
            run->set[a] = set ? malloc(n) : NULL;
            if (run->set[a])
                snprintf(run->set[a], n, "%s=%s", ax[a].path, set);
            free(set);
            if (!run->cells[a] || !run->set[a])
                return oom(cx->err, cx->label);
        }
        if (!(run->name = run_name(ax, p->naxes, mode, r)))
            return oom(cx->err, cx->label);
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
    char **paths = calloc(p->nfixed ? p->nfixed : 1, sizeof *paths);
    int rc = 0;
    if (!ov || !paths)
        rc = oom(cx->err, cx->label);
    /* "PATH=VALUE" split at its first '=': check_path lets no '=' into a path. */
    for (size_t f = 0; !rc && f < p->nfixed; f++) {
        const char *eq = strchr(p->fixed[f], '=');
        if (!(paths[f] = strndup(p->fixed[f], (size_t)(eq - p->fixed[f]))))
            rc = oom(cx->err, cx->label);
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
    strings_free(paths, p->nfixed);
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
        joined = dir ? sweep_join(*dir ? dir : "/", base) : NULL;
        free(dir);
        if (!joined)
            return oom(cx->err, cx->label);
    }
    const char *path = joined ? joined : base;
    int rc = 0;
    if (!(p->base = realpath(path, NULL))) {
        const int e = errno;
        rc = e == ENOMEM
                 ? oom(cx->err, cx->label)
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
        oom(err, path);
        return NULL;
    }
    if (!(text = sweep_read_file(path, &len, &e))) {
        error_set(err, e == ENOMEM ? CATENA_EFAIL : CATENA_EINPUT, "%s: cannot read: %s", path,
                  strerror(e));
        goto fail;
    }
    if (!(root = sjson_parse(path, text, len, err)))
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
        sjson_get_enum(&cx, root, "", "mode", mode_names, &mode) ||
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
        oom(err, path);
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

/* ---- plan.json ---- */

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
    char **v = calloc(n ? n : 1, sizeof *v);
    if (!v)
        return oom(cx->err, cx->label);
    size_t i = 0;
    int rc = 0;
    for (const cJSON *c = a->child; c && !rc; c = c->next, i++) {
        const char *s = NULL;
        if (!(rc = sjson_string(cx, c, sjson_path_index(at, where, i), &s)) && !(v[i] = strdup(s)))
            rc = oom(cx->err, cx->label);
    }
    if (rc) {
        strings_free(v, n);
        return rc;
    }
    *count = n;
    *out = v;
    return 0;
}

/* A run name read back must still be one directory under runs/. */
static int name_safe(const char *s)
{
    if (!*s || *s == '.' || strlen(s) > NAME_MAX_LEN)
        return 0;
    for (; *s; s++)
        if (!name_byte_ok((unsigned char)*s) && !strchr("%=,", *s))
            return 0;
    return 1;
}

static int read_plan_runs(const struct sjson *cx, const cJSON *root, struct sweep_plan *p)
{
    const cJSON *runs = NULL;
    if (sjson_array(cx, root, "", "runs", &runs))
        return CATENA_EINPUT;
    const size_t n = (size_t)cJSON_GetArraySize(runs);
    if (!(p->runs = calloc(n ? n : 1, sizeof *p->runs)))
        return oom(cx->err, cx->label);
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
        if (!name_safe(name)) {
            char at[SJSON_PATH_MAX];
            return sjson_error(cx, sjson_path_key(at, where, "name"),
                               "\"%s\" is not a run name (letters, digits and . _ + - %% = , "
                               "only, not starting with a dot)",
                               name);
        }
        for (size_t a = 0; a < p->naxes; a++) {
            const size_t n = strlen(p->paths[a]);
            if (strncmp(r->set[a], p->paths[a], n) != 0 || r->set[a][n] != '=') {
                char at[SJSON_PATH_MAX], set[SJSON_PATH_MAX];
                sjson_path_key(set, where, "set");
                return sjson_error(cx, sjson_path_index(at, set, a),
                                   "\"%s\" does not set vary[%zu] (%s)", r->set[a], a, p->paths[a]);
            }
        }
        if (!(r->name = strdup(name)))
            return oom(cx->err, cx->label);
    }
    return 0;
}

struct sweep_plan *sweep_plan_read(const char *dir, struct catena_error *err)
{
    char *path = sweep_join(dir, "plan.json"), *text = NULL;
    struct sweep_plan *p = calloc(1, sizeof *p);
    struct sjson cx = {.label = path, .err = err};
    cJSON *root = NULL;
    size_t len = 0, naxes = SIZE_MAX, ncollect = SIZE_MAX, nfixed = SIZE_MAX;
    long long version = 0;
    const char *s[4] = {NULL};
    int e = 0;
    error_clear(err);
    if (!path || !p) {
        oom(err, dir);
        goto fail;
    }
    if (!(text = sweep_read_file(path, &len, &e))) {
        error_set(err, CATENA_EINPUT, "%s: cannot read: %s (is %s a sweep directory?)", path,
                  strerror(e), dir);
        goto fail;
    }
    if (!(root = sjson_parse(path, text, len, err)))
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
        oom(err, path);
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

char *sweep_run_dir(const struct sweep_plan *p, const char *dir, size_t i)
{
    char *runs = sweep_join(dir, "runs");
    char *d = runs ? sweep_join(runs, p->runs[i].name) : NULL;
    free(runs);
    return d;
}

char **sweep_run_argv(const struct sweep_plan *p, const char *dir, const char *program, size_t i,
                      char **run_dir)
{
    char **argv = malloc((2 * (p->nfixed + p->naxes) + 7) * sizeof *argv);
    *run_dir = sweep_run_dir(p, dir, i);
    if (!argv || !*run_dir) {
        free(argv);
        free(*run_dir);
        *run_dir = NULL;
        return NULL;
    }
    size_t n = 0;
    argv[n++] = (char *)program;
    argv[n++] = "run";
    argv[n++] = p->base;
    for (size_t f = 0; f < p->nfixed; f++) {
        argv[n++] = "--set";
        argv[n++] = p->fixed[f];
    }
    for (size_t a = 0; a < p->naxes; a++) {
        argv[n++] = "--set";
        argv[n++] = p->runs[i].set[a];
    }
    argv[n++] = "-o";
    argv[n++] = *run_dir;
    argv[n++] = "-q";
    argv[n] = NULL;
    return argv;
}
