/* `catena validate SCENARIO...`: loads each scenario as run would and prints what it would
 * simulate (cli/describe.h); the exit status is the worst of the scenarios'. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cmd.h"

#include <getopt.h> /* optind, optarg */
#include <limits.h>
#include <stdlib.h>

#include "cli/describe.h"
#include "core/warnings.h"
#include "scenario/setup_warnings.h"

enum { OPT_MAX_POINTS = CHAR_MAX + 1 };

static int cmd_validate(int argc, char **argv);

static const struct cmd_option validate_options[] = {
    {.name = "max-points",
     .key = OPT_MAX_POINTS,
     .arg = "N",
     .help = "refuse scenarios of more than N points (default\n50000000)"},
    {.name = "quiet", .key = 'q', .help = "print nothing but errors: the exit status says it all"},
    {NULL},
};

const struct cmd_spec cmd_validate_spec = {
    .name = "validate",
    .run = cmd_validate,
    .operands = "SCENARIO...",
    .summary = "check scenarios and print what they would simulate",
    .about = "Load each SCENARIO as run would (- reads one from standard input), check it and\n"
             "print what it would simulate: its points, links, bodies and the effective\n"
             "parameters, and warn on standard error about set-ups that cannot be satisfied\n"
             "(not errors). Nothing is simulated and nothing is written.",
    .options = validate_options,
    .example = "catena validate scenarios/*.json",
    .operand_complete = CMD_JSON,
};

/* The scenario's contradictory set-ups (scenario/setup_warnings.h), on stderr as run prints
 * them; out of memory, none. */
static void warn_setup(const char *arg, const struct scenario *sc)
{
    struct warnings w = {0};
    if (setup_warnings(sc->model, &w) == 0)
        warnings_print(stderr, sc->provenance.source ? sc->provenance.source : arg, &w, 0);
    warnings_clear(&w);
}

static int cmd_validate(int argc, char **argv)
{
    int c, quiet = 0;
    struct scenario_options so = scenario_options_default();
    while ((c = cmd_getopt(&cmd_validate_spec, argc, argv)) != -1) {
        if (c == CMD_OPT_HELP)
            return EXIT_SUCCESS;
        if (c == 'q')
            quiet = 1;
        else if (c != OPT_MAX_POINTS) /* CMD_OPT_BAD: reported */
            return EXIT_USAGE;
        else if (cmd_parse_max_points(optarg, &so.max_points))
            return cmd_usage_error();
    }
    if (optind >= argc) {
        fputs("catena: validate: missing SCENARIO\n", stderr);
        return cmd_usage_error();
    }
    int status = EXIT_SUCCESS, described = 0;
    for (int i = optind; i < argc; i++) {
        struct catena_error err;
        struct scenario *sc = scenario_load_opts(argv[i], &so, &err);
        if (!sc) {
            const int code = cmd_report(&err);
            status = code > status ? code : status;
            continue;
        }
        if (!quiet) {
            if (described++)
                putchar('\n');
            describe_scenario(stdout, sc);
            fflush(stdout); /* the description before its warnings, on a terminal */
            warn_setup(argv[i], sc);
        }
        scenario_destroy(sc);
    }
    return status;
}
