/* Reading trajectories back and comparing them: every format reads the same numbers,
 * cross-format comparisons are exact, a perturbation is found where it was made, the
 * tolerance test is numpy.isclose's, and every malformed file is a clear CATENA_EINPUT. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/range.h"
#include "io/compare.h"
#include "solver/state.h"
#include "testutil.h"
#include "testutil_check.h"
#include "io/traj.h"
#include "io/traj_read.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

/* tests/data/traj/NAME in a static buffer; the last four results stay valid. */
static const char *data(const char *name)
{
    static char path[4][4096];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s/tests/data/traj/%s", TOP_SRCDIR, name);
    return p;
}

/* ---- trajectories written by hand, in every format ---- */

enum { MAX_FRAMES = 8, MAX_POINTS = 8 };

struct traj_data {
    int dims;
    size_t npoints, nframes;
    long step[MAX_FRAMES];
    double time[MAX_FRAMES];
    double v[MAX_FRAMES][MAX_POINTS][3];
};

/* Frames every 10 steps at dt = 0.01; positions that need all 17 digits to round-trip. */
static void td_init(struct traj_data *t, int dims, size_t npoints, size_t nframes)
{
    memset(t, 0, sizeof *t);
    t->dims = dims;
    t->npoints = npoints;
    t->nframes = nframes;
    for (size_t f = 0; f < nframes; f++) {
        t->step[f] = 10 * (long)f;
        t->time[f] = (double)t->step[f] * 0.01;
        for (size_t p = 0; p < npoints; p++)
            for (int k = 0; k < dims; k++)
                t->v[f][p][k] = sin(0.3 * (double)f + 1.7 * (double)p + (double)k) * 10.0 / 3.0;
    }
}

static void write_csv(const struct traj_data *t, FILE *fp)
{
    fprintf(fp, t->dims == 3 ? "step,time,point,x,y,z\n" : "step,time,point,x,y\n");
    for (size_t f = 0; f < t->nframes; f++)
        for (size_t p = 0; p < t->npoints; p++) {
            fprintf(fp, "%ld,%.17g,%zu", t->step[f], t->time[f], p);
            for (int k = 0; k < t->dims; k++)
                fprintf(fp, ",%.17g", t->v[f][p][k]);
            fputc('\n', fp);
        }
}

static void write_json(const struct traj_data *t, FILE *fp)
{
    fprintf(fp, "{\"catena_trajectory\": 1, \"name\": \"t\", \"dimensions\": %d, \"dt\": 0.01, ",
            t->dims);
    fprintf(fp, "\"points\": %zu, \"every\": 10, \"frames\": [", t->npoints);
    for (size_t f = 0; f < t->nframes; f++) {
        fprintf(fp, "%s\n  {\"step\": %ld, \"time\": %.17g, \"x\": [", f ? "," : "", t->step[f],
                t->time[f]);
        for (size_t p = 0; p < t->npoints; p++) {
            fprintf(fp, "%s[", p ? ", " : "");
            for (int k = 0; k < t->dims; k++)
                fprintf(fp, isnan(t->v[f][p][k]) ? "%snull" : "%s%.17g", k ? ", " : "",
                        t->v[f][p][k]);
            fputc(']', fp);
        }
        fprintf(fp, "]}");
    }
    fprintf(fp, "\n]}\n");
}

/* NPY 1.0 by hand: magic, version, header length, the dictionary padded to 64 bytes, then
 * little-endian doubles. */
static void write_npy(const struct traj_data *t, FILE *fp)
{
    char dict[128];
    int n = snprintf(dict, sizeof dict,
                     "{'descr': '<f8', 'fortran_order': False, 'shape': (%zu, "
                     "%zu, %d), }",
                     t->nframes, t->npoints, t->dims);
    size_t hlen = (10 + (size_t)n + 1 + 63) / 64 * 64 - 10;
    fwrite("\x93NUMPY\x01\x00", 1, 8, fp);
    fputc((int)(hlen & 0xff), fp);
    fputc((int)(hlen >> 8), fp);
    fprintf(fp, "%s%*s\n", dict, (int)(hlen - (size_t)n - 1), "");
    for (size_t f = 0; f < t->nframes; f++)
        for (size_t p = 0; p < t->npoints; p++)
            for (int k = 0; k < t->dims; k++) {
                uint64_t u;
                memcpy(&u, &t->v[f][p][k], sizeof u);
                for (int b = 0; b < 8; b++)
                    fputc((int)(u >> (8 * b)) & 0xff, fp);
            }
}

/* Writes t to dir/NAME in the format its extension names; returns the path (freed by the
 * caller). */
static char *td_write(const struct traj_data *t, const char *name)
{
    char *path = tu_path(dir, name);
    FILE *fp = fopen(path, "wb");
    ck_assert_ptr_nonnull(fp);
    const char *ext = strrchr(name, '.');
    if (ext && strcmp(ext, ".json") == 0)
        write_json(t, fp);
    else if (ext && strcmp(ext, ".npy") == 0)
        write_npy(t, fp);
    else
        write_csv(t, fp);
    ck_assert_int_eq(fclose(fp), 0);
    return path;
}

