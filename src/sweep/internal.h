/* Private to the sweep files (sweep/sweep.c, sweep/collect.c, sweep/exec.c, sweep/emit.c): the
 * helpers they share. */
#ifndef CATENA_SWEEP_INTERNAL_H
#define CATENA_SWEEP_INTERNAL_H

#include <stddef.h>

struct sweep_plan;
struct cJSON;

/* A JSON value as sweep.csv cells and run names show it: numbers in their shortest exact
 * form, strings as they are, anything else as compact JSON. Malloc'd; NULL when out of
 * memory. */
char *sweep_value_cell(const struct cJSON *v);

/* The words of run i's command: PROGRAM run BASE --set S... -o RUN_DIR -q, then NULL. The
 * strings belong to the plan, except *run_dir (DIR/runs/NAME), which the caller frees
 * with the array. NULL when out of memory. */
char **sweep_run_argv(const struct sweep_plan *p, const char *dir, const char *program, size_t i,
                      char **run_dir);

#endif
