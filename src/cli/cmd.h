/* The commands of the catena program, one file each (cmd_<name>.c), and the helpers they
 * share for operands, options and messages. Each command is described by a struct cmd_spec
 * (its name, operands, options, an example), listed in cli/commands.c: the one source of its
 * --help, `catena help CMD`, the did-you-mean hints, getopt_long's tables and the shell
 * completion. Each command gets main's argv with argv[1] its own (last) word and returns the
 * exit status: 0 ok, 1 failed, 2 bad usage or input, 128+N signal N.
 *
 * Adding a command: write cmd_NAME.c with its table of options (rows with designated
 * initializers, {.name = "steps", .key = OPT_STEPS, .arg = "N", .help = "..."}; a key is a
 * short letter or a number above CHAR_MAX for a long-only option), `const struct cmd_spec
 * cmd_NAME_spec`, and a loop `while ((c = cmd_getopt(&cmd_NAME_spec, argc, argv)) != -1)`
 * with `case CMD_OPT_HELP: return 0` and `default: return EXIT_USAGE`; declare the spec below
 * and list it in cli/commands.c; document it in man/catena.1 (COMMANDS, and its options under
 * ".SS Options of NAME": tests/help.sh checks that every option is there). An option of an
 * existing command is one more row of its table. */
#ifndef CATENA_CMD_H
#define CATENA_CMD_H

#include <stdio.h>

#include "core/error.h"
#include "model/model.h"
#include "render/render.h"
#include "scenario/scenario.h"

#define EXIT_USAGE CATENA_EINPUT

/* How messages name standard input, read for the operand "-". */
#define CMD_STDIN "<stdin>"

/* argv[0] as the program was started, before main renames it for getopt's messages: sweeps
 * run this same program. */
extern const char *cmd_invoked_as;

/* One option of a command. Tables end with a row whose name is NULL. */
struct cmd_option {
    const char *name; /* the long name, "output" (given as --output) */
    int key;          /* what cmd_getopt returns for it: its short letter ('o', also given as
                         -o) or a number above CHAR_MAX for a long-only option */
    const char *arg;  /* the argument's name in the help ("DIR"); NULL: it takes none */
    const char *help; /* what it does, for --help: lines split by '\n' */
    /* What a shell completes its argument to: CMD_FILES, CMD_DIRS, CMD_JSON (*.json files
     * and directories), or the words it takes, space-separated ("csv json npy"); NULL:
     * nothing (a number). */
    const char *complete;
    /* A retired option: the message given when it is used (it is a usage error, and the
     * help and the completion leave it out); NULL for a live one. */
    const char *retired;
};

#define CMD_FILES "<file>"
#define CMD_DIRS "<dir>"
#define CMD_JSON "<json>"
#define CMD_COMMANDS "<command>" /* the command names (for catena help) */

/* A command: what `catena help`, --help and the completion know of it. */
struct cmd_spec {
    const char *name; /* "run", or "sweep collect" for a command of two words */
    int (*run)(int argc, char **argv);
    const char *operands;             /* after [OPTION]... in the usage line: "SCENARIO", "A B" */
    const char *summary;              /* one line for the list of commands */
    const char *about;                /* what it does, a paragraph of lines split by '\n' */
    const struct cmd_option *options; /* NULL or a table; -h, --help is added to every one */
    const char *example;              /* one or more command lines, split by '\n' */
    const char *operand_complete;     /* what its operands complete to, as cmd_option.complete */
};

/* The commands, in the order `catena help` lists them (cli/commands.c). */
extern const struct cmd_spec *const cmd_table[];

/* The command named by words[0] (and words[1] for a command of two words, "sweep collect";
 * words[1] may be NULL) or NULL; *nwords gets how many words its name has. */
const struct cmd_spec *cmd_find(const char *const *words, int *nwords);

/* "unknown command 'WORD'" with a did-you-mean and the list of commands, and the hint to
 * catena --help, on stderr; returns the usage exit status. */
int cmd_unknown_command(const char *word);

/* The command running now, for the messages that name it ("Try 'catena run --help'"); set
 * by main before it calls the command. NULL outside any command. */
extern const struct cmd_spec *cmd_current;

extern const struct cmd_spec cmd_help_spec, cmd_run_spec, cmd_validate_spec, cmd_render_spec,
    cmd_catenary_spec, cmd_compare_spec, cmd_sweep_spec, cmd_sweep_collect_spec, cmd_bench_spec,
    cmd_plot_spec, cmd_sweep_plot_spec, cmd_schema_spec, cmd_completion_spec, cmd_regress_spec;

