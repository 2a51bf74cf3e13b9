/* Gathering the live links into the batched kernel's arrays (solver/batch/batch.h): once a
 * step, again only after events or breaks change them (batch_links_changed). Then each
 * colour's links are sorted into runs whose ends follow a pattern the four-wide lanes load
 * as whole vectors, and the team's chunks are cut. */
#include "solver/batch/batch.h"

#include <string.h>

#include "solver/cache.h"
#include "solver/constraint.h"
#include "solver/momentum.h"
#include "solver/points.h"
#include "solver/state.h"
#include "solver/work.h"

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
    struct solver_batch *b = s->cache->batch;
    const struct constraint_ctx cx = constraint_ctx_make(m);
    if (!b->stale && b->gathered == m && b->inv_h2 == cx.inv_h2)
        return; /* about 5 instructions a projection saved on a cloth at 20 iterations */
    b->stale = 0;
    b->gathered = m;
    b->inv_h2 = cx.inv_h2;
    int same = 1;
    b->n = 0;
    if (m->order == ORDER_COLORED) {
        const struct solver_work *w = s->cache->work;
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
    /* Nothing but the links touches the positions between iterations (no other family, no
     * collision, no free body's angular momentum to restore): the per-coordinate copy can
     * stay from the first iteration to the last. */
    b->hold = !s->cache->collide && !m->nattachments && !m->nangles && !m->nareas && !m->nshapes &&
              !momentum_active(s->cache->momentum);
}
