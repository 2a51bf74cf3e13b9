/* Self-collision through a dense spatial hash (Teschner et al., "Optimized Spatial Hashing
 * for Collision Detection of Deformable Objects", 2003): items are counted into 2n buckets by
 * their cell, prefix-summed and filled, so building is O(n) without allocation. Segment
 * pairs use the closest points of two segments (Ericson, "Real-Time Collision Detection",
 * 5.1.9) and spread the correction over the four ends by their barycentric weights. With the
 * body's friction, each push is followed by Coulomb friction on the pair's relative
 * tangential displacement since the substep's start, bounded by the push's depth (Macklin et
 * al. 2014, eq. 24, per pass: pairs are found anew each pass, so unlike an obstacle contact a
 * pair does not sum its pushes over the substep). */
#include "solver/collide/selfcollide.h"

#include <math.h>
#include <stdlib.h>

#include "core/clamp.h"
#include "solver/collide/friction.h"

/* A segment or a point of a self-colliding body. */
struct item {
    uint32_t index; /* link (segments) or point */
    uint32_t body;
};

struct selfcollide {
    struct item *items;
    size_t nitems;
    size_t nbuckets;   /* 2 nitems */
    uint32_t *start;   /* [nbuckets + 1] first entry of each bucket */
    uint32_t *entries; /* [nitems] item numbers grouped by bucket */
    uint32_t *bucket;  /* [nitems] each item's bucket */
    long *seen;        /* [nitems] the last item that visited it in this sweep */
    double cell;       /* m */
};

int selfcollide_by_segments(const struct body *b)
{
    return b->type == BODY_ROPE || b->type == BODY_HAIR;
}

static size_t count_items(const struct model *m, struct item *out)
{
    size_t n = 0;
    for (uint32_t b = 0; b < m->nbodies; b++) {
        const struct body *bd = &m->bodies[b];
        if (bd->self_radius <= 0.0)
            continue;
        if (selfcollide_by_segments(bd)) {
            for (uint32_t k = 0; k < bd->nlinks; k++)
                if (m->links[bd->first_link + k].role == ROLE_STRUCTURAL) {
                    if (out)
                        out[n] = (struct item){bd->first_link + k, b};
                    n++;
                }
        } else {
            for (uint32_t k = 0; k < bd->npoints; k++) {
                if (out)
                    out[n] = (struct item){bd->first_point + k, b};
                n++;
            }
        }
    }
    return n;
}

int selfcollide_create(const struct model *m, struct selfcollide **out)
{
    *out = NULL;
    const size_t n = count_items(m, NULL);
    if (n == 0)
        return 0;
    struct selfcollide *sc = calloc(1, sizeof *sc);
    if (!sc)
        return -1;
    sc->nitems = n;
    sc->nbuckets = 2 * n;
    sc->items = calloc(n, sizeof *sc->items);
    sc->start = calloc(sc->nbuckets + 1, sizeof *sc->start);
    sc->entries = calloc(n, sizeof *sc->entries);
    sc->bucket = calloc(n, sizeof *sc->bucket);
    sc->seen = calloc(n, sizeof *sc->seen);
    if (!sc->items || !sc->start || !sc->entries || !sc->bucket || !sc->seen) {
        selfcollide_destroy(sc);
        return -1;
    }
    count_items(m, sc->items);
    *out = sc;
    return 0;
}

void selfcollide_destroy(struct selfcollide *sc)
{
    if (!sc)
        return;
    free(sc->items);
    free(sc->start);
    free(sc->entries);
    free(sc->bucket);
    free(sc->seen);
    free(sc);
}

/* Where an item sits: a segment's midpoint or the point. */
static vec3 item_pos(const struct model *m, const struct state *s, const struct item *it)
{
    if (!selfcollide_by_segments(&m->bodies[it->body]))
        return s->x[it->index];
    const struct link *l = &m->links[it->index];
    return v3_scale(v3_add(s->x[l->a], s->x[l->b]), 0.5);
}

/* Cell coordinate along one axis; non-finite positions (a diverging run) share cell 0. */
static long long cell_of(double x, double cell)
{
    const double c = floor(x / cell);
    return isfinite(c) && fabs(c) < 1e15 ? (long long)c : 0;
}

static size_t hash_cell(long long i, long long j, long long k, size_t nbuckets)
{
    const unsigned long long h = ((unsigned long long)i * 92837111ULL) ^
                                 ((unsigned long long)j * 689287499ULL) ^
                                 ((unsigned long long)k * 283923481ULL);
    return (size_t)(h % nbuckets);
}

