/* The batched link kernel (solver_batch.h). The projection is distance_pair's
 * (constraint_distance.c): d = x_b - x_a, C = |d| - L, r = -(k C) / ((w_a + w_b) |d|) or,
 * under XPBD, dlambda = (-C - at lambda) / (w_a + w_b + at), r = dlambda / |d|; then
 * x_a += w_a (-r d), x_b -= w_b (-r d), each written only when its inverse mass is not 0.
 * Only what the simple kernel decides per link at every projection (broken? both ends
 * pinned? which method?) is decided here once a step instead. */
#include "solver_batch.h"

#include <stdlib.h>
#include <string.h>

#include "constraint.h"
#include "solver_pool.h"
#include "solver_work.h"

static void *alloc_array(size_t n, size_t size)
{
    return malloc((n ? n : 1) * size);
}

/* Cuts between runs of links that share no point: a cut at c is valid when no point of a
 * link before c belongs to a link at or after c. The valid cut at or after k n / nruns is
 * chosen for each k; runs may come out empty (one body cannot be split). */
static int choose_cuts(const struct model *m, struct solver_batch *b)
{
    uint32_t *last = alloc_array(m->npoints, sizeof *last);
    if (!last)
        return -1;
    memset(last, 0, m->npoints * sizeof *last);
    for (size_t i = 0; i < m->nlinks; i++)
        last[m->links[i].a] = last[m->links[i].b] = (uint32_t)i;
    b->cut[0] = 0;
    size_t reach = 0, k = 1; /* reach: the last link that shares a point with links [0, i] */
    for (size_t i = 0; i < m->nlinks && k < b->nruns; i++) {
        const struct link *l = &m->links[i];
        reach = last[l->a] > reach ? last[l->a] : reach;
        reach = last[l->b] > reach ? last[l->b] : reach;
        while (reach == i && k < b->nruns && (i + 1) * b->nruns >= k * m->nlinks)
            b->cut[k++] = (uint32_t)(i + 1);
    }
    while (k <= b->nruns)
        b->cut[k++] = (uint32_t)m->nlinks;
    free(last);
    return 0;
}

/* The team shares the links only where it can: colours always split, runs only when there
 * are at least two non-empty ones. */
static int splits(const struct model *m, const struct solver_batch *b)
{
    if (m->order == ORDER_COLORED)
        return 1;
    size_t runs = 0;
    for (size_t k = 0; k < b->nruns; k++)
        runs += b->cut[k + 1] > b->cut[k];
    return runs > 1;
}

int batch_prepare(const struct model *m, struct solver_work *w)
{
    /* solver.global relaxes the links its own way (solver_direct.h) */
    if (m->kernel != KERNEL_BATCHED || m->global)
        return 0;
    struct solver_batch *b = calloc(1, sizeof *b);
    if (!b)
        return -1;
    w->batch = b;
    const size_t n = m->nlinks;
    const size_t nbatches = m->order == ORDER_COLORED ? w->ncolors : 1;
    b->ends = alloc_array(n, sizeof *b->ends);
    b->rest = alloc_array(n, sizeof *b->rest);
    b->param = alloc_array(n, sizeof *b->param);
    b->lambda = alloc_array(n, sizeof *b->lambda);
    b->link = alloc_array(n, sizeof *b->link);
    b->start = calloc(nbatches + 1, sizeof *b->start);
    b->nbatches = nbatches;
    b->members = 1;
#if CATENA_BATCH_AVX
    b->avx = batch_avx_usable();
#endif
    if (!b->ends || !b->rest || !b->param || !b->lambda || !b->link || !b->start)
        return -1;
    if (m->order != ORDER_COLORED && m->threads < 2)
        return 0;
    /* Lanes and threads rely on the links' ends as they are now. */
    b->ends0 = alloc_array(2 * n, sizeof *b->ends0);
    if (!b->ends0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        b->ends0[2 * i] = m->links[i].a;
        b->ends0[2 * i + 1] = m->links[i].b;
    }
    if (m->threads < 2)
        return 0;
    b->members = m->threads;
    b->min_share = BATCH_MIN_SHARE;
    b->nruns = (size_t)b->members * BATCH_RUNS_PER_MEMBER;
    b->cut = calloc(b->nruns + 1, sizeof *b->cut);
    b->part = calloc(b->nruns + 1, sizeof *b->part);
    /* Colours: at most one short chunk each beyond n / BATCH_CHUNK; runs: one chunk each. */
    const size_t chunk_cap = n / BATCH_CHUNK + nbatches + b->nruns + 1;
    b->chunk = calloc(chunk_cap + 1, sizeof *b->chunk);
    b->group = calloc(nbatches, sizeof *b->group);
    if (!b->cut || !b->part || !b->chunk || !b->group || choose_cuts(m, b))
        return -1;
    if (splits(m, b) && !(b->pool = pool_create(b->members, nbatches)))
        return -1;
    return 0;
}

