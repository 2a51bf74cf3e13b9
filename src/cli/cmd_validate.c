/* `catena validate SCENARIO...`: loads each scenario as run would and prints what it would
 * simulate (cli/describe.h), as text or one line of JSON each; the exit status is the worst of
 * the scenarios'. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cmd.h"

#include <getopt.h> /* optind, optarg */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli/describe.h"
#include "solver/solver.h"

enum { OPT_MAX_POINTS = CHAR_MAX + 1, OPT_JSON, OPT_MAX_MEMORY };

static int cmd_validate(int argc, char **argv);

static const struct cmd_option validate_options[] = {
    {.name = "max-points",
     .key = OPT_MAX_POINTS,
     .arg = "N",
     .help = "refuse scenarios of more than N points (default\n50000000)"},
    {.name = "json",
     .key = OPT_JSON,
     .help = "describe each scenario as one line of JSON (an object\nwith \"valid\": false and the "
             "error for a bad one)"},
    {.name = "max-memory",
     .key = OPT_MAX_MEMORY,
     .arg = "SIZE",
     .help = "refuse scenarios estimated to need more memory\n(512M, 4G; default: the machine's "
             "memory)"},
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
             "parameters. Nothing is simulated and nothing is written.",
    .options = validate_options,
    .example = "catena validate scenarios/*.json\ncatena validate --json - <scenario.json",
    .operand_complete = CMD_JSON,
};

/* One scenario's line of --json: its description, or {"file", "valid": false, "error"}. */
static int print_json(const char *file, const struct scenario *sc, const struct catena_error *err)
{
    cJSON *o = sc ? describe_scenario_json(sc) : cJSON_CreateObject();
    if (o && !sc &&
        !(cJSON_AddStringToObject(o, "file", file) && cJSON_AddFalseToObject(o, "valid") &&
          cJSON_AddStringToObject(o, "error", err->msg))) {
        cJSON_Delete(o);
        o = NULL;
    }
    char *text = o ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    if (!text)
        return cmd_no_memory();
    puts(text);
    free(text);
    return EXIT_SUCCESS;
}

/* What run refuses before its first step (solver_check: under solver.global, a body whose
 * factorisation would pass solver.global_limit), said as run says it; 1 then. */
static int refused(const char *file, const struct scenario *sc, struct catena_error *err)
{
    if (solver_check(sc->model, err) == CATENA_OK)
        return 0;
    char msg[sizeof err->msg];
    snprintf(msg, sizeof msg, "%s", err->msg);
    error_set(err, err->code, "%s: %s", file, msg);
    return 1;
}

static int cmd_validate(int argc, char **argv)
{
    int c, quiet = 0, json = 0;
    struct scenario_options so = scenario_options_default();
    while ((c = cmd_getopt(&cmd_validate_spec, argc, argv)) != -1) {
        if (c == CMD_OPT_HELP)
            return EXIT_SUCCESS;
        if (c == 'q')
            quiet = 1;
        else if (c == OPT_JSON)
            json = 1;
        else if (c == OPT_MAX_MEMORY) {
            if (cmd_parse_max_memory(optarg, &so.max_memory))
                return cmd_usage_error();
        } else if (c != OPT_MAX_POINTS) /* CMD_OPT_BAD: reported */
            return EXIT_USAGE;
        else if (cmd_parse_max_points(optarg, &so.max_points))
            return cmd_usage_error();
    }
    if (optind >= argc) {
        fputs("catena: validate: missing SCENARIO\n", stderr);
        return cmd_usage_error();
    }
    int stdins = 0;
    for (int i = optind; i < argc; i++)
        stdins += strcmp(argv[i], "-") == 0;
    if (stdins > 1) {
        fputs("catena: validate: - (standard input) given more than once\n", stderr);
        return cmd_usage_error();
    }
    int status = EXIT_SUCCESS, described = 0;
    for (int i = optind; i < argc; i++) {
        struct catena_error err;
        const char *file = strcmp(argv[i], "-") ? argv[i] : CMD_STDIN;
        struct scenario *sc = cmd_load_scenario(argv[i], &so, &err);
        if (sc && refused(file, sc, &err)) {
            scenario_destroy(sc);
            sc = NULL;
        }
        int code = sc ? EXIT_SUCCESS : cmd_report(&err);
        if (sc && !quiet) /* -q: errors only (a run prints the warnings again) */
            cmd_warnings(file, &sc->warnings);
        if (json && !quiet) {
            const int rc = print_json(file, sc, &err);
            code = rc > code ? rc : code;
        } else if (sc && !quiet) {
            if (described++)
                putchar('\n');
            describe_scenario(stdout, sc);
        }
        status = code > status ? code : status;
        scenario_destroy(sc);
    }
    return status;
}
