/* The scenario loader's JSON layer (see scenario/sjson.h). cJSON builds the tree, but it
 * reports a syntax error only as an approximate offset (one byte past a bad key) and no
 * reason, so the strict scanner (core/json_scan.h) runs first and says what and where. */
#include "scenario/sjson.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fmt_double.h"
#include "core/memory.h"
#include "core/json_scan.h"
#include "core/spell.h"

const struct sjson_range SJSON_ANY = {-INFINITY, INFINITY, 0, 0};
const struct sjson_range SJSON_POSITIVE = {0, INFINITY, 1, 0};
const struct sjson_range SJSON_NONNEG = {0, INFINITY, 0, 0};
const struct sjson_range SJSON_UNIT = {0, 1, 1, 0};
const struct sjson_range SJSON_ABOVE_ONE = {1, INFINITY, 1, 0};

static int only_whitespace(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!s[i] || !strchr(" \t\n\r", s[i]))
            return 0;
    return 1;
}

/* cJSON's tree for what sc scanned: a node per value (sizeof(cJSON) in a malloc block of
 * that plus 16) and a block per string and key (its bytes, NUL in place of the quotes,
 * rounded up to malloc's 16 with its 8-byte header; 32 at least). */
static struct sjson_cost tree_cost(const struct json_scan *sc, size_t len)
{
    const double node = (double)((sizeof(cJSON) + 8 + 15) / 16 * 16);
    return (struct sjson_cost){.text = (double)len,
                               .tree = (double)sc->values * node + (double)sc->string_bytes +
                                       24.0 * (double)sc->strings,
                               .numbers = (double)sc->numbers};
}

cJSON *sjson_parse(const char *label, const char *text, size_t len, double max_bytes,
                   struct sjson_cost *cost, struct catena_error *err)
{
    if (only_whitespace(text, len)) {
        error_set(err, CATENA_EINPUT, "%s:1:1: empty file, expected a JSON object", label);
        return NULL;
    }
    /* Both the scanner's strtod and cJSON need a terminating NUL after the bytes. */
    char *copy = malloc(len + 1);
    if (!copy) {
        error_set(err, CATENA_EFAIL, "%s: out of memory", label);
        return NULL;
    }
    memcpy(copy, text, len);
    copy[len] = '\0';
    struct json_scan sc;
    json_scan_text(&sc, copy, len, 0);
    cJSON *root = NULL;
    struct sjson_cost c = {0};
    if (json_scan_document(&sc)) {
        size_t line, col;
        json_scan_where(&sc, sc.at, &line, &col);
        /* A number beyond a double's range is JSON all the same. */
        error_set(err, CATENA_EINPUT, "%s:%zu:%zu: %s%s", label, line, col,
                  sc.status == JSON_SCAN_RANGE ? "" : "invalid JSON: ", sc.what);
    } else if (c = tree_cost(&sc, len), max_bytes > 0 && 2 * c.text + c.tree > max_bytes) {
        char need[32], limit[32];
        error_set(err, CATENA_EINPUT,
                  "%s: reading it would take about %s of memory (%zu values), more than the "
                  "limit of %s (--max-memory, by default the machine's memory)",
                  label, memory_format(need, 2 * c.text + c.tree), sc.values,
                  memory_format(limit, max_bytes));
    } else {
        const char *end = NULL;
        root = cJSON_ParseWithLengthOpts(copy, len + 1, &end, 1);
        /* The scan accepted the text, so only memory can be missing here. */
        if (!root)
            error_set(err, CATENA_EFAIL, "%s: out of memory", label);
    }
    free(copy);
    if (cost)
        *cost = c;
    return root;
}

/* ---- messages and paths ---- */

/* The latest origin whose path is path or holds it, or NULL. */
static const struct sjson_origin *origin_of(const struct sjson *cx, const char *path)
{
    for (size_t i = cx->norigins; path && i-- > 0;) {
        const size_t n = strlen(cx->origins[i].path);
        if (strncmp(path, cx->origins[i].path, n) == 0 && strchr(".[", path[n]))
            return &cx->origins[i]; /* strchr finds the NUL too: the path itself */
    }
    return NULL;
}

