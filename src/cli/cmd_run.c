/* `catena run SCENARIO`: the options become scenario overrides that the loader checks, the run
 * writes its outputs (and frames, when rendering is on) into its directory, and the outcome
 * becomes the exit status; a run stopped by signal N exits 128+N, as the shell reports a
 * killed process. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cmd.h"

#include <getopt.h> /* optind, optarg */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/stop.h"
#include "run/run.h"
#include "io/traj.h"

enum {
    OPT_STEPS = CHAR_MAX + 1,
    OPT_EVERY,
    OPT_FORMAT,
    OPT_SET,
    OPT_RENDER,
    OPT_MAX_POINTS,
    OPT_MAX_MEMORY,
    OPT_UNTIL_SETTLED,
    OPT_REPORT,
    OPT_PLOT,
};

static int cmd_run(int argc, char **argv);

static const struct cmd_option run_options[] = {
    {.name = "output",
     .key = 'o',
     .arg = "DIR",
     .help = "write the outputs into DIR (default runs/NAME)",
     .complete = CMD_DIRS},
    {.name = "steps", .key = OPT_STEPS, .arg = "N", .help = "run N steps (sets time.steps)"},
    {.name = "every",
     .key = OPT_EVERY,
     .arg = "K",
     .help = "record every K-th step (sets output.every)"},
    {.name = "format",
     .key = OPT_FORMAT,
     .arg = "LIST",
     .help = "trajectory formats, comma-separated: csv, json, npy\n(sets output.trajectory)",
     .complete = "csv json npy"},
    {.name = "until-settled",
     .key = OPT_UNTIL_SETTLED,
     .arg = "SPEED",
     .help = "stop once every free point has stayed slower than\nSPEED m/s for a while (1 s unless "
             "the scenario says;\nsets time.until_settled.speed)"},
    {.name = "set",
     .key = OPT_SET,
     .arg = "PATH=VALUE",
     .help = "override a value by its dotted path, e.g.\nsolver.iterations=40 or points.3.mass=2 "
             "(repeatable)"},
    {.name = "report",
     .key = OPT_REPORT,
     .arg = "LIST",
     .help = "reports to write at the end, comma-separated:\ncatenary (sets output.reports)",
     .complete = "catenary"},
    {.name = "plot",
     .key = OPT_PLOT,
     .help = "reports also draw their PNG (catenary.png); on\nby itself when rendering is on"},
    {.name = "render",
     .key = OPT_RENDER,
     .help = "draw PNG frames into DIR/frames (output.render)"},
    {.name = "threads",
     .key = 't',
     .arg = "N",
     .help = "N threads share the solver's links (sets\nsolver.threads; the same bits with any N)"},
    {.name = "max-points",
     .key = OPT_MAX_POINTS,
     .arg = "N",
     .help = "refuse scenarios of more than N points (default\n50000000)"},
    {.name = "max-memory",
     .key = OPT_MAX_MEMORY,
     .arg = "SIZE",
     .help = "refuse scenarios estimated to need more memory\n(512M, 4G; default: the machine's "
             "memory)"},
    {.name = "quiet",
     .key = 'q',
     .help = "no progress line (shown only when stderr is a terminal)"},
    {.name = "jobs",
     .key = 'j',
     .arg = "N",
     .retired = "-j is now -t, --threads (the solver's threads); -j is the runs at a time of "
                "catena sweep"},
    {NULL},
};

const struct cmd_spec cmd_run_spec = {
    .name = "run",
    .run = cmd_run,
    .operands = "SCENARIO",
    .summary = "simulate SCENARIO and write its outputs",
    .about = "Simulate SCENARIO, a JSON file (man catena-scenario; - reads it from standard\n"
             "input), and write its trajectory, metrics.csv, events.csv, scenario.json and\n"
             "summary.json into a run directory. Options that set a scenario key win over\n"
             "--set of the same key; the result is checked as if it were in the file.",
    .options = run_options,
    .example = "catena run scenarios/hanging-chain.json --steps 600 -o runs/chain",
    .operand_complete = CMD_JSON,
};

/* Every trajectory format, in the order --format lists them. */
static const enum output_format all_formats[] = {FORMAT_CSV, FORMAT_JSON, FORMAT_NPY};
#define NFORMATS (sizeof all_formats / sizeof all_formats[0])

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