static size_t hash_pos(vec3 p, double cell, size_t nbuckets)
{
    return hash_cell(cell_of(p.x, cell), cell_of(p.y, cell), cell_of(p.z, cell), nbuckets);
}

/* The cell must hold any two items that can come within 2 radius: segments' midpoints are
 * then at most (longest segment + 2 radius) apart. A quarter more covers the motion of the
 * iterations since the hash was built. */
static double cell_size(const struct model *m, const struct state *s, struct selfcollide *sc)
{
    double c = 0.0;
    for (size_t k = 0; k < sc->nitems; k++) {
        const struct item *it = &sc->items[k];
        const double r2 = 2.0 * m->bodies[it->body].self_radius;
        double len = 0.0;
        if (selfcollide_by_segments(&m->bodies[it->body])) {
            const struct link *l = &m->links[it->index];
            len = v3_dist(s->x[l->a], s->x[l->b]);
        }
        if (isfinite(len))
            c = fmax(c, len + r2);
    }
    return 1.25 * c;
}

void selfcollide_build(const struct model *m, const struct state *s, struct selfcollide *sc)
{
    sc->cell = cell_size(m, s, sc);
    for (size_t b = 0; b <= sc->nbuckets; b++)
        sc->start[b] = 0;
    for (size_t k = 0; k < sc->nitems; k++) {
        sc->bucket[k] = (uint32_t)hash_pos(item_pos(m, s, &sc->items[k]), sc->cell, sc->nbuckets);
        sc->start[sc->bucket[k]]++;
    }
    /* Inclusive prefix sums: start[b] is the end of bucket b (start[nbuckets] = n). */
    for (size_t b = 1; b <= sc->nbuckets; b++)
        sc->start[b] += sc->start[b - 1];
    /* Counting down moves each start[b] to its bucket's beginning; taking the items last to
     * first leaves every bucket in increasing order. */
    for (size_t k = sc->nitems; k-- > 0;)
        sc->entries[--sc->start[sc->bucket[k]]] = (uint32_t)k;
}

/* Closest points a + s (b - a) and c + t (d - c) of two segments (Ericson 5.1.9). */
static void closest_params(vec3 a, vec3 b, vec3 c, vec3 d, double *ps, double *pt)
{
    const vec3 d1 = v3_sub(b, a), d2 = v3_sub(d, c), r = v3_sub(a, c);
    const double aa = v3_dot(d1, d1), e = v3_dot(d2, d2), f = v3_dot(d2, r);
    double s = 0.0, t = 0.0;
    if (aa == 0.0 && e == 0.0) {
        s = t = 0.0;
    } else if (aa == 0.0) {
        t = clamp01(f / e);
    } else {
        const double cc = v3_dot(d1, r);
        if (e == 0.0) {
            s = clamp01(-cc / aa);
        } else {
            const double bb = v3_dot(d1, d2), denom = aa * e - bb * bb;
            /* Parallel segments: any s works; 0 keeps it deterministic. */
            s = denom > 0.0 ? clamp01((bb * f - cc * e) / denom) : 0.0;
            t = (bb * s + f) / e;
            if (t < 0.0) {
                t = 0.0;
                s = clamp01(-cc / aa);
            } else if (t > 1.0) {
                t = 1.0;
                s = clamp01((bb - cc) / aa);
            }
        }
    }
    *ps = s;
    *pt = t;
}

/* Pushes two links' segments apart to distance `min`, the correction shared by the four ends
 * in proportion to their weights in the closest points and their inverse masses; then the
 * friction f on the closest points' relative displacement over the substep, shared the same
 * way. */
