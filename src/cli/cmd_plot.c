/* `catena plot RUN` (a run's metrics over time, analysis/metrics_plot.h) and `catena sweep
 * plot DIR` (a sweep's results, sweep/plot.h): PNG pictures of results already written. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cmd.h"

#include <getopt.h> /* optind, optarg */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/metrics_plot.h"
#include "core/path.h"
#include "core/spell.h"
#include "io/run_file.h"
#include "sweep/plot.h"

/* An output file split into its directory ("." when it names none) and its name, in buf. */
static int split_output(const char *file, char *buf, size_t size, const char **dir,
                        const char **name)
{
    const size_t n = strlen(file);
    if (n == 0 || n >= size || file[n - 1] == '/') {
        fprintf(stderr, "catena: -o: expected a file name, got '%s'\n", file);
        return -1;
    }
    memcpy(buf, file, n + 1);
    char *slash = strrchr(buf, '/');
    if (!slash) {
        *dir = ".";
        *name = buf;
    } else {
        *slash = '\0';
        *dir = slash == buf ? "/" : buf;
        *name = slash + 1;
    }
    return 0;
}

/* --metric LIST: the names, comma-separated, each a panel; the list is split in place. */
static int parse_metrics(char *list, const char **names, size_t cap, size_t *n)
{
    *n = 0;
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        if (!metrics_plot_known(tok)) {
            const char *near = spell_closest(tok, metrics_plot_names, sizeof *metrics_plot_names);
            fprintf(stderr, "catena: --metric: unknown metric '%s' (", tok);
            if (near)
                fprintf(stderr, "did you mean '%s'? ", near);
            fputs("known:", stderr);
            for (size_t i = 0; metrics_plot_names[i]; i++)
                fprintf(stderr, "%s %s", i ? "," : "", metrics_plot_names[i]);
            fputs(")\n", stderr);
            return -1;
        }
        if (*n == cap) {
            fprintf(stderr, "catena: --metric: at most %zu metrics\n", cap);
            return -1;
        }
        names[(*n)++] = tok;
    }
    if (*n == 0) {
        fputs("catena: --metric: expected a metric name\n", stderr);
        return -1;
    }
    return 0;
}

/* The last component of a path, trailing slashes ignored, into buf. */
static const char *base_name(const char *path, char *buf, size_t size)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        n--;
    size_t b = n;
    while (b > 0 && path[b - 1] != '/')
        b--;
    snprintf(buf, size, "%.*s", (int)(n - b), path + b);
    return buf;
}

enum {
    OPT_METRIC = CHAR_MAX + 1,
    OPT_X,
    OPT_Y,
    OPT_BY,
    OPT_LOG,
};

/* The figure's title: the run directory's name, also for its metrics.csv given as a file
 * (DIR/metrics.csv), otherwise the file's name. */
static const char *plot_title(const char *run, char *buf, size_t size)
{
    const char *slash = strrchr(run, '/');
    if (slash && strcmp(slash + 1, "metrics.csv") == 0 && slash > run) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - run), run);
        return base_name(dir, buf, size);
    }
    return base_name(run, buf, size);
}

static int cmd_plot(int argc, char **argv);
static int cmd_sweep_plot(int argc, char **argv);

static const struct cmd_option plot_options[] = {
    {.name = "output",
     .key = 'o',
     .arg = "FILE",
     .help = "write the PNG to FILE (default RUN_DIR/metrics.png)",
     .complete = CMD_FILES},
    {.name = "metric",
     .key = OPT_METRIC,
     .arg = "LIST",
     .help = "panels, comma-separated, from energy, kinetic,\npotential, max_stretch, error, "
             "error_sum, error_max,\nmax_speed, live_links (default energy,max_stretch,\n"
             "error,max_speed)",
     .complete = "energy kinetic potential max_stretch error error_sum error_max max_speed "
                 "live_links"},
    {NULL},
};

const struct cmd_spec cmd_plot_spec = {
    .name = "plot",
    .run = cmd_plot,
    .operands = "RUN_DIR",
    .summary = "draw a run's metrics over time (RUN_DIR/metrics.png)",
    .about = "Draw a finished run's metrics.csv over time as a PNG picture, one panel per\n"
             "metric with its unit, stacked over the time axis; a panel whose values span\n"
             "decades has a logarithmic axis. RUN_DIR may also be a metrics.csv file (then\n"
             "give -o).",
    .options = plot_options,
    .example = "catena plot runs/hanging-chain\n"
               "catena plot runs/hanging-chain --metric energy,live_links -o chain.png",
    .operand_complete = CMD_DIRS,
};

static const struct cmd_option sweep_plot_options[] = {
    {.name = "output",
     .key = 'o',
     .arg = "FILE",
     .help = "write the PNG to FILE (default DIR/sweep.png)",
     .complete = CMD_FILES},
    {.name = "x",
     .key = OPT_X,
     .arg = "PARAM",
     .help = "the varied path along x (its last part will do)"},
    {.name = "y",
     .key = OPT_Y,
     .arg = "VALUE",
     .help = "the collected value along y (its last part will do)"},
    {.name = "by",
     .key = OPT_BY,
     .arg = "PARAM",
     .help = "one line per value of PARAM (default: per\ncombination of the other varied paths)"},
    {.name = "log",
     .key = OPT_LOG,
     .arg = "AXES",
     .help = "x, y, xy or none (default: log where the values\nspan 1.5 decades or more)",
     .complete = "x y xy none"},
    {NULL},
};

