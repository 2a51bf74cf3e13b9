/* Contacts of points of bodies with loops as inequality rows of their Newton system
 * (solver/direct/newton.c): the collision pass hands over each resting contact's tangent plane
 * (solver/solver.c), the solve holds the point on it while the row's multiplier pushes, and
 * the multiplier, the normal force times h^2, is the load that bounds the contact's
 * friction. A plane handed over in one substep is the next substep's first guess: the
 * collision pass only renews it after the first iteration. */
#include "solver/direct/contact.h"

#include <math.h>

void direct_contact(struct direct *d, uint32_t p, vec3 n, double off)
{
    if (!d->contact || !direct_in_system(d, p))
        return;
    struct direct_contact *ct = &d->contact[p];
    if (ct->age == 0)
        ct->lam = ct->dlam = 0.0, ct->row = 0;
    ct->n = n;
    ct->off = off;
    ct->age = 1;
}

double direct_contact_load(const struct direct *d, const struct model *m, uint32_t p)
{
    if (!d->contact || !direct_in_system(d, p) || d->contact[p].age == 0)
        return 0.0;
    return d->contact[p].lam * m->inv_mass[p];
}

void direct_contact_begin(struct direct *d)
{
    if (!d->contact)
        return;
    for (size_t p = 0; p < d->npoints; p++) {
        struct direct_contact *ct = &d->contact[p];
        if (ct->age > 0)
            ct->age = ct->age == 1 ? 2 : 0; /* not renewed over a whole substep: gone */
        ct->lam = ct->dlam = 0.0;
        ct->row = 0;
    }
}

/* The contact's penalty, relative to the point's inverse mass: as a rigid link's
 * (solver/direct/newton.c), so small that the factor is the exact one to round-off, and its
 * error is corrected by the next iteration's residual. */
#define CONTACT_EPS 1e-10

static double contact_a(const struct model *m, uint32_t p)
{
    return CONTACT_EPS * m->inv_mass[p];
}

/* Runs body for each point p of graph component c that has a contact (ct_). */
#define FOR_CONTACTS(d, c, p, ...)                                                                 \
    for (uint32_t k_ = (d)->gcomp_pfirst[c]; k_ < (d)->gcomp_pfirst[(c) + 1] && (d)->contact;      \
         k_++) {                                                                                   \
        const uint32_t p = (d)->gpoint[k_];                                                        \
        struct direct_contact *ct_ = &(d)->contact[p];                                             \
        if (ct_->age == 0)                                                                         \
            continue;                                                                              \
        __VA_ARGS__                                                                                \
    }

double direct_contact_assemble(struct direct *d, const struct model *m, size_t c, const vec3 *x,
                               int *changed)
{
    const int dim = d->dims;
    double size = 0.0;
    *changed = 0;
    FOR_CONTACTS(d, c, p, {
        ct_->c = v3_dot(ct_->n, x[p]) - ct_->off;
        const double a = contact_a(m, p);
        ct_->row = ct_->lam - ct_->c / a > 0.0;
        if (!ct_->row)
            ct_->lam = 0.0;
        *changed |= ct_->row != ct_->frow;
        if (!ct_->row)
            continue;
        size = fmax(size, fabs(ct_->c));
        double *kb = d->kacc + 9 * (size_t)p, *g = d->racc + 3 * (size_t)p;
        for (int i = 0; i < dim; i++) {
            g[i] -= v3_comp(ct_->n, i) * ct_->lam;
            for (int j = 0; j < dim; j++)
                kb[i * 3 + j] += v3_comp(ct_->n, i) * v3_comp(ct_->n, j) / a;
        }
    })
    return size;
}

void direct_contact_factored(struct direct *d, size_t c)
{
    FOR_CONTACTS(d, c, p, {
        ct_->frow = ct_->row;
        ct_->nf = ct_->n;
    })
}

void direct_contact_rhs(struct direct *d, const struct model *m, size_t c)
{
    FOR_CONTACTS(d, c, p, {
        if (!ct_->frow)
            continue;
        const double s = ct_->c / contact_a(m, p);
        for (int i = 0; i < d->dims; i++)
            d->rhs[d->uidx[p] + (uint32_t)i] -= v3_comp(ct_->nf, i) * s;
    })
}

void direct_contact_step(struct direct *d, const struct model *m, size_t c)
{
    FOR_CONTACTS(d, c, p, {
        if (!ct_->frow)
            continue;
        double ndx = 0.0;
        for (int i = 0; i < d->dims; i++)
            ndx += v3_comp(ct_->nf, i) * direct_step_of(d, p, i);
        ct_->dlam = -(ct_->c + ndx) / contact_a(m, p);
    })
}

void direct_contact_update(struct direct *d, size_t c, double alpha)
{
    FOR_CONTACTS(d, c, p, {
        if (ct_->frow)
            ct_->lam = fmax(ct_->lam + alpha * ct_->dlam, 0.0);
    })
}

void direct_contact_measure(struct direct *d, size_t c, const vec3 *x, double alpha, double *kkt,
                            double *c1)
{
    FOR_CONTACTS(d, c, p, {
        if (!ct_->frow)
            continue;
        const vec3 y = v3_add(x[p], v3_scale(v3(direct_step_of(d, p, 0), direct_step_of(d, p, 1),
                                                direct_step_of(d, p, 2)),
                                             alpha));
        const double cl = v3_dot(ct_->n, y) - ct_->off,
                     lam = fmax(ct_->lam + alpha * ct_->dlam, 0.0);
        *kkt += cl * cl;
        *c1 += fabs(cl);
        for (int i = 0; i < 3; i++)
            d->racc[3 * (size_t)p + (size_t)i] -= v3_comp(ct_->n, i) * lam;
    })
}