int sjson_error(const struct sjson *cx, const char *path, const char *fmt, ...)
{
    char msg[sizeof cx->err->msg];
    size_t n = 0;
    const struct sjson_origin *origin = origin_of(cx, path);
    if (path && *path && !(origin && strcmp(path, origin->path) == 0))
        n = (size_t)snprintf(msg, sizeof msg, "%.1000s: ", path);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - n, fmt, ap);
    va_end(ap);
    return error_set(cx->err, CATENA_EINPUT, "%s: %s", origin ? origin->name : cx->label, msg);
}

const char *sjson_show(char buf[SJSON_SHOW_SIZE], const char *s)
{
    size_t n = strlen(s);
    if (n <= SJSON_SHOW_MAX)
        return memcpy(buf, s, n + 1);
    n = SJSON_SHOW_MAX;
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) /* not inside a UTF-8 character */
        n--;
    memcpy(buf, s, n);
    memcpy(buf + n, "...", 4);
    return buf;
}

const char *sjson_type_name(const cJSON *item)
{
    if (cJSON_IsNumber(item))
        return "a number";
    if (cJSON_IsString(item))
        return "a string";
    if (cJSON_IsObject(item))
        return "an object";
    if (cJSON_IsArray(item))
        return "an array";
    if (cJSON_IsBool(item))
        return "a boolean";
    return "null";
}

char *sjson_path_key(char buf[SJSON_PATH_MAX], const char *parent, const char *key)
{
    snprintf(buf, SJSON_PATH_MAX, "%s%s%s", parent, *parent ? "." : "", key);
    return buf;
}

char *sjson_path_index(char buf[SJSON_PATH_MAX], const char *parent, size_t i)
{
    snprintf(buf, SJSON_PATH_MAX, "%s[%zu]", parent, i);
    return buf;
}

const cJSON *sjson_child(const cJSON *obj, const char *key)
{
    return obj ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
}

/* ---- objects and their keys ---- */

static const struct sjson_key *find_key(const struct sjson_key *keys, const char *name)
{
    for (; keys->name; keys++)
        if (strcmp(keys->name, name) == 0)
            return keys;
    return NULL;
}

static int unknown_key(const struct sjson *cx, const char *path, const char *key,
                       const struct sjson_key *keys)
{
    char p[SJSON_PATH_MAX];
    sjson_path_key(p, path, key);
    const char *hint = spell_closest(key, &keys->name, sizeof *keys);
    if (hint)
        return sjson_error(cx, p, "unknown key (did you mean \"%s\"?)", hint);
    char list[1024] = "";
    size_t len = 0;
    for (const struct sjson_key *k = keys; k->name && len < sizeof list; k++)
        len +=
            (size_t)snprintf(list + len, sizeof list - len, "%s%s", k == keys ? "" : ", ", k->name);
    return sjson_error(cx, p, "unknown key (valid keys: %s)", list);
}

int sjson_check_object(const struct sjson *cx, const cJSON *item, const char *path,
                       const struct sjson_key *keys)
{
    if (!cJSON_IsObject(item))
        return sjson_error(cx, path, "expected an object, got %s", sjson_type_name(item));
    for (const cJSON *c = item->child; c; c = c->next) {
        if (!find_key(keys, c->string))
            return unknown_key(cx, path, c->string, keys);
        for (const cJSON *d = item->child; d != c; d = d->next) {
            if (strcmp(d->string, c->string) == 0) {
                char p[SJSON_PATH_MAX];
                return sjson_error(cx, sjson_path_key(p, path, c->string), "duplicate key");
            }
        }
    }
    for (const struct sjson_key *k = keys; k->name; k++)
        if (k->required && !sjson_child(item, k->name))
            return sjson_error(cx, path, "missing required key \"%s\"", k->name);
    return 0;
}