static void write_text(const char *path, const char *text)
{
    FILE *fp = fopen(path, "wb");
    ck_assert_ptr_nonnull(fp);
    fputs(text, fp);
    ck_assert_int_eq(fclose(fp), 0);
}

/* Opens both files and compares them; *err gets the message. */
static int compare_files(const char *a, const char *b, const struct compare_options *opt,
                         struct compare_result *res, struct catena_error *err)
{
    struct traj_reader *ra = traj_read_open(a, err);
    struct traj_reader *rb = ra ? traj_read_open(b, err) : NULL;
    int rc = rb ? compare_traj(ra, rb, opt, res, err) : CATENA_EINPUT;
    traj_read_close(ra);
    traj_read_close(rb);
    return rc;
}

static int compare_default(const char *a, const char *b, struct compare_result *res,
                           struct catena_error *err)
{
    struct compare_options opt;
    compare_default_options(&opt);
    return compare_files(a, b, &opt, res, err);
}

/* Reads a file to its end; returns the status of the first failure. */
static int read_all(const char *path, struct catena_error *err)
{
    struct traj_reader *r = traj_read_open(path, err);
    if (!r)
        return err->code;
    const struct traj_frame *f;
    int rc;
    while ((rc = traj_read_next(r, &f, err)) == CATENA_OK && f)
        ;
    traj_read_close(r);
    return rc;
}

/* ---- reading ---- */

/* small.* hold 3 points at steps 0, 10, 20 (t = 0, 0.1, 0.2); point 1 sags by 1/8 per frame. */
START_TEST(test_read_small)
{
    static const char *const names[] = {"small.csv", "small.json", "small.npy", "small-v2.npy"};
    static const enum output_format formats[] = {FORMAT_CSV, FORMAT_JSON, FORMAT_NPY, FORMAT_NPY};
    static const double times[] = {0, 0.1, 0.2};
    for (int i = 0; i < 4; i++) {
        struct catena_error err = {0};
        struct traj_reader *r = traj_read_open(data(names[i]), &err);
        ck_assert_msg(r, "%s", err.msg);
        const struct traj_info *info = traj_read_info(r);
        int npy = formats[i] == FORMAT_NPY;
        ck_assert_int_eq(info->format, formats[i]);
        ck_assert_int_eq(info->dims, 2);
        ck_assert_uint_eq(info->npoints, 3);
        ck_assert_int_eq(info->has_steps, !npy);
        ck_assert_int_eq(info->nframes, npy ? 3 : -1); /* CSV/JSON: unknown before the end */
        const struct traj_frame *f;
        for (long k = 0; k < 3; k++) {
            ck_assert_int_eq(traj_read_next(r, &f, &err), CATENA_OK);
            ck_assert_ptr_nonnull(f);
            ck_assert_int_eq(f->index, k);
            ck_assert_int_eq(f->step, npy ? k : 10 * k);
            if (npy)
                ck_assert(isnan(f->time));
            else
                ck_assert_double_eq(f->time, times[k]);
            ck_assert_double_eq(f->x[1].x, 0.5);
            ck_assert_double_eq(f->x[1].y, -0.125 * (double)(k + 1));
            ck_assert_double_eq(f->x[2].x, 1);
            ck_assert_double_eq(f->x[2].z, 0); /* 2D: z = 0 */
        }
        ck_assert_int_eq(traj_read_next(r, &f, &err), CATENA_OK);
        ck_assert_ptr_null(f);
        ck_assert_int_eq(info->nframes, 3);
        ck_assert_int_eq(traj_read_next(r, &f, &err), CATENA_OK); /* stays at the end */
        ck_assert_ptr_null(f);
        traj_read_close(r);
    }
}
END_TEST

/* Without a known extension the first bytes decide. */
START_TEST(test_sniff)
{
    static const char *const names[] = {"small.csv", "small.json", "small.npy"};
    static const enum output_format formats[] = {FORMAT_CSV, FORMAT_JSON, FORMAT_NPY};
    for (int i = 0; i < 3; i++) {
        size_t len;
        char *bytes = tu_read_file(data(names[i]), &len);
        ck_assert_ptr_nonnull(bytes);
        char *path = tu_path(dir, "trajectory.dat");
        FILE *fp = fopen(path, "wb");
        fwrite(bytes, 1, len, fp);
        fclose(fp);
        struct catena_error err = {0};
        ck_assert_int_eq(read_all(path, &err), CATENA_OK);
        struct traj_reader *r = traj_read_open(path, &err);
        ck_assert_int_eq(traj_read_info(r)->format, formats[i]);
        traj_read_close(r);
        free(bytes);
        free(path);
    }
    char *path = tu_path(dir, "notes.txt"), expect[4200];
    struct catena_error err = {0};
    write_text(path, "hello\n");
    ck_assert_int_eq(read_all(path, &err), CATENA_EINPUT);
    snprintf(expect, sizeof expect,
             "%s: not a trajectory (expected CSV starting \"step,\", JSON or NPY)", path);
    ck_assert_str_eq(err.msg, expect);
    write_text(path, "");
    ck_assert_int_eq(read_all(path, &err), CATENA_EINPUT);
    snprintf(expect, sizeof expect, "%s: empty file", path);
    ck_assert_str_eq(err.msg, expect);
    free(path);
}
END_TEST

