/* Output writers: shortest round-trip numbers, the CSV/JSON/NPY trajectory formats read
 * back bit for bit, files that appear only when complete (and never after a failed write),
 * and summary.json. States are built here by hand so these tests need no solver. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fmt_double.h"
#include "core/outfile.h"
#include "run/run.h"
#include "run/summary.h"
#include "testutil.h"
#include "testutil_check.h"
#include "io/traj.h"
#include "io/traj_format.h"

/* Values that trip up naive formatting: not exactly decimal, subnormal (the smallest
 * one too), negative zero, the largest double, an integer beyond 2^53. */
static const double tricky[] = {
    0.1, 1.0 / 3.0, 1e-310, -0.0, 5e-324, DBL_MAX, 123456789012345678.0, -9.81, DBL_MIN,
};
#define NTRICKY (sizeof tricky / sizeof tricky[0])

static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static int exists(const char *d, const char *name)
{
    char *p = tu_path(d, name);
    struct stat st;
    int r = stat(p, &st) == 0;
    free(p);
    return r;
}

/* Entries in d other than . and .. */
static int count_entries(const char *d)
{
    DIR *dp = opendir(d);
    int n = 0;
    for (struct dirent *e; dp && (e = readdir(dp));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (dp)
        closedir(dp);
    return n;
}

/* The scenario name the writers are given, which JSON must escape, and the steps between
 * recorded frames. */
static const char tricky_name[] = "tricky \"quoted\"\n";
#define TRICKY_EVERY 5

/* A chain of n points (3D when dims is 3) with every coordinate set from tricky[]. */
static struct model *tricky_model(size_t n, int dims)
{
    struct model *m = tu_chain(n, v3(0, 0, 0), v3(1, 0, 0), 1.0, 1, 0, 0.1, 1);
    ck_assert_ptr_nonnull(m);
    m->dims = dims;
    m->steps = 10;
    return m;
}

/* The same as a scenario named tricky_name, recorded every TRICKY_EVERY steps. */
static struct scenario *tricky_scenario(size_t n, int dims)
{
    struct scenario *sc = scenario_create(tricky_model(n, dims));
    ck_assert_ptr_nonnull(sc);
    sc->output.every = TRICKY_EVERY;
    sc->provenance.name = strdup(tricky_name);
    ck_assert_ptr_nonnull(sc->provenance.name);
    return sc;
}

/* A state for m at step `step`, positions drawn from tricky[] shifted by `step`. The
 * solver is not needed: writers only read x, step and t. */
static struct state *tricky_state(const struct model *m, long step)
{
    struct state *s = calloc(1, sizeof *s);
    ck_assert_ptr_nonnull(s);
    s->npoints = m->npoints;
    s->x = calloc(m->npoints, sizeof *s->x);
    ck_assert_ptr_nonnull(s->x);
    for (size_t i = 0; i < m->npoints; i++) {
        size_t k = i * 3 + (size_t)step;
        s->x[i] = v3(tricky[k % NTRICKY], -tricky[(k + 1) % NTRICKY],
                     m->dims == 3 ? tricky[(k + 2) % NTRICKY] : 0.0);
    }
    s->step = step;
    s->t = (double)step * m->dt;
    return s;
}

static void free_state(struct state *s)
{
    free(s->x);
    free(s);
}

/* Writes nframes frames of tricky_state at steps 0, every, 2*every, ... and closes. */
static void write_frames(enum output_format format, const struct model *m, long nframes)
{
    struct catena_error err = {0};
    struct traj_writer *w = traj_open(format, dir, m, tricky_name, TRICKY_EVERY, &err);
    ck_assert_msg(w != NULL, "%s", err.msg);
    for (long f = 0; f < nframes; f++) {
        struct state *s = tricky_state(m, f * TRICKY_EVERY);
        ck_assert_int_eq(traj_append(w, s->step, s->t, s->x, &err), CATENA_OK);
        free_state(s);
    }
    ck_assert_msg(traj_close(w, &err) == CATENA_OK, "%s", err.msg);
}

static char *read_in_dir(const char *name, size_t *len)
{
    char *p = tu_path(dir, name);
    char *text = tu_read_file(p, len);
    free(p);
    ck_assert_ptr_nonnull(text);
    return text;
}

/* The significant digits of a formatted number, leading and trailing zeros dropped. */
static void significant(const char *s, char *out)
{
    int n = 0;
    for (; *s && *s != 'e'; s++)
        if (*s >= '0' && *s <= '9' && (n > 0 || *s != '0'))
            out[n++] = *s;
    while (n > 1 && out[n - 1] == '0')
        n--;
    out[n] = '\0';
}

/* The digits of the shortest correctly rounded decimal that reads back as x > 0: the
 * definition, by exhaustive search. */
static void shortest_digits(double x, char *out)
{
    for (int prec = 1;; prec++) {
        char s[40];
        snprintf(s, sizeof s, "%.*e", prec - 1, x);
        if (strtod(s, NULL) == x) {
            significant(s, out);
            return;
        }
    }
}

START_TEST(test_fmt_examples)
{
    static const struct {
        double x;
        const char *s;
    } cases[] = {
        {0.0, "0"},
        {-0.0, "-0"},
        {1.5, "1.5"},
        {-9.81, "-9.81"},
        {1e-300, "1e-300"},
        {0.1, "0.1"},
        {5e-324, "5e-324"},
        {1.0 / 3.0, "0.3333333333333333"},
        {0.30000000000000004, "0.30000000000000004"},
        {100, "100"},
        {-42, "-42"},
        {0.0001, "0.0001"},
        {0.00001, "1e-05"},
        {1e16, "1e+16"},
        {123456789012345678.0, "1.2345678901234568e+17"},
        {DBL_MAX, "1.7976931348623157e+308"},
        {NAN, "nan"},
        {INFINITY, "inf"},
        {-INFINITY, "-inf"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[FMT_DOUBLE_SIZE];
        size_t n = fmt_double(buf, cases[i].x);
        ck_assert_str_eq(buf, cases[i].s);
        ck_assert_uint_eq(n, strlen(cases[i].s));
    }
    char buf[FMT_DOUBLE_SIZE];
    ck_assert_uint_eq(fmt_long(buf, -9223372036854775807L - 1), 20);
    ck_assert_str_eq(buf, "-9223372036854775808");
    fmt_long(buf, 0);
    ck_assert_str_eq(buf, "0");
}
END_TEST

/* Random bit patterns cover every exponent, subnormals included; uniform values in a
 * simulation's range cover the common case. Every one must read back bit for bit, with
 * the digits of the exhaustive search. */
START_TEST(test_fmt_round_trip_random)
{
    uint64_t r = 0x9e3779b97f4a7c15u; /* xorshift64: the same sequence on every run */
    for (int i = 0; i < 40000; i++) {
        r ^= r << 13;
        r ^= r >> 7;
        r ^= r << 17;
        double x;
        if (i % 2) {
            memcpy(&x, &r, sizeof x);
            if (!isfinite(x))
                continue;
        } else {
            x = ((double)(r >> 11) * 0x1p-53 - 0.5) * 20.0;
        }
        char buf[FMT_DOUBLE_SIZE];
        size_t n = fmt_double(buf, x);
        ck_assert_uint_lt(n, FMT_DOUBLE_SIZE);
        ck_assert_msg(same_bits(strtod(buf, NULL), x), "%s does not read back as %.17g", buf, x);
        char got[40], want[40];
        significant(buf, got);
        shortest_digits(fabs(x), want);
        ck_assert_msg(x == 0 || strcmp(got, want) == 0, "%s is not the shortest form of %.17g", buf,
                      x);
    }
}
END_TEST

START_TEST(test_csv_round_trip)
{
    struct model *m = tricky_model(7, 2);
    write_frames(FORMAT_CSV, m, 3);
    char *text = read_in_dir("trajectory.csv", NULL);

    char *save, *line = strtok_r(text, "\n", &save);
    ck_assert_str_eq(line, "step,time,point,x,y");
    size_t rows = 0;
    for (; (line = strtok_r(NULL, "\n", &save)); rows++) {
        long frame = (long)(rows / m->npoints), point = (long)(rows % m->npoints);
        struct state *s = tricky_state(m, frame * TRICKY_EVERY);
        char *p = line, *end;
        ck_assert_int_eq(strtol(p, &end, 10), s->step);
        ck_assert_int_eq(*end, ',');
        ck_assert(same_bits(strtod(end + 1, &end), s->t));
        ck_assert_int_eq(*end, ',');
        ck_assert_int_eq(strtol(end + 1, &end, 10), point);
        ck_assert_int_eq(*end, ',');
        ck_assert_msg(same_bits(strtod(end + 1, &end), s->x[point].x), "row %zu: %s", rows, line);
        ck_assert_int_eq(*end, ',');
        ck_assert_msg(same_bits(strtod(end + 1, &end), s->x[point].y), "row %zu: %s", rows, line);
        ck_assert_int_eq(*end, '\0');
        free_state(s);
    }
    ck_assert_uint_eq(rows, 3 * m->npoints);
    free(text);
    model_destroy(m);
}
END_TEST

START_TEST(test_csv_3d)
{
    struct model *m = tricky_model(4, 3);
    write_frames(FORMAT_CSV, m, 2);
    char *text = read_in_dir("trajectory.csv", NULL);
    ck_assert_int_eq(strncmp(text, "step,time,point,x,y,z\n", 22), 0);
    /* The first row: step 0, time 0, point 0, then tricky[0..2] with y negated. */
    const char *row = "0,0,0,0.1,-0.3333333333333333,1e-310\n";
    ck_assert_int_eq(strncmp(text + 22, row, strlen(row)), 0);
    size_t lines = 0;
    for (const char *p = text; *p; p++)
        lines += *p == '\n';
    ck_assert_uint_eq(lines, 1 + 2 * m->npoints);
    free(text);
    model_destroy(m);
}
END_TEST

START_TEST(test_json_round_trip)
{
    struct model *m = tricky_model(5, 3);
    write_frames(FORMAT_JSON, m, 4);
    char *text = read_in_dir("trajectory.json", NULL);
    cJSON *root = cJSON_Parse(text);
    ck_assert_msg(root != NULL, "trajectory.json does not parse");

    ck_assert_int_eq(cJSON_GetObjectItem(root, "catena_trajectory")->valueint, 1);
    ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(root, "name")), tricky_name);
    ck_assert_int_eq(cJSON_GetObjectItem(root, "dimensions")->valueint, 3);
    ck_assert(same_bits(cJSON_GetObjectItem(root, "dt")->valuedouble, m->dt));
    ck_assert_int_eq(cJSON_GetObjectItem(root, "points")->valueint, 5);
    ck_assert_int_eq(cJSON_GetObjectItem(root, "every")->valueint, 5);
    cJSON *frames = cJSON_GetObjectItem(root, "frames");
    ck_assert_int_eq(cJSON_GetArraySize(frames), 4);
    for (int f = 0; f < 4; f++) {
        cJSON *frame = cJSON_GetArrayItem(frames, f);
        struct state *s = tricky_state(m, f * TRICKY_EVERY);
        ck_assert_int_eq(cJSON_GetObjectItem(frame, "step")->valueint, s->step);
        ck_assert(same_bits(cJSON_GetObjectItem(frame, "time")->valuedouble, s->t));
        cJSON *x = cJSON_GetObjectItem(frame, "x");
        ck_assert_int_eq(cJSON_GetArraySize(x), 5);
        for (int i = 0; i < 5; i++) {
            cJSON *pt = cJSON_GetArrayItem(x, i);
            ck_assert_int_eq(cJSON_GetArraySize(pt), 3);
            ck_assert(same_bits(cJSON_GetArrayItem(pt, 0)->valuedouble, s->x[i].x));
            ck_assert(same_bits(cJSON_GetArrayItem(pt, 1)->valuedouble, s->x[i].y));
            ck_assert(same_bits(cJSON_GetArrayItem(pt, 2)->valuedouble, s->x[i].z));
        }
        free_state(s);
    }
    cJSON_Delete(root);
    free(text);
    model_destroy(m);
}
END_TEST

