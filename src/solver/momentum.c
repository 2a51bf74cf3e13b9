/* The angular momentum of free bodies through the internal constraints (solver/momentum.h):
 * the free bodies by union-find over every constraint family, and the restoring rotation
 * after each sweep. */
#include "solver/momentum.h"

#include <math.h>
#include <stdlib.h>

#include "solver/state.h"

/* Points that are in no constraint stay their own root; so do pinned points, which mark the
 * set they join as anchored (its rotation is not free: a pin's reaction has a torque). */
static uint32_t find(uint32_t *parent, uint32_t i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]]; /* path halving */
        i = parent[i];
    }
    return i;
}

static void join(uint32_t *parent, uint32_t a, uint32_t b)
{
    a = find(parent, a);
    b = find(parent, b);
    if (a != b)
        parent[a > b ? a : b] = a < b ? a : b; /* the smaller index is the root: deterministic */
}

/* Joins the points of every internal constraint (links that hold, welds, angle limits,
 * areas and volumes, shape groups). */
static void join_constraints(const struct model *m, const unsigned char *alive, uint32_t *parent)
{
    for (size_t i = 0; i < m->nlinks; i++)
        if (alive[i])
            join(parent, m->links[i].a, m->links[i].b);
    for (size_t i = 0; i < m->nattachments; i++)
        join(parent, m->attachments[i].a, m->attachments[i].b);
    for (size_t i = 0; i < m->nangles; i++) {
        join(parent, m->angles[i].a, m->angles[i].b);
        join(parent, m->angles[i].b, m->angles[i].c);
    }
    for (size_t j = 0; j < m->nareas; j++) {
        const struct area *ar = &m->areas[j];
        for (uint32_t k = ar->first; k < ar->first + ar->count; k++) {
            if (!ar->is_volume) {
                join(parent, m->area_index[ar->first], m->area_index[k]);
                continue;
            }
            for (int v = 0; v < 3; v++)
                join(parent, m->faces[ar->first].v[0], m->faces[k].v[v]);
        }
    }
    for (size_t j = 0; j < m->nshapes; j++) {
        const struct shape *sh = &m->shapes[j];
        for (uint32_t k = sh->first; k < sh->first + sh->count; k++)
            join(parent, m->shape_index[sh->first], m->shape_index[k]);
    }
}

#define ANCHORED UINT32_MAX /* body[] of a root whose set holds a pinned point */
#define NO_BODY (UINT32_MAX - 1)

void momentum_changed(struct solver_momentum *mo, const struct model *m, const unsigned char *alive)
{
    uint32_t *parent = mo->parent, *body = mo->body;
    const uint32_t n = (uint32_t)m->npoints;
    for (uint32_t i = 0; i < n; i++)
        parent[i] = i;
    join_constraints(m, alive, parent);
    /* body[root]: the points of its set, or ANCHORED once a pinned point is found in it */
    for (uint32_t i = 0; i < n; i++)
        body[i] = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t r = find(parent, i);
        parent[i] = r;
        if (m->inv_mass[i] == 0.0)
            body[r] = ANCHORED;
        else if (body[r] != ANCHORED)
            body[r]++;
    }
    /* The free bodies of two points or more, numbered by their root (their smallest point),
     * each listing its points in increasing order: sums over them do not depend on anything
     * but the model. */
    size_t k = 0, total = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (parent[i] != i)
            continue;
        if (body[i] == ANCHORED || body[i] < 2) {
            body[i] = NO_BODY;
            continue;
        }
        mo->start[k] = (uint32_t)total;
        mo->cursor[k] = (uint32_t)total;
        total += body[i];
        body[i] = (uint32_t)k++;
    }
    mo->n = k;
    mo->start[k] = (uint32_t)total;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t b = body[parent[i]];
        if (b != NO_BODY)
            mo->point[mo->cursor[b]++] = i;
    }
}

