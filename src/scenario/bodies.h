/* Private to the scenario loader: the "bodies" section's machinery (scenario/bodies.c) and
 * what each body type plugs into it. A body type lives in one file beside its generator,
 * scenario/build/TYPE.c: its own keys, its pin names, its reader (JSON -> its build_*_def,
 * every check with the JSON path) and the table entry below (build_TYPE_kind). bodies.c finds
 * the type by name, reads the keys every body shares, builds, and pins. */
#ifndef CATENA_SCENARIO_BODIES_H
#define CATENA_SCENARIO_BODIES_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "scenario/build/build.h"
#include "scenario/loader.h"

/* The pin names every type takes first, "first" and "last", then PIN_OWN: the first of the
 * type's own names (in its pin_names). */
enum { PIN_FIRST, PIN_LAST, PIN_OWN };

/* A body checked and waiting to be built. */
struct body_plan {
    const struct body_kind *kind;
    union {
        struct rope_def rope;
        struct cloth_def cloth;
        struct ragdoll_def ragdoll;
        struct softbody_def softbody;
        struct hair_def hair;
    } def;
    const char *name;  /* the body's name */
    uint32_t npoints;  /* the points it will have, to check pin indices against */
    const cJSON *pins; /* its "pins" array, or NULL for the type's default */
};

/* A body type: its own keys (before and after the shared middle ones), its pins, its reader (fills
 * plan->def and plan->npoints, adds the body's points to *points and refuses too many) and its
 * builder (returns the body index or -1 when out of memory). pin_point gives the j-th local point
 * of a pin name at or after PIN_OWN, or -1 past the last; NULL when the type has no own names. */
struct body_kind {
    const char *name;
    const char *article; /* for messages: "a rope" */
    const struct sjson_key *keys, *more_keys;
    const char *const *pin_names;
    int default_pin; /* pinned when "pins" is absent, or -1 */
    int (*read)(struct loader *ld, const cJSON *e, const char *path, struct body_plan *p,
                long long *points);
    long (*build)(struct loader *ld, const struct body_plan *p);
    long (*pin_point)(const struct body_plan *p, int name, size_t j);
};

/* The types, in the order of enum body_type (scenario/build/TYPE.c). */
extern const struct body_kind build_rope_kind, build_cloth_kind, build_ragdoll_kind,
    build_softbody_kind, build_hair_kind;

/* ---- for the types' readers ---- */

/* The keys of a family switch given as an object: links (with break_stretch), and angles or
 * areas (without). */
extern const struct sjson_key bodies_link_set_keys[], bodies_set_keys[];

/* What every body takes, around a type's keys: head, kind->keys, middle, kind->more_keys,
 * tail; the types by enum body_type with their names; the names of a cloth's plane. */
extern const struct sjson_key bodies_head_keys[], bodies_middle_keys[], bodies_tail_keys[];
extern const struct body_kind *const bodies_kinds[];
extern const char *const bodies_kind_names[], *const bodies_plane_names[];

/* Keys and names of the types' own (scenario/build/TYPE.c): a hair's arc, a rope's and a soft
 * body's shapes, a ragdoll's poses. */
extern const struct sjson_key build_hair_arc_keys[];
extern const char *const build_rope_shape_names[], *const build_softbody_shape_names[],
                                                       *const build_ragdoll_pose_names[];

/* Pin names of a type with none of its own: "first" and "last". */
extern const char *const bodies_end_pin_names[];

/* name, mass, radius and the link parameters, read by every type. */
struct body_common {
    const char *name;
    double mass, radius;
    struct build_set links; /* on, with the body's stiffness, compliance, break_stretch */
};

/* Reads the keys every body has into c (and the body's name into the name table). */
int bodies_read_common(struct loader *ld, const cJSON *e, const char *path, struct body_plan *bp,
                       struct body_common *c);

/* A family switch: false (none), true (the defaults in *set) or an object of parameters
 * over those defaults (keys: one of the tables above). An absent key leaves *set as it is. */
int bodies_read_set(struct loader *ld, const cJSON *e, const char *path, const char *key,
                    const struct sjson_key *keys, struct build_set *set);

/* An integer count lo..hi; absent leaves *out. */
int bodies_read_count(struct loader *ld, const cJSON *e, const char *path, const char *key,
                      long long lo, long long hi, uint32_t *out);

/* Whether the link family e[key] ("bend", "shear", ...) will be on: def when absent, off when
 * false (any other value turns it on, or is refused when it is read). */
int bodies_set_on(const cJSON *e, const char *key, int def);

/* Adds a body's points to the running total, and its links and faces to the plan (for the
 * memory estimate), and refuses a scenario past the point limit. */
int bodies_add_points(struct loader *ld, const char *path, long long npoints, long long nlinks,
                      long long nfaces, long long *points);

/* The plane of a cloth or ring: "plane": "xy" | "xz" | "yz" (the two axes u and v), or
 * "u" and "v" given as perpendicular vectors; both come out unit length. */
int bodies_read_plane(struct loader *ld, const cJSON *e, const char *path, vec3 *u, vec3 *v);

#endif
