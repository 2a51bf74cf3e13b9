/* Private to the sweep files: the helpers they share. A plan is read from a sweep file
 * (sweep/load.c) or from its plan.json (sweep/plan_json.c); runs are named by sweep/name.c
 * from values written as text by sweep/value.c. */
#ifndef CATENA_SWEEP_INTERNAL_H
#define CATENA_SWEEP_INTERNAL_H

#include <stddef.h>

#include "core/error.h"
#include "scenario/sjson.h"

struct sweep_plan;
struct cJSON;

/* ---- a growing string (sweep/strbuf.c) ---- */

/* Zero-initialised: empty. Out of memory is remembered and reported once, by strbuf_take. */
struct strbuf {
    char *s;
    size_t len, cap;
    int oom;
};

void strbuf_add(struct strbuf *b, const char *s, size_t n);
void strbuf_str(struct strbuf *b, const char *s);

/* The string (malloc'd; "" when nothing was added), or NULL (freeing it) when something did
 * not fit in memory. */
char *strbuf_take(struct strbuf *b);

/* ---- values as text (sweep/value.c) ---- */

/* A JSON value as sweep.csv cells and run names show it: numbers in their shortest exact
 * form, strings as they are, anything else as compact JSON. Malloc'd; NULL when out of
 * memory. */
char *sweep_value_cell(const struct cJSON *v);

/* A value as --set takes it: the same, except that a string which would read as JSON
 * ("5", "true") is quoted so that it stays a string. Malloc'd; NULL when out of memory. */
char *sweep_value_set(const struct cJSON *v);

/* ---- run names (sweep/name.c) ---- */

/* Appends "label=value" to the run name in b, encoded (an array value is its elements joined
 * by '_'); the caller puts the commas between. */
void sweep_name_add(struct strbuf *b, const char *label, const struct cJSON *value);

/* The name built in b, malloc'd; a hash replaces the tail of a name too long. NULL when out
 * of memory. */
char *sweep_name_take(struct strbuf *b);

/* 1 when s, read back from plan.json, is still a run name: one directory under runs/. */
int sweep_name_safe(const char *s);

/* ---- plans (sweep/plan.c) ---- */

/* Frees s[0..n) and s; NULL is a no-op. */
void sweep_strings_free(char **s, size_t n);

/* The words of run i's command: PROGRAM run BASE --set S... -o RUN_DIR -q, then NULL. The
 * strings belong to the plan, except *run_dir (DIR/runs/NAME), which the caller frees
 * with the array. NULL when out of memory. */
char **sweep_run_argv(const struct sweep_plan *p, const char *dir, const char *program, size_t i,
                      char **run_dir);

/* Sets err to "FILE: out of memory" and returns its code. */
static inline int sweep_oom(struct catena_error *err, const char *file)
{
    return error_set(err, CATENA_EFAIL, "%s: out of memory", file);
}

/* A sweep file's keys and its modes (sweep/load.c), for catena schema (sweep/schema.c). */
extern const struct sjson_key sweep_keys[];
extern const char *const sweep_mode_names[];

#endif
