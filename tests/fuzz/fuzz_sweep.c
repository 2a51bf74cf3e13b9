/* Fuzz target for sweep files and the jobs emitted from them (issue 20): bytes -> a sweep
 * file next to a small base scenario -> sweep_load -> for a plan, every run's command line
 * as --dry-run prints it and jobs.txt holds it, then sweep_emit for GNU parallel or Slurm
 * and the plan read back from its plan.json. A first byte 'P' makes the rest a plan.json
 * instead, read as `catena sweep collect` reads one from a shared directory, and judged run
 * by run with no run there. Whatever the input:
 *   - a refusal is one line that names the file;
 *   - a line of jobs.txt is exactly one sh command whose words, as sh reads them, are the
 *     run's arguments (a line with a control character must have been refused instead), so
 *     that nothing in a value can run as a command of its own;
 *   - jobs.txt has one line per run, and plan.json reads back to the same runs.
 * Anything else aborts (a finding). Sweeps are capped (FUZZ_MAX_RUNS) so that every input
 * runs in milliseconds. */
#define _GNU_SOURCE /* mkdtemp, strndup */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ftw.h>

#include <cjson/cJSON.h>

#include "core/path.h"
#include "core/readfile.h"
#include "sweep/internal.h"
#include "sweep/sweep.h"

enum { FUZZ_MAX_RUNS = 64 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The directory the target works in: base.json and the sweep file, made once. */
static char *work;

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz: %s: %s\n", what, detail);
    abort();
}

