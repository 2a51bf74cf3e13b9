/* `catena regress SUITE_DIR`: runs every scenario of a suite and compares each with its
 * golden run (regress/regress.h), printing a line per scenario in suite order and a summary;
 * --update writes the goldens instead, --junit the JUnit report. Exit 0 when every scenario
 * passed (or every golden is settled), 1 when one did not, 2 on bad usage or a folder that
 * is no suite, 128+N when signal N stopped it. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cmd.h"

#include <errno.h>
#include <getopt.h> /* optind, optarg */
#include <limits.h>
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

static int cmd_regress(int argc, char **argv);

static const struct cmd_option regress_options[] = {
    {.name = "update", .key = OPT_UPDATE, .help = "write the new and changed golden runs"},
    {.name = "jobs",
     .key = 'j',
     .arg = "N",
     .help = "at most N runs at a time (default: the CPUs); the lines\nand the report are the "
             "same with any N"},
    {.name = "junit",
     .key = OPT_JUNIT,
     .arg = "FILE",
     .help = "also write a JUnit XML report to FILE",
     .complete = CMD_FILES},
    {.name = "atol",
     .key = OPT_ATOL,
     .arg = "X",
     .help = "absolute tolerance in metres (default 1e-9)"},
    {.name = "rtol", .key = OPT_RTOL, .arg = "Y", .help = "relative tolerance (default 1e-9)"},
    {.name = "output",
     .key = 'o',
     .arg = "DIR",
     .help = "keep the runs in DIR/NAME (default: a scratch directory,\nremoved at the end)",
     .complete = CMD_DIRS},
    {.name = "quiet", .key = 'q', .help = "print only the scenarios that did not pass"},
    {NULL},
};

const struct cmd_spec cmd_regress_spec = {
    .name = "regress",
    .run = cmd_regress,
    .operands = "SUITE_DIR",
    .summary = "run a folder of scenarios against their golden runs",
    .about = "Run every scenario file of SUITE_DIR (subfolders too, SUITE_DIR/golden left out)\n"
             "and compare each run with its golden run SUITE_DIR/golden/NAME: a line per\n"
             "scenario, in name order. Exit 0 when all pass, 1 when one differs, fails its\n"
             "checks or has no golden, 2 when SUITE_DIR is no suite. --update writes the\n"
             "new and changed golden runs instead, only when every run succeeded.",
    .options = regress_options,
    .example = "catena regress tests/regression --junit report.xml",
    .operand_complete = CMD_DIRS,
};

struct cli {
    struct regress_options o;
    const char *junit;
    const char *keep; /* -o DIR: the runs are kept there */
    int quiet;        /* -q: no line for a case that passed (or a golden left unchanged) */
};

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

/* Options and the one operand into *cli: 0, 1 after --help, or the usage exit status. */
static int parse(int argc, char **argv, struct cli *cli)
{
    int c;
    while ((c = cmd_getopt(&cmd_regress_spec, argc, argv)) != -1) {
        switch (c) {
        case CMD_OPT_HELP:
            return 1;
        case OPT_UPDATE:
            cli->o.update = 1;
            break;
        case 'j':
            if (parse_jobs(optarg, &cli->o.jobs))
                return cmd_usage_error();
            break;
        case OPT_JUNIT:
            cli->junit = optarg;
            break;
        case OPT_ATOL:
            if (cmd_parse_tolerance("--atol", optarg, &cli->o.cmp.atol))
                return cmd_usage_error();
            break;
        case OPT_RTOL:
            if (cmd_parse_tolerance("--rtol", optarg, &cli->o.cmp.rtol))
                return cmd_usage_error();
            break;
        case 'o':
            cli->keep = optarg;
            break;
        case 'q':
            cli->quiet = 1;
            break;
        default: /* CMD_OPT_BAD: reported */
            return EXIT_USAGE;
        }
    }
    if (cmd_one_operand(argc, argv, "regress", "SUITE_DIR (a folder of scenario files)"))
        return cmd_usage_error();
    cli->o.suite = argv[optind];
    return 0;
}

/* A case's line: "PASS: NAME", "FAIL: NAME: why", "ERROR: NAME: why"; with --update what
 * became of its golden. */
static void print_case(void *ctx, const struct regress_case *c)
{
    const struct cli *cli = ctx;
    static const char *const verdict[] = {"PASS", "FAIL", "ERROR"};
    if (cli->quiet &&
        (cli->o.update && c->blessing != REGRESS_KEPT ? c->blessing == REGRESS_UNCHANGED
                                                      : c->verdict == REGRESS_PASSED))
        return;
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
    if (status != CATENA_OK)
        cmd_report(&err);
    struct catena_error jerr;
    if (cli->junit && regress_write_junit(cli->junit, &cli->o, r, &jerr) != CATENA_OK) {
        cmd_report(&jerr);
        status = status ? status : CATENA_EFAIL;
    }
    return status;
}

static int cmd_regress(int argc, char **argv)
{
    struct cli cli = {0};
    compare_default_options(&cli.o.cmp);
    cli.o.jobs = procpool_cpus();
    const int p = parse(argc, argv, &cli);
    if (p != 0)
        return p == 1 ? EXIT_SUCCESS : p;
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