/* JSON has no NaN or infinity: a diverged frame still gives valid JSON, with nulls. */
START_TEST(test_json_non_finite)
{
    struct model *m = tricky_model(3, 2);
    struct catena_error err = {0};
    struct traj_writer *w = traj_open(FORMAT_JSON, dir, m, tricky_name, TRICKY_EVERY, &err);
    ck_assert_ptr_nonnull(w);
    struct state *s = tricky_state(m, 0);
    s->x[1] = v3(NAN, INFINITY, 0);
    s->x[2] = v3(-INFINITY, 1.5, 0);
    ck_assert_int_eq(traj_append(w, s->step, s->t, s->x, &err), CATENA_OK);
    ck_assert_int_eq(traj_close(w, &err), CATENA_OK);
    free_state(s);

    char *text = read_in_dir("trajectory.json", NULL);
    cJSON *root = cJSON_Parse(text);
    ck_assert_ptr_nonnull(root);
    cJSON *x = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "frames"), 0), "x");
    ck_assert(cJSON_IsNull(cJSON_GetArrayItem(cJSON_GetArrayItem(x, 1), 0)));
    ck_assert(cJSON_IsNull(cJSON_GetArrayItem(cJSON_GetArrayItem(x, 1), 1)));
    ck_assert(cJSON_IsNull(cJSON_GetArrayItem(cJSON_GetArrayItem(x, 2), 0)));
    ck_assert_double_eq(cJSON_GetArrayItem(cJSON_GetArrayItem(x, 2), 1)->valuedouble, 1.5);
    cJSON_Delete(root);
    free(text);
    model_destroy(m);
}
END_TEST