/* A run directory: trajectory.npy, else .csv, else .json. */
START_TEST(test_run_directory)
{
    struct traj_data t;
    td_init(&t, 2, 3, 2);
    struct catena_error err = {0};
    char expect[4200];
    ck_assert_ptr_null(traj_read_open(dir, &err));
    snprintf(expect, sizeof expect,
             "%s: no trajectory.npy, trajectory.csv or trajectory.json in this directory", dir);
    ck_assert_str_eq(err.msg, expect);

    static const char *const names[] = {"trajectory.json", "trajectory.csv", "trajectory.npy"};
    static const enum output_format formats[] = {FORMAT_JSON, FORMAT_CSV, FORMAT_NPY};
    for (int i = 0; i < 3; i++) {
        free(td_write(&t, names[i]));
        struct traj_reader *r = traj_read_open(dir, &err);
        ck_assert_msg(r, "%s", err.msg);
        ck_assert_int_eq(traj_read_info(r)->format, formats[i]);
        char *path = tu_path(dir, names[i]);
        ck_assert_str_eq(traj_read_info(r)->path, path);
        free(path);
        traj_read_close(r);
    }

    /* Named with a trailing slash, the directory gives the same file name: one slash. */
    char slashed[4200];
    snprintf(slashed, sizeof slashed, "%s/", dir);
    struct traj_reader *r = traj_read_open(slashed, &err);
    ck_assert_msg(r, "%s", err.msg);
    char *npy = tu_path(dir, "trajectory.npy");
    ck_assert_str_eq(traj_read_info(r)->path, npy);
    free(npy);
    traj_read_close(r);

    char *missing = tu_path(dir, "missing.csv");
    ck_assert_ptr_null(traj_read_open(missing, &err));
    ck_assert_int_eq(err.code, CATENA_EINPUT); /* unreadable: cannot be compared, exit 2 */
    snprintf(expect, sizeof expect, "%s: cannot open: No such file or directory", missing);
    ck_assert_str_eq(err.msg, expect);
    free(missing);
}
END_TEST

