/* Contradictory set-ups (scenario/setup_warnings.h): the rigid links as a graph, then an
 * area or volume at a pressure its rigid spokes forbid (the polygon inscribed in the spokes'
 * circle, or the mesh in their sphere, cannot reach it; with rigid edges too nothing can
 * change), a rigid link longer than the shortest way round its loop (Dijkstra bounded by its
 * rest length), and four points all joined by rigid links whose rest lengths no shape has
 * (the Cayley-Menger determinant, 288 V^2: not 0 in 2D, negative in 3D). */
#include "scenario/setup_warnings.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/sjson.h"

#define PI 3.14159265358979323846

/* The rigid links at each point (CSR), and the scratch of the searches. */
struct graph {
    const struct model *m;
    uint32_t *start;     /* [npoints + 1] */
    uint32_t *link;      /* rigid links, each listed at both ends */
    unsigned char *mark; /* [npoints] */
    double *dist;        /* [npoints] Dijkstra's */
    uint32_t *seen;      /* [npoints] the search that set dist */
    struct entry {
        double d;
        uint32_t p;
    } * heap;
    size_t nheap;
};

/* A link that holds its length exactly: a distance link (not a tether, not a cut's far half
 * waiting for its cut) of compliance 0 under xpbd, stiffness 1 otherwise. */
static int rigid(const struct model *m, size_t i)
{
    const struct link *l = &m->links[i];
    if (l->kind != LINK_DISTANCE ||
        (i >= m->first_reserved_link && i < m->first_reserved_link + m->nreserved_links))
        return 0;
    return m->method == METHOD_XPBD ? l->compliance == 0.0 : l->stiffness == 1.0;
}

static uint32_t other_end(const struct link *l, uint32_t p)
{
    return l->a == p ? l->b : l->a;
}

static void graph_free(struct graph *g)
{
    free(g->start);
    free(g->link);
    free(g->mark);
    free(g->dist);
    free(g->seen);
    free(g->heap);
}

static int graph_build(const struct model *m, struct graph *g)
{
    const size_t n = m->npoints ? m->npoints : 1;
    size_t nrigid = 0;
    for (size_t i = 0; i < m->nlinks; i++)
        nrigid += rigid(m, i);
    *g = (struct graph){.m = m};
    g->start = calloc(n + 1, sizeof *g->start);
    g->link = malloc((2 * nrigid + 1) * sizeof *g->link);
    g->mark = calloc(n, 1);
    g->dist = malloc(n * sizeof *g->dist);
    g->seen = malloc(n * sizeof *g->seen);
    g->heap = malloc((2 * nrigid + 1) * sizeof *g->heap);
    if (!g->start || !g->link || !g->mark || !g->dist || !g->seen || !g->heap)
        return -1;
    for (size_t i = 0; i < m->nlinks; i++)
        if (rigid(m, i)) {
            g->start[m->links[i].a + 1]++;
            g->start[m->links[i].b + 1]++;
        }
    for (size_t p = 0; p < m->npoints; p++) {
        g->start[p + 1] += g->start[p];
        g->seen[p] = UINT32_MAX;
    }
    uint32_t *fill = g->seen; /* borrowed as cursors, then reset */
    for (size_t p = 0; p < m->npoints; p++)
        fill[p] = g->start[p];
    for (size_t i = 0; i < m->nlinks; i++)
        if (rigid(m, i)) {
            g->link[fill[m->links[i].a]++] = (uint32_t)i;
            g->link[fill[m->links[i].b]++] = (uint32_t)i;
        }
    for (size_t p = 0; p < m->npoints; p++)
        g->seen[p] = UINT32_MAX;
    return 0;
}

/* The rigid link between a and b, or -1. */
static long rigid_link(const struct graph *g, uint32_t a, uint32_t b)
{
    for (uint32_t k = g->start[a]; k < g->start[a + 1]; k++)
        if (other_end(&g->m->links[g->link[k]], a) == b)
            return (long)g->link[k];
    return -1;
}

/* Point p as the loader names it in messages (cut to SJSON_SHOW_MAX bytes). */
static const char *label(const struct model *m, uint32_t p, char out[SJSON_SHOW_SIZE])
{
    char buf[256];
    return sjson_show(out, model_point_label(m, p, buf, sizeof buf));
}

/* "bodies NAME" for the body holding point p, else "areas[j]". */
static void owner(const struct model *m, uint32_t p, size_t j, char *out, size_t size)
{
    for (size_t b = 0; b < m->nbodies; b++) {
        const struct body *bd = &m->bodies[b];
        if (p >= bd->first_point && p - bd->first_point < bd->npoints && bd->name) {
            char shown[SJSON_SHOW_SIZE];
            snprintf(out, size, "body \"%s\"", sjson_show(shown, bd->name));
            return;
        }
    }
    snprintf(out, size, "areas[%zu]", j);
}

