/* The pieces of a Newton step that the tree and graph solvers share (solver/direct/newton.h). */
#include "solver/direct/newton.h"

#include <string.h>

void direct_newton_assemble(struct direct *d, const struct model *m, const vec3 *x, uint32_t p,
                            unsigned char owner)
{
    const int dim = d->dims;
    const double mass = 1.0 / m->inv_mass[p];
    double *k = d->kacc + 9 * (size_t)p;
    memset(k, 0, 9 * sizeof *k);
    for (int i = 0; i < dim; i++)
        k[i * 3 + i] = mass;
    vec3 g = v3_scale(v3_sub(x[p], d->xpred[p]), mass);
    for (uint32_t s = d->adj_first[p]; s < d->adj_first[p + 1]; s++) {
        const uint32_t l = d->adj_link[s];
        if (d->owner[l] != owner)
            continue;
        g = v3_sub(g, v3_scale(direct_newton_jac(d, m, l, p), d->lambda[l]));
        const double c = direct_newton_geo(d, l);
        if (c == 0.0)
            continue;
        const double n[3] = {d->n[l].x, d->n[l].y, d->n[l].z};
        for (int i = 0; i < dim; i++)
            for (int j = 0; j < dim; j++)
                k[i * 3 + j] += c * ((i == j) - n[i] * n[j]);
    }
    d->racc[3 * (size_t)p] = -g.x;
    d->racc[3 * (size_t)p + 1] = -g.y;
    d->racc[3 * (size_t)p + 2] = -g.z;
}

void direct_newton_apply(struct direct *d, vec3 *x, const uint32_t *points, size_t npoints,
                         unsigned char owner, int move)
{
    for (size_t k = 0; k < npoints && move; k++)
        x[points[k]] = v3_add(x[points[k]], d->dx[points[k]]);
    for (size_t i = 0; i < d->nlinks; i++)
        if (d->owner[i] == owner)
            d->lambda[i] += d->dlam[i];
}
