/* `catena sweep SWEEP` and `catena sweep collect DIR`: a parameter sweep (sweep/sweep.h) run here,
 * emitted for GNU parallel or Slurm, or listed (--dry-run); the runs that did not finish are
 * named on stderr and in DIR/sweep.csv, and make the exit status 1. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cmd.h"

#include <errno.h>
#include <getopt.h> /* optind, optarg */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/procpool.h"
#include "core/progress.h"
#include "core/stop.h"
#include "core/text.h"
#include "sweep/sweep.h"

enum {
    OPT_EMIT = CHAR_MAX + 1,
    OPT_CATENA,
};

static int cmd_sweep(int argc, char **argv);
static int cmd_sweep_collect(int argc, char **argv);

static const struct cmd_option sweep_options[] = {
    {.name = "output",
     .key = 'o',
     .arg = "DIR",
     .help = "the sweep's directory (default sweeps/NAME)",
     .complete = CMD_DIRS},
    {.name = "jobs",
     .key = 'j',
     .arg = "N",
     .help = "at most N runs at a time (default: the CPUs)"},
    {.name = "emit",
     .key = OPT_EMIT,
     .arg = "ENGINE",
     .help = "write the jobs for ENGINE (parallel or slurm) instead\nof running them",
     .complete = "parallel slurm"},
    {.name = "catena",
     .key = OPT_CATENA,
     .arg = "PROGRAM",
     .help = "the catena the runs use (default: this one)",
     .complete = CMD_FILES},
    {.name = "dry-run", .key = 'n', .help = "check the sweep and print its runs' commands"},
    {.name = "quiet",
     .key = 'q',
     .help = "no progress line (shown only when stderr is a terminal)\nand no closing line"},
    {NULL},
};

const struct cmd_spec cmd_sweep_spec = {
    .name = "sweep",
    .run = cmd_sweep,
    .operands = "SWEEP",
    .summary = "run a parameter sweep (or emit it for parallel, Slurm)",
    .about = "Expand SWEEP (a JSON file, man catena-sweep) into runs of its base scenario\n"
             "with --set overrides, run them here (a finished one is reused), and write\n"
             "DIR/sweep.csv: one row per run with its values, what it collects and its status.",
    .options = sweep_options,
    .example = "catena sweep scenarios/sweeps/solvers-vs-catenary.json -j 4 -o sweeps/solvers",
    .operand_complete = CMD_JSON,
};

static const struct cmd_option sweep_collect_options[] = {
    {.name = "quiet", .key = 'q', .help = "no closing line"},
    {NULL},
};

const struct cmd_spec cmd_sweep_collect_spec = {
    .name = "sweep collect",
    .run = cmd_sweep_collect,
    .operands = "DIR",
    .summary = "write DIR/sweep.csv from the runs of a sweep",
    .about = "Judge every run of the sweep in DIR (its plan.json) from its run directory and\n"
             "write DIR/sweep.csv, for runs made elsewhere (GNU parallel, Slurm).",
    .options = sweep_collect_options,
    .example = "catena sweep collect sweeps/solvers",
    .operand_complete = CMD_DIRS,
};

/* What a sweep has done so far, for its progress line (on a terminal) and its closing line. */
struct tally {
    const char *dir;
    const struct sweep_outcome *out; /* [nruns], whose reused flags sweep_exec sets first */
    size_t nruns;
    struct progress pg;
    int live;      /* a progress line is kept: stderr is a terminal and no -q */
    size_t ended;  /* runs run that have ended */
    size_t failed; /* of those, not ok */
    double start;  /* monotonic clock at the start, s */
};

