/* Models for the direct projection's tests and benchmark (see testutil_direct.h). */
#include "testutil_direct.h"

#include <math.h>
#include <stdlib.h>

#include "scenario/build/build.h"
#include "solver/solver.h"
#include "testutil.h"

static const double PI = 3.14159265358979323846;

struct model *tu_arc_chain(size_t n, double span, double length, double dt, double damping)
{
    double lo = 1e-9, hi = PI - 1e-9; /* half the arc's angle: n sin(g/n) / sin(g) = ratio */
    for (int i = 0; i < 200; i++) {
        const double g = 0.5 * (lo + hi);
        if ((double)n * sin(g / (double)n) / sin(g) < length / span)
            lo = g;
        else
            hi = g;
    }
    const double g = 0.5 * (lo + hi), r = span / (2.0 * sin(g));
    struct model *c = model_create();
    if (!c)
        return NULL;
    c->dt = dt;
    c->steps = 1;
    c->iterations = 10;
    c->damping = damping;
    c->global = 1;
    for (size_t i = 0; i <= n; i++) {
        const double th = -g + 2.0 * g * (double)i / (double)n;
        vec3 x = v3(0.5 * span + r * sin(th), r * cos(g) - r * cos(th), 0);
        if (i == 0 || i == n)
            x = v3(i == 0 ? 0.0 : span, 0, 0);
        if (model_add_point(c, x, v3(0, 0, 0), 1.0 / (double)(n + 1), 0, NULL) < 0)
            goto fail;
    }
    for (size_t i = 0; i < n; i++)
        if (model_add_link(c, (uint32_t)i, (uint32_t)i + 1, length / (double)n) < 0)
            goto fail;
    if (model_add_pin(c, 0, c->x0[0]) < 0 || model_add_pin(c, (uint32_t)n, c->x0[n]) < 0)
        goto fail;
    return c;

fail:
    model_destroy(c);
    return NULL;
}

struct model *tu_curtain(int n, double sp, int hanging)
{
    struct model *c = model_create();
    vec3 *top = malloc((size_t)n * sizeof *top);
    if (!c || !top)
        goto fail;
    c->dims = 3;
    c->dt = 1.0 / 120.0;
    c->steps = 1;
    c->iterations = 10;
    c->global = 1;
    const double r = (n - 1) * sp / 2.5;
    build_rope_shape(v3(0, 0, 0), v3(0.8 * (n - 1) * sp, 0, 0), (n - 1) * sp, (size_t)n - 1,
                     c->gravity, top);
    for (int row = 0; row < n; row++)
        for (int col = 0; col < n; col++) {
            const double th = col * sp / r;
            const vec3 x = hanging ? v3_add(top[col], v3(0, -row * sp, 0))
                                   : v3(r * sin(th), -row * sp, r * (1.0 - cos(th)));
            if (model_add_point(c, x, v3(0, 0, 0), 1.0 / (n * n), 0, NULL) < 0)
                goto fail;
        }
    for (int row = 0; row < n; row++)
        for (int col = 0; col < n; col++) {
            const uint32_t i = (uint32_t)(row * n + col);
            if ((col + 1 < n && model_add_link(c, i, i + 1, sp) < 0) ||
                (row + 1 < n && model_add_link(c, i, i + (uint32_t)n, sp) < 0))
                goto fail;
        }
    if (model_add_pin(c, 0, c->x0[0]) < 0 || model_add_pin(c, (uint32_t)n - 1, c->x0[n - 1]) < 0)
        goto fail;
    free(top);
    return c;

fail:
    free(top);
    model_destroy(c);
    return NULL;
}

struct model *tu_truss_2d(void)
{
    struct model *m = tu_model_of(tu_cloth(6, 0.5, 2));
    if (!m)
        return NULL;
    m->global = 1;
    m->npins = 1; /* the other top corner becomes free: the truss swings about the first */
    m->inv_mass[5] = 36.0;
    return m;
}

int tu_newton_fixed_states(struct model *m, struct state **newton, struct state **fixed)
{
    m->global_matrix = MATRIX_NEWTON;
    *newton = state_create(m);
    m->global_matrix = MATRIX_FIXED;
    *fixed = state_create(m);
    return *newton && *fixed ? 0 : -1;
}

double tu_step_newton_fixed(struct model *m, struct state *newton, struct state *fixed,
                            int fixed_iterations)
{
    m->global_matrix = MATRIX_NEWTON;
    m->iterations = 40;
    solver_step(m, newton);
    m->global_matrix = MATRIX_FIXED;
    m->iterations = fixed_iterations;
    solver_step(m, fixed);
    double gap = 0.0;
    for (size_t p = 0; p < m->npoints; p++)
        gap = fmax(gap, v3_dist(newton->x[p], fixed->x[p]));
    return gap;
}

double tu_max_moved(const struct model *m, const struct state *st)
{
    double moved = 0.0;
    for (size_t p = 0; p < m->npoints; p++)
        moved = fmax(moved, v3_dist(st->x[p], m->x0[p]));
    return moved;
}

double tu_max_strain(const struct model *m, const struct state *st)
{
    double e = 0.0;
    for (size_t i = 0; i < m->nlinks; i++)
        if (st->alive[i]) {
            const struct link *l = &m->links[i];
            e = fmax(e, fabs(v3_dist(st->x[l->a], st->x[l->b]) / l->rest - 1.0));
        }
    return e;
}
