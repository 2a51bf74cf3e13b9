/* Area and volume constraints, C = A(x) - pressure * rest. The polygon's shoelace area
 * A = 1/2 sum_i (x_i y_{i+1} - x_{i+1} y_i) has dA/dp_i = 1/2 (y_{i+1} - y_{i-1},
 * x_{i-1} - x_{i+1}); the mesh volume V = 1/6 sum_faces p0 . (p1 x p2) has, per face,
 * dV/dp0 = p1 x p2 / 6 and its cyclic versions, summed over the faces of each vertex. Both
 * gradients sum to zero over a closed shape (A and V do not change under translation), so
 * the corrections w_i grad_i dlambda conserve linear momentum. Gradients are gathered into
 * scratch first: moving a vertex before its neighbours' gradients are known would mix two
 * shapes into one step. */
#include "solver/area.h"

#include <stdlib.h>

#include "solver/work.h"
#include "solver/cache.h"
#include "solver/state.h"

/* A volume's distinct vertices in order of first appearance, which does not depend on how
 * the points are numbered. seen[] is UINT32_MAX for every point on entry and on return. */
static void prepare_volume(const struct model *m, struct solver_work *w, size_t j, uint32_t *seen,
                           size_t *nvert, size_t *nslot)
{
    const struct area *ar = &m->areas[j];
    const size_t begin = *nvert;
    for (uint32_t f = ar->first; f < ar->first + ar->count; f++)
        for (int k = 0; k < 3; k++) {
            const uint32_t p = m->faces[f].v[k];
            if (seen[p] == UINT32_MAX) {
                seen[p] = (uint32_t)(*nvert - begin);
                w->vol_point[(*nvert)++] = p;
            }
            w->face_slot[(*nslot)++] = seen[p];
        }
    for (size_t k = begin; k < *nvert; k++)
        seen[w->vol_point[k]] = UINT32_MAX;
}

int area_prepare(const struct model *m, struct solver_work *w)
{
    size_t nslots = 0, most = 0;
    for (size_t j = 0; j < m->nareas; j++) {
        if (m->areas[j].is_volume)
            nslots += 3 * (size_t)m->areas[j].count;
        else if (m->areas[j].count > most)
            most = m->areas[j].count;
    }
    w->vol_start = calloc(m->nareas + 1, sizeof *w->vol_start);
    w->slot_start = calloc(m->nareas + 1, sizeof *w->slot_start);
    w->vol_point = malloc((nslots ? nslots : 1) * sizeof *w->vol_point);
    w->face_slot = malloc((nslots ? nslots : 1) * sizeof *w->face_slot);
    uint32_t *seen = malloc((m->npoints ? m->npoints : 1) * sizeof *seen);
    int rc = -1;
    if (!w->vol_start || !w->slot_start || !w->vol_point || !w->face_slot || !seen)
        goto done;
    for (size_t i = 0; i < m->npoints; i++)
        seen[i] = UINT32_MAX;
    size_t nvert = 0, nslot = 0;
    for (size_t j = 0; j < m->nareas; j++) {
        if (m->areas[j].is_volume)
            prepare_volume(m, w, j, seen, &nvert, &nslot);
        w->vol_start[j + 1] = (uint32_t)nvert;
        w->slot_start[j + 1] = (uint32_t)nslot;
        if (w->vol_start[j + 1] - w->vol_start[j] > most)
            most = w->vol_start[j + 1] - w->vol_start[j];
    }
    w->grad = malloc((most ? most : 1) * sizeof *w->grad);
    rc = w->grad ? 0 : -1;
done:
    free(seen);
    return rc;
}

double area_value(const struct model *m, const struct state *s, size_t i)
{
    return model_area_value(m, s->x, i);
}

/* Fills grad[0..count) for the polygon; returns sum w |grad|^2. */
static double polygon_grad(const struct model *m, const double *inv_mass, const struct state *s,
                           const struct area *ar, vec3 *grad)
{
    const uint32_t *idx = m->area_index + ar->first;
    const uint32_t n = ar->count;
    double wgrad2 = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        const vec3 prev = s->x[idx[i == 0 ? n - 1 : i - 1]],
                   next = s->x[idx[i + 1 == n ? 0 : i + 1]];
        grad[i] = v3(0.5 * (next.y - prev.y), 0.5 * (prev.x - next.x), 0.0);
        wgrad2 += inv_mass[idx[i]] * v3_dot(grad[i], grad[i]);
    }
    return wgrad2;
}

/* Fills grad[] over the volume's distinct vertices; returns sum w |grad|^2. */
static double mesh_grad(const struct model *m, const double *inv_mass, const struct state *s,
                        const struct solver_work *w, size_t j, vec3 *grad)
{
    const struct area *ar = &m->areas[j];
    const uint32_t *pts = w->vol_point + w->vol_start[j];
    const uint32_t nv = w->vol_start[j + 1] - w->vol_start[j];
    const uint32_t *slot = w->face_slot + w->slot_start[j];
    for (uint32_t k = 0; k < nv; k++)
        grad[k] = v3(0, 0, 0);
    for (uint32_t f = 0; f < ar->count; f++) {
        const uint32_t *v = m->faces[ar->first + f].v;
        const vec3 p0 = s->x[v[0]], p1 = s->x[v[1]], p2 = s->x[v[2]];
        grad[slot[3 * f]] = v3_add(grad[slot[3 * f]], v3_scale(v3_cross(p1, p2), 1.0 / 6.0));
        grad[slot[3 * f + 1]] =
            v3_add(grad[slot[3 * f + 1]], v3_scale(v3_cross(p2, p0), 1.0 / 6.0));
        grad[slot[3 * f + 2]] =
            v3_add(grad[slot[3 * f + 2]], v3_scale(v3_cross(p0, p1), 1.0 / 6.0));
    }
    double wgrad2 = 0.0;
    for (uint32_t k = 0; k < nv; k++)
        wgrad2 += inv_mass[pts[k]] * v3_dot(grad[k], grad[k]);
    return wgrad2;
}

static void area_solve(const struct constraint_ctx *cx, const struct model *m, struct state *s,
                       size_t j)
{
    const struct area *ar = &m->areas[j];
    struct solver_work *w = s->cache->work;
    const uint32_t *pts;
    uint32_t n;
    double wgrad2;
    if (ar->is_volume) {
        pts = w->vol_point + w->vol_start[j];
        n = w->vol_start[j + 1] - w->vol_start[j];
        wgrad2 = mesh_grad(m, cx->w, s, w, j, w->grad);
    } else {
        pts = m->area_index + ar->first;
        n = ar->count;
        wgrad2 = polygon_grad(m, cx->w, s, ar, w->grad);
    }
    if (wgrad2 == 0.0)
        return;
    const double c = area_value(m, s, j) - ar->pressure * ar->rest;
    const double r =
        constraint_step(cx, c, wgrad2, 1.0, ar->stiffness, ar->compliance, &s->area_lambda[j]);
    for (uint32_t k = 0; k < n; k++) {
        const double wk = cx->w[pts[k]];
        if (wk != 0.0)
            s->x[pts[k]] = v3_add(s->x[pts[k]], v3_scale(w->grad[k], wk * r));
    }
}

void area_relax(const struct constraint_ctx *cx, const struct model *m, struct state *s)
{
    for (size_t j = 0; j < m->nareas; j++)
        area_solve(cx, m, s, j);
}