int sjson_object(const struct sjson *cx, const cJSON *parent, const char *parent_path,
                 const char *key, const struct sjson_key *keys, const cJSON **out)
{
    char p[SJSON_PATH_MAX];
    *out = sjson_child(parent, key);
    if (!*out)
        return 0;
    return sjson_check_object(cx, *out, sjson_path_key(p, parent_path, key), keys);
}

int sjson_array(const struct sjson *cx, const cJSON *parent, const char *parent_path,
                const char *key, const cJSON **out)
{
    char p[SJSON_PATH_MAX];
    *out = sjson_child(parent, key);
    if (*out && !cJSON_IsArray(*out))
        return sjson_error(cx, sjson_path_key(p, parent_path, key), "expected an array, got %s",
                           sjson_type_name(*out));
    return 0;
}

/* ---- typed values ---- */

/* "must be greater than 0 and at most 1" for a range. */
static void range_text(const struct sjson_range *r, char *buf, size_t size)
{
    char lo[FMT_DOUBLE_SIZE], hi[FMT_DOUBLE_SIZE];
    fmt_double(lo, r->lo);
    fmt_double(hi, r->hi);
    const char *lo_word = r->lo_excluded ? "greater than" : "at least";
    const char *hi_word = r->hi_excluded ? "less than" : "at most";
    if (isfinite(r->lo) && isfinite(r->hi))
        snprintf(buf, size, "must be %s %s and %s %s", lo_word, lo, hi_word, hi);
    else if (isfinite(r->lo))
        snprintf(buf, size, "must be %s %s", lo_word, lo);
    else
        snprintf(buf, size, "must be %s %s", hi_word, hi);
}

static int in_range(const struct sjson_range *r, double v)
{
    return (r->lo_excluded ? v > r->lo : v >= r->lo) && (r->hi_excluded ? v < r->hi : v <= r->hi);
}

int sjson_number(const struct sjson *cx, const cJSON *item, const char *path,
                 const struct sjson_range *range, double *out)
{
    char got[FMT_DOUBLE_SIZE], want[128];
    if (!cJSON_IsNumber(item))
        return sjson_error(cx, path, "expected a number, got %s", sjson_type_name(item));
    /* Numbers are formatted only for a message: a large scenario has millions of them. */
    const double v = item->valuedouble;
    if (isfinite(v) && in_range(range, v)) {
        *out = v;
        return 0;
    }
    fmt_double(got, v);
    if (!isfinite(v))
        return sjson_error(cx, path, "must be a finite number (got %s)", got);
    range_text(range, want, sizeof want);
    return sjson_error(cx, path, "%s (got %s)", want, got);
}

int sjson_integer(const struct sjson *cx, const cJSON *item, const char *path, long long lo,
                  long long hi, long long *out)
{
    char got[FMT_DOUBLE_SIZE];
    double v = 0;
    if (sjson_number(cx, item, path, &SJSON_ANY, &v))
        return CATENA_EINPUT;
    if (v == floor(v) && v >= (double)lo && v <= (double)hi) {
        *out = (long long)v;
        return 0;
    }
    fmt_double(got, v);
    if (v != floor(v))
        return sjson_error(cx, path, "expected an integer, got %s", got);
    /* Past 2^53 the number read may not be the one written: say why it is not. */
    const char *why = fabs(v) >= 0x1p53 && fabs(v) < 0x1p64
                          ? "; from 2^53 on, a number cannot hold every integer"
                          : "";
    if (v < (double)lo)
        return sjson_error(cx, path, "must be at least %lld (got %s%s)", lo, got, why);
    return sjson_error(cx, path, "must be at most %lld (got %s%s)", hi, got, why);
}

