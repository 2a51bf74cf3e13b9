/* `catena compare A B`: compares two trajectories (files, or run directories read through
 * their manifests) point by point under |A-B| <= atol + rtol*|B|, and two run directories'
 * events, topology changes, status and final metrics too, and prints the report as text or
 * JSON; exit 0 within tolerance, 1 outside, 2 when they cannot be compared, 128+N when signal
 * N stopped it. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cmd.h"

#include <errno.h>
#include <getopt.h> /* optind, optarg */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/compare_plot.h"
#include "core/clock.h"
#include "core/stop.h"
#include "io/compare.h"
#include "io/junit.h"

enum {
    OPT_ATOL = CHAR_MAX + 1,
    OPT_RTOL,
    OPT_STEPS,
    OPT_POINTS,
    OPT_JSON,
    OPT_STEP_TOL,
    OPT_METRIC_ATOL,
    OPT_METRIC_RTOL,
    OPT_ONLY,
    OPT_PLOT,
    OPT_JUNIT,
};

static int cmd_compare(int argc, char **argv);

static const struct cmd_option compare_options[] = {
    {.name = "atol",
     .key = OPT_ATOL,
     .arg = "X",
     .help = "absolute tolerance in metres (default 1e-9)"},
    {.name = "rtol", .key = OPT_RTOL, .arg = "Y", .help = "relative tolerance (default 1e-9)"},
    {.name = "steps",
     .key = OPT_STEPS,
     .arg = "RANGE",
     .help = "only steps N, FIRST..LAST, FIRST.. or ..LAST"},
    {.name = "points", .key = OPT_POINTS, .arg = "RANGE", .help = "only points in RANGE"},
    {.name = "step-tol",
     .key = OPT_STEP_TOL,
     .arg = "N",
     .help = "two runs' events and topology changes match up to N\nsteps apart (default 0)"},
    {.name = "metric-atol",
     .key = OPT_METRIC_ATOL,
     .arg = "X",
     .help = "final metrics, events' stretch and force: absolute"},
    {.name = "metric-rtol",
     .key = OPT_METRIC_RTOL,
     .arg = "Y",
     .help = "and relative tolerance (default 1e-9 each)"},
    {.name = "only",
     .key = OPT_ONLY,
     .arg = "LIST",
     .help = "only these parts: positions, events, topology,\nstatus, metrics (default all; all "
             "but positions\nneed two run directories)",
     .complete = "positions events topology status metrics"},
    {.name = "json", .key = OPT_JSON, .help = "print the report as JSON"},
    {.name = "junit",
     .key = OPT_JUNIT,
     .arg = "FILE",
     .help = "also write the comparison as a JUnit XML report to FILE",
     .complete = CMD_FILES},
    {.name = "plot",
     .key = OPT_PLOT,
     .arg = "FILE.png",
     .help = "also draw |A-B| over time and both shapes where it\npeaks",
     .complete = CMD_FILES},
    {.name = "quiet",
     .key = 'q',
     .help = "no report on standard output (a difference is\nstill one line on standard error)"},
    {NULL},
};

const struct cmd_spec cmd_compare_spec = {
    .name = "compare",
    .run = cmd_compare,
    .operands = "A B",
    .summary = "compare two runs or trajectories (files or run dirs)",
    .about = "Compare A with the reference B (trajectory files or run directories) point by\n"
             "point on the steps both record: |A-B| <= atol + rtol*|B| passes. Two run\n"
             "directories are also compared for their events, topology changes, status\n"
             "and final metrics. Exit 0 within tolerance, 1 outside, 2 when they cannot be\n"
             "compared.",
    .options = compare_options,
    .example = "catena compare runs/chain tests/regression/golden/hanging-chain --atol 1e-12\n"
               "catena compare runs/new runs/ref --step-tol 1 --plot diff.png",
    .operand_complete = CMD_FILES,
};

/* --step-tol: a whole number of steps >= 0. */
static int parse_step_tol(const char *text, long *out)
{
    char *end = NULL;
    errno = 0;
    const long v = strtol(text, &end, 10);
    if (end == text || *end || errno || v < 0 || text[0] == '+') {
        fprintf(stderr, "catena: --step-tol: expected a whole number of steps >= 0, got '%s'\n",
                text);
        return -1;
    }
    *out = v;
    return 0;
}

/* Draws the plot into FILE, with the links of B's run (else A's) when one is a directory;
 * returns the exit status, status unless the plot fails. */
static int compare_plot(const struct compare_result *res, const char *a, const char *b,
                        const char *file, int status)
{
    struct catena_error err;
    struct stat st;
    const char *run_dir = stat(b, &st) == 0 && S_ISDIR(st.st_mode)   ? b
                          : stat(a, &st) == 0 && S_ISDIR(st.st_mode) ? a
                                                                     : NULL;
    if (compare_plot_write(res, run_dir, file, &err) == CATENA_OK)
        return status;
    cmd_report(&err);
    return status ? status : CATENA_EFAIL;
}

/* The first part of the comparison that differs, by name ("positions", "events", ...). */
static const char *first_difference(const struct compare_result *res)
{
    for (int k = 0; k < COMPARE_NPARTS; k++)
        if (res->part[k].compared && res->part[k].differ)
            return compare_part_name((enum compare_part)k);
    return "positions";
}

/* --junit FILE: the comparison as one test case, named by A and B, failed when they differ
 * (typed by the first part that does, the report as its text) or in error when they cannot
 * be compared. Returns status, or CATENA_EFAIL when the report cannot be written. */
