/* What the commands (cmd_*.c) share: the usage-error and error lines on stderr, the operand
 * check, and the options more than one command takes (--set, --max-points, ranges). */
#define _POSIX_C_SOURCE 200809L
#include "cli/cmd.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/memory.h"
#include "core/path.h"
#include "core/range.h"
#include "io/rundir.h"
#include "io/traj_read.h"

int cmd_usage_error(void)
{
    if (cmd_current && cmd_current != &cmd_help_spec)
        fprintf(stderr, "Try 'catena %s --help' for more information.\n", cmd_current->name);
    else
        fputs("Try 'catena --help' for more information.\n", stderr);
    return EXIT_USAGE;
}

int cmd_report(const struct catena_error *err)
{
    fprintf(stderr, "catena: %s\n", err->msg);
    return err->code;
}

void cmd_warnings(const char *label, const struct warnings *w)
{
    for (size_t i = 0; i < w->n; i++)
        fprintf(stderr, "catena: %s: warning: %s\n", label, w->list[i].message);
}

int cmd_no_memory(void)
{
    return cmd_report(&(struct catena_error){CATENA_EFAIL, "out of memory"});
}

/* Standard input, whole, into a malloc'd buffer; NULL when out of memory or unreadable. */
static char *read_stdin(size_t *len, struct catena_error *err)
{
    size_t cap = 65536;
    char *buf = malloc(cap);
    *len = 0;
    while (buf) {
        const size_t r = fread(buf + *len, 1, cap - *len, stdin);
        *len += r;
        if (r == 0)
            break;
        if (*len == cap) {
            char *more = realloc(buf, cap *= 2);
            if (!more)
                free(buf);
            buf = more;
        }
    }
    if (!buf)
        error_set(err, CATENA_EFAIL, "%s: out of memory", CMD_STDIN);
    else if (ferror(stdin)) {
        error_set(err, CATENA_EINPUT, "%s: cannot read: %s", CMD_STDIN, strerror(errno));
        free(buf);
        buf = NULL;
    }
    return buf;
}

struct scenario *cmd_load_scenario(const char *path, const struct scenario_options *so,
                                   struct catena_error *err)
{
    if (strcmp(path, "-") != 0)
        return scenario_load_opts(path, so, err);
    if (isatty(STDIN_FILENO)) {
        error_set(err, CATENA_EINPUT,
                  "%s: standard input is a terminal; pipe a scenario in (catena run - <FILE) or "
                  "name the file",
                  CMD_STDIN);
        return NULL;
    }
    size_t len;
    char *text = read_stdin(&len, err);
    if (!text)
        return NULL;
    struct scenario_options o = *so;
    o.default_name = "stdin";
    struct scenario *sc = scenario_parse_opts(CMD_STDIN, text, len, &o, err);
    free(text);
    return sc;
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

/* The points per frame of the trajectory file at path; 0 when it cannot be read. */
static long long file_points(const char *path)
{
    struct catena_error err;
    struct traj_reader *rd = traj_read_open(path, &err);
    const long long n = rd ? (long long)traj_read_info(rd)->npoints : 0;
    traj_read_close(rd);
    return n;
}

long long cmd_trajectory_points(const char *path)
{
    static const char *const names[] = {"trajectory.npy", "trajectory.csv", "trajectory.json"};
    struct stat st;
    if (stat(path, &st) != 0)
        return 0;
    if (!S_ISDIR(st.st_mode))
        return file_points(path);
    /* a run directory: only the trajectories its manifest lists (their sizes were checked as
     * it was opened; their hashes are checked when they are read in full) */
    struct catena_error err;
    struct rundir *run;
    if (rundir_open(path, &run, &err) != CATENA_OK)
        return 0; /* the reader that follows says why */
    long long most = 0;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char *file = rundir_find(run, names[i]) ? path_join(path, names[i]) : NULL;
        const long long n = file ? file_points(file) : 0;
        most = n > most ? n : most;
        free(file);
    }
    rundir_close(run);
    return most;
}

int cmd_overrides_init(struct cmd_overrides *co, size_t cap)
{
    *co = (struct cmd_overrides){
        .ov = calloc(cap, sizeof *co->ov), .names = calloc(cap, sizeof *co->names), .cap = cap};
    if (co->ov && co->names)
        return 0;
    cmd_overrides_free(co);
    return -1;
}

void cmd_overrides_free(struct cmd_overrides *co)
{
    free(co->ov);
    free(co->names);
    *co = (struct cmd_overrides){0};
}

void cmd_overrides_add(struct cmd_overrides *co, const char *path, const char *value,
                       const char *option)
{
    if (!value || co->n >= co->cap)
        return;
    co->ov[co->n] = (struct scenario_override){.path = path, .value = value};
    co->names[co->n++] = option;
}

void cmd_overrides_use(const struct cmd_overrides *co, struct scenario_options *so)
{
    so->ov = co->ov;
    so->nov = co->n;
    so->names = co->names;
}

int cmd_parse_set(char *arg, struct cmd_overrides *co)
{
    char *eq = strchr(arg, '=');
    if (!eq || eq == arg) {
        fprintf(stderr, "catena: --set: expected PATH=VALUE, got '%s'\n", arg);
        return -1;
    }
    *eq = '\0';
    cmd_overrides_add(co, arg, eq + 1, "--set");
    return 0;
}

int cmd_parse_tolerance(const char *option, const char *text, double *out)
{
    char *end = NULL;
    errno = 0;
    const double v = strtod(text, &end);
    if (end == text || *end || errno == ERANGE || !(v >= 0) || v == HUGE_VAL) {
        fprintf(stderr, "catena: %s: expected a finite number >= 0, got '%s'\n", option, text);
        return -1;
    }
    *out = v;
    return 0;
}

int cmd_parse_range(const char *option, const char *arg, long *first, long *last)
{
    struct catena_error err;
    int deprecated;
    if (range_parse(option, arg, first, last, &deprecated, &err)) {
        cmd_report(&err);
        return -1;
    }
    if (deprecated) {
        const char *colon = strchr(arg, ':');
        fprintf(stderr, "catena: %s: '%s': the colon is deprecated, write '%.*s..%s'\n", option,
                arg, (int)(colon - arg), arg, colon + 1);
    }
    return 0;
}
