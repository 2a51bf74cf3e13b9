/* `catena render RUN_DIR`: draws the PNG frames (and contact sheet) of a finished run from its
 * scenario.json and trajectory, as its summary.json lists them; only output.render settings may
 * change, since the run is done. The frames are listed in OUT/render.json; OUT is locked while
 * they are drawn; SIGINT and SIGTERM end the drawing cleanly (exit 130, 143). */
#define _POSIX_C_SOURCE 200809L
#include "cli/cmd.h"

#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/dirlock.h"
#include "core/outfile.h"
#include "core/stop.h"
#include "io/rundir.h"

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

/* Loads the run's scenario.json (as its manifest lists it) under the overrides, with
 * rendering on. */
static struct scenario *load_run(struct rundir *run, const struct scenario_override *ov, size_t n,
                                 struct catena_error *err)
{
    char *scenario = rundir_path(run, "scenario.json", err);
    if (!scenario)
        return NULL;
    struct scenario *sc = scenario_load(scenario, ov, n, err);
    free(scenario);
    if (sc && scenario_output_enable_render(&sc->output, err)) {
        scenario_destroy(sc);
        return NULL;
    }
    return sc;
}

/* Draws the run in run_dir into out_dir, holding out_dir's lock, with SIGINT and SIGTERM
 * caught so that a signal ends the drawing cleanly: exit status 128+N. */
static int render_locked(struct rundir *run, struct scenario *sc, const char *out_dir, int quiet)
{
    struct dirlock lock;
    struct render_result res = {0};
    struct catena_error err;
    int rc = outfile_mkdirs(out_dir, &err);
    if (rc == CATENA_OK && (rc = dirlock_take(&lock, out_dir, &err)) == CATENA_OK) {
        rc = render_run_from(sc, sc->output.render, run, out_dir, !quiet && isatty(STDERR_FILENO),
                             &res, &err);
        dirlock_release(&lock);
    }
    if (rc != CATENA_OK)
        cmd_report(&err);
    return res.signal ? stop_exit_status(res.signal) : rc;
}

/* catena render RUN_DIR: the run as its manifest lists it, drawn into out_dir. */
static int render_dir(const char *run_dir, const char *out_dir, const struct scenario_override *ov,
                      size_t nov, int sheet, int quiet)
{
    struct stop_handlers stop;
    struct catena_error err;
    struct rundir *run = NULL;
    struct scenario *sc = NULL;
    stop_catch(&stop); /* before anything is read: a signal while reading ends cleanly too */
    int status = rundir_open(run_dir, &run, &err);
    if (status == CATENA_OK && !(sc = load_run(run, ov, nov, &err)))
        status = err.code;
    if (status != CATENA_OK) {
        cmd_report(&err);
    } else {
        sc->output.render->sheet.enabled |= sheet;
        status = render_locked(run, sc, out_dir, quiet);
    }
    if (stop_requested() && status != CATENA_OK)
        status = stop_exit_status(stop_requested());
    scenario_destroy(sc);
    rundir_close(run);
    stop_restore(&stop);
    return status;
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
    status = render_dir(argv[optind], out_dir ? out_dir : argv[optind], ov,
                        render_overrides(&cli, sets, nsets, ov), sheet, quiet);
    goto done;
bad_usage:
    status = cmd_usage_error();
done:
    free(sets);
    free(ov);
    return status;
}
