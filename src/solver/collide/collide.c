/* Collision dispatch: the broad phase (one bounding box per body, and one for the points
 * outside bodies, against each obstacle's bounds), the narrow phase through the shape tables
 * of collide_<shape>.c, self-collision (solver/collide/selfcollide.c), and the contacts. A contact
 * is a constraint of the iterations (Jakobsen 2001): push-out, then Coulomb friction as a
 * positional projection relative to the substep's start (Macklin et al. 2014, "Unified
 * particle physics", sec. 6.1, eq. 24, over the substep's whole normal displacement) and a
 * bounce as the height its parabola reaches, so the constraints iterate after them; after the
 * iterations the response sets velocities only (the velocity pass of Mueller et al. 2020). */
#include "solver/collide/collide.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver/collide/friction.h"
#include "solver/collide/shape.h"
#include "solver/collide/selfcollide.h"
#include "solver/velocity.h"
#include "solver/cache.h"
#include "solver/state.h"

static const struct collide_shape *const shapes[] = {
    [OBSTACLE_PLANE] = &collide_plane,   [OBSTACLE_SPHERE] = &collide_sphere,
    [OBSTACLE_BOX] = &collide_box,       [OBSTACLE_CAPSULE] = &collide_capsule,
    [OBSTACLE_BOUNDS] = &collide_bounds,
};

/* What a point touched in the current substep. */
struct contact {
    long obstacle; /* -1: nothing yet */
    vec3 n;        /* latest normal, towards the free side */
    vec3 surf;     /* where the first push put the point: on the surface grown by its radius */
    double y0, y1; /* when it first touched: heights above that surface of the previous
                      position and of the position before the push (< 0: inside), m */
    double lift;   /* the height over surf along n the point is held at or above: 0, or for
                      a bounce where the reflected parabola ends the substep, m */
    double dy;     /* a bounce's normal displacement over the substep (h times its velocity), m */
    double dn;     /* the normal displacement the contact has removed in this substep (its
                      normal impulse times h / m): what bounds friction, m */
    vec3 fric;     /* the friction offset the projections have applied this substep, m */
    double off;    /* n . x where the latest push left the point: its tangent plane, m */
    int held;      /* 1 while a global solve holds it, friction included (collide_contact_held) */
    int several;   /* 1 once a second obstacle has pushed it in this substep */
};

/* Points tested together in the broad phase: a body's range, or a list (loose points). */
struct group {
    uint32_t first, count;
    const uint32_t *list; /* NULL: the range first..first+count */
};

struct collide_work {
    struct contact *contacts; /* [npoints]; NULL without obstacles */
    uint32_t *touched;        /* [npoints] the points that touched in this substep, in the
                                 order they first did */
    size_t ntouched;
    struct group *groups;
    size_t ngroups;
    uint32_t *loose; /* points that belong to no body */
    struct selfcollide *self;
    unsigned long narrow;
    double *frozen; /* [npoints] the contact phase's inverse masses (solver.shock_iterations) */
    size_t nfrozen; /* touched[0..nfrozen) are at 0 in it; 0: not yet copied this substep */
};

static int any_self(const struct model *m)
{
    for (size_t b = 0; b < m->nbodies; b++)
        if (m->bodies[b].self_radius > 0.0)
            return 1;
    return 0;
}

/* One group per body, and one for the points outside bodies (points[] and reserved ones). */
static int make_groups(const struct model *m, struct collide_work *w)
{
    unsigned char *in_body = calloc(m->npoints ? m->npoints : 1, 1);
    w->groups = calloc(m->nbodies + 1, sizeof *w->groups);
    w->loose = calloc(m->npoints ? m->npoints : 1, sizeof *w->loose);
    if (!in_body || !w->groups || !w->loose) {
        free(in_body);
        return -1;
    }
    for (size_t b = 0; b < m->nbodies; b++) {
        const struct body *bd = &m->bodies[b];
        w->groups[w->ngroups++] = (struct group){.first = bd->first_point, .count = bd->npoints};
        for (uint32_t k = 0; k < bd->npoints; k++)
            in_body[bd->first_point + k] = 1;
    }
    uint32_t n = 0;
    for (size_t i = 0; i < m->npoints; i++)
        if (!in_body[i])
            w->loose[n++] = (uint32_t)i;
    if (n > 0)
        w->groups[w->ngroups++] = (struct group){.count = n, .list = w->loose};
    free(in_body);
    return 0;
}

