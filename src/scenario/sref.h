/* Names and point references of a scenario: one table of point and body names (they
 * share a namespace), and the resolution of a reference written in the file: a global
 * index (12), "body.index", "body.first", "body.last", or a point's name. */
#ifndef CATENA_SCENARIO_REFS_H
#define CATENA_SCENARIO_REFS_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "model/model.h"
#include "scenario/sjson.h"

enum sref_kind {
    SREF_POINT, /* index is a global point index */
    SREF_BODY,  /* index is a body index */
};

struct sref_entry {
    const char *name; /* not owned: the model's copy */
    enum sref_kind kind;
    size_t index;
};

/* A hash table of names; created empty, freed with sref_destroy (NULL is a no-op). */
struct sref_table;
struct sref_table *sref_create(void);
void sref_destroy(struct sref_table *t);

/* Adds name (which must outlive the table). Returns 0, 1 when the name is taken (*taken
 * then describes its holder), or -1 when out of memory. */
int sref_add(struct sref_table *t, const char *name, enum sref_kind kind, size_t index,
             struct sref_entry *taken);

/* The entry for the first n bytes of name, or NULL. */
const struct sref_entry *sref_find(const struct sref_table *t, const char *name, size_t n);

/* Resolves the point reference item (at path) against the model's points and bodies.
 * Errors name what is missing and what exists:
 * 'point "chain.40" does not exist (chain has 31 points)',
 * 'point 12 does not exist (the scenario has 10 points)', a did-you-mean for names. */
int sref_resolve(const struct sref_table *t, const struct model *m, const struct sjson *cx,
                 const cJSON *item, const char *path, uint32_t *out);

/* Resolves a body reference (its name) into a body index. Errors: 'body "x" does not exist'
 * with a did-you-mean, or a note that the name is a point's. */
int sref_resolve_body(const struct sref_table *t, const struct sjson *cx, const cJSON *item,
                      const char *path, uint32_t *out);

/* Resolves a link reference: a global index (0 .. nlinks-1) or "body.k", the body's k-th
 * link ("body.first", "body.last" too). */
int sref_resolve_link(const struct sref_table *t, const struct model *m, const struct sjson *cx,
                      const cJSON *item, const char *path, uint32_t *out);

/* Writes how messages show point i: point "lamp", point "chain.3" or point 7. */
const char *sref_describe(const struct model *m, size_t i, char *buf, size_t size);

#endif
