/* catena's command line: main dispatches on the command word (or two, "sweep collect") to the
 * command's file (cmd_<name>.c, found through cli/commands.c) and makes a failed write on
 * stdout an error; the outcome is the exit status: 0 ok, 1 run failed, 2 bad usage or input,
 * 128+N signal N. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"

const char *cmd_invoked_as;

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
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
        cmd_usage(stdout);
        return EXIT_SUCCESS;
    }
    if (!strcmp(cmd, "--version"))
        return cmd_version(argc, argv);
    if (cmd[0] == '-') {
        fprintf(stderr, "catena: unrecognized option '%s'\n", cmd);
        return cmd_usage_error();
    }
    const char *words[2] = {cmd, argc > 2 ? argv[2] : NULL};
    int nwords;
    const struct cmd_spec *spec = cmd_find(words, &nwords);
    if (!spec)
        return cmd_unknown_command(cmd);
    cmd_current = spec;
    /* A command of two words sees the second as its argv[1], so that its options start at
     * argv[2] as every command's do. */
    return spec->run(argc - (nwords - 1), argv + (nwords - 1));
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
