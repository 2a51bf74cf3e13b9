/* The batched link kernel (solver.kernel "batched", the default): the live links are gathered,
 * in the order they are relaxed, into flat arrays of ends, rest lengths and parameters (again
 * only after events or breaks change them); each iteration then runs a tight loop over them
 * that reads positions and inverse masses straight from the state and the model. Where the
 * processor has AVX2, the colored order goes four links at a time over a copy of the positions
 * held as one array per coordinate (even points first, then odd ones: batch_soa_index), and
 * each colour's links, sorted by (part, b - a, a) in those places, are cut into runs whose
 * ends follow a pattern (a, a + 1, ...: a chain's colours, a cloth's rows and columns) that
 * whole vectors load. The projections and their order are those of solver/distance.c (the
 * simple kernel), operation for operation, so both give the same bits. Under the colored order
 * the links of one colour touch disjoint points, so the loop over a colour has no dependency
 * from one link to the next (the processor overlaps them) and solver.threads members can share
 * it: with the lanes each member keeps to its own parts (bands of points) and, when nothing
 * but links moves the points, a substep is one job whose only waits are between colours, or
 * none for separate bodies, each part going through every iteration alone (one thread runs
 * the same job, band by band). Under the forward
 * and alternate orders, members take runs of links that share no point with other runs.
 *
 * Glossary (one meaning each, here and in gather.c, relax.c, scan.c, batch_avx.c):
 *   batch    the links relaxed between two waits: one colour (colored order), else all
 *   colour   a batch of the colored order: links that share no point (solver/color.c)
 *   lanes    the four-wide AVX2 path: four links per instruction over the positions copied
 *            into one array per coordinate (px, py, pz), even points first, then odd ones
 *   run      gathered links whose ends follow one pattern (enum batch_run_kind) that whole
 *            vectors load; the rest of a colour goes in one listed run. Under the forward and
 *            alternate orders, a run is also a stretch of links sharing no point with the
 *            other runs (cut[]), which team members take one each
 *   part     a band of points [pcut[k], pcut[k + 1]) with the links whose a-end is in it;
 *            members * BATCH_PARTS of them; a member keeps to its own parts first
 *   band     a part, seen as the range of points it copies in and out and advances
 *   chunk    what the team hands out as one unit: one colour of one part (lanes), or
 *            BATCH_CHUNK links, or one run (forward, alternate)
 *   piece    a chunk or a whole step's batch, as find_runs cuts it into runs (piece_run)
 *   group    the chunks of one colour (group[]): a job's waits fall between groups
 *   job      what the team runs per step or substep: relax, a whole substep, breaks, scan
 *   member   one thread of the team (solver/pool.h); 1 without a team
 */
#ifndef CATENA_SOLVER_BATCH_H
#define CATENA_SOLVER_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

struct state;

struct solver_pool;
struct solver_work;

/* Below this many links per member the waits between colours cost more than the team saves:
 * such steps run on one thread (with the same result). */
#define BATCH_MIN_SHARE 2048

/* Links in a chunk the team hands out (a few microseconds of work). */
#define BATCH_CHUNK 1024

/* Runs of independent links the forward and alternate orders are cut into, per member. */
#define BATCH_RUNS_PER_MEMBER 4

/* The lanes: parts of the points per member of a team. A member takes its own parts first and
 * then whatever is left of the others', so that one the system leaves waiting for a while
 * holds up at most one part. */
#define BATCH_PARTS 16

/* A run shorter than this goes with the listed links. */
#define BATCH_RUN_MIN 4

/* A gathered link's ends; the top bit of b marks a tether (only pulls). */
struct batch_ends {
    uint32_t a, b;
};
#define BATCH_TETHER 0x80000000u