/* ---- pressure against rigid spokes ---- */

/* Marks area j's points in g->mark (1), lists them into pts (room for npoints), and returns
 * how many. */
static size_t area_points(const struct model *m, struct graph *g, size_t j, uint32_t *pts)
{
    const struct area *ar = &m->areas[j];
    size_t n = 0;
    for (uint32_t k = ar->first; k < ar->first + ar->count; k++)
        for (int v = 0; v < (ar->is_volume ? 3 : 1); v++) {
            const uint32_t p = ar->is_volume ? m->faces[k].v[v] : m->area_index[k];
            if (!g->mark[p]) {
                g->mark[p] = 1;
                pts[n++] = p;
            }
        }
    return n;
}

/* Whether the area's edges (the polygon's sides, the mesh's face edges) are all rigid. */
static int edges_rigid(const struct model *m, const struct graph *g, size_t j)
{
    const struct area *ar = &m->areas[j];
    for (uint32_t k = 0; k < ar->count; k++) {
        if (!ar->is_volume) {
            const uint32_t a = m->area_index[ar->first + k],
                           b = m->area_index[ar->first + (k + 1) % ar->count];
            if (rigid_link(g, a, b) < 0)
                return 0;
            continue;
        }
        const struct face *f = &m->faces[ar->first + k];
        for (int v = 0; v < 3; v++)
            if (rigid_link(g, f->v[v], f->v[(v + 1) % 3]) < 0)
                return 0;
    }
    return 1;
}

/* A point outside the area joined to each of its n points by a rigid spoke, or UINT32_MAX;
 * *reach gets the longest spoke's rest length. */
static uint32_t spoke_centre(const struct model *m, const struct graph *g, const uint32_t *pts,
                             size_t n, double *reach)
{
    for (uint32_t k = g->start[pts[0]]; k < g->start[pts[0] + 1]; k++) {
        const uint32_t c = other_end(&m->links[g->link[k]], pts[0]);
        if (g->mark[c])
            continue;
        double longest = 0.0;
        size_t i = 0;
        for (; i < n; i++) {
            const long l = rigid_link(g, pts[i], c);
            if (l < 0)
                break;
            longest = fmax(longest, m->links[l].rest);
        }
        if (i == n) {
            *reach = longest;
            return c;
        }
    }
    return UINT32_MAX;
}

/* The largest area of an n-gon, or volume of a mesh, whose points lie within r of a centre:
 * the regular n-gon inscribed in the circle, the ball. */
static double largest(int volume, size_t n, double r)
{
    return volume ? 4.0 / 3.0 * PI * r * r * r
                  : 0.5 * (double)n * r * r * sin(2.0 * PI / (double)n);
}

/* Whether area j's pressure is out of its spokes' reach; fills what it says about it. */
static int pressure_blocked(const struct model *m, struct graph *g, size_t j, uint32_t *pts,
                            char *msg, size_t size)
{
    const struct area *ar = &m->areas[j];
    if (fabs(ar->pressure - 1.0) <= 1e-12)
        return 0;
    const size_t n = area_points(m, g, j, pts);
    double reach = 0.0;
    const uint32_t c = n > 0 ? spoke_centre(m, g, pts, n, &reach) : UINT32_MAX;
    const int edges = c != UINT32_MAX && edges_rigid(m, g, j);
    const double target = ar->pressure * fabs(ar->rest);
    const int blocked =
        c != UINT32_MAX &&
        (edges || (ar->pressure > 1.0 && target > largest(ar->is_volume, n, reach) * (1.0 + 1e-9)));
    for (size_t i = 0; i < n; i++)
        g->mark[pts[i]] = 0;
    if (!blocked)
        return 0;
    char who[SJSON_SHOW_SIZE + 16], centre[SJSON_SHOW_SIZE];
    const char *what = ar->is_volume ? "volume" : "area";
    owner(m, pts[0], j, who, sizeof who);
    snprintf(msg, size,
             "%s: its %s is held at %g times its initial one (pressure), but rigid spokes hold "
             "its %zu points at fixed distances from point %s%s, so no shape they allow has "
             "that %s: the body pushes against them for as long as it runs and can spin or "
             "creep (make the spokes soft, with a stiffness below 1 or a compliance, or give "
             "pressure 1)",
             who, what, ar->pressure, n, label(m, c, centre),
             edges ? " and rigid edges join them" : "", what);
    return 1;
}