/* Every malformed file: CATENA_EINPUT and a message naming the file and the place. */
START_TEST(test_malformed)
{
    static const struct {
        const char *file, *msg; /* msg follows the path */
    } cases[] = {
        /* CSV: FILE:LINE: */
        {"truncated-frame.csv", ":6: truncated: frame at step 10 has 2 of 3 points"},
        {"missing-point.csv", ":7: frame at step 10 has 2 of 3 points"},
        {"bad-header.csv", ":1: expected the header \"step,time,point,x,y\" or "
                           "\"step,time,point,x,y,z\", got \"step,time,pt,x,y\""},
        {"bad-number.csv", ":6: y: \"-0.2x5\" is not a number"},
        {"fields.csv", ":9: expected 5 fields, got 3"},
        {"point-order.csv", ":6: expected point 1 of the frame at step 10, got 2"},
        {"long-frame.csv", ":8: frame at step 10 has more than 3 points"},
        {"steps-decrease.csv", ":8: step 5 after step 10 (steps must increase)"},
        {"time-differs.csv", ":6: time 0.11 differs from 0.1 earlier in the frame at step 10"},
        {"no-newline.csv", ":10: truncated: the last line has no newline"},
        {"header-only.csv", ": no frames"},
        /* JSON: FILE:LINE:COL: for syntax, FILE: PATH: otherwise */
        {"truncated.json", ":4:22: truncated: end of file in frames[2]"},
        {"syntax.json", ":3:39: JSON syntax error in frames[1]"},
        {"trailing.json", ":6:1: unexpected data after the trajectory object"},
        {"missing-points.json", ": points: missing before \"frames\""},
        {"wrong-count.json", ": frames[1].x: expected 3 points, got 2"},
        {"version.json", ": catena_trajectory: version 2 is not supported (catena reads 1)"},
        {"steps-decrease.json", ": frames[2].step: 5 after step 10 (steps must increase)"},
        {"bad-point.json", ": frames[2].x[1][1]: expected a number"},
        {"no-frames.json", ": no frames"},
        {"key-newline.json", ":2:8: JSON syntax error in bad\\x0akey"},
        /* NPY */
        {"truncated.npy", ": truncated: expected 144 bytes of data, found 124"},
        {"truncated-header.npy", ": truncated: expected 128 bytes of header, found 40"},
        {"bad-magic.npy", ": bad NPY header: no \\x93NUMPY magic at the start (not an NPY file)"},
        {"descr-f4.npy", ": bad NPY header: descr '<f4' is not supported (catena reads '<f8')"},
        {"fortran.npy", ": bad NPY header: fortran_order is True (catena reads C order)"},
        {"rank2.npy",
         ": bad NPY header: shape has 2 dimensions, expected 3 (frames, points, dims)"},
        {"extra-data.npy", ": bad NPY header: shape (3, 3, 2) holds 144 bytes of data, found 152"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct catena_error err = {0};
        char expect[4200];
        const char *path = data(cases[i].file), *small = data("small.csv");
        snprintf(expect, sizeof expect, "%s%s", path, cases[i].msg);
        ck_assert_int_eq(read_all(path, &err), CATENA_EINPUT);
        ck_assert_str_eq(err.msg, expect);
        /* compare passes the reader's message on unchanged */
        struct compare_result res;
        ck_assert_int_eq(compare_default(small, path, &res, &err), CATENA_EINPUT);
        ck_assert_str_eq(err.msg, expect);
    }
}
END_TEST

/* A frame of a JSON trajectory is parsed on its own: no frame may be absurdly long. */
START_TEST(test_json_frame_too_long)
{
    char *path = tu_path(dir, "long.json");
    FILE *fp = fopen(path, "wb");
    fprintf(fp, "{\"catena_trajectory\":1,\"dimensions\":2,\"points\":1,\"frames\":[\n"
                "{\"step\":0,\"time\":0,\"pad\":\"");
    for (int i = 0; i < (1 << 20) + 256; i++)
        fputc('x', fp);
    fprintf(fp, "\",\"x\":[[0,0]]}]}\n");
    fclose(fp);
    struct catena_error err = {0};
    char expect[4200];
    snprintf(expect, sizeof expect, "%s:2:1: frames[0] is longer than %d bytes", path,
             (1 << 20) + 256);
    ck_assert_int_eq(read_all(path, &err), CATENA_EINPUT);
    ck_assert_str_eq(err.msg, expect);
    free(path);
}
END_TEST

/* ---- comparing ---- */

START_TEST(test_identical)
{
    static const char *const names[] = {"small.csv", "small.json", "small.npy"};
    for (int i = 0; i < 3; i++) {
        struct compare_result res;
        struct catena_error err = {0};
        ck_assert_int_eq(compare_default(data(names[i]), data(names[i]), &res, &err), CATENA_OK);
        ck_assert_double_eq(res.max_abs, 0);
        ck_assert_double_eq(res.max_rel, 0);
        ck_assert_uint_eq(res.frames, 3);
        ck_assert_uint_eq(res.values, 3 * 3 * 2);
        ck_assert_uint_eq(res.outside, 0);
    }
}
END_TEST

/* Every format holds the same doubles exactly, so every pair compares equal; frames match
 * by step between CSV and JSON, by index as soon as NPY is involved. */
START_TEST(test_cross_format)
{
    struct traj_data t;
    td_init(&t, 3, 5, 4);
    char *paths[] = {td_write(&t, "t.csv"), td_write(&t, "t.json"), td_write(&t, "t.npy")};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            struct compare_result res;
            struct catena_error err = {0};
            ck_assert_int_eq(compare_default(paths[i], paths[j], &res, &err), CATENA_OK);
            ck_assert_double_eq(res.max_abs, 0);
            ck_assert_uint_eq(res.values, 4 * 5 * 3);
            ck_assert_int_eq(res.by_step, i < 2 && j < 2);
            ck_assert_int_eq(res.steps_known, i < 2 || j < 2);
            ck_assert_int_eq(res.step_max, i < 2 || j < 2 ? 30 : 3);
        }
    static const char *const small[] = {"small.csv", "small.json", "small.npy"};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            struct compare_result res;
            struct catena_error err = {0};
            ck_assert_int_eq(compare_default(data(small[i]), data(small[j]), &res, &err),
                             CATENA_OK);
            ck_assert_double_eq(res.max_abs, 0);
        }
    for (int i = 0; i < 3; i++)
        free(paths[i]);
}
END_TEST

