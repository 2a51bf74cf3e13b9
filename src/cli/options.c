/* cmd_getopt (cli/cmd.h): getopt_long's tables made from a command's option table, so the
 * options parsed are the ones its help lists and the shell completes; getopt's own messages
 * are off, and a mistake is reported here in GNU's words with a did-you-mean and the hint to
 * the command's help. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cmd.h"

#include <getopt.h>
#include <limits.h>
#include <string.h>

#include "core/spell.h"

/* The most options a command has, --help included. */
#define CMD_MAX_OPTIONS 40

/* getopt's tables for spec: the long options (with --help, and the end row) and the short
 * ones (":" first, so that a missing argument is told from an unknown option). */
static void build_tables(const struct cmd_spec *spec, struct option *longs, char *shorts)
{
    size_t n = 0, k = 0;
    shorts[k++] = ':';
    for (const struct cmd_option *o = spec->options; o && o->name && n < CMD_MAX_OPTIONS - 1;
         o++, n++) {
        longs[n] = (struct option){o->name, o->arg ? required_argument : no_argument, NULL, o->key};
        if (o->key > 0 && o->key <= CHAR_MAX) {
            shorts[k++] = (char)o->key;
            if (o->arg)
                shorts[k++] = ':';
        }
    }
    longs[n++] = (struct option){"help", no_argument, NULL, 'h'};
    longs[n] = (struct option){NULL, 0, NULL, 0};
    shorts[k++] = 'h';
    shorts[k] = '\0';
}

static const struct cmd_option *find_key(const struct cmd_spec *spec, int key)
{
    for (const struct cmd_option *o = spec->options; o && o->name; o++)
        if (o->key == key)
            return o;
    return NULL;
}

/* The live long names of spec that begin with the n bytes of prefix, --help included, written
 * as " '--NAME'" into buf; returns how many. */
static int prefixed(const struct cmd_spec *spec, const char *prefix, size_t n, char *buf,
                    size_t size)
{
    int count = 0;
    size_t len = 0;
    buf[0] = '\0';
    for (const struct cmd_option *o = spec->options;; o++) {
        const char *name = o && o->name ? o->name : "help";
        if ((!o || !o->name || !o->retired) && strncmp(name, prefix, n) == 0) {
            count++;
            if (len < size)
                len += (size_t)snprintf(buf + len, size - len, " '--%s'", name);
        }
        if (!o || !o->name)
            return count;
    }
}

/* The live long option closest to name, when close enough for a hint. */
static const char *closest_option(const struct cmd_spec *spec, const char *name)
{
    const char *names[CMD_MAX_OPTIONS + 1];
    size_t n = 0;
    for (const struct cmd_option *o = spec->options; o && o->name && n < CMD_MAX_OPTIONS - 1; o++)
        if (!o->retired)
            names[n++] = o->name;
    names[n++] = "help";
    names[n] = NULL;
    return spell_closest(name, names, sizeof *names);
}

/* An unknown or ambiguous long option, as argv gave it ("--stpes=5"). */
static void bad_long(const struct cmd_spec *spec, const char *arg)
{
    const char *name = arg + 2;
    const size_t n = strcspn(name, "=");
    char list[512], word[128];
    if (prefixed(spec, name, n, list, sizeof list) > 1) {
        fprintf(stderr, "catena: option '--%.*s' is ambiguous; possibilities:%s\n", (int)n, name,
                list);
        return;
    }
    snprintf(word, sizeof word, "%.*s", (int)n, name);
    const char *hint = closest_option(spec, word);
    fprintf(stderr, "catena: unrecognized option '--%.*s'", (int)n, name);
    if (hint)
        fprintf(stderr, " (did you mean '--%s'?)", hint);
    fputc('\n', stderr);
}

/* Says what is wrong with the option getopt_long just refused (c: '?' or ':'). */
static void report(const struct cmd_spec *spec, int c, char **argv)
{
    /* getopt_long has moved optind past the element it refused, except inside a cluster of
     * short options ("-qx"), where only optopt tells. */
    const char *arg = argv[optind - 1];
    const int is_long = strncmp(arg, "--", 2) == 0;
    const struct cmd_option *o = optopt ? find_key(spec, optopt) : NULL;
    const char *name = optopt == 'h' ? "help" : o ? o->name : NULL;
    if (c == ':' && is_long)
        fprintf(stderr, "catena: option '--%s' requires an argument\n", name ? name : arg + 2);
    else if (c == ':')
        fprintf(stderr, "catena: option requires an argument -- '%c'\n", optopt);
    else if (optopt == 0)
        bad_long(spec, arg);  /* an unknown long option, or a prefix of several */
    else if (name && is_long) /* a known one given an argument it does not take */
        fprintf(stderr, "catena: option '--%s' doesn't allow an argument\n", name);
    else
        fprintf(stderr, "catena: invalid option -- '%c'\n", optopt);
}

int cmd_getopt(const struct cmd_spec *spec, int argc, char **argv)
{
    struct option longs[CMD_MAX_OPTIONS + 1];
    char shorts[2 * CMD_MAX_OPTIONS + 2];
    build_tables(spec, longs, shorts);
    if (optind < 2)
        optind = 2; /* after "catena CMD" */
    opterr = 0;
    const int c = getopt_long(argc, argv, shorts, longs, NULL);
    if (c == 'h' && !find_key(spec, 'h')) {
        cmd_help_print(stdout, spec);
        return CMD_OPT_HELP;
    }
    if (c == '?' || c == ':') {
        report(spec, c, argv);
        cmd_usage_error();
        return CMD_OPT_BAD;
    }
    const struct cmd_option *o = c >= 0 ? find_key(spec, c) : NULL;
    if (o && o->retired) {
        fprintf(stderr, "catena: %s: %s\n", spec->name, o->retired);
        cmd_usage_error();
        return CMD_OPT_BAD;
    }
    return c;
}