const struct cmd_spec cmd_sweep_plot_spec = {
    .name = "sweep plot",
    .run = cmd_sweep_plot,
    .operands = "DIR",
    .summary = "draw a sweep's VALUE against PARAM (DIR/sweep.png)",
    .about = "Draw a sweep's results (DIR/sweep.csv) as a PNG picture: a collected value\n"
             "against a varied path, one line per value of another (--by, or each\n"
             "combination of the other varied paths that tells runs apart), with a legend.\n"
             "Only runs whose status is ok are drawn.",
    .options = sweep_plot_options,
    .example = "catena sweep plot sweeps/solvers-vs-catenary --x iterations --y max_rel",
    .operand_complete = CMD_DIRS,
};

/* RUN: a run directory (its metrics.csv, as io/run_file finds it, and metrics.png by default)
 * or a metrics file. */
static int plot_run(const char *run, const char *out, const struct metrics_plot_options *o)
{
    struct stat st;
    struct catena_error err;
    const int is_dir = stat(run, &st) == 0 && S_ISDIR(st.st_mode);
    char *csv = NULL, *def = is_dir ? path_join(run, "metrics.png") : NULL, buf[4096];
    const char *dir, *name;
    int status = EXIT_USAGE;
    if (!out && !is_dir) {
        fprintf(stderr, "catena: plot: %s is not a run directory: give -o FILE.png\n", run);
    } else if (is_dir && !def) {
        status = cmd_no_memory();
    } else if (is_dir && run_file_find(run, "metrics.csv", &csv, &err)) {
        status = cmd_report(&err);
    } else if (is_dir && !csv) {
        fprintf(stderr, "catena: %s: the run wrote no metrics.csv (output.metrics)\n", run);
    } else if (!split_output(out ? out : def, buf, sizeof buf, &dir, &name)) {
        status =
            metrics_plot(is_dir ? csv : run, o, dir, name, &err) ? cmd_report(&err) : EXIT_SUCCESS;
    }
    free(csv);
    free(def);
    return status;
}

static int cmd_plot(int argc, char **argv)
{
    const char *out = NULL, *names[METRICS_PLOT_MAX_PANELS];
    char *list = NULL;
    struct metrics_plot_options o = {.panels = names};
    int c;
    while ((c = cmd_getopt(&cmd_plot_spec, argc, argv)) != -1) {
        switch (c) {
        case CMD_OPT_HELP:
            return EXIT_SUCCESS;
        case 'o':
            out = optarg;
            break;
        case OPT_METRIC:
            list = optarg;
            break;
        default: /* CMD_OPT_BAD: reported */
            return EXIT_USAGE;
        }
    }
    if (cmd_one_operand(argc, argv, "plot", "RUN_DIR"))
        return cmd_usage_error();
    char defaults[] = METRICS_PLOT_DEFAULT, title[256];
    if (parse_metrics(list ? list : defaults, names, sizeof names / sizeof *names, &o.npanels))
        return cmd_usage_error();
    o.title = plot_title(argv[optind], title, sizeof title);
    return plot_run(argv[optind], out, &o);
}

/* --log AXES: "x", "y", "xy" or "none" make those axes logarithmic and the others linear. */
static int parse_log(const char *arg, struct sweep_plot_options *o)
{
    const int none = strcmp(arg, "none") == 0;
    if (!none && strcmp(arg, "x") && strcmp(arg, "y") && strcmp(arg, "xy") && strcmp(arg, "yx")) {
        fprintf(stderr, "catena: --log: expected x, y, xy or none, got '%s'\n", arg);
        return -1;
    }
    o->xscale = !none && strchr(arg, 'x') ? CHART_LOG : CHART_LINEAR;
    o->yscale = !none && strchr(arg, 'y') ? CHART_LOG : CHART_LINEAR;
    return 0;
}

static int cmd_sweep_plot(int argc, char **argv)
{
    struct sweep_plot_options o = {.xscale = CHART_AUTO, .yscale = CHART_AUTO};
    const char *out = NULL;
    int c;
    while ((c = cmd_getopt(&cmd_sweep_plot_spec, argc, argv)) != -1) {
        switch (c) {
        case CMD_OPT_HELP:
            return EXIT_SUCCESS;
        case 'o':
            out = optarg;
            break;
        case OPT_X:
            o.x = optarg;
            break;
        case OPT_Y:
            o.y = optarg;
            break;
        case OPT_BY:
            o.by = optarg;
            break;
        case OPT_LOG:
            if (parse_log(optarg, &o))
                return cmd_usage_error();
            break;
        default: /* CMD_OPT_BAD: reported */
            return EXIT_USAGE;
        }
    }
    if (cmd_one_operand(argc, argv, "sweep plot", "DIR"))
        return cmd_usage_error();
    if (!o.x || !o.y) {
        fprintf(stderr, "catena: sweep plot: missing %s\n", !o.x ? "--x PARAM" : "--y VALUE");
        return cmd_usage_error();
    }
    const char *dir = argv[optind], *odir, *oname;
    char *def = out ? NULL : path_join(dir, "sweep.png"), buf[4096];
    if (!out && !def)
        return cmd_no_memory();
    int status = EXIT_USAGE;
    if (!split_output(out ? out : def, buf, sizeof buf, &odir, &oname)) {
        struct catena_error err;
        struct sweep_plot_result res;
        status = sweep_plot(dir, &o, odir, oname, &res, &err) ? cmd_report(&err) : EXIT_SUCCESS;
        if (status == EXIT_SUCCESS && res.skipped)
            fprintf(stderr, "catena: sweep plot: %zu of %zu runs left out (not ok, or no value)\n",
                    res.skipped, res.skipped + res.points);
    }
    free(def);
    return status;
}
