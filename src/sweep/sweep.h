/* Parameter sweeps (catena-sweep(5)): a sweep file names a base scenario and lists values for
 * some of its paths; it expands into runs of `catena run BASE --set PATH=VALUE...`, written
 * down as a plan (DIR/plan.json), run here (sweep/exec.c) or emitted as job scripts for GNU
 * parallel or Slurm (sweep/emit.c), and collected into DIR/sweep.csv (sweep/collect.c). */
#ifndef CATENA_SWEEP_H
#define CATENA_SWEEP_H

#include <stddef.h>

#include "core/error.h"

/* The most runs one sweep may expand to: far beyond what one machine or a Slurm array
 * (MaxArraySize is 1001 by default) takes, small enough that a typo in a product cannot
 * exhaust memory. */
#define SWEEP_MAX_RUNS 100000

/* One run: the overrides that make it and the values as sweep.csv shows them. */
struct sweep_run {
    char *name;   /* file-system safe and unique: "iterations=5,order=forward" */
    char **set;   /* [plan->naxes] "PATH=VALUE", as catena run --set takes it */
    char **cells; /* [plan->naxes] the varied values as sweep.csv writes them */
};

/* A sweep expanded: everything needed to run it anywhere and to collect its results. */
struct sweep_plan {
    char *sweep;          /* absolute path of the sweep file */
    char *base;           /* absolute path of the base scenario */
    char base_sha256[65]; /* hex SHA-256 of the base scenario's bytes when planned */
    char *version;        /* catena version that made the plan */
    size_t nfixed;
    char **fixed; /* [nfixed] "PATH=VALUE" overrides of every run, before the varied ones */
    size_t naxes;
    char **paths; /* [naxes] the varied paths, in the sweep file's order */
    size_t ncollect;
    char **collect; /* [ncollect] "FILE.PATH" values to collect */
    size_t nruns;
    struct sweep_run *runs; /* [nruns] in expansion order, the order of sweep.csv */
};

/* Reads and checks a sweep file, expands its runs and loads the base scenario with each
 * run's overrides, so that every run is known to load before any starts. Errors name the
 * file and the JSON path ("FILE: vary.solver.iterations[2]: ..."), or the run and the
 * scenario loader's message. Returns a plan the caller frees with sweep_plan_destroy, or
 * NULL with err set (CATENA_EINPUT for bad input). */
struct sweep_plan *sweep_load(const char *path, struct catena_error *err);

/* Writes the plan to DIR/plan.json (atomically). */
int sweep_plan_write(const struct sweep_plan *p, const char *dir, struct catena_error *err);

/* Reads DIR/plan.json back, checking it as strictly as a sweep file. */
struct sweep_plan *sweep_plan_read(const char *dir, struct catena_error *err);

void sweep_plan_destroy(struct sweep_plan *p);

/* How a run stands, as sweep.csv's status column says it. */
enum sweep_status {
    SWEEP_OK,      /* finished: summary.json says ok, for this plan's scenario and overrides */
    SWEEP_FAILED,  /* ran and did not finish (diverged, interrupted, non-zero exit) */
    SWEEP_MISSING, /* no summary.json: not run (yet), or stopped before writing one */
    SWEEP_STALE,   /* summary.json is from another scenario, overrides or catena version */
};

/* "ok", "failed", "missing", "stale". */
const char *sweep_status_name(enum sweep_status s);

/* A run's outcome. */
struct sweep_outcome {
    enum sweep_status status;
    int exit_code; /* the exit status of catena run; -1 when unknown */
    int reused;    /* 1: an earlier run's result, not run again */
    char why[512]; /* for a run that is not ok: the reason, one line */
};

/* DIR/runs/NAME for run i, malloc'd. */
char *sweep_run_dir(const struct sweep_plan *p, const char *dir, size_t i);

/* Judges run i from its run directory alone: summary.json's status, scenario hash,
 * overrides and catena version against the plan. exit_code is derived from the summary
 * (0 ok, 1 diverged, -1 otherwise). */
void sweep_check_run(const struct sweep_plan *p, const char *dir, size_t i,
                     struct sweep_outcome *o);

