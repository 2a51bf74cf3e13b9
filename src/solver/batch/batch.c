/* The batched link kernel (solver/batch/batch.h). The projection is distance_pair's
 * (solver/distance.c): d = x_b - x_a, C = |d| - L, r = -(k C) / ((w_a + w_b) |d|) or,
 * under XPBD, dlambda = (-C - at lambda) / (w_a + w_b + at), r = dlambda / |d|; then
 * x_a += w_a (-r d), x_b -= w_b (-r d), each written only when its inverse mass is not 0.
 * Only what the simple kernel decides per link at every projection (broken? both ends
 * pinned? which method?) is decided here once a step instead. */
#include "solver/batch/batch.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "solver/pool.h"
#include "solver/work.h"

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

/* Orders links by (owner, b - a, a): a colour's links of one member and one family then lie
 * in runs. */
static int cmp_ends(const void *pa, const void *pb)
{
    const int64_t *x = pa, *y = pb;
    for (int k = 0; k < 3; k++)
        if (x[k] != y[k])
            return x[k] < y[k] ? -1 : 1;
    return 0;
}

/* b->order: each colour of w->link_order sorted by (owner of a, b - a, a), a and b where the
 * lanes hold them (batch_soa_index; no two links of a colour tie: they would share a point);
 * any order of one colour gives the same bits. */
static int sort_colours(const struct model *m, const struct solver_work *w, struct solver_batch *b,
                        const uint32_t *owner)
{
    int64_t *key = alloc_array(4 * m->nlinks, sizeof *key);
    if (!key)
        return -1;
    for (size_t c = 0; c < w->ncolors; c++) {
        const uint32_t first = w->color_start[c], n = w->color_start[c + 1] - first;
        for (uint32_t k = 0; k < n; k++) {
            const struct link *l = &m->links[w->link_order[first + k]];
            key[4 * k] = owner ? owner[l->a] : 0;
            const int64_t a = batch_soa_index(b, l->a), bi = batch_soa_index(b, l->b);
            key[4 * k + 1] = bi - a;
            key[4 * k + 2] = a;
            key[4 * k + 3] = w->link_order[first + k];
        }
        qsort(key, n, 4 * sizeof *key, cmp_ends);
        for (uint32_t k = 0; k < n; k++)
            b->order[first + k] = (uint32_t)key[4 * k + 3];
    }
    free(key);
    return 0;
}

/* b->pcut for mb parts (BATCH_PARTS per member): where no link crosses from a point below a
 * cut to one at or above it, the first such cut at or after k npoints / mb, when that leaves
 * no member's parts more than half again its even share (separate bodies: b->bodies; a part
 * may then be empty); else the even split, and the few links across a cut go with their
 * a-end's part. */
static int choose_point_cuts(const struct model *m, struct solver_batch *b, size_t mb)
{
    const size_t np = m->npoints;
    long *cross = calloc(np + 2, sizeof *cross); /* then: links with min < p <= max */
    if (!cross)
        return -1;
    for (size_t i = 0; i < m->nlinks; i++) {
        const uint32_t lo = m->links[i].a < m->links[i].b ? m->links[i].a : m->links[i].b;
        const uint32_t hi = m->links[i].a ^ m->links[i].b ^ lo;
        cross[lo + 1]++;
        cross[hi + 1]--;
    }
    for (size_t p = 1; p <= np; p++)
        cross[p] += cross[p - 1];
    b->pcut[0] = 0;
    b->pcut[mb] = np;
    b->bodies = 1;
    for (size_t k = 1; k < mb; k++) {
        size_t p = k * np / mb > b->pcut[k - 1] ? k * np / mb : b->pcut[k - 1];
        while (p < np && cross[p] != 0)
            p++;
        b->pcut[k] = p;
    }
    const size_t members = mb / BATCH_PARTS; /* a member's share: BATCH_PARTS parts in a row */
    for (size_t k = 0; k < members; k++)
        if (2 * members * (b->pcut[(k + 1) * BATCH_PARTS] - b->pcut[k * BATCH_PARTS]) >
            3 * np + 2 * members)
            b->bodies = 0;
    if (!b->bodies)
        for (size_t k = 1; k < mb; k++)
            b->pcut[k] = k * np / mb;
    free(cross);
    return 0;
}

/* Sorts the colours by part. */
static int order_lanes(const struct model *m, const struct solver_work *w, struct solver_batch *b)
{
    uint32_t *owner = alloc_array(m->npoints, sizeof *owner);
    if (!owner || choose_point_cuts(m, b, b->parts)) {
        free(owner);
        return -1;
    }
    for (size_t k = 0; k < b->parts; k++)
        for (size_t p = b->pcut[k]; p < b->pcut[k + 1]; p++)
            owner[p] = (uint32_t)k;
    const int rc = sort_colours(m, w, b, owner);
    free(owner);
    return rc;
}