int cmd_version(int argc, char **argv);

/* cmd_getopt's answers beside the options' keys and -1 (no more options): --help was asked
 * for and printed (exit 0), or a bad option was reported with the hint (exit 2). */
enum { CMD_OPT_HELP = -2, CMD_OPT_BAD = -3 };

/* getopt_long over the spec's options, with optind starting at 2 (after "catena CMD"), and
 * opterr off: an unknown option gets a did-you-mean, a retired one its message, each with
 * "Try 'catena CMD --help'" (cli/options.c). Options and operands may be mixed, as
 * getopt_long permutes them; "--" ends the options. */
int cmd_getopt(const struct cmd_spec *spec, int argc, char **argv);

/* The command's help (usage, what it does, its options, an example) (cli/cmd_help.c). */
void cmd_help_print(FILE *out, const struct cmd_spec *spec);

/* The help of the whole program: the commands, one line each. */
void cmd_usage(FILE *out);

/* "Try 'catena CMD --help' for more information." on stderr (catena --help outside a
 * command); returns the usage exit status. */
int cmd_usage_error(void);

/* Prints err as "catena: MESSAGE"; returns its code. */
int cmd_report(const struct catena_error *err);

/* Prints each warning of w on stderr as "catena: LABEL: warning: MESSAGE". */
void cmd_warnings(const char *label, const struct warnings *w);

/* Prints "catena: out of memory"; returns CATENA_EFAIL. */
int cmd_no_memory(void);

/* Loads the scenario file path under the options, or for "-" the scenario on standard input
 * (messages then say "<stdin>"; without "name" it is named "stdin"); a terminal on standard
 * input is refused rather than waited on. NULL with err set on failure. */
struct scenario *cmd_load_scenario(const char *path, const struct scenario_options *so,
                                   struct catena_error *err);

/* Checks that exactly one operand, WHAT, follows the options of command CMD; says what is
 * wrong and returns -1 otherwise. */
int cmd_one_operand(int argc, char **argv, const char *cmd, const char *what);

/* --max-points N: a count >= 1, checked here so that a typo is a usage error. */
int cmd_parse_max_points(const char *arg, long long *out);

/* The scenario overrides a command's options make, each with the option that made it, so
 * that the loader's messages name the option ("catena: --steps: must be at least 0"). */
struct cmd_overrides {
    struct scenario_override *ov; /* [cap] */
    const char **names;           /* [cap] "--steps", or "--set" */
    size_t n, cap;
};

/* Room for cap overrides; returns -1 when out of memory. */
int cmd_overrides_init(struct cmd_overrides *co, size_t cap);
void cmd_overrides_free(struct cmd_overrides *co);

/* Appends path=value, made by option (value NULL: the option was not given, nothing added). */
void cmd_overrides_add(struct cmd_overrides *co, const char *path, const char *value,
                       const char *option);

/* Hands the overrides to the loader's options. */
void cmd_overrides_use(const struct cmd_overrides *co, struct scenario_options *so);

/* --set PATH=VALUE: splits arg in place and appends it as an override. */
int cmd_parse_set(char *arg, struct cmd_overrides *co);

/* A tolerance option (--atol, --rtol, ...): a finite number >= 0, the whole argument. Says
 * what is wrong, naming option, and returns -1 otherwise. */
int cmd_parse_tolerance(const char *option, const char *text, double *out);

/* A range option (--steps, --points): N, FIRST..LAST, FIRST.. or ..LAST (core/range.h), an
 * open end RANGE_OPEN. The deprecated FIRST:LAST is read with a warning on stderr. Says what
 * is wrong and returns -1 otherwise. */
int cmd_parse_range(const char *option, const char *arg, long *first, long *last);

/* --max-memory SIZE: bytes with an optional K, M, G or T (memory_parse, core/memory.h). */
int cmd_parse_max_memory(const char *arg, double *out);

/* -o DIR: a directory name, neither empty nor the root directory (outputs there would
 * land in the current directory or in / without anyone asking). Says what is wrong and
 * returns -1 otherwise. */
int cmd_parse_output_dir(const char *arg, const char **out);

/* The most points per frame among the trajectories at path (a trajectory file, or the
 * trajectory.npy, .csv and .json its manifest lists for a run directory), read from their
 * headers; 0 when there
 * is none to read. render and catenary load a run's scenario.json with this as
 * points_expected, so that a scenario edited into a huge one is refused before its model is
 * built. */
long long cmd_trajectory_points(const char *path);

#endif