/* "run 3/10 (30%)  1 failed  2 reused  12s elapsed  36s left" */
static void tally_draw(struct tally *t, int force)
{
    const double now = clock_monotonic_s(), elapsed = now - t->start;
    size_t reused = 0;
    for (size_t i = 0; i < t->nruns; i++)
        reused += t->out[i].reused;
    const size_t todo = t->nruns - reused;
    char line[256], took[32], left[32];
    int n = snprintf(line, sizeof line, "run %zu/%zu (%.0f%%)", t->ended, todo,
                     todo ? 100.0 * (double)t->ended / (double)todo : 100.0);
    if (t->failed)
        n += snprintf(line + n, sizeof line - (size_t)n, "  %zu failed", t->failed);
    if (reused)
        n += snprintf(line + n, sizeof line - (size_t)n, "  %zu reused", reused);
    progress_duration(took, sizeof took, elapsed);
    progress_duration(left, sizeof left,
                      t->ended ? elapsed / (double)t->ended * (double)(todo - t->ended) : 1e300);
    snprintf(line + n, sizeof line - (size_t)n, "  %s elapsed  %s left", took, left);
    progress_show(&t->pg, now, line, force);
}

static void tally_tick(void *ctx)
{
    struct tally *t = ctx;
    if (t->live)
        tally_draw(t, 0);
}

/* Counts a run as it ends, and names one that did not finish (above the progress line). */
static void tally_run(void *ctx, const struct sweep_plan *p, size_t i,
                      const struct sweep_outcome *o)
{
    struct tally *t = ctx;
    t->ended++;
    t->failed += o->status != SWEEP_OK;
    if (t->live)
        progress_end(&t->pg);
    /* The reason quotes summary.json, which whoever shares the directory may have written. */
    char why[sizeof o->why];
    text_clean(why, sizeof why, o->why);
    if (o->status != SWEEP_OK && o->exit_code >= 0)
        fprintf(stderr, "catena: %s/runs/%s: %s (exit %d): %s\n", t->dir, p->runs[i].name,
                sweep_status_name(o->status), o->exit_code, why);
    else if (o->status != SWEEP_OK)
        fprintf(stderr, "catena: %s/runs/%s: %s: %s\n", t->dir, p->runs[i].name,
                sweep_status_name(o->status), why);
    if (t->live)
        tally_draw(t, 1);
}

/* The closing line: "catena: sweep: 12 runs: 9 ok, 1 failed, 2 reused (DIR/sweep.csv, 3s)",
 * with the runs missing or stale when there are any; collect has nothing reused or timed. */
static void tally_close(const struct tally *t, const struct sweep_plan *p,
                        const struct sweep_outcome *out, const char *what, int timed)
{
    size_t n[4] = {0}, reused = 0; /* by enum sweep_status */
    for (size_t i = 0; i < p->nruns; i++) {
        reused += out[i].reused;
        n[out[i].status] += !out[i].reused;
    }
    fprintf(stderr, "catena: %s: %zu runs: %zu ok, %zu failed", what, p->nruns, n[SWEEP_OK],
            n[SWEEP_FAILED]);
    if (timed)
        fprintf(stderr, ", %zu reused", reused);
    if (n[SWEEP_MISSING])
        fprintf(stderr, ", %zu missing", n[SWEEP_MISSING]);
    if (n[SWEEP_STALE])
        fprintf(stderr, ", %zu stale", n[SWEEP_STALE]);
    char took[32];
    progress_duration(took, sizeof took, clock_monotonic_s() - t->start);
    fprintf(stderr, " (%s/sweep.csv%s%s)\n", t->dir, timed ? ", " : "", timed ? took : "");
}

/* Writes DIR/sweep.csv from the outcomes, reports collect paths found nowhere, and maps the
 * outcomes to an exit status: 1 when any run is not ok. */