int collide_work_create(const struct model *m, struct collide_work **out)
{
    *out = NULL;
    if (m->nobstacles == 0 && !any_self(m))
        return 0;
    struct collide_work *w = calloc(1, sizeof *w);
    if (!w)
        return -1;
    if (m->nobstacles > 0 &&
        (!(w->contacts = calloc(m->npoints ? m->npoints : 1, sizeof *w->contacts)) ||
         !(w->touched = calloc(m->npoints ? m->npoints : 1, sizeof *w->touched)) ||
         make_groups(m, w)))
        goto fail;
    if (m->nobstacles > 0 && m->shock_iterations > 0 &&
        !(w->frozen = malloc((m->npoints ? m->npoints : 1) * sizeof *w->frozen)))
        goto fail;
    if (selfcollide_create(m, &w->self))
        goto fail;
    *out = w;
    return 0;
fail:
    collide_work_destroy(w);
    return -1;
}

void collide_work_destroy(struct collide_work *w)
{
    if (!w)
        return;
    free(w->contacts);
    free(w->touched);
    free(w->groups);
    free(w->loose);
    free(w->frozen);
    selfcollide_destroy(w->self);
    free(w);
}

unsigned long collide_narrow_tests(const struct state *s)
{
    return s->cache->collide ? s->cache->collide->narrow : 0;
}

double collide_distance(const struct obstacle *o, vec3 x, vec3 *n)
{
    vec3 dummy;
    return shapes[o->type]->distance(o, x, n ? n : &dummy);
}

void collide_begin(const struct model *m, struct state *s)
{
    struct collide_work *w = s->cache->collide;
    if (!w)
        return;
    if (w->contacts)
        for (size_t i = 0; i < s->npoints; i++)
            w->contacts[i].obstacle = -1;
    w->ntouched = w->nfrozen = 0;
    if (w->self)
        selfcollide_build(m, s, w->self);
}

static uint32_t group_point(const struct group *g, uint32_t k)
{
    return g->list ? g->list[k] : g->first + k;
}

/* Bounding box of the group's free points over the substep (previous and current
 * positions), and their largest radius. Returns 0 when the group has no free point. */
static int group_box(const struct model *m, const struct state *s, const struct group *g, vec3 *lo,
                     vec3 *hi, double *rmax)
{
    int any = 0;
    for (uint32_t k = 0; k < g->count; k++) {
        const uint32_t i = group_point(g, k);
        if (m->inv_mass[i] == 0.0)
            continue;
        const vec3 a = s->x[i], b = s->xprev[i];
        if (!any) {
            *lo = *hi = a;
            *rmax = 0.0;
            any = 1;
        }
        *lo = v3(fmin(lo->x, fmin(a.x, b.x)), fmin(lo->y, fmin(a.y, b.y)),
                 fmin(lo->z, fmin(a.z, b.z)));
        *hi = v3(fmax(hi->x, fmax(a.x, b.x)), fmax(hi->y, fmax(a.y, b.y)),
                 fmax(hi->z, fmax(a.z, b.z)));
        *rmax = fmax(*rmax, m->radius[i]);
    }
    return any;
}

/* Broad phase: whether o may touch a sphere of radius r anywhere in [lo, hi]. */
static int may_touch(const struct obstacle *o, vec3 lo, vec3 hi, double r)
{
    switch ((enum obstacle_type)o->type) {
    case OBSTACLE_PLANE: {
        /* The box's corner deepest behind the plane: its centre minus the support extent. */
        const vec3 c = v3_scale(v3_add(lo, hi), 0.5), e = v3_scale(v3_sub(hi, lo), 0.5);
        const double depth = fabs(o->n.x) * e.x + fabs(o->n.y) * e.y + fabs(o->n.z) * e.z;
        return v3_dot(v3_sub(c, o->p), o->n) - depth < r;
    }
    case OBSTACLE_BOUNDS:
        return 1; /* the walls surround everything: only a point beside one is safe */
    case OBSTACLE_SPHERE:
    case OBSTACLE_BOX:
    case OBSTACLE_CAPSULE:
        break;
    }
    return lo.x - r <= o->hi.x && hi.x + r >= o->lo.x && lo.y - r <= o->hi.y &&
           hi.y + r >= o->lo.y && lo.z - r <= o->hi.z && hi.z + r >= o->lo.z;
}

/* The bounce of a free point, exactly: in the substep the point's height above the surface
 * follows y(t) = y0 + u t - a t^2 / 2 (a: gravity towards the surface), which Verlet samples
 * exactly; it meets the surface at tau with speed vc, leaves at -e vc, and ends the substep
 * on the reflected parabola. Gives the height at the end of the substep and its change over
 * the substep (h times the average velocity), so that the next substep continues the
 * reflected parabola: bounce heights scale by e^2 without an O(h) bias. */