int momentum_create(const struct model *m, const unsigned char *alive, struct solver_momentum **out)
{
    const size_t n = m->npoints ? m->npoints : 1;
    struct solver_momentum *mo = calloc(1, sizeof *mo);
    *out = NULL;
    if (!mo)
        return -1;
    mo->parent = malloc(n * sizeof *mo->parent);
    mo->body = malloc(n * sizeof *mo->body);
    mo->cursor = malloc(n * sizeof *mo->cursor);
    mo->start = malloc((n + 1) * sizeof *mo->start);
    mo->point = malloc(n * sizeof *mo->point);
    mo->mass = malloc(n * sizeof *mo->mass);
    mo->arm = malloc(n * sizeof *mo->arm);
    mo->inertia = malloc(n * sizeof *mo->inertia);
    mo->before = malloc(n * sizeof *mo->before);
    if (!mo->parent || !mo->body || !mo->cursor || !mo->start || !mo->point || !mo->mass ||
        !mo->arm || !mo->inertia || !mo->before) {
        momentum_destroy(mo);
        return -1;
    }
    momentum_changed(mo, m, alive);
    *out = mo;
    return 0;
}

void momentum_destroy(struct solver_momentum *mo)
{
    if (!mo)
        return;
    free(mo->parent);
    free(mo->body);
    free(mo->cursor);
    free(mo->start);
    free(mo->point);
    free(mo->mass);
    free(mo->arm);
    free(mo->inertia);
    free(mo->before);
    free(mo);
}

void momentum_begin(const struct model *m, const struct state *s, struct solver_momentum *mo)
{
    for (size_t b = 0; b < mo->n; b++) {
        double mass = 0.0, inertia = 0.0;
        vec3 c = v3(0, 0, 0);
        for (uint32_t k = mo->start[b]; k < mo->start[b + 1]; k++) {
            const uint32_t i = mo->point[k];
            mass += m->mass[i];
            c = v3_add(c, v3_scale(s->xprev[i], m->mass[i]));
        }
        c = v3_scale(c, 1.0 / mass);
        for (uint32_t k = mo->start[b]; k < mo->start[b + 1]; k++) {
            const uint32_t i = mo->point[k];
            const vec3 a = v3_sub(s->xprev[i], c);
            mo->arm[k] = v3_scale(a, m->mass[i]);
            inertia += v3_dot(mo->arm[k], a);
        }
        mo->mass[b] = mass;
        mo->inertia[b] = inertia;
    }
    momentum_mark(m, s, mo);
}

/* h L of body b: sum m (x_prev - c_prev) x x, which sum m (x_prev - c_prev) = 0 makes
 * independent of the origin. */
static vec3 body_momentum(const struct state *s, const struct solver_momentum *mo, size_t b)
{
    vec3 l = v3(0, 0, 0);
    for (uint32_t k = mo->start[b]; k < mo->start[b + 1]; k++)
        l = v3_add(l, v3_cross(mo->arm[k], s->x[mo->point[k]]));
    return l;
}

void momentum_mark(const struct model *m, const struct state *s, struct solver_momentum *mo)
{
    (void)m;
    for (size_t b = 0; b < mo->n; b++)
        mo->before[b] = body_momentum(s, mo, b);
}

/* Solves the 3x3 system J w = rhs by Gaussian elimination with partial pivoting; a pivot
 * below 1e-12 of J's largest entry (a body on a line has no inertia about it, and no angular
 * momentum about it either) leaves that part of w at 0. */