static int compare_junit(const char *file, const char *a, const char *b, int status,
                         const struct compare_result *res, const struct catena_error *err,
                         double seconds)
{
    char *report = NULL, *name = NULL;
    size_t n = 0;
    const int differs = status != CATENA_EINPUT && compare_differs(res);
    FILE *mem = differs ? open_memstream(&report, &n) : NULL;
    if (mem) {
        compare_print(mem, res);
        fclose(mem);
    }
    n = strlen(a) + strlen(b) + sizeof " against ";
    if ((name = malloc(n)))
        snprintf(name, n, "%s against %s", a, b);
    const struct junit_case c = {
        .name = name ? name : a,
        .classname = "compare",
        .time = seconds,
        .outcome = differs  ? JUNIT_FAILED
                   : status ? JUNIT_ERROR
                            : JUNIT_PASSED,
        .type = differs ? first_difference(res) : "input",
        .message = err->msg,
        .text = report,
    };
    const struct junit_suite suite = {"catena compare", seconds, &c, 1};
    struct catena_error werr;
    if (junit_write(file, &suite, &werr) != CATENA_OK)
        status = cmd_report(&werr);
    free(report);
    free(name);
    return status;
}

/* Compares A and B and prints the report (and draws the plot when asked); exit 0 within
 * tolerance, 1 outside, 2 when they cannot be compared. */
static int compare_files(const char *a, const char *b, const struct compare_options *opt, int json,
                         int quiet, const char *plot, const char *junit)
{
    const double start = clock_monotonic_s();
    struct catena_error err = {0};
    struct compare_result res;
    int status = compare_paths(a, b, opt, &res, &err);
    if (status == CATENA_EINPUT || (status && !compare_differs(&res))) {
        cmd_report(&err);
    } else {
        if (quiet) {
            /* no report: the exit status and the line on stderr say it */
        } else if (json) {
            cJSON *j = compare_to_json(&res);
            char *text = j ? cJSON_Print(j) : NULL;
            if (text)
                puts(text);
            else
                status = cmd_no_memory();
            free(text);
            cJSON_Delete(j);
        } else {
            compare_print(stdout, &res);
        }
        if (compare_differs(&res))
            cmd_report(&err);
        if (plot)
            status = compare_plot(&res, a, b, plot, status);
    }
    if (junit)
        status = compare_junit(junit, a, b, status, &res, &err, clock_monotonic_s() - start);
    compare_result_free(&res);
    return status;
}

static int cmd_compare(int argc, char **argv)
{
    struct compare_options opt;
    struct catena_error err;
    const char *plot = NULL, *junit = NULL;
    int json = 0, quiet = 0, c;
    compare_default_options(&opt);
    while ((c = cmd_getopt(&cmd_compare_spec, argc, argv)) != -1) {
        switch (c) {
        case CMD_OPT_HELP:
            return EXIT_SUCCESS;
        case OPT_ATOL:
            if (cmd_parse_tolerance("--atol", optarg, &opt.atol))
                return cmd_usage_error();
            break;
        case OPT_RTOL:
            if (cmd_parse_tolerance("--rtol", optarg, &opt.rtol))
                return cmd_usage_error();
            break;
        case OPT_STEPS:
            if (cmd_parse_range("--steps", optarg, &opt.step_first, &opt.step_last))
                return cmd_usage_error();
            break;
        case OPT_POINTS:
            if (cmd_parse_range("--points", optarg, &opt.point_first, &opt.point_last))
                return cmd_usage_error();
            break;
        case OPT_JSON:
            json = 1;
            break;
        case OPT_STEP_TOL:
            if (parse_step_tol(optarg, &opt.step_tol))
                return cmd_usage_error();
            break;
        case OPT_METRIC_ATOL:
            if (cmd_parse_tolerance("--metric-atol", optarg, &opt.metric_atol))
                return cmd_usage_error();
            break;
        case OPT_METRIC_RTOL:
            if (cmd_parse_tolerance("--metric-rtol", optarg, &opt.metric_rtol))
                return cmd_usage_error();
            break;
        case OPT_JUNIT:
            junit = optarg;
            break;
        case OPT_PLOT:
            plot = optarg;
            opt.keep_series = 1;
            break;
        case OPT_ONLY:
            if (compare_parse_parts("--only", optarg, &opt.parts, &err)) {
                cmd_report(&err);
                return cmd_usage_error();
            }
            break;
        case 'q':
            quiet = 1;
            break;
        default: /* CMD_OPT_BAD: reported */
            return EXIT_USAGE;
        }
    }
    if (argc - optind != 2) {
        if (argc - optind < 2)
            fprintf(stderr, "catena: compare: expected two trajectories A B, got %d\n",
                    argc - optind);
        else
            fprintf(stderr, "catena: compare: unexpected argument '%s'\n", argv[optind + 2]);
        return cmd_usage_error();
    }
    if (plot && !(opt.parts & 1u << COMPARE_POSITIONS)) {
        fputs("catena: --plot draws the positions: --only must include them\n", stderr);
        return cmd_usage_error();
    }
    /* A signal ends the reading at the next frame with a message (traj_read_next). */
    struct stop_handlers stop;
    stop_catch(&stop);
    int status = compare_files(argv[optind], argv[optind + 1], &opt, json, quiet, plot, junit);
    if (stop_requested() && status == CATENA_EINPUT) /* the reading was cut short */
        status = stop_exit_status(stop_requested());
    stop_restore(&stop);
    return status;
}
