/* The batched link kernel (solver.kernel "batched", the default): once a step the live links
 * are gathered, in the order they are relaxed, into flat arrays of ends, rest lengths and
 * parameters; each iteration then runs a tight loop over them that reads positions and
 * inverse masses straight from the state and the model. Where the processor has AVX2, the
 * colored order goes four links at a time over a copy of the positions held as one array per
 * coordinate, and each colour's links, sorted by (b - a, a), are cut into runs whose ends
 * follow a pattern (a, a + 1, ... or a chain's a, a + 2, ...) that whole vectors load. The
 * projections and their order are those of constraint_distance.c (the simple kernel), operation for
 * operation, so both give the same bits. Under the colored order the links of one colour touch
 * disjoint points, so the loop over a colour has no dependency from one link to the next (the
 * processor overlaps them) and solver.threads members can share it; under the forward and alternate
 * orders, members take runs of links that share no point with other runs (independent bodies). */
#ifndef CATENA_SOLVER_BATCH_H
#define CATENA_SOLVER_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "state.h"

struct solver_pool;
struct solver_work;

/* Below this many links per member the waits between colours cost more than the team saves:
 * such steps run on one thread (with the same result). */
#define BATCH_MIN_SHARE 2048

/* Links in a chunk the team hands out (a few microseconds of work). */
#define BATCH_CHUNK 1024

/* Runs of independent links the forward and alternate orders are cut into, per member. */
#define BATCH_RUNS_PER_MEMBER 4

/* Points a member copies in or out of the per-coordinate arrays as one chunk. */
#define BATCH_POINT_CHUNK 8192

/* A run shorter than this goes with the listed links. */
#define BATCH_RUN_MIN 4

/* A gathered link's ends; the top bit of b marks a tether (only pulls). */
struct batch_ends {
    uint32_t a, b;
};
#define BATCH_TETHER 0x80000000u

/* Gathered links [j, j + n) of one colour, as the four-wide lanes take them. Link k has
 * ends a_k and a_k + off, where a_k is: RUN_STRIDE, a + k; RUN_PAIRS (off 1), a + 2k: one
 * colour of a chain numbered along it, so that a vector of points holds two links; RUN_QUADS
 * (off 2), a, a + 1, a + 4, a + 5, ...: bend links along a row; RUN_EVEN, a + 2k. RUN_LISTED:
 * the ends as gathered (tethers, and whatever follows no pattern). */
enum batch_run_kind { RUN_LISTED, RUN_STRIDE, RUN_PAIRS, RUN_QUADS, RUN_EVEN };
struct batch_run {
    uint32_t j, n;
    uint32_t a;
    int32_t off;
    enum batch_run_kind kind;
};

struct solver_batch {
    size_t n;                /* links gathered this step: live, with a movable end */
    struct batch_ends *ends; /* [nlinks] */
    double *rest;            /* [nlinks] m */
    double *param;           /* [nlinks] stiffness (verlet, pbd) or compliance / h^2 (xpbd) */
    double *lambda;          /* [nlinks] xpbd: this substep's multipliers, in gathered order */
    uint32_t *link;          /* [nlinks] the model's index of each gathered link */
    size_t nbatches;         /* colours (colored order), else 1 */
    size_t *start;           /* [nbatches + 1] where each batch starts in the gathered arrays */

    /* Two or more threads (solver.threads). */
    int members;              /* team size; 1 without a team */
    struct solver_pool *pool; /* NULL without a team */
    uint32_t *ends0;          /* [2 nlinks] each link's ends when prepared (colored order or
                                 a team; else NULL) */
    size_t nruns;             /* forward, alternate: runs of links sharing no point */
    uint32_t *cut;            /* [nruns + 1] the first link of each run */
    size_t *part;             /* [nruns + 1] those cuts in the gathered arrays, this step */
    size_t nchunks;           /* chunks the team hands out this step */
    size_t *chunk;            /* [chunk_cap + 1] where each chunk starts in the gathered arrays */
    size_t *group;            /* [nbatches] each colour's first chunk (runs: one group) */
    int parallel;             /* 1: the team shares this step's links */
    size_t min_share;         /* links per member below which a step runs on one thread */

    int avx;   /* 1: the processor runs the four-wide kernels (solver_batch_avx.c) */
    int lanes; /* 1: this step's colours go four links at a time, in runs */

    /* The lanes (colored order, AVX2). */
    uint32_t *order;       /* [nlinks] link_order, each colour sorted by (b - a, a) */
    double *px, *py, *pz;  /* [npoints] the positions while the links relax (2D: no pz) */
    struct batch_run *run; /* [run_cap] this step's runs, in gathered order */
    size_t nrun;           /* runs this step */
    size_t *piece_run;     /* [chunk_cap + 1] each chunk's first run (without a team: [2]) */
    size_t npoint_chunks;  /* a team: chunks of points copied in (and as many out) */
    size_t *soa_group;     /* [nbatches + 2] a team's groups: copy in, colours, copy out */
    int hold;              /* 1: no other family or collision reads the positions between
                              iterations, so they are copied in and out once a substep */
};

/* Prepares w->batch for m (NULL under the simple kernel): arrays, and the team of
 * m->threads members. Returns 0, or -1 when out of memory or the threads cannot start. */
int batch_prepare(const struct model *m, struct solver_work *w);

/* NULL is a no-op. */
void batch_destroy(struct solver_batch *b);

/* Gathers the live links of m (whose lengths, parameters and ends events may have changed
 * since the last step) in relaxation order. Once a step, before the first substep. */
void batch_gather(const struct model *m, struct state *s);

/* Iteration `it` of a substep over the gathered links (the method and 1/h^2 went into the
 * gathered parameters). xpbd: the multipliers start from 0 at iteration 0 and reach
 * s->link_lambda after the last one. */
void batch_relax(const struct model *m, struct state *s, int it);

/* solver_batch_avx.c, on x86 with GCC or Clang: whether this processor runs AVX2, and the
 * kernels over run r (b->px, b->py and, in 3D, b->pz), four links at a time, which return how
 * many links they did (a multiple of four; the caller does the rest). */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define CATENA_BATCH_AVX 1
int batch_avx_usable(void);
size_t batch_avx_stiff2(struct solver_batch *b, const double *inv_mass, const struct batch_run *r);
size_t batch_avx_stiff3(struct solver_batch *b, const double *inv_mass, const struct batch_run *r);
size_t batch_avx_xpbd2(struct solver_batch *b, const double *inv_mass, const struct batch_run *r);
size_t batch_avx_xpbd3(struct solver_batch *b, const double *inv_mass, const struct batch_run *r);
#else
#define CATENA_BATCH_AVX 0
#endif

#endif
