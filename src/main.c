/* catena's command line: main dispatches on the command word to its file (cmd_<name>.c, see
 * cli/cmd.h) and makes a failed write on stdout an error; the outcome is the exit status: 0 ok,
 * 1 run failed, 2 bad usage or input, 128+N signal N. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/cmd_bench.h"

const char *cmd_invoked_as;

/* The command words and what runs them. */
static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} commands[] = {
    {"-h", cmd_help},           {"--help", cmd_help},       {"help", cmd_help},
    {"--version", cmd_version}, {"run", cmd_run},           {"validate", cmd_validate},
    {"render", cmd_render},     {"catenary", cmd_catenary}, {"compare", cmd_compare},
    {"sweep", cmd_sweep},       {"bench", cmd_bench},       {"regress", cmd_regress},
};

/* A write error on stdout (full disk, closed pipe) must not pass for success. */
static int close_stdout(int status)
{
    int failed = ferror(stdout);
    errno = 0;
    if (fflush(stdout) != 0)
        failed = 1;
    /* EBADF: stdout was closed by the caller and nothing was written to it. */
    if (fclose(stdout) != 0 && errno != EBADF)
        failed = 1;
    if (!failed)
        return status;
    if (errno)
        fprintf(stderr, "catena: write error on standard output: %s\n", strerror(errno));
    else
        fputs("catena: write error on standard output\n", stderr);
    return status != EXIT_SUCCESS ? status : CATENA_EFAIL;
}

static int dispatch(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : NULL;
    if (!cmd) {
        fputs("catena: missing command\n", stderr);
        return cmd_usage_error();
    }
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcmp(cmd, commands[i].name))
            return commands[i].run(argc, argv);
    if (cmd[0] == '-')
        fprintf(stderr, "catena: unrecognized option '%s'\n", cmd);
    else
        fprintf(stderr,
                "catena: unknown command '%s' (commands: run, validate, render, catenary, compare, "
                "sweep, regress, bench, help)\n",
                cmd);
    return cmd_usage_error();
}

int main(int argc, char **argv)
{
    /* getopt names the program by argv[0] in its messages; catena's all start "catena: ". */
    static char program_name[] = "catena";
    if (argc > 0) {
        cmd_invoked_as = argv[0];
        argv[0] = program_name;
    }
    return close_stdout(dispatch(argc, argv));
}
