/* What the commands (cmd_*.c) share: the usage-error and error lines on stderr, the operand
 * check, and the options more than one command takes (--set, --max-points). */
#define _POSIX_C_SOURCE 200809L
#include "cli/cmd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/path.h"

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
