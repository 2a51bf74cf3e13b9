/* JSON Schema documents from the loader's key tables (see scenario/schema.h): each object of
 * the format becomes a closed object under $defs (additionalProperties false, its required
 * keys required), and an object whose keys a type picks becomes an if/then per type. */
#include "scenario/schema.h"

#include <stdio.h>
#include <string.h>

/* The document being written: $defs, and the first error. */
struct gen {
    cJSON *defs;
    struct catena_error *err;
    int failed;
};

static void fail(struct gen *g, const char *msg)
{
    if (!g->failed)
        error_set(g->err, CATENA_EFAIL, "schema: %s", msg);
    g->failed = 1;
}

/* Adds item to parent under key (to an array when key is NULL); a failure (out of memory)
 * frees it and marks the document failed. */
static void put(struct gen *g, cJSON *parent, const char *key, cJSON *item)
{
    const int added =
        key ? cJSON_AddItemToObject(parent, key, item) : cJSON_AddItemToArray(parent, item);
    if (!added || !item) {
        cJSON_Delete(added ? NULL : item);
        fail(g, "out of memory");
    }
}

static cJSON *type_is(struct gen *g, const char *type)
{
    cJSON *s = cJSON_CreateObject();
    put(g, s, "type", cJSON_CreateString(type));
    return s;
}

/* {"type": "array", "items": items} with minItems and maxItems when >= 0. */
static cJSON *array_of(struct gen *g, cJSON *items, int min, int max)
{
    cJSON *s = type_is(g, "array");
    put(g, s, "items", items);
    if (min >= 0)
        put(g, s, "minItems", cJSON_CreateNumber(min));
    if (max >= 0)
        put(g, s, "maxItems", cJSON_CreateNumber(max));
    return s;
}

static cJSON *names_enum(struct gen *g, const char *const *names)
{
    cJSON *list = cJSON_CreateArray();
    for (size_t i = 0; names && names[i]; i++)
        put(g, list, NULL, cJSON_CreateString(names[i]));
    cJSON *s = cJSON_CreateObject();
    put(g, s, "enum", list);
    return s;
}

static cJSON *ref_to(struct gen *g, const struct schema_object *o);

/* The schema of what k holds. */
static cJSON *hold_schema(struct gen *g, const struct schema_key *k)
{
    cJSON *s, *either;
    switch (k->hold) {
    case HOLD_ANY:
        break;
    case HOLD_NUMBER:
        return type_is(g, "number");
    case HOLD_INTEGER:
        return type_is(g, "integer");
    case HOLD_STRING:
        return type_is(g, "string");
    case HOLD_BOOLEAN:
        return type_is(g, "boolean");
    case HOLD_VECTOR:
        return array_of(g, type_is(g, "number"), 2, 3);
    case HOLD_PAIR:
        return array_of(g, type_is(g, "number"), 2, 2);
    case HOLD_REF:
        s = cJSON_CreateObject();
        either = cJSON_CreateArray();
        put(g, either, NULL, cJSON_CreateString("integer"));
        put(g, either, NULL, cJSON_CreateString("string"));
        put(g, s, "type", either);
        return s;
    case HOLD_ENUM:
        return names_enum(g, k->ref);
    case HOLD_ENUMS:
        s = array_of(g, names_enum(g, k->ref), -1, -1);
        put(g, s, "uniqueItems", cJSON_CreateTrue());
        return s;
    case HOLD_PICKS:
        s = cJSON_CreateObject();
        either = cJSON_CreateArray();
        put(g, either, NULL, names_enum(g, k->ref));
        put(g, either, NULL, type_is(g, "integer"));
        put(g, s, "anyOf", either);
        return array_of(g, s, -1, -1);
    case HOLD_NUMBERS:
        return array_of(g, type_is(g, "number"), -1, -1);
    case HOLD_VECTORS:
        return array_of(g, array_of(g, type_is(g, "number"), 2, 3), -1, -1);
    case HOLD_OBJECT:
        return ref_to(g, k->ref);
    case HOLD_OBJECTS:
        return array_of(g, ref_to(g, k->ref), -1, -1);
    case HOLD_SWITCH:
        s = cJSON_CreateObject();
        either = cJSON_CreateArray();
        put(g, either, NULL, type_is(g, "boolean"));
        put(g, either, NULL, ref_to(g, k->ref));
        put(g, s, "anyOf", either);
        return s;
    case HOLD_STRINGS:
        return array_of(g, type_is(g, "string"), -1, -1);
    case HOLD_OPEN:
        return type_is(g, "object");
    case HOLD_LISTS:
        s = type_is(g, "object");
        put(g, s, "additionalProperties", array_of(g, cJSON_CreateObject(), 1, -1));
        return s;
    }
    return cJSON_CreateObject(); /* {}: anything */
}

/* What the description says key holds in o, or NULL. */
static const struct schema_key *find_hold(const struct schema_object *o, const char *key)
{
    for (size_t l = 0; o->holds && o->holds[l]; l++)
        for (const struct schema_key *k = o->holds[l]; k->name; k++)
            if (strcmp(k->name, key) == 0)
                return k;
    return NULL;
}

