/* The hard max-length pass from pinned anchors (the seed's tether for heavy loads; Kim,
 * Chentanez and Mueller, "Long range attachments", 2012). Multi-source Dijkstra over the live
 * structural links gives each point its nearest pinned point and the rest length of the path
 * to it; no configuration of inextensible links can put the point farther away, so after
 * the iterations any point beyond that reach is moved straight back onto it. */
#include "solver/tether.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver/cache.h"
#include "solver/state.h"
#include "solver/work.h"

int tether_prepare(const struct model *m, struct solver_work *w)
{
    if (!m->max_length_pass)
        return 0;
    const size_t np = m->npoints ? m->npoints : 1;
    w->adj_start = calloc(m->npoints + 1, sizeof *w->adj_start);
    w->adj = malloc((m->nlinks ? 2 * m->nlinks : 1) * sizeof *w->adj);
    w->anchor = malloc(np * sizeof *w->anchor);
    w->reach = malloc(np * sizeof *w->reach);
    w->heap = malloc((2 * m->nlinks + np) * sizeof *w->heap);
    if (!w->adj_start || !w->adj || !w->anchor || !w->reach || !w->heap)
        return -1;
    tether_relink(m, w);
    return 0;
}

void tether_relink(const struct model *m, struct solver_work *w)
{
    if (!w->adj_start)
        return;
    /* The live structural links of each point in CSR form, rebuilt in place: the arrays have
     * room for every link, and anchor (recomputed next pass anyway) serves as the fill
     * cursor. Bend and shear links are shortcuts of a cloth or rope, not paths it can be
     * stretched along: only structural links bound the reach. */
    memset(w->adj_start, 0, (m->npoints + 1) * sizeof *w->adj_start);
    for (size_t i = 0; i < m->nlinks; i++)
        if (m->links[i].role == ROLE_STRUCTURAL) {
            w->adj_start[m->links[i].a + 1]++;
            w->adj_start[m->links[i].b + 1]++;
        }
    for (size_t p = 0; p < m->npoints; p++)
        w->adj_start[p + 1] += w->adj_start[p];
    memcpy(w->anchor, w->adj_start, m->npoints * sizeof *w->anchor);
    for (size_t i = 0; i < m->nlinks; i++)
        if (m->links[i].role == ROLE_STRUCTURAL) {
            w->adj[w->anchor[m->links[i].a]++] = (uint32_t)i;
            w->adj[w->anchor[m->links[i].b]++] = (uint32_t)i;
        }
    w->tether_stale = 1;
}

void tether_paths_changed(struct solver_work *w)
{
    w->tether_stale = 1;
}

/* Binary min-heap on (d, p): ties by point index, so the anchors found are deterministic. */
static int heap_less(const struct tether_heap_entry *a, const struct tether_heap_entry *b)
{
    return a->d < b->d || (a->d == b->d && a->p < b->p);
}

static void heap_push(struct tether_heap_entry *h, size_t *n, struct tether_heap_entry e)
{
    size_t i = (*n)++;
    while (i > 0 && heap_less(&e, &h[(i - 1) / 2])) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = e;
}

static struct tether_heap_entry heap_pop(struct tether_heap_entry *h, size_t *n)
{
    const struct tether_heap_entry top = h[0], last = h[--*n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && heap_less(&h[c + 1], &h[c]))
            c++;
        if (!heap_less(&h[c], &last))
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = last;
    return top;
}

/* Each push follows a strict decrease of reach[q] along a live link end, so the queue never
 * holds more than npoints + 2 nlinks entries: the capacity allocated. */
static void tether_paths(const struct model *m, const struct state *s, struct solver_work *w)
{
    size_t n = 0;
    for (size_t p = 0; p < m->npoints; p++) {
        w->anchor[p] = UINT32_MAX;
        w->reach[p] = INFINITY;
        if (m->inv_mass[p] == 0.0) {
            w->anchor[p] = (uint32_t)p;
            w->reach[p] = 0.0;
            heap_push(w->heap, &n, (struct tether_heap_entry){.d = 0.0, .p = (uint32_t)p});
        }
    }
    while (n > 0) {
        const struct tether_heap_entry e = heap_pop(w->heap, &n);
        if (e.d > w->reach[e.p])
            continue;
        for (uint32_t j = w->adj_start[e.p]; j < w->adj_start[e.p + 1]; j++) {
            const struct link *l = &m->links[w->adj[j]];
            if (!s->alive[w->adj[j]])
                continue;
            const uint32_t q = l->a == e.p ? l->b : l->a;
            const double d = e.d + l->rest;
            if (d < w->reach[q]) {
                w->reach[q] = d;
                w->anchor[q] = w->anchor[e.p];
                heap_push(w->heap, &n, (struct tether_heap_entry){.d = d, .p = q});
            }
        }
    }
    w->tether_stale = 0;
}

void tether_pass(const struct model *m, struct state *s)
{
    struct solver_work *w = s->cache->work;
    if (w->tether_stale)
        tether_paths(m, s, w);
    for (size_t p = 0; p < m->npoints; p++) {
        if (m->inv_mass[p] == 0.0 || w->anchor[p] == UINT32_MAX)
            continue;
        const vec3 at = s->x[w->anchor[p]];
        const vec3 d = v3_sub(s->x[p], at);
        const double len = v3_len(d);
        if (len > w->reach[p])
            s->x[p] = v3_add(at, v3_scale(d, w->reach[p] / len));
    }
}
