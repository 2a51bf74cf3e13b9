/* Contacts of points of bodies with loops as inequality rows of their Newton system
 * (solver/direct/newton.c), with Coulomb friction inside the same system: the collision pass
 * hands over each resting contact's tangent plane (solver/solver.c); the solve holds the
 * point on it while the normal force pushes (a primal-dual active set: a row is kept while
 * lam_n w > C, the displacement its force makes above the gap, so a resting point's row
 * survives round-off, one that would pull is released and a penetrating point is always
 * held; the sharper lam_n > C / a left half the resting points of cloth-on-sphere switching
 * between the solve and the collision pass, drifting 6 mm in 2 s); a sticking contact holds the
 * point where it started the substep, projected on the plane (three rows), while its tangential
 * force is within mu_s times its normal force, and slides otherwise (one row, and mu_k times the
 * normal force against the slip, lagged by an iteration and never more than would reverse the slip:
 * uncapped, that explicit force threw a cloth off a sphere at impact), sticking again once its slip
 * is within mu_s lam_n w (collide/friction.h's rule). Friction thus sees the normal force the solve
 * applies, and the links see the friction, so neither undoes the other. A plane handed over in one
 * substep is the next substep's first guess: the collision pass only renews it after the first
 * iteration. */
#include "solver/direct/contact.h"

#include <math.h>

void direct_contact(struct direct *d, uint32_t p, vec3 n, double off, vec3 from, struct friction f)
{
    if (!d->contact || !direct_in_system(d, p))
        return;
    struct direct_contact *ct = &d->contact[p];
    if (ct->age == 0) {
        ct->lam = ct->dlam = v3(0, 0, 0);
        ct->row = 0;
    }
    ct->n = n;
    ct->off = off;
    ct->hold = v3_add(from, v3_scale(n, off - v3_dot(n, from)));
    ct->stat = f.stat;
    ct->dyn = f.dyn;
    ct->age = 1;
}

int direct_contact_held(const struct direct *d, uint32_t p)
{
    return d->contact && direct_in_system(d, p) && d->contact[p].age > 0 && d->contact[p].row;
}

/* Age 0: direct_contact_begin clears the contact; frow still names the factor's rows. */
void direct_contact_forget(struct direct *d)
{
    for (size_t p = 0; d->contact && p < d->npoints; p++)
        d->contact[p].age = 0;
}