static int sweep_finish(const struct sweep_plan *p, const char *dir,
                        const struct sweep_outcome *out, const char *label)
{
    struct catena_error err;
    char *unfound = NULL;
    if (sweep_write_csv(p, dir, out, &unfound, &err))
        return cmd_report(&err);
    for (char *line = unfound; line && *line;) {
        const size_t n = strcspn(line, "\n");
        const int last = line[n] == '\0';
        line[n] = '\0';
        fprintf(stderr, "catena: %s\n", text_clean(line, n + 1, line));
        line += last ? n : n + 1;
    }
    free(unfound);
    size_t bad = 0;
    for (size_t i = 0; i < p->nruns; i++)
        bad += out[i].status != SWEEP_OK;
    if (bad == 0)
        return EXIT_SUCCESS;
    fprintf(stderr, "catena: %s: %zu of %zu runs did not finish (see %s/sweep.csv)\n", label, bad,
            p->nruns, dir);
    return CATENA_EFAIL;
}

/* catena sweep collect DIR */
static int cmd_sweep_collect(int argc, char **argv)
{
    int c, quiet = 0;
    while ((c = cmd_getopt(&cmd_sweep_collect_spec, argc, argv)) != -1) {
        if (c == CMD_OPT_HELP)
            return EXIT_SUCCESS;
        if (c != 'q')
            return EXIT_USAGE; /* CMD_OPT_BAD: reported */
        quiet = 1;
    }
    if (cmd_one_operand(argc, argv, "sweep collect", "DIR"))
        return cmd_usage_error();
    const char *dir = argv[optind];
    struct catena_error err;
    struct sweep_plan *p = sweep_plan_read(dir, &err);
    if (!p)
        return cmd_report(&err);
    struct sweep_outcome *out = calloc(p->nruns ? p->nruns : 1, sizeof *out);
    struct stop_handlers stop;
    int status = EXIT_SUCCESS;
    stop_catch(&stop); /* a signal ends it between runs, sweep.csv's temporary removed */
    if (!out) {
        status = cmd_no_memory();
    } else {
        struct tally t = {.dir = dir, .out = out, .nruns = p->nruns, .start = clock_monotonic_s()};
        for (size_t i = 0; i < p->nruns && !stop_requested(); i++) {
            sweep_check_run(p, dir, i, &out[i]);
            tally_run(&t, p, i, &out[i]);
        }
        if (stop_requested()) {
            fprintf(stderr, "catena: %s: sweep collect interrupted by %s: sweep.csv not written\n",
                    dir, stop_signal_name(stop_requested()));
        } else {
            status = sweep_finish(p, dir, out, dir); /* stopped inside: it says so */
            if (!quiet && status != CATENA_EINPUT && !stop_requested())
                tally_close(&t, p, out, "sweep collect", 0);
        }
    }
    if (stop_requested())
        status = stop_exit_status(stop_requested());
    stop_restore(&stop);
    free(out);
    sweep_plan_destroy(p);
    return status;
}

/* sweeps/NAME for SWEEP.json at PATH/NAME.json. */
static char *sweep_default_dir(const char *file)
{
    const char *slash = strrchr(file, '/'), *name = slash ? slash + 1 : file;
    size_t n = strlen(name);
    if (n > 5 && !strcmp(name + n - 5, ".json"))
        n -= 5;
    char *dir = malloc(n + sizeof "sweeps/");
    if (dir)
        snprintf(dir, n + sizeof "sweeps/", "sweeps/%.*s", (int)n, name);
    return dir;
}

/* Runs the plan here and writes sweep.csv; 128+N when a signal N stopped it. */
static int sweep_here(const struct sweep_plan *p, const char *dir, const char *program, int jobs,
                      const char *label, int quiet)
{
    struct catena_error err;
    struct sweep_outcome *out = calloc(p->nruns, sizeof *out);
    int sig = 0, status;
    if (!out)
        return cmd_no_memory();
    struct tally t = {.dir = dir, .out = out, .nruns = p->nruns, .start = clock_monotonic_s()};
    t.live = !quiet && isatty(STDERR_FILENO);
    if (t.live)
        progress_start(&t.pg, stderr, 0, t.start);
    const struct sweep_exec_options o = {.dir = dir,
                                         .program = program,
                                         .jobs = jobs,
                                         .done = tally_run,
                                         .tick = t.live ? tally_tick : NULL,
                                         .ctx = &t};
    status = sweep_exec(p, &o, out, &sig, &err);
    if (t.live)
        progress_end(&t.pg);
    if (status != CATENA_OK) {
        cmd_report(&err);
    } else {
        if (!quiet)
            tally_close(&t, p, out, "sweep", 1);
        status = sweep_finish(p, dir, out, label);
        if (sig)
            status = 128 + sig;
    }
    free(out);
    return status;
}

