/* What the manifest of a run directory costs (io/rundir.h): a 100 MB file written through
 * core/outfile and committed without a journal, then with one (the commit then reads the
 * file back from the page cache and hashes it), against SHA-256 over the same bytes in
 * memory, which is what hashing while writing would cost at best; and a reader's check of
 * the file (rundir_path). Medians of 5, in CPU seconds of this process (user and system: on a
 * shared machine the wall clock measures the neighbours) and MB/s.
 *     make tests/bench_manifest && tests/bench_manifest [MB] */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/outfile.h"
#include "core/sha256_hex.h"
#include "io/rundir.h"
#include "testutil.h"

#define REPS 5

/* CPU seconds of this process so far. */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *t)
{
    qsort(t, REPS, sizeof *t, by_value);
    return t[REPS / 2];
}

/* Writes buf through an outfile into dir and commits it; the seconds the commit took. */
static double write_commit(const char *dir, const char *buf, size_t n, double *total)
{
    struct outfile f;
    struct catena_error err;
    const double t0 = cpu_s();
    if (outfile_open(&f, dir, "trajectory.npy", &err) || fwrite(buf, 1, n, f.fp) != n) {
        fprintf(stderr, "bench_manifest: %s\n", err.msg);
        exit(1);
    }
    const double t1 = cpu_s();
    if (outfile_commit(&f, &err)) {
        fprintf(stderr, "bench_manifest: %s\n", err.msg);
        exit(1);
    }
    const double t2 = cpu_s();
    *total = t2 - t0;
    return t2 - t1;
}

int main(int argc, char **argv)
{
    const size_t mb = argc > 1 ? (size_t)atol(argv[1]) : 100, n = mb << 20;
    char *buf = malloc(n), *dir = tu_tmpdir(), hex[SHA256_HEX_SIZE];
    if (!buf || !dir)
        return 1;
    for (size_t i = 0; i < n; i++)
        buf[i] = (char)(i * 2654435761u >> 13);
    double plain[REPS], journaled[REPS], memory[REPS], total[REPS], total_j[REPS], check[REPS];
    for (int r = 0; r < REPS; r++) {
        plain[r] = write_commit(dir, buf, n, &total[r]);
        struct outfile_journal j;
        struct catena_error err;
        outfile_journal_start(&j, dir, &err);
        journaled[r] = write_commit(dir, buf, n, &total_j[r]);
        /* a reader's check: a manifest of that one file, then the file taken */
        cJSON *root = cJSON_CreateObject();
        struct rundir_writer w = {.dir = dir, .manifest = RUNDIR_SUMMARY, .j = j};
        snprintf(w.id, sizeof w.id, "%032d", 0);
        cJSON_AddStringToObject(root, "status", "ok");
        rundir_finish(&w, root, &err);
        cJSON_Delete(root);
        outfile_journal_free(&j);
        struct rundir *rd;
        const double t0 = cpu_s();
        char *path = rundir_open(dir, &rd, &err) ? NULL : rundir_path(rd, "trajectory.npy", &err);
        check[r] = cpu_s() - t0;
        if (!path) {
            fprintf(stderr, "bench_manifest: %s\n", err.msg);
            return 1;
        }
        free(path);
        rundir_close(rd);
        const double t1 = cpu_s();
        sha256_hex(buf, n, hex);
        memory[r] = cpu_s() - t1;
    }
    const double p = median(plain), jr = median(journaled), m = median(memory);
    const double t = median(total), tj = median(total_j), c = median(check);
    printf("%zu MB, medians of %d\n", mb, REPS);
    printf("write + commit, no journal:   %.3f s (commit %.3f s)\n", t, p);
    printf("write + commit, journal:      %.3f s (commit %.3f s)\n", tj, jr);
    printf("hash at commit (difference):  %.3f s = %.0f MB/s\n", jr - p, (double)mb / (jr - p));
    printf("SHA-256 in memory:            %.3f s = %.0f MB/s\n", m, (double)mb / m);
    printf("reader's check (rundir_path): %.3f s = %.0f MB/s\n", c, (double)mb / c);
    tu_rmtree(dir);
    free(dir);
    free(buf);
    return 0;
}