/* Gathered links [j, j + n) of one colour, as the four-wide lanes take them: in each colour
 * of each part, the patterned runs in whole fours, then one listed run of everything else.
 * Link k has ends a_k and a_k + off, where a_k is (with the points in the lanes' order,
 * batch_soa_index): RUN_STRIDE, a + k (a chain's colours, a cloth's columns and diagonals);
 * RUN_PAIRS (off 1), a + 2k, so that a vector of points holds two links (a cloth's bend links
 * along a row); RUN_EVEN, a + 2k. RUN_LISTED: the ends as gathered (tethers, and whatever
 * follows no pattern). */
enum batch_run_kind { RUN_LISTED, RUN_STRIDE, RUN_PAIRS, RUN_EVEN };
struct batch_run {
    uint32_t j, n;
    uint32_t a;
    int32_t off;
    enum batch_run_kind kind;
};

struct solver_batch {
    /* What the last gather was made for: it stands until solver_topology_changed sets stale or
     * the step runs on another model or step length. */
    int stale;                    /* 1: gather again before the next step */
    const struct model *gathered; /* the model gathered from */
    double inv_h2;                /* its substeps^2 / dt^2 (xpbd's parameters) */
    size_t n;                     /* links gathered: live, with a movable end */
    struct batch_ends *ends;      /* [nlinks] */
    double *rest;                 /* [nlinks] m */
    double *param;                /* [nlinks] stiffness (verlet, pbd) or compliance / h^2 (xpbd) */
    double *lambda;               /* [nlinks] xpbd: this substep's multipliers, in gathered order */
    uint32_t *link;               /* [nlinks] the model's index of each gathered link */
    size_t nbatches;              /* colours (colored order), else 1 */
    size_t *start; /* [nbatches + 1] where each batch starts in the gathered arrays */

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

    int avx;   /* 1: the processor runs the four-wide kernels (solver/batch/batch_avx.c) */
    int lanes; /* 1: this step's colours go four links at a time, in runs */

    /* The lanes (colored order, AVX2). */
    uint32_t *order;               /* [nlinks] link_order, each colour sorted by (part, b - a, a) */
    struct batch_ends *aside_ends; /* [nlinks] the links that find_runs moves behind the */
    double *aside_rest, *aside_param; /* patterns of a piece, while it moves them */
    uint32_t *aside_link;
    double *px, *py, *pz;  /* [npoints] the positions while the links relax (2D: no pz), point
                              i at batch_soa_index: the even points, then the odd ones */
    size_t half;           /* where the odd points start: (npoints + 1) / 2 */
    double *pw;            /* [npoints] the model's inverse masses, in that order */
    double *pw_held;       /* [npoints] the contact phase's, in that order */
    struct batch_run *run; /* [run_cap] this step's runs, in gathered order */
    size_t nrun;           /* runs this step */
    size_t *piece_run;     /* [chunk_cap + 1] each chunk's first run */
    size_t parts;          /* members * BATCH_PARTS (one thread: BATCH_PARTS), the chunks of
                              each group */
    size_t *pcut;          /* [parts + 1] part k: points [pcut[k], pcut[k + 1]), copied in
                              and out and relaxed (the links whose a-end is one of them: each
                              colour is sorted by part first) as one chunk */
    int bodies;            /* 1: no link joins two parts' points (separate bodies) */
    size_t max_groups;     /* groups a job may have */
    size_t *soa_group;     /* [max_groups] a job's groups: copy in, (iteration,) colours,
                              copy out */
    int hold;              /* 1: no other family or collision reads the positions between
                              iterations, so they are copied in and out once a substep */

    /* Breaks (solver/breaks.h), a team's job once a step. */
    size_t nbreak;       /* ranges of links the team checks: members * BATCH_PARTS */
    size_t *break_count; /* [nbreak] the breaks found in each */
    /* The scan for diverged points (solver_find_diverged), over as many ranges of points. */
    long *found;   /* [nbreak] the first diverged point of each range, or -1 */
    long diverged; /* the first of all, or -1 */
};

/* Where the lanes' per-coordinate copies hold point i: even points first, then odd ones, so
 * that one colour of a chain (links 2k, 2k + 1, or 2k + 1, 2k + 2) has its a-ends and its
 * b-ends each in consecutive places, which whole vectors load without shuffles, and a cloth's
 * columns and diagonals stay runs of consecutive points (split by parity). */