static void write_file(const char *path, const void *data, size_t size)
{
    FILE *fp = fopen(path, "wb");
    if (!fp || fwrite(data, 1, size, fp) != size || fclose(fp) != 0)
        die("cannot write", path);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* The work directory goes when the fuzzer exits. */
static void cleanup(void)
{
    nftw(work, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void setup(void)
{
    static char tmpl[] = "/tmp/catena-fuzz-sweep.XXXXXX";
    if (!(work = mkdtemp(tmpl)))
        die("mkdtemp", tmpl);
    atexit(cleanup);
    static const char base[] =
        "{\"catena\": 1, \"name\": \"base\", \"time\": {\"dt\": 0.01, \"steps\": 2},\n"
        " \"points\": [{\"name\": \"p0\", \"p\": [0, 0], \"mass\": 1},\n"
        "            {\"name\": \"p1\", \"p\": [1, 0], \"mass\": 1}],\n"
        " \"bodies\": [{\"type\": \"rope\", \"name\": \"rope\", \"from\": [0, 1], \"to\": [1, 1],\n"
        "              \"segments\": 3, \"mass\": 1, \"pins\": [\"first\"]}],\n"
        " \"links\": [{\"a\": 0, \"b\": 1}]}\n";
    char *p = path_join(work, "base.json");
    write_file(p, base, sizeof base - 1);
    free(p);
}

/* A refusal: one line, naming the file it is about. */
static void check_message(const struct catena_error *err, const char *file)
{
    if (err->code == CATENA_OK || strchr(err->msg, '\n') || strchr(err->msg, '\r') ||
        !strstr(err->msg, file))
        die("bad message", err->msg);
}

/* The words sh reads from the line, for the quoting catena emits: plain characters, '...'
 * and \x. Any other character outside quotes would mean something to sh; a line break or a
 * control character anywhere would end or split the command. NULL on such a line. */
static char **sh_words(const char *line, size_t *n)
{
    const size_t len = strlen(line);
    char **w = calloc(len + 1, sizeof *w), *cur = NULL;
    size_t k = 0, at = 0;
    int in_word = 0;
    for (const char *c = line; w && *c; c++) {
        if ((unsigned char)*c < 0x20 || *c == 0x7F)
            goto bad;
        if (*c == ' ') {
            in_word = 0;
            continue;
        }
        if (!in_word) {
            if (!(cur = w[k++] = calloc(len + 1, 1)))
                goto bad;
            at = 0;
            in_word = 1;
        }
        if (*c == '\'') {
            const char *end = strchr(c + 1, '\'');
            if (!end)
                goto bad;
            memcpy(cur + at, c + 1, (size_t)(end - c - 1));
            at += (size_t)(end - c - 1);
            c = end;
        } else if (*c == '\\') {
            if (!*++c)
                goto bad;
            cur[at++] = *c;
        } else if (strchr(
                       "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./=,+:@%-",
                       *c)) {
            cur[at++] = *c;
        } else {
            goto bad;
        }
    }
    *n = k;
    return w;
bad:
    for (size_t i = 0; w && i < k; i++)
        free(w[i]);
    free(w);
    return NULL;
}

/* Line `line` of run i reads back, word for word, as the run's arguments. */
static void check_line(const struct sweep_plan *p, const char *dir, size_t i, const char *line)
{
    char *run_dir = NULL;
    char **argv = sweep_run_argv(p, dir, "catena", i, &run_dir);
    size_t n = 0, k = 0;
    char **w = sh_words(line, &n);
    if (!argv || !w)
        die("a jobs line is not one plain sh command", line);
    for (; argv[k]; k++)
        if (k >= n || strcmp(argv[k], w[k]) != 0)
            die("a jobs line does not read back as the run's arguments", line);
    if (k != n)
        die("a jobs line has words of its own", line);
    for (size_t j = 0; j < n; j++)
        free(w[j]);
    free(w);
    free(argv);
    free(run_dir);
}

/* jobs.txt: one line per run, each the run's command. */
static void check_jobs(const struct sweep_plan *p, const char *dir)
{
    char *path = path_join(dir, "jobs.txt");
    size_t len = 0;
    int e = 0;
    char *text = path ? readfile(path, &len, &e) : NULL;
    if (!text)
        die("jobs.txt", "cannot read it back");
    size_t lines = 0;
    for (char *line = text, *nl; (nl = strchr(line, '\n')); line = nl + 1) {
        *nl = '\0';
        if (lines >= p->nruns)
            die("jobs.txt", "more lines than runs");
        check_line(p, dir, lines++, line);
    }
    if (lines != p->nruns)
        die("jobs.txt", "fewer lines than runs");
    free(text);
    free(path);
}

/* The plan as --dry-run lists it, emitted, and read back from plan.json. */
static void check_plan(const struct sweep_plan *p, int slurm)
{
    struct catena_error err;
    char *dir = path_join(work, "out");
    if (!dir)
        die("path_join", "out of memory");
    if (sweep_check_lines(p, dir, "catena", &err)) {
        check_message(&err, p->sweep);
    } else {
        for (size_t i = 0; i < p->nruns; i++) {
            char *line = sweep_command(p, dir, "catena", i);
            if (!line)
                die("sweep_command", "out of memory");
            check_line(p, dir, i, line);
            free(line);
        }
    }
    if (sweep_emit(p, slurm ? SWEEP_SLURM : SWEEP_PARALLEL, dir, "catena", &err)) {
        check_message(&err, work); /* the sweep file, or (Slurm) the directory */
    } else {
        check_jobs(p, dir);
        struct sweep_plan *back = sweep_plan_read(dir, &err);
        if (!back || back->nruns != p->nruns)
            die("plan.json does not read back", back ? "other runs" : err.msg);
        for (size_t i = 0; i < p->nruns; i++)
            if (strcmp(back->runs[i].name, p->runs[i].name) != 0)
                die("plan.json reads back another run", back->runs[i].name);
        sweep_plan_destroy(back);
    }
    free(dir);
}

/* Runs a sweep of values[] would expand to (product or zip), before sweep_load expands and
 * loads them all: the cap keeps each input to milliseconds. */
static size_t runs_of(const char *text, size_t size)
{
    cJSON *root = cJSON_ParseWithLength(text, size);
    const cJSON *vary = cJSON_GetObjectItemCaseSensitive(root, "vary");
    const cJSON *mode = cJSON_GetObjectItemCaseSensitive(root, "mode");
    const int zip = cJSON_IsString(mode) && strcmp(mode->valuestring, "zip") == 0;
    size_t runs = 1;
    for (const cJSON *a = vary ? vary->child : NULL; a; a = a->next) {
        const size_t k = cJSON_IsArray(a) ? (size_t)cJSON_GetArraySize(a) : 1;
        runs = zip ? (k > runs ? k : runs) : runs * (k ? k : 1);
        if (runs > FUZZ_MAX_RUNS)
            break;
    }
    cJSON_Delete(root);
    return runs;
}

/* A plan.json from a shared directory, as sweep collect reads it. */
static void fuzz_plan_json(const uint8_t *data, size_t size)
{
    char *dir = path_join(work, "collect"), *path = dir ? path_join(dir, "plan.json") : NULL;
    if (!path || (mkdir(dir, 0755) != 0 && access(dir, F_OK) != 0))
        die("setup", "collect directory");
    write_file(path, data, size);
    struct catena_error err;
    struct sweep_plan *p = sweep_plan_read(dir, &err);
    if (!p) {
        check_message(&err, path);
    } else {
        for (size_t i = 0; i < p->nruns && i < FUZZ_MAX_RUNS; i++) {
            struct sweep_outcome o;
            sweep_check_run(p, dir, i, &o);
            if (o.status == SWEEP_OK)
                die("a run nobody ran is ok", p->runs[i].name);
        }
        sweep_plan_destroy(p);
    }
    free(path);
    free(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!work)
        setup();
    if (size > 0 && data[0] == 'P') {
        fuzz_plan_json(data + 1, size - 1);
        return 0;
    }
    const int slurm = size > 0 && (data[size - 1] & 1);
    if (runs_of((const char *)data, size) > FUZZ_MAX_RUNS)
        return 0;
    char *file = path_join(work, "sweep.json");
    write_file(file, data, size);
    struct catena_error err;
    struct sweep_plan *p = sweep_load(file, &err);
    if (!p)
        check_message(&err, file);
    else
        check_plan(p, slurm);
    sweep_plan_destroy(p);
    free(file);
    return 0;
}
