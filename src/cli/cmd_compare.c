/* `catena compare A B`: compares two trajectories (files or run directories) point by point
 * under |A-B| <= atol + rtol*|B| and prints the report as text or JSON; exit 0 within
 * tolerance, 1 outside, 2 when they cannot be compared. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cmd.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "io/compare.h"

enum {
    OPT_ATOL = CHAR_MAX + 1,
    OPT_RTOL,
    OPT_STEPS,
    OPT_POINTS,
    OPT_JSON,
};

static const struct option compare_longopts[] = {
    {"atol", required_argument, NULL, OPT_ATOL},
    {"rtol", required_argument, NULL, OPT_RTOL},
    {"steps", required_argument, NULL, OPT_STEPS},
    {"points", required_argument, NULL, OPT_POINTS},
    {"json", no_argument, NULL, OPT_JSON},
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

/* Opens A and B, compares them and prints the report; exit 0 within tolerance, 1 outside,
 * 2 when they cannot be compared. */
static int compare_files(const char *a, const char *b, const struct compare_options *opt, int json)
{
    struct catena_error err;
    struct compare_result res;
    struct traj_reader *ra = traj_read_open(a, &err), *rb = NULL;
    int status = ra ? CATENA_OK : cmd_report(&err);
    if (ra && !(rb = traj_read_open(b, &err)))
        status = cmd_report(&err);
    if (rb) {
        status = compare_traj(ra, rb, opt, &res, &err);
        if (status == CATENA_EINPUT) {
            cmd_report(&err);
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
        if (status == CATENA_EFAIL && err.code == CATENA_EFAIL)
            cmd_report(&err);
    }
    traj_read_close(ra);
    traj_read_close(rb);
    return status;
}

int cmd_compare(int argc, char **argv)
{
    struct compare_options opt;
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
    return compare_files(argv[optind], argv[optind + 1], &opt, json);
}
