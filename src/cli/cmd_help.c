/* `catena help [COMMAND]` (also -h, --help) and `catena --version`, and every command's --help:
 * the list of commands and each command's own help, written from the command table
 * (cli/commands.c) and the commands' specs. */
#include "config.h"

#include "cli/cmd.h"

#include <getopt.h> /* optind */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/spell.h"

/* Where an option's or a command's description starts, as in GNU's --help. */
#define HELP_COLUMN 24

/* Writes text's lines, the first after what is already on the line (at column col) unless
 * that leaves less than two spaces, each other one indented to the help column. */
static void put_lines(FILE *out, const char *text, int col)
{
    if (col + 2 > HELP_COLUMN) {
        fputc('\n', out);
        col = 0;
    }
    for (const char *line = text;; col = 0) {
        const size_t n = strcspn(line, "\n");
        fprintf(out, "%*s%.*s\n", col < HELP_COLUMN ? HELP_COLUMN - col : 1, "", (int)n, line);
        if (!line[n])
            return;
        line += n + 1;
    }
}

/* "  -o, --output=DIR" (or "      --steps=N") and its help. */
static void put_option(FILE *out, const struct cmd_option *o)
{
    int col;
    if (o->key > 0 && o->key <= CHAR_MAX)
        col = fprintf(out, "  -%c, --%s", o->key, o->name);
    else
        col = fprintf(out, "      --%s", o->name);
    if (o->arg)
        col += fprintf(out, "=%s", o->arg);
    put_lines(out, o->help, col);
}

/* Text of lines split by '\n', each indented by two spaces. */
static void put_indented(FILE *out, const char *text)
{
    for (const char *line = text;;) {
        const size_t n = strcspn(line, "\n");
        fprintf(out, "  %.*s\n", (int)n, line);
        if (!line[n])
            return;
        line += n + 1;
    }
}

void cmd_help_print(FILE *out, const struct cmd_spec *spec)
{
    fprintf(out, "Usage: catena %s [OPTION]...%s%s\n", spec->name, spec->operands ? " " : "",
            spec->operands ? spec->operands : "");
    fprintf(out, "%s\n\nOptions:\n", spec->about);
    for (const struct cmd_option *o = spec->options; o && o->name; o++)
        if (!o->retired)
            put_option(out, o);
    put_option(out,
               &(struct cmd_option){.name = "help", .key = 'h', .help = "show this help and exit"});
    if (spec->example) {
        fputs("\nExample:\n", out);
        put_indented(out, spec->example);
    }
    fprintf(out, "\nThe manual: man catena (COMMANDS and OPTIONS, \"%s\").\n", spec->name);
}

void cmd_usage(FILE *out)
{
    fputs("Usage: catena COMMAND [OPTION]... [ARGUMENT]...\n"
          "Batch simulator for position-based dynamics: ropes, chains, cloth, ragdolls,\n"
          "soft bodies. A run reads a JSON scenario and writes its trajectory, metrics and\n"
          "summary.\n"
          "\n"
          "Commands:\n",
          out);
    for (size_t i = 0; cmd_table[i]; i++) {
        const struct cmd_spec *c = cmd_table[i];
        const int col = fprintf(out, "  %s%s%s", c->name, c->operands ? " " : "",
                                c->operands ? c->operands : "");
        put_lines(out, c->summary, col);
    }
    fputs("\n"
          "'catena help COMMAND' or 'catena COMMAND --help' shows a command's options and\n"
          "an example; the manual is man catena (scenario files: man catena-scenario,\n"
          "sweeps: man catena-sweep).\n"
          "\n"
          "  -h, --help            show this help and exit\n"
          "      --version         show the version and exit\n"
          "\n"
          "Exit status: 0 success; 1 the run failed (diverged, output not written),\n"
          "trajectories differ beyond tolerance, or a run of a sweep failed;\n"
          "2 bad usage or bad input; 128+N interrupted by signal N.\n",
          out);
}

int cmd_unknown_command(const char *word)
{
    const char *names[64];
    size_t n = 0;
    for (size_t i = 0; cmd_table[i] && n < 63; i++)
        if (!strchr(cmd_table[i]->name, ' '))
            names[n++] = cmd_table[i]->name;
    names[n] = NULL;
    const char *hint = spell_closest(word, names, sizeof *names);
    fprintf(stderr, "catena: unknown command '%s'", word);
    if (hint) {
        fprintf(stderr, " (did you mean '%s'?)\n", hint);
    } else {
        fputs(" (commands: ", stderr);
        for (size_t i = 0; i < n; i++)
            fprintf(stderr, "%s%s", i ? ", " : "", names[i]);
        fputs(")\n", stderr);
    }
    const struct cmd_spec *was = cmd_current;
    cmd_current = NULL; /* the hint is the program's help */
    cmd_usage_error();
    cmd_current = was;
    return EXIT_USAGE;
}

const struct cmd_spec *cmd_find(const char *const *words, int *nwords)
{
    const struct cmd_spec *one = NULL;
    for (size_t i = 0; cmd_table[i]; i++) {
        const char *name = cmd_table[i]->name, *space = strchr(name, ' ');
        if (!space && strcmp(name, words[0]) == 0)
            one = cmd_table[i];
        else if (space && words[1] && strncmp(name, words[0], (size_t)(space - name)) == 0 &&
                 !words[0][space - name] && strcmp(space + 1, words[1]) == 0) {
            *nwords = 2;
            return cmd_table[i];
        }
    }
    *nwords = 1;
    return one;
}

/* catena help [COMMAND [SUBCOMMAND]] */
static int cmd_help(int argc, char **argv)
{
    const int c = cmd_getopt(&cmd_help_spec, argc, argv);
    if (c != -1)
        return c == CMD_OPT_HELP ? EXIT_SUCCESS : EXIT_USAGE;
    if (optind >= argc) {
        cmd_usage(stdout);
        return EXIT_SUCCESS;
    }
    const char *words[2] = {argv[optind], optind + 1 < argc ? argv[optind + 1] : NULL};
    int nwords;
    const struct cmd_spec *spec = cmd_find(words, &nwords);
    if (!spec)
        return cmd_unknown_command(argv[optind]);
    if (optind + nwords < argc) {
        fprintf(stderr, "catena: help: unexpected argument '%s'\n", argv[optind + nwords]);
        return cmd_usage_error();
    }
    cmd_help_print(stdout, spec);
    return EXIT_SUCCESS;
}

const struct cmd_spec cmd_help_spec = {
    .name = "help",
    .run = cmd_help,
    .operands = "[COMMAND]",
    .summary = "show the commands, or a command's options and an example",
    .about = "Show the list of commands, or COMMAND's usage, options and an example.",
    .example = "catena help run\ncatena help sweep collect",
    .operand_complete = CMD_COMMANDS,
};

int cmd_version(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    puts("catena " PACKAGE_VERSION);
    return EXIT_SUCCESS;
}