static int in_tables(const struct schema_object *o, const char *key)
{
    for (size_t t = 0; o->tables && o->tables[t]; t++)
        for (const struct sjson_key *k = o->tables[t]; k->name; k++)
            if (strcmp(k->name, key) == 0)
                return 1;
    return 0;
}

/* Refuses a description of a key that no table of o has: the schema would take a key the
 * loader refuses. */
static void check_holds(struct gen *g, const struct schema_object *o)
{
    for (size_t l = 0; o->holds && o->holds[l]; l++)
        for (const struct schema_key *k = o->holds[l]; k->name; k++)
            if (!in_tables(o, k->name)) {
                char msg[256];
                snprintf(msg, sizeof msg,
                         "%s: \"%s\" is described, but no key table of the loader has it", o->name,
                         k->name);
                fail(g, msg);
            }
}

/* The closed object of o's keys; variant >= 0: as variant `variant` of parent, whose `by`
 * key is the constant value and whose takes filters the keys. */
static cJSON *closed_object(struct gen *g, const struct schema_object *o,
                            const struct schema_object *parent, int variant)
{
    cJSON *s = type_is(g, "object"), *props = cJSON_CreateObject(), *required = cJSON_CreateArray();
    check_holds(g, o);
    for (size_t t = 0; o->tables && o->tables[t]; t++)
        for (const struct sjson_key *k = o->tables[t]; k->name; k++) {
            if (parent && parent->takes && !parent->takes(variant, k->name))
                continue;
            const struct schema_key *h = find_hold(o, k->name);
            cJSON *value;
            if (parent && strcmp(k->name, parent->by) == 0) {
                value = cJSON_CreateObject();
                put(g, value, "const", cJSON_CreateString(parent->values[variant]));
            } else {
                value = h ? hold_schema(g, h) : cJSON_CreateObject();
            }
            put(g, props, k->name, value);
            if (k->required)
                put(g, required, NULL, cJSON_CreateString(k->name));
        }
    put(g, s, "properties", props);
    put(g, s, "required", required);
    put(g, s, "additionalProperties", cJSON_CreateFalse());
    return s;
}

/* An object whose keys its `by` value picks: the values, and per value an if/then to the
 * variant's closed object. */
static cJSON *picked_object(struct gen *g, const struct schema_object *o)
{
    cJSON *s = type_is(g, "object"), *props = cJSON_CreateObject(), *required = cJSON_CreateArray(),
          *all = cJSON_CreateArray();
    put(g, props, o->by, names_enum(g, o->values));
    put(g, required, NULL, cJSON_CreateString(o->by));
    put(g, s, "properties", props);
    put(g, s, "required", required);
    for (int i = 0; o->values[i]; i++) {
        const struct schema_object *v = o->variants[i];
        cJSON *rule = cJSON_CreateObject(), *when = cJSON_CreateObject(),
              *when_props = cJSON_CreateObject(), *value = cJSON_CreateObject();
        put(g, value, "const", cJSON_CreateString(o->values[i]));
        put(g, when_props, o->by, value);
        put(g, when, "properties", when_props);
        put(g, rule, "if", when);
        if (!cJSON_GetObjectItemCaseSensitive(g->defs, v->name))
            put(g, g->defs, v->name, closed_object(g, v, o, i));
        cJSON *then = cJSON_CreateObject();
        char ref[256];
        snprintf(ref, sizeof ref, "#/$defs/%s", v->name);
        put(g, then, "$ref", cJSON_CreateString(ref));
        put(g, rule, "then", then);
        put(g, all, NULL, rule);
    }
    put(g, s, "allOf", all);
    return s;
}

/* {"$ref": "#/$defs/NAME"}, writing $defs/NAME first when it is not there yet. */
static cJSON *ref_to(struct gen *g, const struct schema_object *o)
{
    if (!cJSON_GetObjectItemCaseSensitive(g->defs, o->name)) {
        /* A placeholder first: an object may hold itself, further down. */
        put(g, g->defs, o->name, cJSON_CreateObject());
        cJSON *def = o->variants ? picked_object(g, o) : closed_object(g, o, NULL, -1);
        if (!cJSON_ReplaceItemInObjectCaseSensitive(g->defs, o->name, def)) {
            cJSON_Delete(def);
            fail(g, "out of memory");
        }
    }
    char ref[256];
    snprintf(ref, sizeof ref, "#/$defs/%s", o->name);
    cJSON *s = cJSON_CreateObject();
    put(g, s, "$ref", cJSON_CreateString(ref));
    return s;
}

cJSON *schema_document(const struct schema_object *root, const char *title,
                       struct catena_error *err)
{
    struct gen g = {.defs = cJSON_CreateObject(), .err = err};
    cJSON *doc = cJSON_CreateObject();
    error_clear(err);
    put(&g, doc, "$schema", cJSON_CreateString("https://json-schema.org/draft/2020-12/schema"));
    put(&g, doc, "title", cJSON_CreateString(title));
    cJSON *ref = ref_to(&g, root);
    put(&g, doc, "$ref", cJSON_DetachItemFromObjectCaseSensitive(ref, "$ref"));
    cJSON_Delete(ref);
    put(&g, doc, "$defs", g.defs);
    if (!g.failed)
        return doc;
    cJSON_Delete(doc);
    return NULL;
}