/* A little-endian double at p. */
static double le_f8(const unsigned char *p)
{
    uint64_t u = 0;
    for (int b = 7; b >= 0; b--)
        u = u << 8 | p[b];
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

/* trajectory-frames.npy beside trajectory.npy: shape (nframes, 2), each frame's step and
 * time as the writer was given them (steps 0, every, 2 every, ...). */
static void check_npy_frames(const struct model *m, long nframes)
{
    size_t len;
    char *data = read_in_dir("trajectory-frames.npy", &len);
    ck_assert_uint_ge(len, 10);
    ck_assert_int_eq(memcmp(data, "\x93NUMPY\x01\x00", 8), 0);
    const size_t offset = 10 + ((unsigned char)data[8] | (size_t)(unsigned char)data[9] << 8);
    ck_assert_uint_eq(offset % 64, 0);
    char shape[64], dict[256];
    snprintf(shape, sizeof shape, "'shape': (%ld, 2)", nframes);
    ck_assert_uint_lt(offset - 10, sizeof dict);
    memcpy(dict, data + 10, offset - 10);
    dict[offset - 10] = '\0';
    ck_assert_msg(strstr(dict, shape) != NULL, "%s lacks %s", dict, shape);
    ck_assert_uint_eq(len, offset + 16 * (size_t)nframes);
    for (long f = 0; f < nframes; f++) {
        const unsigned char *row = (const unsigned char *)data + offset + 16 * (size_t)f;
        ck_assert(same_bits(le_f8(row), (double)(f * TRICKY_EVERY)));
        ck_assert(same_bits(le_f8(row + 8), (double)(f * TRICKY_EVERY) * m->dt));
    }
    free(data);
}

/* Checks an NPY file as numpy.lib.format reads it: magic, version 1.0, header length,
 * the dict, 64-byte aligned data of the right size, values bit for bit. */
static void check_npy(const struct model *m, long nframes)
{
    size_t len;
    char *data = read_in_dir("trajectory.npy", &len);
    ck_assert_uint_ge(len, 10);
    ck_assert_int_eq(memcmp(data, "\x93NUMPY\x01\x00", 8), 0);
    size_t hlen = (unsigned char)data[8] | (size_t)(unsigned char)data[9] << 8;
    size_t offset = 10 + hlen;
    ck_assert_uint_eq(offset % 64, 0);
    ck_assert_uint_le(offset, len);
    ck_assert_int_eq(data[offset - 1], '\n');

    char dict[256], shape[64];
    ck_assert_uint_lt(hlen, sizeof dict);
    memcpy(dict, data + 10, hlen);
    dict[hlen] = '\0';
    snprintf(shape, sizeof shape, "'shape': (%ld, %zu, %d)", nframes, m->npoints, m->dims);
    ck_assert_msg(strstr(dict, "'descr': '<f8'") != NULL, "%s", dict);
    ck_assert_msg(strstr(dict, "'fortran_order': False") != NULL, "%s", dict);
    ck_assert_msg(strstr(dict, shape) != NULL, "%s lacks %s", dict, shape);
    ck_assert_int_eq(dict[0], '{');

    size_t nvalues = (size_t)nframes * m->npoints * (size_t)m->dims;
    ck_assert_uint_eq(len, offset + 8 * nvalues);
    const unsigned char *p = (const unsigned char *)data + offset;
    for (long f = 0; f < nframes; f++) {
        struct state *s = tricky_state(m, f * TRICKY_EVERY);
        for (size_t i = 0; i < m->npoints; i++) {
            double want[3] = {s->x[i].x, s->x[i].y, s->x[i].z};
            for (int d = 0; d < m->dims; d++, p += 8) {
                uint64_t u = 0;
                for (int b = 7; b >= 0; b--)
                    u = u << 8 | p[b];
                double got;
                memcpy(&got, &u, sizeof got);
                ck_assert(same_bits(got, want[d]));
            }
        }
        free_state(s);
    }
    free(data);
    check_npy_frames(m, nframes);
}

/* NPY files of n points in dims with nframes written: fewer than the 3 frames that
 * m->steps = 10, every = 5 plans (the shape must show it), 3D, none at all, and enough frames
 * to fill the output buffer many times over. */
static const struct {
    size_t points;
    int dims;
    long frames;
} npy_cases[] = {{6, 2, 2}, {5, 3, 3}, {4, 2, 0}, {1000, 3, 10}};

START_TEST(test_npy_shapes)
{
    struct model *m = tricky_model(npy_cases[_i].points, npy_cases[_i].dims);
    write_frames(FORMAT_NPY, m, npy_cases[_i].frames);
    check_npy(m, npy_cases[_i].frames);
    model_destroy(m);
}
END_TEST

/* The byte-by-byte path (for big-endian hosts) and the copy of the positions as they are
 * (little-endian ones) write the same file, in 2D and 3D, frames larger than the buffer. */
static char *npy_bytes(const struct model *m, int native, size_t *len)
{
    struct catena_error err = {0};
    struct traj_writer *w = traj_open(FORMAT_NPY, dir, m, tricky_name, TRICKY_EVERY, &err);
    ck_assert_msg(w != NULL, "%s", err.msg);
    if (!native)
        w->npy_native = 0;
    for (long f = 0; f < 3; f++) {
        struct state *s = tricky_state(m, f * TRICKY_EVERY);
        ck_assert_int_eq(traj_append(w, s->step, s->t, s->x, &err), CATENA_OK);
        free_state(s);
    }
    ck_assert_msg(traj_close(w, &err) == CATENA_OK, "%s", err.msg);
    return read_in_dir("trajectory.npy", len);
}

START_TEST(test_npy_paths_agree)
{
    for (int dims = 2; dims <= 3; dims++) {
        struct model *m = tricky_model(5000, dims);
        size_t na, nb;
        char *a = npy_bytes(m, 1, &na), *b = npy_bytes(m, 0, &nb);
        ck_assert_uint_eq(na, nb);
        ck_assert_int_eq(memcmp(a, b, na), 0);
        free(a);
        free(b);
        check_npy(m, 3);
        model_destroy(m);
    }
}
END_TEST

START_TEST(test_final_name_only_after_close)
{
    static const enum output_format formats[] = {FORMAT_CSV, FORMAT_JSON, FORMAT_NPY};
    struct model *m = tricky_model(3, 2);
    for (size_t k = 0; k < 3; k++) {
        char name[64], tmp[128];
        snprintf(name, sizeof name, "trajectory.%s", traj_format_name(formats[k]));
        snprintf(tmp, sizeof tmp, ".%s.tmp.%ld", name, (long)getpid());
        struct catena_error err = {0};
        struct traj_writer *w = traj_open(formats[k], dir, m, tricky_name, TRICKY_EVERY, &err);
        ck_assert_ptr_nonnull(w);
        struct state *s = tricky_state(m, 0);
        ck_assert_int_eq(traj_append(w, s->step, s->t, s->x, &err), CATENA_OK);
        free_state(s);
        ck_assert(!exists(dir, name));
        ck_assert(exists(dir, tmp));
        ck_assert_int_eq(traj_close(w, &err), CATENA_OK);
        ck_assert(exists(dir, name));
        ck_assert(!exists(dir, tmp));
    }
    /* and trajectory-frames.npy, the NPY frames' steps and times */
    ck_assert(exists(dir, "trajectory-frames.npy"));
    ck_assert_int_eq(count_entries(dir), 4);
    model_destroy(m);
}
END_TEST

START_TEST(test_abort_leaves_nothing)
{
    struct model *m = tricky_model(3, 2);
    struct catena_error err = {0};
    struct traj_writer *w = traj_open(FORMAT_NPY, dir, m, tricky_name, TRICKY_EVERY, &err);
    ck_assert_ptr_nonnull(w);
    struct state *s = tricky_state(m, 0);
    ck_assert_int_eq(traj_append(w, s->step, s->t, s->x, &err), CATENA_OK);
    free_state(s);
    traj_abort(w);
    traj_abort(NULL);
    ck_assert_int_eq(count_entries(dir), 0);
    model_destroy(m);
}
END_TEST

START_TEST(test_format_names)
{
    ck_assert_str_eq(traj_format_name(FORMAT_CSV), "csv");
    ck_assert_str_eq(traj_format_name(FORMAT_JSON), "json");
    ck_assert_str_eq(traj_format_name(FORMAT_NPY), "npy");
    ck_assert_ptr_null(traj_format_name((enum output_format)64));
    struct model *m = tricky_model(2, 2);
    struct catena_error err = {0};
    ck_assert_ptr_null(traj_open((enum output_format)64, dir, m, tricky_name, TRICKY_EVERY, &err));
    ck_assert_int_eq(err.code, CATENA_EINPUT);
    model_destroy(m);
}
END_TEST

/* A full disk: the temporary file's stream is swapped for /dev/full, so the flush at
 * commit fails as it would with ENOSPC. Nothing may be left, under either name. */
START_TEST(test_commit_full_disk)
{
    struct outfile f;
    struct catena_error err = {0};
    ck_assert_int_eq(outfile_open(&f, dir, "x.csv", &err), CATENA_OK);
    fclose(f.fp);
    f.fp = fopen("/dev/full", "w");
    ck_assert_ptr_nonnull(f.fp);
    fputs("step,time\n", f.fp);
    ck_assert_int_eq(outfile_commit(&f, &err), CATENA_EFAIL);
    ck_assert_int_eq(err.code, CATENA_EFAIL);
    char want[4096];
    snprintf(want, sizeof want, "%s/x.csv: cannot write: %s", dir, strerror(ENOSPC));
    ck_assert_str_eq(err.msg, want);
    ck_assert_int_eq(count_entries(dir), 0);
    outfile_abort(&f); /* already done: a no-op */
}
END_TEST

/* The same through a trajectory writer, with more than one buffer of data so that the
 * failure comes from a frame, not only from the final flush. */
START_TEST(test_traj_full_disk)
{
    struct model *m = tricky_model(2000, 3);
    struct catena_error err = {0};
    struct traj_writer *w = traj_open(FORMAT_CSV, dir, m, tricky_name, TRICKY_EVERY, &err);
    ck_assert_ptr_nonnull(w);
    FILE *tmp = w->out.fp;
    w->out.fp = fopen("/dev/full", "w");
    ck_assert_ptr_nonnull(w->out.fp);
    fclose(tmp);
    struct state *s = tricky_state(m, 0);
    int rc = CATENA_OK;
    for (int f = 0; f < 10 && rc == CATENA_OK; f++)
        rc = traj_append(w, s->step, s->t, s->x, &err);
    free_state(s);
    ck_assert_int_eq(rc, CATENA_EFAIL);
    char want[4096];
    snprintf(want, sizeof want, "%s/trajectory.csv: cannot write: %s", dir, strerror(ENOSPC));
    ck_assert_str_eq(err.msg, want);
    /* Closing after a failure reports it again and commits nothing. */
    ck_assert_int_eq(traj_close(w, &err), CATENA_EFAIL);
    ck_assert_str_eq(err.msg, want);
    ck_assert_int_eq(count_entries(dir), 0);
    model_destroy(m);
}
END_TEST

/* A directory in the way of the final name makes the rename fail, even as root. */
START_TEST(test_commit_rename_fails)
{
    char *blocker = tu_path(dir, "x.csv");
    ck_assert_int_eq(mkdir(blocker, 0777), 0);
    char *inside = tu_path(blocker, "keep");
    FILE *k = fopen(inside, "w");
    ck_assert_ptr_nonnull(k);
    fclose(k);

    struct outfile f;
    struct catena_error err = {0};
    ck_assert_int_eq(outfile_open(&f, dir, "x.csv", &err), CATENA_OK);
    fputs("data\n", f.fp);
    ck_assert_int_eq(outfile_commit(&f, &err), CATENA_EFAIL);
    char want[4096];
    snprintf(want, sizeof want, "%s: cannot rename into place: ", blocker);
    ck_assert_msg(strncmp(err.msg, want, strlen(want)) == 0, "%s", err.msg);
    ck_assert_int_eq(count_entries(dir), 1); /* the blocker only: no temporary file */
    ck_assert(exists(blocker, "keep"));
    free(inside);
    free(blocker);
}
END_TEST

START_TEST(test_open_missing_dir)
{
    char *missing = tu_path(dir, "no/such");
    struct outfile f;
    struct catena_error err = {0};
    ck_assert_int_eq(outfile_open(&f, missing, "x.csv", &err), CATENA_EFAIL);
    char want[4096];
    snprintf(want, sizeof want, "%s/x.csv: cannot create: %s", missing, strerror(ENOENT));
    ck_assert_str_eq(err.msg, want);
    outfile_abort(&f);

    struct model *m = tricky_model(2, 2);
    ck_assert_ptr_null(traj_open(FORMAT_NPY, missing, m, tricky_name, TRICKY_EVERY, &err));
    ck_assert_int_eq(err.code, CATENA_EFAIL);
    snprintf(want, sizeof want, "%s/trajectory.npy: cannot create: %s", missing, strerror(ENOENT));
    ck_assert_str_eq(err.msg, want);
    model_destroy(m);
    free(missing);
}
END_TEST

START_TEST(test_mkdirs)
{
    struct catena_error err = {0};
    char *deep = tu_path(dir, "a/b//c/");
    ck_assert_int_eq(outfile_mkdirs(deep, &err), CATENA_OK);
    ck_assert_int_eq(outfile_mkdirs(deep, &err), CATENA_OK); /* existing is fine */
    ck_assert(exists(dir, "a/b/c"));

    char *file = tu_path(dir, "file");
    FILE *fp = fopen(file, "w");
    ck_assert_ptr_nonnull(fp);
    fclose(fp);
    char want[4096];
    ck_assert_int_eq(outfile_mkdirs(file, &err), CATENA_EFAIL);
    snprintf(want, sizeof want, "%s: cannot create directory: %s", file, strerror(EEXIST));
    ck_assert_str_eq(err.msg, want);

    /* Below a file, the message names the file that is in the way. */
    char *below = tu_path(file, "sub");
    ck_assert_int_eq(outfile_mkdirs(below, &err), CATENA_EFAIL);
    ck_assert_str_eq(err.msg, want);
    free(below);
    free(file);
    free(deep);
}
END_TEST

static cJSON *read_summary(void)
{
    char *text = read_in_dir("summary.json", NULL);
    cJSON *root = cJSON_Parse(text);
    free(text);
    ck_assert_msg(root != NULL, "summary.json does not parse");
    return root;
}

static cJSON *at(const cJSON *obj, const char *key)
{
    cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    ck_assert_msg(item != NULL, "summary.json lacks \"%s\"", key);
    return item;
}

START_TEST(test_summary_ok)
{
    struct scenario *scn = tricky_scenario(4, 2);
    const struct model *m = scn->model;
    scn->output.formats = FORMAT_CSV | FORMAT_NPY;
    strcpy(scn->provenance.sha256, "00ff");
    scn->provenance.source = strdup("tricky.json");
    struct run_result r = {.status = RUN_OK,
                           .steps_done = 10,
                           .wall_s = 0.5,
                           .max_stretch = 1.0000000123456789,
                           .live_links = 3,
                           .diverged_point = -1};
    struct catena_error err = {0};
    ck_assert_msg(summary_write(dir, scn, &r, &err) == CATENA_OK, "%s", err.msg);

    cJSON *root = read_summary();
    ck_assert_str_eq(at(root, "catena_version")->valuestring, "0.1.0");
    cJSON *sc = at(root, "scenario");
    ck_assert_str_eq(at(sc, "name")->valuestring, tricky_name);
    ck_assert_str_eq(at(sc, "file")->valuestring, "tricky.json");
    ck_assert_str_eq(at(sc, "sha256")->valuestring, "00ff");

    cJSON *p = at(root, "parameters");
    ck_assert_int_eq(at(p, "dimensions")->valueint, 2);
    ck_assert(same_bits(at(p, "dt")->valuedouble, m->dt));
    ck_assert_int_eq(at(p, "steps")->valueint, 10);
    ck_assert_int_eq(at(p, "substeps")->valueint, 1);
    ck_assert_str_eq(at(p, "method")->valuestring, "verlet");
    ck_assert_int_eq(at(p, "iterations")->valueint, 1);
    ck_assert_str_eq(at(p, "order")->valuestring, "alternate");
    ck_assert_double_eq(at(p, "damping")->valuedouble, 1.0);
    cJSON *g = at(p, "gravity");
    ck_assert_int_eq(cJSON_GetArraySize(g), 2);
    ck_assert_double_eq(cJSON_GetArrayItem(g, 1)->valuedouble, -9.81);
    ck_assert_int_eq(at(p, "every")->valueint, 5);
    cJSON *formats = at(p, "formats");
    ck_assert_int_eq(cJSON_GetArraySize(formats), 2);
    ck_assert_str_eq(cJSON_GetArrayItem(formats, 0)->valuestring, "csv");
    ck_assert_str_eq(cJSON_GetArrayItem(formats, 1)->valuestring, "npy");

    cJSON *counts = at(root, "counts");
    ck_assert_int_eq(at(counts, "points")->valueint, 4);
    ck_assert_int_eq(at(counts, "links")->valueint, 3);
    ck_assert_int_eq(at(counts, "pins")->valueint, 1);
    ck_assert_int_eq(at(counts, "bodies")->valueint, 0);

    ck_assert_str_eq(at(root, "status")->valuestring, "ok");
    ck_assert_int_eq(at(root, "steps_done")->valueint, 10);
    ck_assert(same_bits(at(root, "time")->valuedouble, 10 * m->dt));
    ck_assert_double_eq(at(root, "wall_time")->valuedouble, 0.5);
    ck_assert_double_eq(at(root, "steps_per_second")->valuedouble, 20.0);
    cJSON *final = at(root, "final");
    /* Full precision: the value reads back exactly. */
    ck_assert(same_bits(at(final, "max_stretch")->valuedouble, r.max_stretch));
    ck_assert_int_eq(at(final, "live_links")->valueint, 3);
    ck_assert_ptr_null(cJSON_GetObjectItem(root, "diverged"));
    cJSON_Delete(root);
    ck_assert_int_eq(count_entries(dir), 1);
    scenario_destroy(scn);
}
END_TEST

START_TEST(test_summary_diverged)
{
    struct scenario *scn = tricky_scenario(8, 3);
    struct model *m = scn->model;
    long b = model_add_body(m, "chain", BODY_ROPE);
    m->bodies[b].first_point = 0;
    m->bodies[b].npoints = 8;
    struct run_result r = {.status = RUN_DIVERGED,
                           .steps_done = 7,
                           .wall_s = 0.0,
                           .max_stretch = NAN,
                           .live_links = 7,
                           .diverged_point = 3};
    struct catena_error err = {0};
    ck_assert_msg(summary_write(dir, scn, &r, &err) == CATENA_OK, "%s", err.msg);
    cJSON *root = read_summary();
    ck_assert_str_eq(at(root, "status")->valuestring, "diverged");
    ck_assert_double_eq(at(root, "steps_per_second")->valuedouble, 0.0); /* no wall time */
    ck_assert_int_eq(cJSON_GetArraySize(at(at(root, "parameters"), "gravity")), 3);
    ck_assert(cJSON_IsNull(at(at(root, "final"), "max_stretch"))); /* JSON has no NaN */
    cJSON *dv = at(root, "diverged");
    ck_assert_int_eq(at(dv, "step")->valueint, 7);
    ck_assert_str_eq(at(dv, "point")->valuestring, "chain.3");
    cJSON_Delete(root);
    scenario_destroy(scn);
}
END_TEST

START_TEST(test_summary_missing_dir)
{
    struct scenario *scn = tricky_scenario(2, 2);
    struct run_result r = {.status = RUN_OK, .diverged_point = -1};
    struct catena_error err = {0};
    char *missing = tu_path(dir, "gone");
    ck_assert_int_eq(summary_write(missing, scn, &r, &err), CATENA_EFAIL);
    ck_assert_msg(strstr(err.msg, "gone/summary.json: cannot create") != NULL, "%s", err.msg);
    free(missing);
    scenario_destroy(scn);
}
END_TEST

static Suite *write_suite(void)
{
    Suite *s = suite_create("write");
    TCase *fmt = tu_tcase(s, "fmt_double", NULL, NULL);
    tcase_add_test(fmt, test_fmt_examples);
    tcase_add_test(fmt, test_fmt_round_trip_random);

    TCase *traj = tu_tcase(s, "trajectory", tu_dir_setup, tu_dir_teardown);
    tcase_add_test(traj, test_csv_round_trip);
    tcase_add_test(traj, test_csv_3d);
    tcase_add_test(traj, test_json_round_trip);
    tcase_add_test(traj, test_json_non_finite);
    tcase_add_loop_test(traj, test_npy_shapes, 0, sizeof npy_cases / sizeof npy_cases[0]);
    tcase_add_test(traj, test_npy_paths_agree);
    tcase_add_test(traj, test_final_name_only_after_close);
    tcase_add_test(traj, test_abort_leaves_nothing);
    tcase_add_test(traj, test_format_names);

    TCase *files = tu_tcase(s, "outfile", tu_dir_setup, tu_dir_teardown);
    tcase_add_test(files, test_commit_full_disk);
    tcase_add_test(files, test_traj_full_disk);
    tcase_add_test(files, test_commit_rename_fails);
    tcase_add_test(files, test_open_missing_dir);
    tcase_add_test(files, test_mkdirs);

    TCase *summary = tu_tcase(s, "summary", tu_dir_setup, tu_dir_teardown);
    tcase_add_test(summary, test_summary_ok);
    tcase_add_test(summary, test_summary_diverged);
    tcase_add_test(summary, test_summary_missing_dir);
    return s;
}

int main(void)
{
    return tu_run(write_suite());
}
