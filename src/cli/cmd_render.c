/* `catena render RUN_DIR`: draws the PNG frames (and contact sheet) of a finished run from its
 * scenario.json and trajectory; only output.render settings may change, since the run is done. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cmd.h"

#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
    OPT_FPS = CHAR_MAX + 1,
    OPT_EVERY,
    OPT_SIZE,
    OPT_COLOR_BY,
    OPT_CONTACT_SHEET,
    OPT_LEVEL,
    OPT_SET,
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

int cmd_render_scenario(const struct scenario *sc, const struct render_opts *o, const char *run_dir,
                        const char *out_dir, int quiet)
{
    struct render_result res;
    struct catena_error err;
    const int status =
        render_run(sc, o, run_dir, out_dir, !quiet && isatty(STDERR_FILENO), &res, &err);
    return status == CATENA_OK ? EXIT_SUCCESS : cmd_report(&err);
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
    const struct scenario_override opts[] = {
        {"output.render.fps", cli->fps},     {"output.render.every", cli->every},
        {"output.render.size", cli->size},   {"output.render.color_by", cli->color_by},
        {"output.render.level", cli->level},
    };
    size_t n = 0;
    for (size_t i = 0; i < nsets; i++)
        cmd_parse_set(sets[i], &ov[n++]); /* checked while parsing the options */
    for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
        if (opts[i].value)
            ov[n++] = opts[i];
    return n;
}

static int check_render_set(char *arg)
{
    static const char prefix[] = "output.render";
    char *eq = strchr(arg, '=');
    const size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
    if (!eq) {
        fprintf(stderr, "catena: --set: expected PATH=VALUE, got '%s'\n", arg);
        return -1;
    }
    if (n >= sizeof prefix - 1 && strncmp(arg, prefix, sizeof prefix - 1) == 0 &&
        (n == sizeof prefix - 1 || arg[sizeof prefix - 1] == '.'))
        return 0;
    fprintf(stderr,
            "catena: render: --set %s: only output.render settings can change once a run is "
            "done\n",
            arg);
    return -1;
}

/* Loads RUN_DIR/scenario.json under the overrides, with rendering on. */
static struct scenario *load_run(const char *run_dir, const struct scenario_override *ov, size_t n,
                                 struct catena_error *err)
{
    char *scenario = malloc(strlen(run_dir) + sizeof "/scenario.json");
    if (!scenario) {
        error_set(err, CATENA_EFAIL, "out of memory");
        return NULL;
    }
    sprintf(scenario, "%s/scenario.json", run_dir);
    struct scenario_options o = scenario_options_default();
    o.ov = ov;
    o.nov = n;
    o.points_expected = cmd_trajectory_points(run_dir);
    struct scenario *sc = scenario_load_opts(scenario, &o, err);
    free(scenario);
    if (sc && scenario_output_enable_render(&sc->output, err)) {
        scenario_destroy(sc);
        return NULL;
    }
    return sc;
}

int cmd_render(int argc, char **argv)
{
    struct render_cli cli = {0};
    char size[32], **sets = calloc((size_t)argc, sizeof *sets);
    struct scenario_override *ov = calloc((size_t)argc + 5, sizeof *ov);
    const char *out_dir = NULL;
    size_t nsets = 0;
    int quiet = 0, sheet = 0, status = EXIT_USAGE, c;
    if (!sets || !ov) {
        free(sets);
        free(ov);
        return cmd_no_memory();
    }
    optind = 2; /* after "catena render" */
    while ((c = getopt_long(argc, argv, "ho:q", render_longopts, NULL)) != -1) {
        switch (c) {
        case 'h':
            cmd_usage(stdout);
            status = EXIT_SUCCESS;
            goto done;
        case 'o':
            if (cmd_parse_output_dir(optarg, &out_dir))
                goto bad_usage;
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
            if (check_render_set(optarg))
                goto bad_usage;
            sets[nsets++] = optarg;
            break;
        default:
            goto bad_usage;
        }
    }
    if (cmd_one_operand(argc, argv, "render", "RUN_DIR"))
        goto bad_usage;
    const char *run_dir = argv[optind];
    struct catena_error err;
    struct scenario *sc = load_run(run_dir, ov, render_overrides(&cli, sets, nsets, ov), &err);
    if (!sc) {
        status = cmd_report(&err);
        goto done;
    }
    sc->output.render->sheet.enabled |= sheet;
    status =
        cmd_render_scenario(sc, sc->output.render, run_dir, out_dir ? out_dir : run_dir, quiet);
    scenario_destroy(sc);
    goto done;
bad_usage:
    status = cmd_usage_error();
done:
    free(sets);
    free(ov);
    return status;
}
