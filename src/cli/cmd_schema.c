/* `catena schema scenario|sweep`: the JSON Schema (draft 2020-12) of scenario or sweep files on
 * standard output, written from the loaders' key tables (scenario/schema.h), for editors to
 * complete and check files with, and for checkers such as python3-jsonschema. */
#include "cli/cmd.h"

#include <getopt.h> /* optind */
#include <stdlib.h>
#include <string.h>

#include "scenario/schema.h"
#include "sweep/sweep.h"

static int cmd_schema(int argc, char **argv);

const struct cmd_spec cmd_schema_spec = {
    .name = "schema",
    .run = cmd_schema,
    .operands = "scenario|sweep",
    .summary = "print the JSON Schema of scenario or sweep files",
    .about = "Print the JSON Schema (draft 2020-12) of scenario files (man catena-scenario) or\n"
             "sweep files (man catena-sweep), made from the loader's own key tables: an editor\n"
             "completes and checks files with it. The loader checks more (ranges, references,\n"
             "keys that exclude each other); the schema knows every key and what it holds.",
    .example = "catena schema scenario >catena-scenario.schema.json",
    .operand_complete = "scenario sweep",
};

static int cmd_schema(int argc, char **argv)
{
    const int c = cmd_getopt(&cmd_schema_spec, argc, argv);
    if (c != -1)
        return c == CMD_OPT_HELP ? EXIT_SUCCESS : EXIT_USAGE;
    if (cmd_one_operand(argc, argv, "schema", "scenario or sweep"))
        return cmd_usage_error();
    const char *which = argv[optind];
    struct catena_error err;
    cJSON *doc;
    if (strcmp(which, "scenario") == 0) {
        doc = scenario_schema(&err);
    } else if (strcmp(which, "sweep") == 0) {
        doc = sweep_schema(&err);
    } else {
        fprintf(stderr, "catena: schema: unknown file kind '%s' (valid: scenario, sweep)\n", which);
        return cmd_usage_error();
    }
    char *text = doc ? cJSON_Print(doc) : NULL;
    cJSON_Delete(doc);
    if (!text)
        return doc ? cmd_no_memory() : cmd_report(&err);
    puts(text);
    free(text);
    return EXIT_SUCCESS;
}
