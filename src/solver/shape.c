/* Shape matching. With weights m_i (equal weights when the group has no mass) the centre is
 * c = sum m_i x_i / M and the rest offsets q_i satisfy sum m_i q_i = 0, so the corrections
 * k (c + R q_i - x_i) sum to zero when weighted by mass: linear momentum is conserved. Every
 * sum, the rest offsets' included, runs over each group in the order of its points' initial
 * positions (solver/work.h), so the result does not depend, to the bit, on the order the
 * points were listed in. */
#include "solver/shape.h"

#include <math.h>
#include <stdlib.h>

#include "solver/work.h"
#include "solver/cache.h"
#include "solver/state.h"

/* Sweeps of the 3D rotation extraction per projection; warm-started from the last rotation,
 * one or two usually reach the 1e-9 rad step at which it stops. */
#define SHAPE_ROT_ITERATIONS 20

struct shape_key {
    vec3 x;
    uint32_t k;
};

/* The group's weights: masses, or equal weights when the group has no mass (the rule of
 * model_add_shape); *total gets their sum. Returns 1 for equal weights. */
static int shape_weights(const struct model *m, const uint32_t *perm, const struct shape *sh,
                         double *total)
{
    double t = 0.0;
    for (uint32_t k = sh->first; k < sh->first + sh->count; k++)
        t += m->mass[m->shape_index[perm[k]]];
    const int equal = !(t > 0.0);
    *total = equal ? (double)sh->count : t;
    return equal;
}

/* The rest offsets from the initial positions, in the canonical order. */
static void rest_offsets(const struct model *m, struct solver_work *w, const struct shape *sh)
{
    double total;
    const int equal = shape_weights(m, w->shape_perm, sh, &total);
    vec3 c = v3(0, 0, 0);
    for (uint32_t k = sh->first; k < sh->first + sh->count; k++) {
        const uint32_t i = m->shape_index[w->shape_perm[k]];
        c = v3_add(c, v3_scale(m->x0[i], equal ? 1.0 : m->mass[i]));
    }
    c = v3_scale(c, 1.0 / total);
    for (uint32_t k = sh->first; k < sh->first + sh->count; k++)
        w->shape_rest[k] = v3_sub(m->x0[m->shape_index[k]], c);
}

static int cmp_shape_key(const void *pa, const void *pb)
{
    const struct shape_key *a = pa, *b = pb;
    const double da[3] = {a->x.x, a->x.y, a->x.z}, db[3] = {b->x.x, b->x.y, b->x.z};
    for (int d = 0; d < 3; d++)
        if (da[d] != db[d])
            return da[d] < db[d] ? -1 : 1;
    return a->k < b->k ? -1 : a->k > b->k;
}

int shape_prepare(const struct model *m, struct solver_work *w)
{
    const size_t n = m->nshape_index;
    w->shape_perm = malloc((n ? n : 1) * sizeof *w->shape_perm);
    w->shape_rest = malloc((n ? n : 1) * sizeof *w->shape_rest);
    w->shape_q = malloc((m->nshapes ? 4 * m->nshapes : 1) * sizeof *w->shape_q);
    struct shape_key *keys = malloc((n ? n : 1) * sizeof *keys);
    if (!w->shape_perm || !w->shape_rest || !w->shape_q || !keys) {
        free(keys);
        return -1;
    }
    for (size_t j = 0; j < m->nshapes; j++) {
        const struct shape *sh = &m->shapes[j];
        for (uint32_t k = sh->first; k < sh->first + sh->count; k++)
            keys[k] = (struct shape_key){.x = m->x0[m->shape_index[k]], .k = k};
        qsort(keys + sh->first, sh->count, sizeof *keys, cmp_shape_key);
        for (uint32_t k = sh->first; k < sh->first + sh->count; k++)
            w->shape_perm[k] = keys[k].k;
        rest_offsets(m, w, sh);
        w->shape_q[4 * j] = 1.0; /* the identity rotation */
        w->shape_q[4 * j + 1] = w->shape_q[4 * j + 2] = w->shape_q[4 * j + 3] = 0.0;
    }
    free(keys);
    return 0;
}

/* The columns of the rotation matrix of the unit quaternion q = (w, x, y, z). */
static void quat_columns(const double *q, vec3 col[3])
{
    const double w = q[0], x = q[1], y = q[2], z = q[3];
    col[0] = v3(1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y));
    col[1] = v3(2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x));
    col[2] = v3(2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y));
}

/* Mueller et al. 2016: rotate q about omega = sum_j r_j x a_j / |sum_j r_j . a_j| (r_j, a_j the
 * columns of R and A) until the step is below 1e-9 rad; q stays a unit quaternion, so R is
 * orthonormal to rounding whatever A is. */
