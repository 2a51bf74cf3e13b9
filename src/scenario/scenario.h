/* Scenario files (format v1, catena-scenario(5)) -> a scenario: the model the solver steps
 * (physics only), what a run of it writes, and where it came from. Every error names the
 * file and the place: "FILE:LINE:COL: ..." for JSON syntax, "FILE: JSON.PATH: ..."
 * otherwise. */
#ifndef CATENA_SCENARIO_H
#define CATENA_SCENARIO_H

#include <stddef.h>

#include "core/error.h"
#include "core/warnings.h"
#include "model/model.h"
#include "scenario/check.h"
#include "scenario/output.h"

/* Where a scenario came from, and its name. */
struct scenario_provenance {
    char *name;       /* the scenario's name: its run directory runs/NAME, and the title of
                         its pictures and reports */
    char *source;     /* path of the scenario file (for messages); NULL when built in code */
    char sha256[65];  /* hex SHA-256 of the scenario file's bytes; "" when built in code */
    char **overrides; /* [noverrides] the --set overrides applied, "PATH=VALUE", in order */
    size_t noverrides;
    /* The effective scenario as JSON text: the file after the --set overrides, with "name"
     * filled in. A run writes it as scenario.json, so that the run directory alone rebuilds
     * the scenario. NULL when built in code. */
    char *json;
};

struct scenario {
    struct model *model; /* owned */
    struct scenario_output output;
    struct scenario_provenance provenance;
    struct scenario_checks checks; /* what a run must show ("checks"); owned */
    struct warnings warnings; /* what loading found allowed but probably not meant (validate
                                 prints them, a run prints them and lists them in
                                 summary.json) */
    double memory; /* bytes a load and a run of it are estimated to need at their peak (the
                      loader's estimate, which its limits were checked against); 0: unknown */
};

/* A scenario built in code around the model m, which it owns from then on (m NULL: a new
 * empty model_create() one): the default output (scenario_output_default) and no
 * provenance. The caller fills in the rest and frees it with scenario_destroy. NULL when
 * out of memory, m then destroyed too. */
struct scenario *scenario_create(struct model *m);

/* Frees the scenario, its model and everything else it owns; NULL is a no-op. */
void scenario_destroy(struct scenario *sc);

/* One --set PATH=VALUE: a dotted path into the scenario ("solver.iterations",
 * "points.3.mass") and a value, read as JSON when it parses as JSON, else as a string. */
struct scenario_override {
    const char *path;
    const char *value;
};

/* The most points a scenario may have unless told otherwise (`--max-points`). */
#define SCENARIO_MAX_POINTS 50000000LL

/* How a scenario is loaded: the --set overrides, and the limits checked before anything is
 * allocated for the points: a scenario that would exceed one is refused (exit status 2) with
 * the memory it would need. scenario_options_default() gives no overrides,
 * SCENARIO_MAX_POINTS and the machine's memory (memory_available, core/memory.h). */
struct scenario_options {
    const struct scenario_override *ov;
    size_t nov;
    long long max_points; /* >= 1 */
    /* NULL, or [nov] the command-line option that gave each override, for messages: an error
     * in its value names the option rather than the file. "--steps": "catena: --steps: must be
     * at least 0 (got -5)"; "--set": "--set time.steps=-5: ..."; NULL: the file, as when
     * names is NULL (a sweep's overrides). */
    const char *const *names;
    /* The name of a scenario without "name" (NULL: its file name without ".json"); for a
     * label that is no file name, such as "<stdin>". */
    const char *default_name;
    double max_memory;    /* bytes a load and a run of the scenario may need; 0: no limit */
    /* When > 0, the number of points the scenario must make (the trajectory of the run it
     * describes holds that many: catena render and catenary), refused past it before the
     * model is built. */
    long long points_expected;
};

struct scenario_options scenario_options_default(void);

/* Reads and checks a scenario file, applies the overrides, and builds the scenario
 * (scenario/load.c). Returns a scenario the caller frees with scenario_destroy, or NULL with
 * err filled (code CATENA_EINPUT, also when the file cannot be read: exit status 2). */
struct scenario *scenario_load(const char *path, const struct scenario_override *ov, size_t nov,
                               struct catena_error *err);

/* The same from bytes in memory; label names the source in messages. */
struct scenario *scenario_parse(const char *label, const char *text, size_t len,
                                const struct scenario_override *ov, size_t nov,
                                struct catena_error *err);

/* The same two with options (overrides and limits). */
struct scenario *scenario_load_opts(const char *path, const struct scenario_options *o,
                                    struct catena_error *err);
struct scenario *scenario_parse_opts(const char *label, const char *text, size_t len,
                                     const struct scenario_options *o, struct catena_error *err);

#endif
