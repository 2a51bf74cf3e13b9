/* What the commands (cmd_*.c) share: the usage-error and error lines on stderr, the operand
 * check, and the options more than one command takes (--set, --max-points). */
#define _POSIX_C_SOURCE 200809L
#include "cli/cmd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/memory.h"
#include "core/path.h"
#include "io/traj_read.h"

int cmd_usage_error(void)
{
    fputs("Try 'catena --help' for more information.\n", stderr);
    return EXIT_USAGE;
}

int cmd_report(const struct catena_error *err)
{
    fprintf(stderr, "catena: %s\n", err->msg);
    return err->code;
}

int cmd_no_memory(void)
{
    return cmd_report(&(struct catena_error){CATENA_EFAIL, "out of memory"});
}

int cmd_one_operand(int argc, char **argv, const char *cmd, const char *what)
{
    if (optind >= argc) {
        fprintf(stderr, "catena: %s: missing %s\n", cmd, what);
        return -1;
    }
    if (optind + 1 < argc) {
        fprintf(stderr, "catena: %s: unexpected argument '%s'\n", cmd, argv[optind + 1]);
        return -1;
    }
    return 0;
}

int cmd_parse_max_points(const char *arg, long long *out)
{
    char *end;
    errno = 0;
    const long long n = strtoll(arg, &end, 10);
    if (end == arg || *end || errno || n < 1) {
        fprintf(stderr, "catena: --max-points: expected a whole number of points >= 1, got '%s'\n",
                arg);
        return -1;
    }
    *out = n;
    return 0;
}

int cmd_parse_max_memory(const char *arg, double *out)
{
    if (memory_parse(arg, out) == 0)
        return 0;
    fprintf(stderr, "catena: --max-memory: expected a size such as 512M or 4G, got '%s'\n", arg);
    return -1;
}

int cmd_parse_output_dir(const char *arg, const char **out)
{
    if (!*arg) {
        fputs("catena: -o: expected a directory, got an empty name\n", stderr);
        return -1;
    }
    if (path_is_root(arg)) {
        fprintf(stderr,
                "catena: -o: '%s' is the root directory; give a directory for the outputs\n", arg);
        return -1;
    }
    *out = arg;
    return 0;
}

long long cmd_trajectory_points(const char *path)
{
    static const char *const names[] = {"trajectory.npy", "trajectory.csv", "trajectory.json"};
    struct stat st;
    if (stat(path, &st) != 0)
        return 0;
    long long most = 0;
    for (size_t i = 0; i < (S_ISDIR(st.st_mode) ? sizeof names / sizeof *names : 1); i++) {
        char *file = S_ISDIR(st.st_mode) ? path_join(path, names[i]) : NULL;
        struct catena_error err;
        struct traj_reader *rd = NULL;
        if (!S_ISDIR(st.st_mode) || (file && access(file, F_OK) == 0))
            rd = traj_read_open(file ? file : path, &err);
        if (rd && (long long)traj_read_info(rd)->npoints > most)
            most = (long long)traj_read_info(rd)->npoints;
        traj_read_close(rd);
        free(file);
    }
    return most;
}

int cmd_parse_set(char *arg, struct scenario_override *ov)
{
    char *eq = strchr(arg, '=');
    if (!eq || eq == arg) {
        fprintf(stderr, "catena: --set: expected PATH=VALUE, got '%s'\n", arg);
        return -1;
    }
    *eq = '\0';
    *ov = (struct scenario_override){.path = arg, .value = eq + 1};
    return 0;
}
