/* Private to the scenario loader: the state that the section readers share and the helpers
 * they have in common (scenario/loader.c), and the readers themselves, one file per section of
 * the format, called in order by scenario/load.c. Each reader takes the loader and returns
 * 0 or an error code with the message in ld->cx.err. */
#ifndef CATENA_SCENARIO_LOADER_H
#define CATENA_SCENARIO_LOADER_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "core/vec.h"
#include "model/model.h"
#include "scenario/sjson.h"
#include "scenario/sref.h"

/* SCENARIO_MAX_POINTS (scenario/scenario.h) is the default point limit; ld->max_points the one
 * in force, checked by loader_check_size before anything is allocated for the points. */

/* From 2^53 on, JSON's doubles do not hold every integer (9007199254740993 reads as 2^53):
 * counts stop below. */
#define SCENARIO_MAX_COUNT 9007199254740991LL

/* Where a pin comes from, for the duplicate-pin message. */
struct pin_origin {
    long body;    /* body index, or -1 for pins[] */
    size_t entry; /* index in bodies[body].pins or in pins[] */
};

/* Named, not included: scenario/scenario.h includes scenario/output.h, whose reader
 * (scenario/output.c) includes this header, so including them here would close a loop. */
struct body_plan;       /* scenario/bodies.h */
struct scenario;        /* scenario/scenario.h */
struct scenario_output; /* scenario/output.h */

struct loader {
    struct sjson cx;
    const cJSON *root;
    struct scenario *sc;         /* what is being read (its provenance: scenario/load.c) */
    struct model *m;             /* sc->model */
    struct scenario_output *out; /* &sc->output */
    struct sref_table *names;
    struct body_plan *plans;    /* [bodies] checked before any is built (scenario/bodies.c) */
    struct pin_origin *origins; /* [m->npins] */
    size_t origin_cap;
    long long max_points;      /* loader_check_size refuses more */
    const char *default_name;  /* scenario_options.default_name */
    /* The file's own solver.method (enum solver_method, -1 when it names none the loader
     * knows) and solver.damping (NaN when it has none), before the overrides: a damping
     * written for one method and run under another is warned about (scenario/solver.c). */
    int file_method;
    double file_damping;
    long long points_expected; /* > 0: the points the scenario must make (its trajectory's) */
    double max_memory;         /* bytes; 0: no limit (loader_check_memory) */
    double text_bytes;         /* the scenario's text, and the tree cJSON built from it */
    double tree_bytes;
    long long planned_points; /* points so far, listed and planned (loader_check_size) */
    long long planned_links;  /* links and faces of the bodies planned so far */
    long long planned_faces;
    size_t points_listed; /* points[] are points 0..points_listed-1 */
    size_t links_first;   /* links[] are links links_first..links_end-1 */
    size_t links_end;
};

/* ---- helpers (scenario/loader.c) ---- */

/* Reports running out of memory; returns CATENA_EFAIL. */
int loader_oom(struct loader *ld);

/* Adds a point or body name to the shared table; a taken name is an error at path. */
int loader_add_name(struct loader *ld, const char *path, const char *name, enum sref_kind kind,
                    size_t index);

/* Refuses, before allocating, a scenario that would grow beyond the point limit (or make
 * more points than its trajectory holds): points is the running total, links and faces
 * this body's, added to the plan. */
int loader_check_size(struct loader *ld, const char *path, long long points, long long links,
                      long long faces);

/* The memory a load and a run of a model of these counts need, in bytes: the model, what a
 * run adds (state, solver, events) or the text and tree while loading, whichever is more. */
double loader_memory(const struct loader *ld, double points, double links, double faces);

/* Refuses (exit status 2), before the bodies are built, a scenario whose loader_memory
 * exceeds ld->max_memory: the points so far, the planned bodies, links[]. */
int loader_check_memory(struct loader *ld, const char *path);

/* Pins a point (recording where the pin came from for duplicate messages). */
int loader_add_pin(struct loader *ld, uint32_t point, vec3 at, long body, size_t entry);

/* e[key]: a vector that must not be zero (a normal, an axis), returned unit length
 * (v3_unit: no overflow however large its components). */
int loader_direction(struct loader *ld, const cJSON *e, const char *path, const char *key,
                     vec3 *out);

/* An error at path when v's length (squared, as the solver and the generators compute it)
 * overflows: gravity or wind too large for any run. */
int loader_magnitude(struct loader *ld, const char *path, vec3 v);

/* An error at path when a frequency f (Hz) makes the phase 2 pi f t of a sine overflow
 * within the run (dt * steps seconds). */
int loader_frequency(struct loader *ld, const char *path, double f);

/* An error at PATH.key, with the message why, when e has the key (one that does not go with
 * the others given). */
int loader_refuse(struct loader *ld, const cJSON *e, const char *path, const char *key,
                  const char *why);

/* obj[key] as true or false; absent leaves *out as it is. */
int loader_get_bool(struct loader *ld, const cJSON *obj, const char *path, const char *key,
                    int *out);

