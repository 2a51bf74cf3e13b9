/* `catena validate SCENARIO...`: loads each scenario as run would and prints what it would
 * simulate (cli/describe.h); the exit status is the worst of the scenarios'. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cmd.h"

#include <getopt.h>
#include <limits.h>
#include <stdlib.h>

#include "cli/describe.h"

enum { OPT_MAX_POINTS = CHAR_MAX + 1, OPT_MAX_MEMORY };

static const struct option validate_longopts[] = {
    {"max-points", required_argument, NULL, OPT_MAX_POINTS},
    {"max-memory", required_argument, NULL, OPT_MAX_MEMORY},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

int cmd_validate(int argc, char **argv)
{
    int c;
    struct scenario_options so = scenario_options_default();
    optind = 2; /* after "catena validate" */
    while ((c = getopt_long(argc, argv, "h", validate_longopts, NULL)) != -1) {
        if (c == OPT_MAX_POINTS && cmd_parse_max_points(optarg, &so.max_points) == 0)
            continue;
        if (c == OPT_MAX_MEMORY && cmd_parse_max_memory(optarg, &so.max_memory) == 0)
            continue;
        if (c != 'h')
            return cmd_usage_error();
        cmd_usage(stdout);
        return EXIT_SUCCESS;
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
        if (described++)
            putchar('\n');
        describe_scenario(stdout, sc);
        scenario_destroy(sc);
    }
    return status;
}