static void bounce(const struct contact *c, double e, double a, double h, double *y_end, double *dy)
{
    const double y0 = fmax(c->y0, 0.0);
    const double u = (c->y1 - y0) / h + 0.5 * a * h;
    /* Root of y0 + u t - a t^2 / 2 = 0 in the form that stays exact as a -> 0. */
    const double root = sqrt(fmax(u * u + 2.0 * a * y0, 0.0));
    double tau = -u + root > 0.0 ? 2.0 * y0 / (-u + root) : 0.0;
    tau = tau > h ? h : tau;
    const double vout = -e * (u - a * tau), rho = h - tau;
    *y_end = vout * rho - 0.5 * a * rho * rho;
    const double back = rho - h;
    *dy = *y_end - (vout * back - 0.5 * a * back * back);
}

/* Where a new contact holds the point along the normal: a point that arrived faster than
 * 2 |g| h bounces, and is held on the reflected parabola (lift > 0 as a rule); a slower
 * one is a resting contact, which must not jitter: it is held on the surface. */
static void contact_target(const struct model *m, const struct obstacle *o, struct contact *c,
                           vec3 n)
{
    const double h = m->dt / m->substeps;
    const double slow = 2.0 * v3_len(m->gravity) * h;
    c->lift = c->dy = 0.0;
    if (o->restitution > 0.0 && (c->y1 - c->y0) / h < -slow)
        bounce(c, o->restitution, fmax(-v3_dot(m->gravity, n), 0.0), h, &c->lift, &c->dy);
}

/* Narrow phase for point i against obstacle k: the swept test first (it knows which face the
 * point came through), then the push-out along the nearest surface. */
static void collide_point(const struct model *m, struct state *s, size_t k, size_t i)
{
    const struct obstacle *o = &m->obstacles[k];
    const struct collide_shape *sh = shapes[o->type];
    const double r = m->radius[i];
    struct collide_work *w = s->cache->collide;
    vec3 x = s->x[i], n;
    double depth = 0.0, tau;
    int hit = 0;
    w->narrow++;
    if (sh->sweep && sh->sweep(o, s->xprev[i], x, r, &tau, &n)) {
        /* The entry face's tangent plane bounds the point: project onto it, keeping the
         * motion along it. On the plane the point is clear of the (convex) shape. */
        const vec3 e = v3_add(s->xprev[i], v3_scale(v3_sub(x, s->xprev[i]), tau));
        depth = -v3_dot(v3_sub(x, e), n);
        if (depth > 0.0) {
            x = v3_add(x, v3_scale(n, depth));
            hit = 1;
        }
    } else if (sh->push) {
        hit = sh->push(o, r, &x, &n, &depth);
    } else {
        const double d = sh->distance(o, x, &n);
        if (d < r) {
            depth = r - d;
            x = v3_add(x, v3_scale(n, depth));
            hit = 1;
        }
    }
    if (!hit)
        return;
    struct contact *c = &w->contacts[i];
    if (c->obstacle < 0) {
        w->touched[w->ntouched++] = (uint32_t)i;
        c->fric = v3(0, 0, 0);
        c->dn = 0.0;
        c->held = 0;
        c->several = 0;
    }
    if (c->obstacle != (long)k) {
        c->several |= c->obstacle >= 0;
        c->obstacle = (long)k;
        c->surf = x;
        c->y0 = v3_dot(v3_sub(s->xprev[i], x), n);
        c->y1 = -depth;
        contact_target(m, o, c, n);
        /* The whole approach is undone, not only the part below the surface: a point that
         * arrives at speed u leaves along the normal with none (or a bounce's), an impulse of
         * m u, whose positional measure is u h = y0 - y1. An initial overlap (y0 < 0) is a
         * correction, and counts only for the motion into the surface. */
        c->dn += fmax(c->y0 - c->y1, 0.0);
    } else {
        c->dn += depth;
    }
    c->n = n;
    c->off = v3_dot(n, x);
    s->x[i] = x;
}

/* Coulomb friction over the substep as a total (collide/friction.h): d_t is the tangential
 * displacement since the substep's start that the rest of the solve gives the point
 * (x - fric - xprev: fric is what earlier passes removed, so repeating the pass changes
 * nothing) and dn the normal displacement the contact has removed in the substep, so the
 * bound mu dn counts every push, not only the pass's: a load a rope pulls into a surface over
 * many iterations is held by all of it. Returns the new offset. */
static vec3 friction_offset(const struct friction *f, const struct contact *c, vec3 d)
{
    const vec3 dt = v3_sub(d, v3_scale(c->n, v3_dot(d, c->n)));
    return v3_scale(friction_removed(f, dt, c->dn), -1.0);
}

