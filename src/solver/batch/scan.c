/* The batched kernel's team scans the step's links for breaks and its points for divergence,
 * range by range, with the same result as one pass (solver/batch/batch.h). */
#include "solver/batch/batch.h"

#include <string.h>

#include "solver/pool.h"
#include "solver/breaks.h"
#include "solver/cache.h"
#include "solver/points.h"
#include "solver/state.h"
#include "solver/work.h"

struct breaks_job {
    const struct model *m;
    struct state *s;
    size_t *count; /* [nbreak] the links that broke in each range */
    size_t n;      /* ranges */
};

/* Range k of the links that can break: its breaks listed where the range starts in s->broke
 * (room enough: at most one entry per link). */
static void breaks_chunk(void *ctx, size_t k)
{
    const struct breaks_job *job = ctx;
    const size_t nb = job->s->cache->work->nbreakable;
    const size_t begin = k * nb / job->n, end = (k + 1) * nb / job->n;
    job->count[k] = breaks_check(job->m, job->s, begin, end, job->s->broke + begin);
}

int batch_breaks(const struct model *m, struct state *s)
{
    struct solver_batch *b = s->cache->batch;
    if (!b->parallel || !s->cache->work->nbreakable)
        return 0;
    static const size_t one_group = 0;
    struct breaks_job job = {m, s, b->break_count, b->nbreak};
    pool_run(b->pool, b->nbreak, &one_group, 1, breaks_chunk, &job);
    /* The ranges' lists joined in order: none moves forward over one not yet moved, since
     * the links before a range hold at most as many breaks as they are links. */
    s->nbroke = 0;
    for (size_t k = 0; k < b->nbreak; k++) {
        memmove(s->broke + s->nbroke, s->broke + k * s->cache->work->nbreakable / b->nbreak,
                b->break_count[k] * sizeof *s->broke);
        s->nbroke += b->break_count[k];
    }
    return 1;
}

/* Range k of the points: its first diverged point, or -1, in found[k]. */
static void diverged_chunk(void *ctx, size_t k)
{
    const struct state *s = ctx;
    const struct solver_batch *b = s->cache->batch;
    const size_t begin = k * s->npoints / b->nbreak, end = (k + 1) * s->npoints / b->nbreak;
    b->found[k] = points_find_diverged(s, begin, end);
}

int batch_find_diverged(const struct state *s)
{
    struct solver_batch *b = s->cache->batch;
    if (!b->parallel)
        return 0;
    static const size_t one_group = 0;
    pool_run(b->pool, b->nbreak, &one_group, 1, diverged_chunk, (void *)s);
    b->diverged = -1;
    for (size_t k = 0; k < b->nbreak && b->diverged < 0; k++)
        b->diverged = b->found[k]; /* the first range with one has the first */
    return 1;
}
