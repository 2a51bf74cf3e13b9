/* The batched kernel's iterations (solver/batch/batch.h): the projections of
 * solver/distance.c over the gathered links, one link at a time or four at a time in the
 * lanes, on one thread or shared by the team, and a whole substep as one job of the team. */
#include "solver/batch/batch.h"

#include <math.h>
#include <string.h>

#include "solver/pool.h"
#include "solver/cache.h"
#include "solver/points.h"
#include "solver/state.h"

/* x_a += w_a corr, x_b -= w_b corr, each written only when its inverse mass is not 0. */
static inline void move_ends(vec3 *x, uint32_t a, uint32_t bi, vec3 corr, double wa, double wb,
                             int dims)
{
    if (wa != 0.0) {
        x[a].x += corr.x * wa;
        x[a].y += corr.y * wa;
        if (dims == 3)
            x[a].z += corr.z * wa;
    }
    if (wb != 0.0) {
        x[bi].x -= corr.x * wb;
        x[bi].y -= corr.y * wb;
        if (dims == 3)
            x[bi].z -= corr.z * wb;
    }
}

/* One projection, as distance_pair does it under verlet and pbd. In 2D (dims 2) z is neither
 * read nor written: it is 0 throughout. */
static inline void project_stiff(const struct solver_batch *b, const double *inv_mass, vec3 *x,
                                 size_t j, int dims)
{
    const uint32_t a = b->ends[j].a, bi = b->ends[j].b & ~BATCH_TETHER;
    vec3 d = v3_sub(x[bi], x[a]);
    if (dims == 2)
        d.z = 0.0;
    const double len = v3_len(d);
    if (len == 0.0 || ((b->ends[j].b & BATCH_TETHER) && len <= b->rest[j]))
        return;
    const double wa = inv_mass[a], wb = inv_mass[bi];
    const double r = -(b->param[j] * (len - b->rest[j])) / ((wa + wb) * len);
    const vec3 corr = v3_scale(d, -r);
    move_ends(x, a, bi, corr, wa, wb, dims);
}

/* One projection, as distance_pair does it under xpbd. */
static inline void project_xpbd(struct solver_batch *b, const double *inv_mass, vec3 *x, size_t j,
                                int dims)
{
    const uint32_t a = b->ends[j].a, bi = b->ends[j].b & ~BATCH_TETHER;
    vec3 d = v3_sub(x[bi], x[a]);
    if (dims == 2)
        d.z = 0.0;
    const double len = v3_len(d);
    if (len == 0.0 || ((b->ends[j].b & BATCH_TETHER) && len <= b->rest[j]))
        return;
    const double wa = inv_mass[a], wb = inv_mass[bi];
    if (wa + wb == 0.0) /* both ends held by the contact phase: lambda must stay finite */
        return;
    const double at = b->param[j];
    const double dl = (-(len - b->rest[j]) - at * b->lambda[j]) / ((wa + wb) + at);
    b->lambda[j] += dl;
    const vec3 corr = v3_scale(d, -(dl / len));
    move_ends(x, a, bi, corr, wa, wb, dims);
}

/* Gathered links [begin, end) in order, or from end - 1 down. One call site per projection
 * and dimension, so that the compiler inlines them into the loops. */
static void relax_span(struct solver_batch *b, const struct model *m, struct state *s, int it,
                       const double *inv_mass, size_t begin, size_t end, int backward)
{
    vec3 *x = s->x;
    const int xpbd = m->method == METHOD_XPBD;
    if (xpbd && it == 0)
        memset(b->lambda + begin, 0, (end - begin) * sizeof *b->lambda);
    const size_t first = backward ? end - 1 : begin, stride = backward ? (size_t)-1 : 1;
    if (!xpbd && m->dims == 2)
        for (size_t k = begin, j = first; k < end; k++, j += stride)
            project_stiff(b, inv_mass, x, j, 2);
    else if (!xpbd)
        for (size_t k = begin, j = first; k < end; k++, j += stride)
            project_stiff(b, inv_mass, x, j, 3);
    else if (m->dims == 2)
        for (size_t k = begin, j = first; k < end; k++, j += stride)
            project_xpbd(b, inv_mass, x, j, 2);
    else
        for (size_t k = begin, j = first; k < end; k++, j += stride)
            project_xpbd(b, inv_mass, x, j, 3);
    if (xpbd && it == m->iterations - 1)
        for (size_t j = begin; j < end; j++)
            s->link_lambda[b->link[j]] = b->lambda[j];
}

/* The links of run r, four at a time and the last few one by one. Only the contact phase's
 * inverse masses (not the model's: batch_gather leaves out links with both ends pinned) can
 * hold both ends of a link, so only its iterations pay for the XPBD kernels that look for
 * them. */