void direct_contact_begin(struct direct *d, const vec3 *xstart)
{
    if (!d->contact)
        return;
    for (size_t p = 0; p < d->npoints; p++) {
        struct direct_contact *ct = &d->contact[p];
        if (ct->age == 2 || ct->age == 0) { /* not renewed over a whole substep: gone */
            ct->age = 0;
            ct->lam = ct->dlam = v3(0, 0, 0);
            ct->row = 0;
            continue;
        }
        /* Renewed last substep: a candidate now, its rows and force the first guess (as the
         * links' multipliers), and a sticking point held where this substep starts. */
        ct->age = 2;
        ct->hold = v3_add(xstart[p], v3_scale(ct->n, ct->off - v3_dot(ct->n, xstart[p])));
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

/* The rows' violation at y: x - hold sticking, (n . x - off) n sliding. */
static vec3 violation(const struct direct_contact *ct, vec3 n, vec3 y)
{
    if (ct->row == 2)
        return v3_sub(y, ct->hold);
    return v3_scale(n, v3_dot(ct->n, y) - ct->off);
}

/* The force the rows apply at y with multiplier lam: lam sticking; sliding, its normal part
 * and mu_k of it along the slide, but never more than would take the point back to where it
 * would stick (friction stops a slip, it does not reverse it: collide/friction.h's bound). */
static vec3 contact_force(const struct direct_contact *ct, vec3 lam, vec3 y, double w)
{
    if (ct->row == 2)
        return lam;
    const double ln = fmax(v3_dot(ct->n, lam), 0.0);
    const vec3 d = v3_sub(y, ct->hold);
    const double back = fmax(-v3_dot(d, ct->slide), 0.0) / w; /* the slip, against the force */
    return v3_add(v3_scale(ct->n, ln), v3_scale(ct->slide, fmin(ct->dyn * ln, back)));
}

/* Which rows the contact has at x (see the file's comment). */
static void choose_rows(struct direct_contact *ct, const struct model *m, uint32_t p, vec3 x)
{
    const double c = v3_dot(ct->n, x) - ct->off, ln = v3_dot(ct->n, ct->lam);
    if (ln * m->inv_mass[p] - c <= 0.0) {
        ct->row = 0;
        ct->lam = v3(0, 0, 0);
        return;
    }
    if (ct->row == 0)
        ct->row = ct->stat > 0.0 ? 2 : 1; /* a new contact tries to stick */
    const vec3 d = v3_sub(x, ct->hold);
    if (ct->row == 1 && ct->stat > 0.0 &&
        v3_len(v3_sub(d, v3_scale(ct->n, v3_dot(d, ct->n)))) <= ct->stat * ln * m->inv_mass[p]) {
        ct->row = 2; /* a slip its friction can stop (collide/friction.h's rule): it sticks */
        ct->lam = v3_add(v3_scale(ct->n, ln), v3_scale(ct->slide, ct->dyn * ln));
    }
    const vec3 lt = v3_sub(ct->lam, v3_scale(ct->n, ln));
    const double t = v3_len(lt);
    if (ct->row == 2 && t > ct->stat * ln) {
        ct->row = 1;
        ct->slide = v3_scale(lt, 1.0 / t);
    }
    if (ct->row == 1)
        ct->lam = v3_scale(ct->n, ln);
}

double direct_contact_assemble(struct direct *d, const struct model *m, size_t c, const vec3 *x,
                               int *changed)
{
    const int dim = d->dims;
    double size = 0.0;
    *changed = 0;
    FOR_CONTACTS(d, c, p, {
        choose_rows(ct_, m, p, x[p]);
        *changed |= ct_->row != ct_->frow;
        if (!ct_->row)
            continue;
        const double a = contact_a(m, p);
        const vec3 v = violation(ct_, ct_->n, x[p]),
                   f = contact_force(ct_, ct_->lam, x[p], m->inv_mass[p]);
        size = fmax(size, v3_len(v));
        double *kb = d->kacc + 9 * (size_t)p, *g = d->racc + 3 * (size_t)p;
        for (int i = 0; i < dim; i++) {
            g[i] -= v3_comp(f, i);
            for (int j = 0; j < dim; j++)
                kb[i * 3 + j] +=
                    (ct_->row == 2 ? (double)(i == j) : v3_comp(ct_->n, i) * v3_comp(ct_->n, j)) /
                    a;
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

void direct_contact_rhs(struct direct *d, const struct model *m, const vec3 *x, size_t c)
{
    FOR_CONTACTS(d, c, p, {
        if (!ct_->frow)
            continue;
        const vec3 v = violation(ct_, ct_->nf, x[p]);
        const double ia = 1.0 / contact_a(m, p);
        for (int i = 0; i < d->dims; i++)
            d->rhs[d->uidx[p] + (uint32_t)i] -= v3_comp(v, i) * ia;
    })
}

void direct_contact_step(struct direct *d, const struct model *m, const vec3 *x, size_t c)
{
    FOR_CONTACTS(d, c, p, {
        if (!ct_->frow)
            continue;
        const vec3 dx = direct_step(d, p);
        const vec3 v = violation(ct_, ct_->nf, x[p]);
        vec3 r = v3_add(v, ct_->row == 2 ? dx : v3_scale(ct_->nf, v3_dot(ct_->nf, dx)));
        ct_->dlam = v3_scale(r, -1.0 / contact_a(m, p));
    })
}

void direct_contact_update(struct direct *d, size_t c, double alpha)
{
    FOR_CONTACTS(d, c, p, {
        if (!ct_->frow)
            continue;
        ct_->lam = v3_add(ct_->lam, v3_scale(ct_->dlam, alpha));
        if (v3_dot(ct_->n, ct_->lam) < 0.0)
            ct_->lam = v3(0, 0, 0); /* it would pull: the next assembly releases it */
    })
}

void direct_contact_measure(struct direct *d, const struct model *m, size_t c, const vec3 *x,
                            double alpha, double *kkt, double *c1)
{
    FOR_CONTACTS(d, c, p, {
        const double w = m->inv_mass[p];
        if (!ct_->frow)
            continue;
        const vec3 y = v3_add(x[p], v3_scale(direct_step(d, p), alpha));
        const vec3 v = violation(ct_, ct_->n, y);
        const vec3 f = contact_force(ct_, v3_add(ct_->lam, v3_scale(ct_->dlam, alpha)), y, w);
        *kkt += v3_dot(v, v);
        *c1 += fabs(v.x) + fabs(v.y) + fabs(v.z);
        for (int i = 0; i < 3; i++)
            d->racc[3 * (size_t)p + (size_t)i] -= v3_comp(f, i);
    })
}
