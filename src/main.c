/* catena's command line: `catena run`, `catena validate`, `catena catenary`, help and version.
 * Options are parsed with getopt_long and turned into scenario overrides that the loader checks;
 * the outcome becomes the exit status: 0 ok, 1 run failed, 2 bad usage or input, 128+N signal N. */
#define _POSIX_C_SOURCE 200809L
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd_bench.h"
#include "compare.h"
#include "describe.h"
#include "error.h"
#include "model.h"
#include "report_catenary.h"
#include "render.h"
#include "run.h"
#include "scenario.h"
#include "sweep.h"
#include "traj.h"

#define EXIT_USAGE CATENA_EINPUT

/* Long-only options get values above any character, so they never clash with short ones. */
enum {
    OPT_STEPS = CHAR_MAX + 1,
    OPT_EVERY,
    OPT_FORMAT,
    OPT_SET,
    OPT_RENDER,
    OPT_FPS,
    OPT_SIZE,
    OPT_COLOR_BY,
    OPT_CONTACT_SHEET,
    OPT_LEVEL,
    OPT_MAX_POINTS,
    OPT_UNTIL_SETTLED,
    OPT_BODY,
    OPT_POINTS,
    OPT_STEP,
    OPT_JSON,
    OPT_PLOT,
    OPT_SCENARIO,
    OPT_REPORT,
    OPT_RUN_PLOT,
    OPT_ATOL,
    OPT_RTOL,
    OPT_EMIT,
    OPT_CATENA,
};