/* The contact as a constraint inside the iterations, so that the constraints projected
 * after it see, and make consistent, what it does (Macklin et al. 2014, sec. 6.1, friction
 * relative to the substep's start). A bounce holds the point at or above its parabola's end
 * on the tangent plane of the first touch (a normal displacement friction counts too); then
 * friction. */
static void contact_project(const struct model *m, struct state *s, uint32_t i)
{
    struct contact *c = &s->cache->collide->contacts[i];
    const struct obstacle *o = &m->obstacles[c->obstacle];
    vec3 x = s->x[i];
    if (c->lift > 0.0) {
        const double y = v3_dot(v3_sub(x, c->surf), c->n);
        if (y < c->lift) {
            x = v3_add(x, v3_scale(c->n, c->lift - y));
            c->dn += c->lift - y;
        }
    }
    if (o->friction.stat > 0.0 && !c->held) {
        const vec3 fric = friction_offset(&o->friction, c, v3_sub(v3_sub(x, c->fric), s->xprev[i]));
        x = v3_add(x, v3_sub(fric, c->fric));
        c->fric = fric;
    }
    s->x[i] = x;
}

void collide_pass(const struct model *m, struct state *s)
{
    struct collide_work *w = s->cache->collide;
    if (!w)
        return;
    if (w->self)
        selfcollide_project(m, s, w->self);
    for (size_t g = 0; g < w->ngroups; g++) {
        const struct group *gr = &w->groups[g];
        vec3 lo = v3(0, 0, 0), hi = lo;
        double rmax = 0.0;
        if (!group_box(m, s, gr, &lo, &hi, &rmax))
            continue;
        for (size_t k = 0; k < m->nobstacles; k++) {
            if (!may_touch(&m->obstacles[k], lo, hi, rmax))
                continue;
            for (uint32_t j = 0; j < gr->count; j++) {
                const uint32_t i = group_point(gr, j);
                if (m->inv_mass[i] != 0.0)
                    collide_point(m, s, k, i);
            }
        }
    }
    for (size_t k = 0; k < w->ntouched; k++)
        contact_project(m, s, w->touched[k]);
}

size_t collide_touched(const struct state *s, const uint32_t **points)
{
    const struct collide_work *w = s->cache->collide;
    *points = w ? w->touched : NULL;
    return w ? w->ntouched : 0;
}

int collide_contact_plane(const struct model *m, const struct state *s, uint32_t i, vec3 *n,
                          double *off, struct friction *f)
{
    const struct contact *c = &s->cache->collide->contacts[i];
    if (c->obstacle < 0 || c->lift > 0.0 || c->several)
        return 0; /* a bounce leaves the surface, and between two obstacles the pass decides */
    *n = c->n;
    *off = c->off;
    *f = m->obstacles[c->obstacle].friction;
    return 1;
}

void collide_contact_held(struct state *s, uint32_t i, int held)
{
    s->cache->collide->contacts[i].held = held;
}

/* Velocities only: the positions are the ones the iterations left. The tangential velocity
 * is what friction left of the displacement, d_t / h. Along the normal a
 * bounce leaves with its parabola's velocity; a resting contact's push out of the surface
 * (an initial overlap, the constraints) is a correction, not a velocity, so only motion
 * beyond where the contact holds the point (a rope lifting it) is kept. */
void collide_respond(const struct model *m, struct state *s)
{
    struct collide_work *w = s->cache->collide;
    if (!w || !w->contacts)
        return;
    const double h = m->dt / m->substeps;
    for (size_t k = 0; k < w->ntouched; k++) {
        const uint32_t i = w->touched[k];
        const struct contact *c = &w->contacts[i];
        const vec3 d = v3_sub(s->x[i], s->xprev[i]);
        const vec3 dt = v3_sub(d, v3_scale(c->n, v3_dot(d, c->n)));
        const double above = fmax(v3_dot(v3_sub(s->x[i], c->surf), c->n) - c->lift, 0.0);
        velocity_set(m, s, i, v3_add(v3_scale(dt, 1.0 / h), v3_scale(c->n, (c->dy + above) / h)));
    }
}

/* The first call of a substep with contacts copies the model's inverse masses; later calls
 * only zero the points that have touched since. */
const double *collide_frozen_masses(const struct model *m, struct state *s)
{
    struct collide_work *w = s->cache->collide;
    if (!w || !w->frozen || w->ntouched == 0)
        return m->inv_mass;
    if (w->nfrozen == 0)
        memcpy(w->frozen, m->inv_mass, s->npoints * sizeof *w->frozen);
    for (; w->nfrozen < w->ntouched; w->nfrozen++)
        w->frozen[w->touched[w->nfrozen]] = 0.0;
    return w->frozen;
}