static inline uint32_t batch_soa_index(const struct solver_batch *b, uint32_t i)
{
    return (i & 1) ? (uint32_t)b->half + (i >> 1) : i >> 1;
}

/* Prepares the batched kernel for m into *out (left NULL under the simple kernel and under
 * solver.global), after w's colours: arrays, and the team of m->threads members. Returns 0,
 * or -1 when out of memory or the threads cannot start (*out is then set and to be freed). */
int batch_prepare(const struct model *m, const struct solver_work *w, struct solver_batch **out);

/* NULL is a no-op. */
void batch_destroy(struct solver_batch *b);

/* The links are gathered again at the next batch_gather (solver_cache_changed). */
void batch_links_changed(struct solver_batch *b);

/* Gathers the live links of m in relaxation order, with their runs and the team's chunks,
 * when the links changed since the last gather (solver_topology_changed: events, breaks); else
 * keeps what it has. Once a step, before the first substep. */
void batch_gather(const struct model *m, struct state *s);

/* Iteration `it` of a substep over the gathered links (the method and 1/h^2 went into the
 * gathered parameters), with the inverse masses inv_mass (m->inv_mass, or the contact phase's,
 * collide_frozen_masses). xpbd: the multipliers start from 0 at iteration 0 and reach
 * s->link_lambda after the last one. */
void batch_relax(const struct model *m, struct state *s, int it, const double *inv_mass);

/* Whether a substep can run as batch_substep: a team shares the lanes, each job taking a
 * whole substep (nothing but links moves the points between iterations: no collisions, no
 * other family), and neither wind nor the max-length pass reads other points between the
 * stages. After batch_gather, once a step. */
int batch_substep_ready(const struct model *m, const struct state *s);

/* One substep after the pins are placed and the multipliers reset: per part of the points,
 * points_advance (solver/points.h), then the links' iterations as in batch_relax, then
 * points_velocities (h, keep as solver_step has them), all one job of the team. The same bits
 * as the stages one after another over all the points: the per-point stages read and write
 * only their own point. */
void batch_substep(const struct model *m, struct state *s, double h, double keep);

/* When the team shares this step's links (after batch_gather): checks every link for a break
 * in ranges shared by the team, and lists the broken ones in s->broke in link order as
 * breaks_check does over all of them (s->nbroke); returns 1. Else 0, having done nothing. */
int batch_breaks(const struct model *m, struct state *s);

/* When the team shares the step's links (after batch_gather): finds the first diverged point
 * as points_find_diverged does over all of them, the team scanning ranges of points, into
 * b->diverged; returns 1. Else 0, having done nothing. */
int batch_find_diverged(const struct state *s);

/* solver/batch/batch_avx.c, on x86 with GCC or Clang: whether this processor runs AVX2, and the
 * kernels that relax run r over b->px, b->py and, in 3D, b->pz: four links at a time, then
 * the last few (fewer than four) one by one. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define CATENA_BATCH_AVX 1
int batch_avx_usable(void);
void batch_avx_stiff2(struct solver_batch *b, const double *inv_mass, const struct batch_run *r);
void batch_avx_stiff3(struct solver_batch *b, const double *inv_mass, const struct batch_run *r);
void batch_avx_xpbd2(struct solver_batch *b, const double *inv_mass, const struct batch_run *r);
void batch_avx_xpbd3(struct solver_batch *b, const double *inv_mass, const struct batch_run *r);
/* The same under the contact phase's inverse masses, where both ends of a link may be held. */
void batch_avx_xpbd2_held(struct solver_batch *b, const double *inv_mass,
                          const struct batch_run *r);
void batch_avx_xpbd3_held(struct solver_batch *b, const double *inv_mass,
                          const struct batch_run *r);
#else
#define CATENA_BATCH_AVX 0
#endif

#endif