static void lanes_run(struct solver_batch *b, const struct model *m, const double *inv_mass,
                      int held, const struct batch_run *r)
{
#if CATENA_BATCH_AVX
    if (m->method == METHOD_XPBD && held && m->dims == 3)
        batch_avx_xpbd3_held(b, inv_mass, r);
    else if (m->method == METHOD_XPBD && held)
        batch_avx_xpbd2_held(b, inv_mass, r);
    else if (m->method == METHOD_XPBD && m->dims == 3)
        batch_avx_xpbd3(b, inv_mass, r);
    else if (m->method == METHOD_XPBD)
        batch_avx_xpbd2(b, inv_mass, r);
    else if (m->dims == 3)
        batch_avx_stiff3(b, inv_mass, r);
    else
        batch_avx_stiff2(b, inv_mass, r);
#else
    (void)b;
    (void)m;
    (void)inv_mass;
    (void)held;
    (void)r;
#endif
}

/* Runs [first, last) of this step. */
static void relax_runs(struct solver_batch *b, const struct model *m, struct state *s, int it,
                       const double *inv_mass, int held, size_t first, size_t last)
{
    const int xpbd = m->method == METHOD_XPBD;
    for (size_t k = first; k < last; k++) {
        const struct batch_run *r = &b->run[k];
        if (xpbd && it == 0)
            memset(b->lambda + r->j, 0, r->n * sizeof *b->lambda);
        lanes_run(b, m, inv_mass, held, r);
        if (xpbd && it == m->iterations - 1)
            for (size_t j = r->j; j < r->j + r->n; j++)
                s->link_lambda[b->link[j]] = b->lambda[j];
    }
}

/* Points [begin, end) into the per-coordinate arrays (in) or back (out). */
static void copy_points(struct solver_batch *b, const struct model *m, struct state *s,
                        size_t begin, size_t end, int out)
{
    vec3 *x = s->x;
    if (out)
        for (size_t i = begin; i < end; i++) {
            const uint32_t k = batch_soa_index(b, (uint32_t)i);
            x[i].x = b->px[k];
            x[i].y = b->py[k];
        }
    else
        for (size_t i = begin; i < end; i++) {
            const uint32_t k = batch_soa_index(b, (uint32_t)i);
            b->px[k] = x[i].x;
            b->py[k] = x[i].y;
        }
    if (m->dims == 3 && out)
        for (size_t i = begin; i < end; i++)
            x[i].z = b->pz[batch_soa_index(b, (uint32_t)i)];
    else if (m->dims == 3)
        for (size_t i = begin; i < end; i++)
            b->pz[batch_soa_index(b, (uint32_t)i)] = x[i].z;
}

struct relax_job {
    const struct model *m;
    struct state *s;
    int it;       /* the (first) iteration */
    int nits;     /* the lanes: iterations in the job */
    int copy_in;  /* the lanes: 1 when the job starts by copying the points in */
    int copy_out; /* and ends by copying them out */
    /* m->inv_mass, or the contact phase's (held 1); for the lanes, in their order
     * (batch_soa_index). A job of several iterations only runs while nothing but links moves
     * the points (no collisions, so no contact phase either). */
    const double *inv_mass;
    int held;
    /* batch_substep: the points are advanced before they are copied in and their velocities
     * updated after they are copied out (the substep length and pbd's keep) */
    int points;
    double h, keep;
};

/* Part k's points into the per-coordinate arrays, advanced first in batch_substep's job. */
static void part_in(struct solver_batch *b, const struct relax_job *job, size_t k)
{
    if (job->points)
        points_advance(job->m, job->s, job->h, b->pcut[k], b->pcut[k + 1]);
    copy_points(b, job->m, job->s, b->pcut[k], b->pcut[k + 1], 0);
}

/* Part k's points back, with their velocities in batch_substep's job. */
static void part_out(struct solver_batch *b, const struct relax_job *job, size_t k)
{
    copy_points(b, job->m, job->s, b->pcut[k], b->pcut[k + 1], 1);
    if (job->points)
        points_velocities(job->m, job->s, job->h, job->keep, b->pcut[k], b->pcut[k + 1]);
}

/* Part k's iterations of the job: no link of another part touches its points (b->bodies),
 * so nothing waits for anyone. */
static void relax_part(struct solver_batch *b, const struct relax_job *job, size_t k)
{
    const size_t parts = b->parts;
    if (job->copy_in)
        part_in(b, job, k);
    for (int it = job->it; it < job->it + job->nits; it++)
        for (size_t c = 0; c < b->nbatches; c++)
            relax_runs(b, job->m, job->s, it, job->inv_mass, job->held, b->piece_run[c * parts + k],
                       b->piece_run[c * parts + k + 1]);
    if (job->copy_out)
        part_out(b, job, k);
}

/* Chunk k of the lanes' job: each group has a chunk per part, k % parts, whose points it
 * copies in (the first group), whose links of one colour of one iteration it relaxes, or
 * whose points it copies out (the last group). */