/* One value changed by 1e-6 is found at its step, point and component, with its deviation. */
START_TEST(test_perturbed)
{
    struct traj_data t;
    td_init(&t, 3, 5, 4);
    char *b = td_write(&t, "b.npy");
    double bv = t.v[2][3][2];
    t.v[2][3][2] += 1e-6;
    double av = t.v[2][3][2];
    static const char *const names[] = {"a.csv", "a.json", "a.npy"};
    for (int i = 0; i < 3; i++) {
        char *a = td_write(&t, names[i]);
        struct compare_result res;
        struct catena_error err = {0};
        ck_assert_int_eq(compare_default(a, b, &res, &err), CATENA_EFAIL);
        ck_assert_uint_eq(res.outside, 1);
        ck_assert_uint_eq(res.values, 60);
        ck_assert_double_eq(res.max_abs, fabs(av - bv));
        ck_assert_double_eq(res.max_rel, fabs(av - bv) / fabs(bv));
        const struct compare_at *at[] = {&res.first_outside, &res.max_abs_at, &res.max_rel_at};
        for (int k = 0; k < 3; k++) {
            ck_assert_int_eq(at[k]->frame, 2);
            ck_assert_int_eq(at[k]->step, i < 2 ? 20 : 2); /* NPY on both sides: frame index */
            ck_assert_uint_eq(at[k]->point, 3);
            ck_assert_int_eq(at[k]->component, 2);
            ck_assert_double_eq(at[k]->a, av);
            ck_assert_double_eq(at[k]->b, bv);
        }
        char expect[4200];
        snprintf(expect, sizeof expect,
                 "%s and %s differ: 1 of 60 values outside tolerance, first at %s", a, b,
                 i < 2 ? "step 20 (t = 0.2 s), point 3, z" : "frame 2, point 3, z");
        ck_assert_str_eq(err.msg, expect);
        free(a);
    }
    free(b);
}
END_TEST

/* |a - b| <= atol + rtol*|b| includes its boundary (numpy.isclose). Differences that are
 * powers of two are exact in doubles, so the boundary is hit exactly. */
START_TEST(test_tolerance_boundary)
{
    struct traj_data ta, tb;
    td_init(&ta, 2, 1, 1);
    td_init(&tb, 2, 1, 1);
    ta.v[0][0][0] = 1 + 0x1p-20;
    tb.v[0][0][0] = 1;
    ta.v[0][0][1] = 2 + 0x1p-19;
    tb.v[0][0][1] = 2;
    char *a = td_write(&ta, "a.csv"), *b = td_write(&tb, "b.csv");
    struct compare_options opt;
    compare_default_options(&opt);
    struct compare_result res;
    struct catena_error err = {0};

    opt.atol = 0x1p-19; /* x: inside by atol alone; y: exactly on the boundary */
    opt.rtol = 0;
    ck_assert_int_eq(compare_files(a, b, &opt, &res, &err), CATENA_OK);
    ck_assert_double_eq(res.max_abs, 0x1p-19);
    opt.atol = 0x1p-20; /* x exactly on the boundary, y outside */
    ck_assert_int_eq(compare_files(a, b, &opt, &res, &err), CATENA_EFAIL);
    ck_assert_uint_eq(res.outside, 1);
    ck_assert_int_eq(res.first_outside.component, 1);
    opt.atol = 0x1p-21; /* both just outside */
    ck_assert_int_eq(compare_files(a, b, &opt, &res, &err), CATENA_EFAIL);
    ck_assert_uint_eq(res.outside, 2);
    ck_assert_int_eq(res.first_outside.component, 0);

    opt.atol = 0; /* relative: rtol*|b| = 2^-20 for x, 2^-19 for y: both on the boundary */
    opt.rtol = 0x1p-20;
    ck_assert_int_eq(compare_files(a, b, &opt, &res, &err), CATENA_OK);
    ck_assert_double_eq(res.max_rel, 0x1p-20);
    opt.rtol = 0x1p-21;
    ck_assert_int_eq(compare_files(a, b, &opt, &res, &err), CATENA_EFAIL);
    ck_assert_uint_eq(res.outside, 2);
    free(a);
    free(b);
}
END_TEST

/* NaN matches NaN (a diverged run equals itself); against a number it is infinitely far. */
START_TEST(test_nan)
{
    struct traj_data t;
    td_init(&t, 2, 3, 2);
    t.v[1][2][0] = NAN;
    char *a = td_write(&t, "a.csv"), *aj = td_write(&t, "a.json"), *an = td_write(&t, "a.npy");
    struct compare_result res;
    struct catena_error err = {0};
    ck_assert_int_eq(compare_default(a, aj, &res, &err), CATENA_OK);
    ck_assert_int_eq(compare_default(aj, an, &res, &err), CATENA_OK);
    ck_assert_double_eq(res.max_abs, 0);
    t.v[1][2][0] = 1;
    char *b = td_write(&t, "b.csv");
    ck_assert_int_eq(compare_default(a, b, &res, &err), CATENA_EFAIL);
    ck_assert(isinf(res.max_abs));
    ck_assert_uint_eq(res.max_abs_at.point, 2);
    ck_assert_uint_eq(res.outside, 1);
    free(a);
    free(aj);
    free(an);
    free(b);
}
END_TEST

