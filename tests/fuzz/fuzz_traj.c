/* Fuzz target for the trajectory readers (CSV, JSON, NPY): the first byte picks the file's
 * extension (.csv, .json, .npy, or none, so that the format is sniffed from the content),
 * the rest is written to a scratch file that traj_read_open reads frame by frame. Every
 * input must end in frames or in a one-line message naming the file; anything else aborts. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/traj_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_message(const struct catena_error *err, const char *path)
{
    if (err->code == CATENA_EINPUT && strncmp(err->msg, path, strlen(path)) == 0 &&
        !strchr(err->msg, '\n'))
        return;
    fprintf(stderr, "fuzz: bad message (code %d): %s\n", err->code, err->msg);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const ext[] = {".csv", ".json", ".npy", ""};
    if (size == 0)
        return 0;
    char path[256];
    const char *tmp = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/catena-fuzz-traj-%ld%s", tmp && *tmp ? tmp : "/tmp",
             (long)getpid(), ext[data[0] % 4]);
    FILE *fp = fopen(path, "wb");
    if (!fp)
        abort(); /* the scratch file is the harness's, not the input's, problem */
    const int written = fwrite(data + 1, 1, size - 1, fp) == size - 1;
    if (fclose(fp) != 0 || !written)
        abort();
    struct catena_error err = {0};
    struct traj_reader *r = traj_read_open(path, &err);
    if (!r) {
        check_message(&err, path);
    } else {
        const struct traj_info *info = traj_read_info(r);
        const struct traj_frame *f;
        double sum = 0;
        int rc;
        while ((rc = traj_read_next(r, &f, &err)) == CATENA_OK && f)
            for (size_t i = 0; i < info->npoints; i++)
                sum += f->x[i].x + f->x[i].y + f->x[i].z;
        (void)sum;
        if (rc != CATENA_OK)
            check_message(&err, path);
        traj_read_close(r);
    }
    remove(path);
    return 0;
}