static const struct option run_longopts[] = {
    {"output", required_argument, NULL, 'o'},
    {"steps", required_argument, NULL, OPT_STEPS},
    {"every", required_argument, NULL, OPT_EVERY},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"set", required_argument, NULL, OPT_SET},
    {"max-points", required_argument, NULL, OPT_MAX_POINTS},
    {"report", required_argument, NULL, OPT_REPORT},
    {"plot", no_argument, NULL, OPT_RUN_PLOT},
    {"render", no_argument, NULL, OPT_RENDER},
    {"threads", required_argument, NULL, 'j'},
    {"until-settled", required_argument, NULL, OPT_UNTIL_SETTLED},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static const struct option render_longopts[] = {
    {"output", required_argument, NULL, 'o'},
    {"fps", required_argument, NULL, OPT_FPS},
    {"every", required_argument, NULL, OPT_EVERY},
    {"size", required_argument, NULL, OPT_SIZE},
    {"color-by", required_argument, NULL, OPT_COLOR_BY},
    {"contact-sheet", no_argument, NULL, OPT_CONTACT_SHEET},
    {"level", required_argument, NULL, OPT_LEVEL},
    {"set", required_argument, NULL, OPT_SET},
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

static const struct option compare_longopts[] = {
    {"atol", required_argument, NULL, OPT_ATOL},
    {"rtol", required_argument, NULL, OPT_RTOL},
    {"steps", required_argument, NULL, OPT_STEPS},
    {"points", required_argument, NULL, OPT_POINTS},
    {"json", no_argument, NULL, OPT_JSON},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static const struct option sweep_longopts[] = {
    {"output", required_argument, NULL, 'o'},
    {"jobs", required_argument, NULL, 'j'},
    {"emit", required_argument, NULL, OPT_EMIT},
    {"catena", required_argument, NULL, OPT_CATENA},
    {"dry-run", no_argument, NULL, 'n'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* argv[0] as the program was started, before main renames it for getopt's messages: sweeps
 * run this same program. */
static const char *invoked_as;

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
          "  render RUN_DIR        draw PNG frames of a finished run\n"
          "  catenary RUN_DIR|TRAJECTORY\n"
          "                        catenary report on a finished run's hanging chains\n"
          "  compare A B           compare two trajectories (files or run directories)\n"
          "  sweep SWEEP           run a parameter sweep (or emit it for parallel, Slurm)\n"
          "  sweep collect DIR     write DIR/sweep.csv from the runs of a sweep\n"
          "  bench [--quick] [--json FILE] [-j N] [CASE]...\n"
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
          "      --until-settled=SPEED\n"
          "                         stop once every free point has stayed slower than\n"
          "                         SPEED m/s for a while (1 s unless the scenario says;\n"
          "                         sets time.until_settled.speed)\n"
          "      --set=PATH=VALUE   override a scalar by its dotted path, e.g.\n"
          "                         solver.iterations=40 or points.3.mass=2 (repeatable)\n"
          "      --report=LIST      reports to write at the end, comma-separated:\n"
          "                         catenary (sets output.reports)\n"
          "      --plot             reports also draw their PNG (catenary.png); on\n"
          "                         by itself when rendering is on\n"
          "      --render           draw PNG frames into DIR/frames (output.render)\n"
          "  -j, --threads=N        N threads share the solver's links (sets solver.threads;\n"
          "                         the results are the same bits with any N)\n"
          "  -q, --quiet            no progress line (shown only when stderr is a terminal)\n"
          "\n"
          "Options for run and validate:\n"
          "      --max-points=N     refuse scenarios of more than N points (default 50000000)\n"
          "\n"
          "Options for render:\n"
          "  -o, --output=DIR       write DIR/frames and DIR/contact-sheet.png (default\n"
          "                         RUN_DIR)\n"
          "      --fps=F            F frames per simulated second, interpolated\n"
          "      --every=K          a frame at every K-th step, as recorded\n"
          "      --size=WxH         frame size in pixels\n"
          "      --color-by=WHAT    stretch, tension, speed or none\n"
          "      --contact-sheet    also write contact-sheet.png\n"
          "      --level=N          PNG compression level, 0 to 9\n"
          "      --set=PATH=VALUE   override an output.render setting, e.g.\n"
          "                         output.render.line_width=3 (repeatable)\n"
          "  -q, --quiet            no progress line\n"
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
          "Options for compare (B is the reference; |A-B| <= atol + rtol*|B| passes):\n"
          "      --atol=X           absolute tolerance in metres (default 1e-9)\n"
          "      --rtol=Y           relative tolerance (default 1e-9)\n"
          "      --steps=RANGE      only steps N, FIRST:LAST, FIRST: or :LAST\n"
          "      --points=RANGE     only points N, FIRST:LAST, FIRST: or :LAST\n"
          "      --json             print the report as JSON\n"
          "\n"
          "Options for sweep:\n"
          "  -o, --output=DIR       the sweep's directory (default sweeps/NAME)\n"
          "  -j, --jobs=N           at most N runs at a time (default: the CPUs)\n"
          "      --emit=ENGINE      write the jobs for ENGINE (parallel or slurm) instead\n"
          "                         of running them\n"
          "      --catena=PROGRAM   the catena the runs use (default: this one)\n"
          "  -n, --dry-run          check the sweep and print its runs' commands\n"
          "\n"
          "  -h, --help             show this help and exit\n"
          "      --version          show the version and exit\n"
          "\n"
          "Exit status: 0 success; 1 the run failed (diverged, output not written),\n"
          "trajectories differ beyond tolerance, or a run of a sweep failed;\n"
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

/* Draws the frames of a run in run_dir into out_dir; returns an exit status. */
static int render_model(const struct model *m, const struct render_opts *o, const char *run_dir,
                        const char *out_dir, int quiet)
{
    struct render_result res;
    struct catena_error err;
    const int status =
        render_run(m, o, run_dir, out_dir, !quiet && isatty(STDERR_FILENO), &res, &err);
    return status == CATENA_OK ? EXIT_SUCCESS : report(&err);
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
    /* a diverged run is drawn up to its last good step: that is where to look for the cause */
    if (m->render && (status == CATENA_OK || r.status == RUN_DIVERGED)) {
        const int rs = render_model(m, m->render, out_dir, out_dir, quiet);
        status = status != CATENA_OK ? status : rs;
    }
    if (r.status == RUN_INTERRUPTED)
        status = 128 + r.signal; /* as the shell reports a process killed by the signal */
    free(dir);
    return status;
}

static int cmd_run(int argc, char **argv)
{
    /* At most one override per argument, plus --steps, --every, --format, --report,
     * --until-settled and -j. */
    struct scenario_override *ov = calloc((size_t)argc + 6, sizeof *ov);
    const char *out_dir = NULL, *steps = NULL, *every = NULL, *settle = NULL, *threads = NULL;
    char formats[64] = "", reports[256] = "";
    size_t nov = 0;
    struct scenario_options so = scenario_options_default();
    int quiet = 0, render = 0, plot = 0, status = EXIT_USAGE, c;
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
        case OPT_RENDER:
            render = 1;
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
        case OPT_UNTIL_SETTLED:
            settle = optarg;
            break;
        case OPT_SET:
            if (parse_set(optarg, &ov[nov++]))
                goto bad_usage;
            break;
        case OPT_MAX_POINTS:
            if (parse_max_points(optarg, &so.max_points))
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
    if (settle)
        ov[nov++] = (struct scenario_override){.path = "time.until_settled.speed", .value = settle};
    if (reports[0])
        ov[nov++] = (struct scenario_override){.path = "output.reports", .value = reports};

    struct catena_error err;
    so.ov = ov;
    so.nov = nov;
    struct model *m = scenario_load_opts(argv[optind], &so, &err);
    if (!m || (render && render_enable(m, &err))) {
        status = report(&err);
        model_destroy(m);
        goto done;
    }
    /* Rendering on (output.render or --render) draws the reports' pictures too. */
    status = run_model(m, out_dir, quiet, plot || m->render != NULL);
    model_destroy(m);
    goto done;
bad_usage:
    status = usage_error();
done:
    free(ov);
    return status;
}

/* "800x600" as the JSON array [800,600] in buf; the loader checks the range. */
static int parse_size(const char *arg, char *buf, size_t size)
{
    const size_t w = strspn(arg, "0123456789");
    const size_t h = w && arg[w] == 'x' ? strspn(arg + w + 1, "0123456789") : 0;
    if (!h || arg[w + 1 + h] != '\0' || w > 9 || h > 9) {
        fprintf(stderr, "catena: --size: expected WIDTHxHEIGHT in pixels, got '%s'\n", arg);
        return -1;
    }
    snprintf(buf, size, "[%.*s,%s]", (int)w, arg, arg + w + 1);
    return 0;
}

/* The values catena render's options give to output.render.KEY (NULL: not given). */
struct render_cli {
    const char *fps, *every, *size, *color_by, *level;
};

/* The overrides for catena render: --set PATH=VALUE (only under output.render, since the run
 * is done), then the dedicated options, which win; --fps and --every unset one another. ov
 * has room for nsets + 5. */
static size_t render_overrides(const struct render_cli *cli, char *const *sets, size_t nsets,
                               struct scenario_override *ov)
{
    const struct {
        const char *path, *value;
    } opts[] = {
        {"output.render.fps", cli->fps},     {"output.render.every", cli->every},
        {"output.render.size", cli->size},   {"output.render.color_by", cli->color_by},
        {"output.render.level", cli->level},
    };
    size_t n = 0;
    for (size_t i = 0; i < nsets; i++)
        parse_set(sets[i], &ov[n++]); /* checked while parsing the options */
    for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
        if (opts[i].value)
            ov[n++] = (struct scenario_override){.path = opts[i].path, .value = opts[i].value};
    return n;
}

static int check_render_set(char *arg)
{
    static const char prefix[] = "output.render";
    char *eq = strchr(arg, '=');
    const size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
    if (n >= sizeof prefix - 1 && strncmp(arg, prefix, sizeof prefix - 1) == 0 &&
        (n == sizeof prefix - 1 || arg[sizeof prefix - 1] == '.'))
        return 0;
    fprintf(stderr,
            "catena: render: --set %s: only output.render settings can change once a run is "
            "done\n",
            arg);
    return -1;
}

static int cmd_render(int argc, char **argv)
{
    struct render_cli cli = {0};
    char size[32], **sets = calloc((size_t)argc, sizeof *sets);
    struct scenario_override *ov = calloc((size_t)argc + 5, sizeof *ov);
    const char *out_dir = NULL;
    size_t nsets = 0;
    int quiet = 0, sheet = 0, status = EXIT_USAGE, c;
    if (!sets || !ov) {
        fputs("catena: out of memory\n", stderr);
        free(sets);
        free(ov);
        return CATENA_EFAIL;
    }
    optind = 2; /* after "catena render" */
    while ((c = getopt_long(argc, argv, "ho:q", render_longopts, NULL)) != -1) {
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
        case OPT_FPS:
            cli.fps = optarg;
            cli.every = "null";
            break;
        case OPT_EVERY:
            cli.every = optarg;
            cli.fps = "null";
            break;
        case OPT_SIZE:
            if (parse_size(optarg, size, sizeof size))
                goto bad_usage;
            cli.size = size;
            break;
        case OPT_COLOR_BY:
            cli.color_by = optarg;
            break;
        case OPT_CONTACT_SHEET:
            sheet = 1;
            break;
        case OPT_LEVEL:
            cli.level = optarg;
            break;
        case OPT_SET:
            if (!strchr(optarg, '=')) {
                fprintf(stderr, "catena: --set: expected PATH=VALUE, got '%s'\n", optarg);
                goto bad_usage;
            }
            if (check_render_set(optarg))
                goto bad_usage;
            sets[nsets++] = optarg;
            break;
        default:
            goto bad_usage;
        }
    }
    if (optind >= argc) {
        fputs("catena: render: missing RUN_DIR\n", stderr);
        goto bad_usage;
    }
    if (optind + 1 < argc) {
        fprintf(stderr, "catena: render: unexpected argument '%s'\n", argv[optind + 1]);
        goto bad_usage;
    }
    const char *run_dir = argv[optind];
    const size_t n = render_overrides(&cli, sets, nsets, ov);
    char *scenario = malloc(strlen(run_dir) + sizeof "/scenario.json");
    if (!scenario) {
        fputs("catena: out of memory\n", stderr);
        status = CATENA_EFAIL;
        goto done;
    }
    sprintf(scenario, "%s/scenario.json", run_dir);
    struct catena_error err;
    struct model *m = scenario_load(scenario, ov, n, &err);
    free(scenario);
    if (!m || render_enable(m, &err)) {
        status = report(&err);
        model_destroy(m);
        goto done;
    }
    m->render->sheet.enabled |= sheet;
    status = render_model(m, m->render, run_dir, out_dir ? out_dir : run_dir, quiet);
    model_destroy(m);
    goto done;
bad_usage:
    status = usage_error();
done:
    free(sets);
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
    int status = ra ? CATENA_OK : report(&err);
    if (ra && !(rb = traj_read_open(b, &err)))
        status = report(&err);
    if (rb) {
        status = compare_traj(ra, rb, opt, &res, &err);
        if (status == CATENA_EINPUT) {
            report(&err);
        } else if (json) {
            cJSON *j = compare_to_json(&res);
            char *text = j ? cJSON_Print(j) : NULL;
            if (text)
                puts(text);
            else
                status = report(&(struct catena_error){CATENA_EFAIL, "out of memory"});
            free(text);
            cJSON_Delete(j);
        } else {
            compare_print(stdout, &res);
        }
        if (status == CATENA_EFAIL && err.code == CATENA_EFAIL)
            report(&err);
    }
    traj_read_close(ra);
    traj_read_close(rb);
    return status;
}

static int cmd_compare(int argc, char **argv)
{
    struct compare_options opt;
    struct catena_error err;
    int json = 0, c;
    compare_default_options(&opt);
    optind = 2; /* after "catena compare" */
    while ((c = getopt_long(argc, argv, "h", compare_longopts, NULL)) != -1) {
        switch (c) {
        case 'h':
            usage(stdout);
            return EXIT_SUCCESS;
        case OPT_ATOL:
            if (parse_tolerance("--atol", optarg, &opt.atol))
                return usage_error();
            break;
        case OPT_RTOL:
            if (parse_tolerance("--rtol", optarg, &opt.rtol))
                return usage_error();
            break;
        case OPT_STEPS:
            if (compare_parse_range("--steps", optarg, &opt.step_first, &opt.step_last, &err)) {
                report(&err);
                return usage_error();
            }
            break;
        case OPT_POINTS:
            if (compare_parse_range("--points", optarg, &opt.point_first, &opt.point_last, &err)) {
                report(&err);
                return usage_error();
            }
            break;
        case OPT_JSON:
            json = 1;
            break;
        default:
            return usage_error();
        }
    }
    if (argc - optind != 2) {
        if (argc - optind < 2)
            fprintf(stderr, "catena: compare: expected two trajectories A B, got %d\n",
                    argc - optind);
        else
            fprintf(stderr, "catena: compare: unexpected argument '%s'\n", argv[optind + 2]);
        return usage_error();
    }
    return compare_files(argv[optind], argv[optind + 1], &opt, json);
}

/* Prints a run of a sweep that did not finish, as it ends. */
static void sweep_report_run(void *ctx, const struct sweep_plan *p, size_t i,
                             const struct sweep_outcome *o)
{
    const char *dir = ctx;
    if (o->status == SWEEP_OK)
        return;
    if (o->exit_code >= 0)
        fprintf(stderr, "catena: %s/runs/%s: %s (exit %d): %s\n", dir, p->runs[i].name,
                sweep_status_name(o->status), o->exit_code, o->why);
    else
        fprintf(stderr, "catena: %s/runs/%s: %s: %s\n", dir, p->runs[i].name,
                sweep_status_name(o->status), o->why);
}

/* Writes DIR/sweep.csv from the outcomes, reports collect paths found nowhere, and maps the
 * outcomes to an exit status: 1 when any run is not ok. */
static int sweep_finish(const struct sweep_plan *p, const char *dir,
                        const struct sweep_outcome *out, const char *label)
{
    struct catena_error err;
    char *unfound = NULL;
    if (sweep_write_csv(p, dir, out, &unfound, &err))
        return report(&err);
    for (const char *line = unfound; line && *line; line += strcspn(line, "\n") + 1)
        fprintf(stderr, "catena: %.*s\n", (int)strcspn(line, "\n"), line);
    free(unfound);
    size_t bad = 0;
    for (size_t i = 0; i < p->nruns; i++)
        bad += out[i].status != SWEEP_OK;
    if (bad == 0)
        return EXIT_SUCCESS;
    fprintf(stderr, "catena: %s: %zu of %zu runs did not finish (see %s/sweep.csv)\n", label, bad,
            p->nruns, dir);
    return CATENA_EFAIL;
}

/* catena sweep collect DIR */
static int cmd_sweep_collect(int argc, char **argv)
{
    if (argc != 4) {
        fputs(argc < 4 ? "catena: sweep collect: missing DIR\n"
                       : "catena: sweep collect: expected one DIR\n",
              stderr);
        return usage_error();
    }
    const char *dir = argv[3];
    struct catena_error err;
    struct sweep_plan *p = sweep_plan_read(dir, &err);
    if (!p)
        return report(&err);
    struct sweep_outcome *out = calloc(p->nruns ? p->nruns : 1, sizeof *out);
    int status;
    if (!out) {
        status = report(&(struct catena_error){CATENA_EFAIL, "out of memory"});
    } else {
        for (size_t i = 0; i < p->nruns; i++) {
            sweep_check_run(p, dir, i, &out[i]);
            sweep_report_run((void *)dir, p, i, &out[i]);
        }
        status = sweep_finish(p, dir, out, dir);
    }
    free(out);
    sweep_plan_destroy(p);
    return status;
}

/* sweeps/NAME for SWEEP.json at PATH/NAME.json. */
static char *sweep_default_dir(const char *file)
{
    const char *slash = strrchr(file, '/'), *name = slash ? slash + 1 : file;
    size_t n = strlen(name);
    if (n > 5 && !strcmp(name + n - 5, ".json"))
        n -= 5;
    char *dir = malloc(n + sizeof "sweeps/");
    if (dir)
        snprintf(dir, n + sizeof "sweeps/", "sweeps/%.*s", (int)n, name);
    return dir;
}

/* Runs the plan here and writes sweep.csv; 128+N when a signal N stopped it. */
static int sweep_here(const struct sweep_plan *p, const char *dir, const char *program, int jobs,
                      const char *label)
{
    struct catena_error err;
    struct sweep_outcome *out = calloc(p->nruns, sizeof *out);
    int sig = 0, status;
    if (!out)
        return report(&(struct catena_error){CATENA_EFAIL, "out of memory"});
    const struct sweep_exec_options o = {
        .dir = dir, .program = program, .jobs = jobs, .done = sweep_report_run, .ctx = (void *)dir};
    status = sweep_exec(p, &o, out, &sig, &err);
    if (status != CATENA_OK) {
        report(&err);
    } else {
        status = sweep_finish(p, dir, out, label);
        if (sig)
            status = 128 + sig;
    }
    free(out);
    return status;
}

static int cmd_sweep(int argc, char **argv)
{
    const char *dir = NULL, *emit = NULL, *catena = NULL;
    int jobs = sweep_cpus(), dry_run = 0, c;
    if (argc > 2 && !strcmp(argv[2], "collect"))
        return cmd_sweep_collect(argc, argv);
    optind = 2; /* after "catena sweep" */
    while ((c = getopt_long(argc, argv, "hj:no:", sweep_longopts, NULL)) != -1) {
        char *end = NULL;
        switch (c) {
        case 'h':
            usage(stdout);
            return EXIT_SUCCESS;
        case 'o':
            dir = optarg;
            break;
        case 'j':
            errno = 0;
            long n = strtol(optarg, &end, 10);
            if (end == optarg || *end || errno || n < 1 || n > 4096) {
                fprintf(stderr,
                        "catena: --jobs: expected a whole number from 1 to 4096, got '%s'\n",
                        optarg);
                return usage_error();
            }
            jobs = (int)n;
            break;
        case 'n':
            dry_run = 1;
            break;
        case OPT_EMIT:
            if (strcmp(optarg, "parallel") != 0 && strcmp(optarg, "slurm") != 0) {
                fprintf(stderr, "catena: --emit: unknown engine '%s' (valid: parallel, slurm)\n",
                        optarg);
                return usage_error();
            }
            emit = optarg;
            break;
        case OPT_CATENA:
            catena = optarg;
            break;
        default:
            return usage_error();
        }
    }
    if (argc - optind != 1) {
        if (optind >= argc)
            fputs("catena: sweep: missing SWEEP\n", stderr);
        else
            fprintf(stderr, "catena: sweep: unexpected argument '%s'\n", argv[optind + 1]);
        return usage_error();
    }
    const char *file = argv[optind];
    struct catena_error err;
    char *self = catena ? NULL : sweep_find_program(invoked_as);
    char *default_dir = dir ? NULL : sweep_default_dir(file);
    struct sweep_plan *p = NULL;
    int status;
    if (!catena && !self) {
        status = report(&(struct catena_error){
            CATENA_EFAIL, "sweep: cannot find the catena program to run (give --catena)"});
        goto done;
    }
    if (!dir && !(dir = default_dir)) {
        status = report(&(struct catena_error){CATENA_EFAIL, "out of memory"});
        goto done;
    }
    if (!(p = sweep_load(file, &err))) {
        status = report(&err);
        goto done;
    }
    if (dry_run) {
        status = EXIT_SUCCESS;
        for (size_t i = 0; i < p->nruns && status == EXIT_SUCCESS; i++) {
            char *cmd = sweep_command(p, dir, catena ? catena : self, i);
            if (cmd)
                puts(cmd);
            else
                status = report(&(struct catena_error){CATENA_EFAIL, "out of memory"});
            free(cmd);
        }
    } else if (emit) {
        enum sweep_engine e = !strcmp(emit, "slurm") ? SWEEP_SLURM : SWEEP_PARALLEL;
        status = sweep_emit(p, e, dir, catena ? catena : self, &err) ? report(&err) : EXIT_SUCCESS;
    } else {
        status = sweep_here(p, dir, catena ? catena : self, jobs, file);
    }
done:
    sweep_plan_destroy(p);
    free(default_dir);
    free(self);
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
    if (!strcmp(cmd, "render"))
        return cmd_render(argc, argv);
    if (!strcmp(cmd, "catenary"))
        return cmd_catenary(argc, argv);
    if (!strcmp(cmd, "compare"))
        return cmd_compare(argc, argv);
    if (!strcmp(cmd, "sweep"))
        return cmd_sweep(argc, argv);
    if (!strcmp(cmd, "bench"))
        return cmd_bench(argc, argv);
    if (cmd[0] == '-')
        fprintf(stderr, "catena: unrecognized option '%s'\n", cmd);
    else
        fprintf(stderr,
                "catena: unknown command '%s' (commands: run, validate, render, catenary, compare, "
                "sweep, bench, help)\n",
                cmd);
    return usage_error();
}

int main(int argc, char **argv)
{
    /* getopt names the program by argv[0] in its messages; catena's all start "catena: ". */
    static char program_name[] = "catena";
    if (argc > 0) {
        invoked_as = argv[0];
        argv[0] = program_name;
    }
    return close_stdout(dispatch(argc, argv));
}