static void segment_pair(const struct model *m, struct state *s, const struct link *l1,
                         const struct link *l2, double min, const struct friction *f)
{
    if (l1->a == l2->a || l1->a == l2->b || l1->b == l2->a || l1->b == l2->b)
        return; /* adjacent: they meet at their shared point by design */
    const uint32_t id[4] = {l1->a, l1->b, l2->a, l2->b};
    double ps, pt;
    closest_params(s->x[id[0]], s->x[id[1]], s->x[id[2]], s->x[id[3]], &ps, &pt);
    const vec3 p = v3_add(s->x[id[0]], v3_scale(v3_sub(s->x[id[1]], s->x[id[0]]), ps));
    const vec3 q = v3_add(s->x[id[2]], v3_scale(v3_sub(s->x[id[3]], s->x[id[2]]), pt));
    const vec3 d = v3_sub(p, q);
    const double dist = v3_len(d);
    /* Crossing exactly: no direction to separate them along. */
    if (dist >= min || dist == 0.0)
        return;
    const double g[4] = {1.0 - ps, ps, -(1.0 - pt), -pt};
    double wsum = 0.0;
    for (int k = 0; k < 4; k++)
        wsum += m->inv_mass[id[k]] * g[k] * g[k];
    if (wsum == 0.0)
        return;
    const vec3 n = v3_scale(d, 1.0 / dist);
    const double lambda = (min - dist) / wsum;
    for (int k = 0; k < 4; k++)
        if (m->inv_mass[id[k]] != 0.0 && g[k] != 0.0)
            s->x[id[k]] = v3_add(s->x[id[k]], v3_scale(n, lambda * m->inv_mass[id[k]] * g[k]));
    if (f->stat <= 0.0)
        return;
    vec3 rel = v3(0, 0, 0); /* p's displacement relative to q's */
    for (int k = 0; k < 4; k++)
        rel = v3_add(rel, v3_scale(v3_sub(s->x[id[k]], s->xprev[id[k]]), g[k]));
    const vec3 rt = v3_sub(rel, v3_scale(n, v3_dot(rel, n)));
    const vec3 mu = v3_scale(friction_removed(f, rt, min - dist), -1.0 / wsum);
    for (int k = 0; k < 4; k++)
        if (m->inv_mass[id[k]] != 0.0 && g[k] != 0.0)
            s->x[id[k]] = v3_add(s->x[id[k]], v3_scale(mu, m->inv_mass[id[k]] * g[k]));
}

/* Pushes points i and j apart to distance `min`, split by inverse mass; then the friction f
 * on their relative displacement over the substep, split the same way. */
static void point_pair(const struct model *m, struct state *s, uint32_t i, uint32_t j, double min,
                       const struct friction *f)
{
    const double wi = m->inv_mass[i], wj = m->inv_mass[j], w = wi + wj;
    const vec3 d = v3_sub(s->x[j], s->x[i]);
    const double dist = v3_len(d);
    if (dist >= min || dist == 0.0 || w == 0.0)
        return;
    const vec3 corr = v3_scale(d, (dist - min) / (w * dist));
    if (wi != 0.0)
        s->x[i] = v3_add(s->x[i], v3_scale(corr, wi));
    if (wj != 0.0)
        s->x[j] = v3_sub(s->x[j], v3_scale(corr, wj));
    if (f->stat <= 0.0)
        return;
    const vec3 n = v3_scale(d, 1.0 / dist);
    const vec3 rel = v3_sub(v3_sub(s->x[i], s->xprev[i]), v3_sub(s->x[j], s->xprev[j]));
    const vec3 rt = v3_sub(rel, v3_scale(n, v3_dot(rel, n)));
    const vec3 fix = v3_scale(friction_removed(f, rt, min - dist), 1.0 / w);
    if (wi != 0.0)
        s->x[i] = v3_sub(s->x[i], v3_scale(fix, wi));
    if (wj != 0.0)
        s->x[j] = v3_add(s->x[j], v3_scale(fix, wj));
}

static void pair(const struct model *m, struct state *s, const struct item *a, const struct item *b)
{
    const struct body *bd = &m->bodies[a->body];
    const double min = 2.0 * bd->self_radius;
    if (!selfcollide_by_segments(bd)) {
        point_pair(m, s, a->index, b->index, min, &bd->self_friction);
        return;
    }
    if (s->alive[a->index] && s->alive[b->index])
        segment_pair(m, s, &m->links[a->index], &m->links[b->index], min, &bd->self_friction);
}

void selfcollide_project(const struct model *m, struct state *s, struct selfcollide *sc)
{
    const long dz = m->dims == 3 ? 1 : 0;
    for (size_t k = 0; k < sc->nitems; k++)
        sc->seen[k] = -1;
    for (size_t i = 0; i < sc->nitems; i++) {
        const struct item *it = &sc->items[i];
        const vec3 p = item_pos(m, s, it);
        const long long ci = cell_of(p.x, sc->cell), cj = cell_of(p.y, sc->cell),
                        ck = cell_of(p.z, sc->cell);
        for (long a = -1; a <= 1; a++)
            for (long b = -1; b <= 1; b++)
                for (long c = -dz; c <= dz; c++) {
                    const size_t bk = hash_cell(ci + a, cj + b, ck + c, sc->nbuckets);
                    for (uint32_t e = sc->start[bk]; e < sc->start[bk + 1]; e++) {
                        const uint32_t j = sc->entries[e];
                        /* Each pair once (j > i), each candidate once per item. */
                        if (j <= i || sc->seen[j] == (long)i)
                            continue;
                        sc->seen[j] = (long)i;
                        if (sc->items[j].body == it->body)
                            pair(m, s, it, &sc->items[j]);
                    }
                }
    }
}
