/* `catena bench [--quick] [--json FILE] [-t N] [CASE]...`: runs the benchmark cases (bench/bench.h)
 * in a scratch directory under $TMPDIR, removed at the end, printing a row of the table as each
 * finishes, and writes the results as JSON when asked. Timings are reported, never judged: the exit
 * status says only whether every case ran and passed its checks. */
#define _XOPEN_SOURCE 700
#include "cli/cmd.h"

#include <ftw.h>
#include <getopt.h> /* optind, optarg */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"

enum { OPT_QUICK = CHAR_MAX + 1, OPT_JSON };

static int cmd_bench(int argc, char **argv);

static const struct cmd_option bench_options[] = {
    {.name = "quick", .key = OPT_QUICK, .help = "small sizes and few repetitions (a smoke test)"},
    {.name = "json",
     .key = OPT_JSON,
     .arg = "FILE",
     .help = "also write the results to FILE as JSON",
     .complete = CMD_FILES},
    {.name = "threads",
     .key = 't',
     .arg = "N",
     .help = "the thread team the solver cases compare with one\nthread (default 2)"},
    {.name = "jobs",
     .key = 'j',
     .arg = "N",
     .retired = "-j is now -t, --threads (the solver's threads); -j is the runs at a time of "
                "catena sweep"},
    {NULL},
};

const struct cmd_spec cmd_bench_spec = {
    .name = "bench",
    .run = cmd_bench,
    .operands = "[CASE]...",
    .summary = "time the solver, the writers and frame drawing",
    .about = "Time the solver, the trajectory writers and frame drawing on fixed cases (or\n"
             "the CASEs named, e.g. cloth-316), each against a plain reference measured in\n"
             "the same run. Timings are reported, never judged: the exit status says whether\n"
             "every case ran and passed its checks.",
    .options = bench_options,
    .example = "catena bench --quick\ncatena bench -t 4 --json bench.json cloth-316",
};

#define MAX_RESULTS 64

struct collected {
    struct bench_result r[MAX_RESULTS];
    size_t n;
};

static void on_result(const struct bench_result *r, void *ctx)
{
    struct collected *c = ctx;
    if (c->n < MAX_RESULTS)
        c->r[c->n++] = *r;
    bench_print_row(stdout, r);
    fflush(stdout);
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static int write_json(const char *path, const struct bench_options *o, const struct collected *c)
{
    char *text = bench_json(o, c->r, c->n);
    FILE *f = text ? fopen(path, "w") : NULL;
    int ok = f && fputs(text, f) >= 0 && fputc('\n', f) != EOF;
    if (f && fclose(f) != 0)
        ok = 0;
    free(text);
    if (!ok)
        fprintf(stderr, "catena: %s: cannot write the results\n", path);
    return ok ? 0 : -1;
}

static int cmd_bench(int argc, char **argv)
{
    struct bench_options o = {.threads = 2};
    const char *json = NULL;
    int c;
    while ((c = cmd_getopt(&cmd_bench_spec, argc, argv)) != -1) {
        char *end;
        switch (c) {
        case CMD_OPT_HELP:
            return EXIT_SUCCESS;
        case OPT_QUICK:
            o.quick = 1;
            break;
        case OPT_JSON:
            json = optarg;
            break;
        case 't':
            o.threads = (int)strtol(optarg, &end, 10);
            if (end == optarg || *end || o.threads < 2 || o.threads > 64) {
                fprintf(stderr,
                        "catena: --threads: expected a thread count from 2 to 64, got '%s'\n",
                        optarg);
                return cmd_usage_error();
            }
            break;
        default: /* CMD_OPT_BAD: reported */
            return EXIT_USAGE;
        }
    }
    o.only = argv + optind; /* the cases named, if any */
    o.nonly = argc - optind;
    struct catena_error err;
    if (bench_check_names(&o, &err) != CATENA_OK) {
        fprintf(stderr, "catena: %s\n", err.msg);
        return 2;
    }
    const char *tmp = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/catena-bench.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("catena: bench: cannot make a scratch directory");
        return 1;
    }
    o.dir = dir;
    static struct collected results;
    bench_print_header(stdout);
    int rc = bench_run(&o, on_result, &results, &err);
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS); /* the scratch files, and the directory */
    if (o.load[0] >= 0 && o.load[1] >= 0)
        printf("load average %.2f before, %.2f after, on %ld processors\n", o.load[0], o.load[1],
               sysconf(_SC_NPROCESSORS_ONLN));
    if (rc != CATENA_OK)
        fprintf(stderr, "catena: %s\n", err.msg);
    if (json && write_json(json, &o, &results))
        rc = CATENA_EFAIL;
    return rc;
}
