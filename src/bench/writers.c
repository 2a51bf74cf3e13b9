/* The writer cases of `catena bench`: 10 000 points (a 100 x 100 cloth, 3D, after a few
 * steps, so every coordinate has its full digits) x 1 000 frames to trajectory.csv, .json
 * and .npy, against the same layout written with fprintf("%.17g") (NPY: one fwrite per
 * value). Timed: formatting and handing the bytes to the operating system, frame after
 * frame; not timed: opening, and the close with its fsync, which measures the disk. Check:
 * the file has the size the format promises (NPY) or its last row reads back bit for bit
 * (CSV, JSON). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/bench.h"
#include "core/clock.h"
#include "bench/bench_ref.h"
#include "scenario/build/build.h"
#include "solver/solver.h"
#include "solver/state.h"
#include "io/traj.h"

#define FRAMES_FULL 1000
#define FRAMES_QUICK 5

static const enum output_format formats[] = {FORMAT_CSV, FORMAT_JSON, FORMAT_NPY};

static struct model *cloth_model(void)
{
    struct model *m = bench_model(3);
    if (!m)
        return NULL;
    m->steps = FRAMES_FULL;
    m->iterations = 5;
    if (bench_add_cloth(m, 100, 1.0, 1) < 0) {
        model_destroy(m);
        return NULL;
    }
    return m;
}

/* Frame f's positions: the state's, shifted a little so that frames differ. */
static void move(struct state *s, long f)
{
    const double dy = 1e-7 * (double)(f % 7) - 3e-7;
    for (size_t i = 0; i < s->npoints; i++)
        s->x[i].y += dy;
    s->step = f;
    s->t = (double)f * (1.0 / 60);
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* catena's writer: seconds for the frames; *bytes gets the file's size. */
static int time_catena(enum output_format f, const char *dir, const struct model *m,
                       struct state *s, long frames, double *seconds, long *bytes,
                       struct catena_error *err)
{
    struct traj_writer *w = traj_open(f, dir, m, "bench", 1, err);
    if (!w)
        return err->code;
    const double start = clock_monotonic_s();
    for (long k = 0; k < frames; k++) {
        move(s, k);
        if (traj_append(w, s->step, s->t, s->x, err)) {
            traj_abort(w);
            return err->code;
        }
    }
    *seconds = clock_monotonic_s() - start;
    if (traj_close(w, err))
        return err->code;
    char path[4096];
    snprintf(path, sizeof path, "%s/trajectory.%s", dir, traj_format_name(f));
    *bytes = file_size(path);
    return CATENA_OK;
}

static int time_reference(enum output_format f, const char *dir, const struct model *m,
                          struct state *s, long frames, double *seconds, long *bytes,
                          struct catena_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/reference.%s", dir, traj_format_name(f));
    FILE *fp = fopen(path, "wb");
    if (!fp)
        return error_set(err, CATENA_EFAIL, "%s: cannot create", path);
    int rc = bench_ref_begin(fp, f, m->dims, m->npoints, frames);
    const double start = clock_monotonic_s();
    for (long k = 0; k < frames && !rc; k++) {
        move(s, k);
        rc = bench_ref_frame(fp, f, m->dims, m->npoints, k, s->step, s->t, s->x);
    }
    *seconds = clock_monotonic_s() - start;
    rc = rc || bench_ref_end(fp, f);
    *bytes = ftell(fp);
    if (fclose(fp) != 0 || rc)
        return error_set(err, CATENA_EFAIL, "%s: cannot write", path);
    remove(path);
    return CATENA_OK;
}

/* The last line of a text file (a CSV row, or JSON's closing "]}"): its last frame's last
 * point is checked instead for JSON. Returns 1 when the numbers read back bit for bit. */
static int last_point_reads_back(enum output_format f, const char *path, const struct model *m,
                                 const struct state *s)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return 0;
    char tail[512];
    fseek(fp, -(long)sizeof tail + 1, SEEK_END);
    const size_t n = fread(tail, 1, sizeof tail - 1, fp);
    fclose(fp);
    tail[n] = '\0';
    const vec3 want = s->x[m->npoints - 1];
    char *p;
    if (f == FORMAT_CSV) {
        tail[n - 1] = '\0'; /* the final newline */
        p = strrchr(tail, '\n');
        if (!p)
            return 0;
        for (int comma = 0; comma < 3 && p; comma++) /* step,time,point, */
            p = strchr(p + 1, ',');
    } else {
        p = strrchr(tail, '[');
    }
    if (!p)
        return 0;
    char *end;
    const double x = strtod(p + 1, &end), y = strtod(end + 1, &end), z = strtod(end + 1, &end);
    return memcmp(&x, &want.x, sizeof x) == 0 && memcmp(&y, &want.y, sizeof y) == 0 &&
           memcmp(&z, &want.z, sizeof z) == 0;
}

int bench_writer_case(const struct bench_case *c, const struct bench_options *o,
                      struct bench_result *r, struct catena_error *err)
{
    const enum output_format f = formats[c->variant];
    const long frames = o->quick ? FRAMES_QUICK : FRAMES_FULL;
    struct model *m = cloth_model();
    struct state *s = m ? state_create(m) : NULL;
    if (!s) {
        model_destroy(m);
        return error_set(err, CATENA_EFAIL, "%s: out of memory", c->name);
    }
    for (int k = 0; k < 30; k++)
        solver_step(m, s);
    const vec3 *x0 = s->x;
    vec3 *start = malloc(m->npoints * sizeof *start);
    if (!start) {
        state_destroy(s);
        model_destroy(m);
        return error_set(err, CATENA_EFAIL, "%s: out of memory", c->name);
    }
    memcpy(start, x0, m->npoints * sizeof *start);
    r->kind = BENCH_WRITER;
    r->reps = 3;
    snprintf(r->size, sizeof r->size, "%zu points x %ld frames, 3D, %s", m->npoints, frames,
             traj_format_name(f));
    double t[3], tr[3];
    long bytes = 0, ref_bytes = 0;
    int rc = CATENA_OK;
    char path[4096];
    snprintf(path, sizeof path, "%s/trajectory.%s", o->dir, traj_format_name(f));
    for (int rep = 0; rep < r->reps && rc == CATENA_OK; rep++) {
        memcpy(s->x, start, m->npoints * sizeof *start);
        rc = time_catena(f, o->dir, m, s, frames, &t[rep], &bytes, err);
        if (rc == CATENA_OK && rep + 1 == r->reps) {
            const long header = bytes - frames * (long)m->npoints * 3 * 8;
            r->ok = f == FORMAT_NPY ? header > 10 && header % 64 == 0
                                    : last_point_reads_back(f, path, m, s);
            snprintf(r->check, sizeof r->check, "%s",
                     f == FORMAT_NPY ? (r->ok ? "size as the header says" : "WRONG SIZE")
                                     : (r->ok ? "last point reads back" : "LAST POINT DIFFERS"));
        }
        remove(path);
        memcpy(s->x, start, m->npoints * sizeof *start);
        if (rc == CATENA_OK)
            rc = time_reference(f, o->dir, m, s, frames, &tr[rep], &ref_bytes, err);
    }
    if (rc == CATENA_OK) {
        r->seconds = bench_median(t, r->reps);
        r->mb_per_s = 1e-6 * (double)bytes / r->seconds;
        r->steps_per_s = (double)frames / r->seconds;
        r->ref_seconds = bench_median(tr, r->reps);
        r->ratio = r->ref_seconds / r->seconds;
    }
    free(start);
    state_destroy(s);
    model_destroy(m);
    return rc;
}
