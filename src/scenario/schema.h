/* JSON Schemas (draft 2020-12) of catena's input files, written from the loader's own key
 * tables (struct sjson_key), so that the keys an editor completes and checks are the keys the
 * loader accepts: `catena schema scenario` (scenario/schema_scenario.c) and `catena schema
 * sweep` (sweep/schema.c). Around the tables, a description says what the keys hold: which
 * hold objects of their own (with their tables), which pick the keys by a type, and what the
 * values are where that helps an editor; a key it names that no table has is an error, so the
 * description cannot add a key the loader refuses. tests/schema.sh holds schema and loader in
 * step on every object of every shipped scenario.
 *
 * Glossary:
 *   object   one kind of JSON object of the format, a closed set of keys ($defs/NAME)
 *   variant  the object a type value picks ("type": "rope" picks body-rope)
 *   hold     what a key's value is: a number, a vector, an object, an array of objects, ... */
#ifndef CATENA_SCENARIO_SCHEMA_H
#define CATENA_SCENARIO_SCHEMA_H

#include <cjson/cJSON.h>

#include "core/error.h"
#include "scenario/sjson.h"

enum schema_hold {
    HOLD_ANY,     /* not described: any JSON value */
    HOLD_NUMBER,  /* a number */
    HOLD_INTEGER, /* a whole number */
    HOLD_STRING,  /* a string */
    HOLD_BOOLEAN, /* true or false */
    HOLD_VECTOR,  /* 2 or 3 numbers (the scenario's dimensions) */
    HOLD_PAIR,    /* exactly 2 numbers */
    HOLD_REF,     /* a point or a link: an index or a name */
    HOLD_ENUM,    /* one of ref's names */
    HOLD_ENUMS,   /* an array of ref's names, each at most once */
    HOLD_PICKS,   /* an array of ref's names or indices (a body's pins) */
    HOLD_NUMBERS, /* an array of numbers */
    HOLD_VECTORS, /* an array of vectors */
    HOLD_OBJECT,  /* the object ref */
    HOLD_OBJECTS, /* an array of the object ref */
    HOLD_SWITCH,  /* true, false, or the object ref (a family switched on, with parameters) */
    HOLD_STRINGS, /* an array of strings */
    HOLD_OPEN,    /* an object of any keys (a sweep's paths) */
    HOLD_LISTS,   /* an object of any keys, each an array of at least one value */
};

/* What one key holds. ref: a const struct schema_object * (OBJECT, OBJECTS, SWITCH) or a
 * NULL-terminated const char *const * of names (ENUM, ENUMS); NULL otherwise. */
struct schema_key {
    const char *name;
    enum schema_hold hold;
    const void *ref;
};

/* One object of the format. Its keys are those of the loader's tables, in order; holds says
 * what some of them hold (NULL-terminated lists of tables ending with {NULL}). With variants,
 * the value of the key `by` (one of values) picks variants[i], an object of its own. takes,
 * when set, leaves out of variant i the keys the loader refuses for it. */
struct schema_object {
    const char *name; /* under $defs */
    const struct sjson_key *const *tables;
    const struct schema_key *const *holds;
    const char *by;
    const char *const *values;
    const struct schema_object *const *variants;
    int (*takes)(int variant, const char *key);
};

/* The schema document of root, titled title: {"$schema", "title", "$ref" to root, "$defs"
 * with every object reached}. NULL with err set when the description names a key that no
 * table of its object has (or when out of memory). */
cJSON *schema_document(const struct schema_object *root, const char *title,
                       struct catena_error *err);

/* The scenario file's schema (scenario/schema_scenario.c). */
cJSON *scenario_schema(struct catena_error *err);

#endif