static int check_pressure(const struct model *m, struct graph *g, struct warnings *w)
{
    uint32_t *pts = malloc((m->npoints ? m->npoints : 1) * sizeof *pts);
    if (!pts)
        return -1;
    char msg[1024], first[1024] = "";
    size_t found = 0;
    for (size_t j = 0; j < m->nareas; j++)
        if (pressure_blocked(m, g, j, pts, msg, sizeof msg) && found++ == 0)
            memcpy(first, msg, sizeof first);
    free(pts);
    if (found == 0)
        return 0;
    return found > 1 ? warnings_add(w, "pressure-rigid-spokes", "%s (and %zu more such bodies)",
                                    first, found - 1)
                     : warnings_add(w, "pressure-rigid-spokes", "%s", first);
}

/* ---- rigid loops ---- */

/* Whether some rigid link's rest length differs from its points' initial distance: if
 * none does, the initial positions are a shape that meets every one. */
static int any_mismatch(const struct model *m)
{
    for (size_t i = 0; i < m->nlinks; i++)
        if (rigid(m, i)) {
            const double d = v3_dist(m->x0[m->links[i].a], m->x0[m->links[i].b]),
                         r = m->links[i].rest;
            if (fabs(r - d) > 1e-9 * fmax(r, d))
                return 1;
        }
    return 0;
}

static void heap_push(struct graph *g, double d, uint32_t p)
{
    size_t k = g->nheap++;
    while (k > 0 && g->heap[(k - 1) / 2].d > d) {
        g->heap[k] = g->heap[(k - 1) / 2];
        k = (k - 1) / 2;
    }
    g->heap[k] = (struct entry){d, p};
}

static struct entry heap_pop(struct graph *g)
{
    const struct entry top = g->heap[0], last = g->heap[--g->nheap];
    size_t k = 0;
    for (;;) {
        size_t c = 2 * k + 1;
        if (c >= g->nheap)
            break;
        if (c + 1 < g->nheap && g->heap[c + 1].d < g->heap[c].d)
            c++;
        if (g->heap[c].d >= last.d)
            break;
        g->heap[k] = g->heap[c];
        k = c;
    }
    if (g->nheap > 0)
        g->heap[k] = last;
    return top;
}

/* The shortest way from link e's first end to its second through the other rigid links, if
 * shorter than `bound`; else INFINITY. Search number `id` (for g->seen). */
static double shortest_other_way(struct graph *g, uint32_t e, double bound, uint32_t id)
{
    const struct model *m = g->m;
    const uint32_t a = m->links[e].a, b = m->links[e].b;
    g->nheap = 0;
    g->dist[a] = 0.0;
    g->seen[a] = id;
    heap_push(g, 0.0, a);
    while (g->nheap > 0) {
        const struct entry t = heap_pop(g);
        if (t.d >= bound)
            return INFINITY;
        if (t.p == b)
            return t.d;
        if (t.d > g->dist[t.p])
            continue; /* a stale entry */
        for (uint32_t k = g->start[t.p]; k < g->start[t.p + 1]; k++) {
            const uint32_t l = g->link[k];
            if (l == e)
                continue;
            const uint32_t q = other_end(&m->links[l], t.p);
            const double d = t.d + m->links[l].rest;
            if (d < bound && (g->seen[q] != id || d < g->dist[q])) {
                g->seen[q] = id;
                g->dist[q] = d;
                heap_push(g, d, q);
            }
        }
    }
    return INFINITY;
}

/* A rigid link longer than the shortest way round its loop. */
static int check_loop_lengths(const struct model *m, struct graph *g, struct warnings *w)
{
    size_t found = 0;
    uint32_t id = 0;
    char msg[1024] = "", sa[SJSON_SHOW_SIZE], sb[SJSON_SHOW_SIZE];
    for (size_t i = 0; i < m->nlinks; i++) {
        if (!rigid(m, i))
            continue;
        const double rest = m->links[i].rest;
        const double way = shortest_other_way(g, (uint32_t)i, rest * (1.0 - 1e-9), id++);
        if (isfinite(way) && found++ == 0)
            snprintf(msg, sizeof msg,
                     "the rigid link from point %s to point %s (rest %g m) is longer than the "
                     "shortest way round its loop through other rigid links (%g m): no shape "
                     "meets those rest lengths, and the links fight for as long as it runs, which "
                     "can spin or creep the body (give "
                     "one a compliance or a stiffness below 1, or rest lengths a shape can have)",
                     label(m, m->links[i].a, sa), label(m, m->links[i].b, sb), rest, way);
    }
    if (found == 0)
        return 0;
    return found > 1 ? warnings_add(w, "rigid-loop-lengths", "%s (and %zu more such links)", msg,
                                    found - 1)
                     : warnings_add(w, "rigid-loop-lengths", "%s", msg);
}

