/* `catena sweep SWEEP` and `catena sweep collect DIR`: a parameter sweep (sweep/sweep.h) run here,
 * emitted for GNU parallel or Slurm, or listed (--dry-run); the runs that did not finish are
 * named on stderr and in DIR/sweep.csv, and make the exit status 1. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cmd.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "sweep/sweep.h"

enum {
    OPT_EMIT = CHAR_MAX + 1,
    OPT_CATENA,
};

static const struct option sweep_longopts[] = {
    {"output", required_argument, NULL, 'o'},
    {"jobs", required_argument, NULL, 'j'},
    {"emit", required_argument, NULL, OPT_EMIT},
    {"catena", required_argument, NULL, OPT_CATENA},
    {"dry-run", no_argument, NULL, 'n'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* Prints a run of a sweep that did not finish, as it ends. */
static void sweep_report_run(void *ctx, const struct sweep_plan *p, size_t i,
                             const struct sweep_outcome *o)
{
    const char *dir = ctx;
    if (o->status == SWEEP_OK)
        return;
    /* The reason quotes summary.json, which whoever shares the directory may have written. */
    char why[sizeof o->why];
    text_clean(why, sizeof why, o->why);
    if (o->exit_code >= 0)
        fprintf(stderr, "catena: %s/runs/%s: %s (exit %d): %s\n", dir, p->runs[i].name,
                sweep_status_name(o->status), o->exit_code, why);
    else
        fprintf(stderr, "catena: %s/runs/%s: %s: %s\n", dir, p->runs[i].name,
                sweep_status_name(o->status), why);
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
    if (argc != 4) {
        fputs(argc < 4 ? "catena: sweep collect: missing DIR\n"
                       : "catena: sweep collect: expected one DIR\n",
              stderr);
        return cmd_usage_error();
    }
    const char *dir = argv[3];
    struct catena_error err;
    struct sweep_plan *p = sweep_plan_read(dir, &err);
    if (!p)
        return cmd_report(&err);
    struct sweep_outcome *out = calloc(p->nruns ? p->nruns : 1, sizeof *out);
    int status;
    if (!out) {
        status = cmd_no_memory();
    } else {
        for (size_t i = 0; i < p->nruns; i++) {
            sweep_check_run(p, dir, i, &out[i]);
            sweep_report_run((void *)dir, p, i, &out[i]);
        }
        status = sweep_finish(p, dir, out, dir);
    }
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
                      const char *label)
{
    struct catena_error err;
    struct sweep_outcome *out = calloc(p->nruns, sizeof *out);
    int sig = 0, status;
    if (!out)
        return cmd_no_memory();
    const struct sweep_exec_options o = {
        .dir = dir, .program = program, .jobs = jobs, .done = sweep_report_run, .ctx = (void *)dir};
    status = sweep_exec(p, &o, out, &sig, &err);
    if (status != CATENA_OK) {
        cmd_report(&err);
    } else {
        status = sweep_finish(p, dir, out, label);
        if (sig)
            status = 128 + sig;
    }
    free(out);
    return status;
}

int cmd_sweep(int argc, char **argv)
{
    const char *dir = NULL, *emit = NULL, *catena = NULL;
    int jobs = sweep_cpus(), dry_run = 0, c;
    if (argc > 2 && !strcmp(argv[2], "collect"))
        return cmd_sweep_collect(argc, argv);
    optind = 2; /* after "catena sweep" */
    while ((c = getopt_long(argc, argv, "hj:no:", sweep_longopts, NULL)) != -1) {
        char *end = NULL;
        switch (c) {
        case 'h':
            cmd_usage(stdout);
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
        default:
            return cmd_usage_error();
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
        status = sweep_here(p, dir, self, jobs, file);
    }
done:
    sweep_plan_destroy(p);
    free(default_dir);
    free(self);
    return status;
}