static int cmd_sweep(int argc, char **argv)
{
    const char *dir = NULL, *emit = NULL, *catena = NULL;
    int jobs = procpool_cpus(), dry_run = 0, quiet = 0, c;
    while ((c = cmd_getopt(&cmd_sweep_spec, argc, argv)) != -1) {
        char *end = NULL;
        switch (c) {
        case CMD_OPT_HELP:
            return EXIT_SUCCESS;
        case 'o':
            if (cmd_parse_output_dir(optarg, &dir))
                return cmd_usage_error();
            break;
        case 'j':
            errno = 0;
            long n = strtol(optarg, &end, 10);
            if (end == optarg || *end || errno || n < 1 || n > 4096) {
                fprintf(stderr,
                        "catena: --jobs: expected a whole number from 1 to 4096, got '%s'\n",
                        optarg);
                return cmd_usage_error();
            }
            jobs = (int)n;
            break;
        case 'n':
            dry_run = 1;
            break;
        case OPT_EMIT:
            if (strcmp(optarg, "parallel") != 0 && strcmp(optarg, "slurm") != 0) {
                fprintf(stderr, "catena: --emit: unknown engine '%s' (valid: parallel, slurm)\n",
                        optarg);
                return cmd_usage_error();
            }
            emit = optarg;
            break;
        case OPT_CATENA:
            catena = optarg;
            break;
        case 'q':
            quiet = 1;
            break;
        default: /* CMD_OPT_BAD: reported */
            return EXIT_USAGE;
        }
    }
    if (cmd_one_operand(argc, argv, "sweep", "SWEEP"))
        return cmd_usage_error();
    const char *file = argv[optind];
    struct catena_error err;
    /* The program the runs execute, by its absolute path (or a name looked up in PATH). */
    char *self = catena ? sweep_program_path(catena) : sweep_find_program(cmd_invoked_as);
    char *default_dir = dir ? NULL : sweep_default_dir(file);
    struct sweep_plan *p = NULL;
    int status;
    if (catena && !self) {
        status = cmd_no_memory();
        goto done;
    }
    if (!self) {
        status = cmd_report(&(struct catena_error){
            CATENA_EFAIL, "sweep: cannot find the catena program to run (give --catena)"});
        goto done;
    }
    if (!dir && !(dir = default_dir)) {
        status = cmd_no_memory();
        goto done;
    }
    if (!(p = sweep_load(file, &err))) {
        status = cmd_report(&err);
        goto done;
    }
    if (dry_run) {
        /* The listing is what jobs.txt would hold: one command a line, or a refusal. */
        status = sweep_check_lines(p, dir, self, &err) ? cmd_report(&err) : EXIT_SUCCESS;
        for (size_t i = 0; i < p->nruns && status == EXIT_SUCCESS; i++) {
            char *cmd = sweep_command(p, dir, self, i);
            if (cmd)
                puts(cmd);
            else
                status = cmd_no_memory();
            free(cmd);
        }
    } else if (emit) {
        enum sweep_engine e = !strcmp(emit, "slurm") ? SWEEP_SLURM : SWEEP_PARALLEL;
        status = sweep_emit(p, e, dir, self, &err) ? cmd_report(&err) : EXIT_SUCCESS;
    } else {
        status = sweep_here(p, dir, self, jobs, file, quiet);
    }
done:
    sweep_plan_destroy(p);
    free(default_dir);
    free(self);
    return status;
}