/* Writes DIR/sweep.csv (atomically): a header "VARIED...,COLLECTED...,status,exit_code,name"
 * and one row per run in plan order. out[i] is run i's outcome. For each collect path that
 * no run could provide, a line goes into *unfound (malloc'd, NULL when every path was found)
 * for the caller to report. */
int sweep_write_csv(const struct sweep_plan *p, const char *dir, const struct sweep_outcome *out,
                    char **unfound, struct catena_error *err);

/* ---- running a plan here (sweep/exec.c) ---- */

struct sweep_exec_options {
    const char *dir;     /* the sweep's output directory */
    const char *program; /* the catena program every run executes */
    int jobs;            /* runs at a time, at least 1 */
    /* Called as each run that was started ends (out[i].reused is set for every run before
     * the first call); may be NULL. */
    void (*done)(void *ctx, const struct sweep_plan *p, size_t i, const struct sweep_outcome *o);
    /* Called about every SWEEP_TICK seconds while runs go, for a progress display; may be
     * NULL (then the sweep sleeps until a run ends). */
    void (*tick)(void *ctx);
    void *ctx;
};

#define SWEEP_TICK 0.25 /* s */

/* Writes DIR/plan.json, then starts every run without a finished result (sweep_check_run
 * says ok: those are reused), at most o->jobs at a time, each as
 * `PROGRAM run BASE --set PATH=VALUE... -o DIR/runs/NAME -q` (PROGRAM looked up in PATH when
 * it has no slash) with its standard output and error in DIR/runs/NAME/catena.log. A run
 * that fails does not stop the others; one that cannot be started (no process) fails and
 * no run starts after it. Fills out[p->nruns]. On SIGINT or SIGTERM it starts no more runs,
 * passes the signal on to the running ones, waits for them and sets *stop_signal (else 0);
 * runs never started are missing. Returns CATENA_OK, or CATENA_EFAIL with err set when the
 * directory or plan.json cannot be written (then out is not filled). */
int sweep_exec(const struct sweep_plan *p, const struct sweep_exec_options *o,
               struct sweep_outcome *out, int *stop_signal, struct catena_error *err);

/* The absolute path of the running program (from /proc/self/exe, else argv0 resolved
 * against the current directory or PATH), malloc'd; NULL when it cannot be found. */
char *sweep_find_program(const char *argv0);

/* The program as the runs name it, malloc'd (NULL when out of memory): a name without a
 * slash stays a name (looked up in PATH where it runs); a relative path becomes absolute,
 * so that jobs run from any directory find it. */
char *sweep_program_path(const char *program);

/* ---- job lists for other engines (sweep/emit.c) ---- */

enum sweep_engine {
    SWEEP_PARALLEL, /* GNU parallel: jobs.txt and run-parallel.sh */
    SWEEP_SLURM,    /* Slurm: jobs.txt and sweep.sbatch, a job array */
};

/* Run i's command line, `PROGRAM run BASE --set ... -o DIR/runs/NAME -q`, each word quoted
 * for sh where needed; malloc'd, NULL when out of memory. */
char *sweep_command(const struct sweep_plan *p, const char *dir, const char *program, size_t i);

/* CATENA_EINPUT with err set when a word of a run's command (the program, the base
 * scenario's path, an override, the run's directory) has a control character: a line of
 * jobs.txt cannot carry one, as sh, GNU parallel and sed read a newline as the end of a
 * command whatever the quotes around it. */
int sweep_check_lines(const struct sweep_plan *p, const char *dir, const char *program,
                      struct catena_error *err);

/* Writes into dir (created if missing, then made absolute so that the jobs run from any
 * directory) plan.json, jobs.txt (line i+1 is run i's command) and the engine's script,
 * after sweep_check_lines. program is the catena the jobs run (an absolute path, or a name
 * found in PATH). */
int sweep_emit(const struct sweep_plan *p, enum sweep_engine engine, const char *dir,
               const char *program, struct catena_error *err);

/* ---- the sweep file's JSON Schema (sweep/schema.c) ---- */

/* As scenario_schema (scenario/schema.h), for sweep files. */
struct cJSON;
struct cJSON *sweep_schema(struct catena_error *err);

#endif