/* Two keys that exclude each other: an error at the second when both are there. */
int loader_either(struct loader *ld, const cJSON *e, const char *path, const char *a,
                  const char *b);

/* A time t >= 0 (s) as a step: the first step boundary at or after it (a time within a
 * millionth of a step of a boundary is on it). Read after the time section (dt). */
long loader_time_step(const struct loader *ld, double t);

/* e[key] as Coulomb friction (model/obstacle.h): a number mu (static = dynamic), or
 * {"static": mu_s, "dynamic": mu_k} with 0 <= mu_k <= mu_s; absent leaves *out as it is. */
int loader_friction(struct loader *ld, const cJSON *e, const char *path, const char *key,
                    struct friction *out);

/* ---- the sections, in the order scenario/load.c reads them ---- */

/* time: dt, steps, substeps, until_settled (scenario/time.c). */
int scenario_read_time(struct loader *ld);

/* solver: every key of the section, after time (scenario/solver.c). */
int scenario_read_solver(struct loader *ld);

/* world: gravity, wind, gust (scenario/world.c). A gust object at path (world.gust, or an
 * event's set.gust) into amplitude and frequency. */
int scenario_read_world(struct loader *ld);
int scenario_read_gust(struct loader *ld, const cJSON *g, const char *path, double *amplitude,
                       double *frequency);
/* Gravity, wind and the gust's peak wind at path (world, or an event's set), whose squares
 * the solver computes: an error when one overflows. */
int scenario_check_world(struct loader *ld, const char *path, vec3 gravity, vec3 wind,
                         double gust_amplitude);

/* obstacles[] (scenario/obstacles.c). */
int scenario_read_obstacles(struct loader *ld);

/* output: trajectory, every and metrics; output.reports once the pins are known
 * (scenario/output.c); output.render (scenario/output_render.c). */
int scenario_read_output(struct loader *ld);
int scenario_read_reports(struct loader *ld);
int scenario_read_render(struct loader *ld);

/* points[] and links[] (scenario/points.c). */
int scenario_read_points(struct loader *ld);
int scenario_read_links(struct loader *ld);

/* bodies[]: reads and checks every body, then builds them and pins what their "pins" name
 * (scenario/bodies.c); then, once built, each body's drag, self_collision and color
 * (scenario/body_extras.c). */
int scenario_read_bodies(struct loader *ld);
int scenario_read_body_extras(struct loader *ld);

/* pins[] with their motion, and the check that no point is pinned twice (scenario/pins.c). */
int scenario_read_pins(struct loader *ld);
int scenario_check_pins(struct loader *ld);

/* The links' compliance, EA, kind and break_force, and angles[], areas[], shapes[] and
 * attachments[], after links[] (scenario/constraints.c). */
int scenario_read_constraints(struct loader *ld);

/* events[], last: they refer to links and append the points and links that cuts reserve
 * (scenario/events.c). */
int scenario_read_events(struct loader *ld);

/* checks[], after events: their points may be any the scenario has (scenario/check.c). */
int scenario_read_checks(struct loader *ld);

/* After everything: what the model derives and cannot hold (a start beyond MODEL_ABSURD, a
 * mass whose inverse overflows, a compliance over the substep squared that overflows),
 * named by the input's path (scenario/finite.c). */
int scenario_check_model(struct loader *ld);

/* ---- the key tables and names of the sections, for catena schema (scenario/schema.c) ---- */

extern const struct sjson_key scenario_top_keys[], scenario_time_keys[], scenario_settle_keys[],
    scenario_solver_keys[], scenario_world_keys[], scenario_gust_keys[], scenario_point_keys[],
    scenario_link_keys[], scenario_pin_keys[], scenario_linear_keys[], scenario_sine_keys[],
    scenario_keyframe_keys[], scenario_self_keys[], scenario_angle_keys[], scenario_area_keys[],
    scenario_shape_keys[], scenario_attachment_keys[], scenario_output_keys[],
    scenario_render_keys[], scenario_view_keys[], scenario_sheet_keys[], scenario_obstacle_keys[],
    scenario_event_keys[], scenario_cut_keys[], scenario_point_only_keys[],
    scenario_pin_event_keys[], scenario_drag_keys[], scenario_reel_keys[], scenario_velocity_keys[],
    scenario_impulse_keys[], scenario_teleport_keys[], scenario_set_keys[],
    scenario_check_max_stretch_keys[], scenario_check_no_break_keys[],
    scenario_check_settled_keys[], scenario_check_energy_keys[], scenario_check_inside_keys[], scenario_friction_keys[];

extern const char *const scenario_method_names[],
    *const scenario_order_names[], *const scenario_kernel_names[],
    *const scenario_matrix_names[],
                                       *const scenario_link_kind_names[],
                                           *const scenario_format_names[],
                                               *const scenario_report_names[],
                                                   *const scenario_color_by_names[],
                                                       *const scenario_check_at_names[];

/* Whether an obstacle of the type (enum obstacle_type) takes the key: every key but the shape
 * keys, and the shape keys of its own shape (scenario/obstacles.c). */
int scenario_obstacle_takes(int type, const char *key);

#endif
