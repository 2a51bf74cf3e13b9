/* `catena regress SUITE_DIR`: runs every scenario of a suite and compares each with its
 * golden run (regress/regress.h), printing a line per scenario in suite order and a summary;
 * --update writes the goldens instead, --junit the JUnit report. Exit 0 when every scenario
 * passed (or every golden is settled), 1 when one did not, 2 on bad usage or a folder that
 * is no suite, 128+N when signal N stopped it. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cmd.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "core/procpool.h"
#include "core/tmpdir.h"
#include "regress/regress.h"
#include "sweep/sweep.h"

enum {
    OPT_UPDATE = CHAR_MAX + 1,
    OPT_JUNIT,
    OPT_ATOL,
    OPT_RTOL,
};

static const struct option regress_longopts[] = {
    {"update", no_argument, NULL, OPT_UPDATE},
    {"jobs", required_argument, NULL, 'j'},
    {"junit", required_argument, NULL, OPT_JUNIT},
    {"atol", required_argument, NULL, OPT_ATOL},
    {"rtol", required_argument, NULL, OPT_RTOL},
    {"output", required_argument, NULL, 'o'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

struct cli {
    struct regress_options o;
    const char *junit;
    const char *keep; /* -o DIR: the runs are kept there */
};

/* A tolerance: a finite number >= 0, the whole argument. */
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

static int parse_jobs(const char *text, int *out)
{
    char *end = NULL;
    errno = 0;
    const long n = strtol(text, &end, 10);
    if (end == text || *end || errno || n < 1 || n > 1024) {
        fprintf(stderr, "catena: -j: expected a number of runs from 1 to 1024, got '%s'\n", text);
        return -1;
    }
    *out = (int)n;
    return 0;
}

/* Options and the one operand into *cli; -1 on bad usage, 1 after --help. */
static int parse(int argc, char **argv, struct cli *cli)
{
    int c;
    optind = 2; /* after "catena regress" */
    while ((c = getopt_long(argc, argv, "hj:o:", regress_longopts, NULL)) != -1) {
        switch (c) {
        case 'h':
            cmd_usage(stdout);
            return 1;
        case OPT_UPDATE:
            cli->o.update = 1;
            break;
        case 'j':
            if (parse_jobs(optarg, &cli->o.jobs))
                return -1;
            break;
        case OPT_JUNIT:
            cli->junit = optarg;
            break;
        case OPT_ATOL:
            if (parse_tolerance("--atol", optarg, &cli->o.cmp.atol))
                return -1;
            break;
        case OPT_RTOL:
            if (parse_tolerance("--rtol", optarg, &cli->o.cmp.rtol))
                return -1;
            break;
        case 'o':
            cli->keep = optarg;
            break;
        default:
            return -1;
        }
    }
    if (cmd_one_operand(argc, argv, "regress", "SUITE_DIR (a folder of scenario files)"))
        return -1;
    cli->o.suite = argv[optind];
    return 0;
}

/* A case's line: "PASS: NAME", "FAIL: NAME: why", "ERROR: NAME: why"; with --update what
 * became of its golden. */
static void print_case(void *ctx, const struct regress_case *c)
{
    const struct cli *cli = ctx;
    static const char *const verdict[] = {"PASS", "FAIL", "ERROR"};
    if (cli->o.update && c->blessing != REGRESS_KEPT) {
        static const char *const blessing[] = {"", "unchanged", "changed", "new"};
        printf("%s: %s%s%s\n", blessing[c->blessing], c->name, c->change[0] ? ": " : "", c->change);
    } else if (c->verdict == REGRESS_PASSED) {
        printf("PASS: %s\n", c->name);
    } else {
        printf("%s: %s: %s\n", verdict[c->verdict], c->name, c->message);
    }
    fflush(stdout);
}

static void print_summary(const struct cli *cli, const struct regress_result *r)
{
    for (size_t i = 0; i < r->norphans; i++) {
        char *why = regress_orphan_message(cli->o.suite, r->orphans[i]);
        printf("%s: %s: %s\n", cli->o.update ? "orphan" : "FAIL", r->orphans[i],
               why ? why : "no scenario");
        free(why);
    }
    printf("regress: %zu scenario%s: ", r->n, r->n == 1 ? "" : "s");
    if (cli->o.update && r->blessed[REGRESS_KEPT] == 0)
        printf("%zu new, %zu changed, %zu unchanged", r->blessed[REGRESS_NEW],
               r->blessed[REGRESS_CHANGED], r->blessed[REGRESS_UNCHANGED]);
    else
        printf("%zu passed, %zu failed, %zu error%s", r->count[REGRESS_PASSED],
               r->count[REGRESS_FAILED], r->count[REGRESS_ERROR],
               r->count[REGRESS_ERROR] == 1 ? "" : "s");
    if (r->norphans)
        printf(", %zu golden%s without a scenario", r->norphans, r->norphans == 1 ? "" : "s");
    printf(" (%.1f s)\n", r->seconds);
}

/* Runs the suite found in r with the runs in out; returns the exit status. */
static int run_suite(struct cli *cli, struct regress_result *r)
{
    struct catena_error err;
    int status = regress_run(&cli->o, r, &err);
    if (r->stop_signal) {
        fprintf(stderr, "catena: %s: interrupted by %s; no report written\n", cli->o.suite,
                r->stop_signal == SIGINT ? "SIGINT" : "SIGTERM");
        return status;
    }
    print_summary(cli, r);
    if (cli->junit) {
        struct catena_error jerr;
        if (regress_write_junit(cli->junit, &cli->o, r, &jerr) != CATENA_OK && !status)
            status = cmd_report(&jerr);
    }
    if (status != CATENA_OK)
        cmd_report(&err);
    return status;
}

int cmd_regress(int argc, char **argv)
{
    struct cli cli = {0};
    compare_default_options(&cli.o.cmp);
    cli.o.jobs = procpool_cpus();
    const int p = parse(argc, argv, &cli);
    if (p != 0)
        return p > 0 ? EXIT_SUCCESS : cmd_usage_error();
    struct catena_error err;
    struct regress_result r;
    if (regress_find(cli.o.suite, &r, &err) != CATENA_OK)
        return cmd_report(&err);
    char *program = sweep_find_program(cmd_invoked_as);
    char *scratch = cli.keep || !program ? NULL : tmpdir_create("regress", &err);
    int status;
    if (!program)
        status = cmd_report(
            &(struct catena_error){CATENA_EFAIL, "regress: cannot find the catena program"});
    else if (!cli.keep && !scratch)
        status = cmd_report(&err);
    else {
        cli.o.program = program;
        cli.o.out = cli.keep ? cli.keep : scratch;
        cli.o.judged = print_case;
        cli.o.ctx = &cli;
        status = run_suite(&cli, &r);
    }
    tmpdir_remove(scratch);
    free(scratch);
    free(program);
    regress_free(&r);
    return status;
}
