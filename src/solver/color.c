/* The `colored` order: links grouped so that no two links of a group share a point, groups
 * visited in a fixed order. Within a group the projections touch disjoint points, so their
 * order cannot change a single bit; the result depends only on which group each link is in.
 * Greedy colouring (each link takes the smallest colour its neighbours do not hold) visits
 * the links sorted by their endpoints' initial positions, not by index: renumbering the
 * points, reordering links[] or swapping a link's ends gives the same groups and the same
 * bits. A chain laid out along any monotone path comes out red/black. */
#include "solver/color.h"

#include <stdlib.h>
#include <string.h>

#include "solver/work.h"

struct link_key {
    vec3 lo, hi; /* the endpoints' initial positions, lexicographically ordered */
    double rest;
    uint32_t link;
};

static int cmp_vec(vec3 a, vec3 b)
{
    const double da[3] = {a.x, a.y, a.z}, db[3] = {b.x, b.y, b.z};
    for (int d = 0; d < 3; d++)
        if (da[d] != db[d])
            return da[d] < db[d] ? -1 : 1;
    return 0;
}

/* Links between points that start at the same positions fall back to listing order. */
static int cmp_link_key(const void *pa, const void *pb)
{
    const struct link_key *a = pa, *b = pb;
    int c = cmp_vec(a->lo, b->lo);
    if (!c)
        c = cmp_vec(a->hi, b->hi);
    if (!c && a->rest != b->rest)
        c = a->rest < b->rest ? -1 : 1;
    if (!c)
        c = a->link < b->link ? -1 : a->link > b->link;
    return c;
}

static struct link_key *sorted_keys(const struct model *m)
{
    struct link_key *keys = malloc((m->nlinks ? m->nlinks : 1) * sizeof *keys);
    if (!keys)
        return NULL;
    for (size_t i = 0; i < m->nlinks; i++) {
        vec3 lo = m->x0[m->links[i].a], hi = m->x0[m->links[i].b];
        if (cmp_vec(hi, lo) < 0) {
            const vec3 t = lo;
            lo = hi;
            hi = t;
        }
        keys[i] =
            (struct link_key){.lo = lo, .hi = hi, .rest = m->links[i].rest, .link = (uint32_t)i};
    }
    qsort(keys, m->nlinks, sizeof *keys, cmp_link_key);
    return keys;
}

/* The links at each point (CSR); *maxdeg gets the largest count. */
static int point_links(const struct model *m, uint32_t **start, uint32_t **adj, size_t *maxdeg)
{
    *start = calloc(m->npoints + 1, sizeof **start);
    *adj = malloc((m->nlinks ? 2 * m->nlinks : 1) * sizeof **adj);
    if (!*start || !*adj)
        return -1;
    for (size_t i = 0; i < m->nlinks; i++) {
        (*start)[m->links[i].a + 1]++;
        (*start)[m->links[i].b + 1]++;
    }
    *maxdeg = 0;
    for (size_t p = 0; p < m->npoints; p++) {
        if ((*start)[p + 1] > *maxdeg)
            *maxdeg = (*start)[p + 1];
        (*start)[p + 1] += (*start)[p];
    }
    uint32_t *fill = *adj;
    uint32_t *pos = malloc((m->npoints ? m->npoints : 1) * sizeof *pos);
    if (!pos)
        return -1;
    memcpy(pos, *start, m->npoints * sizeof *pos);
    for (size_t i = 0; i < m->nlinks; i++) {
        fill[pos[m->links[i].a]++] = (uint32_t)i;
        fill[pos[m->links[i].b]++] = (uint32_t)i;
    }
    free(pos);
    return 0;
}

/* Greedy colouring in key order; returns the number of colours. mark[c] == l while colour c
 * is taken by a neighbour of link l. */
static size_t greedy(const struct model *m, const struct link_key *keys, const uint32_t *start,
                     const uint32_t *adj, uint32_t *colour, uint32_t *mark)
{
    size_t ncolors = 0;
    for (size_t k = 0; k < m->nlinks; k++) {
        const uint32_t l = keys[k].link;
        const uint32_t ends[2] = {m->links[l].a, m->links[l].b};
        for (int e = 0; e < 2; e++)
            for (uint32_t j = start[ends[e]]; j < start[ends[e] + 1]; j++)
                if (colour[adj[j]] != UINT32_MAX)
                    mark[colour[adj[j]]] = l;
        uint32_t c = 0;
        while (mark[c] == l)
            c++;
        colour[l] = c;
        if (c + 1 > ncolors)
            ncolors = c + 1;
    }
    return ncolors;
}

int color_prepare(const struct model *m, struct solver_work *w)
{
    if (m->order != ORDER_COLORED)
        return 0;
    const size_t n = m->nlinks;
    uint32_t *start = NULL, *adj = NULL, *colour = NULL, *mark = NULL;
    size_t maxdeg = 0;
    int rc = -1;
    struct link_key *keys = sorted_keys(m);
    if (!keys || point_links(m, &start, &adj, &maxdeg))
        goto done;
    /* A link has at most 2 (maxdeg - 1) neighbours, so colours stay below 2 maxdeg. */
    colour = malloc((n ? n : 1) * sizeof *colour);
    mark = malloc((maxdeg ? 2 * maxdeg : 1) * sizeof *mark);
    w->link_order = malloc((n ? n : 1) * sizeof *w->link_order);
    if (!colour || !mark || !w->link_order)
        goto done;
    memset(colour, 0xff, n * sizeof *colour);
    memset(mark, 0xff, (maxdeg ? 2 * maxdeg : 1) * sizeof *mark);
    w->ncolors = greedy(m, keys, start, adj, colour, mark);
    w->color_start = calloc(w->ncolors + 1, sizeof *w->color_start);
    if (!w->color_start)
        goto done;
    /* Counting sort by colour; within a colour, by index (any order gives the same bits). */
    for (size_t i = 0; i < n; i++)
        w->color_start[colour[i] + 1]++;
    for (size_t c = 0; c < w->ncolors; c++)
        w->color_start[c + 1] += w->color_start[c];
    for (size_t c = 0; c < w->ncolors; c++)
        mark[c] = w->color_start[c];
    for (size_t i = 0; i < n; i++)
        w->link_order[mark[colour[i]]++] = (uint32_t)i;
    rc = 0;
done:
    free(keys);
    free(start);
    free(adj);
    free(colour);
    free(mark);
    return rc;
}
