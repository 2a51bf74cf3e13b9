/* Private to the scenario loader: the state shared by the files that read the sections
 * of a scenario (scenario/scenario.c and its siblings). Each section reader takes the loader and
 * returns 0 or an error code with the message in ld->cx.err. */
#ifndef CATENA_SCENARIO_LOADER_H
#define CATENA_SCENARIO_LOADER_H

#include "scenario/build/build.h"
#include "scenario/sjson.h"
#include "scenario/sref.h"

/* SCENARIO_MAX_POINTS (scenario/scenario.h) is the default point limit; ld->max_points the one in
 * force, checked by scenario_check_size before anything is allocated for the points. */

/* Integers beyond 2^53 are not exact in JSON's doubles; counts stop there. */
#define SCENARIO_MAX_COUNT 9007199254740992LL

/* Where a pin comes from, for the duplicate-pin message. */
struct pin_origin {
    long body;    /* body index, or -1 for pins[] */
    size_t entry; /* index in bodies[body].pins or in pins[] */
};

struct loader {
    struct sjson cx;
    const cJSON *root;
    struct model *m;
    struct sref_table *names;
    struct body_plan *plans;    /* [bodies] checked before any is built (scenario/bodies.c) */
    struct pin_origin *origins; /* [m->npins] */
    size_t origin_cap;
    long long max_points; /* scenario_check_size refuses more */
};

/* Reports running out of memory; returns CATENA_EFAIL. */
int scenario_oom(struct loader *ld);

/* Adds a point or body name to the shared table; a taken name is an error at path. */
int scenario_add_name(struct loader *ld, const char *path, const char *name, enum sref_kind kind,
                      size_t index);

/* Refuses, before allocating, a scenario that would grow beyond the point limit. */
int scenario_check_size(struct loader *ld, const char *path, long long points, long long links);

/* Pins a point (recording where the pin came from for duplicate messages). */
int scenario_add_pin(struct loader *ld, uint32_t point, vec3 at, long body, size_t entry);

/* The "bodies" section (scenario/bodies.c): reads and checks every body, then builds them
 * and pins what their "pins" name. */
int scenario_read_bodies(struct loader *ld);

/* The world's sections (scenario/world.c). Settings read time.until_settled,
 * solver.collide_every, world.wind and world.gust; body_world reads bodies[].drag and
 * bodies[].self_collision after the bodies are built; events come last, after links: they
 * refer to links and append the points and links that cuts reserve. */
int scenario_read_world_settings(struct loader *ld);
int scenario_read_obstacles(struct loader *ld);
int scenario_read_body_world(struct loader *ld);
int scenario_read_events(struct loader *ld);

/* pins[i].motion of the pin entry e at path, for the model's pin `pin` just added. */
int scenario_read_pin_motion(struct loader *ld, const cJSON *e, const char *path, size_t pin);
/* Sections in their own files, registered in scenario/scenario.c's sections[]. */
int scenario_read_constraints(struct loader *ld); /* scenario/constraints.c */
int scenario_read_direct(struct loader *ld);      /* scenario/direct.c */
/* output.render and bodies[].color (scenario/render.c). */
int scenario_read_render(struct loader *ld);
int scenario_read_body_colors(struct loader *ld);

/* output.reports (scenario/reports.c). */
int scenario_read_reports(struct loader *ld);

/* solver.threads and solver.kernel (scenario/perf.c). */
int scenario_read_perf(struct loader *ld);

/* solver.shock_iterations (scenario/contact.c). */
int scenario_read_contact(struct loader *ld);

#endif