static vec3 solve3(double J[3][3], vec3 rhs)
{
    double a[3][4] = {{J[0][0], J[0][1], J[0][2], rhs.x},
                      {J[1][0], J[1][1], J[1][2], rhs.y},
                      {J[2][0], J[2][1], J[2][2], rhs.z}};
    double big = 0.0, w[3] = {0, 0, 0};
    int ok[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            big = fmax(big, fabs(a[i][j]));
    for (int col = 0; col < 3; col++) {
        int p = col;
        for (int r = col + 1; r < 3; r++)
            if (fabs(a[r][col]) > fabs(a[p][col]))
                p = r;
        for (int c = 0; c < 4; c++) {
            const double t = a[col][c];
            a[col][c] = a[p][c];
            a[p][c] = t;
        }
        if (!(fabs(a[col][col]) > 1e-12 * big))
            continue;
        ok[col] = 1;
        for (int r = col + 1; r < 3; r++) {
            const double f = a[r][col] / a[col][col];
            for (int c = col; c < 4; c++)
                a[r][c] -= f * a[col][c];
        }
    }
    for (int r = 2; r >= 0; r--) {
        if (!ok[r])
            continue;
        double sum = a[r][3];
        for (int c = r + 1; c < 3; c++)
            sum -= a[r][c] * w[c];
        w[r] = sum / a[r][r];
    }
    return v3(w[0], w[1], w[2]);
}

/* What one pass over body b gives: its h L, its centre of mass c, and J about c. As
 * sum m a = 0, J = sum m ((a . r) I - r a^T) with r = x - c is sum m ((a . x) I - x a^T). */
struct body_sums {
    vec3 l, c;
    double dot;      /* sum m a . x */
    double xa[3][3]; /* sum m x a^T (3D) */
};

static void body_sums(const struct model *m, const struct state *s,
                      const struct solver_momentum *mo, size_t b, struct body_sums *o)
{
    *o = (struct body_sums){0};
    for (uint32_t k = mo->start[b]; k < mo->start[b + 1]; k++) {
        const uint32_t i = mo->point[k];
        const vec3 x = s->x[i], ma = mo->arm[k];
        o->l = v3_add(o->l, v3_cross(ma, x));
        o->c = v3_add(o->c, v3_scale(x, m->mass[i]));
        o->dot += v3_dot(ma, x);
        if (m->dims == 3) {
            const double xs[3] = {x.x, x.y, x.z}, as[3] = {ma.x, ma.y, ma.z};
            for (int p = 0; p < 3; p++)
                for (int q = 0; q < 3; q++)
                    o->xa[p][q] += xs[p] * as[q];
        }
    }
    o->c = v3_scale(o->c, 1.0 / mo->mass[b]);
}

/* The rotation w that takes dl off body b's angular momentum (J w = -dl). A body that the sweep
 * has turned or folded far from its shape at the substep's start (sum m a . r below half of
 * sum m |a|^2: two welded points pulled onto each other, a chain folding over) has no
 * rotation that would stand for its motion; it is left as it is (w = 0). */
static vec3 restoring(const struct model *m, const struct solver_momentum *mo, size_t b,
                      struct body_sums *o, vec3 dl)
{
    if (!(o->dot > 0.5 * mo->inertia[b]))
        return v3(0, 0, 0);
    if (m->dims == 2) /* about z only: J_zz = sum m a . r (a, r in the plane) */
        return v3(0, 0, -dl.z / o->dot);
    double J[3][3];
    for (int p = 0; p < 3; p++)
        for (int q = 0; q < 3; q++)
            J[p][q] = (p == q ? o->dot : 0.0) - o->xa[p][q];
    return solve3(J, v3_scale(dl, -1.0));
}

void momentum_restore(const struct model *m, struct state *s, struct solver_momentum *mo)
{
    for (size_t b = 0; b < mo->n; b++) {
        struct body_sums o;
        body_sums(m, s, mo, b, &o);
        const vec3 dl = v3_sub(o.l, mo->before[b]);
        if (dl.x == 0.0 && dl.y == 0.0 && dl.z == 0.0)
            continue;
        const vec3 w = restoring(m, mo, b, &o, dl);
        for (uint32_t k = mo->start[b]; k < mo->start[b + 1]; k++) {
            const uint32_t i = mo->point[k];
            s->x[i] = v3_add(s->x[i], v3_cross(w, v3_sub(s->x[i], o.c)));
        }
    }
}