/* Files that cannot be compared: CATENA_EINPUT saying exactly why. */
START_TEST(test_cannot_compare)
{
    struct traj_data t3, t4, t2d, tf, ts, tt;
    td_init(&t3, 2, 3, 3);
    td_init(&t4, 2, 4, 3);
    td_init(&t2d, 3, 3, 3);
    td_init(&tf, 2, 3, 4);
    ts = t3; /* steps 1, 11, 21: none in common with 0, 10, 20 */
    for (int f = 0; f < 3; f++)
        ts.step[f]++;
    tt = t3;
    tt.time[1] = 0.2;
    char *a = td_write(&t3, "a.csv"), *an = td_write(&t3, "a.npy");
    char *paths[] = {td_write(&t4, "points.csv"), td_write(&t2d, "dims.json"),
                     td_write(&ts, "steps.csv"),  td_write(&tf, "frames.npy"),
                     td_write(&ts, "steps.json"), td_write(&tt, "times.csv")};
    char expect[6][4200];
    snprintf(expect[0], sizeof expect[0], "cannot compare: %s has 3 points, %s has 4", a, paths[0]);
    snprintf(expect[1], sizeof expect[1], "cannot compare: %s is 2D, %s is 3D", a, paths[1]);
    snprintf(expect[2], sizeof expect[2],
             "cannot compare: %s and %s have no step in common (3 and 3 frames in the range)", a,
             paths[2]);
    snprintf(expect[3], sizeof expect[3], "cannot compare: %s has 3 frames, %s has 4", a, paths[3]);
    snprintf(expect[4], sizeof expect[4],
             "cannot compare: %s and %s have no step in common (3 and 3 frames in the range)", a,
             paths[4]);
    snprintf(expect[5], sizeof expect[5],
             "cannot compare: step 10 is at time 0.1 in %s but 0.2 in %s", a, paths[5]);
    for (int i = 0; i < 6; i++) {
        struct compare_result res;
        struct catena_error err = {0};
        ck_assert_int_eq(compare_default(a, paths[i], &res, &err), CATENA_EINPUT);
        ck_assert_str_eq(err.msg, expect[i]);
    }
    /* NPY against NPY: the headers' frame counts differ */
    struct compare_result res;
    struct catena_error err = {0};
    char msg[4200];
    ck_assert_int_eq(compare_default(paths[3], an, &res, &err), CATENA_EINPUT);
    snprintf(msg, sizeof msg, "cannot compare: %s has 4 frames, %s has 3", paths[3], an);
    ck_assert_str_eq(err.msg, msg);
    free(a);
    free(an);
    for (int i = 0; i < 6; i++)
        free(paths[i]);
}
END_TEST

/* --steps and --points narrow what is compared. */
START_TEST(test_ranges)
{
    struct traj_data t;
    td_init(&t, 2, 4, 4);
    char *b = td_write(&t, "b.csv"), *bn = td_write(&t, "b.npy");
    t.v[2][3][1] += 1e-3; /* step 20, point 3 */
    char *a = td_write(&t, "a.json");
    struct compare_options opt;
    compare_default_options(&opt);
    struct compare_result res;
    struct catena_error err = {0};
    int dep;

    ck_assert_int_eq(range_parse("--steps", "0..10", &opt.step_first, &opt.step_last, &dep, &err),
                     CATENA_OK);
    ck_assert_int_eq(compare_files(a, b, &opt, &res, &err), CATENA_OK);
    ck_assert_uint_eq(res.frames, 2);
    ck_assert_int_eq(compare_files(a, bn, &opt, &res, &err), CATENA_OK); /* by index */
    ck_assert_uint_eq(res.frames, 2);
    ck_assert_int_eq(range_parse("--steps", "20", &opt.step_first, &opt.step_last, &dep, &err),
                     CATENA_OK);
    ck_assert_int_eq(compare_files(a, b, &opt, &res, &err), CATENA_EFAIL);
    ck_assert_uint_eq(res.frames, 1);
    ck_assert_int_eq(res.step_min, 20);

    compare_default_options(&opt);
    ck_assert_int_eq(range_parse("--points", "..2", &opt.point_first, &opt.point_last, &dep, &err),
                     CATENA_OK);
    ck_assert_int_eq(compare_files(a, b, &opt, &res, &err), CATENA_OK);
    ck_assert_uint_eq(res.values, 4 * 3 * 2);
    ck_assert_int_eq(range_parse("--points", "3..", &opt.point_first, &opt.point_last, &dep, &err),
                     CATENA_OK);
    ck_assert_int_eq(compare_files(a, b, &opt, &res, &err), CATENA_EFAIL);
    ck_assert_uint_eq(res.values, 4 * 1 * 2);
    ck_assert_int_eq(res.opt.point_last, 3); /* the open end, clipped to the last point */

    char expect[4200];
    ck_assert_int_eq(range_parse("--points", "7..", &opt.point_first, &opt.point_last, &dep, &err),
                     CATENA_OK);
    ck_assert_int_eq(compare_files(a, b, &opt, &res, &err), CATENA_EINPUT);
    ck_assert_str_eq(err.msg,
                     "cannot compare: point 7 does not exist (the trajectories have 4 points, "
                     "0 to 3)");
    compare_default_options(&opt);
    opt.step_first = 100;
    ck_assert_int_eq(compare_files(a, b, &opt, &res, &err), CATENA_EINPUT);
    snprintf(expect, sizeof expect,
             "cannot compare: neither %s nor %s has a frame at steps 100 or later", a, b);
    ck_assert_str_eq(err.msg, expect);
    free(a);
    free(b);
    free(bn);
}
END_TEST

