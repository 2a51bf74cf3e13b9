/* catena regress: a suite of scenarios run and compared with their golden runs. A suite is a
 * folder: every scenario file in it (*.json, found recursively; SUITE/golden/, names
 * starting with '.' and run directories left out) is a case, named by its path in the suite without
 * ".json"
 * ("pendulum", "ropes/long"), whose golden run is the run directory SUITE/golden/NAME/.
 * Each case is run as a child process (`catena run FILE -o OUT/NAME -q`, N at a time), then
 * judged in suite order: it passes when it ran, its checks passed and it matches its golden
 * within tolerance (io/compare.h). --update writes the goldens instead: the new ones and
 * the ones that changed at all, each replaced whole, and none unless every case ran.
 *
 * Glossary
 *   case     one scenario of the suite, its fresh run and its golden
 *   golden   the run directory a case is compared with, SUITE/golden/NAME/
 *   bless    make a fresh run a case's golden
 *   orphan   a golden whose scenario is gone */
#ifndef CATENA_REGRESS_H
#define CATENA_REGRESS_H

#include <stddef.h>

#include "core/error.h"
#include "io/compare.h"

enum regress_verdict {
    REGRESS_PASSED,
    REGRESS_FAILED, /* the run failed or failed its checks, differs from its golden (in
                       values, or in shape: points, steps, files), or has no golden */
    REGRESS_ERROR,  /* it could not be judged: the scenario does not load, or it was never
                       run */
};

/* With --update: what became of the case's golden. */
enum regress_blessing {
    REGRESS_KEPT,      /* not written: some case did not run (or no --update) */
    REGRESS_UNCHANGED, /* the fresh run equals it exactly */
    REGRESS_CHANGED,   /* replaced by the fresh run */
    REGRESS_NEW,       /* there was none: the fresh run is it now */
};

struct regress_case {
    char *name;     /* the scenario's path in the suite without ".json" */
    char *scenario; /* SUITE/NAME.json */
    char *golden;   /* SUITE/golden/NAME */
    char *run;      /* OUT/NAME, the fresh run */
    char *log;      /* OUT/NAME.log, what the run printed */
    int exit_code;  /* catena run's exit status; -1 when it never ran */
    double seconds; /* wall-clock seconds of the run */
    enum regress_verdict verdict;
    const char *kind;   /* what failed: "run", "scenario", "checks", "golden" (none), "files",
                           "compare" (another shape), or the part of the comparison that
                           differs ("positions"); NULL when it passed */
    char message[1024]; /* what failed, one line; "" when it passed */
    char *report;       /* the details, several lines (failed checks, comparison); or NULL */
    char *output;       /* the run's output (its last 64 KiB), or NULL when it printed none */
    enum regress_blessing blessing;
    char change[1024]; /* CHANGED: what changed, one line */
};

struct regress_options {
    const char *suite;          /* SUITE_DIR */
    const char *out;            /* the fresh runs go to OUT/NAME (created as needed) */
    const char *program;        /* the catena program the runs execute */
    int jobs;                   /* runs at a time, at least 1 */
    int update;                 /* 1: write new and changed goldens */
    struct compare_options cmp; /* the tolerances of the comparison */
    /* Called once a case is judged (with --update, once its golden is settled), in suite
     * order whatever the order runs end in; may be NULL. */
    void (*judged)(void *ctx, const struct regress_case *c);
    void *ctx;
};

struct regress_result {
    struct regress_case *cases; /* [n] in suite order: names in byte order */
    size_t n;
    char **orphans; /* [norphans] goldens without a scenario, by name */
    size_t norphans;
    size_t count[3];   /* cases by verdict */
    size_t blessed[4]; /* cases by blessing */
    int stop_signal;   /* SIGINT or SIGTERM stopped it; 0 when it ran to the end */
    double seconds;    /* wall-clock seconds of the whole suite */
};

/* Finds the cases of the suite and its orphans into *r (regress/suite.c). CATENA_EINPUT when
 * SUITE is not a folder, holds no scenario, or holds a scenario whose golden would lie
 * inside another's (NAME.json beside a folder NAME/ of scenarios). */
int regress_find(const char *suite, struct regress_result *r, struct catena_error *err);

/* Runs and judges the cases regress_find found (and with o->update writes the goldens).
 * CATENA_OK when every case passed (or, with --update, every golden is settled), CATENA_EFAIL
 * when some did not (or, with --update, a run failed and no golden was written: err says
 * so), 128 + N when signal N stopped it (while writing goldens: after the one being
 * written). */
int regress_run(const struct regress_options *o, struct regress_result *r,
                struct catena_error *err);

/* Writes the JUnit report of r: one test case per case, classname SUITE. */
int regress_write_junit(const char *path, const struct regress_options *o,
                        const struct regress_result *r, struct catena_error *err);

/* "SUITE/golden/NAME has no scenario SUITE/NAME.json: ...", malloc'd (NULL when out of
 * memory): what a report says of the orphan NAME. */
char *regress_orphan_message(const char *suite, const char *name);

/* Frees what r holds; r is empty afterwards. */
void regress_free(struct regress_result *r);

/* ---- parts (regress/judge.c, regress/golden.c) ---- */

/* Judges case c once its run has ended: its exit status, its checks (summary.json), its
 * golden. */
void regress_judge(const struct regress_options *o, struct regress_case *c);

/* With --update, once every case ran: compares c with its golden exactly and blesses it when
 * it is new or changed. CATENA_OK, or CATENA_EFAIL when the golden cannot be written. */
int regress_bless(const struct regress_options *o, struct regress_case *c,
                  struct catena_error *err);

/* Replaces the directory golden, whole, by a copy of the run directory run's files (a fresh
 * directory beside it, then an atomic exchange). */
int regress_golden_write(const char *run, const char *golden, struct catena_error *err);

/* How many files the golden has and the run did not write, and unless lost_only the run
 * wrote and the golden lacks (regular files, not those starting with '.'), said in msg
 * ("the run did not write trajectory.npy; the golden lacks model.json"); 0 when none. A file
 * the golden lacks fails nothing (a newer catena writes more; --update adds it); one the run
 * no longer writes does. */
size_t regress_golden_files_differ(const char *run, const char *golden, int lost_only, char *msg,
                                   size_t size);

#endif
