/* `catena catenary RUN_DIR|TRAJECTORY`: the catenary report (analysis/report_catenary.h) on one
 * frame of a finished run's hanging chains, as text or JSON on stdout, and its plot when asked. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cmd.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/report_catenary.h"

enum {
    OPT_BODY = CHAR_MAX + 1,
    OPT_POINTS,
    OPT_STEP,
    OPT_JSON,
    OPT_PLOT,
    OPT_SCENARIO,
};

static const struct option catenary_longopts[] = {
    {"body", required_argument, NULL, OPT_BODY},
    {"points", required_argument, NULL, OPT_POINTS},
    {"step", required_argument, NULL, OPT_STEP},
    {"json", no_argument, NULL, OPT_JSON},
    {"plot", required_argument, NULL, OPT_PLOT},
    {"scenario", required_argument, NULL, OPT_SCENARIO},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* "I..J" with 0 <= I < J. */
static int parse_points(const char *arg, long *first, long *last)
{
    char *end;
    errno = 0;
    *first = strtol(arg, &end, 10);
    if (end != arg && strncmp(end, "..", 2) == 0 && *first >= 0 && arg[0] != '+') {
        const char *j = end + 2;
        *last = strtol(j, &end, 10);
        if (end != j && !*end && *j != '+' && *j != '-' && errno == 0 && *last > *first)
            return 0;
    }
    fprintf(stderr, "catena: --points: expected I..J with point indices 0 <= I < J, got '%s'\n",
            arg);
    return -1;
}

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

/* The scenario of a run directory or trajectory: --scenario, else scenario.json in the
 * directory or beside the file. Returns a malloc'd path, or NULL after saying what to pass. */
static char *catenary_scenario(const char *target, const char *given, int is_dir)
{
    if (given)
        return strdup(given);
    const char *slash = strrchr(target, '/');
    const int dirlen = is_dir ? (int)strlen(target) : slash ? (int)(slash - target) : 1;
    const char *dir = is_dir || slash ? target : ".";
    const size_t n = (size_t)dirlen + sizeof "/scenario.json";
    char *path = malloc(n);
    if (!path)
        return NULL;
    snprintf(path, n, "%.*s/scenario.json", dirlen, dir);
    if (access(path, F_OK) == 0)
        return path;
    fprintf(stderr,
            "catena: %s: no scenario.json %s (runs write one; pass the scenario with "
            "--scenario FILE)\n",
            target, is_dir ? "in the run directory" : "beside the trajectory");
    free(path);
    return NULL;
}

/* Writes the plot to FILE, split into the directory and name png_write_raster takes. */
static int catenary_plot(const struct report_catenary *r, const char *file,
                         struct catena_error *err)
{
    const char *slash = strrchr(file, '/');
    if (!slash)
        return report_catenary_plot(r, ".", file, err);
    char *dir = strdup(file);
    if (!dir)
        return error_set(err, CATENA_EFAIL, "out of memory");
    dir[slash - file] = '\0';
    const int rc = report_catenary_plot(r, slash == file ? "/" : dir, slash + 1, err);
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

int cmd_catenary(int argc, char **argv)
{
    struct report_catenary_options o = {.first = -1, .last = -1};
    const char *scenario = NULL, *plot = NULL;
    long step = -1;
    int json = 0, c;
    optind = 2; /* after "catena catenary" */
    while ((c = getopt_long(argc, argv, "h", catenary_longopts, NULL)) != -1) {
        switch (c) {
        case 'h':
            cmd_usage(stdout);
            return EXIT_SUCCESS;
        case OPT_BODY:
            o.body = optarg;
            break;
        case OPT_POINTS:
            if (parse_points(optarg, &o.first, &o.last))
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
        default:
            return cmd_usage_error();
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
    char *path = catenary_scenario(target, scenario, S_ISDIR(st.st_mode));
    if (!path)
        return EXIT_USAGE;
    o.label = target;
    const int status = catenary_report(target, path, step, &o, json, plot);
    free(path);
    return status;
}
