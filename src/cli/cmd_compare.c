/* `catena compare A B`: compares two trajectories (files or run directories) point by point
 * under |A-B| <= atol + rtol*|B| and prints the report as text or JSON; exit 0 within
 * tolerance, 1 outside, 2 when they cannot be compared. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cmd.h"

#include <errno.h>
#include <getopt.h> /* optind, optarg */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "io/compare.h"
#include "io/junit.h"

enum {
    OPT_ATOL = CHAR_MAX + 1,
    OPT_RTOL,
    OPT_STEPS,
    OPT_POINTS,
    OPT_JSON,
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
     .help = "only steps N, FIRST:LAST, FIRST: or :LAST"},
    {.name = "points",
     .key = OPT_POINTS,
     .arg = "RANGE",
     .help = "only points N, FIRST:LAST, FIRST: or :LAST"},
    {.name = "json", .key = OPT_JSON, .help = "print the report as JSON"},
    {.name = "junit",
     .key = OPT_JUNIT,
     .arg = "FILE",
     .help = "also write the comparison as a JUnit XML report to FILE",
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
    .summary = "compare two trajectories (files or run directories)",
    .about = "Compare trajectory A with the reference B (files or run directories) point by\n"
             "point: |A-B| <= atol + rtol*|B| passes. Exit 0 within tolerance, 1 outside,\n"
             "2 when they cannot be compared.",
    .options = compare_options,
    .example = "catena compare runs/chain tests/golden/hanging-chain.csv --atol 1e-12",
    .operand_complete = CMD_FILES,
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

/* --junit FILE: the comparison as one test case, named by A and B, failed (outside
 * tolerance, with the report as its text) or in error (cannot be compared). Returns status,
 * or CATENA_EFAIL when the report cannot be written. */
static int compare_junit(const char *file, const char *a, const char *b, int status,
                         const struct compare_result *res, const struct catena_error *err,
                         double seconds)
{
    char *report = NULL, *name = NULL;
    size_t n = 0;
    FILE *mem = status == CATENA_EFAIL ? open_memstream(&report, &n) : NULL;
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
        .outcome = status == CATENA_OK      ? JUNIT_PASSED
                   : status == CATENA_EFAIL ? JUNIT_FAILED
                                            : JUNIT_ERROR,
        .type = status == CATENA_EFAIL ? "trajectory" : "input",
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

/* Opens A and B, compares them and prints the report; exit 0 within tolerance, 1 outside,
 * 2 when they cannot be compared. */
static int compare_files(const char *a, const char *b, const struct compare_options *opt, int json,
                         int quiet, const char *junit)
{
    const double start = clock_monotonic_s();
    struct catena_error err = {0};
    struct compare_result res;
    struct traj_reader *ra = traj_read_open(a, &err), *rb = NULL;
    int status = ra ? CATENA_OK : cmd_report(&err);
    if (ra && !(rb = traj_read_open(b, &err)))
        status = cmd_report(&err);
    if (rb) {
        status = compare_traj(ra, rb, opt, &res, &err);
        if (status == CATENA_EINPUT) {
            cmd_report(&err);
        } else if (quiet) {
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
        if (status == CATENA_EFAIL && err.code == CATENA_EFAIL)
            cmd_report(&err);
    }
    if (junit)
        status = compare_junit(junit, a, b, status, &res, &err, clock_monotonic_s() - start);
    traj_read_close(ra);
    traj_read_close(rb);
    return status;
}

static int cmd_compare(int argc, char **argv)
{
    struct compare_options opt;
    struct catena_error err;
    const char *junit = NULL;
    int json = 0, quiet = 0, c;
    compare_default_options(&opt);
    while ((c = cmd_getopt(&cmd_compare_spec, argc, argv)) != -1) {
        switch (c) {
        case CMD_OPT_HELP:
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
            if (compare_parse_range("--steps", optarg, &opt.step_first, &opt.step_last, &err)) {
                cmd_report(&err);
                return cmd_usage_error();
            }
            break;
        case OPT_POINTS:
            if (compare_parse_range("--points", optarg, &opt.point_first, &opt.point_last, &err)) {
                cmd_report(&err);
                return cmd_usage_error();
            }
            break;
        case OPT_JSON:
            json = 1;
            break;
        case 'q':
            quiet = 1;
            break;
        case OPT_JUNIT:
            junit = optarg;
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
    return compare_files(argv[optind], argv[optind + 1], &opt, json, quiet, junit);
}
