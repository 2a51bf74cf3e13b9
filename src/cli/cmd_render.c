/* `catena render RUN_DIR`: draws the PNG frames (and contact sheet) of a finished run from its
 * scenario.json and trajectory, as its summary.json lists them, or with --video FILE pipes them
 * to ffmpeg; only output.render settings may change, since the run is done. What is drawn into
 * OUT is listed in OUT/render.json; OUT is locked while drawing; SIGINT and SIGTERM end the
 * drawing cleanly (exit 130, 143). */
#define _POSIX_C_SOURCE 200809L
#include "cli/cmd.h"

#include <getopt.h> /* optind, optarg */
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
    OPT_VIDEO,
};

static int cmd_render(int argc, char **argv);

static const struct cmd_option render_options[] = {
    {.name = "output",
     .key = 'o',
     .arg = "DIR",
     .help = "write DIR/frames and DIR/contact-sheet.png (default\nRUN_DIR)",
     .complete = CMD_DIRS},
    {.name = "fps",
     .key = OPT_FPS,
     .arg = "F",
     .help = "F frames per simulated second, interpolated"},
    {.name = "every",
     .key = OPT_EVERY,
     .arg = "K",
     .help = "a frame at every K-th step, as recorded"},
    {.name = "size", .key = OPT_SIZE, .arg = "WxH", .help = "frame size in pixels"},
    {.name = "color-by",
     .key = OPT_COLOR_BY,
     .arg = "WHAT",
     .help = "stretch, tension, speed or none",
     .complete = "stretch tension speed none"},
    {.name = "contact-sheet", .key = OPT_CONTACT_SHEET, .help = "also write contact-sheet.png"},
    {.name = "level", .key = OPT_LEVEL, .arg = "N", .help = "PNG compression level, 0 to 9"},
    {.name = "set",
     .key = OPT_SET,
     .arg = "PATH=VALUE",
     .help = "override an output.render setting, e.g.\noutput.render.line_width=3 (repeatable)"},
    {.name = "video",
     .key = OPT_VIDEO,
     .arg = "FILE",
     .help =
         "pipe the frames to ffmpeg into FILE (.mp4, .webm or\n.gif) instead of writing frames/",
     .complete = CMD_FILES},
    {.name = "quiet",
     .key = 'q',
     .help = "no progress line (shown only when stderr is a terminal)"},
    {NULL},
};

const struct cmd_spec cmd_render_spec = {
    .name = "render",
    .run = cmd_render,
    .operands = "RUN_DIR",
    .summary = "draw PNG frames of a finished run",
    .about = "Draw the PNG frames (DIR/frames/frame-NNNNNN.png) and, when asked, the contact\n"
             "sheet of a finished run from its scenario.json and trajectory. Only the\n"
             "output.render settings can change: the run is done.",
    .options = render_options,
    .example = "catena render runs/hanging-chain --fps 30 --size 640x480 --contact-sheet\n"
               "catena render runs/hanging-chain --video chain.mp4",
    .operand_complete = CMD_DIRS,
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
    const char *timing; /* "--fps" or "--every", whichever came last */
};

/* Appends the dedicated options' overrides after the --set ones, so they win; --fps and
 * --every unset one another. */
static void render_overrides(const struct render_cli *cli, struct cmd_overrides *co)
{
    cmd_overrides_add(co, "output.render.fps", cli->fps, cli->timing);
    cmd_overrides_add(co, "output.render.every", cli->every, cli->timing);
    cmd_overrides_add(co, "output.render.size", cli->size, "--size");
    cmd_overrides_add(co, "output.render.color_by", cli->color_by, "--color-by");
    cmd_overrides_add(co, "output.render.level", cli->level, "--level");
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
static struct scenario *load_run(struct rundir *run, const struct cmd_overrides *co,
                                 struct catena_error *err)
{
    char *scenario = rundir_path(run, "scenario.json", err);
    struct scenario_options so = scenario_options_default();
    if (!scenario)
        return NULL;
    cmd_overrides_use(co, &so);
    so.points_expected = cmd_trajectory_points(run->dir);
    struct scenario *sc = scenario_load_opts(scenario, &so, err);
    free(scenario);
    if (sc && scenario_output_enable_render(&sc->output, err)) {
        scenario_destroy(sc);
        return NULL;
    }
    return sc;
}

/* Draws the run in run_dir into out_dir, holding out_dir's lock, with SIGINT and SIGTERM
 * caught so that a signal ends the drawing cleanly: exit status 128+N. */
static int render_locked(struct rundir *run, struct scenario *sc, const char *out_dir,
                         const char *video, int quiet)
{
    struct dirlock lock;
    struct render_result res = {0};
    struct catena_error err;
    int rc = outfile_mkdirs(out_dir, &err);
    if (rc == CATENA_OK && (rc = dirlock_take(&lock, out_dir, &err)) == CATENA_OK) {
        rc = render_run_from(sc, sc->output.render, run, out_dir, video,
                             !quiet && isatty(STDERR_FILENO), &res, &err);
        dirlock_release(&lock);
    }
    if (rc != CATENA_OK)
        cmd_report(&err);
    return res.signal ? stop_exit_status(res.signal) : rc;
}

/* catena render RUN_DIR: the run as its manifest lists it, drawn into out_dir (or the video
 * file video, when not NULL). */
static int render_dir(const char *run_dir, const char *out_dir, const char *video,
                      const struct cmd_overrides *co, int sheet, int quiet)
{
    struct stop_handlers stop;
    struct catena_error err;
    struct rundir *run = NULL;
    struct scenario *sc = NULL;
    stop_catch(&stop); /* before anything is read: a signal while reading ends cleanly too */
    int status = rundir_open(run_dir, &run, &err);
    if (status == CATENA_OK && !(sc = load_run(run, co, &err)))
        status = err.code;
    if (status != CATENA_OK) {
        cmd_report(&err);
    } else {
        sc->output.render->sheet.enabled |= sheet;
        status = render_locked(run, sc, out_dir, video, quiet);
    }
    if (stop_requested() && status != CATENA_OK)
        status = stop_exit_status(stop_requested());
    scenario_destroy(sc);
    rundir_close(run);
    stop_restore(&stop);
    return status;
}

static int cmd_render(int argc, char **argv)
{
    struct render_cli cli = {0};
    struct cmd_overrides co; /* one --set per argument at most, and the 5 dedicated ones */
    char size[32];
    const char *out_dir = NULL, *video = NULL;
    int quiet = 0, sheet = 0, status = EXIT_USAGE, c;
    if (cmd_overrides_init(&co, (size_t)argc + 5))
        return cmd_no_memory();
    while ((c = cmd_getopt(&cmd_render_spec, argc, argv)) != -1) {
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
        case OPT_FPS:
            cli.fps = optarg;
            cli.every = "null";
            cli.timing = "--fps";
            break;
        case OPT_EVERY:
            cli.every = optarg;
            cli.fps = "null";
            cli.timing = "--every";
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
            if (check_render_set(optarg) || cmd_parse_set(optarg, &co))
                goto bad_usage;
            break;
        case OPT_VIDEO:
            video = optarg;
            break;
        default: /* CMD_OPT_BAD: reported */
            goto done;
        }
    }
    if (cmd_one_operand(argc, argv, "render", "RUN_DIR"))
        goto bad_usage;
    render_overrides(&cli, &co);
    status = render_dir(argv[optind], out_dir ? out_dir : argv[optind], video, &co, sheet, quiet);
    goto done;
bad_usage:
    status = cmd_usage_error();
done:
    cmd_overrides_free(&co);
    return status;
}
