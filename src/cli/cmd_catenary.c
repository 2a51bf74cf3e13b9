/* `catena catenary RUN_DIR|TRAJECTORY`: the catenary report (analysis/report_catenary.h) on one
 * frame of a finished run's hanging chains, as text or JSON on stdout, and its plot when asked. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cmd.h"

#include <errno.h>
#include <getopt.h> /* optind, optarg */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/report_catenary.h"
#include "core/path.h"
#include "core/range.h"
#include "core/stop.h"
#include "io/rundir.h"

enum {
    OPT_BODY = CHAR_MAX + 1,
    OPT_POINTS,
    OPT_STEP,
    OPT_JSON,
    OPT_PLOT,
    OPT_SCENARIO,
};

static int cmd_catenary(int argc, char **argv);

static const struct cmd_option catenary_options[] = {
    {.name = "body",
     .key = OPT_BODY,
     .arg = "NAME",
     .help = "the rope body NAME (default: every rope with both ends\npinned)"},
    {.name = "points",
     .key = OPT_POINTS,
     .arg = "RANGE",
     .help = "the chain of points FIRST..LAST (global indices)"},
    {.name = "step",
     .key = OPT_STEP,
     .arg = "N|last",
     .help = "the frame at step N (default: the last one)",
     .complete = "last"},
    {.name = "json", .key = OPT_JSON, .help = "print catenary.json's form instead of the text"},
    {.name = "plot",
     .key = OPT_PLOT,
     .arg = "FILE.png",
     .help = "also draw the chain, the curves and the deviation",
     .complete = CMD_FILES},
    {.name = "scenario",
     .key = OPT_SCENARIO,
     .arg = "FILE",
     .help = "the scenario of a trajectory file (default: the\nscenario.json beside it)",
     .complete = CMD_JSON},
    {NULL},
};

const struct cmd_spec cmd_catenary_spec = {
    .name = "catenary",
    .run = cmd_catenary,
    .operands = "RUN_DIR|TRAJECTORY",
    .summary = "catenary report on a finished run's hanging chains",
    .about = "Fit y = y0 + a cosh((x - x0)/a) to the hanging chains of one frame of a finished\n"
             "run (a run directory, or a trajectory file with its scenario) and compare it\n"
             "with the exact discrete chain; the report goes to standard output.",
    .options = catenary_options,
    .example = "catena catenary runs/hanging-chain --json",
    .operand_complete = CMD_FILES,
};

/* "last" (-1) or a step number. */
static int parse_step(const char *arg, long *step)
{
    char *end;
    if (strcmp(arg, "last") == 0) {
        *step = -1;
        return 0;
    }
    errno = 0;
    *step = strtol(arg, &end, 10);
    if (end != arg && !*end && errno == 0 && *step >= 0 && arg[0] != '+')
        return 0;
    fprintf(stderr, "catena: --step: expected a step number or 'last', got '%s'\n", arg);
    return -1;
}

/* The scenario of a run directory or trajectory: --scenario, else the scenario.json the run
 * directory's manifest lists (io/rundir.h), or the one beside the file. Returns a malloc'd
 * path, or NULL after saying what is wrong. */
static char *catenary_scenario(const char *target, const char *given, int is_dir)
{
    if (given)
        return strdup(given);
    if (is_dir) {
        struct catena_error err;
        struct rundir *rd;
        char *path = NULL;
        if (rundir_open(target, &rd, &err) == CATENA_OK) {
            path = rundir_path(rd, "scenario.json", &err);
            rundir_close(rd);
        }
        if (!path)
            cmd_report(&err);
        return path;
    }
    const char *slash = strrchr(target, '/');
    const int dirlen = slash ? (int)(slash - target) : 1;
    const char *dir = slash ? target : ".";
    const size_t n = (size_t)dirlen + sizeof "/scenario.json";
    char *path = malloc(n);
    if (!path)
        return NULL;
    snprintf(path, n, "%.*s/scenario.json", dirlen, dir);
    if (access(path, F_OK) == 0)
        return path;
    fprintf(stderr,
            "catena: %s: no scenario.json beside the trajectory (runs write one; pass the "
            "scenario with --scenario FILE)\n",
            target);
    free(path);
    return NULL;
}