/* The Cayley-Menger determinant of four points from their six squared distances d2[i][j]:
 * 288 V^2 of the tetrahedron they would span. d2 is not const: C11 does not convert a
 * double[4][4] to const double (*)[4]. */
static double cayley_menger(double d2[4][4])
{
    double a[5][5];
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++)
            a[i][j] = i == j ? 0.0 : i == 0 || j == 0 ? 1.0 : d2[i - 1][j - 1];
    double det = 1.0;
    for (int c = 0; c < 5; c++) {
        int p = c;
        for (int r = c + 1; r < 5; r++)
            if (fabs(a[r][c]) > fabs(a[p][c]))
                p = r;
        if (a[p][c] == 0.0)
            return 0.0;
        if (p != c) {
            for (int k = 0; k < 5; k++) {
                const double t = a[c][k];
                a[c][k] = a[p][k];
                a[p][k] = t;
            }
            det = -det;
        }
        det *= a[c][c];
        for (int r = c + 1; r < 5; r++) {
            const double f = a[r][c] / a[c][c];
            for (int k = c; k < 5; k++)
                a[r][k] -= f * a[c][k];
        }
    }
    return det;
}

/* Whether the rigid links of the four points q (all six exist) have rest lengths no shape
 * of m's dimension has. Four points whose links all keep their initial lengths are a shape. */
static int frame_impossible(const struct model *m, const struct graph *g, const uint32_t q[4])
{
    double d2[4][4] = {{0}}, longest = 0.0;
    int moved = 0;
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++) {
            const double r = m->links[rigid_link(g, q[i], q[j])].rest,
                         d = v3_dist(m->x0[q[i]], m->x0[q[j]]);
            moved |= fabs(r - d) > 1e-9 * fmax(r, d);
            d2[i][j] = d2[j][i] = r * r;
            longest = fmax(longest, r);
        }
    if (!moved)
        return 0;
    const double cm = cayley_menger(d2), tol = 1e-6 * pow(longest, 6);
    return m->dims == 2 ? fabs(cm) > tol : cm < -tol;
}

/* Four points all joined by rigid links (a < b < c < d, found from the link a-b). */
static int check_frames(const struct model *m, const struct graph *g, struct warnings *w)
{
    size_t found = 0;
    char msg[1024] = "", s[4][SJSON_SHOW_SIZE];
    for (size_t i = 0; i < m->nlinks; i++) {
        if (!rigid(m, i))
            continue;
        const uint32_t a = m->links[i].a < m->links[i].b ? m->links[i].a : m->links[i].b,
                       b = m->links[i].a ^ m->links[i].b ^ a;
        for (uint32_t k = g->start[a]; k < g->start[a + 1]; k++) {
            const uint32_t c = other_end(&m->links[g->link[k]], a);
            if (c <= b || rigid_link(g, b, c) < 0)
                continue;
            for (uint32_t l = g->start[a]; l < g->start[a + 1]; l++) {
                const uint32_t d = other_end(&m->links[g->link[l]], a);
                const uint32_t q[4] = {a, b, c, d};
                if (d <= c || rigid_link(g, b, d) < 0 || rigid_link(g, c, d) < 0 ||
                    !frame_impossible(m, g, q) || found++ > 0)
                    continue;
                snprintf(msg, sizeof msg,
                         "points %s, %s, %s and %s are all joined by rigid links whose six rest "
                         "lengths no %s shape has: the links fight for as long as it runs, which "
                         "can spin or creep the body (give "
                         "one a compliance or a stiffness below 1, or rest lengths a shape can "
                         "have)",
                         label(m, a, s[0]), label(m, b, s[1]), label(m, c, s[2]), label(m, d, s[3]),
                         m->dims == 2 ? "flat" : "3D");
            }
        }
    }
    if (found == 0)
        return 0;
    return found > 1 ? warnings_add(w, "rigid-loop-lengths", "%s (and %zu more such sets)", msg,
                                    found - 1)
                     : warnings_add(w, "rigid-loop-lengths", "%s", msg);
}

int setup_warnings(const struct model *m, struct warnings *w)
{
    struct graph g;
    int rc = graph_build(m, &g);
    if (rc == 0)
        rc = check_pressure(m, &g, w);
    if (rc == 0 && any_mismatch(m))
        rc = check_loop_lengths(m, &g, w) || check_frames(m, &g, w) ? -1 : 0;
    graph_free(&g);
    return rc;
}
