/* `catena compare A B`: compares two trajectories (files or run directories) point by point
 * under |A-B| <= atol + rtol*|B|, and two run directories' events, topology changes, status
 * and final metrics too, and prints the report as text or JSON; exit 0 within tolerance, 1
 * outside, 2 when they cannot be compared. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cmd.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "analysis/compare_plot.h"
#include "io/compare.h"

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
};

static const struct option compare_longopts[] = {
    {"atol", required_argument, NULL, OPT_ATOL},
    {"rtol", required_argument, NULL, OPT_RTOL},
    {"steps", required_argument, NULL, OPT_STEPS},
    {"points", required_argument, NULL, OPT_POINTS},
    {"json", no_argument, NULL, OPT_JSON},
    {"step-tol", required_argument, NULL, OPT_STEP_TOL},
    {"metric-atol", required_argument, NULL, OPT_METRIC_ATOL},
    {"metric-rtol", required_argument, NULL, OPT_METRIC_RTOL},
    {"only", required_argument, NULL, OPT_ONLY},
    {"plot", required_argument, NULL, OPT_PLOT},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* A tolerance for --atol or --rtol: a finite number >= 0, the whole argument. */
static int parse_tolerance(const char *option, const char *text, double *out)
{
    char *end = NULL;
    errno = 0;
    const double v = strtod(text, &end);
    if (end == text || *end || errno == ERANGE || !(v >= 0) || v == HUGE_VAL) {
        fprintf(stderr, "catena: %s: expected a finite number >= 0, got '%s'\n", option, text);
        return -1;
    }
    *out = v;
    return 0;
}

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

/* Compares A and B and prints the report (and draws the plot when asked); exit 0 within
 * tolerance, 1 outside, 2 when they cannot be compared. */
static int compare_files(const char *a, const char *b, const struct compare_options *opt, int json,
                         const char *plot)
{
    struct catena_error err;
    struct compare_result res;
    int status = compare_paths(a, b, opt, &res, &err);
    if (status == CATENA_EINPUT || (status && !compare_differs(&res))) {
        cmd_report(&err);
    } else {
        if (json) {
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
    compare_result_free(&res);
    return status;
}

int cmd_compare(int argc, char **argv)
{
    struct compare_options opt;
    struct catena_error err;
    const char *plot = NULL;
    int json = 0, c;
    compare_default_options(&opt);
    optind = 2; /* after "catena compare" */
    while ((c = getopt_long(argc, argv, "h", compare_longopts, NULL)) != -1) {
        switch (c) {
        case 'h':
            cmd_usage(stdout);
            return EXIT_SUCCESS;
        case OPT_ATOL:
            if (parse_tolerance("--atol", optarg, &opt.atol))
                return cmd_usage_error();
            break;
        case OPT_RTOL:
            if (parse_tolerance("--rtol", optarg, &opt.rtol))
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
            if (parse_tolerance("--metric-atol", optarg, &opt.metric_atol))
                return cmd_usage_error();
            break;
        case OPT_METRIC_RTOL:
            if (parse_tolerance("--metric-rtol", optarg, &opt.metric_rtol))
                return cmd_usage_error();
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
        default:
            return cmd_usage_error();
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
    return compare_files(argv[optind], argv[optind + 1], &opt, json, plot);
}
