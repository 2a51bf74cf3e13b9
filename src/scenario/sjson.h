/* The JSON layer of the scenario loader: a strict parse that pinpoints syntax errors as
 * LINE:COL, checked access to values with JSON-path messages ("FILE: time.dt: ..."), and one
 * table of allowed keys per object. */
#ifndef CATENA_SCENARIO_JSON_H
#define CATENA_SCENARIO_JSON_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "core/error.h"
#include "core/vec.h"

/* Room for a JSON path in messages ("bodies[2].pins[10]"); longer ones are cut. */
#define SJSON_PATH_MAX 512

/* A value put into the tree from elsewhere than the file (a command-line option), and the name
 * messages give it instead of the file's: "--steps", "--set time.steps=5". */
struct sjson_origin {
    const char *path; /* as messages write it: "time.steps", "points[3].mass" */
    const char *name;
};

/* Where messages go: the file's label and the caller's error buffer; an error at one of the
 * origins' paths, or under one, names the origin instead ("--steps: must be at least 0"),
 * the latest origin first. */
struct sjson {
    const char *label;
    struct catena_error *err;
    const struct sjson_origin *origins; /* [norigins], or NULL */
    size_t norigins;
};

/* One allowed key of an object. Tables end with {NULL, 0}; later format versions add
 * rows, and the unknown-key message lists the rows as the valid keys. */
struct sjson_key {
    const char *name;
    int required;
};

/* An interval for numbers; lo = -INFINITY or hi = INFINITY leave that side open. */
struct sjson_range {
    double lo, hi;
    int lo_excluded, hi_excluded;
};

extern const struct sjson_range SJSON_ANY;       /* any finite number */
extern const struct sjson_range SJSON_POSITIVE;  /* > 0 */
extern const struct sjson_range SJSON_NONNEG;    /* >= 0 */
extern const struct sjson_range SJSON_UNIT;      /* 0 < x <= 1 */
extern const struct sjson_range SJSON_ABOVE_ONE; /* > 1 */

/* What reading a text costs in memory, estimated by the scan before cJSON builds anything. */
struct sjson_cost {
    double text;    /* the text's bytes (held by the caller while it is read) */
    double tree;    /* cJSON's tree: nodes, keys and strings, with malloc's overhead */
    double numbers; /* numbers in it (each kept as text too for provenance, scenario/load.c) */
};

/* Parses text[0..len) as strict RFC 8259 JSON into a tree the caller frees with
 * cJSON_Delete. On a syntax error returns NULL with err set to
 * "LABEL:LINE:COL: invalid JSON: what" (1-based; columns count UTF-8 characters), or
 * "LABEL:1:1: empty file, expected a JSON object" for an empty file. When cost is not NULL
 * it is filled once the text is scanned, and when max_bytes > 0 a text whose reading would
 * need more (two copies and the tree) is refused (exit status 2) before the tree is built. */
cJSON *sjson_parse(const char *label, const char *text, size_t len, double max_bytes,
                   struct sjson_cost *cost, struct catena_error *err);

/* Sets err to "LABEL: PATH: message" ("LABEL: message" when path is empty; "ORIGIN: message"
 * at an origin's path, "ORIGIN: PATH: message" under it) with code CATENA_EINPUT, and returns
 * CATENA_EINPUT. Control characters in path and message (from
 * escaped keys and strings) are written as '?' (error_set) so that it stays on one line. */
int sjson_error(const struct sjson *cx, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Text from the file as messages quote it: cut to SJSON_SHOW_MAX bytes (at a character
 * boundary) followed by "..." when longer, so that a huge name or value cannot push the
 * reason out of a message. Returns buf. */
#define SJSON_SHOW_MAX 64
#define SJSON_SHOW_SIZE (SJSON_SHOW_MAX + 4)
const char *sjson_show(char buf[SJSON_SHOW_SIZE], const char *s);

/* "a number", "a string", "an object", "an array", "a boolean" or "null". */
const char *sjson_type_name(const cJSON *item);

/* Writes "PARENT.key" (or "key" at the top) / "PARENT[i]" into buf and returns buf. */
char *sjson_path_key(char buf[SJSON_PATH_MAX], const char *parent, const char *key);
char *sjson_path_index(char buf[SJSON_PATH_MAX], const char *parent, size_t i);

/* obj[key] (case-sensitive, first occurrence) or NULL; obj may be NULL. */
const cJSON *sjson_child(const cJSON *obj, const char *key);

/* Checks that item is an object whose keys are all in the table, none twice, and that
 * every required key is present. Errors come in document order: an unknown key
 * (with a did-you-mean, or the list of valid keys), a duplicate, then a missing key. */
int sjson_check_object(const struct sjson *cx, const cJSON *item, const char *path,
                       const struct sjson_key *keys);

/* parent[key] as an object checked against keys; *out is NULL when the key is absent. */
int sjson_object(const struct sjson *cx, const cJSON *parent, const char *parent_path,
                 const char *key, const struct sjson_key *keys, const cJSON **out);

/* parent[key] as an array; *out is NULL when the key is absent. */
int sjson_array(const struct sjson *cx, const cJSON *parent, const char *parent_path,
                const char *key, const cJSON **out);

/* Typed reads of one value at path. Each returns 0 or CATENA_EINPUT with the message
 * set: wrong type ("expected a number, got a string"), not finite, or out of range
 * ("must be greater than 0 (got -0.01)"). */
int sjson_number(const struct sjson *cx, const cJSON *item, const char *path,
                 const struct sjson_range *range, double *out);
int sjson_integer(const struct sjson *cx, const cJSON *item, const char *path, long long lo,
                  long long hi, long long *out);
/* An array of exactly dims numbers; components past dims are 0. */
int sjson_vector(const struct sjson *cx, const cJSON *item, const char *path, int dims, vec3 *out);
int sjson_string(const struct sjson *cx, const cJSON *item, const char *path, const char **out);
/* A string out of names (NULL-terminated); *out gets its index. */
int sjson_enum(const struct sjson *cx, const cJSON *item, const char *path,
               const char *const *names, int *out);

/* The same, reading obj[key]; an absent key leaves *out untouched (the default). */
int sjson_get_number(const struct sjson *cx, const cJSON *obj, const char *path, const char *key,
                     const struct sjson_range *range, double *out);
int sjson_get_integer(const struct sjson *cx, const cJSON *obj, const char *path, const char *key,
                      long long lo, long long hi, long long *out);
int sjson_get_vector(const struct sjson *cx, const cJSON *obj, const char *path, const char *key,
                     int dims, vec3 *out);
int sjson_get_string(const struct sjson *cx, const cJSON *obj, const char *path, const char *key,
                     const char **out);
int sjson_get_enum(const struct sjson *cx, const cJSON *obj, const char *path, const char *key,
                   const char *const *names, int *out);

#endif