int sjson_vector(const struct sjson *cx, const cJSON *item, const char *path, int dims, vec3 *out)
{
    if (!cJSON_IsArray(item))
        return sjson_error(cx, path, "expected an array of %d numbers, got %s", dims,
                           sjson_type_name(item));
    const int n = cJSON_GetArraySize(item);
    if (n != dims)
        return sjson_error(cx, path, "expected an array of %d numbers, got %d %s", dims, n,
                           n == 1 ? "element" : "elements");
    double c[3] = {0, 0, 0};
    int i = 0;
    for (const cJSON *e = item->child; e; e = e->next, i++) {
        char p[SJSON_PATH_MAX];
        if (sjson_number(cx, e, sjson_path_index(p, path, (size_t)i), &SJSON_ANY, &c[i]))
            return CATENA_EINPUT;
    }
    *out = v3(c[0], c[1], c[2]);
    return 0;
}

int sjson_string(const struct sjson *cx, const cJSON *item, const char *path, const char **out)
{
    if (!cJSON_IsString(item))
        return sjson_error(cx, path, "expected a string, got %s", sjson_type_name(item));
    *out = item->valuestring;
    return 0;
}

int sjson_enum(const struct sjson *cx, const cJSON *item, const char *path,
               const char *const *names, int *out)
{
    const char *s = NULL;
    if (sjson_string(cx, item, path, &s))
        return CATENA_EINPUT;
    for (int i = 0; names[i]; i++) {
        if (strcmp(s, names[i]) == 0) {
            *out = i;
            return 0;
        }
    }
    const char *hint = spell_closest(s, names, sizeof *names);
    char shown[SJSON_SHOW_SIZE];
    sjson_show(shown, s);
    if (hint)
        return sjson_error(cx, path, "unknown value \"%s\" (did you mean \"%s\"?)", shown, hint);
    char list[512] = "";
    size_t len = 0;
    for (int i = 0; names[i] && len < sizeof list; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s\"%s\"",
                                i == 0         ? ""
                                : names[i + 1] ? ", "
                                               : " or ",
                                names[i]);
    return sjson_error(cx, path, "unknown value \"%s\" (expected %s)", shown, list);
}

/* obj[key] and its path, for the sjson_get_* readers. */
static const cJSON *keyed(const cJSON *obj, const char *path, const char *key,
                          char p[SJSON_PATH_MAX])
{
    sjson_path_key(p, path, key);
    return sjson_child(obj, key);
}

int sjson_get_number(const struct sjson *cx, const cJSON *obj, const char *path, const char *key,
                     const struct sjson_range *range, double *out)
{
    char p[SJSON_PATH_MAX];
    const cJSON *it = keyed(obj, path, key, p);
    return it ? sjson_number(cx, it, p, range, out) : 0;
}

int sjson_get_integer(const struct sjson *cx, const cJSON *obj, const char *path, const char *key,
                      long long lo, long long hi, long long *out)
{
    char p[SJSON_PATH_MAX];
    const cJSON *it = keyed(obj, path, key, p);
    return it ? sjson_integer(cx, it, p, lo, hi, out) : 0;
}

int sjson_get_vector(const struct sjson *cx, const cJSON *obj, const char *path, const char *key,
                     int dims, vec3 *out)
{
    char p[SJSON_PATH_MAX];
    const cJSON *it = keyed(obj, path, key, p);
    return it ? sjson_vector(cx, it, p, dims, out) : 0;
}

int sjson_get_string(const struct sjson *cx, const cJSON *obj, const char *path, const char *key,
                     const char **out)
{
    char p[SJSON_PATH_MAX];
    const cJSON *it = keyed(obj, path, key, p);
    return it ? sjson_string(cx, it, p, out) : 0;
}

int sjson_get_enum(const struct sjson *cx, const cJSON *obj, const char *path, const char *key,
                   const char *const *names, int *out)
{
    char p[SJSON_PATH_MAX];
    const cJSON *it = keyed(obj, path, key, p);
    return it ? sjson_enum(cx, it, p, names, out) : 0;
}
