/* catena's command line: `catena run`, `catena validate`, help and version. Options are
 * parsed with getopt_long and turned into scenario overrides that the loader checks; the
 * outcome becomes the exit status: 0 ok, 1 run failed, 2 bad usage or input, 128+N signal N. */
#define _POSIX_C_SOURCE 200809L
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "describe.h"
#include "error.h"
#include "model.h"
#include "run.h"
#include "scenario.h"
#include "traj.h"

#define EXIT_USAGE CATENA_EINPUT

/* Long-only options get values above any character, so they never clash with short ones. */
enum {
    OPT_STEPS = CHAR_MAX + 1,
    OPT_EVERY,
    OPT_FORMAT,
    OPT_SET,
    OPT_MAX_POINTS,
};

static const struct option run_longopts[] = {
    {"output", required_argument, NULL, 'o'},
    {"steps", required_argument, NULL, OPT_STEPS},
    {"every", required_argument, NULL, OPT_EVERY},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"set", required_argument, NULL, OPT_SET},
    {"max-points", required_argument, NULL, OPT_MAX_POINTS},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static const struct option validate_longopts[] = {
    {"max-points", required_argument, NULL, OPT_MAX_POINTS},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* Every trajectory format, in the order --format lists them. */
static const enum output_format all_formats[] = {FORMAT_CSV, FORMAT_JSON, FORMAT_NPY};
#define NFORMATS (sizeof all_formats / sizeof all_formats[0])

static void usage(FILE *out)
{
    fputs("Usage: catena COMMAND [OPTION]... [ARGUMENT]...\n"
          "Batch simulator for position-based dynamics: ropes, chains, pendulums.\n"
          "\n"
          "Commands:\n"
          "  run SCENARIO          simulate SCENARIO and write its outputs\n"
          "  validate SCENARIO...  check scenarios and print what they would simulate\n"
          "  help                  show this help\n"
          "\n"
          "Options for run:\n"
          "  -o, --output=DIR       write the outputs into DIR (default runs/NAME)\n"
          "      --steps=N          run N steps (sets time.steps)\n"
          "      --every=K          record every K-th step (sets output.every)\n"
          "      --format=LIST      trajectory formats, comma-separated: csv, json, npy\n"
          "                         (sets output.trajectory)\n"
          "      --set=PATH=VALUE   override a scalar by its dotted path, e.g.\n"
          "                         solver.iterations=40 or points.3.mass=2 (repeatable)\n"
          "  -q, --quiet            no progress line (shown only when stderr is a terminal)\n"
          "\n"
          "Options for run and validate:\n"
          "      --max-points=N     refuse scenarios of more than N points (default 50000000)\n"
          "\n"
          "  -h, --help             show this help and exit\n"
          "      --version          show the version and exit\n"
          "\n"
          "Exit status: 0 success; 1 the run failed (diverged, output not written);\n"
          "2 bad usage or bad input; 128+N interrupted by signal N.\n",
          out);
}

static int usage_error(void)
{
    fputs("Try 'catena --help' for more information.\n", stderr);
    return EXIT_USAGE;
}

static int report(const struct catena_error *err)
{
    fprintf(stderr, "catena: %s\n", err->msg);
    return err->code;
}

/* Turns "csv,npy" into the JSON array output.trajectory takes (["csv","npy"]) in buf. */
static int parse_formats(const char *list, char *buf, size_t size)
{
    unsigned bits = 0;
    for (const char *p = list; *p;) {
        const size_t n = strcspn(p, ",");
        size_t i = 0;
        while (i < NFORMATS && (strlen(traj_format_name(all_formats[i])) != n ||
                                strncmp(p, traj_format_name(all_formats[i]), n) != 0))
            i++;
        if (i == NFORMATS) {
            fprintf(stderr, "catena: --format: unknown format '%.*s' (valid: csv, json, npy)\n",
                    (int)n, p);
            return -1;
        }
        bits |= all_formats[i];
        p += n + (p[n] == ',');
    }
    size_t len = (size_t)snprintf(buf, size, "[");
    for (size_t i = 0; i < NFORMATS; i++)
        if (bits & all_formats[i])
            len += (size_t)snprintf(buf + len, size - len, "%s\"%s\"", len > 1 ? "," : "",
                                    traj_format_name(all_formats[i]));
    snprintf(buf + len, size - len, "]");
    return 0;
}

/* --max-points N: a count >= 1, checked here so that a typo is a usage error. */
static int parse_max_points(const char *arg, long long *out)
{
    char *end;
    errno = 0;
    const long long n = strtoll(arg, &end, 10);
    if (end == arg || *end || errno || n < 1) {
        fprintf(stderr, "catena: --max-points: expected a whole number of points >= 1, got '%s'\n",
                arg);
        return -1;
    }
    *out = n;
    return 0;
}

/* Splits "PATH=VALUE" in place into an override. */
static int parse_set(char *arg, struct scenario_override *ov)
{
    char *eq = strchr(arg, '=');
    if (!eq || eq == arg) {
        fprintf(stderr, "catena: --set: expected PATH=VALUE, got '%s'\n", arg);
        return -1;
    }
    *eq = '\0';
    *ov = (struct scenario_override){.path = arg, .value = eq + 1};
    return 0;
}

/* Runs a loaded model into out_dir (or runs/NAME) and maps the outcome to an exit status. */
static int run_model(const struct model *m, const char *out_dir, int quiet)
{
    char *dir = NULL;
    if (!out_dir) {
        const size_t n = strlen("runs/") + strlen(m->name) + 1;
        if (!(dir = malloc(n))) {
            fputs("catena: out of memory\n", stderr);
            return CATENA_EFAIL;
        }
        snprintf(dir, n, "runs/%s", m->name);
        out_dir = dir;
    }
    const struct run_options o = {.out_dir = out_dir, .progress = !quiet && isatty(STDERR_FILENO)};
    struct run_result r;
    struct catena_error err;
    int status = run_simulation(m, &o, &r, &err);
    if (status != CATENA_OK)
        report(&err);
    if (r.status == RUN_INTERRUPTED)
        status = 128 + r.signal; /* as the shell reports a process killed by the signal */
    free(dir);
    return status;
}

static int cmd_run(int argc, char **argv)
{
    /* At most one override per argument, plus --steps, --every and --format. */
    struct scenario_override *ov = calloc((size_t)argc + 3, sizeof *ov);
    const char *out_dir = NULL, *steps = NULL, *every = NULL;
    char formats[64] = "";
    size_t nov = 0;
    struct scenario_options so = scenario_options_default();
    int quiet = 0, status = EXIT_USAGE, c;
    if (!ov) {
        fputs("catena: out of memory\n", stderr);
        return CATENA_EFAIL;
    }
    optind = 2; /* after "catena run" */
    while ((c = getopt_long(argc, argv, "ho:q", run_longopts, NULL)) != -1) {
        switch (c) {
        case 'h':
            usage(stdout);
            status = EXIT_SUCCESS;
            goto done;
        case 'o':
            out_dir = optarg;
            break;
        case 'q':
            quiet = 1;
            break;
        case OPT_STEPS:
            steps = optarg;
            break;
        case OPT_EVERY:
            every = optarg;
            break;
        case OPT_FORMAT:
            if (parse_formats(optarg, formats, sizeof formats))
                goto bad_usage;
            break;
        case OPT_SET:
            if (parse_set(optarg, &ov[nov++]))
                goto bad_usage;
            break;
        case OPT_MAX_POINTS:
            if (parse_max_points(optarg, &so.max_points))
                goto bad_usage;
            break;
        default:
            goto bad_usage;
        }
    }
    if (optind >= argc) {
        fputs("catena: run: missing SCENARIO\n", stderr);
        goto bad_usage;
    }
    if (optind + 1 < argc) {
        fprintf(stderr, "catena: run: unexpected argument '%s'\n", argv[optind + 1]);
        goto bad_usage;
    }
    /* The dedicated options come last, so they win over a --set of the same path. */
    if (steps)
        ov[nov++] = (struct scenario_override){.path = "time.steps", .value = steps};
    if (every)
        ov[nov++] = (struct scenario_override){.path = "output.every", .value = every};
    if (formats[0])
        ov[nov++] = (struct scenario_override){.path = "output.trajectory", .value = formats};

    struct catena_error err;
    so.ov = ov;
    so.nov = nov;
    struct model *m = scenario_load_opts(argv[optind], &so, &err);
    if (!m) {
        status = report(&err);
        goto done;
    }
    status = run_model(m, out_dir, quiet);
    model_destroy(m);
    goto done;
bad_usage:
    status = usage_error();
done:
    free(ov);
    return status;
}

static int cmd_validate(int argc, char **argv)
{
    int c;
    struct scenario_options so = scenario_options_default();
    optind = 2; /* after "catena validate" */
    while ((c = getopt_long(argc, argv, "h", validate_longopts, NULL)) != -1) {
        if (c == OPT_MAX_POINTS && parse_max_points(optarg, &so.max_points) == 0)
            continue;
        if (c != 'h')
            return usage_error();
        usage(stdout);
        return EXIT_SUCCESS;
    }
    if (optind >= argc) {
        fputs("catena: validate: missing SCENARIO\n", stderr);
        return usage_error();
    }
    int status = EXIT_SUCCESS, described = 0;
    for (int i = optind; i < argc; i++) {
        struct catena_error err;
        struct model *m = scenario_load_opts(argv[i], &so, &err);
        if (!m) {
            const int code = report(&err);
            status = code > status ? code : status;
            continue;
        }
        if (described++)
            putchar('\n');
        describe_model(stdout, m);
        model_destroy(m);
    }
    return status;
}

/* A write error on stdout (full disk, closed pipe) must not pass for success. */
static int close_stdout(int status)
{
    int failed = ferror(stdout);
    errno = 0;
    if (fflush(stdout) != 0)
        failed = 1;
    /* EBADF: stdout was closed by the caller and nothing was written to it. */
    if (fclose(stdout) != 0 && errno != EBADF)
        failed = 1;
    if (!failed)
        return status;
    if (errno)
        fprintf(stderr, "catena: write error on standard output: %s\n", strerror(errno));
    else
        fputs("catena: write error on standard output\n", stderr);
    return status != EXIT_SUCCESS ? status : CATENA_EFAIL;
}

static int dispatch(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : NULL;
    if (!cmd) {
        fputs("catena: missing command\n", stderr);
        return usage_error();
    }
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        usage(stdout);
        return EXIT_SUCCESS;
    }
    if (!strcmp(cmd, "--version")) {
        puts("catena " PACKAGE_VERSION);
        return EXIT_SUCCESS;
    }
    if (!strcmp(cmd, "run"))
        return cmd_run(argc, argv);
    if (!strcmp(cmd, "validate"))
        return cmd_validate(argc, argv);
    if (cmd[0] == '-')
        fprintf(stderr, "catena: unrecognized option '%s'\n", cmd);
    else
        fprintf(stderr, "catena: unknown command '%s' (commands: run, validate, help)\n", cmd);
    return usage_error();
}

int main(int argc, char **argv)
{
    /* getopt names the program by argv[0] in its messages; catena's all start "catena: ". */
    static char program_name[] = "catena";
    if (argc > 0)
        argv[0] = program_name;
    return close_stdout(dispatch(argc, argv));
}
