/* --set PATH=VALUE overrides, applied to the scenario's tree before it is checked, so an
 * override goes through the same checks as the file ("--set time.dtt=1" ends as an
 * unknown key with a did-you-mean). */
#define _POSIX_C_SOURCE 200809L
#include "scenario/override.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_scan.h"
#include "scenario/sjson.h"

static int override_error(const struct scenario_override *ov, struct catena_error *err,
                          const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int override_error(const struct scenario_override *ov, struct catena_error *err,
                          const char *fmt, ...)
{
    char msg[1024], path[SJSON_SHOW_SIZE], value[SJSON_SHOW_SIZE];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* Both cut short, so that a huge value cannot push the reason out of the message. */
    return error_set(err, CATENA_EINPUT, "--set %s=%s: %s", sjson_show(path, ov->path),
                     sjson_show(value, ov->value), msg);
}

static int out_of_memory(struct catena_error *err)
{
    return error_set(err, CATENA_EFAIL, "out of memory");
}

/* The value as JSON when the whole of it parses (numbers, true, ["csv","npy"]), else as
 * a string, so that --set solver.method=verlet needs no quotes. A number beyond a double's
 * range is refused as in a file (cJSON alone would read 1e-400 as 0): NULL with err set. */
static cJSON *override_value(const struct scenario_override *ov, struct catena_error *err)
{
    struct json_scan sc;
    json_scan_text(&sc, ov->value, strlen(ov->value), 0);
    if (json_scan_document(&sc) && sc.status == JSON_SCAN_RANGE) {
        override_error(ov, err, "%s", sc.what);
        return NULL;
    }
    const char *end = NULL;
    cJSON *v = cJSON_ParseWithOpts(ov->value, &end, 1);
    if (!v && !(v = cJSON_CreateString(ov->value)))
        error_set(err, CATENA_EFAIL, "out of memory");
    return v;
}

static int is_index(const char *s, size_t n)
{
    return n > 0 && strspn(s, "0123456789") >= n;
}

/* An index component's value; ones too long for an int are past any array's end. */
static int index_value(const char *s, size_t n)
{
    return n > 9 ? INT_MAX : atoi(s);
}

/* Puts the override's value at node[key] (replacing the first, or adding) or node[i]. */
static int set_value(const struct scenario_override *ov, cJSON *node, const char *key,
                     const cJSON *old, int i, struct catena_error *err)
{
    cJSON *value = override_value(ov, err);
    if (!value)
        return err->code;
    const int ok = cJSON_IsArray(node) ? cJSON_ReplaceItemInArray(node, i, value)
                   : old               ? cJSON_ReplaceItemInObjectCaseSensitive(node, key, value)
                                       : cJSON_AddItemToObject(node, key, value);
    if (ok)
        return 0;
    cJSON_Delete(value);
    return out_of_memory(err);
}

int scenario_override_apply(cJSON *root, const struct scenario_override *ov,
                            struct catena_error *err)
{
    cJSON *node = root; /* an object: scenario/load.c checks the root first */
    for (const char *comp = ov->path;;) {
        const size_t n = strcspn(comp, ".");
        const int last = comp[n] == '\0';
        const int before = (int)(comp - ov->path) - 1; /* the path up to comp, for messages */
        if (n == 0)
            return override_error(ov, err, "empty component in the path");
        if (cJSON_IsArray(node)) {
            const int size = cJSON_GetArraySize(node), i = index_value(comp, n);
            if (!is_index(comp, n))
                return override_error(ov, err, "%.*s is an array; \"%.*s\" is not an index", before,
                                      ov->path, (int)n, comp);
            if (i >= size)
                return override_error(ov, err, "%.*s has no element %.*s (it has %d)", before,
                                      ov->path, (int)n, comp, size);
            if (last)
                return set_value(ov, node, NULL, NULL, i, err);
            node = cJSON_GetArrayItem(node, i);
        } else if (cJSON_IsObject(node)) {
            char *key = strndup(comp, n);
            if (!key)
                return out_of_memory(err);
            cJSON *child = cJSON_GetObjectItemCaseSensitive(node, key);
            int rc = 0;
            if (last)
                rc = set_value(ov, node, key, child, 0, err);
            /* A missing object on the way is created (the checks then judge its key),
             * but an array element cannot be made up. */
            else if (!child && is_index(comp + n + 1, strcspn(comp + n + 1, ".")))
                rc = override_error(ov, err, "%.*s does not exist", before + 1 + (int)n, ov->path);
            else if (!child && !(child = cJSON_AddObjectToObject(node, key)))
                rc = out_of_memory(err);
            free(key);
            if (last || rc)
                return rc;
            node = child;
        } else {
            return override_error(ov, err, "%.*s is %s, not an object or an array", before,
                                  ov->path, sjson_type_name(node));
        }
        comp += n + 1;
    }
}
