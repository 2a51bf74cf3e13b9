/* The commands of the catena program, one file each (cmd_<name>.c), and the helpers they
 * share for operands, options and messages. Each command gets main's argv with argv[1] its
 * name and returns the exit status: 0 ok, 1 failed, 2 bad usage or input, 128+N signal N.
 * Each parses its options with getopt_long, numbering its long-only ones above CHAR_MAX so
 * they never clash with short ones. */
#ifndef CATENA_CMD_H
#define CATENA_CMD_H

#include <stdio.h>

#include "core/error.h"
#include "model/model.h"
#include "render/render.h"
#include "scenario/scenario.h"

#define EXIT_USAGE CATENA_EINPUT

/* argv[0] as the program was started, before main renames it for getopt's messages: sweeps
 * run this same program. */
extern const char *cmd_invoked_as;

int cmd_help(int argc, char **argv);
int cmd_version(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_catenary(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_sweep(int argc, char **argv);

/* The help text, for --help (stdout) and nowhere else. */
void cmd_usage(FILE *out);

/* "Try 'catena --help'" on stderr; returns the usage exit status. */
int cmd_usage_error(void);

/* Prints err as "catena: MESSAGE"; returns its code. */
int cmd_report(const struct catena_error *err);

/* Prints "catena: out of memory"; returns CATENA_EFAIL. */
int cmd_no_memory(void);

/* Checks that exactly one operand, WHAT, follows the options of command CMD; says what is
 * wrong and returns -1 otherwise. */
int cmd_one_operand(int argc, char **argv, const char *cmd, const char *what);

/* --max-points N: a count >= 1, checked here so that a typo is a usage error. */
int cmd_parse_max_points(const char *arg, long long *out);

/* --max-memory SIZE: bytes with an optional K, M, G or T (memory_parse, core/memory.h). */
int cmd_parse_max_memory(const char *arg, double *out);

/* -o DIR: a directory name, neither empty nor the root directory (outputs there would
 * land in the current directory or in / without anyone asking). Says what is wrong and
 * returns -1 otherwise. */
int cmd_parse_output_dir(const char *arg, const char **out);

/* The most points per frame among the trajectories at path (a trajectory file, or the
 * trajectory.npy, .csv and .json of a run directory), read from their headers; 0 when there
 * is none to read. render and catenary load a run's scenario.json with this as
 * points_expected, so that a scenario edited into a huge one is refused before its model is
 * built. */
long long cmd_trajectory_points(const char *path);

/* --set PATH=VALUE: splits arg in place into an override. */
int cmd_parse_set(char *arg, struct scenario_override *ov);

/* Draws the frames of a run of sc in run_dir into out_dir with the options o
 * (cli/cmd_render.c); returns an exit status. */
int cmd_render_scenario(const struct scenario *sc, const struct render_opts *o, const char *run_dir,
                        const char *out_dir, int quiet);

#endif