/* One range syntax for every command (core/range.h): "..", both ends included; the colon
 * still read but flagged deprecated. */
START_TEST(test_parse_range)
{
    static const struct {
        const char *text;
        long first, last;
        int deprecated;
    } good[] = {{"5", 5, 5, 0},         {"2..9", 2, 9, 0},        {"3..", 3, RANGE_OPEN, 0},
                {"..4", 0, 4, 0},       {"..", 0, RANGE_OPEN, 0}, {"7..7", 7, 7, 0},
                {"2:9", 2, 9, 1},       {"3:", 3, RANGE_OPEN, 1}, {":4", 0, 4, 1},
                {":", 0, RANGE_OPEN, 1}};
    struct catena_error err = {0};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        long first, last;
        int dep = -1;
        ck_assert_int_eq(range_parse("--steps", good[i].text, &first, &last, &dep, &err),
                         CATENA_OK);
        ck_assert_int_eq(first, good[i].first);
        ck_assert_int_eq(last, good[i].last);
        ck_assert_int_eq(dep, good[i].deprecated);
    }
    static const char *const bad[] = {"",      "x",       "-1",    "1:2:3", "1.5",   " 3",
                                      "1...3", "1..2..3", "1..:3", "1-3",   "2..-1", "0x10"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        long first, last;
        int dep;
        char expect[256];
        snprintf(expect, sizeof expect,
                 "--steps: expected N, FIRST..LAST, FIRST.. or ..LAST (integers >= 0, both ends "
                 "included), got '%s'",
                 bad[i]);
        ck_assert_int_eq(range_parse("--steps", bad[i], &first, &last, &dep, &err), CATENA_EINPUT);
        ck_assert_str_eq(err.msg, expect);
    }
    long first, last;
    int dep;
    ck_assert_int_eq(range_parse("--points", "9..2", &first, &last, &dep, &err), CATENA_EINPUT);
    ck_assert_str_eq(err.msg, "--points: '9..2': 9 comes after 2");
    ck_assert_int_eq(range_parse("--points", "9:2", &first, &last, &dep, &err), CATENA_EINPUT);
    ck_assert_str_eq(err.msg, "--points: '9:2': 9 comes after 2");
}
END_TEST

/* The human report and the --json object. */
START_TEST(test_report)
{
    struct traj_data t;
    td_init(&t, 2, 2, 2);
    t.v[1][1][0] = 0.5;
    char *b = td_write(&t, "b.csv");
    t.v[1][1][0] = 0.5 + 0x1p-10;
    char *a = td_write(&t, "a.npy");
    struct compare_result res;
    struct catena_error err = {0};
    struct traj_reader *ra = traj_read_open(a, &err), *rb = traj_read_open(b, &err);
    struct compare_options opt;
    compare_default_options(&opt);
    ck_assert_int_eq(compare_traj(ra, rb, &opt, &res, &err), CATENA_EFAIL);

    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    compare_print(out, &res);
    fclose(out);
    char expect[8192];
    snprintf(expect, sizeof expect,
             "A: %s\n"
             "B: %s (reference)\n"
             "compared: 2 frames (steps 0 to 10, matched by index), points 0 to 1, 8 values\n"
             "max |A-B|: 0.000976562 at step 10 (t = 0.1 s), point 1, x: A 0.5009765625, B 0.5\n"
             "max |A-B|/|B|: 0.00195312 at step 10 (t = 0.1 s), point 1, x: A 0.5009765625, "
             "B 0.5\n"
             "worst point: 1, 0.000976562 m from B at step 10, RMS 0.000690534 m over the "
             "frames, outside tolerance in 1 of 2 frames\n"
             "tolerance: |A-B| <= 1e-09 + 1e-09*|B| (numpy.isclose)\n"
             "outside tolerance: 1 of 8 values, first at step 10 (t = 0.1 s), point 1, x: "
             "A 0.5009765625, B 0.5\n"
             "events: not compared (two trajectories, not two runs)\n"
             "topology: not compared (two trajectories, not two runs)\n"
             "status: not compared (two trajectories, not two runs)\n"
             "metrics: not compared (two trajectories, not two runs)\n",
             a, b);
    ck_assert_str_eq(text, expect);
    free(text);

    cJSON *j = compare_to_json(&res);
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(cJSON_GetObjectItem(j, "matched_by")->valuestring, "index");
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(j, "within_tolerance")));
    ck_assert_double_eq(cJSON_GetObjectItem(j, "outside")->valuedouble, 1);
    const cJSON *first = cJSON_GetObjectItem(j, "first_outside");
    ck_assert_double_eq(cJSON_GetObjectItem(first, "step")->valuedouble, 10);
    ck_assert_double_eq(cJSON_GetObjectItem(first, "time")->valuedouble, 0.1);
    ck_assert_double_eq(cJSON_GetObjectItem(first, "point")->valuedouble, 1);
    ck_assert_str_eq(cJSON_GetObjectItem(first, "component")->valuestring, "x");
    const cJSON *max = cJSON_GetObjectItem(j, "max_abs");
    ck_assert_double_eq(cJSON_GetObjectItem(max, "value")->valuedouble, 0x1p-10);
    cJSON_Delete(j);
    traj_read_close(ra);
    traj_read_close(rb);
    free(a);
    free(b);
}
END_TEST