void batch_destroy(struct solver_batch *b)
{
    if (!b)
        return;
    pool_destroy(b->pool);
    free(b->ends);
    free(b->rest);
    free(b->param);
    free(b->lambda);
    free(b->link);
    free(b->start);
    free(b->ends0);
    free(b->cut);
    free(b->part);
    free(b->chunk);
    free(b->group);
    free(b);
}

/* Appends link i when it is alive and has an end that moves (the simple kernel skips the
 * others at every projection). Returns 0 when its ends are no longer those the colours, the
 * lanes and the team's runs were made for. */
static int gather_link(const struct model *m, const struct state *s, struct solver_batch *b,
                       uint32_t i, double inv_h2)
{
    const struct link *l = &m->links[i];
    const int same = !b->ends0 || (b->ends0[2 * i] == l->a && b->ends0[2 * i + 1] == l->b);
    if (!s->alive[i] || m->inv_mass[l->a] + m->inv_mass[l->b] == 0.0)
        return same;
    const size_t j = b->n++;
    b->ends[j] = (struct batch_ends){l->a, l->b | (l->kind == LINK_TETHER ? BATCH_TETHER : 0)};
    b->rest[j] = l->rest;
    /* constraint_step's at = compliance * inv_h2, the same product */
    b->param[j] = m->method == METHOD_XPBD ? l->compliance * inv_h2 : l->stiffness;
    b->link[j] = i;
    return same;
}

/* The chunks the team hands out this step: each colour cut into pieces of BATCH_CHUNK links,
 * or the non-empty runs. */
static void make_chunks(const struct model *m, struct solver_batch *b)
{
    b->nchunks = 0;
    if (m->order == ORDER_COLORED) {
        for (size_t c = 0; c < b->nbatches; c++) {
            b->group[c] = b->nchunks;
            for (size_t j = b->start[c]; j < b->start[c + 1]; j += BATCH_CHUNK)
                b->chunk[b->nchunks++] = j;
        }
    } else {
        b->group[0] = 0;
        for (size_t k = 0; k < b->nruns; k++)
            if (b->part[k + 1] > b->part[k])
                b->chunk[b->nchunks++] = b->part[k];
    }
    b->chunk[b->nchunks] = b->n;
}