/* The lanes' tables (colored order on a processor with AVX2). */
static int prepare_lanes(const struct model *m, const struct solver_work *w, struct solver_batch *b,
                         size_t chunk_cap)
{
    b->order = alloc_array(m->nlinks, sizeof *b->order);
    b->aside_ends = alloc_array(m->nlinks, sizeof *b->aside_ends);
    b->aside_rest = alloc_array(m->nlinks, sizeof *b->aside_rest);
    b->aside_param = alloc_array(m->nlinks, sizeof *b->aside_param);
    b->aside_link = alloc_array(m->nlinks, sizeof *b->aside_link);
    b->px = alloc_array(m->npoints, sizeof *b->px);
    b->py = alloc_array(m->npoints, sizeof *b->py);
    b->pz = m->dims == 3 ? alloc_array(m->npoints, sizeof *b->pz) : NULL;
    b->half = (m->npoints + 1) / 2;
    b->pw = alloc_array(m->npoints, sizeof *b->pw);
    b->pw_held = alloc_array(m->npoints, sizeof *b->pw_held);
    /* Each piece (chunk or step) ends at most one run early; a run has at least one link. */
    b->run = alloc_array(m->nlinks + chunk_cap + 1, sizeof *b->run);
    b->piece_run = calloc(chunk_cap + 2, sizeof *b->piece_run);
    /* A team's job: copies in and out around every iteration's colours of a substep. */
    b->max_groups = b->nbatches * (size_t)m->iterations + 2;
    b->soa_group = calloc(b->max_groups, sizeof *b->soa_group);
    b->parts = (size_t)(m->threads > 1 ? m->threads : 1) * BATCH_PARTS;
    b->pcut = calloc(b->parts + 1, sizeof *b->pcut);
    b->chunk = calloc(chunk_cap + 1, sizeof *b->chunk);
    b->group = calloc(b->nbatches, sizeof *b->group);
    if (!b->order || !b->px || !b->py || (m->dims == 3 && !b->pz) || !b->pw || !b->pw_held ||
        !b->run || !b->piece_run || !b->soa_group || !b->pcut || !b->chunk || !b->group ||
        !b->aside_ends || !b->aside_rest || !b->aside_param || !b->aside_link)
        return -1;
    return order_lanes(m, w, b);
}

int batch_prepare(const struct model *m, const struct solver_work *w, struct solver_batch **out)
{
    /* solver.global relaxes the links its own way (solver/direct/direct.h) */
    if (m->kernel != KERNEL_BATCHED || m->global)
        return 0;
    struct solver_batch *b = calloc(1, sizeof *b);
    if (!b)
        return -1;
    *out = b;
    b->stale = 1;
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
    /* Colours: at most one short chunk each beyond n / BATCH_CHUNK; runs: one chunk each. */
    const size_t runs = m->threads < 2 ? 0 : (size_t)m->threads * BATCH_RUNS_PER_MEMBER;
    size_t chunk_cap = n / BATCH_CHUNK + nbatches + runs + 1;
    if (chunk_cap < nbatches * (size_t)m->threads * BATCH_PARTS + 1) /* the lanes: parts */
        chunk_cap = nbatches * (size_t)m->threads * BATCH_PARTS + 1;
    if (m->order == ORDER_COLORED && b->avx && prepare_lanes(m, w, b, chunk_cap))
        return -1;
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
    b->nruns = runs;
    b->cut = calloc(b->nruns + 1, sizeof *b->cut);
    b->part = calloc(b->nruns + 1, sizeof *b->part);
    if (!b->chunk)
        b->chunk = calloc(chunk_cap + 1, sizeof *b->chunk);
    if (!b->group)
        b->group = calloc(nbatches, sizeof *b->group);
    b->nbreak = (size_t)b->members * BATCH_PARTS;
    b->break_count = calloc(b->nbreak, sizeof *b->break_count);
    b->found = calloc(b->nbreak, sizeof *b->found);
    if (!b->cut || !b->part || !b->chunk || !b->group || !b->break_count || !b->found ||
        choose_cuts(m, b))
        return -1;
    /* The lanes' groups: copy in, the colours, copy out. */
    const size_t groups = b->max_groups > nbatches + 2 ? b->max_groups : nbatches + 2;
    if (splits(m, b) && !(b->pool = pool_create(b->members, groups)))
        return -1;
    return 0;
}

void batch_links_changed(struct solver_batch *b)
{
    b->stale = 1;
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
    free(b->order);
    free(b->aside_ends);
    free(b->aside_rest);
    free(b->aside_param);
    free(b->aside_link);
    free(b->px);
    free(b->py);
    free(b->pz);
    free(b->pw);
    free(b->pw_held);
    free(b->run);
    free(b->piece_run);
    free(b->soa_group);
    free(b->pcut);
    free(b->break_count);
    free(b->found);
    free(b);
}
