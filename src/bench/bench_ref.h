/* The plain references `catena bench` measures catena against, in the same run: the
 * textbook array-of-structs Gauss-Seidel loop of the seeds (Jakobsen's Verlet; Macklin et
 * al.'s XPBD), and trajectory writers that print every number with fprintf("%.17g") or
 * fwrite it on its own. Kept deliberately as the seeds write them: no colouring, no
 * batching, one link after another. */
#ifndef CATENA_BENCH_REFERENCE_H
#define CATENA_BENCH_REFERENCE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/model.h"
#include "model/output_format.h"

struct bench_ref_point {
    double x, y, z;    /* position, m */
    double px, py, pz; /* previous position (verlet) or position at the step's start (xpbd) */
    double vx, vy, vz; /* xpbd: velocity, m/s */
    double inv_mass;   /* 1/kg; 0 = pinned */
};

struct bench_ref_link {
    uint32_t a, b;
    double rest;       /* m */
    double compliance; /* xpbd: m/N */
    double lambda;     /* xpbd: the multiplier of this substep */
};

struct bench_ref {
    size_t npoints, nlinks;
    struct bench_ref_point *p;
    struct bench_ref_link *l;
    int xpbd;       /* 0: Jakobsen's Verlet, 1: XPBD */
    int iterations; /* per step */
    double h;       /* s */
    double damping; /* verlet: velocity kept per step */
    vec3 gravity;   /* m/s^2 */
};

/* A copy of m's points and links (links in order[0..nlinks) when order is not NULL, else
 * as listed); only distance links of stiffness 1, one substep, no other families. NULL on
 * OOM. */
struct bench_ref *bench_ref_create(const struct model *m, const uint32_t *order);

/* NULL is a no-op. */
void bench_ref_destroy(struct bench_ref *r);

/* One step: integrate, then `iterations` sweeps over the links in their order. */
void bench_ref_step(struct bench_ref *r);

/* Writers the plain way, into fp, with the layout of catena's own (trajectory.csv, .json,
 * .npy of catena(1)) for dims 2 or 3: CSV rows and JSON frames with fprintf("%.17g"), NPY
 * values one fwrite each. begin before the first frame, end after the last. Each returns 0,
 * or -1 when a write failed. */
int bench_ref_begin(FILE *fp, enum output_format f, int dims, size_t npoints, long frames);
int bench_ref_frame(FILE *fp, enum output_format f, int dims, size_t npoints, long frame, long step,
                    double t, const vec3 *x);
int bench_ref_end(FILE *fp, enum output_format f);

#endif