void batch_gather(const struct model *m, struct state *s)
{
    struct solver_batch *b = s->work->batch;
    const struct constraint_ctx cx = constraint_ctx_make(m);
    int same = 1;
    b->n = 0;
    if (m->order == ORDER_COLORED) {
        const struct solver_work *w = s->work;
        for (size_t c = 0; c < w->ncolors; c++) {
            b->start[c] = b->n;
            for (uint32_t k = w->color_start[c]; k < w->color_start[c + 1]; k++)
                same &= gather_link(m, s, b, w->link_order[k], cx.inv_h2);
        }
    } else {
        size_t k = 0;
        for (uint32_t i = 0; i < m->nlinks; i++) {
            while (b->part && k < b->nruns && b->cut[k] <= i)
                b->part[k++] = b->n;
            same &= gather_link(m, s, b, i, cx.inv_h2);
        }
        while (b->part && k <= b->nruns)
            b->part[k++] = b->n;
    }
    b->start[b->nbatches] = b->n;
    if (b->pool)
        make_chunks(m, b);
    /* Events that move a link's ends (a cut) may join links of one colour or two runs: the
     * step then goes one link at a time on one thread, still in the same order. */
    b->parallel = b->pool != NULL && same && b->n >= b->min_share * (size_t)b->members;
    b->lanes = b->avx && same;
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

/* The links of a colour four at a time where the processor can; returns where the scalar loop
 * takes over. */
static size_t relax_lanes(struct solver_batch *b, const struct model *m, const double *inv_mass,
                          vec3 *x, size_t begin, size_t end)
{
#if CATENA_BATCH_AVX
    if (b->lanes && m->order == ORDER_COLORED) {
        if (m->method == METHOD_XPBD)
            return m->dims == 3 ? batch_avx_xpbd3(b, inv_mass, x, begin, end)
                                : batch_avx_xpbd2(b, inv_mass, x, begin, end);
        return m->dims == 3 ? batch_avx_stiff3(b, inv_mass, x, begin, end)
                            : batch_avx_stiff2(b, inv_mass, x, begin, end);
    }
#else
    (void)b;
    (void)m;
    (void)inv_mass;
    (void)x;
    (void)end;
#endif
    return begin;
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
    const size_t from = backward ? begin : relax_lanes(b, m, inv_mass, x, begin, end);
    const size_t first = backward ? end - 1 : from, stride = backward ? (size_t)-1 : 1;
    if (!xpbd && m->dims == 2)
        for (size_t k = from, j = first; k < end; k++, j += stride)
            project_stiff(b, inv_mass, x, j, 2);
    else if (!xpbd)
        for (size_t k = from, j = first; k < end; k++, j += stride)
            project_stiff(b, inv_mass, x, j, 3);
    else if (m->dims == 2)
        for (size_t k = from, j = first; k < end; k++, j += stride)
            project_xpbd(b, inv_mass, x, j, 2);
    else
        for (size_t k = from, j = first; k < end; k++, j += stride)
            project_xpbd(b, inv_mass, x, j, 3);
    if (xpbd && it == m->iterations - 1)
        for (size_t j = begin; j < end; j++)
            s->link_lambda[b->link[j]] = b->lambda[j];
}

struct relax_job {
    const struct model *m;
    struct state *s;
    int it;
    const double *inv_mass;
};

/* Chunk k of this step's links, on whichever member took it. */
static void relax_chunk(void *ctx, size_t k)
{
    const struct relax_job *job = ctx;
    struct solver_batch *b = job->s->work->batch;
    const int backward = job->m->order == ORDER_ALTERNATE && job->it % 2 == 1;
    relax_span(b, job->m, job->s, job->it, job->inv_mass, b->chunk[k], b->chunk[k + 1], backward);
}

void batch_relax(const struct model *m, struct state *s, int it, const double *inv_mass)
{
    struct solver_batch *b = s->work->batch;
    if (b->parallel) {
        struct relax_job job = {m, s, it, inv_mass};
        pool_run(b->pool, b->nchunks, b->group, m->order == ORDER_COLORED ? b->nbatches : 1,
                 relax_chunk, &job);
    } else if (m->order == ORDER_COLORED) {
        for (size_t c = 0; c < b->nbatches; c++)
            relax_span(b, m, s, it, inv_mass, b->start[c], b->start[c + 1], 0);
    } else {
        relax_span(b, m, s, it, inv_mass, 0, b->n, m->order == ORDER_ALTERNATE && it % 2 == 1);
    }
}
