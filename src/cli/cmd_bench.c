/* `catena bench [--quick] [--json FILE] [-j N] [CASE]...`: runs the benchmark cases (bench/bench.h) in a
 * scratch directory under $TMPDIR, removed at the end, printing a row of the table as each
 * finishes, and writes the results as JSON when asked. Timings are reported, never judged: the exit
 * status says only whether every case ran and passed its checks. */
#define _XOPEN_SOURCE 700
#include "cli/cmd_bench.h"

#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"

enum { OPT_QUICK = CHAR_MAX + 1, OPT_JSON };

static const struct option longopts[] = {
    {"quick", no_argument, NULL, OPT_QUICK},
    {"json", required_argument, NULL, OPT_JSON},
    {"threads", required_argument, NULL, 'j'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
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

static void usage(FILE *out)
{
    fputs("Usage: catena bench [--quick] [--json FILE] [-j N] [CASE]...\n"
          "Times the solver, the trajectory writers and frame drawing on fixed cases (or the\n"
          "CASEs named, e.g. cloth-316), each against a plain reference measured in the same\n"
          "run.\n"
          "\n"
          "      --quick       small sizes and few repetitions (a smoke test)\n"
          "      --json=FILE   also write the results to FILE as JSON\n"
          "  -j, --threads=N   the thread team the solver cases compare with one thread\n"
          "                    (default 2)\n"
          "  -h, --help        show this help and exit\n",
          out);
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

int cmd_bench(int argc, char **argv)
{
    struct bench_options o = {.threads = 2};
    const char *json = NULL;
    int c;
    optind = 2; /* after "catena bench" */
    while ((c = getopt_long(argc, argv, "hj:", longopts, NULL)) != -1) {
        char *end;
        switch (c) {
        case 'h':
            usage(stdout);
            return 0;
        case OPT_QUICK:
            o.quick = 1;
            break;
        case OPT_JSON:
            json = optarg;
            break;
        case 'j':
            o.threads = (int)strtol(optarg, &end, 10);
            if (end == optarg || *end || o.threads < 2 || o.threads > 64) {
                fprintf(stderr, "catena: -j: expected a thread count from 2 to 64, got '%s'\n",
                        optarg);
                return 2;
            }
            break;
        default:
            fputs("Try 'catena bench --help' for more information.\n", stderr);
            return 2;
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