/* Runs a loaded scenario into out_dir (or runs/NAME) and maps the outcome to an exit status. */
static int run_scenario(const struct scenario *sc, const char *out_dir, int quiet, int plot)
{
    char *dir = NULL;
    if (!out_dir) {
        const char *name = sc->provenance.name;
        const size_t n = strlen("runs/") + strlen(name) + 1;
        if (!(dir = malloc(n)))
            return cmd_no_memory();
        snprintf(dir, n, "runs/%s", name);
        out_dir = dir;
    }
    struct warnings warnings = {0};
    const struct run_options o = {.out_dir = out_dir,
                                  .progress = !quiet && isatty(STDERR_FILENO),
                                  .plot = plot,
                                  .render = 1,
                                  .warnings = &warnings};
    struct run_result r;
    struct catena_error err;
    const char *label = sc->provenance.source ? sc->provenance.source : sc->provenance.name;
    cmd_warnings(label, &sc->warnings);
    int status = run_simulation(sc, &o, &r, &err);
    for (size_t i = 0; i < r.nchecks; i++)
        if (r.checks[i].result == CHECK_FAILED)
            fprintf(stderr, "catena: %s: check \"%s\" failed: %s\n", sc->provenance.source,
                    r.checks[i].check->name, r.checks[i].message);
    if (status != CATENA_OK)
        cmd_report(&err);
    cmd_warnings(label, &warnings);
    warnings_clear(&warnings);
    if (r.status == RUN_INTERRUPTED)
        status = stop_exit_status(r.signal); /* as the shell reports a process killed by it */
    run_result_free(&r);
    free(dir);
    return status;
}

/* The values run's dedicated options give to scenario paths (NULL or "": not given). */
struct run_cli {
    const char *steps, *every, *threads, *settle;
    char formats[64], reports[256];
};

/* Appends the dedicated options' overrides; they come after the --set ones, so they win over
 * a --set of the same path. */
static void run_overrides(const struct run_cli *cli, struct cmd_overrides *co)
{
    cmd_overrides_add(co, "time.steps", cli->steps, "--steps");
    cmd_overrides_add(co, "output.every", cli->every, "--every");
    cmd_overrides_add(co, "solver.threads", cli->threads, "--threads");
    cmd_overrides_add(co, "output.trajectory", cli->formats[0] ? cli->formats : NULL, "--format");
    cmd_overrides_add(co, "time.until_settled.speed", cli->settle, "--until-settled");
    cmd_overrides_add(co, "output.reports", cli->reports[0] ? cli->reports : NULL, "--report");
}

static int cmd_run(int argc, char **argv)
{
    /* At most one override per argument, plus --steps, --every, --format, --report,
     * --until-settled and --threads. */
    struct cmd_overrides co;
    struct run_cli cli = {0};
    const char *out_dir = NULL;
    struct scenario_options so = scenario_options_default();
    int quiet = 0, render = 0, plot = 0, status = EXIT_USAGE, c;
    if (cmd_overrides_init(&co, (size_t)argc + 6))
        return cmd_no_memory();
    while ((c = cmd_getopt(&cmd_run_spec, argc, argv)) != -1) {
        switch (c) {
        case CMD_OPT_HELP:
            status = EXIT_SUCCESS;
            goto done;
        case 'o':
            if (cmd_parse_output_dir(optarg, &out_dir))
                goto bad_usage;
            break;
        case 'q':
            quiet = 1;
            break;
        case OPT_RENDER:
            render = 1;
            break;
        case 't':
            cli.threads = optarg;
            break;
        case OPT_STEPS:
            cli.steps = optarg;
            break;
        case OPT_EVERY:
            cli.every = optarg;
            break;
        case OPT_FORMAT:
            if (parse_formats(optarg, cli.formats, sizeof cli.formats))
                goto bad_usage;
            break;
        case OPT_UNTIL_SETTLED:
            cli.settle = optarg;
            break;
        case OPT_SET:
            if (cmd_parse_set(optarg, &co))
                goto bad_usage;
            break;
        case OPT_MAX_POINTS:
            if (cmd_parse_max_points(optarg, &so.max_points))
                goto bad_usage;
            break;
        case OPT_MAX_MEMORY:
            if (cmd_parse_max_memory(optarg, &so.max_memory))
                goto bad_usage;
            break;
        case OPT_REPORT:
            if (parse_reports(optarg, cli.reports, sizeof cli.reports))
                goto bad_usage;
            break;
        case OPT_PLOT:
            plot = 1;
            break;
        default: /* CMD_OPT_BAD: reported */
            goto done;
        }
    }
    if (cmd_one_operand(argc, argv, "run", "SCENARIO"))
        goto bad_usage;
    struct catena_error err;
    run_overrides(&cli, &co);
    cmd_overrides_use(&co, &so);
    struct scenario *sc = cmd_load_scenario(argv[optind], &so, &err);
    if (!sc || (render && scenario_output_enable_render(&sc->output, &err))) {
        status = cmd_report(&err);
        scenario_destroy(sc);
        goto done;
    }
    /* Rendering on (output.render or --render) draws the reports' pictures too. */
    status = run_scenario(sc, out_dir, quiet, plot || sc->output.render != NULL);
    scenario_destroy(sc);
    goto done;
bad_usage:
    status = cmd_usage_error();
done:
    cmd_overrides_free(&co);
    return status;
}
