/* `catena bench`: fixed cases that time the solver, the trajectory writers and the drawing of
 * frames, each beside a plain reference measured in the same run (the textbook Gauss-Seidel
 * loop of bench/bench_ref.c, fprintf("%.17g") writers), with medians of several repetitions,
 * peak memory, and checks that do not depend on time: catena and the reference agree when
 * they project in the same order, and a thread team gives the same bits as one thread. */
#ifndef CATENA_BENCH_H
#define CATENA_BENCH_H

#include <stdint.h>
#include <stdio.h>

#include "core/error.h"

struct model;

enum bench_kind {
    BENCH_SOLVER, /* steps of a model: ns per constraint x iteration, against the reference */
    BENCH_WRITER, /* frames to a trajectory file: MB/s, against fprintf("%.17g") */
    BENCH_RENDER, /* PNG frames: frames/s */
};

/* One case, filled in a child process and sent back whole through a pipe. */
struct bench_result {
    char name[40];  /* "chain-10k-verlet" */
    char size[64];  /* what it runs, in words */
    char check[96]; /* what the time-independent checks found */
    enum bench_kind kind;
    int reps;          /* repetitions the medians are over */
    int ok;            /* 1: the checks passed */
    double seconds;    /* median wall time of one repetition of catena */
    double ns_per_cit; /* solver: ns per constraint x iteration (x substep) */
    double steps_per_s;
    double mb_per_s;     /* writer: output MB (10^6 bytes) per second */
    double frames_per_s; /* render */
    double ref_seconds;  /* the reference's median, same work; 0 when none */
    double ratio;        /* ref_seconds / seconds: how many times faster catena is */
    int threads;         /* solver: the team compared with one thread (0: none) */
    double team_seconds; /* its median */
    double speedup;      /* seconds / team_seconds */
    double team_cpu;     /* the team's processor time over one thread's (medians): what the
                            team costs beyond one thread, the same on a busy machine */
    double peak_mib;     /* the child's peak resident memory, MiB (getrusage) */
};

struct bench_options {
    int quick;       /* a smoke test: small sizes and few repetitions */
    int threads;     /* the team the solver cases compare with one thread (>= 2) */
    const char *dir; /* scratch directory for the writers' and frames' files */
    char **only;     /* [nonly] names of the cases to run; none: all of them */
    int nonly;
    double load[2]; /* the system's 1-minute load average before and after (-1: unknown),
                       filled by bench_run: how busy the machine was */
};

/* Runs every case (or those o->only names), one child process each, calling
 * report(result, ctx) after each. Returns CATENA_OK when every case ran and passed its checks,
 * CATENA_EFAIL otherwise (err says which case first), CATENA_EINPUT for a name that is no
 * case (err lists them). */
int bench_run(struct bench_options *o, void (*report)(const struct bench_result *r, void *ctx),
              void *ctx, struct catena_error *err);

/* CATENA_OK when every name in o->only is a case (one with a --quick size under o->quick);
 * CATENA_EINPUT with the list or the reason otherwise. */
int bench_check_names(const struct bench_options *o, struct catena_error *err);

/* The header and one row of the text table. */
void bench_print_header(FILE *out);
void bench_print_row(FILE *out, const struct bench_result *r);

/* The results as JSON text (malloc'd; NULL on OOM). */
char *bench_json(const struct bench_options *o, const struct bench_result *r, size_t n);

/* The cases, defined by bench/solver.c, bench/direct.c, bench/writers.c and bench/frames.c: each
 * fills r (name, size, kind, measurements, checks). */
struct bench_case {
    const char *name;
    int quick; /* also run by --quick (at its small size) */
    int (*run)(const struct bench_case *c, const struct bench_options *o, struct bench_result *r,
               struct catena_error *err);
    int variant; /* case-specific: which size, method or format */
};

int bench_solver_case(const struct bench_case *c, const struct bench_options *o,
                      struct bench_result *r, struct catena_error *err);
int bench_writer_case(const struct bench_case *c, const struct bench_options *o,
                      struct bench_result *r, struct catena_error *err);
int bench_direct_case(const struct bench_case *c, const struct bench_options *o,
                      struct bench_result *r, struct catena_error *err);
int bench_frames_case(const struct bench_case *c, const struct bench_options *o,
                      struct bench_result *r, struct catena_error *err);

/* The models of bench/direct.c's cases (see there), with solver.global off (global 0), on
 * with the Newton (1) or on with solver.global_matrix "fixed" (2), and the iterations given: the
 * issue's V-start chain of n points, an n x n hanging xpbd cloth, n hair strands. NULL when out of
 * memory; the caller frees it with model_destroy. */
enum { BENCH_V_CHAIN, BENCH_CLOTH, BENCH_HAIR };
struct model *bench_direct_model(int shape, long n, int global, int iterations);

/* Shared by the cases (they time with core/clock.h): the median of n values (reordered). */
double bench_median(double *v, int n);

/* An empty model in dims (2 or 3) dimensions, stepped at 60 Hz with its links in coloured
 * order: what the solver and writer cases build on. The caller frees it with model_destroy;
 * NULL when out of memory. */
struct model *bench_model(int dims);

/* Adds the cases' n x n cloth to m: points 2 cm apart with structural, shear and bend links,
 * mass kg in all, pinned at its first point and, when corners is 2, at the other end of its
 * first row. 0, or -1 when out of memory. */
int bench_add_cloth(struct model *m, uint32_t n, double mass, int corners);

#endif