static void extract_rotation(const vec3 a[3], double *q)
{
    for (int it = 0; it < SHAPE_ROT_ITERATIONS; it++) {
        vec3 r[3];
        quat_columns(q, r);
        const vec3 num =
            v3_add(v3_add(v3_cross(r[0], a[0]), v3_cross(r[1], a[1])), v3_cross(r[2], a[2]));
        const double den = fabs(v3_dot(r[0], a[0]) + v3_dot(r[1], a[1]) + v3_dot(r[2], a[2]));
        const vec3 omega = v3_scale(num, 1.0 / den + 1e-9);
        const double angle = v3_len(omega);
        if (!(angle >= 1e-9)) /* also stops on a degenerate (NaN) step */
            return;
        const vec3 axis = v3_scale(omega, sin(0.5 * angle) / angle);
        const double dw = cos(0.5 * angle);
        const double n[4] = {
            dw * q[0] - axis.x * q[1] - axis.y * q[2] - axis.z * q[3],
            dw * q[1] + axis.x * q[0] + axis.y * q[3] - axis.z * q[2],
            dw * q[2] - axis.x * q[3] + axis.y * q[0] + axis.z * q[1],
            dw * q[3] + axis.x * q[2] - axis.y * q[1] + axis.z * q[0],
        };
        const double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2] + n[3] * n[3]);
        for (int k = 0; k < 4; k++)
            q[k] = n[k] / len;
    }
}

/* The rotation's columns for group j from the current offsets p_i = x_i - c. */
static void best_rotation(const struct model *m, const struct state *s, size_t j, vec3 c, int equal,
                          vec3 rot[3])
{
    const struct shape *sh = &m->shapes[j];
    const uint32_t *perm = s->cache->work->shape_perm;
    vec3 a[3] = {v3(0, 0, 0), v3(0, 0, 0), v3(0, 0, 0)};
    double sn = 0.0, cs = 0.0;
    for (uint32_t k = sh->first; k < sh->first + sh->count; k++) {
        const uint32_t e = perm[k], i = m->shape_index[e];
        const double wt = equal ? 1.0 : m->mass[i];
        const vec3 p = v3_sub(s->x[i], c), q = s->cache->work->shape_rest[e];
        if (m->dims == 2) {
            sn += wt * (q.x * p.y - q.y * p.x);
            cs += wt * (q.x * p.x + q.y * p.y);
        } else {
            a[0] = v3_add(a[0], v3_scale(p, wt * q.x));
            a[1] = v3_add(a[1], v3_scale(p, wt * q.y));
            a[2] = v3_add(a[2], v3_scale(p, wt * q.z));
        }
    }
    if (m->dims == 2) {
        /* The angle that maximises sum m_i p_i . R q_i. */
        const double th = atan2(sn, cs), ct = cos(th), st = sin(th);
        rot[0] = v3(ct, st, 0);
        rot[1] = v3(-st, ct, 0);
        rot[2] = v3(0, 0, 1);
        return;
    }
    double *q = s->cache->work->shape_q + 4 * j;
    extract_rotation(a, q);
    quat_columns(q, rot);
}

static void shape_solve(const struct constraint_ctx *cx, const struct model *m, struct state *s,
                        size_t j)
{
    const struct shape *sh = &m->shapes[j];
    const uint32_t *perm = s->cache->work->shape_perm;
    double total;
    const int equal = shape_weights(m, perm, sh, &total);
    vec3 c = v3(0, 0, 0);
    for (uint32_t k = sh->first; k < sh->first + sh->count; k++) {
        const uint32_t i = m->shape_index[perm[k]];
        c = v3_add(c, v3_scale(s->x[i], equal ? 1.0 : m->mass[i]));
    }
    c = v3_scale(c, 1.0 / total);
    vec3 rot[3];
    best_rotation(m, s, j, c, equal, rot);
    for (uint32_t k = sh->first; k < sh->first + sh->count; k++) {
        const uint32_t e = perm[k], i = m->shape_index[e];
        if (cx->w[i] == 0.0)
            continue;
        const vec3 q = s->cache->work->shape_rest[e];
        const vec3 goal = v3_add(
            c, v3_add(v3_add(v3_scale(rot[0], q.x), v3_scale(rot[1], q.y)), v3_scale(rot[2], q.z)));
        s->x[i] = v3_add(s->x[i], v3_scale(v3_sub(goal, s->x[i]), sh->stiffness));
    }
}

void shape_relax(const struct constraint_ctx *cx, const struct model *m, struct state *s)
{
    for (size_t j = 0; j < m->nshapes; j++)
        shape_solve(cx, m, s, j);
}