static void relax_lanes_chunk(void *ctx, size_t k)
{
    const struct relax_job *job = ctx;
    struct solver_batch *b = job->s->cache->batch;
    const size_t parts = b->parts, part = k % parts;
    size_t g = k / parts;
    if (b->bodies && b->hold) {
        relax_part(b, job, k);
    } else if (job->copy_in && g == 0) {
        part_in(b, job, part);
    } else if ((g -= (size_t)job->copy_in) < (size_t)job->nits * b->nbatches) {
        const size_t piece = (g % b->nbatches) * parts + part;
        relax_runs(b, job->m, job->s, job->it + (int)(g / b->nbatches), job->inv_mass, job->held,
                   b->piece_run[piece], b->piece_run[piece + 1]);
    } else {
        part_out(b, job, part);
    }
}

/* Whether a team's job can take every iteration of a substep (b->hold: only links move the
 * points; and groups enough). */
static int lanes_whole(const struct solver_batch *b, const struct model *m)
{
    return b->hold && b->nbatches * (size_t)m->iterations + 2 <= b->max_groups;
}

/* The job on the team: groups of one chunk per part, copy in, the colours of each iteration,
 * copy out; for separate bodies held throughout, one group of whole parts. */
static void lanes_job(struct solver_batch *b, struct relax_job *job)
{
    const size_t parts = b->parts;
    const size_t ngroups =
        b->bodies && b->hold
            ? 1
            : (size_t)job->copy_in + (size_t)job->nits * b->nbatches + (size_t)job->copy_out;
    for (size_t g = 0; g < ngroups; g++)
        b->soa_group[g] = g * parts;
    pool_run(b->parallel ? b->pool : NULL, ngroups * parts, b->soa_group, ngroups,
             relax_lanes_chunk, job);
}

/* The colours in runs over the per-coordinate positions, copied in before and out after
 * (only before the first iteration and after the last while b->hold), as a job of the team or,
 * without one, its chunks in order. While b->hold the job takes a whole substep, at iteration
 * 0, whose groups are the colours of each iteration (for a team the waits between them are
 * the only ones), or, for separate bodies, one group in which each part goes through every
 * iteration of its own bodies while its points stay in the cache. */
static void relax_lanes(struct solver_batch *b, const struct model *m, struct state *s, int it,
                        const double *inv_mass)
{
    const int whole = lanes_whole(b, m);
    if (whole && it > 0)
        return; /* iteration 0 did them all */
    const int in = !b->hold || it == 0, out = !b->hold || it == m->iterations - 1;
    const int held = inv_mass != m->inv_mass;
    if (held) /* the contact phase's masses change every iteration */
        for (uint32_t i = 0; i < m->npoints; i++)
            b->pw_held[batch_soa_index(b, i)] = inv_mass[i];
    struct relax_job job = {.m = m,
                            .s = s,
                            .it = it,
                            .nits = whole ? m->iterations : 1,
                            .copy_in = in,
                            .copy_out = out || whole,
                            .inv_mass = held ? b->pw_held : b->pw,
                            .held = held};
    lanes_job(b, &job);
}

/* Chunk k of this step's links, on whichever member took it. */
static void relax_chunk(void *ctx, size_t k)
{
    const struct relax_job *job = ctx;
    struct solver_batch *b = job->s->cache->batch;
    const int backward = job->m->order == ORDER_ALTERNATE && job->it % 2 == 1;
    relax_span(b, job->m, job->s, job->it, job->inv_mass, b->chunk[k], b->chunk[k + 1], backward);
}

void batch_relax(const struct model *m, struct state *s, int it, const double *inv_mass)
{
    struct solver_batch *b = s->cache->batch;
    if (b->lanes) {
        relax_lanes(b, m, s, it, inv_mass);
    } else if (b->parallel) {
        struct relax_job job = {.m = m, .s = s, .it = it, .nits = 1, .inv_mass = inv_mass};
        pool_run(b->pool, b->nchunks, b->group, m->order == ORDER_COLORED ? b->nbatches : 1,
                 relax_chunk, &job);
    } else if (m->order == ORDER_COLORED) {
        for (size_t c = 0; c < b->nbatches; c++)
            relax_span(b, m, s, it, inv_mass, b->start[c], b->start[c + 1], 0);
    } else {
        relax_span(b, m, s, it, inv_mass, 0, b->n, m->order == ORDER_ALTERNATE && it % 2 == 1);
    }
}

int batch_substep_ready(const struct model *m, const struct state *s)
{
    const struct solver_batch *b = s->cache->batch;
    if (!b->lanes || !lanes_whole(b, m) || m->max_length_pass)
        return 0;
    for (size_t k = 0; k < m->nbodies; k++)
        if (m->bodies[k].drag > 0.0) /* wind reads neighbours after the advance */
            return 0;
    return 1;
}

void batch_substep(const struct model *m, struct state *s, double h, double keep)
{
    struct relax_job job = {.m = m,
                            .s = s,
                            .nits = m->iterations,
                            .copy_in = 1,
                            .copy_out = 1,
                            .inv_mass = s->cache->batch->pw,
                            .points = 1,
                            .h = h,
                            .keep = keep};
    lanes_job(s->cache->batch, &job);
}
