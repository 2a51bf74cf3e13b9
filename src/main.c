/* catena's command line: `catena run`, `catena validate`, `catena catenary`, help and version.
 * Options are parsed with getopt_long and turned into scenario overrides that the loader checks;
 * the outcome becomes the exit status: 0 ok, 1 run failed, 2 bad usage or input, 128+N signal N. */
#define _POSIX_C_SOURCE 200809L
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd_bench.h"
#include "describe.h"
#include "error.h"
#include "model.h"
#include "report_catenary.h"
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
    OPT_BODY,
    OPT_POINTS,
    OPT_STEP,
    OPT_JSON,
    OPT_PLOT,
    OPT_SCENARIO,
    OPT_REPORT,
    OPT_RUN_PLOT,
};

static const struct option run_longopts[] = {
    {"output", required_argument, NULL, 'o'},
    {"steps", required_argument, NULL, OPT_STEPS},
    {"every", required_argument, NULL, OPT_EVERY},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"set", required_argument, NULL, OPT_SET},
    {"report", required_argument, NULL, OPT_REPORT},
    {"plot", no_argument, NULL, OPT_RUN_PLOT},
    {"threads", required_argument, NULL, 'j'},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
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

static const struct option validate_longopts[] = {
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
          "  catenary RUN_DIR|TRAJECTORY\n"
          "                        catenary report on a finished run's hanging chains\n"
          "  bench [--quick] [--json FILE] [-j N]\n"
          "                        time the solver, writers and frames against plain\n"
          "                        references (catena bench --help)\n"
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
          "      --report=LIST      reports to write at the end, comma-separated:\n"
          "                         catenary (sets output.reports)\n"
          "      --plot             reports also draw their PNG (catenary.png)\n"
          "  -j, --threads=N        N threads share the solver's links (sets solver.threads;\n"
          "                         the results are the same bits with any N)\n"
          "  -q, --quiet            no progress line (shown only when stderr is a terminal)\n"
          "\n"
          "Options for catenary:\n"
          "      --body=NAME        the rope body NAME (default: every rope with both ends\n"
          "                         pinned)\n"
          "      --points=I..J      the chain of points I to J (global indices)\n"
          "      --step=N|last      the frame at step N (default: the last one)\n"
          "      --json             print catenary.json's form instead of the text\n"
          "      --plot=FILE.png    also draw the chain, the curves and the deviation\n"
          "      --scenario=FILE    the scenario of a trajectory file (default: the\n"
          "                         scenario.json beside it)\n"
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

/* Turns "catenary" into the JSON array output.reports takes (["catenary"]) in buf; the
 * loader checks the names. */
static int parse_reports(const char *list, char *buf, size_t size)
{
    size_t len = (size_t)snprintf(buf, size, "[");
    for (const char *p = list; *p;) {
        const size_t n = strcspn(p, ",");
        if (n == 0 || n != strspn(p, "abcdefghijklmnopqrstuvwxyz_") || len + n + 4 >= size) {
            fprintf(stderr,
                    "catena: --report: expected report names separated by commas, "
                    "like 'catenary', got '%s'\n",
                    list);
            return -1;
        }
        len += (size_t)snprintf(buf + len, size - len, "%s\"%.*s\"", len > 1 ? "," : "", (int)n, p);
        p += n + (p[n] == ',');
    }
    snprintf(buf + len, size - len, "]");
    return 0;
}

/* Runs a loaded model into out_dir (or runs/NAME) and maps the outcome to an exit status. */
static int run_model(const struct model *m, const char *out_dir, int quiet, int plot)
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
    const struct run_options o = {
        .out_dir = out_dir, .progress = !quiet && isatty(STDERR_FILENO), .plot = plot};
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
    /* At most one override per argument, plus --steps, --every, --format, --report and -j. */
    struct scenario_override *ov = calloc((size_t)argc + 5, sizeof *ov);
    const char *out_dir = NULL, *steps = NULL, *every = NULL, *threads = NULL;
    char formats[64] = "", reports[256] = "";
    size_t nov = 0;
    int quiet = 0, plot = 0, status = EXIT_USAGE, c;
    if (!ov) {
        fputs("catena: out of memory\n", stderr);
        return CATENA_EFAIL;
    }
    optind = 2; /* after "catena run" */
    while ((c = getopt_long(argc, argv, "hj:o:q", run_longopts, NULL)) != -1) {
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
        case 'j':
            threads = optarg;
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
        case OPT_REPORT:
            if (parse_reports(optarg, reports, sizeof reports))
                goto bad_usage;
            break;
        case OPT_RUN_PLOT:
            plot = 1;
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
    if (threads)
        ov[nov++] = (struct scenario_override){.path = "solver.threads", .value = threads};
    if (formats[0])
        ov[nov++] = (struct scenario_override){.path = "output.trajectory", .value = formats};
    if (reports[0])
        ov[nov++] = (struct scenario_override){.path = "output.reports", .value = reports};

    struct catena_error err;
    struct model *m = scenario_load(argv[optind], ov, nov, &err);
    if (!m) {
        status = report(&err);
        goto done;
    }
    status = run_model(m, out_dir, quiet, plot);
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
    optind = 2; /* after "catena validate" */
    while ((c = getopt_long(argc, argv, "h", validate_longopts, NULL)) != -1) {
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
        struct model *m = scenario_load(argv[i], NULL, 0, &err);
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

/* The report for one frame of a run, printed on stdout. */
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

static int catenary_report(const char *target, const char *scenario, long step,
                           const struct report_catenary_options *o, int json, const char *plot)
{
    struct catena_error err;
    struct model *m = scenario_load(scenario, NULL, 0, &err);
    if (!m)
        return report(&err);
    struct report_catenary *r = NULL;
    vec3 *x = malloc((m->npoints ? m->npoints : 1) * sizeof *x);
    long at = 0;
    double t = 0;
    int status = x ? CATENA_OK : error_set(&err, CATENA_EFAIL, "out of memory");
    if (status == CATENA_OK)
        status = report_catenary_read_frame(target, m, step, x, &at, &t, &err);
    if (status == CATENA_OK)
        status = report_catenary_build(m, x, at, t, o, &r, &err);
    if (status == CATENA_OK && plot)
        status = catenary_plot(r, plot, &err);
    if (status != CATENA_OK) {
        report(&err);
    } else if (json) {
        char *text = report_catenary_json(r, target);
        if (text)
            puts(text);
        else
            status = report(&(struct catena_error){CATENA_EFAIL, "out of memory"});
        free(text);
    } else {
        report_catenary_text(stdout, r, target);
    }
    report_catenary_destroy(r);
    free(x);
    model_destroy(m);
    return status;
}

static int cmd_catenary(int argc, char **argv)
{
    struct report_catenary_options o = {.first = -1, .last = -1};
    const char *scenario = NULL, *plot = NULL;
    long step = -1;
    int json = 0, c;
    optind = 2; /* after "catena catenary" */
    while ((c = getopt_long(argc, argv, "h", catenary_longopts, NULL)) != -1) {
        switch (c) {
        case 'h':
            usage(stdout);
            return EXIT_SUCCESS;
        case OPT_BODY:
            o.body = optarg;
            break;
        case OPT_POINTS:
            if (parse_points(optarg, &o.first, &o.last))
                return usage_error();
            break;
        case OPT_STEP:
            if (parse_step(optarg, &step))
                return usage_error();
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
            return usage_error();
        }
    }
    if (optind >= argc) {
        fputs("catena: catenary: missing RUN_DIR or TRAJECTORY\n", stderr);
        return usage_error();
    }
    if (optind + 1 < argc) {
        fprintf(stderr, "catena: catenary: unexpected argument '%s'\n", argv[optind + 1]);
        return usage_error();
    }
    if (o.body && o.first >= 0) {
        fputs("catena: catenary: --body and --points choose the chain two ways; give one\n",
              stderr);
        return usage_error();
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
    if (!strcmp(cmd, "catenary"))
        return cmd_catenary(argc, argv);
    if (!strcmp(cmd, "bench"))
        return cmd_bench(argc, argv);
    if (cmd[0] == '-')
        fprintf(stderr, "catena: unrecognized option '%s'\n", cmd);
    else
        fprintf(stderr,
                "catena: unknown command '%s' (commands: run, validate, catenary, bench, help)\n",
                cmd);
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