/* What catena's own writers (io/traj.h) produce reads back bit for bit in every format. */
START_TEST(test_writers_round_trip)
{
    static const double tricky[] = {0.1, 1.0 / 3.0, -0.0, 5e-324, 1e300, -2.5, 123456.789, 1e-7};
    for (int dims = 2; dims <= 3; dims++) {
        struct model *m = tu_chain(4, v3(0, 0, 0), v3(3, 0, 0), 1.0, 1, 0, 0.01, 5);
        m->dims = dims;
        struct state *s = state_create(m);
        struct catena_error err = {0};
        struct traj_writer *w[3];
        static const enum output_format formats[] = {FORMAT_CSV, FORMAT_JSON, FORMAT_NPY};
        for (int i = 0; i < 3; i++) {
            w[i] = traj_open(formats[i], dir, m, NULL, 1, &err);
            ck_assert_msg(w[i], "%s", err.msg);
        }
        for (long f = 0; f < 5; f++) {
            s->step = 7 * f;
            s->t = (double)s->step * m->dt;
            for (size_t p = 0; p < 4; p++)
                s->x[p] = v3(tricky[(f + p) % 8], tricky[(f + 2 * p + 1) % 8],
                             dims == 3 ? tricky[(3 * f + p + 2) % 8] : 0);
            for (int i = 0; i < 3; i++)
                ck_assert_int_eq(traj_append(w[i], s->step, s->t, s->x, &err), CATENA_OK);
        }
        for (int i = 0; i < 3; i++)
            ck_assert_int_eq(traj_close(w[i], &err), CATENA_OK);

        for (int i = 0; i < 3; i++) {
            char name[32];
            snprintf(name, sizeof name, "trajectory.%s", traj_format_name(formats[i]));
            char *path = tu_path(dir, name);
            struct traj_reader *r = traj_read_open(path, &err);
            ck_assert_msg(r, "%s", err.msg);
            ck_assert_int_eq(traj_read_info(r)->dims, dims);
            ck_assert_uint_eq(traj_read_info(r)->npoints, 4);
            const struct traj_frame *fr;
            for (long f = 0; f < 5; f++) {
                ck_assert_int_eq(traj_read_next(r, &fr, &err), CATENA_OK);
                ck_assert_ptr_nonnull(fr);
                /* steps 7 f are off the grid of every = 1: NPY keeps them beside it */
                ck_assert_int_eq(fr->step, 7 * f);
                ck_assert_double_eq(fr->time, (double)(7 * f) * m->dt);
                for (size_t p = 0; p < 4; p++) {
                    vec3 x = v3(tricky[(f + p) % 8], tricky[(f + 2 * p + 1) % 8],
                                dims == 3 ? tricky[(3 * f + p + 2) % 8] : 0);
                    /* bit for bit, so -0 stays -0 */
                    ck_assert_mem_eq(&fr->x[p], &x, sizeof x);
                }
            }
            ck_assert_int_eq(traj_read_next(r, &fr, &err), CATENA_OK);
            ck_assert_ptr_null(fr);
            traj_read_close(r);
            free(path);
        }
        state_destroy(s);
        model_destroy(m);
    }
}
END_TEST

static Suite *compare_suite(void)
{
    Suite *s = suite_create("compare");
    TCase *read = tu_tcase(s, "read", tu_dir_setup, tu_dir_teardown);
    tcase_add_test(read, test_read_small);
    tcase_add_test(read, test_sniff);
    tcase_add_test(read, test_run_directory);
    tcase_add_test(read, test_malformed);
    tcase_add_test(read, test_json_frame_too_long);
    tcase_add_test(read, test_writers_round_trip);
    TCase *cmp = tu_tcase(s, "compare", tu_dir_setup, tu_dir_teardown);
    tcase_add_test(cmp, test_identical);
    tcase_add_test(cmp, test_cross_format);
    tcase_add_test(cmp, test_perturbed);
    tcase_add_test(cmp, test_tolerance_boundary);
    tcase_add_test(cmp, test_nan);
    tcase_add_test(cmp, test_cannot_compare);
    tcase_add_test(cmp, test_ranges);
    tcase_add_test(cmp, test_parse_range);
    tcase_add_test(cmp, test_report);
    return s;
}

int main(void)
{
    return tu_run(compare_suite());
}
