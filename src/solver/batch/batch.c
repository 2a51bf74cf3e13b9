/* The batched link kernel (solver/batch/batch.h). The projection is distance_pair's
 * (solver/distance.c): d = x_b - x_a, C = |d| - L, r = -(k C) / ((w_a + w_b) |d|) or,
 * under XPBD, dlambda = (-C - at lambda) / (w_a + w_b + at), r = dlambda / |d|; then
 * x_a += w_a (-r d), x_b -= w_b (-r d), each written only when its inverse mass is not 0.
 * Only what the simple kernel decides per link at every projection (broken? both ends
 * pinned? which method?) is decided here once a step instead. */
#include "solver/batch/batch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver/constraint.h"
#include "solver/breaks.h"
#include "solver/points.h"
#include "solver/batch/pool.h"
#include "solver/work.h"

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

int batch_prepare(const struct model *m, struct solver_work *w)
{
    /* solver.global relaxes the links its own way (solver/direct/direct.h) */
    if (m->kernel != KERNEL_BATCHED || m->global)
        return 0;
    struct solver_batch *b = calloc(1, sizeof *b);
    if (!b)
        return -1;
    w->batch = b;
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

/* The chunks the team hands out this step: each colour cut at its parts (the lanes), or into
 * pieces of BATCH_CHUNK links, or the non-empty runs. */
static void make_chunks(const struct model *m, struct solver_batch *b)
{
    b->nchunks = 0;
    if (b->order) {
        for (size_t c = 0; c < b->nbatches; c++) {
            b->group[c] = b->nchunks;
            size_t j = b->start[c];
            for (size_t k = 0; k < b->parts; k++) {
                while (j < b->start[c + 1] && b->ends[j].a < b->pcut[k])
                    j++;
                b->chunk[b->nchunks++] = j;
            }
        }
    } else if (m->order == ORDER_COLORED) {
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

/* Where link i of a run of this kind starting at a has its a-end. */
static int64_t run_end_a(enum batch_run_kind kind, int64_t a, int64_t i)
{
    switch (kind) {
    case RUN_STRIDE:
        return a + i;
    default: /* RUN_PAIRS, RUN_EVEN */
        return a + 2 * i;
    }
}

/* The pattern link j starts, by its offset b - a and the next link's a: 1, pairs; else a + 1
 * (stride, |b - a| >= 4) or a + 2 (even, |b - a| >= 8). The bounds keep the b-ends
 * of four lanes off their a-ends; a colour guarantees them anyway (links of a run share no
 * point). RUN_LISTED when none fits. */
static enum batch_run_kind run_kind(const struct batch_ends *e, size_t j, size_t end)
{
    const int64_t off = (int64_t)e[j].b - e[j].a;
    const int64_t next = j + 1 < end ? (int64_t)e[j + 1].a - e[j].a : 0;
    if (off == 1)
        return RUN_PAIRS;
    if (next == 1 && (off >= 4 || off <= -4))
        return RUN_STRIDE;
    if (next == 2 && (off >= 8 || off <= -8))
        return RUN_EVEN;
    return RUN_LISTED;
}

/* How many links from j on (before end) follow the pattern link j starts, when at least
 * BATCH_RUN_MIN do; else 0. */
static size_t run_at(const struct solver_batch *b, size_t j, size_t end, enum batch_run_kind *kind)
{
    const struct batch_ends *e = b->ends;
    if (e[j].b & BATCH_TETHER)
        return 0;
    *kind = run_kind(e, j, end);
    if (*kind == RUN_LISTED)
        return 0;
    const int64_t off = (int64_t)e[j].b - e[j].a;
    size_t k = j + 1;
    while (k < end && !(e[k].b & BATCH_TETHER) &&
           (int64_t)e[k].a == run_end_a(*kind, e[j].a, (int64_t)(k - j)) &&
           (int64_t)e[k].b - e[k].a == off)
        k++;
    return k - j >= BATCH_RUN_MIN ? k - j : 0;
}

static void add_run(struct solver_batch *b, size_t j, size_t n, enum batch_run_kind kind)
{
    const struct batch_ends e = b->ends[j];
    b->run[b->nrun++] = (struct batch_run){(uint32_t)j, (uint32_t)n, e.a,
                                           (int32_t)((int64_t)(e.b & ~BATCH_TETHER) - e.a), kind};
}

/* Gathered links [from, from + n) to [to, to + n) (to <= from: the ranges may overlap). */
static void move_links(struct solver_batch *b, size_t from, size_t to, size_t n)
{
    memmove(b->ends + to, b->ends + from, n * sizeof *b->ends);
    memmove(b->rest + to, b->rest + from, n * sizeof *b->rest);
    memmove(b->param + to, b->param + from, n * sizeof *b->param);
    memmove(b->link + to, b->link + from, n * sizeof *b->link);
}

/* Gathered link j aside, as the k-th. */
static void put_aside(struct solver_batch *b, size_t j, size_t k)
{
    b->aside_ends[k] = b->ends[j];
    b->aside_rest[k] = b->rest[j];
    b->aside_param[k] = b->param[j];
    b->aside_link[k] = b->link[j];
}

/* The n links put aside, back at j on. */
static void take_back(struct solver_batch *b, size_t j, size_t n)
{
    memcpy(b->ends + j, b->aside_ends, n * sizeof *b->ends);
    memcpy(b->rest + j, b->aside_rest, n * sizeof *b->rest);
    memcpy(b->param + j, b->aside_param, n * sizeof *b->param);
    memcpy(b->link + j, b->aside_link, n * sizeof *b->link);
}

/* Gathered links [begin, end) of one colour (of one piece) as runs: the patterns in whole
 * fours, moved to the front in order, then one listed run of all the rest (the links between
 * patterns and the last few of each), which the kernels also take four at a time instead of
 * projecting each pattern's last few alone. The links of a colour share no point, so their
 * order changes no bit. */
static void find_runs_in(struct solver_batch *b, size_t begin, size_t end)
{
    size_t put = begin, aside = 0; /* put <= j: moves only overwrite links already handled */
    for (size_t j = begin; j < end;) {
        enum batch_run_kind kind = RUN_LISTED;
        const size_t n = run_at(b, j, end, &kind), whole = n / 4 * 4;
        if (!whole) {
            put_aside(b, j++, aside++);
            continue;
        }
        for (size_t k = j + whole; k < j + n; k++)
            put_aside(b, k, aside++);
        move_links(b, j, put, whole);
        add_run(b, put, whole, kind);
        put += whole;
        j += n;
    }
    take_back(b, put, aside);
    if (aside)
        add_run(b, put, aside, RUN_LISTED);
}

/* Gathered links j..j+3 in the order 0, 2, 1, 3. */
static void swap_middle(struct solver_batch *b, size_t j)
{
    const size_t u = j + 1, v = j + 2;
    const struct batch_ends e = b->ends[u];
    b->ends[u] = b->ends[v];
    b->ends[v] = e;
    const double rest = b->rest[u], param = b->param[u];
    b->rest[u] = b->rest[v];
    b->rest[v] = rest;
    b->param[u] = b->param[v];
    b->param[v] = param;
    const uint32_t link = b->link[u];
    b->link[u] = b->link[v];
    b->link[v] = link;
}

/* The four-wide kernels load a pairs or even run's points two links to a vector, so their
 * lanes hold links 0, 2, 1, 3 of each four: the links' own values are put in that order once
 * here, not permuted at every projection. The tail of fewer than four stays in order. */
static void order_lanes_in_runs(struct solver_batch *b)
{
    for (size_t k = 0; k < b->nrun; k++) {
        const struct batch_run *r = &b->run[k];
        if (r->kind == RUN_PAIRS || r->kind == RUN_EVEN)
            for (size_t i = 0; i + 4 <= r->n; i += 4)
                swap_middle(b, r->j + i);
    }
}

/* The gathered links' ends, and the model's inverse masses, where the lanes hold the points
 * (batch_soa_index); after make_chunks, which cuts at the points' own numbers. */
static void lanes_places(const struct model *m, struct solver_batch *b)
{
    for (size_t j = 0; j < b->n; j++) {
        const uint32_t tether = b->ends[j].b & BATCH_TETHER;
        b->ends[j].a = batch_soa_index(b, b->ends[j].a);
        b->ends[j].b = batch_soa_index(b, b->ends[j].b & ~BATCH_TETHER) | tether;
    }
    for (uint32_t i = 0; i < m->npoints; i++)
        b->pw[batch_soa_index(b, i)] = m->inv_mass[i];
}

/* This step's runs, none across a chunk (one colour of one band). */
static void find_runs(struct solver_batch *b)
{
    b->nrun = 0;
    for (size_t k = 0; k < b->nchunks; k++) {
        b->piece_run[k] = b->nrun;
        find_runs_in(b, b->chunk[k], b->chunk[k + 1]);
    }
    b->piece_run[b->nchunks] = b->nrun;
}

void batch_gather(const struct model *m, struct state *s)
{
    struct solver_batch *b = s->work->batch;
    const struct constraint_ctx cx = constraint_ctx_make(m);
    if (!b->stale && b->gathered == m && b->inv_h2 == cx.inv_h2)
        return; /* about 5 instructions a projection saved on a cloth at 20 iterations */
    b->stale = 0;
    b->gathered = m;
    b->inv_h2 = cx.inv_h2;
    int same = 1;
    b->n = 0;
    if (m->order == ORDER_COLORED) {
        const struct solver_work *w = s->work;
        const uint32_t *order = b->order ? b->order : w->link_order;
        for (size_t c = 0; c < w->ncolors; c++) {
            b->start[c] = b->n;
            for (uint32_t k = w->color_start[c]; k < w->color_start[c + 1]; k++)
                same &= gather_link(m, s, b, order[k], cx.inv_h2);
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
    if (b->pool || b->order)
        make_chunks(m, b);
    /* Events that move a link's ends (a cut) may join links of one colour or two runs: the
     * step then goes one link at a time on one thread, still in the same order. */
    b->parallel = b->pool != NULL && same && b->n >= b->min_share * (size_t)b->members;
    b->lanes = b->avx && same && b->order;
    if (b->lanes) {
        lanes_places(m, b);
        find_runs(b);
        order_lanes_in_runs(b);
    }
    /* Nothing but the links touches the positions between iterations: the per-coordinate
     * copy can stay from the first iteration to the last. */
    b->hold = !s->collide && !m->nattachments && !m->nangles && !m->nareas && !m->nshapes;
}

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
    struct solver_batch *b = job->s->work->batch;
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
    struct solver_batch *b = job->s->work->batch;
    const int backward = job->m->order == ORDER_ALTERNATE && job->it % 2 == 1;
    relax_span(b, job->m, job->s, job->it, job->inv_mass, b->chunk[k], b->chunk[k + 1], backward);
}

void batch_relax(const struct model *m, struct state *s, int it, const double *inv_mass)
{
    struct solver_batch *b = s->work->batch;
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
    const struct solver_batch *b = s->work->batch;
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
                            .inv_mass = s->work->batch->pw,
                            .points = 1,
                            .h = h,
                            .keep = keep};
    lanes_job(s->work->batch, &job);
}

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
    const size_t nb = job->s->work->nbreakable;
    const size_t begin = k * nb / job->n, end = (k + 1) * nb / job->n;
    job->count[k] = breaks_check(job->m, job->s, begin, end, job->s->broke + begin);
}

int batch_breaks(const struct model *m, struct state *s)
{
    struct solver_batch *b = s->work->batch;
    if (!b->parallel || !s->work->nbreakable)
        return 0;
    static const size_t one_group = 0;
    struct breaks_job job = {m, s, b->break_count, b->nbreak};
    pool_run(b->pool, b->nbreak, &one_group, 1, breaks_chunk, &job);
    /* The ranges' lists joined in order: none moves forward over one not yet moved, since
     * the links before a range hold at most as many breaks as they are links. */
    s->nbroke = 0;
    for (size_t k = 0; k < b->nbreak; k++) {
        memmove(s->broke + s->nbroke, s->broke + k * s->work->nbreakable / b->nbreak,
                b->break_count[k] * sizeof *s->broke);
        s->nbroke += b->break_count[k];
    }
    return 1;
}

/* Range k of the points: its first diverged point, or -1, in found[k]. */
static void diverged_chunk(void *ctx, size_t k)
{
    const struct state *s = ctx;
    const struct solver_batch *b = s->work->batch;
    const size_t begin = k * s->npoints / b->nbreak, end = (k + 1) * s->npoints / b->nbreak;
    b->found[k] = points_find_diverged(s, begin, end);
}

int batch_find_diverged(const struct state *s)
{
    struct solver_batch *b = s->work->batch;
    if (!b->parallel)
        return 0;
    static const size_t one_group = 0;
    pool_run(b->pool, b->nbreak, &one_group, 1, diverged_chunk, (void *)s);
    b->diverged = -1;
    for (size_t k = 0; k < b->nbreak && b->diverged < 0; k++)
        b->diverged = b->found[k]; /* the first range with one has the first */
    return 1;
}