/* Writes the plot to FILE, split into the directory and name png_write_raster takes. */
static int catenary_plot(const struct report_catenary *r, const char *file,
                         struct catena_error *err)
{
    char *dir = path_dir(file);
    if (!dir)
        return error_set(err, CATENA_EFAIL, "out of memory");
    const int rc = report_catenary_plot(r, dir, path_base(file), err);
    free(dir);
    return rc;
}

/* The report for one frame of a run, printed on stdout. */
static int catenary_report(const char *target, const char *scenario, long step,
                           const struct report_catenary_options *o, int json, const char *plot)
{
    struct catena_error err;
    struct scenario_options so = scenario_options_default();
    so.points_expected = cmd_trajectory_points(target);
    struct scenario *sc = scenario_load_opts(scenario, &so, &err);
    if (!sc)
        return cmd_report(&err);
    const struct model *m = sc->model;
    struct report_catenary_options ro = *o;
    ro.scenario = sc->provenance.name;
    if (ro.first >= 0 && ro.last == RANGE_OPEN) /* --points I..: to the last point */
        ro.last = m->npoints ? (long)m->npoints - 1 : 0;
    struct report_catenary *r = NULL;
    vec3 *x = malloc((m->npoints ? m->npoints : 1) * sizeof *x);
    long at = 0;
    double t = 0;
    int status = x ? CATENA_OK : error_set(&err, CATENA_EFAIL, "out of memory");
    if (status == CATENA_OK)
        status = report_catenary_read_frame(target, sc, step, x, &at, &t, &err);
    if (status == CATENA_OK)
        status = report_catenary_build(m, x, at, t, &ro, &r, &err);
    if (status == CATENA_OK && plot)
        status = catenary_plot(r, plot, &err);
    if (status != CATENA_OK) {
        cmd_report(&err);
    } else if (json) {
        char *text = report_catenary_json(r, target);
        if (text)
            puts(text);
        else
            status = cmd_no_memory();
        free(text);
    } else {
        report_catenary_text(stdout, r, target);
    }
    report_catenary_destroy(r);
    free(x);
    scenario_destroy(sc);
    return status;
}

static int cmd_catenary(int argc, char **argv)
{
    struct report_catenary_options o = {.first = -1, .last = -1};
    const char *scenario = NULL, *plot = NULL;
    long step = -1;
    int json = 0, c;
    while ((c = cmd_getopt(&cmd_catenary_spec, argc, argv)) != -1) {
        switch (c) {
        case CMD_OPT_HELP:
            return EXIT_SUCCESS;
        case OPT_BODY:
            o.body = optarg;
            break;
        case OPT_POINTS:
            if (cmd_parse_range("--points", optarg, &o.first, &o.last))
                return cmd_usage_error();
            break;
        case OPT_STEP:
            if (parse_step(optarg, &step))
                return cmd_usage_error();
            break;
        case OPT_JSON:
            json = 1;
            break;
        case OPT_SCENARIO:
            scenario = optarg;
            break;
        case OPT_PLOT:
            plot = optarg;
            break;
        default: /* CMD_OPT_BAD: reported */
            return EXIT_USAGE;
        }
    }
    if (cmd_one_operand(argc, argv, "catenary", "RUN_DIR or TRAJECTORY"))
        return cmd_usage_error();
    if (o.body && o.first >= 0) {
        fputs("catena: catenary: --body and --points choose the chain two ways; give one\n",
              stderr);
        return cmd_usage_error();
    }
    const char *target = argv[optind];
    struct stat st;
    if (stat(target, &st) != 0) {
        fprintf(stderr, "catena: %s: %s\n", target, strerror(errno));
        return EXIT_USAGE;
    }
    /* a signal ends the reading cleanly, and the plot's temporary file goes */
    struct stop_handlers stop;
    stop_catch(&stop);
    char *path = catenary_scenario(target, scenario, S_ISDIR(st.st_mode));
    int status = EXIT_USAGE;
    if (path) {
        o.label = target;
        status = catenary_report(target, path, step, &o, json, plot);
    }
    if (stop_requested() && status != EXIT_SUCCESS)
        status = stop_exit_status(stop_requested());
    free(path);
    stop_restore(&stop);
    return status;
}
